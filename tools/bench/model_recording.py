"""Replaying a recorded model session vs the same FakeLLM script written by hand.

A 20-call session of a tool-using agent (every other call a tool call, the
conversation growing with each one) is played twice per repetition pair:

- by hand: ``FakeLLM.script(turns)``, its 20 turns made as a test's code makes
  them on each run, asked the 20 requests in order;
- recorded: the same session saved as a model recording (the file
  ``api_recording`` writes), loaded from disk, and replayed as
  :meth:`ModelRecording.llm` -- which also checks each request against the
  recorded one -- asked the same 20 requests (equal values, other objects,
  as a client builds them anew);
- recorded, loaded once: the replay alone, the file read beforehand.

Each call is ``chat_request`` (the stream collected), the path FakeApi and
an in-process agent both take. Target: the recorded session, file read
included, within 1.2x of the hand-written script.

    uv run python -m tools.bench.model_recording
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from tools.bench.stats import Row, Target, format_table, median
from tools.bench.timing import time_async

__all__ = ["measure_model_recording"]

SECTION = "6. model recording replay, 20 calls"
CALLS = 20


def _session(requests_too: bool = True) -> tuple[list[Any], list[Any]]:
    """The 20 requests of a tool loop and the turn answering each. ``requests_too=False``
    makes the turns alone: what a test that writes its script makes on every run."""
    from agentkit.core.request import ChatRequest
    from agentkit.core.types import Message, ToolCall, ToolSchema, Usage
    from agentkit.fakes.llm import Turn

    tools = [
        ToolSchema(
            "search",
            "Search the web.",
            {"type": "object", "properties": {"query": {"type": "string"}}},
        ),
        ToolSchema(
            "read", "Read a page.", {"type": "object", "properties": {"url": {"type": "string"}}}
        ),
    ]
    messages = [Message.system("You are a careful research agent. " * 8), Message.user("Find it.")]
    requests: list[Any] = []
    turns: list[Any] = []
    for index in range(CALLS):
        if requests_too:
            requests.append(
                ChatRequest(list(messages), "claude-sonnet-4-5", tools, None, 1.0, 1024)
            )
        usage = Usage(100 + 40 * index, 0, 0, 30)
        if index % 2 == 0 and index < CALLS - 1:
            call = ToolCall(f"toolu_{index:02d}", "search", {"query": f"step {index} of the hunt"})
            turn = Turn("Let me look that up.", [call], usage)
            after = Message.tool(f"result {index}: " + "lorem ipsum " * 20, tool_call_id=call.id)
        else:
            turn = Turn(f"Interim finding number {index}. " * 4, usage=usage)
            after = Message.user("Go on.")
        if requests_too:
            messages += [Message.assistant(turn.content, turn.tool_calls), after]
        turns.append(turn)
    return requests, turns


def _copies(requests: list[Any]) -> list[Any]:
    from agentkit.core.request import ChatRequest

    return [
        ChatRequest(
            [type(m)(m.role, m.content, m.tool_calls, m.tool_call_id, m.name) for m in r.messages],
            r.model,
            r.tools,
            r.response_format,
            r.temperature,
            r.max_tokens,
        )
        for r in requests
    ]


async def _measure(repetitions: int) -> list[Row]:
    from agentkit.core.testing.model_recording import (
        ModelRecording,
        RecordedCall,
        load_model_recording,
        save_model_recording,
    )
    from agentkit.fakes.llm import FakeLLM

    requests, turns = _session()
    asked = requests  # an agent's requests: its transcript, growing, sent on each call
    rebuilt = _copies(requests)  # the same, every message a new object (as FakeApi parses)
    recording = ModelRecording(
        tuple(RecordedCall(r, t, "anthropic") for r, t in zip(requests, turns, strict=True))
    )
    folder = tempfile.TemporaryDirectory(prefix="agentkit-bench-")
    path = save_model_recording(recording, Path(folder.name) / "session.jsonl")
    loaded = load_model_recording(path)

    async def play(llm: Any, session: list[Any] = asked) -> None:
        for request in session:
            await llm.chat_request(request)
        if llm.remaining != 0:
            raise AssertionError("the session did not ask every turn")

    async def by_hand() -> object:
        await play(FakeLLM.script(_session(requests_too=False)[1]))
        return None

    async def recorded() -> object:
        await play(load_model_recording(path).llm())
        return None

    async def replay_only() -> object:
        await play(loaded.llm())
        return None

    async def replay_rebuilt() -> object:
        await play(loaded.llm(), rebuilt)
        return None

    async def hand_rebuilt() -> object:
        await play(FakeLLM.script(_session(requests_too=False)[1]), rebuilt)
        return None

    steps = {
        "hand": by_hand,
        "recorded": recorded,
        "replay": replay_only,
        "hand rebuilt": hand_rebuilt,
        "replay rebuilt": replay_rebuilt,
    }
    samples: dict[str, list[float]] = {name: [] for name in steps}
    for _ in range(max(repetitions // 50, 1)):  # interleaved rounds: drift hits all alike
        for name, step in steps.items():
            samples[name] += await time_async(step, 50, warmup=2)
    size = path.stat().st_size
    folder.cleanup()
    figure = {name: median(values) for name, values in samples.items()}
    hand, runs = figure["hand"], len(samples["hand"])

    def row(name: str, key: str, of: str, note: str, judged: bool = False) -> Row:
        ratio = figure[key] / figure[of]
        target = Target(f"x {of}", "<=", 1.2, ratio) if judged else None
        return Row(SECTION, name, figure[key], "us", runs, ratio, of, target, note)

    return [
        Row(SECTION, "FakeLLM.script, written by hand", hand, "us", runs),
        row("model recording, replayed", "replay", "hand", "requests checked", judged=True),
        row(
            "model recording, read + replayed",
            "recorded",
            "hand",
            f"the file ({size // 1024} KiB) read and parsed each time",
        ),
        Row(
            SECTION,
            "FakeLLM.script, requests rebuilt",
            figure["hand rebuilt"],
            "us",
            runs,
            note="every message a new object, as FakeApi parses each request",
        ),
        row(
            "model recording, replayed, requests rebuilt",
            "replay rebuilt",
            "hand rebuilt",
            "requests checked whole",
        ),
    ]


def measure_model_recording(repetitions: int) -> list[Row]:
    return asyncio.run(_measure(repetitions))


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    print(format_table(measure_model_recording(100 if quick else 1000)))
