"""The same fault gives the same error code from both CLIs (the table in docs/cli/errors.md).

Each case builds one broken stream per CLI out of the same pieces -- the
CLI's opening events, its answer, its terminal event -- so the only thing
that differs between the two runs is the CLI. The regression cases of the
hardening issue (a number that overflows, a non-finite cost, a bad line
before and after the terminal event, with and without a final newline) are
here too, for both parsers.
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from agentkit.agents.cognition import (
    ClaudeCliCognition,
    CliError,
    CliResult,
    CodexCliCognition,
)
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import CliRun, FakeClaudeCli, FakeCodexCli, codex_turn
from tests.support.cli import claude_result

SID = "5e55-10n"
LIMIT = 16 * 1024
LONG = "{" + '"x":"' + "y" * (4 * LIMIT) + '"}\n'
Payload = Any


@dataclasses.dataclass(frozen=True)
class Cli:
    """One CLI's stream pieces and how to drive it."""

    name: str
    opening: tuple[Payload, ...]
    answer: tuple[Payload, ...]
    terminal: Payload
    drive: Callable[[CliRun, RunContext], Any]

    def stream(self, *middle: Payload, terminal: bool = True) -> list[Payload]:
        return [*self.opening, *middle, *self.answer, *([self.terminal] if terminal else [])]


def _claude_result(**extra: Any) -> dict[str, Any]:
    usage = {"input_tokens": 10, "output_tokens": 2}
    return claude_result(**{"result": "pong", "session_id": SID, "usage": usage, **extra})


async def _claude(run: CliRun, ctx: RunContext) -> CliResult[Any]:
    cognition = ClaudeCliCognition(FakeClaudeCli([run]), timeout=5, kill_grace=5, limit=LIMIT)
    return await cognition.drive(ctx, "ping")


async def _codex(run: CliRun, ctx: RunContext) -> CliResult[Any]:
    cognition = CodexCliCognition(FakeCodexCli([run]), timeout=5, kill_grace=5, limit=LIMIT)
    return await cognition.drive(ctx, "ping")


_CODEX = codex_turn(text="pong", usage=(10, 0, 2))
CLAUDE = Cli(
    "claude",
    ({"type": "system", "subtype": "init", "session_id": SID, "model": "m"},),
    (
        {
            "type": "assistant",
            "session_id": SID,
            "message": {"id": "1", "content": [{"type": "text", "text": "pong"}]},
        },
    ),
    _claude_result(),
    _claude,
)
CODEX = Cli("codex", _CODEX[:2], _CODEX[2:-1], _CODEX[-1], _codex)
BOTH = [CLAUDE, CODEX]


def _bad_usage(cli: Cli, usage: Any) -> Payload:
    if cli is CLAUDE:
        return _claude_result(usage=usage)
    return {"type": "turn.completed", "usage": usage}


def run(cli: Cli, payloads: Sequence[Payload], *, returncode: int = 0) -> CliResult[Any]:
    async def go() -> CliResult[Any]:
        return await asyncio.wait_for(
            cli.drive(CliRun.of(payloads, returncode=returncode), RunContext()), 10
        )

    return asyncio.run(go())


def code(result: CliResult[Any]) -> str | None:
    return result.error.code if result.error is not None else None


@pytest.fixture(params=BOTH, ids=lambda c: c.name)
def cli(request: pytest.FixtureRequest) -> Cli:
    value: Cli = request.param
    return value


# ------------------------------------------------------------------ the table


def test_a_clean_stream_is_ok(cli: Cli) -> None:
    result = run(cli, cli.stream())
    assert result.error is None
    assert result.text == "pong"


def test_an_over_limit_line_then_eof_without_terminal_is_incomplete_run(cli: Cli) -> None:
    result = run(cli, cli.stream(LONG, terminal=False))
    assert code(result) == "incomplete_run"
    assert [s.reason for s in result.skipped] == ["too_long"]
    assert result.error is not None
    assert result.error.details["lines"][0].reason == "too_long"


def test_an_over_limit_line_before_the_terminal_event_is_line_too_long(cli: Cli) -> None:
    result = run(cli, cli.stream(LONG))
    assert code(result) == "line_too_long"
    assert result.text == "pong"


def test_a_corrupt_line_before_the_terminal_event_is_invalid_json(cli: Cli) -> None:
    result = run(cli, cli.stream('{"type": "assistant",\n'))
    assert code(result) == "invalid_json"
    assert result.error is not None
    assert f"line {len(cli.opening) + 1}" in result.error.message


@pytest.mark.parametrize("ending", ["\n", ""], ids=["newline", "no-newline"])
def test_a_corrupt_line_after_the_terminal_event_is_invalid_json_either_way(
    cli: Cli, ending: str
) -> None:
    result = run(cli, [*cli.stream(), '{"type": "system",' + ending])
    assert code(result) == "invalid_json"
    assert result.text == "pong"  # the answer is kept, the turn is not clean


def test_a_truncated_last_line_without_terminal_is_incomplete_run(cli: Cli) -> None:
    result = run(cli, [*cli.stream(terminal=False), '{"type":"res'])
    assert code(result) == "incomplete_run"
    assert result.error is not None
    assert "truncated" in result.error.message


@pytest.mark.parametrize(("returncode", "expected"), [(0, "incomplete_run"), (1, "cli_exit_1")])
def test_no_terminal_event_is_incomplete_or_the_exit_code(
    cli: Cli, returncode: int, expected: str
) -> None:
    assert code(run(cli, cli.stream(terminal=False), returncode=returncode)) == expected


def test_a_terminal_success_with_a_non_zero_exit_is_cli_exit(cli: Cli) -> None:
    assert code(run(cli, cli.stream(), returncode=3)) == "cli_exit_3"


def test_a_killed_child_is_cli_signal(cli: Cli) -> None:
    assert code(run(cli, cli.stream(terminal=False), returncode=-9)) == "cli_signal_9"


@pytest.mark.parametrize("obj", ["{}\n", '{"type": 7}\n', '{"type": ""}\n'])
def test_an_object_without_a_string_type_is_invalid_event(cli: Cli, obj: str) -> None:
    result = run(cli, cli.stream(obj))
    assert code(result) == "invalid_event"
    assert result.problems[0].line_no == len(cli.opening) + 1


@pytest.mark.parametrize(
    "usage",
    [
        {"input_tokens": "12"},
        {"input_tokens": 1.5},
        {"input_tokens": True},
        {"output_tokens": -1},
        {"input_tokens": 10**400},
        [1],
    ],
    ids=["string", "float", "bool", "negative", "huge-int", "not-an-object"],
)
def test_an_unreadable_terminal_event_is_incomplete_run_with_the_problem(
    cli: Cli, usage: Any
) -> None:
    result = run(cli, [*cli.stream(terminal=False), _bad_usage(cli, usage)])
    assert code(result) == "incomplete_run"
    # The runner refuses an integer beyond 64 bits as a line; the fold refuses the rest.
    lines = [p.line_no for p in result.problems] + [s.line_no for s in result.skipped]
    assert lines == [len(cli.stream())]
    assert result.usage.total_tokens == 0


@pytest.mark.parametrize("where", ["envelope", "content"])
def test_a_wrongly_typed_text_field_is_an_event_problem(cli: Cli, where: str) -> None:
    if cli is CLAUDE and where == "envelope":
        bad: Payload = {"type": "system", "subtype": "init", "session_id": 5}
    elif cli is CLAUDE:
        bad = {"type": "assistant", "message": {"content": [{"type": "text", "text": 5}]}}
    elif where == "envelope":
        bad = {"type": "error", "message": 5}
    else:
        bad = {"type": "item.completed", "item": {"id": "i", "type": "agent_message", "text": 5}}
    result = run(cli, cli.stream(bad))
    assert code(result) == "invalid_event"
    assert "must be a string" in result.problems[0].reason


# ---------------------------------------------- numbers that do not fit


@pytest.mark.parametrize(
    "cost", ["1e400", "-1e400", "NaN", "Infinity", "1e308", str(10**400)], ids=str
)
def test_a_claude_cost_that_is_not_a_finite_bill_never_comes_back_ok(cost: str) -> None:
    line = (
        '{"type":"result","subtype":"success","is_error":false,"result":"pong",'
        f'"session_id":"{SID}","total_cost_usd":{cost}}}\n'
    )
    result = run(CLAUDE, [*CLAUDE.stream(terminal=False), line])
    assert result.error is not None
    assert result.error.code in ("incomplete_run", "invalid_json")
    assert math.isfinite(result.cost_usd)
    assert result.cost_usd == 0.0


def test_a_huge_cost_since_the_last_result_falls_back_to_the_total() -> None:
    result = run(
        CLAUDE,
        [
            *CLAUDE.stream(terminal=False),
            _claude_result(model_usage_since_last_result={"m": {"costUSD": 1e300}}),
        ],
    )
    assert result.error is None
    assert result.cost_usd == pytest.approx(0.01)


@pytest.mark.parametrize("text", ["1e400", str(10**400), "NaN"], ids=["inf", "huge-int", "nan"])
def test_a_codex_usage_number_that_does_not_fit_is_never_charged(text: str) -> None:
    line = f'{{"type":"turn.completed","usage":{{"input_tokens":{text}}}}}\n'
    result = run(CODEX, [*CODEX.stream(terminal=False), line])
    assert result.error is not None
    assert result.error.code in ("incomplete_run", "invalid_json")
    assert result.usage.total_tokens == 0


def test_deep_nesting_is_a_typed_outcome(cli: Cli) -> None:
    deep = '{"type":"x","a":' + "[" * 5000 + "]" * 5000 + "}\n"
    result = run(cli, cli.stream(deep))
    assert result.error is not None
    assert result.error.code in ("invalid_json", "invalid_event")


# ---------------------------------------------- the CLI's own verdicts


@pytest.mark.parametrize(
    ("status", "message", "expected"),
    [(401, "Invalid key", "authentication_failed"), (429, "slow down", "rate_limit")],
)
def test_an_http_status_is_the_same_error_from_both(
    status: int, message: str, expected: str
) -> None:
    claude = run(
        CLAUDE,
        [
            *CLAUDE.stream(terminal=False),
            _claude_result(is_error=True, result=message, api_error_status=status),
        ],
        returncode=1,
    )
    codex = run(
        CODEX,
        [
            *CODEX.opening,
            {"type": "turn.failed", "error": {"message": f"unexpected status {status}"}},
        ],
        returncode=1,
    )
    assert code(claude) == code(codex) == expected
    assert claude.http_status == codex.http_status == status
    assert claude.error is not None
    assert claude.error.kind == expected


# ---------------------------------------------- the bounded message


def test_str_of_an_error_is_bounded_and_the_full_stderr_stays_on_it(cli: Cli) -> None:
    stderr = b"Error: " + b"e" * 65536 + b"\n" + b"x" * 5_000_000 + b"\nthe end\n"
    result = asyncio.run(
        cli.drive(CliRun.of(cli.stream(), stderr=stderr, returncode=1), RunContext())
    )
    error = result.error
    assert error is not None
    assert error.code == "cli_exit_1"
    text = str(error)
    assert len(text) < 8 * 1024
    assert len(text.splitlines()[0]) < 1024
    assert text.rstrip().endswith("the end")
    assert len(error.stderr) >= len(result.stderr) > 0


def test_the_error_kind_is_the_typed_family() -> None:
    assert CliError("timeout").kind == "timeout"
    assert CliError.reported("cli_exit_2").kind == "cli_exit"
    assert CliError.reported("cli_signal_9").kind == "cli_signal"
    assert CliError.reported("error_max_turns").kind == "reported"
    assert CliError.reported("authentication_failed").kind == "authentication_failed"
