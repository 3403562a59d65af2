"""A scripted run: one tool call, then a final answer, through each contender's loop.

What is timed is what a test does per test: build the scripted doubles and
drive the run to its answer. What a test module does once (define the tool,
build a pydantic-ai ``Agent``) is built once, outside the timed loop -- the
arrangement most favourable to the peers, since their per-agent set-up is
the heaviest part of them.

- agentkit: ``FakeLLM.script([tool-call Turn, final Turn])`` and a
  ``FakeTool``, wired by ``make_test_ctx`` into the real Invoker and driven by
  the real tool loop (``agentkit.agents.react``).
- pydantic-ai: ``agent.run(prompt, model=TestModel(custom_output_text=...))``
  on an ``Agent`` with one async tool; TestModel calls every tool once, then
  answers.
- langchain-core: ``GenericFakeChatModel`` scripted with an ``AIMessage``
  carrying ``tool_calls`` and a final ``AIMessage``, driven by the minimal
  loop in :func:`_langchain_loop` (no ``bind_tools``: the fake ignores it).

Every contender's result is checked (the answer, and that the tool ran once)
before anything is timed, so a broken run cannot post a fast figure.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from tools.bench.peers import peer
from tools.bench.stats import Row, Target, median
from tools.bench.timing import time_async

__all__ = ["measure_scripted"]

SECTION = "2. scripted run (1 tool call + answer)"
PROMPT = "What is the answer?"
ANSWER = "The answer is 42."
TOOL_RESULT = "42"

Step = Callable[[], Awaitable[object]]


@dataclass(frozen=True, slots=True)
class Scripted:
    """One contender: ``step`` is the timed run, ``check`` proves it is the scripted one."""

    step: Step
    check: Callable[[], Awaitable[None]]


class BenchCheckFailed(AssertionError):
    """A contender's run did not produce the scripted result, so it is not timed."""


def _check(condition: bool, what: str) -> None:
    if not condition:
        raise BenchCheckFailed(what)


def _agentkit() -> Scripted:
    from agentkit.agents.react import ReactAgent, ReactResult
    from agentkit.core.types import ToolCall
    from agentkit.fakes.ctx import make_test_ctx
    from agentkit.fakes.io import FakeTool
    from agentkit.fakes.llm import FakeLLM, Turn

    tool = FakeTool(name="lookup", description="Look the answer up.", responder=TOOL_RESULT)
    agent = ReactAgent([tool], model="fake-model")
    turns = [
        Turn(tool_calls=(ToolCall("call_1", "lookup", {"query": "x"}),)),
        Turn(content=ANSWER),
    ]

    async def step() -> ReactResult:
        ctx = make_test_ctx(llm=FakeLLM.script(turns))
        return await agent.run(ctx, PROMPT)

    async def check() -> None:
        tool.calls.clear()
        result = await step()
        _check(
            result.stop_reason == "final" and result.text == ANSWER,
            f"agentkit stopped with {result.stop_reason!r}, text {result.text!r}",
        )
        _check(len(tool.calls) == 1, f"agentkit ran the tool {len(tool.calls)} times, expected 1")
        tool.calls.clear()

    return Scripted(step, check)


def _pydantic_ai() -> Scripted:
    agent_mod = peer("pydantic_ai")
    test_mod = peer("pydantic_ai.models.test")
    calls: list[str] = []

    async def lookup(query: str) -> str:
        """Look the answer up."""
        calls.append(query)
        return TOOL_RESULT

    agent: Any = agent_mod.Agent(tools=[lookup])

    async def step() -> object:
        result = await agent.run(PROMPT, model=test_mod.TestModel(custom_output_text=ANSWER))
        return result.output

    async def check() -> None:
        calls.clear()
        out = await step()
        _check(out == ANSWER, f"pydantic-ai answered {out!r}, expected {ANSWER!r}")
        _check(len(calls) == 1, f"pydantic-ai ran the tool {len(calls)} times, expected 1")

    return Scripted(step, check)


def _langchain() -> Scripted:
    fake_mod = peer("langchain_core.language_models.fake_chat_models")
    messages_mod = peer("langchain_core.messages")
    tools_mod = peer("langchain_core.tools")
    calls: list[str] = []

    async def lookup(query: str) -> str:
        """Look the answer up."""
        calls.append(query)
        return TOOL_RESULT

    tool: Any = tools_mod.tool(lookup)

    async def step() -> object:
        model = fake_mod.GenericFakeChatModel(
            messages=iter(
                [
                    messages_mod.AIMessage(
                        content="",
                        tool_calls=[{"name": "lookup", "args": {"query": "x"}, "id": "call_1"}],
                    ),
                    messages_mod.AIMessage(content=ANSWER),
                ]
            )
        )
        return await _langchain_loop(model, tool, messages_mod.HumanMessage(PROMPT))

    async def check() -> None:
        calls.clear()
        out = await step()
        _check(out == ANSWER, f"langchain loop answered {out!r}, expected {ANSWER!r}")
        _check(len(calls) == 1, f"langchain loop ran the tool {len(calls)} times, expected 1")

    return Scripted(step, check)


async def _langchain_loop(model: Any, tool: Any, prompt: Any, max_turns: int = 10) -> object:
    """The smallest honest tool loop over langchain messages.

    Ask the model; if its AIMessage has ``tool_calls``, run each through the
    tool (``ainvoke`` with a ToolCall returns the ToolMessage) and ask again;
    otherwise its content is the answer.
    """
    transcript: list[Any] = [prompt]
    for _ in range(max_turns):
        reply = await model.ainvoke(transcript)
        transcript.append(reply)
        if not reply.tool_calls:
            return reply.content
        for call in reply.tool_calls:
            transcript.append(await tool.ainvoke(call))
    raise BenchCheckFailed(f"langchain loop did not finish in {max_turns} turns")


async def _measure(repetitions: int) -> list[Row]:
    builders: list[tuple[str, Callable[[], Scripted]]] = [
        ("agentkit react + FakeLLM.script", _agentkit),
        ("pydantic-ai Agent(TestModel())", _pydantic_ai),
        ("langchain GenericFakeChatModel loop", _langchain),
    ]
    medians: dict[str, float] = {}
    counts: dict[str, int] = {}
    errors: dict[str, str] = {}
    for label, build in builders:
        try:
            contender = build()
            await contender.check()
        except ImportError as exc:
            errors[label] = str(exc)
            continue
        samples = await time_async(contender.step, repetitions)
        medians[label] = median(samples)
        counts[label] = len(samples)
    rows: list[Row] = []
    ours = builders[0][0]
    pyd = builders[1][0]
    for label, _ in builders:
        if label in errors:
            rows.append(Row(SECTION, label, None, "us", 0, error=errors[label]))
            continue
        value = medians[label]
        if label == ours:
            if pyd in medians:
                speedup = medians[pyd] / value
                rows.append(
                    Row(
                        SECTION,
                        label,
                        value,
                        "us",
                        counts[label],
                        ratio=speedup,
                        ratio_of="faster than pydantic-ai",
                        target=Target("x faster than pydantic-ai", ">=", 30, speedup),
                    )
                )
                continue
            rows.append(Row(SECTION, label, value, "us", counts[label]))
            continue
        rows.append(
            Row(
                SECTION,
                label,
                value,
                "us",
                counts[label],
                ratio=None if ours not in medians else value / medians[ours],
                ratio_of="agentkit's time",
            )
        )
    return rows


def measure_scripted(repetitions: int) -> list[Row]:
    """One row per contender; agentkit's carries the >= 30x-vs-pydantic-ai target."""
    return asyncio.run(_measure(repetitions))
