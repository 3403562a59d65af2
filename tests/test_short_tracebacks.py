"""A user's mistake constructing a double shows the user's line and the error, not the kit.

Every constructor refuses wrong input at once with an ``ArgumentTypeError`` /
``ArgumentValueError`` naming the argument. Both are kit failures, so the
agentkit pytest plugin unlinks the kit's own frames from the report, as it
does for every failure a double raises on purpose (one mechanism, no
``__tracebackhide__`` in the kit's modules).
These run a user's test file in a fresh pytest session (pytester) with
pytest's default traceback style and read the report as the user would: it
shows the line of the test that made the mistake and the error naming the
argument, no frame of agentkit's source, and stays a few lines long.
"""

from __future__ import annotations

import re

import pytest

from tests.support.inner_session import run_inner

pytest_plugins = ["pytester"]

# One wrong construction per double family: (import line, the mistake, what the error names).
MISTAKES = [
    ("from agentkit.core.testing import FakeLLM", 'FakeLLM("hi", fail_times="3")', "fail_times"),
    ("from agentkit.core.testing import FakeLLM", 'FakeLLM.script(["hello"])', "turns[0]"),
    ("from agentkit.core.testing import Turn", "Turn(tool_calls=[42])", "tool_calls"),
    ("from agentkit.core.testing import FakeFetch", 'FakeFetch(["https://a"])', "fixtures"),
    ("from agentkit.core.testing import FakeClock", 'FakeClock(start="now")', "start"),
    ("from agentkit.core.testing import FakeTool", 'FakeTool(name="")', "name"),
    ("from agentkit.core.testing import FakeMemory", 'FakeMemory(items="abc")', "items"),
    ("from agentkit.core.testing import make_test_ctx", "make_test_ctx(llm=42)", "llm"),
    (
        "from agentkit.core.testing import RecordingTracer",
        "RecordingTracer(exporter=42)",
        "exporter",
    ),
]
# The failure section of one test: header, the test's lines, the error. Long enough for a
# multi-line error message; the 66-line reports this replaces were mostly kit source.
MAX_LINES = 30


def failure_section(text: str) -> list[str]:
    """The lines between the FAILURES banner and the short test summary."""
    start = text.index("= FAILURES =")
    end = text.index("short test summary info")
    return text[start:end].splitlines()[1:-1]


@pytest.mark.parametrize(("imports", "mistake", "argument"), MISTAKES, ids=[m[1] for m in MISTAKES])
def test_the_report_shows_the_users_line_and_the_error(
    pytester: pytest.Pytester, imports: str, mistake: str, argument: str
) -> None:
    source = f"{imports}\n\n\ndef test_user() -> None:\n    double = {mistake}\n    assert double\n"
    result = run_inner(pytester, source)
    result.assert_outcomes(failed=1)
    section = failure_section(result.stdout.str())
    report = "\n".join(section)

    assert f">       double = {mistake}" in report  # the user's line, marked by pytest
    assert re.search(r"^E\s+agentkit\.core\.errors\.Argument(Type|Value)Error: ", report, re.M)
    assert argument in report
    # No frame of the kit's own source: every located frame is the user's file.
    frames = re.findall(r"^(\S+\.py):\d+: ", report, re.M)
    assert frames == ["test_inner.py"], report
    assert "agentkit/" not in report.replace("agentkit.core.errors.", ""), report
    assert len(section) <= MAX_LINES, report


def test_a_kit_bug_is_not_hidden(pytester: pytest.Pytester) -> None:
    # Only argument errors are hidden: any other exception raised inside the kit keeps its
    # frames, or a bug in a double would be reported as if the user's line had caused it.
    source = (
        "from agentkit.core.testing import FakeTool\n\n\n"
        "async def test_user() -> None:\n"
        "    def broken(args):\n"
        "        raise RuntimeError('in the responder')\n\n"
        "    await FakeTool(responder=broken).run({})\n"
    )
    result = run_inner(pytester, source)
    result.assert_outcomes(failed=1)
    report = "\n".join(failure_section(result.stdout.str()))
    assert "RuntimeError: in the responder" in report
    assert re.search(r"agentkit/fakes/io/tool\.py:\d+: ", report), report


# --- the failures a double raises on purpose -----------------------------------------------
# Each: a user's test that ends in one of them, the user's line pytest must mark, and what
# the report must say. The failure is raised deep in the kit (the agent loop, the invoker,
# the double's cursor); none of those frames may be in the report.
HEAD = """
import pytest
from agentkit.agents.cognition import ClaudeCliCognition
from agentkit.agents.react import ReactAgent
from agentkit.core.runtime import RunContext
from agentkit.core.testing import CliRun, FakeClaudeCli, FakeFetch, FakeLLM, FakeTool, Turn
from agentkit.core.testing import make_test_ctx
from agentkit.core.types import FetchResponse, ToolCall

INIT = {"type": "system", "subtype": "init", "session_id": "s"}
RESULT = {"type": "result", "subtype": "success", "is_error": False, "result": "ok",
          "session_id": "s", "num_turns": 1, "total_cost_usd": 0.0,
          "usage": {"input_tokens": 1, "output_tokens": 1}}
LOOP = Turn(tool_calls=(ToolCall("c1", "weather", {"city": "Paris"}),))
"""

KIT_FAILURES = [
    (
        "agent-loops-past-its-script",
        """
async def test_user():
    llm = FakeLLM.script([LOOP, LOOP])
    weather = FakeTool(name="weather", responder={"sky": "sunny"})
    result = await ReactAgent([weather], model="m").run(make_test_ctx(llm=llm), "Weather?")
""",
        'result = await ReactAgent([weather], model="m").run(make_test_ctx(llm=llm), "Weather?")',
        "ScriptExhausted",
    ),
    (
        "session-past-its-recording",
        """
async def test_user():
    cli = FakeClaudeCli([CliRun.of([INIT, RESULT])])
    async with ClaudeCliCognition(cli, timeout=600).session(RunContext()) as session:
        await session.turn("one")
        await session.turn("two")
""",
        'await session.turn("two")',
        "ScriptExhausted",
    ),
    (
        "real-process-blocked",
        """
async def test_user():
    result = await ClaudeCliCognition().drive(RunContext(), "hi")
""",
        'result = await ClaudeCliCognition().drive(RunContext(), "hi")',
        "RealProcessBlocked",
    ),
    (
        "replay-mismatch",
        """
async def test_user():
    cli = FakeClaudeCli.recorded("text-answer", check_input=True, verify=False)
    result = await ClaudeCliCognition(cli).drive(RunContext(), "a changed prompt")
""",
        'result = await ClaudeCliCognition(cli).drive(RunContext(), "a changed prompt")',
        "ReplayMismatch",
    ),
    (
        "unmatched-request",
        """
async def test_user():
    llm = FakeLLM({"weather": "Sunny."})
    result = await ReactAgent([], model="m").run(make_test_ctx(llm=llm), "What time is it?")
""",
        'result = await ReactAgent([], model="m").run(make_test_ctx(llm=llm), "What time is it?")',
        "UnmatchedRequest",
    ),
    (
        "unknown-url",
        """
async def test_user():
    fetch = FakeFetch({"https://a.example": FetchResponse("https://a.example", 200, "a")},
                      verify=False)
    page = await fetch.fetch("https://b.example")
""",
        'page = await fetch.fetch("https://b.example")',
        "UnknownURLError",
    ),
    (
        "response-rule-error",
        """
def rule(request):
    raise RuntimeError("the test's own rule broke")

async def test_user():
    result = await ReactAgent([], model="m").run(make_test_ctx(llm=FakeLLM(rule)), "Hi")
""",
        'result = await ReactAgent([], model="m").run(make_test_ctx(llm=FakeLLM(rule)), "Hi")',
        "ResponseRuleError",
    ),
    (
        "recording-error",
        """
def test_user():
    cli = FakeClaudeCli.replay("recordings/missing.jsonl")
""",
        'cli = FakeClaudeCli.replay("recordings/missing.jsonl")',
        "RecordingError",
    ),
    (
        "verification-error",
        """
async def test_user():
    llm = FakeLLM.script([Turn("one"), Turn("two")], verify=False)
    await ReactAgent([], model="m").run(make_test_ctx(llm=llm), "Hi")
    llm.assert_complete()
""",
        "llm.assert_complete()",
        "VerificationError",
    ),
    (
        "contract-violation",
        """
from agentkit.core.testing.contracts import check_clock_port

class BackwardsClock:
    def __init__(self):
        self.t = 10.0
    def now(self):
        self.t -= 1.0
        return self.t
    async def sleep(self, seconds):
        return None

async def test_user():
    await check_clock_port(BackwardsClock)
""",
        "await check_clock_port(BackwardsClock)",
        "ContractViolation",
    ),
]


@pytest.mark.parametrize(
    ("body", "line", "error"), [k[1:] for k in KIT_FAILURES], ids=[k[0] for k in KIT_FAILURES]
)
def test_a_kit_failure_shows_the_users_line_and_the_message(
    pytester: pytest.Pytester, body: str, line: str, error: str
) -> None:
    result = run_inner(pytester, HEAD + body)
    result.assert_outcomes(failed=1)
    section = failure_section(result.stdout.str())
    report = "\n".join(section)

    assert f">       {line}" in report or f">           {line}" in report, report
    assert re.search(rf"^E\s+\S*{error}: ", report, re.M), report
    frames = set(re.findall(r"^(\S+\.py):\d+: ", report, re.M))
    assert frames == {"test_inner.py"}, report
    assert not re.search(r"agentkit/\S+\.py", report), report
    assert len(section) <= MAX_LINES, report
