"""The scenarios: what "the model" answers, how the cognition is driven, what must hold.

Each :class:`Scenario` is one shipped recording (``<cli>/<name>.jsonl``):

* ``script`` builds the model behind the loopback API: a fresh
  :class:`~agentkit.fakes.llm.FakeLLM` per run (so a scripted conversation
  starts from its beginning every time) holding the turns "the model"
  answers -- text, reasoning, tool calls, usage -- and the provider failures
  (:class:`~agentkit.fakes.api.ApiError`, :class:`~agentkit.fakes.api.BrokenStream`)
  it meets. :class:`~agentkit.fakes.api.FakeApi` serves it as the Anthropic
  Messages and OpenAI Responses APIs; the script is strict, so a run that
  asks for fewer or more model calls than the scenario claims fails;
* ``options`` are constructor keywords of the cognition beyond the ones the
  runner always passes (``spawn``, ``executable``, ``env``, ``cwd``); across
  the scenarios of a CLI every keyword of its cognition is used at least
  once, so each is exercised against the real binary (the runner checks
  this against the constructor's signature);
* ``play`` drives the cognition -- ``drive``, a session, a resume -- through
  ``make``, which builds the cognition with the scenario's options and the
  spawn under test, and returns labelled observations (results, session
  state) that the runner compares between the real run and the replay;
* ``check`` says what the real run must show for the recording to be what
  its name claims (the tool really ran, the 401 really failed, the resumed
  run really saw the earlier turn), reading the observations, the model's
  call log, the server's HTTP log and the captured stdout;
* ``mcp`` gives the CLI an MCP server through the kit's settings helpers
  (:mod:`agentkit.fakes.mcp`): a strict
  :class:`~agentkit.fakes.mcp.FakeMcpServer` built fresh per run, a server
  written with the official MCP SDK that the CLI starts over stdio, or a
  loopback URL nothing listens on; ``expect_violations`` names the
  violation kinds the run must leave on the doubles (a scenario proving
  that a misbehaving run fails its test) -- any other violation fails it.

Only the names ``agentkit.agents.cognition`` exports and their documented
keywords are used here.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from agentkit.agents.cognition import ClaudeCliSession
from agentkit.core.pricing import ModelPrice, PriceTable
from agentkit.core.runtime import RunContext
from agentkit.core.types import Delta, Message, ToolCall, Usage
from agentkit.fakes.api import ApiError, BrokenStream, FakeApi
from agentkit.fakes.llm import FakeLLM, Turn
from agentkit.fakes.mcp import FakeMcpServer, McpTool, StdioServer, mcp_tool_call

__all__ = [
    "CLAUDE_MODEL",
    "CODEX_MODEL",
    "SCENARIOS",
    "Cli",
    "Evidence",
    "Make",
    "Observation",
    "Scenario",
    "by_name",
]

CLAUDE_MODEL = "claude-sonnet-4-5-20250929"
CODEX_MODEL = "gpt-5.6-luna"
CODEX_UNKNOWN_MODEL = "parity-unknown-model"
CODEX_MCP_MODEL = "gpt-5"
"""A model codex offers its tools to as Responses tools, the MCP servers' as ``namespace``
tools. For ``CODEX_MODEL`` codex 0.171.0 offers only a JavaScript ``exec`` tool ("code
mode") in an ``additional_tools`` input item, and MCP tools are called from that code."""
_ENV_MODEL = "claude-haiku-4-5-20251001"

Cli = Literal["claude", "codex"]
"""The CLIs the suite runs (the names recordings are filed under)."""

Make = Callable[..., Any]
"""``make(**overrides)`` -> the cognition, built with the scenario's options and the spawn."""
Observation = tuple[str, object]
"""A labelled value the real run and the replay must agree on."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """What :attr:`Scenario.check` reads: the real run's observations, the model API
    (its HTTP log), the model behind it (its call log), the stdout, and the MCP
    double the CLI was given (its call log), if any."""

    observations: Sequence[Observation]
    api: FakeApi
    stdouts: Sequence[bytes]
    llm: FakeLLM
    mcp: FakeMcpServer | None = None

    @property
    def messages(self) -> list[Sequence[Message]]:
        """The conversation of every model call, in order, as the kit's messages."""
        return [call.messages for call in self.llm.calls]

    def value(self, label: str) -> Any:
        for name, value in self.observations:
            if name == label:
                return value
        raise KeyError(label)

    def stdout_has(self, needle: str, spawn: int = -1) -> bool:
        return needle.encode() in self.stdouts[spawn] if self.stdouts else False


Check = Callable[[Evidence], list[str]]
Play = Callable[[Make, RunContext], Awaitable[list[Observation]]]


@dataclass(frozen=True, slots=True)
class Scenario:
    cli: Cli
    name: str
    summary: str
    script: Callable[[], FakeLLM]
    play: Play
    check: Check
    options: Mapping[str, Any] = field(default_factory=dict)
    shipped: int = -1
    """Which spawn is the shipped recording (the last one, unless said otherwise)."""
    env_without: tuple[str, ...] = ()
    """Variables left out of the CLI's environment (``ANTHROPIC_API_KEY``: no credentials)."""
    api_down: bool = False
    """Point the CLI at a loopback port nothing listens on (connection refused)."""
    git_check: bool = False
    """codex: leave out ``--skip-git-repo-check`` (the project is not a git repository)."""
    env_extra: tuple[tuple[str, str], ...] = ()
    """Variables added to the CLI's environment."""
    inherit_env: bool = False
    """Build the cognition with ``env=None`` and the executable's bare name, so the CLI
    inherits the process environment and is found through ``PATH``. The runner
    makes the process environment the scenario's own (the binaries' folder first
    on ``PATH``) while the scenario runs, and runs it alone."""
    mcp: Callable[[], FakeMcpServer] | StdioServer | Literal["down"] | None = None
    """The MCP server the CLI is given: a fresh double per run (named ``weather``), a
    command the CLI starts (named ``notes``), or ``"down"`` (``weather`` at a loopback
    URL nothing listens on)."""
    mcp_allowed: bool = True
    """Whether the settings permit (claude) / approve (codex) the server's tools."""
    mcp_stdio: bool = False
    """Give the double as a command (its stdio launcher) instead of its URL."""
    expect_violations: tuple[str, ...] = ()
    """The violation kinds the real run must leave on the doubles, and the only ones."""
    replay: bool = True
    """False for a run the cognition itself stopped (its ``timeout``, codex's
    ``reconnect_window``): the recording holds what the CLI printed and the
    signal it died of, not that the cognition's clock sent that signal, so a
    replay reads a child killed from outside (``cli_signal_<n>``). Such a
    scenario is checked on the real run and its reading only, and ships no
    recording."""

    @property
    def key(self) -> str:
        return f"{self.cli}/{self.name}"


# ---------------------------------------------------------------- helpers


def _ok(label: str = "result") -> Check:
    def check(ev: Evidence) -> list[str]:
        result = ev.value(label)
        if result.error is not None:
            return [f"{label} should have succeeded, got {result.error.code}: {result.error}"]
        return []

    return check


def _failed(*hints: str, label: str = "result") -> Check:
    """The result has an error whose code or message mentions one of ``hints``."""

    def check(ev: Evidence) -> list[str]:
        error = ev.value(label).error
        if error is None:
            return [f"{label} should have failed ({' / '.join(hints)}), it succeeded"]
        said = f"{error.code} {error}".lower()
        if hints and not any(h.lower() in said for h in hints):
            return [f"{label} failed as {error.code}: {error} -- expected {' / '.join(hints)}"]
        return []

    return check


def _text(expected: str, label: str = "result") -> Check:
    def check(ev: Evidence) -> list[str]:
        text = ev.value(label).text
        return [] if text == expected else [f"{label}.text is {text!r}, expected {expected!r}"]

    return check


def _stdout(needle: str, spawn: int = -1) -> Check:
    def check(ev: Evidence) -> list[str]:
        return [] if ev.stdout_has(needle, spawn) else [f"stdout never showed {needle}"]

    return check


def _code(code: str, label: str = "result") -> Check:
    """The result failed with exactly ``code``."""

    def check(ev: Evidence) -> list[str]:
        error = ev.value(label).error
        if error is None or error.code != code:
            got = None if error is None else error.code
            return [f"{label} should have failed as {code}, got {got}"]
        return []

    return check


def _charged_tokens(label: str = "result") -> Check:
    def check(ev: Evidence) -> list[str]:
        usage = ev.value(label).usage
        if usage.input_tokens + usage.output_tokens == 0:
            return [f"{label} charged no tokens for a call the CLI reported"]
        return []

    return check


def _all(*checks: Check) -> Check:
    def check(ev: Evidence) -> list[str]:
        return [problem for c in checks for problem in c(ev)]

    return check


async def _drive(make: Make, ctx: RunContext, prompt: str) -> list[Observation]:
    return [("result", await make().drive(ctx, prompt))]


def _drive_with(prompt: str) -> Play:
    async def play(make: Make, ctx: RunContext) -> list[Observation]:
        return await _drive(make, ctx, prompt)

    return play


# ------------------------------------------------------------------ claude


def _script(*turns: Turn | BaseException, verify: bool = True) -> Callable[[], FakeLLM]:
    """A fresh strict FakeLLM per run, answering ``turns`` in order (none: never asked)."""

    def build() -> FakeLLM:
        return FakeLLM.script(turns, verify=verify)

    return build


def _say(
    text: str,
    *,
    input_tokens: int = 120,
    output_tokens: int = 30,
    cache_read_input_tokens: int = 0,
    reasoning: str = "",
) -> Turn:
    usage = Usage(
        input_tokens=input_tokens,
        cached_input_tokens=cache_read_input_tokens,
        output_tokens=output_tokens,
    )
    return Turn(text, usage=usage, reasoning=reasoning)


def _tool_call(command: str) -> Turn:
    """claude's first turn of a tool scenario: a sentence and a Bash call."""
    call = ToolCall("toolu_parity_01", "Bash", {"command": command, "description": "run"})
    return Turn("I will run a command.", tool_calls=[call], usage=Usage(120, output_tokens=30))


def _tool_then(command: str, final: str) -> tuple[Turn, Turn]:
    """A Bash call, then the answer once its result came back."""
    return (
        _tool_call(command),
        _say(final, input_tokens=180, cache_read_input_tokens=100, output_tokens=25),
    )


def _tool_result_has(needle: str, who: str = "the CLI") -> Check:
    """Some model call carried a tool result holding ``needle`` (what the tool printed)."""

    def check(ev: Evidence) -> list[str]:
        for messages in ev.messages:
            if any(m.role == "tool" and needle in m.content for m in messages):
                return []
        return [f"{who} never sent the model a tool result holding {needle!r}"]

    return check


def _tool_results(body: object) -> list[Mapping[str, Any]]:
    """The ``tool_result`` blocks of an Anthropic request body, as sent."""
    messages = body.get("messages") if isinstance(body, dict) else None
    out: list[Mapping[str, Any]] = []
    for message in messages if isinstance(messages, list) else []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list):
            out += [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
    return out


def _denied(ev: Evidence) -> list[str]:
    """The refused call came back flagged ``is_error`` (a flag the kit's Message does not
    hold: read from the raw request)."""
    for request in ev.api.requests_to("/v1/messages"):
        if any(block.get("is_error") is True for block in _tool_results(request.json)):
            return []
    return ["the denied tool call never came back to the model as an error result"]


def _claude_session_state(session: ClaudeCliSession) -> list[Observation]:
    """What a closed claude session holds beside its turns' results."""
    return [
        ("session.session_id", session.session_id),
        ("session.returncode", session.returncode),
        ("session.stderr", session.stderr),
        ("session.trailing", tuple(session.trailing)),
    ]


async def _claude_session(make: Make, ctx: RunContext) -> list[Observation]:
    async with make().session(ctx) as session:
        first = await session.turn("Remember the word: parity.")
        second = await session.turn("Which word did I ask you to remember?")
    return [
        ("turn 1", first),
        ("turn 2", second),
        *_claude_session_state(session),
    ]


def _by_user_turn(*answers: str) -> list[Turn]:
    """The answer to the conversation's k-th user message is ``answers[k-1]``, its usage
    growing with the conversation (``100 * k`` in, ``10 + k`` out)."""
    return [
        _say(text, input_tokens=100 * k, output_tokens=10 + k)
        for k, text in enumerate(answers, start=1)
    ]


async def _claude_resume(make: Make, ctx: RunContext) -> list[Observation]:
    """A run, then ``drive(resume=<its id>)`` charged from the first run's cost."""
    first = await make().drive(ctx, "Remember the word: parity.")
    again = await make().drive(
        ctx,
        "Which word did I ask you to remember?",
        resume=first.session_id,
        cost_so_far=first.cost_usd,
    )
    return [("setup", first), ("result", again)]


async def _claude_fork(make: Make, ctx: RunContext) -> list[Observation]:
    """A run; a run forked from it (``drive(resume=, fork=True)``, the shipped spawn); then
    a stream-json session forked from it too (``session(resume=, fork=True)``)."""
    first = await make().drive(ctx, "Remember the word: parity.")
    forked = await make().drive(
        ctx,
        "Which word did I ask you to remember?",
        resume=first.session_id,
        fork=True,
        cost_so_far=first.cost_usd,
    )
    async with make().session(
        ctx, resume=first.session_id, fork=True, cost_so_far=first.cost_usd
    ) as session:
        again = await session.turn("Which word did I ask you to remember?")
    return [
        ("setup", first),
        ("result", forked),
        ("session turn", again),
        *_claude_session_state(session),
    ]


async def _claude_unknown_resume(make: Make, ctx: RunContext) -> list[Observation]:
    resume = "00000000-0000-4000-8000-00000000beef"
    return [("result", await make().drive(ctx, "Are you there?", resume=resume))]


async def _codex_unknown_resume(make: Make, ctx: RunContext) -> list[Observation]:
    resume = "00000000-0000-7000-8000-00000000beef"
    return [("result", await make().drive(ctx, "Are you there?", resume=resume))]


def _forked_twice(ev: Evidence) -> list[str]:
    problems = _ok("session turn")(ev)
    ids = [ev.value(label).session_id for label in ("setup", "result", "session turn")]
    if len(set(ids)) != 3:
        problems.append(f"each fork should have its own session id, got {ids}")
    return problems


def _resumed(*, same_id: bool) -> Check:
    def check(ev: Evidence) -> list[str]:
        problems = _ok("setup")(ev) + _ok("result")(ev)
        first, again = ev.value("setup"), ev.value("result")
        if (first.session_id == again.session_id) != same_id:
            want = "the same session id" if same_id else "a new session id"
            problems.append(f"expected {want}: {first.session_id!r} then {again.session_id!r}")
        calls = ev.messages
        if not calls or sum(m.role == "user" for m in calls[-1]) < 2:
            problems.append("the resumed run did not send the earlier turn to the model")
        return problems

    return check


def _model_of_its_own(cli: str, expected: str | None = None) -> Check:
    """With ``model=None`` no ``--model`` / ``-m`` is passed: the CLI asked the API for
    the model its environment names (``expected``), or else its own default -- never
    the one the other scenarios pass."""
    path = "/v1/messages" if cli == "claude" else "/v1/responses"
    passed = CLAUDE_MODEL if cli == "claude" else CODEX_MODEL

    def check(ev: Evidence) -> list[str]:
        models = {r.json.get("model") for r in ev.api.requests_to(path) if isinstance(r.json, dict)}
        if expected is not None and models != {expected}:
            return [f"the CLI should have asked for {expected} (its environment's), got {models}"]
        if not models or passed in models or None in models:
            return [f"the CLI should have asked for a model of its own, asked for {models}"]
        return []

    return check


_TIMEOUT_MARKER = "parity-timeout-marker"


def _nothing_left_running(marker: str) -> Check:
    """No process whose command line holds ``marker`` outlived the turn (the CLI's
    own children included: the timeout stops every descendant)."""

    def check(ev: Evidence) -> list[str]:
        left = []
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                cmdline = (proc / "cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmdline:
                left.append(proc.name)
        return [f"processes left running after the timeout: {left}"] if left else []

    return check


_ANSWER_SCHEMA = (
    '{"type":"object","properties":{"answer":{"type":"integer"}},'
    '"required":["answer"],"additionalProperties":false}'
)


def _structured_answer() -> Turn:
    """The model's answer to a ``--json-schema`` run: claude offers a tool for the value."""
    call = ToolCall("toolu_parity_json", "StructuredOutput", {"answer": 42})
    return Turn("", tool_calls=[call], usage=Usage(120, output_tokens=30))


def _structured(expected: object, label: str = "result") -> Check:
    def check(ev: Evidence) -> list[str]:
        value = ev.value(label).structured_output
        if value != expected:
            return [f"{label}.structured_output is {value!r}, expected {expected!r}"]
        return []

    return check


_CLAUDE_PRICES = PriceTable({CLAUDE_MODEL: ModelPrice(input=3.0, output=15.0, cached_input=0.3)})

CLAUDE_SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "claude",
        "text-answer",
        "one prompt, a plain text answer",
        _script(_say("Hello from the parity mock.")),
        _drive_with("Say hello."),
        _all(_ok(), _text("Hello from the parity mock.")),
        options={
            "model": CLAUDE_MODEL,
            "extra_args": ("--append-system-prompt", "Answer briefly."),
            "pricing": _CLAUDE_PRICES,
            "timeout": 120.0,
            "limit": 1 << 20,
        },
    ),
    Scenario(
        "claude",
        "tool-use",
        "the model calls Bash (allowed), the CLI runs it and sends the output back",
        _script(*_tool_then("echo hello-from-tool", "The command printed hello-from-tool.")),
        _drive_with("Run echo hello-from-tool."),
        _all(
            _ok(),
            _text("The command printed hello-from-tool."),
            _tool_result_has("hello-from-tool"),
        ),
        options={
            "model": CLAUDE_MODEL,
            "extra_args": ("--allowedTools", "Bash"),
            "kill_grace": 2.0,
        },
    ),
    Scenario(
        "claude",
        "partial-messages",
        "--include-partial-messages: the raw stream events as stream_event lines",
        _script(_say("Streaming, one delta at a time.")),
        _drive_with("Stream a sentence."),
        _all(_ok(), _stdout('"type":"stream_event"'), _stdout('"text_delta"')),
        options={"model": CLAUDE_MODEL, "extra_args": ("--include-partial-messages",)},
    ),
    Scenario(
        "claude",
        "thinking",
        "a thinking block (with signature) before the text answer",
        _script(
            _say("Short answer: 42.", output_tokens=48, reasoning="The user wants a short answer.")
        ),
        _drive_with("Think, then answer."),
        _all(_ok(), _text("Short answer: 42."), _stdout('"type":"thinking"')),
        options={"model": CLAUDE_MODEL, "extra_args": ("--max-thinking-tokens", "4096")},
    ),
    Scenario(
        "claude",
        "max-turns",
        "--max-turns 1 and a tool call: the tool runs, then the turn limit ends the run",
        _script(_tool_call("echo over-the-limit")),
        _drive_with("Run echo over-the-limit."),
        _all(_failed("max_turns"), _stdout("error_max_turns")),
        options={
            "model": CLAUDE_MODEL,
            "extra_args": ("--max-turns", "1", "--allowedTools", "Bash"),
        },
    ),
    Scenario(
        "claude",
        "auth-401",
        "the API answers 401 authentication_error",
        _script(*[ApiError(401, "invalid x-api-key", kind="authentication_error")] * 2),
        _drive_with("Say hello."),
        _all(_failed("auth", "401"), _stdout('"api_error_status":401')),
        options={"model": CLAUDE_MODEL},
    ),
    Scenario(
        "claude",
        "overloaded-529",
        "the API answers 529 overloaded_error (after one retry)",
        _script(*[ApiError(529, "Overloaded", kind="overloaded_error")] * 2),
        _drive_with("Say hello."),
        _all(_failed("overloaded", "529"), _stdout('"subtype":"api_retry"')),
        options={"model": CLAUDE_MODEL},
    ),
    Scenario(
        "claude",
        "permission-denied",
        "the model calls Bash to write a file without permission; the CLI denies it, the turn succeeds",
        _script(*_tool_then("touch parity-denied.txt", "I was not allowed to create the file.")),
        _drive_with("Create parity-denied.txt."),
        _all(
            _ok(),
            _text("I was not allowed to create the file."),
            _denied,
            _stdout('"permission_denials":[{'),
        ),
        options={"model": CLAUDE_MODEL, "extra_args": ("--permission-mode", "default")},
    ),
    Scenario(
        "claude",
        "session-two-turns",
        "one stream-json session process, two user messages on stdin, two results",
        _script(*_by_user_turn("I will remember: parity.", "The word was parity.")),
        _claude_session,
        _all(
            _ok("turn 1"),
            _ok("turn 2"),
            _text("I will remember: parity.", "turn 1"),
            _text("The word was parity.", "turn 2"),
        ),
        options={"model": CLAUDE_MODEL},
    ),
    Scenario(
        "claude",
        "resume",
        "a run, then drive(resume=<its session id>) (--resume=<id>): same session id, "
        "the earlier turn sent again",
        _script(*_by_user_turn("I will remember: parity.", "The word was parity.")),
        _claude_resume,
        _all(_resumed(same_id=True), _text("The word was parity.")),
        options={"model": CLAUDE_MODEL},
    ),
    Scenario(
        "claude",
        "fork",
        "a run, then drive(resume=<its id>, fork=True) (--resume=<id> --fork-session): "
        "a new session id with the history (a stream-json session forked the same way "
        "follows it in the suite)",
        _script(
            *_by_user_turn("I will remember: parity.", "The word was parity."),
            _say("The word was parity.", input_tokens=200, output_tokens=12),  # the forked session
        ),
        _claude_fork,
        _all(_resumed(same_id=False), _text("The word was parity."), _forked_twice),
        options={"model": CLAUDE_MODEL},
        shipped=1,
    ),
    Scenario(
        "claude",
        "no-credentials",
        "no API key at all: claude answers 'Not logged in' without calling the API",
        _script(),
        _drive_with("Say hello."),
        _all(_code("authentication_failed"), _stdout('"Not logged in')),
        options={"model": CLAUDE_MODEL},
        env_without=("ANTHROPIC_API_KEY",),
    ),
    Scenario(
        "claude",
        "connection-refused",
        "the API address refuses connections (after one retry)",
        _script(),
        _drive_with("Say hello."),
        _code("connection_failed"),
        options={"model": CLAUDE_MODEL},
        api_down=True,
    ),
    Scenario(
        "claude",
        "unknown-resume",
        "drive(resume=<an id no session has>): no init, one error_during_execution result",
        _script(),
        _claude_unknown_resume,
        _all(_code("error_during_execution"), _stdout("No conversation found")),
        options={"model": CLAUDE_MODEL},
    ),
    Scenario(
        "claude",
        "max-budget",
        "--max-budget-usd below one call: the call is made, then the budget stops the run",
        _script(_tool_call("echo over-budget")),
        _drive_with("Run echo over-budget."),
        _all(_code("error_max_budget_usd"), _charged_tokens()),
        options={
            "model": CLAUDE_MODEL,
            "extra_args": ("--max-budget-usd", "0.000001", "--allowedTools", "Bash"),
        },
    ),
    Scenario(
        "claude",
        "dash-prompt",
        "a prompt that starts with '-' is a prompt, not an option",
        _script(_say("It is a prompt.")),
        _drive_with("--help is what I need"),
        _all(_ok(), _text("It is a prompt.")),
        options={"model": CLAUDE_MODEL},
    ),
    Scenario(
        "claude",
        "json-schema",
        "--json-schema: the answer is the value the schema asks for, on the result as "
        "structured_output",
        _script(_structured_answer()),
        _drive_with("What is six times seven?"),
        _all(_ok(), _structured({"answer": 42}), _stdout('"structured_output":{')),
        options={"model": CLAUDE_MODEL, "extra_args": ("--json-schema", _ANSWER_SCHEMA)},
    ),
    Scenario(
        "claude",
        "timeout",
        "the model runs a command that outlives the cognition's timeout: the live CLI and "
        "the command it started are stopped, the turn is a timeout",
        # not a bare ``sleep``, which claude's Bash tool refuses to wait for
        _script(_tool_call(f"python3 -c 'import time; time.sleep(120)' {_TIMEOUT_MARKER}")),
        _drive_with("Run a slow command."),
        _all(_code("timeout"), _stdout(_TIMEOUT_MARKER), _nothing_left_running(_TIMEOUT_MARKER)),
        options={
            "model": CLAUDE_MODEL,
            "extra_args": ("--allowedTools", "Bash"),
            "timeout": 8.0,
            "kill_grace": 1.0,
        },
        replay=False,
    ),
    Scenario(
        "claude",
        "inherited-env",
        "env=None, model=None, the executable found through PATH: the CLI runs on the "
        "process environment, with the model ANTHROPIC_MODEL names",
        _script(_say("Hello from the parity mock.")),
        _drive_with("Say hello."),
        _all(_ok(), _text("Hello from the parity mock."), _model_of_its_own("claude", _ENV_MODEL)),
        options={"model": None},
        env_extra=(("ANTHROPIC_MODEL", _ENV_MODEL),),
        inherit_env=True,
    ),
    Scenario(
        "claude",
        "default-model",
        "model=None and no model in the environment: the CLI asks for its own default, "
        "whose request carries a system-role message among the turns",
        _script(_say("Hello from the parity mock.")),
        _drive_with("Say hello."),
        _all(_ok(), _text("Hello from the parity mock."), _model_of_its_own("claude")),
        options={"model": None},
    ),
)


# ------------------------------------------------------------------- codex


def _answer(
    text: str,
    *,
    input_tokens: int = 1200,
    cached_tokens: int = 0,
    output_tokens: int = 40,
    reasoning_tokens: int = 0,
    reasoning: str = "**Answering**",
    tool_calls: Sequence[ToolCall] = (),
) -> Turn:
    """A codex turn: a reasoning summary, then ``text`` (or the tool calls).

    The figures are the Responses API's: ``input_tokens`` counts the cached
    part too (the kit's Usage holds fresh and cached input apart).
    """
    usage = Usage(
        input_tokens=input_tokens - cached_tokens,
        cached_input_tokens=cached_tokens,
        output_tokens=output_tokens,
        reasoning_tokens=reasoning_tokens,
    )
    return Turn(text, tool_calls=tool_calls, usage=usage, reasoning=reasoning)


def _command_then(command: str, final: str) -> tuple[Turn, Turn]:
    """An ``exec_command`` call, then the answer once its output came back."""
    return (
        _answer(
            "",
            reasoning="**Running the command**",
            tool_calls=[ToolCall("call_parity_01", "exec_command", {"cmd": command})],
            input_tokens=1300,
            cached_tokens=640,
            output_tokens=25,
            reasoning_tokens=8,
        ),
        _answer(final, input_tokens=1400, cached_tokens=640, output_tokens=40),
    )


async def _codex_resume(make: Make, ctx: RunContext) -> list[Observation]:
    """A fresh turn; ``drive(resume=<thread>)`` (the shipped spawn); then a session
    continuing the same thread (``session(resume=, usage_so_far=)``)."""
    first = await make().drive(ctx, "Remember the word: parity.")
    again = await make().drive(
        ctx,
        "Which word did I ask you to remember?",
        resume=first.thread_id,
        usage_so_far=first.cumulative_usage,
    )
    async with make().session(
        ctx, resume=first.thread_id, usage_so_far=again.cumulative_usage
    ) as session:
        third = await session.turn("And once more?")
    return [
        ("turn 1", first),
        ("result", again),
        ("session turn", third),
        ("session.thread_id", session.thread_id),
        ("session.usage_total", session.usage_total),
        ("session.turns", session.turns),
    ]


def _codex_by_turn(*answers: str) -> list[Turn]:
    """The k-th turn of a thread answers ``answers[k-1]``; the prompt grows by 300 tokens a
    turn from 1800 (codex sends its environment context as a user message of its own)."""
    return [_answer(text, input_tokens=1500 + 300 * k) for k, text in enumerate(answers, 1)]


def _codex_resumed(ev: Evidence) -> list[str]:
    problems = _ok("turn 1")(ev) + _ok("result")(ev) + _ok("session turn")(ev)
    ids = [ev.value(label).session_id for label in ("turn 1", "result", "session turn")]
    if not ids[0] or len(set(ids)) != 1:
        problems.append(f"the thread id should stay the same, got {ids}")
    if not ev.stdout_has('"type":"thread.started"', 1):
        problems.append("the resumed turn announced no thread")
    calls = ev.messages
    if len(calls) < 2 or not any(
        m.role == "assistant" and "I will remember" in m.content for m in calls[1]
    ):
        problems.append("the resumed turn did not send the earlier answer to the model")
    return problems


_CODEX_PRICES = PriceTable({CODEX_MODEL: ModelPrice(input=1.25, output=10.0, cached_input=0.125)})

CODEX_SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "codex",
        "text-answer",
        "one prompt, a reasoning summary and a text answer",
        _script(_answer("Hello from the parity mock.", cached_tokens=256)),
        _drive_with("Say hello."),
        _all(_ok(), _text("Hello from the parity mock.")),
        options={
            "model": CODEX_MODEL,
            "pricing": _CODEX_PRICES,
            "timeout": 120.0,
            "limit": 1 << 20,
            "reconnect_window": 30.0,
        },
    ),
    Scenario(
        "codex",
        "command-execution",
        "the model calls exec_command; codex runs it in its workspace-write sandbox",
        # codex offers this model no tools, and runs exec_command when the model calls it
        # all the same: a call the script makes on purpose (verify=False says so).
        _script(
            *_command_then("echo hello-from-codex", "The command printed hello-from-codex."),
            verify=False,
        ),
        _drive_with("Run echo hello-from-codex."),
        _all(
            _ok(),
            _text("The command printed hello-from-codex."),
            _tool_result_has("hello-from-codex", "codex"),
            _stdout('"type":"command_execution"'),
        ),
        options={
            "model": CODEX_MODEL,
            "extra_args": ("--sandbox", "workspace-write", "-c", 'approval_policy="never"'),
            "kill_grace": 2.0,
        },
    ),
    Scenario(
        "codex",
        "http-400",
        "the API answers 400 invalid_request_error",
        _script(ApiError(400, "Unsupported parameter: 'parity'.", kind="invalid_request_error")),
        _drive_with("Say hello."),
        _all(_failed(), _stdout('"type":"turn.failed"')),
        options={"model": CODEX_MODEL},
    ),
    Scenario(
        "codex",
        "auth-401",
        "the API answers 401 invalid_api_key",
        _script(ApiError(401, "Incorrect API key provided.", kind="invalid_request_error")),
        _drive_with("Say hello."),
        _all(_failed("auth", "401"), _stdout('"type":"turn.failed"')),
        options={"model": CODEX_MODEL},
    ),
    Scenario(
        "codex",
        "stream-failure",
        "the response stream breaks off mid-way (no response.completed)",
        _script(BrokenStream(partial=[Delta(reasoning="**Starting**")])),
        _drive_with("Say hello."),
        _all(_failed(), _stdout('"type":"turn.failed"')),
        options={"model": CODEX_MODEL},
    ),
    Scenario(
        "codex",
        "error-item-warning",
        "a model codex has no metadata for: a warning error item, then a normal turn",
        _script(_answer("Answered despite the warning.")),
        _drive_with("Say hello."),
        _all(_ok(), _text("Answered despite the warning."), _stdout('"type":"error"')),
        options={"model": CODEX_UNKNOWN_MODEL},
    ),
    Scenario(
        "codex",
        "resume",
        "a fresh exec, then drive(resume=<thread id>) (exec ... resume <thread id>): same "
        "thread, usage accumulates, the resumed turn is charged only its own tokens (a "
        "session continuing the thread follows it in the suite)",
        _script(
            *_codex_by_turn("I will remember: parity.", "The word was parity.", "Still parity.")
        ),
        _codex_resume,
        _all(_codex_resumed, _text("The word was parity."), _text("Still parity.", "session turn")),
        options={"model": CODEX_MODEL},
        shipped=1,
    ),
    Scenario(
        "codex",
        "unknown-resume",
        "drive(resume=<a thread id no session has>): codex refuses before any turn",
        _script(),
        _codex_unknown_resume,
        _failed(),
        options={"model": CODEX_MODEL},
    ),
    Scenario(
        "codex",
        "no-git-repo",
        "without --skip-git-repo-check in a directory that is not a git repository",
        _script(),
        _drive_with("Say hello."),
        _failed("git", "trusted"),
        options={"model": CODEX_MODEL},
        git_check=True,
    ),
    Scenario(
        "codex",
        "dash-prompt",
        "a prompt that starts with '-' is a prompt, not an option",
        _script(_answer("It is a prompt.")),
        _drive_with("--help is what I need"),
        _all(_ok(), _text("It is a prompt.")),
        options={"model": CODEX_MODEL},
    ),
    Scenario(
        "codex",
        "connection-refused",
        "the API address refuses connections: codex reconnects with no end of its own, "
        "the cognition's reconnect_window ends the turn as connection_failed",
        _script(),
        _drive_with("Say hello."),
        _all(_code("connection_failed"), _stdout("Reconnecting")),
        options={"model": CODEX_MODEL, "reconnect_window": 3.0},
        api_down=True,
        replay=False,
    ),
    Scenario(
        "codex",
        "inherited-env",
        "env=None, model=None, the executable found through PATH: the CLI runs on the "
        "process environment with its own default model",
        _script(_answer("Hello from the parity mock.")),
        _drive_with("Say hello."),
        _all(_ok(), _text("Hello from the parity mock."), _model_of_its_own("codex")),
        options={"model": None},
        inherit_env=True,
    ),
)


# --------------------------------------------------------------------- MCP

_FORECAST = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


def _weather(*, expected_calls: int | None = None) -> Callable[[], FakeMcpServer]:
    """A fresh strict MCP double per run: one tool, ``forecast``, answering a mapping."""

    def build() -> FakeMcpServer:
        tool = McpTool(
            "forecast",
            answer=lambda arguments: {"city": arguments["city"], "temp": 21},
            description="The forecast for a city.",
            schema=_FORECAST,
            expected_calls=expected_calls,
        )
        return FakeMcpServer([tool], name="weather")

    return build


def _mcp_calls(*expected: Mapping[str, Any]) -> Check:
    """The MCP double's ``forecast`` was called with exactly ``expected``, in order."""

    def check(ev: Evidence) -> list[str]:
        got = ev.mcp.calls_to("forecast") if ev.mcp is not None else None
        return [] if got == list(expected) else [f"forecast calls {got}, expected {list(expected)}"]

    return check


def _claude_mcp_call(tool: str = "forecast") -> tuple[Turn, Turn]:
    call = mcp_tool_call("weather", tool, {"city": "Oslo"}, cli="claude", id="toolu_parity_mcp")
    return (
        Turn("I will check the forecast.", tool_calls=[call], usage=Usage(120, output_tokens=30)),
        _say("It is 21 degrees in Oslo.", input_tokens=180, cache_read_input_tokens=100),
    )


def _codex_mcp_call(tool: str = "forecast") -> tuple[Turn, Turn]:
    call = mcp_tool_call("weather", tool, {"city": "Oslo"}, cli="codex", id="call_parity_mcp")
    return (
        _answer("", reasoning="**Checking the forecast**", tool_calls=[call], output_tokens=25),
        _answer("It is 21 degrees in Oslo.", input_tokens=1400, cached_tokens=640),
    )


_NOTES_SERVER = StdioServer(sys.executable, (str(Path(__file__).with_name("mcp_notes_server.py")),))
"""A user-style server (the official SDK, over stdio) the CLI starts itself. Its argv names
this checkout's interpreter and path, so its scenarios ship no recording (``replay=False``)."""
_NOTE = {"title": "groceries", "text": "milk, bread"}


def _claude_mcp_denied(ev: Evidence) -> list[str]:
    names = [d.tool_name for d in ev.value("result").permission_denials]
    return [] if names == ["mcp__weather__forecast"] else [f"permission_denials: {names}"]


MCP_SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "claude",
        "mcp-tool-call",
        "the model calls a tool of an MCP server (a FakeMcpServer on loopback): claude "
        "calls it over streamable HTTP and sends its answer back",
        _script(*_claude_mcp_call()),
        _drive_with("What is the weather in Oslo?"),
        _all(
            _ok(),
            _text("It is 21 degrees in Oslo."),
            _mcp_calls({"city": "Oslo"}),
            _tool_result_has('"temp":21'),
            _stdout('"mcp_servers":[{"name":"weather","status":"connected"'),
        ),
        options={"model": CLAUDE_MODEL},
        mcp=_weather(expected_calls=1),
    ),
    Scenario(
        "claude",
        "mcp-server-down",
        "the configured MCP server refuses connections: claude reports it failed on "
        "system/init and runs on (exit 0); the cognition fails the turn",
        _script(_say("I answered without the weather tools.")),
        _drive_with("What is the weather in Oslo?"),
        _all(_code("mcp_server_failed"), _stdout('"name":"weather","status":"failed"')),
        options={"model": CLAUDE_MODEL},
        mcp="down",
    ),
    Scenario(
        "claude",
        "mcp-denied",
        "the MCP tool is not permitted: claude refuses the call and runs on; the double's "
        "expected call never comes",
        _script(*_claude_mcp_call()),
        _drive_with("What is the weather in Oslo?"),
        _all(_ok(), _claude_mcp_denied, _mcp_calls(), _stdout('"subtype":"permission_denied"')),
        options={"model": CLAUDE_MODEL},
        mcp=_weather(expected_calls=1),
        mcp_allowed=False,
        expect_violations=("expectation_unmet",),
    ),
    Scenario(
        "claude",
        "mcp-undeclared-tool",
        "the model calls a tool the MCP server does not have: the scripted model reports "
        "a call to a tool the request never offered",
        _script(*_claude_mcp_call("delete_city")),
        _drive_with("Delete Oslo."),
        _all(_ok(), _mcp_calls()),
        options={"model": CLAUDE_MODEL},
        mcp=_weather(),
        expect_violations=("unoffered_tool",),
    ),
    Scenario(
        "claude",
        "mcp-stdio-launcher",
        "the FakeMcpServer given as a command (its stdio launcher), which claude starts",
        _script(*_claude_mcp_call()),
        _drive_with("What is the weather in Oslo?"),
        _all(_ok(), _text("It is 21 degrees in Oslo."), _mcp_calls({"city": "Oslo"})),
        options={"model": CLAUDE_MODEL},
        mcp=_weather(expected_calls=1),
        mcp_stdio=True,
        replay=False,
    ),
    Scenario(
        "codex",
        "mcp-stdio-launcher",
        "the FakeMcpServer given as a command (its stdio launcher), which codex starts",
        _script(*_codex_mcp_call()),
        _drive_with("What is the weather in Oslo?"),
        _all(_ok(), _text("It is 21 degrees in Oslo."), _mcp_calls({"city": "Oslo"})),
        options={"model": CODEX_MCP_MODEL},
        mcp=_weather(expected_calls=1),
        mcp_stdio=True,
        replay=False,
    ),
    Scenario(
        "claude",
        "mcp-sdk-server",
        "the model calls a tool of a user's MCP server written with the official SDK, "
        "which claude starts over stdio",
        _script(
            Turn(
                "I will store the note.",
                tool_calls=[mcp_tool_call("notes", "add_note", _NOTE, cli="claude", id="toolu_n")],
                usage=Usage(120, output_tokens=30),
            ),
            _say("The note is stored.", input_tokens=180),
        ),
        _drive_with("Note down the groceries."),
        _all(
            _ok(),
            _text("The note is stored."),
            _tool_result_has("stored 'groceries' (11 characters)"),
            _stdout('"name":"notes","status":"connected"'),
        ),
        options={"model": CLAUDE_MODEL},
        mcp=_NOTES_SERVER,
        replay=False,
    ),
    Scenario(
        "codex",
        "mcp-sdk-server",
        "the model calls a tool of a user's MCP server written with the official SDK, "
        "which codex starts over stdio",
        _script(
            _answer(
                "",
                tool_calls=[mcp_tool_call("notes", "add_note", _NOTE, cli="codex", id="call_n")],
            ),
            _answer("The note is stored.", input_tokens=1400),
        ),
        _drive_with("Note down the groceries."),
        _all(
            _ok(),
            _text("The note is stored."),
            _tool_result_has("stored 'groceries' (11 characters)"),
            _stdout('"server":"notes"'),
        ),
        options={"model": CODEX_MCP_MODEL},
        mcp=_NOTES_SERVER,
        replay=False,
    ),
    Scenario(
        "codex",
        "mcp-tool-call",
        "the model calls a tool of an MCP server (a FakeMcpServer on loopback), named by "
        "its namespace: codex calls it over streamable HTTP and sends its answer back",
        _script(*_codex_mcp_call()),
        _drive_with("What is the weather in Oslo?"),
        _all(
            _ok(),
            _text("It is 21 degrees in Oslo."),
            _mcp_calls({"city": "Oslo"}),
            _tool_result_has('"temp":21'),
            _stdout('"type":"mcp_tool_call"'),
        ),
        options={"model": CODEX_MCP_MODEL},
        mcp=_weather(expected_calls=1),
    ),
    Scenario(
        "codex",
        "mcp-server-down",
        "the required MCP server refuses connections: codex fails before the turn",
        _script(),
        _drive_with("What is the weather in Oslo?"),
        _code("mcp_server_failed"),
        options={"model": CODEX_MCP_MODEL},
        mcp="down",
    ),
    Scenario(
        "codex",
        "mcp-denied",
        "the MCP tool is not approved: codex exec refuses the call and runs on; the "
        "double's expected call never comes",
        _script(*_codex_mcp_call()),
        _drive_with("What is the weather in Oslo?"),
        _all(_ok(), _mcp_calls(), _stdout("requires approval")),
        options={"model": CODEX_MCP_MODEL},
        mcp=_weather(expected_calls=1),
        mcp_allowed=False,
        expect_violations=("expectation_unmet",),
    ),
    Scenario(
        "codex",
        "mcp-undeclared-tool",
        "the model calls a tool the MCP server does not have: the scripted model reports "
        "a call to a tool the request never offered",
        _script(*_codex_mcp_call("delete_city")),
        _drive_with("Delete Oslo."),
        _all(_ok(), _mcp_calls()),
        options={"model": CODEX_MCP_MODEL},
        mcp=_weather(),
        expect_violations=("unoffered_tool",),
    ),
)

SCENARIOS: tuple[Scenario, ...] = CLAUDE_SCENARIOS + CODEX_SCENARIOS + MCP_SCENARIOS


def by_name(keys: Sequence[str]) -> tuple[Scenario, ...]:
    """The scenarios named ``cli/name`` (or a bare ``cli`` for all of one CLI), in suite order."""
    known = {s.key: s for s in SCENARIOS}
    chosen: list[Scenario] = []
    for key in keys:
        if key in ("claude", "codex"):
            chosen += [s for s in SCENARIOS if s.cli == key and s not in chosen]
        elif key in known:
            if known[key] not in chosen:
                chosen.append(known[key])
        else:
            raise KeyError(f"no scenario {key!r}; known: {', '.join(known)}")
    return tuple(chosen)
