"""FakeApi without a socket: an HTTP transport for httpx-style clients, answering in-process.

The official SDKs (and the frameworks built on them) send every request
through an HTTP client of the httpx family -- ``httpx2`` today, ``httpx``
for older ones -- and each of those takes a *transport*: the object that
turns a request into a response. :class:`InProcessTransport` is one, so
``httpx2.Client(transport=api.transport())`` (or an ``AsyncClient``) given
to an SDK as its ``http_client`` talks to the FakeApi with no port, no
thread and no connection.

One algorithm in one place: a request is turned into the loopback server's
own :class:`~agentkit.fakes.api._http.Incoming` and answered by the same
:class:`~agentkit.fakes.api._answer.Answerer` the server runs, so the request
log, the violations and every error status are the loopback server's; only
the bytes do not cross a socket. What the socket would have done is done
here in the client library's own terms: a whole answer is a response with
that body, a stream a response with the events, a stream cut off mid-way
raises the library's ``RemoteProtocolError`` after the events that went
out, and a dropped connection raises it before any answer -- the very
exceptions a client sees on loopback.

Why duck-typed: agentkit-fakes-api depends on agentkit-core alone, and the
SDKs moved from ``httpx`` to ``httpx2``. No import names either library: the
response is built with the classes of the module the request came from, so
one transport serves whichever library the client uses.

A synchronous client is answered on an event loop of the transport's own
(one per calling thread, closed with the transport or when it is
collected); a synchronous client called from inside a running loop (a sync
SDK in an async test) is answered on a short-lived thread, since a thread
runs one loop at a time. An asynchronous client is answered on its own loop.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import weakref
from collections.abc import AsyncIterator, Coroutine, Iterator, Sequence
from types import ModuleType, TracebackType
from typing import Any, Self

from agentkit.fakes.api._answer import Answerer, body_limit
from agentkit.fakes.api._http import (
    Answer,
    Dropped,
    Incoming,
    Refused,
    Relayed,
    Streamed,
    decoded,
)

__all__ = ["InProcessTransport"]

DISCONNECTED = "Server disconnected without sending a response."
"""What an httpx-family client raises when the server closes without answering."""
INCOMPLETE = "peer closed connection without sending complete message body: incomplete chunked read"
"""What it raises when a chunked (event) stream ends without its terminating chunk."""
EVENT_STREAM = {"content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache"}


def _library(request: Any) -> ModuleType:
    """The client library ``request`` belongs to (``httpx2``, ``httpx``): its Response, its errors."""
    return sys.modules[type(request).__module__.partition(".")[0]]


def _incoming(request: Any) -> Incoming:
    """The request as the loopback server reads it off the socket: the raw header bytes
    as latin-1, names lowercased, a repeated name's last value kept (``headers.items()``
    would decode and join them, guessing each one's encoding: a tenth of the call)."""
    headers = {
        name.decode("latin-1").lower(): value.decode("latin-1")
        for name, value in request.headers.raw
    }
    path = request.url.raw_path.decode("latin-1")
    body: bytes = request.content
    most = body_limit(path.split("?", 1)[0])
    if len(body) > most:  # the server refuses it unread, before it is kept in memory
        reason = f"the request body is {len(body)} bytes, over the {most} this API takes"
        return Incoming(request.method, path, headers, b"", refused=Refused(413, reason))
    return decoded(request.method, path, headers, body)


def _response(lib: ModuleType, request: Any, answer: Answer) -> Any:
    if isinstance(answer, Dropped):
        raise lib.RemoteProtocolError(DISCONNECTED, request=request)
    if isinstance(answer, Relayed):
        from agentkit.fakes.api._forward import relayed_stream

        stream = relayed_stream(lib, INCOMPLETE)(answer.chunks, request)
        return lib.Response(answer.status, headers=answer.headers, stream=stream, request=request)
    if isinstance(answer, Streamed):
        headers = dict(EVENT_STREAM)
        if answer.cut:
            return lib.Response(
                answer.status,
                headers=headers,
                stream=_cut_stream(lib)(answer.frames, request),
                request=request,
            )
        content = b"".join(answer.frames)
    else:
        headers = {"content-type": answer.content_type, **answer.headers}
        content = answer.body
    return lib.Response(answer.status, headers=headers, content=content, request=request)


_CUT_STREAMS: dict[str, type] = {}


def _cut_stream(lib: ModuleType) -> type:
    """A byte stream of ``lib``'s (sync and async) that yields the frames, then breaks."""
    made = _CUT_STREAMS.get(lib.__name__)
    if made is not None:
        return made

    class CutStream(lib.SyncByteStream, lib.AsyncByteStream):  # type: ignore[name-defined,misc]
        def __init__(self, frames: Sequence[bytes], request: Any) -> None:
            self._frames = frames
            self._request = request

        def __iter__(self) -> Iterator[bytes]:
            yield from self._frames
            raise lib.RemoteProtocolError(INCOMPLETE, request=self._request)

        async def __aiter__(self) -> AsyncIterator[bytes]:
            for data in self._frames:
                yield data
            raise lib.RemoteProtocolError(INCOMPLETE, request=self._request)

    _CUT_STREAMS[lib.__name__] = CutStream
    return CutStream


def _close_loops(loops: list[asyncio.AbstractEventLoop]) -> None:
    for loop in loops:
        if not loop.is_closed():
            loop.close()
    loops.clear()


class InProcessTransport:
    """An httpx-family transport (sync and async) answering with ``api``, in this process.

    Made by :meth:`FakeApi.transport() <agentkit.fakes.api.FakeApi.transport>`;
    give it to the SDK's HTTP client: ``httpx2.Client(transport=...)`` or
    ``httpx2.AsyncClient(transport=...)``. The FakeApi need not be started.
    """

    def __init__(self, answerer: Answerer) -> None:
        self._answer = answerer
        self._local = threading.local()
        self._loops: list[asyncio.AbstractEventLoop] = []
        self._lock = threading.Lock()
        # A client that is never closed must not leave open loops behind (a ResourceWarning).
        self._finalizer = weakref.finalize(self, _close_loops, self._loops)

    # ------------------------------------------------------------- sync

    def handle_request(self, request: Any) -> Any:
        """Answer a synchronous client's request (``httpx2.Client``)."""
        request.read()
        answer = self._run(self._answer(_incoming(request)))
        return _response(_library(request), request, answer)

    def _run(self, answering: Coroutine[Any, Any, Answer]) -> Answer:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return self._loop().run_until_complete(answering)
        return _on_a_thread(answering)

    def _loop(self) -> asyncio.AbstractEventLoop:
        loop: asyncio.AbstractEventLoop | None = getattr(self._local, "loop", None)
        if loop is None or loop.is_closed():
            loop = asyncio.new_event_loop()
            with self._lock:
                self._loops.append(loop)
            self._local.loop = loop
        return loop

    def close(self) -> None:
        """Close the loops the synchronous path made. Idempotent; the FakeApi stays as it is."""
        with self._lock:
            _close_loops(self._loops)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None = None,
        exc: BaseException | None = None,
        tb: TracebackType | None = None,
    ) -> None:
        self.close()

    # ------------------------------------------------------------ async

    async def handle_async_request(self, request: Any) -> Any:
        """Answer an asynchronous client's request (``httpx2.AsyncClient``) on its own loop."""
        await request.aread()
        answer = await self._answer(_incoming(request))
        return _response(_library(request), request, answer)

    async def aclose(self) -> None:
        self.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None = None,
        exc: BaseException | None = None,
        tb: TracebackType | None = None,
    ) -> None:
        self.close()


def _on_a_thread(answering: Coroutine[Any, Any, Answer]) -> Answer:
    """Run ``answering`` to its end on a thread of its own (this thread's loop is busy)."""
    result: list[Answer] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(asyncio.run(answering))
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=run, name="agentkit-fake-api-inprocess", daemon=True)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]
