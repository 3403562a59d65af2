"""FakeApi: what a model call costs through an official SDK on loopback, and start-up time.

Method. One FakeLLM brain answers a fixed text (the usage estimated, as a
test would leave it). Each contender makes the same request ``runs`` times
after a warm-up, one at a time, and the figure is the median latency of one
request; requests per second is its inverse. The contenders:

* the in-process floor: ``await FakeLLM.chat(...)`` -- what a test pays
  without HTTP at all;
* raw HTTP (``http.client``, one kept-alive connection), plain and
  streamed: the server's own cost, without an SDK's;
* the anthropic SDK (sync client, one kept-alive connection): a plain
  ``messages.create`` and a streamed ``messages.stream(...)``;
* the openai SDK: ``responses.create`` and a plain and a streamed
  ``chat.completions.create``;
* concurrency: ``concurrency`` async anthropic clients' requests in flight
  at once, the figure being the whole batch's requests per second.

Start-up: ``with FakeApi(llm):`` entered and left ``runs`` times (bind,
thread start, first accept ready; then every connection closed and the
thread joined), median per cycle. Nothing is asserted: this reports, it does
not judge (no wall-clock figure is a test).

    uv run python -m tools.bench.api            # 300 requests per contender
    uv run python -m tools.bench.api --quick    # 30
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import http.client
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from agentkit.core.types import Message
from agentkit.fakes.api import FakeApi
from agentkit.fakes.llm import FakeLLM
from tools.bench.stats import Row, format_table, median

__all__ = ["MODEL", "TEXT", "main", "measure_api", "measure_floor", "timed"]

SECTION = "fake api"
MODEL = "bench-model"
TEXT = "The scripted answer, a sentence of ordinary length for a model reply."


def timed(
    step: Callable[[], object],
    runs: int,
    warmup: int = 5,
    clock: Callable[[], int] = time.perf_counter_ns,
) -> list[float]:
    """Microseconds each of ``runs`` calls of ``step`` took by ``clock`` (warm-up not timed)."""
    for _ in range(warmup):
        step()
    gc.collect()
    out: list[float] = []
    for _ in range(runs):
        start = clock()
        step()
        out.append((clock() - start) / 1000)
    return out


def _row(name: str, micros: list[float], floor: float | None, note: str = "") -> Row:
    value = median(micros)
    return Row(
        SECTION,
        name,
        value,
        "us/request",
        len(micros),
        ratio=None if floor is None else value / floor,
        ratio_of="" if floor is None else "in-process",
        note=note or f"{1e6 / value:,.0f} requests/s",
    )


def _in_process(
    llm: FakeLLM, runs: int, clock: Callable[[], int] = time.perf_counter_ns
) -> list[float]:
    messages = [Message.user("Hi")]

    async def many() -> list[float]:
        for _ in range(5):
            await llm.chat(messages=messages, model=MODEL)
        gc.collect()
        out: list[float] = []
        for _ in range(runs):
            start = clock()
            await llm.chat(messages=messages, model=MODEL)
            out.append((clock() - start) / 1000)
        return out

    return asyncio.run(many())


def measure_floor(runs: int) -> list[float]:
    """The floor every FakeApi figure is compared to: the CPU microseconds of each of
    ``runs`` in-process FakeLLM.chat calls."""
    return _in_process(FakeLLM(TEXT), runs, time.process_time_ns)


def _raw(api: FakeApi, runs: int) -> list[Row]:
    connection = http.client.HTTPConnection("127.0.0.1", api.port, timeout=30)
    head = {"x-api-key": "bench", "content-type": "application/json"}
    ask = {"model": MODEL, "max_tokens": 100, "messages": [{"role": "user", "content": "Hi"}]}
    plain_body = json.dumps(ask).encode()
    stream_body = json.dumps({**ask, "stream": True}).encode()

    def send(body: bytes) -> Callable[[], None]:
        def step() -> None:
            connection.request("POST", "/v1/messages", body, head)
            connection.getresponse().read()

        return step

    try:
        return [
            _row("raw HTTP /v1/messages", timed(send(plain_body), runs), None),
            _row("raw HTTP /v1/messages stream", timed(send(stream_body), runs), None),
        ]
    finally:
        connection.close()


def _anthropic(api: FakeApi, runs: int) -> list[Row]:
    import anthropic  # the dev group's SDKs: imported here, where they are measured

    ask: Any = [{"role": "user", "content": "Hi"}]
    with anthropic.Anthropic(
        base_url=api.anthropic_base_url, api_key="bench", max_retries=0
    ) as client:

        def plain() -> None:
            client.messages.create(model=MODEL, max_tokens=100, messages=ask)

        def streamed() -> None:
            with client.messages.stream(model=MODEL, max_tokens=100, messages=ask) as stream:
                stream.get_final_message()

        return [
            _row("anthropic SDK messages.create", timed(plain, runs), None),
            _row("anthropic SDK messages.stream", timed(streamed, runs), None),
        ]


def _openai(api: FakeApi, runs: int) -> list[Row]:
    import openai

    ask: Any = [{"role": "user", "content": "Hi"}]
    with openai.OpenAI(base_url=api.openai_base_url, api_key="bench", max_retries=0) as client:

        def responses() -> None:
            client.responses.create(model=MODEL, input="Hi")

        def chat() -> None:
            client.chat.completions.create(model=MODEL, messages=ask)

        def chat_streamed() -> None:
            for _ in client.chat.completions.create(model=MODEL, messages=ask, stream=True):
                pass

        return [
            _row("openai SDK responses.create", timed(responses, runs), None),
            _row("openai SDK chat.completions", timed(chat, runs), None),
            _row("openai SDK chat.completions stream", timed(chat_streamed, runs), None),
        ]


def _concurrent(api: FakeApi, requests: int, concurrency: int) -> Row:
    import anthropic

    ask: Any = [{"role": "user", "content": "Hi"}]

    async def batch() -> float:
        async with anthropic.AsyncAnthropic(
            base_url=api.anthropic_base_url, api_key="bench", max_retries=0
        ) as client:
            gate = asyncio.Semaphore(concurrency)

            async def one() -> None:
                async with gate:
                    await client.messages.create(model=MODEL, max_tokens=100, messages=ask)

            await asyncio.gather(*(one() for _ in range(concurrency)))  # warm the pool
            start = time.perf_counter()
            await asyncio.gather(*(one() for _ in range(requests)))
            return time.perf_counter() - start

    seconds = median([asyncio.run(batch()) for _ in range(3)])
    return Row(
        SECTION,
        f"anthropic async SDK, {concurrency} in flight",
        requests / seconds,
        "requests/s",
        3,
        note=f"{requests} requests per batch, median of 3 batches",
    )


def _startup(runs: int) -> Row:
    llm = FakeLLM(TEXT)

    def cycle() -> None:
        with FakeApi(llm):
            pass

    micros = timed(cycle, runs, warmup=3)
    return Row(
        SECTION,
        "FakeApi start + close",
        median(micros),
        "us/cycle",
        len(micros),
        note="bind 127.0.0.1:0, start the thread; close every connection, join it",
    )


def measure_api(runs: int = 300, concurrency: int = 8) -> list[Row]:
    """Every row of this benchmark (see the module docstring for the method)."""
    llm = FakeLLM(TEXT)
    floor_micros = _in_process(llm, runs)
    floor = median(floor_micros)
    rows = [_row("in-process FakeLLM.chat", floor_micros, None)]
    with FakeApi(llm) as api:
        for row in (*_raw(api, runs), *_anthropic(api, runs), *_openai(api, runs)):
            assert row.value is not None
            rows.append(
                Row(
                    row.section,
                    row.name,
                    row.value,
                    row.unit,
                    row.runs,
                    ratio=row.value / floor,
                    ratio_of="in-process",
                    note=row.note,
                )
            )
        rows.append(_concurrent(api, runs, concurrency))
        if api.violations():
            raise RuntimeError(f"the fake API recorded violations: {api.violations()}")
    rows.append(_startup(max(20, runs // 3)))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.api", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="30 requests per contender")
    args = parser.parse_args(argv)
    rows = measure_api(runs=30 if args.quick else 300)
    print(f"FakeApi on loopback (python {sys.version.split()[0]}):")
    print(format_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
