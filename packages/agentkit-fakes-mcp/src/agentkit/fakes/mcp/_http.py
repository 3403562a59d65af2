"""Streamable HTTP on 127.0.0.1, from the standard library's ``http.server``.

MCP's streamable HTTP needs little of HTTP: a POST with a JSON body answered
with a JSON body (or ``202 Accepted`` and none), a GET the server may refuse
with ``405`` (no server-initiated stream), a DELETE ending a session. The
standard library's threading server parses requests and keeps connections
alive (the CLIs pool them); each connection has a thread of its own, so a
tool answer that blocks holds up that one request and no other. Every open
connection is shut on :meth:`Transport.close`, so nothing is left behind.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["Exchange", "Reply", "Transport"]


@dataclass(frozen=True, slots=True)
class Exchange:
    """One HTTP request: its method, path, headers (names lower-cased) and body."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass(frozen=True, slots=True)
class Reply:
    status: int
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = ()


Answerer = Callable[[Exchange], Reply]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, answerer: Answerer) -> None:
        self.answerer = answerer
        self.open: set[socket.socket] = set()
        self.open_lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Quiet: what is left to fail here is a client's connection (a reset, a hang-up);
        the double's own faults are answered and recorded before they get this far."""

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        with self.open_lock:
            self.open.add(request)
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self.open_lock:
                self.open.discard(request)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the CLIs reuse their connections
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the server's own records say what happened."""

    def _body(self) -> bytes:
        """The request body, sent with a ``Content-Length`` or chunked; ValueError when unreadable."""
        if self.headers.get("transfer-encoding", "").lower() == "chunked":
            parts: list[bytes] = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(parts)
                parts.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("content-length") or 0)
        if length < 0:
            raise ValueError(f"Content-Length {length}")
        return self.rfile.read(length) if length else b""

    def _exchange(self) -> None:
        try:
            body = self._body()
        except ValueError:
            self.close_connection = True
            self._send(Reply(400))
            return
        headers = {name.lower(): value for name, value in self.headers.items()}
        self._send(self.server.answerer(Exchange(self.command, self.path, headers, body)))

    def _send(self, reply: Reply) -> None:
        self.send_response(reply.status)
        names = {name.lower() for name, _ in reply.headers}
        for name, value in reply.headers:
            self.send_header(name, value)
        if "content-type" not in names and reply.body:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        if reply.body:
            self.wfile.write(reply.body)

    do_POST = do_GET = do_DELETE = do_PUT = do_PATCH = do_HEAD = _exchange


class Transport:
    """Serves ``answerer`` on ``127.0.0.1:<ephemeral port>`` until :meth:`close`."""

    def __init__(self, answerer: Answerer, *, name: str) -> None:
        self._server = _Server(answerer)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=name,
            daemon=True,
        )
        self._thread.start()

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        with self._server.open_lock:
            still_open = list(self._server.open)
        for sock in still_open:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self._thread.join()
