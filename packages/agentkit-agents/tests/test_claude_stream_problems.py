"""Streams nobody recorded: truncation, noise, corruption, stderr mid-run, pricing gaps."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from agentkit.agents.cognition import ClaudeCliCognition, SkippedLine
from agentkit.agents.cognition.claude import ClaudeOther, ClaudeSystem, ClaudeUser
from agentkit.core.middleware import BudgetExceeded
from agentkit.core.ports import ProcessPort
from agentkit.core.pricing import ModelPrice, PriceTable
from agentkit.core.runtime import RunContext
from agentkit.core.types import Budget, Usage
from agentkit.fakes.cli import CliRun, CliStderr, FakeClaudeCli
from tests.support.cli import ForwardingSpawn, claude_result, lingering

SID = "5e55-10n"
MODEL = "claude-test-1"
INIT: dict[str, Any] = {"type": "system", "subtype": "init", "session_id": SID, "model": MODEL}


def _assistant(text: str) -> dict[str, Any]:
    return {
        "type": "assistant",
        "session_id": SID,
        "message": {"id": "msg_1", "model": MODEL, "content": [{"type": "text", "text": text}]},
    }


def _result(text: str = "done", **extra: Any) -> dict[str, Any]:
    usage = {
        "input_tokens": 100,
        "cache_read_input_tokens": 50,
        "cache_creation_input_tokens": 10,
        "output_tokens": 20,
        "output_tokens_details": {"thinking_tokens": 5},
    }
    fields = {"result": text, "session_id": SID, "stop_reason": "end_turn", "usage": usage}
    return claude_result(**{**fields, **extra})


async def _drive(run: CliRun, **kw: Any) -> tuple[Any, RunContext, FakeClaudeCli]:
    cli = FakeClaudeCli([run])
    ctx = RunContext()
    options: dict[str, Any] = {"timeout": 5, "kill_grace": 5}  # a double exits on its own
    options.update(kw)
    result = await ClaudeCliCognition(cli, **options).drive(ctx, "go")
    return result, ctx, cli


async def test_usage_maps_the_anthropic_exclusive_counts_straight_across() -> None:
    result, ctx, _ = await _drive(CliRun.of([INIT, _assistant("done"), _result()]))
    assert result.error is None
    assert result.usage == Usage(100, 50, 10, 20, 5)
    assert result.usage.prompt_tokens == 160
    assert ctx.ledger.cost_usd == pytest.approx(0.01)


async def test_a_truncated_last_line_is_an_incomplete_run() -> None:
    run = CliRun.of([INIT, _assistant("partial answer"), '{"type":"result","subtype":"succ'])
    result, ctx, _ = await _drive(run)
    assert result.error is not None
    assert result.error.code == "incomplete_run"
    assert "truncated" in result.error.message
    assert result.text == "partial answer"
    assert result.skipped == (SkippedLine(3, "truncated", '{"type":"result","subtype":"succ'),)
    assert result.error.details["skipped"] == result.skipped
    assert ctx.ledger.calls == 1  # no result: the started run is charged once, at zero
    assert (ctx.ledger.usage, ctx.ledger.cost_usd) == (Usage(), 0.0)


async def test_a_truncated_last_line_with_a_failing_exit_is_cli_exit() -> None:
    run = CliRun.of([INIT, '{"type":"assis'], stderr=b"Killed\n", returncode=137)
    result, _, _ = await _drive(run)
    assert result.error is not None
    assert result.error.code == "cli_exit_137"
    assert result.error.stderr == "Killed\n"


async def test_no_result_and_exit_zero_is_incomplete() -> None:
    result, _, _ = await _drive(CliRun.of([INIT, _assistant("hm")]))
    assert result.error is not None
    assert result.error.code == "incomplete_run"
    assert result.error.returncode == 0


async def test_blank_and_non_json_lines_are_skipped_and_kept() -> None:
    run = CliRun.of(
        [
            "\n",
            "[SandboxDebug] seccomp filter installed\n",
            INIT,
            "   \n",
            _assistant("ok"),
            "warning: something\n",
            _result("ok"),
        ]
    )
    result, _, cli = await _drive(run)
    assert result.error is None
    assert result.text == "ok"
    assert result.skipped == (
        SkippedLine(1, "blank", ""),
        SkippedLine(2, "not_json", "[SandboxDebug] seccomp filter installed"),
        SkippedLine(4, "blank", ""),
        SkippedLine(6, "not_json", "warning: something"),
    )
    assert not any(s.lost_data for s in result.skipped)
    assert cli.invocations[0].lines_read == 7


async def test_a_corrupt_json_line_keeps_the_answer_but_flags_the_run() -> None:
    run = CliRun.of([INIT, '{"type":"user", oops}\n', "[1, 2]\n", _result("answer")])
    result, ctx, _ = await _drive(run)
    assert result.text == "answer"
    assert result.error is not None
    assert result.error.code == "invalid_json"
    assert [s.reason for s in result.skipped] == ["invalid_json", "not_json"]
    assert ctx.ledger.calls == 1  # the turn happened and was paid for


async def test_objects_without_a_type_are_invalid_events_as_for_codex() -> None:
    # The discriminator is the one field every event has: an object without a
    # string ``type`` is not an event of any version (an unknown type string is
    # kept; see test_unknown_types_and_subtypes_are_kept_not_errors).
    run = CliRun.of([INIT, "{}\n", '{"type": 7}\n', _result()])
    result, _, _ = await _drive(run)
    assert result.error is not None
    assert result.error.code == "invalid_event"
    assert [p.line_no for p in result.problems] == [2, 3]
    assert result.text == "done"
    assert not [e for e in result.events if isinstance(e, ClaudeOther)]


async def test_an_event_with_bad_field_types_is_invalid_event() -> None:
    bad = _result()
    bad["usage"] = {"input_tokens": "a lot"}
    run = CliRun.of([INIT, bad])
    result, _, _ = await _drive(run)
    assert result.error is not None
    assert result.error.code == "incomplete_run"  # the only result was unreadable
    assert "input_tokens" in result.error.details["problems"][0].reason
    assert result.problems[0].line_no == 2


async def test_interleaved_stderr_survives_to_the_error() -> None:
    run = CliRun.of(
        [
            INIT,
            CliStderr(b"warning: MCP server 'x' failed to start\n"),
            _assistant("working"),
            CliStderr(b"fatal: lost connection to the tool runner\n"),
            '{"type":"assistant","mess',
        ],
        stderr=b"exiting\n",
        returncode=1,
    )
    result, _, _ = await _drive(run)
    assert result.error is not None
    assert result.error.code == "cli_exit_1"
    assert result.error.stderr == (
        "warning: MCP server 'x' failed to start\n"
        "fatal: lost connection to the tool runner\n"
        "exiting\n"
    )
    assert "lost connection" in str(result.error)
    assert result.stderr == result.error.stderr


async def test_a_line_over_the_limit_is_line_too_long_and_reading_goes_on() -> None:
    huge = _assistant("x" * 5000)
    run = CliRun.of([INIT, huge, _result("after the big line")])
    result, _, _ = await _drive(run, limit=1024)
    assert result.text == "after the big line"
    assert result.error is not None
    assert result.error.code == "line_too_long"
    assert [s.reason for s in result.skipped] == ["too_long"]


async def test_the_default_limit_takes_multi_megabyte_lines() -> None:
    big = _assistant("y" * (3 * 1024 * 1024))
    result, _, _ = await _drive(CliRun.of([INIT, big, _result("fine")]))
    assert result.error is None
    assert result.skipped == ()


async def test_unknown_types_and_subtypes_are_kept_not_errors() -> None:
    run = CliRun.of(
        [
            {"type": "system", "subtype": "hook_response", "session_id": SID},
            INIT,
            {"type": "rate_limit_event", "rate_limit_info": {"status": "allowed"}},
            {"type": "stream_event", "event": {"type": "message_start"}},
            {"type": "brand_new_frame", "x": 1},
            _assistant("fine"),
            _result("fine"),
            {"type": "system", "subtype": "session_state_changed", "state": "idle"},
        ]
    )
    result, _, _ = await _drive(run)
    assert result.error is None
    assert result.text == "fine"
    others = [e.type for e in result.events if isinstance(e, ClaudeOther)]
    assert others == ["rate_limit_event", "stream_event", "brand_new_frame"]
    subtypes = [e.subtype for e in result.events if isinstance(e, ClaudeSystem)]
    assert subtypes == ["hook_response", "session_state_changed"]


async def test_success_with_a_non_zero_exit_is_cli_exit() -> None:
    result, _, _ = await _drive(CliRun.of([INIT, _result()], returncode=2))
    assert result.error is not None
    assert result.error.code == "cli_exit_2"
    assert result.text == "done"


async def test_a_successful_run_whose_child_lingers_after_eof_is_not_a_failure() -> None:
    # Stopping a child that finished its output but did not exit is cleanup.
    spawn = ForwardingSpawn(lingering(FakeClaudeCli([CliRun.of([INIT, _result()])])))
    cognition = ClaudeCliCognition(spawn, timeout=5, kill_grace=0.05)
    result = await asyncio.wait_for(cognition.drive(RunContext(), "go"), 10)
    assert result.returncode == -15
    assert result.error is None
    assert result.text == "done"


def _bare_api_error(text: str, **extra: Any) -> dict[str, Any]:
    """An is_error result naming no error kind: only the text (older CLIs)."""
    bad = _result(text, is_error=True, **extra)
    del bad["total_cost_usd"]
    return bad


@pytest.mark.parametrize(
    ("text", "extra", "code"),
    [
        ("Claude AI usage limit reached|1749924000", {}, "rate_limit"),
        ("You\u2019ve hit your limit \u00b7 resets 3pm", {}, "rate_limit"),
        ("You've hit your session limit \u00b7 resets 3pm", {}, "rate_limit"),
        ("Not logged in \u00b7 Please run /login", {}, "authentication_failed"),
        ("Invalid API key \u00b7 Please run /login", {}, "authentication_failed"),
        ("OAuth token has expired", {}, "authentication_failed"),
        ("Credit balance is too low", {}, "billing_error"),
        ("API Error: something", {"api_error_status": 429}, "rate_limit"),
        ("API Error: something", {"api_error_status": 401}, "authentication_failed"),
        ("API Error: something", {"terminal_reason": "api_error"}, "api_error"),
    ],
)
async def test_an_is_error_result_without_a_kind_is_recognised_from_status_and_text(
    text: str, extra: dict[str, Any], code: str
) -> None:
    result, _, _ = await _drive(CliRun.of([INIT, _bare_api_error(text, **extra)], returncode=1))
    assert result.error is not None
    assert result.error.code == code
    assert result.error.message == text


async def test_a_rejected_rate_limit_event_names_the_failure_rate_limit() -> None:
    rejected = {
        "type": "rate_limit_event",
        "rate_limit_info": {"status": "rejected", "rateLimitType": "five_hour"},
        "session_id": SID,
    }
    run = CliRun.of([INIT, rejected, _bare_api_error("API Error")], returncode=1)
    result, _, _ = await _drive(run)
    assert result.error is not None
    assert result.error.code == "rate_limit"
    allowed = {**rejected, "rate_limit_info": {"status": "allowed"}}
    run = CliRun.of([INIT, allowed, _bare_api_error("API Error")], returncode=1)
    result, _, _ = await _drive(run)
    assert result.error is not None
    assert result.error.code == "api_error"


async def test_a_permission_denial_is_not_an_error() -> None:
    # -p mode: the denied tool's result is is_error, the run still succeeds (exit 0).
    tool_use = {
        "type": "assistant",
        "session_id": SID,
        "message": {
            "id": "msg_1",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {}}],
        },
    }
    denied = {
        "type": "system",
        "subtype": "permission_denied",
        "tool_name": "Bash",
        "tool_use_id": "toolu_1",
        "message": "denied",
        "session_id": SID,
    }
    tool_result = {
        "type": "user",
        "session_id": SID,
        "message": {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True, "content": "no"}
            ],
        },
    }
    done = _result(
        "I was not allowed to run it.",
        permission_denials=[{"tool_name": "Bash", "tool_use_id": "toolu_1", "tool_input": {}}],
    )
    result, ctx, _ = await _drive(CliRun.of([INIT, tool_use, denied, tool_result, done]))
    assert result.error is None
    assert result.text == "I was not allowed to run it."
    assert [e.subtype for e in result.events if isinstance(e, ClaudeSystem)] == [
        "permission_denied"
    ]
    users = [e for e in result.events if isinstance(e, ClaudeUser)]
    assert [r.is_error for r in users[0].tool_results] == [True]
    assert ctx.ledger.calls == 1


async def test_an_error_subtype_without_errors_uses_the_subtype() -> None:
    bad = _result()
    del bad["result"]
    bad.update(subtype="error_max_budget_usd", is_error=True)
    result, _, _ = await _drive(CliRun.of([INIT, bad], returncode=1))
    assert result.error is not None
    assert result.error.code == "error_max_budget_usd"
    assert result.error.message == "error_max_budget_usd"


async def test_without_a_cli_cost_the_price_table_prices_the_turn() -> None:
    no_cost = _result()
    del no_cost["total_cost_usd"]
    pricing = PriceTable(
        {MODEL: ModelPrice(input=3.0, output=15.0, cached_input=0.3, cache_write=3.75)}
    )
    result, ctx, _ = await _drive(CliRun.of([INIT, no_cost]), pricing=pricing)
    expected = (100 * 3.0 + 50 * 0.3 + 10 * 3.75 + 20 * 15.0) / 1_000_000
    assert result.error is None
    assert result.cost_usd == pytest.approx(expected)
    assert ctx.ledger.cost_usd == pytest.approx(expected)


async def test_the_cli_cost_wins_over_the_price_table() -> None:
    pricing = PriceTable({MODEL: ModelPrice(input=1000.0, output=1000.0)})
    result, _, _ = await _drive(CliRun.of([INIT, _result()]), pricing=pricing)
    assert result.cost_usd == pytest.approx(0.01)


async def test_no_cost_and_no_price_table_is_unpriced() -> None:
    no_cost = _result()
    del no_cost["total_cost_usd"]
    result, ctx, _ = await _drive(CliRun.of([INIT, no_cost]))
    assert result.text == "done"
    assert result.error is not None
    assert result.error.code == "unpriced"
    assert ctx.ledger.calls == 1
    assert ctx.ledger.usage == result.usage  # the tokens are still counted


async def test_an_unlisted_model_is_unpriced_naming_it() -> None:
    no_cost = _result()
    del no_cost["total_cost_usd"]
    pricing = PriceTable({"other-model": ModelPrice(input=1.0, output=1.0)})
    result, _, _ = await _drive(CliRun.of([INIT, no_cost]), pricing=pricing)
    assert result.error is not None
    assert result.error.code == "unpriced"
    assert MODEL in result.error.message


@pytest.mark.agentkit(verify=False)  # never spawns the CLI on purpose
async def test_budget_is_checked_before_spawning() -> None:
    cli = FakeClaudeCli([CliRun.of([INIT, _result()])])
    ctx = RunContext(budget=Budget(max_cost_usd=0.0))
    with pytest.raises(BudgetExceeded):
        await ClaudeCliCognition(cli).drive(ctx, "go")
    assert cli.invocations == []


@pytest.mark.agentkit(verify=False)  # never spawns the CLI on purpose
async def test_an_already_cancelled_run_does_not_spawn() -> None:
    cli = FakeClaudeCli([CliRun.of([INIT, _result()])])
    ctx = RunContext()
    ctx.cancel.cancel("stop")
    result = await ClaudeCliCognition(cli).drive(ctx, "go")
    assert result.error is not None
    assert result.error.code == "cancelled"
    assert "stop" in result.error.message
    assert cli.invocations == []


async def test_a_missing_binary_is_spawn_failed() -> None:
    async def missing(program: str, *args: str, **kw: object) -> ProcessPort:
        raise FileNotFoundError(2, "No such file or directory", program)

    result = await ClaudeCliCognition(missing).drive(RunContext(), "go")
    assert result.error is not None
    assert result.error.code == "spawn_failed"
    assert "No such file" in result.error.message


async def test_two_results_in_one_run_are_two_charges() -> None:
    first = _result("one", total_cost_usd=0.01)
    second = _result("two", total_cost_usd=0.03)
    result, ctx, _ = await _drive(CliRun.of([INIT, first, INIT, second]))
    assert result.text == "two"
    assert ctx.ledger.calls == 2
    assert ctx.ledger.cost_usd == pytest.approx(0.03)  # 0.01 + (0.03 - 0.01), never 0.04
    assert result.cost_usd == pytest.approx(0.03)
