"""A small HTTP/1.1 server on 127.0.0.1, run by an asyncio loop in a thread of its own.

Why the standard library, and why asyncio: a fakes package depends on
agentkit-core alone, and what the wire needs is small -- read a request with
a ``Content-Length`` (or chunked) body, answer with a whole body or with a
chunked Server-Sent-Events stream that can be cut off without its
terminating chunk. ``asyncio.start_server`` does that in a few lines and runs
the brain's async ``stream`` natively; a thread of its own lets a blocking
client (a synchronous SDK, a subprocess the test waits on) and an async test
on its own loop both talk to it. Connections are kept alive between requests
(the SDKs pool them); every connection is closed, the loop stopped and the
thread joined on :meth:`HttpServer.close`, so nothing is left behind.

A request that is not readable HTTP is never dropped without a word: a
broken request line or header is a 400, a request line or header line over
64 KiB a 414 or 431, a body over the API's limit a 413, an unsupported
``Expect`` a 417, an HTTP version other than 1.x a 505 -- handed to the
handler as an :class:`Incoming` with :attr:`Incoming.refused` set, so it is
logged and recorded like any bad request, then the connection is closed (its
framing is lost). An HTTP/1.0 client gets no chunked encoding and a closed
connection; ``Expect: 100-continue`` gets its ``100 Continue``.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
import zlib
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field

__all__ = [
    "BodyLimit",
    "Dropped",
    "HttpServer",
    "Incoming",
    "Refused",
    "Relayed",
    "Streamed",
    "UpstreamCut",
    "Whole",
    "decoded",
]


@dataclass(frozen=True, slots=True)
class Incoming:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    decode_error: str | None = None
    """Why the body could not be decoded (an unknown ``Content-Encoding``)."""
    refused: Refused | None = None
    """Why the request could not be read at all (malformed HTTP): answered with that
    status, and the connection closed after it, since its framing is lost."""
    version: str = "HTTP/1.1"


@dataclass(frozen=True, slots=True)
class Refused:
    """A request the HTTP layer could not read: the status it earns and why."""

    status: int
    reason: str


@dataclass(frozen=True, slots=True)
class Whole:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json"


@dataclass(frozen=True, slots=True)
class Streamed:
    frames: Sequence[bytes]
    cut: bool = False
    """Close the connection after the frames, without the terminating chunk."""
    status: int = 200


@dataclass(frozen=True, slots=True)
class Dropped:
    """Close the connection without answering."""


@dataclass(frozen=True, slots=True)
class Relayed:
    """An answer passed on as it arrives: another server's event stream, chunk by chunk
    (a FakeApi forwarding to the provider, :mod:`agentkit.fakes.api._forward`).

    ``chunks`` blocks for each next chunk (it reads the provider's socket), so the
    server pulls it from a worker thread; :class:`UpstreamCut` raised by it ends the
    answer without its terminating chunk, as the provider's own stream ended.
    """

    status: int
    headers: dict[str, str]
    chunks: Iterator[bytes]


class UpstreamCut(Exception):
    """The stream being relayed broke off: the client's is cut there too."""


Answer = Whole | Streamed | Relayed | Dropped
Handler = Callable[[Incoming], Awaitable[Answer]]
BodyLimit = Callable[[str], int]
"""The largest body, in bytes, a path takes (the API's own limit)."""

MAX_HEADER_LINE = 64 * 1024
"""The longest request or header line read; longer is a 414 or a 431."""
MAX_HEADERS = 256 * 1024
"""The most header bytes one request may carry; more is a 431."""
_DRAIN_AT_MOST = 256 * 1024 * 1024
"""An oversized body up to this size is read and thrown away before the 413, so the
client, still sending, reads the answer instead of a reset connection."""
_LINGER = 1.0
"""How long a refused client may go on sending before its connection is closed."""
_VERSION = re.compile(r"HTTP/(\d)\.(\d)")
_HEX = re.compile(rb"[0-9A-Fa-f]{1,16}")
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")


class _BadRequest(Exception):
    """The request cannot be read: ``status`` is what the client is told."""

    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        super().__init__(reason)


def _decode(body: bytes, encoding: str) -> bytes:
    if encoding in ("", "identity"):
        return body
    if encoding == "gzip":
        import gzip  # a gzip body is rare: not on the import path of every test

        return gzip.decompress(body)
    if encoding == "deflate":
        return zlib.decompress(body)
    raise _BadRequest(400, f"Content-Encoding {encoding!r} is not supported by the fake API")


async def _line(reader: asyncio.StreamReader, status: int, what: str) -> bytes:
    """One CRLF-ended line; a longer one than the reader's limit is ``status``."""
    try:
        return await reader.readuntil(b"\n")
    except asyncio.LimitOverrunError:
        raise _BadRequest(status, f"{what} is longer than {MAX_HEADER_LINE} bytes") from None
    except asyncio.IncompleteReadError as exc:
        return exc.partial


class _Head:
    """A request's line and headers, read; what its body takes is decided from them."""

    def __init__(self, method: str, path: str, version: str, headers: dict[str, str]) -> None:
        self.method, self.path, self.version, self.headers = method, path, version, headers


async def _read_head(reader: asyncio.StreamReader) -> _Head | None:
    line = await _line(reader, 414, "the request line")
    while line in (b"\r\n", b"\n"):  # a stray line break between requests is allowed
        line = await _line(reader, 414, "the request line")
    if not line:
        return None
    parts = line.decode("latin-1").rstrip("\r\n").split(" ")
    if len(parts) != 3 or not _TOKEN.fullmatch(parts[0]) or not parts[1]:
        raise _BadRequest(400, f"malformed request line {line[:200]!r}")
    method, path, version = parts
    found = _VERSION.fullmatch(version)
    if found is None:
        raise _BadRequest(400, f"malformed HTTP version {version[:40]!r}")
    if found.group(1) != "1":
        raise _BadRequest(505, f"{version} is not served: the fake API speaks HTTP/1.1")
    return _Head(method, path, version, await _headers(reader))


async def _headers(reader: asyncio.StreamReader) -> dict[str, str]:
    """The header lines up to the blank one, as ``{lowercased name: value}`` (a repeated
    name's last value kept; two different framing or Host values refused).

    ``readuntil`` is called here directly, not through :func:`_line`: a request
    carries twenty-odd headers and a loopback client sends one per call.
    """
    headers: dict[str, str] = {}
    size = 0
    while True:
        try:
            raw = await reader.readuntil(b"\n")
        except asyncio.LimitOverrunError:  # an IncompleteReadError (left mid-headers) goes on
            raise _BadRequest(
                431, f"a header line is longer than {MAX_HEADER_LINE} bytes"
            ) from None
        if raw in (b"\r\n", b"\n"):
            return headers
        size += len(raw)
        if size > MAX_HEADERS:
            raise _BadRequest(431, f"the request's headers are over {MAX_HEADERS} bytes")
        name, colon, value = raw.decode("latin-1").partition(":")
        if not colon or not _TOKEN.fullmatch(name):
            raise _BadRequest(400, f"malformed header line {raw[:80]!r}")
        key = name.lower()
        value = value.strip()
        if key in _SINGLE and headers.get(key, value) != value:
            raise _BadRequest(400, f"two different {name} headers")
        headers[key] = value


_SINGLE = frozenset(("content-length", "transfer-encoding", "host"))
"""Headers whose two different values would make the request mean two things."""


def _length(head: _Head) -> int | None:
    """The body's declared length; None for a chunked body."""
    coding = head.headers.get("transfer-encoding")
    if coding is not None:
        if coding.lower() != "chunked":
            raise _BadRequest(400, f"Transfer-Encoding {coding!r} is not supported")
        return None
    raw = head.headers.get("content-length", "0") or "0"
    if not raw.isdigit() or not raw.isascii():
        raise _BadRequest(400, f"Content-Length {raw[:40]!r} is not a length")
    return int(raw)


async def _chunked(reader: asyncio.StreamReader, limit: int) -> bytes:
    parts: list[bytes] = []
    total = 0
    while True:
        line = await _line(reader, 400, "a chunk-size line")
        if not line.endswith(b"\n"):
            raise asyncio.IncompleteReadError(line, None)
        text = line.split(b";", 1)[0].strip()
        if not _HEX.fullmatch(text):  # int() would also take "0x1f", "-1", "1_0"
            raise _BadRequest(400, f"malformed chunk size {text[:40]!r}")
        size = int(text, 16)
        if size == 0:
            while (await _line(reader, 431, "a trailer line")) not in (b"\r\n", b"\n", b""):
                pass
            return b"".join(parts)
        total += size
        if total > limit:
            raise _BadRequest(413, f"the request body is over {limit} bytes")
        parts.append(await reader.readexactly(size))
        if (await reader.readexactly(2)).strip(b"\r\n"):
            raise _BadRequest(400, "a chunk is longer than its size says")


async def _drain(reader: asyncio.StreamReader, length: int) -> None:
    """Read and forget ``length`` bytes (an oversized body, refused)."""
    while length > 0:
        data = await reader.read(min(length, 1 << 20))
        if not data:
            return
        length -= len(data)


async def _read(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, limit: BodyLimit
) -> Incoming | None:
    try:
        head = await _read_head(reader)
    except _BadRequest as exc:
        return Incoming("", "", {}, b"", refused=Refused(exc.status, str(exc)))
    if head is None:
        return None
    try:
        return await _read_body(reader, writer, head, limit)
    except _BadRequest as exc:
        return Incoming(
            head.method,
            head.path,
            head.headers,
            b"",
            refused=Refused(exc.status, str(exc)),
            version=head.version,
        )


async def _read_body(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, head: _Head, limit: BodyLimit
) -> Incoming:
    headers = head.headers
    most = limit(head.path.split("?", 1)[0])
    length = _length(head)
    expect = headers.get("expect", "").lower()
    if expect and expect != "100-continue":
        raise _BadRequest(417, f"Expect {headers['expect']!r} is not supported")
    if length is not None and length > most:
        if not expect and length <= _DRAIN_AT_MOST:
            await _drain(reader, length)
        raise _BadRequest(
            413, f"the request body is {length} bytes, over the {most} this API takes"
        )
    if expect and head.version == "HTTP/1.1" and length != 0:
        writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")  # the client waits for it to send the body
    if length is None:
        body = await _chunked(reader, most)
    else:
        body = await reader.readexactly(length) if length else b""
    return decoded(head.method, head.path, headers, body, head.version)


def decoded(
    method: str, path: str, headers: dict[str, str], body: bytes, version: str = "HTTP/1.1"
) -> Incoming:
    """The request as a handler takes it, its body decoded by its ``Content-Encoding``
    (the in-process transport builds its requests here too)."""
    try:
        body = _decode(body, headers.get("content-encoding", "").lower())
    except (_BadRequest, OSError, zlib.error) as exc:
        return Incoming(method, path, headers, body, str(exc), version=version)
    return Incoming(method, path, headers, body, version=version)


async def _linger(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """After refusing a request it did not read to its end: say no more is coming (FIN),
    and read what the client still sends for a moment before the connection closes.

    Closing a socket with unread input makes the kernel send a reset, which
    can reach the client before it has read the refusal: it would see a broken
    connection instead of the status.
    """
    with contextlib.suppress(OSError, RuntimeError):
        writer.write_eof()
    with contextlib.suppress(OSError, TimeoutError, ValueError, asyncio.LimitOverrunError):
        async with asyncio.timeout(_LINGER):
            while await reader.read(1 << 20):
                pass


def _head(status: int, headers: dict[str, str]) -> bytes:
    from http import HTTPStatus  # on the first answer, not on import

    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = "Overloaded" if status == 529 else "Error"
    lines = [f"HTTP/1.1 {status} {reason}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _keeps_alive(incoming: Incoming) -> bool:
    """HTTP/1.1 keeps a connection unless told to close."""
    if incoming.refused is not None:
        return False  # the framing of the stream is lost: what follows cannot be read
    if incoming.version == "HTTP/1.0":
        return False  # an HTTP/1.0 client is answered once, and the connection closed
    return incoming.headers.get("connection", "").lower() != "close"


class HttpServer:
    """Serves ``handler`` on ``127.0.0.1:<ephemeral port>`` until :meth:`close`.

    ``limit`` gives the largest body each path takes: a longer one is refused
    with 413 before it is kept in memory.
    """

    def __init__(self, handler: Handler, *, name: str, limit: BodyLimit) -> None:
        self._handler = handler
        self._name = name
        self._limit = limit
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._port = 0
        self._closing = False
        self._writers: set[asyncio.StreamWriter] = set()
        self._busy: dict[asyncio.Task[None], str] = {}

    @property
    def port(self) -> int:
        return self._port

    @property
    def busy(self) -> list[str]:
        """The requests being answered now (``"POST /v1/messages"``), oldest first."""
        return list(self._busy.values())

    def start(self) -> None:
        ready = threading.Event()
        failure: list[BaseException] = []
        loop = asyncio.new_event_loop()
        holder: list[asyncio.Server] = []

        async def open_server() -> None:
            server = await asyncio.start_server(
                self._connection, "127.0.0.1", 0, limit=MAX_HEADER_LINE
            )
            holder.append(server)
            self._port = int(server.sockets[0].getsockname()[1])

        def run() -> None:
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(open_server())
            except BaseException as exc:
                failure.append(exc)
                ready.set()
                loop.close()
                return
            ready.set()
            try:
                loop.run_forever()
            finally:
                loop.run_until_complete(self._shutdown(holder[0]))
                loop.run_until_complete(loop.shutdown_asyncgens())
                loop.close()

        thread = threading.Thread(target=run, name=self._name, daemon=True)
        thread.start()
        ready.wait()
        if failure:
            thread.join()
            raise failure[0]
        self._loop, self._thread = loop, thread

    async def _shutdown(self, server: asyncio.Server) -> None:
        """Close the listening socket and every connection, then wait for their handlers.

        Aborting a connection ends its handler's read at once; a handler still
        waiting on the brain gets a moment to finish, then is cancelled. A
        connection accepted while this runs -- its handler not started yet --
        is closed too: every task still on the loop is waited for, and a
        handler starting now closes its connection at once (``_closing``),
        so nothing is left for the garbage collector.
        """
        self._closing = True
        server.close()
        me = asyncio.current_task()
        grace = 1.0
        for _ in range(100):  # each round only finds connections accepted during the last
            for writer in list(self._writers):
                writer.transport.abort()
            others = [t for t in asyncio.all_tasks() if t is not me and not t.done()]
            if not others:
                break
            _, pending = await asyncio.wait(others, timeout=grace)
            grace = 0.1
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)
        await server.wait_closed()

    def close(self, timeout: float) -> bool:
        """Stop serving; whether the thread stopped within ``timeout`` seconds.

        False when a handler blocks the loop (a brain that sleeps or waits
        synchronously): the daemon thread is then left to finish on its own.
        """
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return True
        self._loop = self._thread = None
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout)
        return not thread.is_alive()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._closing:  # accepted while close() runs: closed, not served
            writer.transport.abort()
            return
        task = asyncio.current_task()
        self._writers.add(writer)
        try:
            while await self._one(reader, writer, task):
                pass
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # the client went away mid-request: nobody to answer
        except asyncio.CancelledError:
            # Only close() cancels a handler. Ending normally keeps asyncio's stream
            # callback (which asks a finished task for its exception) from logging it.
            pass
        finally:
            self._writers.discard(writer)
            writer.close()
            with contextlib.suppress(ConnectionError, asyncio.CancelledError):
                await writer.wait_closed()

    async def _one(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        task: asyncio.Task[None] | None,
    ) -> bool:
        """Answer one request; whether the connection may carry another."""
        incoming = await _read(reader, writer, self._limit)
        if incoming is None:
            return False
        keep = _keeps_alive(incoming)
        if task is not None:
            self._busy[task] = f"{incoming.method} {incoming.path}"
        try:
            answer = await self._handler(incoming)
        finally:
            if task is not None:
                self._busy.pop(task, None)
        if isinstance(answer, Dropped):
            return False
        if isinstance(answer, Whole):
            headers = {
                "content-type": answer.content_type,
                "content-length": str(len(answer.body)),
                **answer.headers,
            }
            if not keep:
                headers["connection"] = "close"
            writer.write(_head(answer.status, headers) + answer.body)
            await writer.drain()
            if incoming.refused is not None:
                await _linger(reader, writer)
            return keep
        if isinstance(answer, Relayed):
            return await _relay(writer, answer, keep and incoming.version != "HTTP/1.0")
        if incoming.version == "HTTP/1.0":
            # No chunked encoding for an HTTP/1.0 client: the body ends where the connection does.
            headers = {**_STREAM_HEADERS, "connection": "close"}
            parts = [_head(answer.status, headers), *answer.frames]
            writer.write(b"".join(parts))
            await writer.drain()
            return False
        headers = {**_STREAM_HEADERS, "transfer-encoding": "chunked"}
        if not keep or answer.cut:
            headers["connection"] = "close"
        # Each event is one chunk; the reply is whole already (see _call.collect), so the
        # chunks go out in one write rather than one system call and drain per event.
        parts = [_head(answer.status, headers)]
        parts += [f"{len(data):x}\r\n".encode() + data + b"\r\n" for data in answer.frames]
        if not answer.cut:
            parts.append(b"0\r\n\r\n")
        writer.write(b"".join(parts))
        await writer.drain()
        return keep and not answer.cut  # cut: no terminating chunk, the client sees a broken stream


_STREAM_HEADERS = {"content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache"}


async def _relay(writer: asyncio.StreamWriter, answer: Relayed, keep: bool) -> bool:
    """Write ``answer`` chunk by chunk as its source yields them; whether to keep the
    connection. A client that cannot take chunked encoding (HTTP/1.0) gets the bytes as
    they come and a closed connection at the end."""
    chunked = keep
    headers = (
        {**answer.headers, "transfer-encoding": "chunked"} if chunked else dict(answer.headers)
    )
    if not keep:
        headers["connection"] = "close"
    writer.write(_head(answer.status, headers))
    source = answer.chunks
    try:
        while data := await asyncio.to_thread(next, source, b""):
            writer.write(f"{len(data):x}\r\n".encode() + data + b"\r\n" if chunked else data)
            await writer.drain()
    except UpstreamCut:
        await writer.drain()
        return False  # no terminating chunk: the client sees the stream broken off
    finally:
        close: Callable[[], object] | None = getattr(source, "close", None)
        if close is not None:
            close()  # a client gone mid-stream: the source still ends (and is kept)
    if chunked:
        writer.write(b"0\r\n\r\n")
    await writer.drain()
    return keep
