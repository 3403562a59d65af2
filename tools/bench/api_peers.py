"""FakeApi beside the peers a user would mock an SDK with, per SDK call, in one run.

Method. Each SDK (the openai SDK's ``chat.completions.create``, the
anthropic SDK's ``messages.create``; synchronous clients, no retries) makes
the same request through five contenders, and the figure is the median
latency of one call:

* the floor: ``await FakeLLM.chat(...)`` in-process, no HTTP at all;
* ``httpx2.MockTransport`` -- the bare mock transport of the SDKs' HTTP
  library -- given the client as its transport, its handler answering the
  canned JSON reply (``httpx2.Response(200, json=reply)``, what a test
  writes by hand);
* FakeApi in-process: ``httpx2.Client(transport=api.transport())``;
* ``HTTPXMock`` of httpx2-pytest (the ``httpx2_mock`` fixture's object,
  patched in as the fixture patches it), answering the same canned reply
  with ``add_response(json=reply, is_reusable=True)``;
* FakeApi on loopback: the client's ``base_url`` pointed at the server;
* a bare loopback server, as a reference (not a peer): a thread that reads
  each request (its head to the blank line, then ``Content-Length`` bytes)
  and writes the canned reply back, parsing nothing else. It is what
  loopback costs by itself -- the client's real HTTP stack (httpcore, h11),
  the kernel's round trip, a second thread woken -- so the share of FakeApi
  loopback's cost that is FakeApi's own is the gap above it.

Fairness: each mock's handler builds its response from the canned JSON on
every call, as a test writes it (``httpx2.Response(200, json=reply)``;
``add_response(json=reply, is_reusable=True)``), and HTTPXMock is patched in
exactly as its fixture patches it; FakeApi does the model's work on every call
(reads the request, runs the brain, writes the answer, keeps the request in
its log, screens it for real keys).

The canned reply is the one FakeApi itself answers, so every contender hands
the SDK the same bytes to parse. The contenders take turns -- ``rounds``
rounds, each timing ``batch`` calls of every contender in turn -- so a slow
minute of a shared machine lands on all of them alike, and each call is
timed in CPU time of the process (all its threads, so the loopback server's
work counts), which other jobs on the machine do not inflate as they inflate
wall time. The floor is timed the same way. Targets: in-process
FakeApi ``<= 1.0x`` the mock transport, loopback ``<= 1.3x`` HTTPXMock.

    uv run --group bench python -m tools.bench.api_peers            # full
    uv run --group bench python -m tools.bench.api_peers --quick    # smoke
"""

from __future__ import annotations

import argparse
import gc
import importlib
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

from agentkit.fakes.api import FakeApi
from agentkit.fakes.llm import FakeLLM
from tools.bench.api import MODEL, TEXT, measure_floor, timed
from tools.bench.peers import peer
from tools.bench.stats import Row, Target, format_table, median

__all__ = ["main", "measure_api_peers"]

SECTION = "fake api vs mocks"
IN_PROCESS_LIMIT = 1.0
LOOPBACK_LIMIT = 1.3

Call = Callable[[Any], object]


@dataclass(frozen=True, slots=True)
class _Sdk:
    name: str
    route: str
    """The request path the canned reply answers (taken through FakeApi once)."""
    request: dict[str, Any]
    make: Callable[..., Any]
    """``make(base_url=..., http_client=...)``: a client of this SDK, no retries."""
    call: Call


def _openai() -> _Sdk:
    openai = importlib.import_module("openai")
    ask = [{"role": "user", "content": "Hi"}]
    return _Sdk(
        "openai chat.completions.create",
        "/v1/chat/completions",
        {"model": MODEL, "messages": ask},
        lambda **kw: openai.OpenAI(api_key="bench", max_retries=0, **kw),
        lambda client: client.chat.completions.create(model=MODEL, messages=ask),
    )


def _anthropic() -> _Sdk:
    anthropic = importlib.import_module("anthropic")
    ask = [{"role": "user", "content": "Hi"}]
    return _Sdk(
        "anthropic messages.create",
        "/v1/messages",
        {"model": MODEL, "max_tokens": 100, "messages": ask},
        lambda **kw: anthropic.Anthropic(api_key="bench", max_retries=0, **kw),
        lambda client: client.messages.create(model=MODEL, max_tokens=100, messages=ask),
    )


def _canned(httpx2: Any, api: FakeApi, sdk: _Sdk) -> Any:
    """The reply FakeApi answers ``sdk``'s request with, as JSON: what the mocks hand back."""
    with httpx2.Client(transport=api.transport(), base_url="http://fake") as client:
        reply = client.post(sdk.route, json=sdk.request, headers={"x-api-key": "bench"})
        reply.raise_for_status()
        return reply.json()


MOCKED_HOST = "mocked.invalid"
"""The host of the HTTPXMock contender's base URL: only its requests are mocked, so the
loopback contender's requests (through the same patched HTTPTransport) reach the server."""


@contextmanager
def _httpx_mock(httpx2: Any, reply: Any) -> Iterator[None]:
    """HTTPXMock patched into httpx2's transports, as the ``httpx2_mock`` fixture does it."""
    import pytest

    plugin = peer("pytest_httpx2")
    options = importlib.import_module("pytest_httpx2._options")._HTTPXMockOptions(
        should_mock=lambda request: request.url.host == MOCKED_HOST
    )
    mock = plugin.HTTPXMock(options)
    mock.add_response(json=reply, is_reusable=True)
    real = httpx2.HTTPTransport.handle_request
    patch = pytest.MonkeyPatch()

    def handle(transport: Any, request: Any) -> Any:
        if options.should_mock(request):
            return mock._handle_request(transport, request)
        return real(transport, request)

    patch.setattr(httpx2.HTTPTransport, "handle_request", handle)
    try:
        yield
    finally:
        patch.undo()
        mock.reset()


BARE = "bare loopback server (reference)"


def _serve_canned(listener: socket.socket, reply: bytes) -> None:
    """Answer every request on every connection ``listener`` accepts with ``reply``."""
    while True:
        try:
            connection, _ = listener.accept()
        except OSError:  # the listener was shut down: the bench is over
            return
        with connection:
            _answer_each(connection, reply)


def _answer_each(connection: socket.socket, reply: bytes) -> None:
    """Read each request (its head, then ``Content-Length`` bytes) and send ``reply``."""
    pending = b""
    while True:
        while b"\r\n\r\n" not in pending:
            data = connection.recv(65536)
            if not data:
                return
            pending += data
        head, _, pending = pending.partition(b"\r\n\r\n")
        length = int(head.lower().split(b"content-length:", 1)[1].split(b"\r\n", 1)[0])
        while len(pending) < length:
            data = connection.recv(65536)
            if not data:
                return
            pending += data
        pending = pending[length:]
        connection.sendall(reply)


@contextmanager
def _bare_loopback(body: bytes) -> Iterator[str]:
    """The base URL of a bare loopback server answering ``body`` as JSON (see the docstring)."""
    reply = (
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
        + f"content-length: {len(body)}\r\n\r\n".encode()
        + body
    )
    listener = socket.create_server(("127.0.0.1", 0))
    thread = threading.Thread(target=_serve_canned, args=(listener, reply), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.shutdown(socket.SHUT_RDWR)
        listener.close()
        thread.join(5)


def _measure_sdk(sdk: _Sdk, rounds: int, batch: int) -> dict[str, list[float]]:
    """Per contender, the microseconds of each timed call, the contenders taking turns."""
    httpx2 = importlib.import_module("httpx2")
    llm = FakeLLM(TEXT)
    with FakeApi(llm) as api:
        reply = _canned(httpx2, api, sdk)
        with _bare_loopback(httpx2.Response(200, json=reply).content) as bare_url:
            times = _take_turns(httpx2, api, sdk, reply, bare_url, rounds, batch)
        if api.violations():
            raise RuntimeError(f"the fake API recorded violations: {api.violations()}")
        # Each FakeApi contender's calls reached the FakeApi (none was answered by a mock).
        served = len(api.requests_to(sdk.route))
        expected = 1 + 2 * (5 + rounds * batch)
        if served != expected:
            raise RuntimeError(f"FakeApi answered {served} requests, not {expected}")
    return times


def _take_turns(
    httpx2: Any, api: FakeApi, sdk: _Sdk, reply: Any, bare_url: str, rounds: int, batch: int
) -> dict[str, list[float]]:
    mock = httpx2.MockTransport(lambda request: httpx2.Response(200, json=reply))
    openai = "openai" in sdk.name
    clients = {
        "httpx2.MockTransport": sdk.make(http_client=httpx2.Client(transport=mock)),
        "FakeApi in-process": sdk.make(http_client=httpx2.Client(transport=api.transport())),
        "HTTPXMock (httpx2-pytest)": sdk.make(base_url=f"http://{MOCKED_HOST}"),
        "FakeApi loopback": sdk.make(
            base_url=api.openai_base_url if openai else api.anthropic_base_url
        ),
        BARE: sdk.make(base_url=f"{bare_url}/v1" if openai else bare_url),
    }
    times: dict[str, list[float]] = {name: [] for name in clients}
    try:
        with _httpx_mock(httpx2, reply):
            for client in clients.values():
                for _ in range(5):  # warm-up: pools, caches, the first parse
                    sdk.call(client)
            gc.collect()
            for _ in range(rounds):
                for name, client in clients.items():
                    # CPU time of the whole process (every thread: the loopback servers'
                    # work counts with the client's), not wall time: on a shared
                    # two-core machine a call's wall time mostly measures other jobs.
                    step = partial(sdk.call, client)
                    times[name] += timed(step, batch, 0, time.process_time_ns)
    finally:
        for client in clients.values():
            client.close()
    return times


def _rows(sdk: _Sdk, times: dict[str, list[float]], floor: float) -> list[Row]:
    value = {name: median(micros) for name, micros in times.items()}
    judged = {
        "FakeApi in-process": ("httpx2.MockTransport", IN_PROCESS_LIMIT),
        "FakeApi loopback": ("HTTPXMock (httpx2-pytest)", LOOPBACK_LIMIT),
    }
    rows: list[Row] = []
    for name, micros in times.items():
        target = None
        note = f"{value[name] / floor:.1f}x the in-process FakeLLM.chat floor"
        if name in judged:
            peer_name, limit = judged[name]
            ratio = value[name] / value[peer_name]
            target = Target(f"x {peer_name}", "<=", limit, ratio)
            note += f"; {ratio:.2f}x {peer_name}"
        if name == BARE:
            note += f"; {value[name] / value['HTTPXMock (httpx2-pytest)']:.2f}x HTTPXMock"
        if name == "FakeApi loopback":
            note += f"; {value[name] - value[BARE]:,.0f} us above the bare loopback server"
        rows.append(
            Row(
                SECTION,
                f"{sdk.name} via {name}",
                value[name],
                "us/call",
                len(micros),
                ratio=value[name] / floor,
                ratio_of="floor",
                target=target,
                note=note,
            )
        )
    return rows


def measure_api_peers(rounds: int = 20, batch: int = 50) -> list[Row]:
    """Every row of this benchmark (see the module docstring for the method)."""
    floor_micros = measure_floor(rounds * batch)
    floor = median(floor_micros)
    rows = [Row(SECTION, "in-process FakeLLM.chat (floor)", floor, "us/call", len(floor_micros))]
    for sdk in (_openai(), _anthropic()):
        rows += _rows(sdk, _measure_sdk(sdk, rounds, batch), floor)
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.api_peers", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="3 rounds of 20 calls")
    args = parser.parse_args(argv)
    rows = measure_api_peers(rounds=3, batch=20) if args.quick else measure_api_peers()
    print(f"FakeApi vs the SDK mocks (python {sys.version.split()[0]}):")
    print(format_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
