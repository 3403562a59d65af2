"""Clearly wrong inputs to every public constructor: refused at once, or accepted?

Every public constructor of the kit promises to refuse wrong input at once
with a typed error that names the argument and what it takes (see
``agentkit.core._internal.arguments``): a wrong argument that is accepted does not go
away, it resurfaces later as something else -- ``FakeFetch([])`` as an
``AttributeError`` inside a tool, ``kill_grace=nan`` as a wait that never
returns. This tool tries a catalogue of clearly wrong inputs (types,
NaN/inf/negative numbers, float-valued limits, empty or non-mapping fixtures,
files that are not recordings) and sorts each outcome:

- **refused**: a ``TypeError`` / ``ValueError`` / ``OSError`` (an
  ``ArgumentError``, a ``RecordingError``, ...) whose ``argument`` field or
  message names the argument (for a file, the file);
- **unclear**: refused, but with another kind of error (an
  ``AttributeError``, a ``KeyError``) or a message that does not name the
  argument;
- **accepted**: no error at all -- printed, one per line, for a reader to
  judge; a case marked as a judgement call says why it may stand;
- **hung**: still running after ``--timeout`` seconds (a FIFO given as a
  recording, say).

    uv run --frozen python -m tools.hardening.wrong_inputs           # the report
    uv run --frozen python -m tools.hardening.wrong_inputs --verbose # every case

The exit status is 1 when any case is unclear, hung, or accepted without
being marked a judgement call, so CI can hold the line once it is reached.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import math
import os
import re
import stat
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

__all__ = ["Case", "Outcome", "catalogue", "classify", "main", "run_case"]

NAN = math.nan
INF = math.inf


@dataclass(frozen=True)
class Case:
    """One wrong input: ``where(argument=<bad value>)``, as a thunk.

    ``names`` is the text the refusal must name: the argument by default, a
    file's name for a bad recording. ``judgement`` is set on an input whose
    acceptance is a defensible decision, saying why.
    """

    where: str
    argument: str
    bad: str
    thunk: Callable[[], object]
    names: str = ""
    judgement: str = ""

    @property
    def label(self) -> str:
        return f"{self.where}({self.argument}={self.bad})"

    @property
    def token(self) -> str:
        return self.names or self.argument.split("[")[0]


@dataclass(frozen=True)
class Outcome:
    case: Case
    verdict: str  # "refused" | "unclear" | "accepted" | "hung"
    error: str = ""


def _named(case: Case, exc: BaseException) -> bool:
    """Whether ``exc`` names the argument: its ``argument`` field if it has one, else its text.

    An error with an ``argument`` field (the kit's ``ArgumentError``) must name
    THIS argument there; a refusal for some other argument's sake (``pricing=``
    refused because ``model=`` is missing) does not count as naming it.
    """
    argument = getattr(exc, "argument", None)
    if isinstance(argument, str):
        return argument == case.token or argument.startswith((case.token + "[", case.token + " "))
    return case.token in str(exc)


# Inputs whose acceptance is a decision, with the reason (keyed by Case.label).
JUDGEMENT_CALLS = {
    "ToolCall(name='')": "a ToolCall is also built from a model's reply, and a model can send an "
    "empty tool name; the loop answers it as an unknown tool rather than crash on it",
    "RetryMiddleware(retry_on=Exception)": "one exception class is taken as a one-class tuple "
    "(what `except` itself accepts); it retries exactly what was meant",
    "FakeLLM.script(turns=[])": "an empty script says the model is never called; a call is "
    "ScriptExhausted at once and a violation at teardown",
    "ScriptedAdapter(turns=[])": "as FakeLLM.script([]): no send is expected, and one fails loudly",
    "FakeFetch(fixtures={})": "a fetch that expects no fetch: every URL is a miss, raised and "
    "reported at teardown",
    "FakeSearch(hits=[])": "no results is an ordinary search outcome, for every query",
    "ClaudeCliCognition(executable=None)": "None is the documented default: the CLI's own name, "
    "found on PATH",
    "CodexCliCognition(executable=None)": "None is the documented default: the CLI's own name, "
    "found on PATH",
}


def classify(case: Case, exc: BaseException | None, *, hung: bool = False) -> Outcome:
    """The verdict on one case, from what its thunk raised (``None``: nothing)."""
    if hung:
        return Outcome(case, "hung")
    if exc is None:
        judgement = case.judgement or JUDGEMENT_CALLS.get(case.label, "")
        if judgement and not case.judgement:
            case = replace(case, judgement=judgement)
        return Outcome(case, "accepted")
    text = f"{type(exc).__name__}: {str(exc)[:300]}"
    typed = isinstance(exc, TypeError | ValueError | OSError) and not isinstance(
        exc, AttributeError | KeyError
    )
    if typed and _named(case, exc):
        return Outcome(case, "refused", text)
    return Outcome(case, "unclear", text)


def _call(thunk: Callable[[], object]) -> None:
    result = thunk()
    if inspect.isawaitable(result):

        async def settle() -> None:
            await result

        asyncio.run(settle())


def run_case(case: Case, timeout: float) -> Outcome:
    """Run one case in a daemon thread, so an input that blocks forever is reported, not waited on."""
    box: list[BaseException | None] = []

    def target() -> None:
        try:
            _call(case.thunk)
        except BaseException as exc:
            box.append(exc)
        else:
            box.append(None)

    worker = threading.Thread(target=target, name=f"case {case.label}", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        return classify(case, None, hung=True)
    return classify(case, box[0])


# --- the catalogue ------------------------------------------------------------------------


class _Files:
    """Files that are not recordings, made once in a temporary directory."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.missing = root / "missing.jsonl"
        self.directory = root / "a_directory"
        self.directory.mkdir()
        self.empty = root / "empty.jsonl"
        self.empty.write_bytes(b"")
        self.binary = root / "binary.jsonl"
        self.binary.write_bytes(bytes(range(256)) * 4)
        self.utf16 = root / "utf16.jsonl"
        self.utf16.write_bytes('{"type": "result", "result": "hi"}\n'.encode("utf-16"))
        self.pretty = root / "pretty.jsonl"
        self.pretty.write_text('{\n  "type": "result",\n  "result": "hi"\n}\n')
        self.prose = root / "prose.jsonl"
        self.prose.write_text("this is not json\nneither is this\n")
        self.unreadable = root / "unreadable.jsonl"
        self.unreadable.write_text('{"type":"result"}\n')
        self.unreadable.chmod(0)
        self.fifo = root / "fifo.jsonl"
        os.mkfifo(self.fifo)
        header = '{"agentkit_recording": 1, "cli": "claude", "argv": ["claude"]}'
        end = '#end {"exit_code": 0}'
        self.damaged = {
            "format version -7": header.replace(": 1,", ": -7,") + "\n" + end + "\n",
            "exit code 10**100": header + '\n#end {"exit_code": ' + str(10**100) + "}\n",
            "a last line without newline": header + "\n" + end,
            "a raw deep line": header + "\n" + "[" * 100_000 + "\n" + end + "\n",
            "notes not a list": header.replace("}", ', "notes": "x"}') + "\n" + end + "\n",
            "no #end": header + "\n",
        }
        self.damaged_paths: dict[str, Path] = {}
        for index, (bad, text) in enumerate(self.damaged.items()):
            path = root / f"damaged-{index}.jsonl"
            path.write_text(text)
            self.damaged_paths[bad] = path

    def release_fifo(self) -> None:
        """Unblock a reader stuck opening the FIFO: open its write end and close it (EOF)."""
        try:
            fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # nobody is waiting on it
            return
        os.close(fd)

    def unreadable_really(self) -> bool:
        """False when running as root, for whom mode 000 still reads."""
        return not os.access(self.unreadable, os.R_OK)


def _cases(files: _Files) -> Iterator[Case]:
    from agentkit.agents.capabilities import RequestBuilder
    from agentkit.agents.cognition import (
        ClaudeCliCognition,
        ClaudeCliSession,
        CodexCliCognition,
        CodexCliSession,
    )
    from agentkit.agents.cognition._runner import CliProcess
    from agentkit.agents.control import ApprovalRequest, ElicitationAsker
    from agentkit.agents.react import ReactAgent, SuspendedRun, json_output, schema_errors
    from agentkit.agents.tools import FunctionTool, tool
    from agentkit.core.call_runtime import CallRuntime, TransportFacts
    from agentkit.core.invoker import Invoker
    from agentkit.core.meters import UsageMeter
    from agentkit.core.middleware import RetryMiddleware
    from agentkit.core.noop import NullCtx
    from agentkit.core.pricing import Mode, ModelPrice, PriceTable, RawUsage
    from agentkit.core.request import ChatRequest
    from agentkit.core.runtime import RunContext, Services
    from agentkit.core.types import (
        Budget,
        ChatResponse,
        Delta,
        FetchResponse,
        MemoryItem,
        Message,
        Scope,
        SearchHit,
        ToolCall,
        ToolSchema,
        TraceContext,
        Usage,
    )
    from agentkit.fakes.api import ApiError, BrokenStream, FakeApi
    from agentkit.fakes.cli import (
        CapturingSpawn,
        CliRun,
        CliStderr,
        FakeClaudeCli,
        FakeCodexCli,
        Recording,
        codex_turn,
        find_secrets,
        load_recording,
        save_recording,
    )
    from agentkit.fakes.ctx import (
        FakeCompactor,
        FakeCtx,
        FakeGrounder,
        RecordingSpan,
        RecordingTracer,
        make_test_ctx,
    )
    from agentkit.fakes.io import FakeClock, FakeFetch, FakeMemory, FakeSearch, FakeTool
    from agentkit.fakes.llm import FakeLLM, ScriptedAdapter, Turn, scripted_runtime

    def each(
        where: str,
        build: Callable[..., object],
        argument: str,
        values: Sequence[tuple[str, object]],
        *args: object,
        **base: object,
    ) -> Iterator[Case]:
        """One case per bad value of ``argument``, the other arguments from ``args``/``base``."""
        for bad, value in values:
            yield Case(where, argument, bad, _bind(build, list(args), {**base, argument: value}))

    ints = [("-1", -1), ("1.5", 1.5), ("True", True), ("'3'", "3")]
    positive_ints = [("0", 0), ("-1", -1), ("2.5", 2.5), ("True", True)]
    numbers = [("nan", NAN), ("inf", INF), ("-1", -1.0), ("'1'", "1"), ("True", True)]
    strs = [("123", 123), ("b'x'", b"x")]
    names = [("''", ""), ("123", 123), ("None", None)]
    bools = [("1", 1), ("'yes'", "yes"), ("None", None)]
    mappings = [("[]", []), ("'x'", "x"), ("1", 1)]

    # -- agentkit.core.types --------------------------------------------------------------
    for field in ("input_tokens", "cached_input_tokens", "output_tokens"):
        yield from each("Usage", Usage, field, ints)
    yield from each("Usage", Usage, "reasoning_tokens", [("nan", NAN)])
    yield from each("Usage", Usage, "cache_write_tokens", [("None", None)])
    yield from each("Message", Message, "role", [("'robot'", "robot"), ("123", 123)], content="x")
    yield from each("Message", Message, "content", [("123", 123), ("None", None)], role="user")
    yield from each(
        "Message", Message, "tool_calls", [("[1]", [1]), ("'x'", "x")], role="assistant"
    )
    yield from each("Message", Message, "tool_call_id", [("5", 5)], role="tool", content="x")
    yield from each("ToolCall", ToolCall, "id", [("1", 1), ("None", None)], name="n")
    yield from each("ToolCall", ToolCall, "name", [("''", ""), ("1", 1)], id="c1")
    yield from each("ToolCall", ToolCall, "arguments", mappings, id="c1", name="n")
    yield from each("ToolSchema", ToolSchema, "name", names)
    yield from each("ToolSchema", ToolSchema, "parameters", mappings, name="t")
    yield from each("ToolSchema", ToolSchema, "description", [("None", None)], name="t")
    yield from each("FetchResponse", FetchResponse, "url", [("1", 1), ("None", None)])
    yield from each(
        "FetchResponse",
        FetchResponse,
        "status",
        [("-1", -1), ("'200'", "200"), ("1.5", 1.5), ("True", True)],
        url="u",
    )
    yield from each("FetchResponse", FetchResponse, "body", strs, url="u")
    yield from each(
        "FetchResponse", FetchResponse, "headers", [("[]", []), ("{'a': 1}", {"a": 1})], url="u"
    )
    yield from each("SearchHit", SearchHit, "title", [("1", 1)], url="u")
    yield from each("SearchHit", SearchHit, "url", [("None", None)], title="t")
    yield from each("SearchHit", SearchHit, "snippet", [("1", 1)], title="t", url="u")
    yield from each("MemoryItem", MemoryItem, "text", [("None", None)], source="s")
    yield from each("MemoryItem", MemoryItem, "source", [("1", 1)], text="t")
    yield from each(
        "MemoryItem", MemoryItem, "score", [("nan", NAN), ("'x'", "x")], text="t", source="s"
    )
    yield from each("MemoryItem", MemoryItem, "metadata", [("[]", [])], text="t", source="s")
    yield from each("Scope", Scope, "org_id", [("1", 1)])
    yield from each("Scope", Scope, "domain_id", [("b'x'", b"x")])
    yield from each("Budget", Budget, "max_cost_usd", numbers)
    yield from each(
        "Budget", Budget, "max_total_tokens", [("-1", -1), ("1.5", 1.5), ("True", True)]
    )
    yield from each("Budget", Budget, "max_llm_calls", [("-1", -1), ("'3'", "3")])
    yield from each("Delta", Delta, "content", [("1", 1)])
    yield from each("Delta", Delta, "tool_calls", [("[1]", [1])])
    yield from each("Delta", Delta, "usage", [("1", 1)])
    yield from each("ChatResponse", ChatResponse, "cost_usd", [("nan", NAN), ("-1", -1.0)])
    yield from each("ChatResponse", ChatResponse, "usage", [("{}", {})])
    yield from each("TraceContext", TraceContext, "trace_id", [("1", 1)], span_id="s")

    # -- agentkit.core runtime, invoker, middleware, pricing, meters ------------------------
    yield from each("Invoker", Invoker, "llm", [("None", None), ("object()", object())])
    yield from each(
        "Invoker", Invoker, "chat_middleware", [("object()", object()), ("[1]", [1])], FakeLLM()
    )
    yield from each("Invoker", Invoker, "pricing", [("'x'", "x"), ("{}", {})], FakeLLM())
    yield from each("RunContext", RunContext, "services", [("1", 1)])
    yield from each("RunContext", RunContext, "budget", [("{}", {})])
    yield from each("RunContext", RunContext, "meters", [("[1]", [1])])
    yield from each("RunContext", RunContext, "correlation_id", [("1", 1)])
    yield from each("RunContext", RunContext, "autonomy", [("'maybe'", "maybe")])
    yield from each("RunContext", RunContext, "cancel", [("1", 1)])
    yield from each("RunContext", RunContext, "scope", [("'org'", "org")])
    yield from each("Services", Services, "invoker", [("1", 1)])
    yield from each("Services", Services, "clock", [("1", 1)])
    yield from each("Services", Services, "trace", [("None", None)])
    yield from each("Services", Services, "checkpointer", [("'x'", "x")])
    yield from each("Services", Services, "asker", [("1", 1)])
    request = {"messages": [Message.user("q")], "model": "m"}
    yield from each(
        "ChatRequest", ChatRequest, "messages", [("'hi'", "hi"), ("[1]", [1])], model="m"
    )
    yield from each("ChatRequest", ChatRequest, "model", [("1", 1)], messages=[])
    yield from each("ChatRequest", ChatRequest, "tools", [("[1]", [1])], **request)
    yield from each("ChatRequest", ChatRequest, "temperature", [("nan", NAN)], **request)
    yield from each("ChatRequest", ChatRequest, "max_tokens", [("-1", -1), ("1.5", 1.5)], **request)
    yield from each("ChatRequest", ChatRequest, "response_format", [("[]", [])], **request)
    yield from each("RetryMiddleware", RetryMiddleware, "max_attempts", positive_ints)
    yield from each("RetryMiddleware", RetryMiddleware, "initial_backoff", numbers[:3])
    yield from each("RetryMiddleware", RetryMiddleware, "multiplier", [("nan", NAN), ("-2", -2.0)])
    yield from each("RetryMiddleware", RetryMiddleware, "max_backoff", [("inf", INF)])
    yield from each(
        "RetryMiddleware",
        RetryMiddleware,
        "retry_on",
        [("Exception", Exception), ("(int,)", (int,)), ("()", ())],
    )
    yield from each("ModelPrice", ModelPrice, "input", numbers[:4], output=1.0)
    yield from each("ModelPrice", ModelPrice, "output", [("inf", INF)], input=1.0)
    yield from each("ModelPrice", ModelPrice, "cached_input", [("-1", -1.0)], input=1.0, output=1.0)
    yield from each(
        "PriceTable",
        PriceTable,
        "prices",
        [("[]", []), ("{'m': 1}", {"m": 1}), ("{1: price}", {1: ModelPrice(1.0, 1.0)})],
    )
    yield from each("Mode", Mode, "name", [("1", 1)], input_includes_cached=True)
    yield from each("Mode", Mode, "input_includes_cached", [("'yes'", "yes")], name="m")
    yield from each("RawUsage", RawUsage, "input_tokens", [("-1", -1), ("1.5", 1.5)])
    yield from each("TransportFacts", TransportFacts, "content", [("1", 1)])
    yield from each("TransportFacts", TransportFacts, "usage", [("Usage()", Usage())])
    prices = PriceTable({"m": ModelPrice(1.0, 1.0)})
    adapter = ScriptedAdapter([], verify=False)
    yield from each(
        "CallRuntime",
        CallRuntime,
        "adapter",
        [("None", None), ("object()", object())],
        pricing=prices,
    )
    yield from each("CallRuntime", CallRuntime, "pricing", [("None", None), ("{}", {})], adapter)
    yield from each("CallRuntime", CallRuntime, "mode", [("'openai'", "openai")], adapter, prices)
    yield from each("CallRuntime", CallRuntime, "default_model", [("1", 1)], adapter, prices)
    yield from each("UsageMeter", UsageMeter, "cost_usd", [("nan", NAN), ("-1", -1.0)])
    yield from each("UsageMeter", UsageMeter, "calls", [("-1", -1)])
    yield from each("UsageMeter", UsageMeter, "usage", [("1", 1)])
    yield from each("NullCtx", NullCtx, "scope", [("1", 1)])

    # -- agentkit.fakes.llm -------------------------------------------------------------------
    yield from each(
        "FakeLLM",
        FakeLLM,
        "responses",
        [
            ("1", 1),
            ("[]", []),
            ("{}", {}),
            ("{1: 'x'}", {1: "x"}),
            ("{'a': 1}", {"a": 1}),
            ("lambda: 'x'", lambda: "x"),
            ("lambda a, b: a", lambda a, b: a),
            ("b'x'", b"x"),
        ],
    )
    yield from each("FakeLLM", FakeLLM, "usage", [("1", 1), ("{}", {})])
    exercise = FakeLLM.exercise_tools
    yield from each(
        "FakeLLM.exercise_tools",
        exercise,
        "call_tools",
        [("'search'", "search"), ("[1]", [1]), ("['']", [""]), ("1", 1)],
    )
    yield from each("FakeLLM.exercise_tools", exercise, "output_text", strs)
    yield from each("FakeLLM.exercise_tools", exercise, "output_args", [("object()", object())])
    yield from each("FakeLLM.exercise_tools", exercise, "seed", [("'1'", "1"), ("1.5", 1.5)])
    yield from each("FakeLLM", FakeLLM, "fail_times", ints)
    yield from each(
        "FakeLLM",
        FakeLLM,
        "fail_exc",
        [("ValueError", ValueError), ("'boom'", "boom")],
        fail_times=1,
    )
    yield from each(
        "FakeLLM", FakeLLM, "fail_exc", [("ValueError() without fail_times", ValueError())]
    )
    yield from each("FakeLLM", FakeLLM, "delay", numbers)
    yield from each("FakeLLM", FakeLLM, "repeat_last", [("1", 1), ("True", True)])
    yield from each("FakeLLM", FakeLLM, "verify", bools)
    yield from each(
        "FakeLLM", FakeLLM, "turns", [("'abc'", "abc"), ("[1]", [1]), ("Turn('x')", Turn("x"))]
    )
    script = FakeLLM.script
    yield from each(
        "FakeLLM.script",
        script,
        "turns",
        [
            ("None", None),
            ("'hi'", "hi"),
            ("[1]", [1]),
            ("Turn('x')", Turn("x")),
            ("{'a': 'b'}", {"a": "b"}),
            ("['x']", ["x"]),
        ],
    )
    # Empty material: judgement calls, each accepted on purpose (see JUDGEMENT_CALLS).
    yield from each("FakeLLM.script", script, "turns", [("[]", [])])
    yield from each("ScriptedAdapter", ScriptedAdapter, "turns", [("[]", [])])
    yield from each("FakeFetch", FakeFetch, "fixtures", [("{}", {})])
    yield from each("FakeSearch", FakeSearch, "hits", [("[]", [])])
    yield from each("FakeLLM.script", script, "repeat_last", [("'yes'", "yes")], turns=[Turn("x")])
    yield from each(
        "FakeLLM.script", script, "repeat_last", [("True with no turns", True)], turns=[]
    )
    yield from each("FakeLLM.script", script, "fail_times", [("-1", -1)], turns=[Turn("x")])
    yield from each("FakeLLM.script", script, "delay", [("nan", NAN)], turns=[Turn("x")])
    yield from each("FakeLLM.script", script, "verify", [("None", None)], turns=[Turn("x")])
    yield from each("FakeLLM.script", script, "usage", [("'big'", "big")], turns=[Turn("x")])
    yield from each("Turn", Turn, "content", [("1", 1), ("None", None)])
    yield from each(
        "Turn",
        Turn,
        "tool_calls",
        [("[1]", [1]), ("'x'", "x"), ("ToolCall", ToolCall("c", "t")), ("{'a': 1}", {"a": 1})],
    )
    yield from each("Turn", Turn, "usage", [("1", 1), ("{}", {})])
    yield from each(
        "ScriptedAdapter",
        ScriptedAdapter,
        "turns",
        [("None", None), ("'x'", "x"), ("[1]", [1]), ("Turn('x')", Turn("x"))],
    )
    yield from each(
        "ScriptedAdapter", ScriptedAdapter, "repeat_last", [("1", 1)], turns=[Turn("x")]
    )
    yield from each(
        "ScriptedAdapter", ScriptedAdapter, "verify", [("'no'", "no")], turns=[Turn("x")]
    )
    yield from each(
        "scripted_runtime",
        scripted_runtime,
        "pricing",
        [("None", None), ("{}", {})],
        turns=[Turn("x")],
        verify=False,
    )
    yield from each(
        "scripted_runtime",
        scripted_runtime,
        "turns",
        [("None", None), ("'x'", "x")],
        pricing=prices,
    )
    yield from each(
        "scripted_runtime",
        scripted_runtime,
        "mode",
        [("'openai'", "openai")],
        turns=[Turn("x")],
        pricing=prices,
        verify=False,
    )
    yield from each(
        "scripted_runtime",
        scripted_runtime,
        "metres",
        [("[] (misspelt)", [])],
        turns=[Turn("x")],
        pricing=prices,
        verify=False,
    )

    # -- agentkit.fakes.io --------------------------------------------------------------------
    yield from each(
        "FakeClock", FakeClock, "start", [("nan", NAN), ("inf", INF), ("'0'", "0"), ("None", None)]
    )
    yield from each(
        "FakeFetch",
        FakeFetch,
        "fixtures",
        [
            ("[]", []),
            ("'x'", "x"),
            ("None", None),
            ("{1: response}", {1: FetchResponse("u")}),
            ("{'u': 'body'}", {"u": "body"}),
            ("{'': response}", {"": FetchResponse("")}),
        ],
    )
    yield from each("FakeFetch", FakeFetch, "require_all_fetched", [("1", 1)], {})
    page = {"https://a.test/": FetchResponse("https://a.test/")}
    yield from each(
        "FakeFetch",
        FakeFetch,
        "optional",
        [("1", 1), ("['https://b.test/']", ["https://b.test/"])],
        page,
    )
    yield from each(
        "FakeFetch",
        FakeFetch,
        "fixtures",
        [
            (
                "{regex: function without its group}",
                {re.compile(r"(?P<id>\d+)"): lambda url, idx: url},
            )
        ],
    )
    yield from each("FakeFetch", FakeFetch, "verify", [("'no'", "no")], {})
    yield from each(
        "FakeSearch",
        FakeSearch,
        "hits",
        [
            ("None", None),
            ("'x'", "x"),
            ("[1]", [1]),
            ("{'q': 'x'}", {"q": "x"}),
            ("{1: []}", {1: []}),
            ("SearchHit", SearchHit("t", "u")),
        ],
    )
    yield from each("FakeMemory", FakeMemory, "name", [("''", ""), ("1", 1)])
    yield from each(
        "FakeMemory",
        FakeMemory,
        "responses",
        [("[]", []), ("{'q': 'x'}", {"q": "x"}), ("{1: []}", {1: []})],
    )
    yield from each("FakeMemory", FakeMemory, "default", [("'x'", "x"), ("[1]", [1])])
    yield from each("FakeMemory", FakeMemory, "items", [("'x'", "x"), ("[1]", [1])])
    yield from each(
        "FakeMemory",
        FakeMemory,
        "items",
        [("[item] with responses", [MemoryItem("t", "s")])],
        responses={"q": []},
    )
    yield from each("FakeTool", FakeTool, "name", [("''", ""), ("1", 1)])
    yield from each("FakeTool", FakeTool, "description", [("1", 1)])
    yield from each("FakeTool", FakeTool, "side_effecting", [("1", 1)])
    yield from each("FakeTool", FakeTool, "requires_approval", [("'no'", "no")])
    yield from each("FakeTool", FakeTool, "output_schema", [("[]", [])])
    yield from each(
        "FakeTool", FakeTool, "schema", [("'x'", "x"), ("another tool's", ToolSchema("other"))]
    )

    # -- agentkit.fakes.ctx -------------------------------------------------------------------
    yield from each("FakeCtx", FakeCtx, "scope", [("1", 1)])
    yield from each("RecordingTracer", RecordingTracer, "exporter", [("1", 1)])
    yield from each("RecordingSpan", RecordingSpan, "name", [("1", 1)], kind="internal", attrs={})
    yield from each(
        "RecordingSpan", RecordingSpan, "attrs", [("[]", [])], name="s", kind="internal"
    )
    for argument, value in (
        ("llm", 1),
        ("invoker", 1),
        ("budget", 1),
        ("scope", 1),
        ("trace", 1),
        ("cancel", 1),
        ("checkpointer", 1),
    ):
        yield from each("make_test_ctx", make_test_ctx, argument, [(repr(value), value)])
    yield from each(
        "make_test_ctx",
        make_test_ctx,
        "invoker",
        [("with llm=", Invoker(FakeLLM()))],
        llm=FakeLLM(),
    )
    yield from each("FakeCompactor", FakeCompactor, "sentinel", [("1", 1)])
    yield from each("FakeCompactor", FakeCompactor, "called", [("1", 1)])
    yield from each("FakeGrounder", FakeGrounder, "block", [("None", None), ("1", 1)])
    yield from each("FakeGrounder", FakeGrounder, "calls", [("1", 1)])

    # -- agentkit.agents: react, capabilities, control, tools --------------------------------
    yield from each(
        "ReactAgent",
        ReactAgent,
        "tools",
        [
            ("[object()]", [object()]),
            ("None", None),
            ("FakeTool()", FakeTool()),
            ("'abc'", "abc"),
            ("{'t': tool}", {"t": FakeTool()}),
        ],
        model="m",
    )
    yield from each("ReactAgent", ReactAgent, "model", [("1", 1), ("''", ""), ("None", None)], [])
    yield from each(
        "ReactAgent", ReactAgent, "max_iterations", [*positive_ints, ("nan", NAN)], [], model="m"
    )
    yield from each("ReactAgent", ReactAgent, "system_prompt", [("1", 1)], [], model="m")
    yield from each("ReactAgent", ReactAgent, "request_builder", [("1", 1)], [], model="m")
    yield from each(
        "ReactAgent", ReactAgent, "response_format", [("[]", []), ("'json'", "json")], [], model="m"
    )
    yield from each("ReactAgent", ReactAgent, "output_validator", [("1", 1)], [], model="m")
    yield from each(
        "RequestBuilder", RequestBuilder, "system_prompt", [("1", 1), ("None", None)], model="m"
    )
    yield from each("RequestBuilder", RequestBuilder, "model", [("1", 1), ("''", "")], "sys")
    yield from each("RequestBuilder", RequestBuilder, "grounder", [("1", 1)], "sys", model="m")
    yield from each("RequestBuilder", RequestBuilder, "compactor", [("'x'", "x")], "sys", model="m")
    yield from each(
        "RequestBuilder",
        RequestBuilder,
        "max_messages",
        [("0", 0), ("-1", -1), ("1.5", 1.5)],
        "sys",
        model="m",
    )
    yield from each(
        "RequestBuilder",
        RequestBuilder,
        "max_chars",
        [("-1", -1), ("True", True)],
        "sys",
        model="m",
    )
    yield from each(
        "RequestBuilder", RequestBuilder, "prompt_version", [("1", 1), ("''", "")], "sys", model="m"
    )
    yield from each("RequestBuilder", RequestBuilder, "temperature", numbers[:4], "sys", model="m")
    yield from each(
        "RequestBuilder", RequestBuilder, "max_tokens", [("0", 0), ("1.5", 1.5)], "sys", model="m"
    )

    def annotated(x: int) -> int:
        """Return x."""
        return x

    yield from each("FunctionTool", FunctionTool, "fn", [("1", 1), ("None", None), ("'f'", "f")])
    yield from each("FunctionTool", FunctionTool, "name", [("1", 1), ("''", "")], annotated)
    yield from each("FunctionTool", FunctionTool, "description", [("1", 1)], annotated)
    yield from each("FunctionTool", FunctionTool, "side_effecting", [("1", 1)], annotated)
    yield from each("FunctionTool", FunctionTool, "requires_approval", [("'y'", "y")], annotated)
    yield from each("FunctionTool", FunctionTool, "output_schema", [("[]", [])], annotated)
    yield from each("tool", tool, "name", [("1", 1)], annotated)
    yield Case("tool", "fn", "1", _bind(tool, [1], {}))
    yield from each("json_output", json_output, "schema", [("[]", []), ("'x'", "x")])
    yield from each("schema_errors", schema_errors, "schema", [("[]", []), ("'x'", "x")], value=1)
    call = ToolCall("c", "t")
    state: dict[str, object] = {
        "task": "q",
        "model": "m",
        "iteration": 1,
        "messages": (),
        "pending": call,
    }
    for field_name, wrong in (
        ("task", 1),
        ("model", ""),
        ("iteration", 0),
        ("iteration", 1.5),
        ("messages", ["not a message"]),
        ("pending", None),
        ("remaining", [1]),
        ("resumed", "yes"),
    ):
        yield from each("SuspendedRun", SuspendedRun, field_name, [(repr(wrong), wrong)], **state)
    yield from each("ElicitationAsker", ElicitationAsker, "id_prefix", [("1", 1), ("''", "")])
    yield from each(
        "ApprovalRequest",
        ApprovalRequest,
        "id",
        [("1", 1)],
        question="q",
        tool_call=ToolCall("c", "t"),
    )
    yield from each(
        "ApprovalRequest",
        ApprovalRequest,
        "question",
        [("None", None)],
        id="a",
        tool_call=ToolCall("c", "t"),
    )
    yield from each(
        "ApprovalRequest", ApprovalRequest, "tool_call", [("{}", {})], id="a", question="q"
    )

    # -- agentkit.agents.cognition and agentkit.fakes.cli (the CLI side) ----------------------
    for name, cognition, fake in (
        ("ClaudeCliCognition", ClaudeCliCognition, FakeClaudeCli),
        ("CodexCliCognition", CodexCliCognition, FakeCodexCli),
    ):
        spawn = fake([])
        yield from each(name, cognition, "spawn", [("None", None), ("1", 1)])
        yield from each(name, cognition, "model", [("123", 123), ("''", "")], spawn)
        yield from each(name, cognition, "extra_args", [("'--x'", "--x"), ("[1]", [1])], spawn)
        yield from each(name, cognition, "cwd", [("1", 1)], spawn)
        yield from each(
            name, cognition, "env", [("{'A': 1}", {"A": 1}), ("[]", []), ("'x'", "x")], spawn
        )
        yield from each(name, cognition, "pricing", [("{}", {}), ("1", 1)], spawn)
        yield from each(
            name,
            cognition,
            "timeout",
            [("nan", NAN), ("-1", -1.0), ("0", 0), ("'600'", "600"), ("inf", INF)],
            spawn,
        )
        yield from each(
            name, cognition, "executable", [("None", None), ("''", ""), ("1", 1)], spawn
        )
        yield from each(
            name,
            cognition,
            "kill_grace",
            [("nan", NAN), ("-1", -1.0), ("inf", INF), ("'5'", "5")],
            spawn,
        )
        yield from each(
            name, cognition, "limit", [("1.5", 1.5), ("0", 0), ("-1", -1), ("True", True)], spawn
        )
    claude = ClaudeCliCognition(FakeClaudeCli([]))
    codex = CodexCliCognition(FakeCodexCli([]))
    ctx = make_test_ctx()
    yield from each(
        "ClaudeCliSession",
        ClaudeCliSession,
        "cognition",
        [("None", None), ("codex", codex)],
        ctx=ctx,
    )
    yield from each("ClaudeCliSession", ClaudeCliSession, "ctx", [("None", None), ("1", 1)], claude)
    yield from each(
        "CodexCliSession",
        CodexCliSession,
        "cognition",
        [("None", None), ("claude", claude)],
        ctx=ctx,
    )
    yield from each("CodexCliSession", CodexCliSession, "ctx", [("None", None)], codex)
    yield from each(
        "CodexCliSession", CodexCliSession, "thread_id", [("1", 1), ("''", "")], codex, ctx
    )
    yield from each(
        "CodexCliSession",
        CodexCliSession,
        "usage_so_far",
        [("1", 1), ("Usage()", Usage())],
        codex,
        ctx,
    )
    yield from each("CliProcess", CliProcess, "process", [("None", None)], argv=["claude"])
    for name, fake in (("FakeClaudeCli", FakeClaudeCli), ("FakeCodexCli", FakeCodexCli)):
        yield from each(
            name,
            fake,
            "runs",
            [
                ("'x'", "x"),
                ("[1]", [1]),
                ("CliRun()", CliRun()),
                ("None", None),
                ("{'a': 1}", {"a": 1}),
            ],
        )
        yield from each(name, fake, "repeat_last", [("1", 1)], [CliRun()])
        yield from each(name, fake, "verify", [("'no'", "no")], [CliRun()])
        yield from each(name, fake, "repeat_last", [("True with no runs", True)], [])
    yield from each("CliRun", CliRun, "stdout", [("'str'", "str"), ("1", 1)])
    yield from each("CliRun", CliRun, "stderr", [("'x'", "x")])
    yield from each("CliRun", CliRun, "returncode", [("'0'", "0"), ("1.5", 1.5), ("None", None)])
    yield from each(
        "CliRun", CliRun, "interleaved_stderr", [("[1]", [1]), ("[(-1, b'x')]", [(-1, b"x")])]
    )
    yield from each(
        "CliRun.of", CliRun.of, "payloads", [("None", None), ("[1]", [1]), ("{'a': 1}", {"a": 1})]
    )
    yield from each("CliRun.of", CliRun.of, "returncode", [("'1'", "1")], [])
    yield from each("CliStderr", CliStderr, "data", [("'str'", "str"), ("None", None)])
    yield from each("codex_turn", codex_turn, "text", [("1", 1)])
    yield from each(
        "codex_turn",
        codex_turn,
        "usage",
        [("(1, 2)", (1, 2)), ("(-1, 0, 0)", (-1, 0, 0)), ("(1.5, 0, 0)", (1.5, 0, 0))],
    )
    yield from each("codex_turn", codex_turn, "items", [("[1]", [1]), ("'x'", "x")])
    yield from each("codex_turn", codex_turn, "duration_ms", [("-1", -1), ("1.5", 1.5)])
    yield from each("codex_turn", codex_turn, "thread_id", [("1", 1)])
    for name, replay in (
        ("FakeClaudeCli.replay", FakeClaudeCli.replay),
        ("FakeCodexCli.replay", FakeCodexCli.replay),
    ):
        for bad, path in (
            ("a missing file", files.missing),
            ("a directory", files.directory),
            ("an empty file", files.empty),
            ("a binary file", files.binary),
            ("a UTF-16 file", files.utf16),
            ("pretty-printed JSON", files.pretty),
            ("non-JSON lines", files.prose),
            ("a FIFO", files.fifo),
        ):
            yield Case(name, "path", bad, _bind(replay, [path], {}), names=path.name)
        if files.unreadable_really():
            yield Case(
                name,
                "path",
                "an unreadable file",
                _bind(replay, [files.unreadable], {}),
                names=files.unreadable.name,
            )
        yield from each(name, replay, "path", [("1", 1), ("None", None)])
        shipped = _shipped_recording(name)
        if shipped is not None:  # a good recording, so only repeat_last is wrong
            yield from each(name, replay, "repeat_last", [("1", 1)], shipped)
    for bad, path in files.damaged_paths.items():
        yield Case(
            "load_recording",
            "path",
            bad,
            _bind(load_recording, [path], {}),
            names=path.name,
        )
    capturing = FakeClaudeCli([])
    yield from each("CapturingSpawn", CapturingSpawn, "spawn", [("None", None)], cli="claude")
    yield from each(
        "CapturingSpawn", CapturingSpawn, "cli", [("'gemini'", "gemini"), ("1", 1)], capturing
    )
    yield from each(
        "CapturingSpawn",
        CapturingSpawn,
        "scrub",
        [("'sk-'", "sk-"), ("['']", [""]), ("[3]", [3])],
        capturing,
        cli="claude",
    )
    yield from each(
        "CapturingSpawn", CapturingSpawn, "source", [("None", None)], capturing, cli="claude"
    )
    yield from each(
        "CapturingSpawn", CapturingSpawn, "cli_version", [("''", "")], capturing, cli="claude"
    )
    recording = Recording(cli="claude", argv=("claude",))
    yield from each(
        "Recording", Recording, "notes", [("'x'", "x"), ("[1]", [1])], "claude", ("claude",)
    )
    yield from each(
        "save_recording",
        save_recording,
        "allow_secrets",
        [("'yes'", "yes"), ("1", 1)],
        recording,
        files.root / "saved.jsonl",
    )
    yield from each("find_secrets", find_secrets, "data", [("'text'", "text"), ("None", None)])
    yield from each(
        "find_secrets", find_secrets, "environ", [("[]", []), ("{'A': 1}", {"A": 1})], b"x"
    )
    yield from each("FakeApi", FakeApi, "llm", [("'model'", "model"), ("1", 1)])
    yield from each("FakeApi", FakeApi, "require_key", bools, FakeLLM("x"))
    yield from each("FakeApi", FakeApi, "verify", bools, FakeLLM("x"))
    yield from each(
        "FakeApi.codex_args",
        FakeApi(FakeLLM("x"), verify=False).codex_args,
        "retries",
        [("-1", -1), ("1.5", 1.5), ("True", True), ("'3'", "3")],
    )
    yield from each(
        "ApiError",
        ApiError,
        "status",
        [("200", 200), ("600", 600), ("'429'", "429"), ("True", True), ("429.0", 429.0)],
    )
    yield from each("ApiError", ApiError, "message", strs, 429)
    yield from each("ApiError", ApiError, "kind", [("''", ""), ("1", 1)], 429)
    yield from each("ApiError", ApiError, "retry_after", numbers, 429)
    yield from each(
        "ApiError", ApiError, "headers", [("[]", []), ("{'a': 1}", {"a": 1}), ("'x'", "x")], 429
    )
    yield from each("ApiError", ApiError, "in_stream", bools, 429)
    partials = [
        ("7", 7),
        ("['Hel']", ["Hel"]),
        ("[Delta(finish_reason='stop')]", [Delta(finish_reason="stop")]),
    ]
    yield from each("ApiError", ApiError, "partial", partials, 529, in_stream=True)
    yield from each(
        "ApiError", ApiError, "partial", [("[Delta('Hel')] (no in_stream)", [Delta("Hel")])], 529
    )
    yield from each("BrokenStream", BrokenStream, "message", strs)
    yield from each("BrokenStream", BrokenStream, "partial", partials)


def _shipped_recording(owner: str) -> Path | None:
    """A recording agentkit-fakes-cli ships for ``owner``'s CLI, if any."""
    import agentkit.fakes.cli as cli

    cli_name = "claude" if owner.startswith("FakeClaude") else "codex"
    for root in cli.__path__:
        found = sorted((Path(root) / "recordings" / cli_name).glob("*.jsonl"))
        if found:
            return found[0]
    return None


def _bind(
    build: Callable[..., object], args: list[object], kwargs: dict[str, object]
) -> Callable[[], object]:
    return lambda: build(*args, **kwargs)


def catalogue(root: Path) -> tuple[list[Case], _Files]:
    """Every case, with the bad files made under ``root``."""
    files = _Files(root)
    return list(_cases(files)), files


# --- the report ---------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.hardening.wrong_inputs", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--timeout", type=float, default=3.0, help="seconds before a case counts as hung"
    )
    parser.add_argument("--verbose", action="store_true", help="print every case and its outcome")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="agentkit-wrong-inputs-") as tmp:
        root = Path(tmp)
        cases, files = catalogue(root)
        outcomes: list[Outcome] = []
        for case in cases:
            outcome = run_case(case, options.timeout)
            if outcome.verdict == "hung":
                files.release_fifo()
            outcomes.append(outcome)
        files.unreadable.chmod(stat.S_IRUSR | stat.S_IWUSR)
    return report(outcomes, verbose=options.verbose)


_KIT_ERRORS = frozenset(
    {"ArgumentTypeError", "ArgumentValueError", "RecordingError", "ToolDefinitionError"}
)


def report(outcomes: list[Outcome], *, verbose: bool = False, out: Any = None) -> int:
    """Print the figures and every case that was not refused; the exit status."""
    out = out or sys.stdout
    by: dict[str, list[Outcome]] = {"refused": [], "unclear": [], "accepted": [], "hung": []}
    for outcome in outcomes:
        by[outcome.verdict].append(outcome)
    judged = [o for o in by["accepted"] if o.case.judgement]
    unjudged = [o for o in by["accepted"] if not o.case.judgement]
    total = len(outcomes)
    print(
        f"{total} wrong inputs across {len({o.case.where for o in outcomes})} public callables",
        file=out,
    )
    print(f"  refused at once, naming the argument: {len(by['refused'])}", file=out)
    typed = [o for o in by["refused"] if o.error.split(":")[0] in _KIT_ERRORS]
    print(
        f"    of which with the kit's typed errors ({', '.join(sorted(_KIT_ERRORS))}): "
        f"{len(typed)}",
        file=out,
    )
    print(
        f"  refused unclearly (wrong error kind or argument not named): {len(by['unclear'])}",
        file=out,
    )
    print(f"  accepted: {len(by['accepted'])} ({len(judged)} marked judgement calls)", file=out)
    print(f"  hung: {len(by['hung'])}", file=out)
    if verbose:
        for outcome in outcomes:
            print(f"[{outcome.verdict}] {outcome.case.label}  {outcome.error}", file=out)
    else:
        for outcome in by["refused"]:
            if outcome.error.split(":")[0] not in _KIT_ERRORS:
                print(f"[refused, untyped] {outcome.case.label}  {outcome.error}", file=out)
        for verdict in ("unclear", "hung"):
            for outcome in by[verdict]:
                print(f"[{verdict}] {outcome.case.label}  {outcome.error}", file=out)
        for outcome in unjudged:
            print(f"[accepted] {outcome.case.label}", file=out)
        for outcome in judged:
            print(
                f"[accepted, judgement call] {outcome.case.label}: {outcome.case.judgement}",
                file=out,
            )
    return 1 if by["unclear"] or by["hung"] or unjudged else 0


if __name__ == "__main__":
    sys.exit(main())
