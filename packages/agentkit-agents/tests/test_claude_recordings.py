"""Every recorded claude 2.1.332 stream, replayed through FakeClaudeCli into the REAL cognition.

Each is one of the kit's own recordings (``tests/support/recorded/claude/``),
holding the spawn's exit code and stderr as well as its stdout, so a replay
is the whole spawn.
"""

from __future__ import annotations

import json

import pytest

from agentkit.agents.cognition import ClaudeCliCognition, CliError, CliResult
from agentkit.agents.cognition.claude import (
    ClaudeAssistant,
    ClaudeInit,
    ClaudeOther,
    ClaudeResult,
    ClaudeSystem,
    ClaudeUser,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from agentkit.agents.cognition.claude.events import ClaudeEvent, map_event
from agentkit.core.runtime import RunContext
from agentkit.core.types import Usage
from agentkit.fakes.cli import CliRun, FakeClaudeCli
from tests.support.cli import recording

MODEL = "claude-sonnet-4-5-20250929"


async def drive(
    run: CliRun | str, prompt: str = "Reply with: pong"
) -> tuple[CliResult[ClaudeEvent], RunContext, FakeClaudeCli]:
    """Drive the cognition over ``run`` (a str: the recording of that stem)."""
    cli = FakeClaudeCli([recording("claude", run).run if isinstance(run, str) else run])
    ctx = RunContext()
    result = await ClaudeCliCognition(cli, timeout=10).drive(ctx, prompt)
    assert cli.remaining == 0
    return result, ctx, cli


def error_of(result: CliResult[ClaudeEvent]) -> CliError:
    assert result.error is not None
    return result.error


def _of(events: tuple[ClaudeEvent, ...], kind: type[ClaudeEvent]) -> list[ClaudeEvent]:
    return [e for e in events if isinstance(e, kind)]


async def test_text_success() -> None:
    result, ctx, cli = await drive("claude-2.1.332-text-success")
    assert result.error is None
    assert result.ok
    assert result.text == "pong"
    assert result.stop_reason == "end_turn"
    assert result.session_id == "32be5245-e142-4653-ae6d-8b9a2e43874f"
    assert result.model == MODEL
    assert result.usage == Usage(input_tokens=20, cache_write_tokens=100, output_tokens=4)
    assert result.cost_usd == pytest.approx(0.000495)
    assert result.returncode == 0
    assert [type(e) for e in result.events] == [ClaudeInit, ClaudeAssistant, ClaudeResult]
    assert ctx.ledger.calls == 1
    assert ctx.ledger.usage == result.usage
    assert ctx.ledger.cost_usd == pytest.approx(0.000495)
    assert ctx.ledger.by_model == {MODEL: result.usage}
    assert cli.invocations[0].lines_read == 3


async def test_tool_use_is_charged_once_from_the_result_not_per_block() -> None:
    run = recording("claude", "claude-2.1.332-thinking-tool-use-success").run
    result, ctx, _ = await drive(run, "Run echo hello-from-tool")
    assert result.error is None
    assert result.text == "The command printed `hello-from-tool`."
    expected = Usage(
        input_tokens=38, cached_input_tokens=200, cache_write_tokens=250, output_tokens=72
    )
    assert result.usage == expected
    assert ctx.ledger.usage == expected
    assert ctx.ledger.calls == 1
    # The per-block assistant lines each repeat message-start usage: summing them
    # would NOT give the turn's figure (this is why the cognition never does).
    summed = 0
    for line in run.stdout.splitlines():
        obj = json.loads(line)
        if obj["type"] == "assistant":
            summed += obj["message"]["usage"]["output_tokens"]
    assert summed != expected.output_tokens
    assistants = _of(result.events, ClaudeAssistant)
    assert len(assistants) == 4
    first_message = [
        a
        for a in assistants
        if isinstance(a, ClaudeAssistant) and a.message_id == "msg_mock_tool_01"
    ]
    kinds = [type(a.blocks[0]) for a in first_message if isinstance(a, ClaudeAssistant)]
    assert kinds == [ThinkingBlock, TextBlock, ToolUseBlock]
    tool_use = first_message[2]
    assert isinstance(tool_use, ClaudeAssistant)
    assert tool_use.tool_uses[0].name == "Bash"
    assert tool_use.tool_uses[0].input["command"] == "echo hello-from-tool"
    users = _of(result.events, ClaudeUser)
    assert len(users) == 1
    user = users[0]
    assert isinstance(user, ClaudeUser)
    assert user.tool_results == (ToolResultBlock("toolu_mock_01", "hello-from-tool", False),)
    assert len(_of(result.events, ClaudeSystem)) == 2  # the thinking_tokens ticks


async def test_error_max_turns() -> None:
    result, ctx, _ = await drive("claude-2.1.332-error-max-turns", "Keep running echo")
    error = error_of(result)
    assert error.code == "error_max_turns"
    assert error.message == "Reached maximum number of turns (1)"
    assert error.returncode == 1
    assert error.details["num_turns"] == 2
    assert error.details["terminal_reason"] == "max_turns"
    assert result.returncode == 1
    # The turns that ran were paid for: the result's usage and cost are charged.
    assert result.usage == Usage(input_tokens=30, cache_write_tokens=200, output_tokens=40)
    assert ctx.ledger.cost_usd == pytest.approx(0.00144)
    assert ctx.ledger.calls == 1


async def test_api_401_invalid_key() -> None:
    result, ctx, _ = await drive("claude-2.1.332-api-401-invalid-key", "hi")
    error = error_of(result)
    assert error.code == "authentication_failed"
    assert error.message == "Invalid API key · Fix external API key"
    assert error.details["api_error_status"] == 401
    assert error.details["api_error_type"] == "authentication_error"
    assert error.details["subtype"] == "success"
    assert error.details["terminal_reason"] == "api_error"
    assert error.returncode == 1
    assert ctx.ledger.calls == 1
    assert ctx.ledger.cost_usd == 0.0
    retries = [e for e in result.events if isinstance(e, ClaudeSystem) and e.subtype == "api_retry"]
    assert len(retries) == 1


async def test_connection_failed() -> None:
    result, _, _ = await drive("claude-2.1.332-connection-failed")
    error = error_of(result)
    assert error.code == "connection_failed"
    assert "Can't reach the API server" in error.message
    assert error.details["assistant_error"] == "server_error"
    assert error.returncode == 1


async def test_not_logged_in() -> None:
    result, _, _ = await drive("claude-2.1.332-not-logged-in")
    error = error_of(result)
    assert error.code == "authentication_failed"
    assert error.message == "Not logged in · Please run /login"
    assert error.stderr == ""
    assert error.returncode == 1


async def test_resume_unknown_session_keeps_the_stderr() -> None:
    result, ctx, _ = await drive("claude-2.1.332-resume-unknown-session", "hi")
    error = error_of(result)
    assert error.code == "error_during_execution"
    assert (
        error.message
        == "No conversation found with session ID: 11111111-2222-3333-4444-555555555555"
    )
    assert "No conversation found with session ID" in error.stderr
    assert error.stderr == result.stderr
    assert error.returncode == 1
    assert result.session_id == "11111111-2222-3333-4444-555555555555"
    assert not _of(result.events, ClaudeInit)  # no init before a failed resume
    assert ctx.ledger.calls == 1


async def test_resume_charges_the_turn_not_the_resumed_running_total() -> None:
    result, ctx, _ = await drive("claude-2.1.332-resume-same-session-id", "Third question?")
    assert result.error is None
    assert result.text == "Third answer."
    assert result.session_id == "90a1a048-b2cb-47e3-9c96-82d6cec8e464"
    final = result.events[-1]
    assert isinstance(final, ClaudeResult)
    assert final.total_cost_usd == pytest.approx(0.000936)  # includes the two earlier turns
    assert result.cost_usd == pytest.approx(0.000216)
    assert ctx.ledger.cost_usd == pytest.approx(0.000216)


async def test_control_response_lines_are_kept_and_ignored() -> None:
    result, _, _ = await drive("claude-2.1.332-control-initialize-handshake")
    assert result.error is None
    assert result.text == "pong"
    first = result.events[0]
    assert isinstance(first, ClaudeOther)
    assert first.type == "control_response"
    assert first.raw["response"]["subtype"] == "success"


@pytest.mark.parametrize(
    ("stem", "needle"),
    [
        ("claude-2.1.332-stream-json-without-verbose", "requires --verbose"),
        ("claude-2.1.332-malformed-stdin-line", "Error parsing streaming input line"),
    ],
)
async def test_stderr_only_failures_are_cli_exit_with_the_stderr(stem: str, needle: str) -> None:
    result, ctx, _ = await drive(stem)
    error = error_of(result)
    assert error.code == "cli_exit_1"
    assert needle in error.stderr
    assert needle in str(error)
    assert error.returncode == 1
    assert result.events == ()
    assert result.text == ""
    assert ctx.ledger.calls == 1  # the run started: one call, charged at zero
    assert (ctx.ledger.usage, ctx.ledger.cost_usd) == (Usage(), 0.0)


async def test_the_open_stdin_warning_is_kept_on_a_successful_result() -> None:
    warning = recording("claude", "claude-2.1.332-open-stdin-warning").run
    stdout = recording("claude", "claude-2.1.332-text-success").run.stdout
    result, _, _ = await drive(CliRun(stdout=stdout, stderr=warning.stderr, returncode=0))
    assert result.error is None
    assert result.stderr.startswith("Warning: no stdin data received in 3s")


async def test_older_cli_golden_query_v2_1_7_without_per_turn_cost() -> None:
    run = recording("claude", "claude-streamjson-gleam-golden-basic-query-v2.1.7").run
    result, ctx, _ = await drive(run, "What is 2+2?")
    assert result.error is None
    assert result.text == "4"
    assert result.model == "claude-opus-4-5-20251101"
    assert result.usage == Usage(input_tokens=10, cache_write_tokens=21570, output_tokens=25)
    assert ctx.ledger.cost_usd == pytest.approx(0.1354875)  # total_cost_usd, first result


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("claude-streamjson-gleam-system-init-v2.1.3", ClaudeInit),
        ("claude-streamjson-gleam-assistant-tool-use-v2.1.4", ClaudeAssistant),
        ("claude-streamjson-gleam-user-tool-result-v2.1.4", ClaudeUser),
        ("claude-streamjson-gleam-result-success-v2.1.4", ClaudeResult),
    ],
)
def test_older_published_single_messages_map(name: str, kind: type[ClaudeEvent]) -> None:
    obj = json.loads(recording("claude", name).run.stdout)
    event = map_event(obj)
    assert isinstance(event, kind)
    if isinstance(event, ClaudeResult):
        assert event.usage == Usage(
            input_tokens=18, cached_input_tokens=17254, cache_write_tokens=25067, output_tokens=424
        )
        assert event.total_cost_usd == pytest.approx(0.24722425)
    if isinstance(event, ClaudeAssistant):
        assert event.tool_uses[0].name == "Bash"
    if isinstance(event, ClaudeUser):
        assert event.tool_results
