"""A loopback stand-in for the model APIs the real CLIs call, scripted per scenario.

The parity suite runs the real claude and codex binaries, and those binaries
talk HTTP to a model API. Pointing them at this server instead keeps every
run offline, free and deterministic: the scenario decides what "the model"
says, and the CLI's own code decides everything it writes to stdout -- which
is the part the recordings are about.

One server answers both APIs (claude POSTs ``/v1/messages``, codex POSTs
``/v1/responses``); a scenario is a :data:`Script`, a function from the
:class:`Request` to a :class:`Reply`. Replies are

* :class:`Sse` -- a Server-Sent-Events stream, sent with chunked transfer
  encoding so that :attr:`Sse.break_after` (close the socket after that many
  events, without the terminating chunk) is a *broken* stream to the client,
  not a short one;
* :class:`JsonReply` -- a plain JSON body with a status: the error answers
  (400, 401, 529, ...) and small endpoints such as token counting.

It binds ``127.0.0.1`` on an ephemeral port and nothing else; every request
is kept in :attr:`MockApi.requests`, so a scenario can check what the CLI
sent (the tool result it fed back, the number of calls it made).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

__all__ = [
    "JsonReply",
    "MockApi",
    "Reply",
    "Request",
    "Script",
    "Sse",
    "sse_frame",
]


@dataclass(frozen=True, slots=True)
class Request:
    """One HTTP request the CLI made."""

    method: str
    path: str
    headers: Mapping[str, str]
    body: Any
    """The JSON body, parsed; None when there was none or it was not JSON."""

    @property
    def route(self) -> str:
        """The path without its query string."""
        return self.path.split("?", 1)[0]


@dataclass(frozen=True, slots=True)
class Sse:
    """A streamed answer: ``(event name, JSON data)`` pairs, in order."""

    events: Sequence[tuple[str, Mapping[str, Any]]]
    break_after: int | None = None
    """Send this many events, then drop the connection mid-stream."""
    status: int = 200


@dataclass(frozen=True, slots=True)
class JsonReply:
    """A whole JSON answer with an HTTP status."""

    status: int
    body: Mapping[str, Any]
    headers: Mapping[str, str] = field(default_factory=dict)


Reply = Sse | JsonReply
Script = Callable[[Request], Reply]


def sse_frame(event: str, data: Mapping[str, Any]) -> bytes:
    """One SSE frame as the APIs write it: an ``event:`` line, a ``data:`` line, a blank line."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


def _not_found(request: Request) -> Reply:
    return JsonReply(
        404,
        {"type": "error", "error": {"type": "not_found_error", "message": request.route}},
    )


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the suite reports per scenario; the request log is on the server."""

    def _request(self) -> Request:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        body: Any = None
        if raw:
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
        headers = {k.lower(): v for k, v in self.headers.items()}
        return Request(self.command, self.path, headers, body)

    def _answer(self) -> None:
        request = self._request()
        owner = self.server.owner
        owner._record(request)
        try:
            reply = owner.script(request)
        except Exception as exc:  # a script bug must show, not hang the CLI
            owner._fail(f"{request.method} {request.route}: the script raised {exc!r}")
            reply = JsonReply(
                500, {"type": "error", "error": {"type": "api_error", "message": repr(exc)}}
            )
        self.close_connection = True
        if isinstance(reply, JsonReply):
            data = json.dumps(reply.body).encode()
            self.send_response(reply.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
            return
        self.send_response(reply.status)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()
        for sent, (name, payload) in enumerate(reply.events):
            if reply.break_after is not None and sent >= reply.break_after:
                self.wfile.flush()
                return  # no terminating chunk: the client sees a broken stream
            frame = sse_frame(name, payload)
            self.wfile.write(f"{len(frame):x}\r\n".encode() + frame + b"\r\n")
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")

    def do_POST(self) -> None:
        self._answer()

    def do_GET(self) -> None:
        self._answer()

    def do_HEAD(self) -> None:
        self._answer()


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, owner: MockApi) -> None:
        self.owner = owner
        super().__init__(("127.0.0.1", 0), _Handler)


class MockApi:
    """The server: ``with MockApi(script) as api:`` serves on :attr:`url` until the block ends.

    :attr:`script` may be replaced between runs (one server per suite run,
    one script per scenario); :meth:`reset` clears the request log.
    :attr:`failures` collects scripts that raised -- the suite reports them,
    because a CLI answered with a 500 the scenario never meant is a wrong
    recording, not a CLI behaviour.
    """

    def __init__(self, script: Script = _not_found) -> None:
        self.script: Script = script
        self.requests: list[Request] = []
        self.failures: list[str] = []
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # ----------------------------------------------------------- lifecycle

    def start(self) -> MockApi:
        if self._server is not None:
            raise RuntimeError("the mock API is already running")
        self._server = _Server(self)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="parity-mock-api",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if server is not None:
            server.shutdown()
            server.server_close()
        if thread is not None:
            thread.join(timeout=5)

    def __enter__(self) -> MockApi:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # -------------------------------------------------------------- state

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the mock API is not running")
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT`` (no trailing slash, no path)."""
        return f"http://127.0.0.1:{self.port}"

    def use(self, script: Script) -> None:
        """Serve ``script`` from now on, with an empty request log."""
        with self._lock:
            self.script = script
            self.requests.clear()
            self.failures.clear()

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.failures.clear()

    def _record(self, request: Request) -> None:
        with self._lock:
            self.requests.append(request)

    def _fail(self, message: str) -> None:
        with self._lock:
            self.failures.append(message)

    def calls(self, route: str) -> list[Request]:
        """The requests made to ``route`` so far, in order."""
        with self._lock:
            return [r for r in self.requests if r.route == route]
