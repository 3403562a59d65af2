"""Streaming cost per chunk: FakeLLM.stream raw, and through the Invoker's middleware.

A stream of ``chunks`` deltas is drained ``repetitions`` times; each
repetition's time divided by the number of deltas it yielded (the terminal
one included) is one sample, and the figure is the median sample. The chunk
count is large (20 000 by default) so that the per-call set-up -- building
the request, entering the middleware, the retry's first ``anext`` -- is
spread so thin that what is left is the per-chunk cost the target is about.

- raw: ``FakeLLM(responses=text).stream(...)``.
- through the Invoker: the same double behind
  ``Invoker(llm, chat_middleware=[RetryMiddleware(), budget_middleware])``
  on a ``make_test_ctx`` context, drained with ``invoker.stream(ctx, req)`` --
  the path every model call of a run takes, metering included.
- reference: langchain-core's ``GenericFakeChatModel.astream`` (one chunk per
  word and per whitespace run). Its ``_astream`` is BaseChatModel's default,
  which runs the sync ``_stream`` iterator in the default thread pool, one
  ``run_in_executor(next)`` hop per chunk -- that hop is most of its figure.

The text is sized from a probe: the double is asked once how many deltas a
known text makes, so the benchmark does not depend on FakeLLM's chunk size.
"""

from __future__ import annotations

import asyncio
from typing import Any

from tools.bench.peers import peer
from tools.bench.stats import Row, Target, median
from tools.bench.timing import time_async

__all__ = ["measure_streaming"]

SECTION = "3. streaming, per chunk"
MODEL = "fake-model"
LANGCHAIN_MAX_CHUNKS = 2_000


async def _drain(stream: Any) -> int:
    count = 0
    async for _ in stream:
        count += 1
    return count


async def _per_chunk(make_stream: Any, repetitions: int) -> tuple[float, int, int]:
    """(median us per delta, deltas per stream, repetitions)."""
    deltas = await _drain(make_stream())
    if deltas < 2:
        raise AssertionError(f"the stream yielded {deltas} deltas; expected many")
    counts: list[int] = []

    async def step() -> object:
        counts.append(await _drain(make_stream()))
        return None

    samples = await time_async(step, repetitions, warmup=1)
    if set(counts) != {deltas}:
        raise AssertionError(f"the stream's length changed between repetitions: {set(counts)}")
    return median([s / deltas for s in samples]), deltas, len(samples)


async def _agentkit(repetitions: int, chunks: int) -> list[Row]:
    from agentkit.core.invoker import Invoker
    from agentkit.core.middleware import RetryMiddleware, budget_middleware
    from agentkit.core.request import ChatRequest
    from agentkit.core.types import Message
    from agentkit.fakes.ctx import make_test_ctx
    from agentkit.fakes.llm import FakeLLM

    messages = [Message.user("stream something long")]
    probe_text = "x" * 10_000
    probe = await _drain(FakeLLM(responses=probe_text).stream(messages=messages, model=MODEL))
    per_delta = len(probe_text) / max(probe - 1, 1)
    text = "x" * max(int(per_delta * chunks), 1)
    llm = FakeLLM(responses=text)

    def raw() -> Any:
        return llm.stream(messages=messages, model=MODEL)

    invoker = Invoker(llm, chat_middleware=[RetryMiddleware(), budget_middleware])
    ctx = make_test_ctx(invoker=invoker)
    request = ChatRequest(messages=messages, model=MODEL)

    def through_invoker() -> Any:
        return invoker.stream(ctx, request)

    raw_us, raw_n, raw_runs = await _per_chunk(raw, repetitions)
    inv_us, inv_n, inv_runs = await _per_chunk(through_invoker, repetitions)
    return [
        Row(SECTION, "FakeLLM.stream (raw)", raw_us, "us", raw_runs, note=f"{raw_n} deltas/stream"),
        Row(
            SECTION,
            "FakeLLM via Invoker (Retry + budget)",
            inv_us,
            "us",
            inv_runs,
            ratio=inv_us / raw_us,
            ratio_of="raw",
            target=Target(" us/chunk", "<=", 1.0, inv_us),
            note=f"{inv_n} deltas/stream",
        ),
    ]


async def _langchain(repetitions: int, chunks: int) -> list[Row]:
    fake_mod = peer("langchain_core.language_models.fake_chat_models")
    messages_mod = peer("langchain_core.messages")
    # One chunk per word and one per space. Capped: each of its chunks costs
    # a thread-pool hop (see the module docstring), and a few thousand are
    # plenty to amortise its per-call set-up.
    text = "w " * max(min(chunks, LANGCHAIN_MAX_CHUNKS) // 2, 1)
    prompt = [messages_mod.HumanMessage("stream something long")]

    def make() -> Any:
        model = fake_mod.GenericFakeChatModel(messages=iter([text]))
        return model.astream(prompt)

    us, n, runs = await _per_chunk(make, repetitions)
    return [
        Row(
            SECTION,
            "langchain GenericFakeChatModel.astream",
            us,
            "us",
            runs,
            note=f"reference; {n} chunks/stream",
        )
    ]


async def _measure(repetitions: int, chunks: int) -> list[Row]:
    rows: list[Row] = []
    try:
        rows.extend(await _agentkit(repetitions, chunks))
    except ImportError as exc:
        rows.append(Row(SECTION, "FakeLLM (raw and via Invoker)", None, "us", 0, error=str(exc)))
    try:
        rows.extend(await _langchain(repetitions, chunks))
    except ImportError as exc:
        rows.append(Row(SECTION, "langchain astream", None, "us", 0, error=str(exc)))
    return rows


def measure_streaming(repetitions: int, chunks: int) -> list[Row]:
    """Rows for raw FakeLLM, FakeLLM through the Invoker (the target), and langchain."""
    return asyncio.run(_measure(repetitions, chunks))
