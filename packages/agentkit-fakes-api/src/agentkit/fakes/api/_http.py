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
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import zlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import field

from agentkit.core._frozen import dataclass

__all__ = ["Dropped", "HttpServer", "Incoming", "Streamed", "Whole", "decoded"]


@dataclass(frozen=True, slots=True)
class Incoming:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    decode_error: str | None = None
    """Why the body could not be decoded (an unknown ``Content-Encoding``)."""


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


Answer = Whole | Streamed | Dropped
Handler = Callable[[Incoming], Awaitable[Answer]]


class _BadRequest(Exception):
    pass


def _decode(body: bytes, encoding: str) -> bytes:
    if encoding in ("", "identity"):
        return body
    if encoding == "gzip":
        import gzip  # a gzip body is rare: not on the import path of every test

        return gzip.decompress(body)
    if encoding == "deflate":
        return zlib.decompress(body)
    raise _BadRequest(f"Content-Encoding {encoding!r} is not supported by the fake API")


async def _read(reader: asyncio.StreamReader) -> Incoming | None:
    line = await reader.readline()
    if not line:
        return None
    try:
        method, path, _version = line.decode("latin-1").rstrip("\r\n").split(" ", 2)
    except ValueError:
        raise _BadRequest(f"malformed request line {line!r}") from None
    headers: dict[str, str] = {}
    while True:
        raw = await reader.readline()
        if raw in (b"\r\n", b"\n", b""):
            break
        name, _, value = raw.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        parts: list[bytes] = []
        while True:
            size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                    pass
                break
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)
        body = b"".join(parts)
    else:
        length = int(headers.get("content-length") or 0)
        body = await reader.readexactly(length) if length else b""
    return decoded(method, path, headers, body)


def decoded(method: str, path: str, headers: dict[str, str], body: bytes) -> Incoming:
    """The request as a handler takes it, its body decoded by its ``Content-Encoding``
    (the in-process transport builds its requests here too)."""
    try:
        body = _decode(body, headers.get("content-encoding", "").lower())
    except (_BadRequest, OSError, zlib.error) as exc:
        return Incoming(method, path, headers, body, decode_error=str(exc))
    return Incoming(method, path, headers, body)


def _head(status: int, headers: dict[str, str]) -> bytes:
    from http import HTTPStatus  # on the first answer, not on import

    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = "Overloaded" if status == 529 else "Error"
    lines = [f"HTTP/1.1 {status} {reason}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


class HttpServer:
    """Serves ``handler`` on ``127.0.0.1:<ephemeral port>`` until :meth:`close`."""

    def __init__(self, handler: Handler, *, name: str) -> None:
        self._handler = handler
        self._name = name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._port = 0
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def port(self) -> int:
        return self._port

    def start(self) -> None:
        ready = threading.Event()
        failure: list[BaseException] = []
        loop = asyncio.new_event_loop()
        holder: list[asyncio.Server] = []

        async def open_server() -> None:
            server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
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
        waiting on the brain gets a moment to finish, then is cancelled.
        """
        server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        if self._tasks:
            _, pending = await asyncio.wait(list(self._tasks), timeout=1.0)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)
        await server.wait_closed()

    def close(self) -> None:
        loop, thread = self._loop, self._thread
        self._loop = self._thread = None
        if loop is None or thread is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        thread.join()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        self._writers.add(writer)
        try:
            while await self._one(reader, writer):
                pass
        except (ConnectionError, asyncio.IncompleteReadError, _BadRequest, ValueError):
            pass
        except asyncio.CancelledError:
            # Only close() cancels a handler. Ending normally keeps asyncio's stream
            # callback (which asks a finished task for its exception) from logging it.
            pass
        finally:
            self._writers.discard(writer)
            if task is not None:
                self._tasks.discard(task)
            writer.close()
            with contextlib.suppress(ConnectionError, asyncio.CancelledError):
                await writer.wait_closed()

    async def _one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """Answer one request; whether the connection may carry another."""
        incoming = await _read(reader)
        if incoming is None:
            return False
        keep = incoming.headers.get("connection", "").lower() != "close"
        answer = await self._handler(incoming)
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
            return keep
        headers = {
            "content-type": "text/event-stream; charset=utf-8",
            "cache-control": "no-cache",
            "transfer-encoding": "chunked",
        }
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
