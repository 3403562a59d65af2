"""The test kit's main job, runnable: ``python -m agentkit.agents.demo``.

One scripted run through the REAL loop: a :class:`~agentkit.agents.react.ReactAgent`
on a real RunContext (``make_test_ctx``) whose Invoker talks to a scripted
``FakeLLM`` -- one turn that calls a ``FakeTool``, then a final answer -- and
prints what a test would assert on: the transcript, the spans the run opened,
and the usage and cost the Invoker charged.

agentkit-agents does not depend on the fakes: they are imported here, lazily,
and a missing one is a clear message (install ``agentkit-testing``), not an
ImportError from inside the demo. The workspace's dev environment has them.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any

from agentkit.agents.capabilities import RequestBuilder
from agentkit.agents.react import ReactAgent, ReactResult
from agentkit.core.meters import UsageMeter
from agentkit.core.pricing import ModelPrice, PriceTable
from agentkit.core.types import Message, ToolCall, ToolSchema, Usage

__all__ = [
    "DEMO_MODEL",
    "DEMO_PRICES",
    "DemoRun",
    "DemoSpan",
    "DemoUnavailable",
    "main",
    "report",
    "run_demo",
]

DEMO_MODEL = "demo-model"
DEMO_PRICES = PriceTable({DEMO_MODEL: ModelPrice(input=3.0, output=15.0, cached_input=0.3)})
"""Made-up prices (USD per million tokens), so that the demo has a cost to show."""

_TASK = "What is the weather in Paris?"
_WEATHER = ToolSchema(
    "get_weather",
    "Current weather for a city.",
    {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
        "additionalProperties": False,
    },
)


class DemoUnavailable(RuntimeError):
    """The test doubles the demo runs on are not installed."""


@dataclass(frozen=True)
class DemoSpan:
    """One recorded span, with how deep it sits in the tree (0 for the run's root)."""

    depth: int
    name: str
    kind: str
    attrs: dict[str, Any]


@dataclass(frozen=True)
class DemoRun:
    """What the demo run produced: the loop's result, its spans in start order, the meter."""

    result: ReactResult
    spans: tuple[DemoSpan, ...]
    meter: UsageMeter


async def run_demo() -> DemoRun:
    """Run the scripted task once through the real ReactAgent and Invoker."""
    try:
        from agentkit.fakes.ctx import RecordingTracer, make_test_ctx
        from agentkit.fakes.io import FakeTool
        from agentkit.fakes.llm import FakeLLM, Turn
    except ImportError as exc:
        raise DemoUnavailable(
            f"the demo runs on agentkit's test doubles, which are not installed ({exc}); "
            "install agentkit-testing (or run it from the workspace: uv run python -m "
            "agentkit.agents.demo)"
        ) from exc

    llm = FakeLLM.script(
        [
            Turn(
                tool_calls=(ToolCall("call_1", "get_weather", {"city": "Paris"}),),
                usage=Usage(input_tokens=120, output_tokens=18),
            ),
            Turn(
                content="It is 18°C and sunny in Paris.",
                usage=Usage(input_tokens=60, cached_input_tokens=120, output_tokens=12),
            ),
        ]
    )
    weather = FakeTool(
        name="get_weather",
        description=_WEATHER.description,
        responder=lambda args: {"city": args["city"], "temp_c": 18, "sky": "sunny"},
        schema=_WEATHER,
    )
    tracer = RecordingTracer()
    meter = UsageMeter()
    ctx = make_test_ctx(
        llm=llm,
        pricing=DEMO_PRICES,
        trace=tracer,
        meters=[meter],
        correlation_id="demo",
    )
    agent = ReactAgent(
        [weather],
        model=DEMO_MODEL,
        request_builder=RequestBuilder(
            "You answer weather questions with the get_weather tool.",
            model=DEMO_MODEL,
            prompt_version="demo-v1",
        ),
        max_iterations=4,
    )
    result = await agent.run(ctx, _TASK)
    depth: dict[str, int] = {}
    spans: list[DemoSpan] = []
    for span in tracer.spans:  # start order: a parent always comes before its children
        level = 0 if span.parent_id is None else depth[span.parent_id] + 1
        depth[span.span_id] = level
        spans.append(DemoSpan(level, span.name, span.kind, dict(span.attrs)))
    return DemoRun(result=result, spans=tuple(spans), meter=meter)


def _message_line(message: Message) -> str:
    if message.role == "tool":
        return f"  tool[{message.name} {message.tool_call_id}]: {message.content}"
    if message.tool_calls:
        calls = ", ".join(f"{c.name}({dict(c.arguments)}) id={c.id}" for c in message.tool_calls)
        return f"  {message.role}: {message.content or ''}-> {calls}"
    return f"  {message.role}: {message.content}"


def report(run: DemoRun) -> str:
    """The demo's printout: transcript, the span tree, usage and cost."""
    result = run.result
    lines = [
        f"stop_reason: {result.stop_reason} after {result.iterations} iterations",
        f"answer: {result.text}",
        "",
        "transcript:",
        *(_message_line(m) for m in result.messages),
        "",
        "spans:",
    ]
    for span in run.spans:
        shown = ", ".join(f"{k}={v!r}" for k, v in sorted(span.attrs.items()))
        lines.append(f"  {'  ' * span.depth}{span.name} [{span.kind}] {shown}")
    usage = result.usage
    lines += [
        "",
        "usage:",
        f"  llm calls: {result.llm_calls}",
        f"  input tokens: {usage.input_tokens} (+{usage.cached_input_tokens} cached)",
        f"  output tokens: {usage.output_tokens}",
        f"  total tokens: {usage.total_tokens}",
        f"  cost: ${result.cost_usd:.6f} ({DEMO_MODEL} at made-up demo prices)",
        f"  meter agrees: {run.meter.usage == usage and run.meter.calls == result.llm_calls}",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, *, out: IO[str] | None = None) -> int:
    """Run the demo and print its report; 2 (with a message on stderr) without the doubles."""
    args = list(sys.argv[1:] if argv is None else argv)
    stream = sys.stdout if out is None else out
    if args:
        print(
            f"usage: python -m agentkit.agents.demo (takes no arguments, got {args})",
            file=sys.stderr,
        )
        return 2
    try:
        run = asyncio.run(run_demo())
    except DemoUnavailable as exc:
        print(f"agentkit demo: {exc}", file=sys.stderr)
        return 2
    print(report(run), file=stream)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
