"""ClaudeCliSession: one stream-json process, many turns, replayed from recordings.

Built to give one answer on a loaded machine: a turn that times out is one the
double never answers; the turns it does answer run under a timeout
(``TURN_TIMEOUT``) that an answer already in the pipe cannot be late for; a
double that ends on SIGTERM gets a kill grace it never needs; and a turn is
cancelled once the double has its message, not after a guessed delay.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from agentkit.agents.cognition import ClaudeCliCognition, ClaudeCliSession, CliError
from agentkit.agents.cognition.claude import ClaudeUser
from agentkit.core.middleware import BudgetExceeded
from agentkit.core.ports import ProcessPort
from agentkit.core.runtime import RunContext
from agentkit.core.types import Budget, Usage
from agentkit.fakes.cli import CliRun, CliStderr, FakeClaudeCli, load_recording
from tests.support.cli import ForwardingProcess, recorded, until_written

TWO_TURNS = recorded("claude", "claude-2.1.332-stream-json-input-two-turns")
SESSION_ID = "90a1a048-b2cb-47e3-9c96-82d6cec8e464"


TURN_TIMEOUT = 1.0
"""The per-turn timeout of the timeout tests: the double answers a recorded turn as its
message is written, so only the unanswered turn (which never ends) reaches it."""


def _cognition(cli: FakeClaudeCli, **kw: object) -> ClaudeCliCognition:
    options: dict[str, object] = {"timeout": 5, "kill_grace": 5}
    options.update(kw)
    return ClaudeCliCognition(cli, **options)  # type: ignore[arg-type]


def _content_text(content: object) -> str:
    if isinstance(content, str):
        return content
    assert isinstance(content, list)
    return "".join(block["text"] for block in content)


async def test_two_turns_off_one_process_each_charged_once() -> None:
    cli = FakeClaudeCli.replay(TWO_TURNS)
    ctx = RunContext()
    async with _cognition(cli).session(ctx) as session:
        first = await session.turn("First question?")
        second = await session.turn("Second question?")
        assert session.session_id == SESSION_ID
        assert session.turns == 2
    assert (first.error, second.error) == (None, None)
    assert (first.text, second.text) == ("First answer.", "Second answer.")
    assert first.usage == Usage(input_tokens=20, cache_write_tokens=100, output_tokens=5)
    assert second.usage == Usage(
        input_tokens=10, cached_input_tokens=100, cache_write_tokens=20, output_tokens=5
    )
    # total_cost_usd is cumulative (0.00051 -> 0.00072): each turn is charged its own share.
    assert first.cost_usd == pytest.approx(0.00051)
    assert second.cost_usd == pytest.approx(0.00021)
    assert ctx.ledger.calls == 2
    assert ctx.ledger.cost_usd == pytest.approx(0.00072)
    assert ctx.ledger.usage == first.usage + second.usage
    assert first.session_id == second.session_id == SESSION_ID
    assert (first.returncode, second.returncode) == (None, None)  # still running then
    assert session.returncode == 0
    assert len(cli.invocations) == 1
    inv = cli.invocations[0]
    assert inv.argv[:5] == ("claude", "-p", "--output-format", "stream-json", "--verbose")
    assert inv.argv[5:7] == ("--input-format", "stream-json")
    assert inv.start_new_session is True
    assert inv.terminated is False
    assert inv.killed is False


async def test_the_stdin_written_matches_the_recorded_stdin_shape() -> None:
    cli = FakeClaudeCli.replay(TWO_TURNS)
    async with _cognition(cli).session(RunContext()) as session:
        await session.turn("First question?")
        await session.turn("Second question?")
    written = [json.loads(line) for line in cli.invocations[0].stdin.splitlines()]
    expected = [json.loads(line) for line in load_recording(TWO_TURNS).stdin_messages]
    assert len(written) == len(expected) == 2
    assert cli.invocations[0].stdin.endswith(b"\n")
    for mine, theirs in zip(written, expected, strict=True):
        assert mine.keys() == theirs.keys()
        assert mine["type"] == theirs["type"] == "user"
        assert mine["message"].keys() == theirs["message"].keys()
        assert mine["message"]["role"] == theirs["message"]["role"] == "user"
        assert _content_text(mine["message"]["content"]) == _content_text(
            theirs["message"]["content"]
        )
        assert mine["parent_tool_use_id"] is theirs["parent_tool_use_id"] is None
        assert mine["session_id"] == theirs["session_id"] == ""


async def test_replayed_user_messages_are_events_not_turns() -> None:
    cli = FakeClaudeCli.replay(
        recorded("claude", "claude-2.1.332-stream-json-input-replay-user-messages")
    )
    async with _cognition(cli, extra_args=("--replay-user-messages",)).session(
        RunContext()
    ) as session:
        first = await session.turn("First question?")
        second = await session.turn("Second question?")
    assert (first.text, second.text) == ("First answer.", "Second answer.")
    replays = [e for e in first.events if isinstance(e, ClaudeUser) and e.is_replay]
    assert len(replays) == 1
    assert "--replay-user-messages" in cli.invocations[0].argv


async def test_a_failed_session_turn_and_the_exit_code_at_close() -> None:
    cli = FakeClaudeCli.replay(
        recorded("claude", "claude-2.1.332-stream-json-input-no-auth-replay")
    )
    async with _cognition(cli).session(RunContext()) as session:
        result = await session.turn("Reply with: pong")
    assert result.error is not None
    assert result.error.code == "authentication_failed"
    assert result.error.message == "Not logged in · Please run /login"
    assert session.returncode == 1


async def _play_the_recording(session: ClaudeCliSession) -> None:
    """Play the two recorded turns: the next turn is one the recording has no answer for."""
    await session.turn("First question?")
    await session.turn("Second question?")


async def test_a_turn_past_the_recording_times_out_and_the_child_is_terminated() -> None:
    cli = FakeClaudeCli.replay(TWO_TURNS, hang_when_unanswered=True)
    ctx = RunContext()
    async with _cognition(cli, timeout=TURN_TIMEOUT).session(ctx) as session:
        await _play_the_recording(session)
        third = await asyncio.wait_for(session.turn("Third?"), 10)
        assert third.error is not None
        assert third.error.code == "timeout"
        assert third.error.details["terminated"] is True
        assert third.error.details["killed"] is False
        after = await session.turn("Fourth?")
        assert after.error is not None
        assert after.error.code == "session_closed"
        assert after.error.details["cause"] == "timeout"
    inv = cli.invocations[0]
    assert (inv.terminated, inv.killed, inv.returncode) == (True, False, -15)
    assert third.returncode == -15
    assert ctx.ledger.calls == 3  # the unanswered turn is charged too, at zero
    assert ctx.ledger.cost_usd == pytest.approx(0.00072)
    assert inv.stdin.count(b"\n") == 3  # the fourth turn was never written


class _IgnoresSigterm(ForwardingProcess):
    """A stubborn child: the fake process, except that SIGTERM does nothing."""

    def __init__(self, inner: ProcessPort) -> None:
        super().__init__(inner)
        self.terminate_calls = 0

    def terminate(self) -> None:
        self.terminate_calls += 1


async def test_a_child_that_ignores_sigterm_is_killed_after_the_grace() -> None:
    cli = FakeClaudeCli.replay(TWO_TURNS, hang_when_unanswered=True)
    stubborn: list[_IgnoresSigterm] = []

    async def spawn(program: str, *args: str, **kw: object) -> ProcessPort:
        proc = _IgnoresSigterm(await cli(program, *args, **kw))  # type: ignore[arg-type]
        stubborn.append(proc)
        return proc

    cognition = ClaudeCliCognition(spawn, timeout=TURN_TIMEOUT, kill_grace=0.1)
    async with cognition.session(RunContext()) as session:
        await _play_the_recording(session)
        third = await asyncio.wait_for(session.turn("Third?"), 10)
    assert third.error is not None
    assert third.error.code == "timeout"
    assert third.error.details == {"terminated": True, "killed": True, "timeout": TURN_TIMEOUT}
    assert stubborn[0].terminate_calls == 1
    inv = cli.invocations[0]
    assert (inv.terminated, inv.killed, inv.returncode) == (False, True, -9)


async def test_the_cancel_token_stops_a_waiting_turn() -> None:
    cli = FakeClaudeCli.replay(TWO_TURNS, hang_when_unanswered=True)
    ctx = RunContext()
    async with _cognition(cli, timeout=30).session(ctx) as session:
        await _play_the_recording(session)
        task = asyncio.ensure_future(session.turn("Third?"))
        await until_written(cli, 3)
        ctx.cancel.cancel("user pressed stop")
        third = await asyncio.wait_for(task, 10)
    assert third.error is not None
    assert third.error.code == "cancelled"
    assert "user pressed stop" in third.error.message
    assert cli.invocations[0].terminated is True


async def test_a_cancelled_token_before_a_turn_stops_the_session_without_writing() -> None:
    # verify=False: the session is stopped before its recorded turns on purpose.
    cli = FakeClaudeCli.replay(TWO_TURNS, verify=False)
    ctx = RunContext()
    async with _cognition(cli).session(ctx) as session:
        await session.turn("First question?")
        ctx.cancel.cancel("enough")
        result = await session.turn("Second question?")
    assert result.error is not None
    assert result.error.code == "cancelled"
    assert cli.invocations[0].stdin.count(b"\n") == 1


async def test_task_cancellation_stops_the_child_and_propagates() -> None:
    cli = FakeClaudeCli.replay(TWO_TURNS, hang_when_unanswered=True)
    async with _cognition(cli, timeout=30).session(RunContext()) as session:
        await session.turn("First question?")
        await session.turn("Second question?")
        task = asyncio.ensure_future(session.turn("Third?"))
        await until_written(cli, 3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)
    assert cli.invocations[0].terminated is True
    assert cli.invocations[0].returncode == -15


async def test_a_process_that_dies_mid_turn_reports_its_exit_and_stderr() -> None:
    run = CliRun.of(
        [
            {"type": "system", "subtype": "init", "session_id": "s1", "model": "m"},
            CliStderr(b"fatal: out of memory\n"),
            '{"type":"assistant","message":{"content":[{"type":"te',
        ],
        returncode=1,
    )
    cli = FakeClaudeCli([run])
    async with _cognition(cli).session(RunContext()) as session:
        result = await session.turn("go")
        again = await session.turn("again")
    assert result.error is not None
    assert result.error.code == "cli_exit_1"
    assert "out of memory" in result.error.stderr
    assert result.returncode == 1
    assert [s.reason for s in result.skipped] == ["truncated"]
    assert again.error is not None
    assert again.error.code == "session_closed"
    assert again.error.details["cause"] == "cli_exit_1"
    assert "out of memory" in again.error.stderr
    assert cli.invocations[0].stdin.count(b"\n") == 1


async def test_turn_checks_the_budget_first() -> None:
    # verify=False: the session is stopped before its recorded turns on purpose.
    cli = FakeClaudeCli.replay(TWO_TURNS, verify=False)
    ctx = RunContext(budget=Budget(max_llm_calls=1))
    async with _cognition(cli).session(ctx) as session:
        await session.turn("First question?")
        with pytest.raises(BudgetExceeded):
            await session.turn("Second question?")
    assert cli.invocations[0].stdin.count(b"\n") == 1


async def test_spawn_failure_raises_on_enter() -> None:
    async def missing(program: str, *args: str, **kw: object) -> ProcessPort:
        raise FileNotFoundError(2, "No such file or directory", program)

    with pytest.raises(CliError) as caught:
        async with ClaudeCliCognition(missing).session(RunContext()):
            pass
    assert caught.value.code == "spawn_failed"
    assert "claude" in caught.value.message


async def test_misuse_is_a_clear_error() -> None:
    # verify=False: the session is stopped before its recorded turns on purpose.
    cli = FakeClaudeCli.replay(TWO_TURNS, verify=False)
    session = _cognition(cli).session(RunContext())
    with pytest.raises(RuntimeError, match="not started"):
        await session.turn("x")
    async with session:
        with pytest.raises(ValueError, match="non-empty"):
            await session.turn("  ")
    with pytest.raises(RuntimeError, match="closed"):
        await session.turn("x")
