"""Every started claude run / session turn is charged exactly once, as codex's turns are.

A run that reported no ``result`` (truncated, crashed, timed out, cancelled
mid-way) is charged zero usage and zero cost -- but it IS charged, so
``Budget(max_llm_calls=...)`` counts it and a loop of failing runs meets its
budget instead of respawning the CLI forever. What never started (a spawn
that failed, a run cancelled before it began) is not charged.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from agentkit.agents.cognition import ClaudeCliCognition
from agentkit.core.middleware import BudgetExceeded
from agentkit.core.ports import ProcessPort
from agentkit.core.runtime import RunContext
from agentkit.core.types import Budget, Usage
from agentkit.fakes.cli import CliRun, CliStderr, FakeClaudeCli
from tests.support.cli import until_written

SID = "c4a2-91e"
MODEL = "claude-charging-1"
INIT: dict[str, Any] = {"type": "system", "subtype": "init", "session_id": SID, "model": MODEL}
ASSISTANT: dict[str, Any] = {
    "type": "assistant",
    "session_id": SID,
    "message": {"id": "msg_1", "model": MODEL, "content": [{"type": "text", "text": "part"}]},
}
RESULT: dict[str, Any] = {
    "type": "result",
    "subtype": "success",
    "is_error": False,
    "result": "done",
    "session_id": SID,
    "usage": {"input_tokens": 7, "output_tokens": 3},
    "total_cost_usd": 0.02,
}
TRUNCATED = CliRun.of([INIT, ASSISTANT, '{"type":"result","subtype":"succ'])
MISSING_RESULT = CliRun.of([INIT, ASSISTANT])
CRASHED = CliRun.of([INIT, CliStderr(b"fatal\n")], returncode=1)
GUARD = 10.0


def _cognition(cli: FakeClaudeCli, **kw: Any) -> ClaudeCliCognition:
    # A double ends on SIGTERM at once: a grace it cannot use up, on a loaded machine too.
    options: dict[str, Any] = {"timeout": 5, "kill_grace": 5}
    options.update(kw)
    return ClaudeCliCognition(cli, **options)


def _charged(ctx: RunContext) -> tuple[int, Usage, float]:
    """Calls, usage and cost on the ledger (cost rounded: it is a sum of floats)."""
    return ctx.ledger.calls, ctx.ledger.usage, round(ctx.ledger.cost_usd, 9)


# ------------------------------------------------------------------ drive


@pytest.mark.parametrize(
    ("run", "code"),
    [(TRUNCATED, "incomplete_run"), (MISSING_RESULT, "incomplete_run"), (CRASHED, "cli_exit_1")],
    ids=["truncated", "missing-result", "crashed"],
)
async def test_a_drive_without_a_result_is_charged_once_at_zero(run: CliRun, code: str) -> None:
    ctx = RunContext()
    result = await _cognition(FakeClaudeCli([run])).drive(ctx, "go")
    assert result.error is not None
    assert result.error.code == code
    assert _charged(ctx) == (1, Usage(), 0.0)
    assert ctx.ledger.by_model == {MODEL: Usage()}  # under the model init announced
    assert (result.usage, result.cost_usd) == (Usage(), 0.0)


@pytest.mark.agentkit(verify=False)  # a budget stops the run before its last spawn on purpose
async def test_a_failed_drive_spends_a_max_llm_calls_budget_before_the_next_spawn() -> None:
    cli = FakeClaudeCli([TRUNCATED, CliRun.of([INIT, RESULT])])
    ctx = RunContext(budget=Budget(max_llm_calls=1))
    cognition = _cognition(cli)
    first = await cognition.drive(ctx, "one")
    assert first.error is not None
    with pytest.raises(BudgetExceeded):
        await cognition.drive(ctx, "two")
    assert len(cli.invocations) == 1  # refused before spawning
    assert cli.remaining == 1


async def test_a_successful_drive_is_charged_once_with_the_results_figures() -> None:
    ctx = RunContext()
    result = await _cognition(FakeClaudeCli([CliRun.of([INIT, RESULT])])).drive(ctx, "go")
    assert result.error is None
    assert _charged(ctx) == (1, Usage(input_tokens=7, output_tokens=3), 0.02)
    assert result.usage == Usage(input_tokens=7, output_tokens=3)


@pytest.mark.agentkit(verify=False)  # a budget stops the run before its last spawn on purpose
async def test_a_drive_that_never_started_is_not_charged() -> None:
    async def missing(program: str, *args: str, **kw: object) -> ProcessPort:
        raise FileNotFoundError(2, "No such file or directory", program)

    ctx = RunContext()
    result = await ClaudeCliCognition(missing).drive(ctx, "go")
    assert result.error is not None
    assert result.error.code == "spawn_failed"
    assert ctx.ledger.calls == 0

    cancelled = RunContext()
    cancelled.cancel.cancel("stop")
    cli = FakeClaudeCli([CliRun.of([INIT, RESULT])])
    result = await _cognition(cli).drive(cancelled, "go")
    assert result.error is not None
    assert result.error.code == "cancelled"
    assert (cancelled.ledger.calls, cli.invocations) == (0, [])


# ---------------------------------------------------------------- session


def _one_turn_then_silence() -> FakeClaudeCli:
    # A clean one-turn recording: a second turn is never answered, the session waits.
    return FakeClaudeCli([CliRun.of([INIT, RESULT])], hang_when_unanswered=True)


async def test_a_session_turn_that_times_out_is_charged_once_at_zero() -> None:
    ctx = RunContext()
    # The first turn is answered as it is written; only the second, never answered, times out.
    async with _cognition(_one_turn_then_silence(), timeout=1.0).session(ctx) as session:
        await session.turn("first")
        second = await asyncio.wait_for(session.turn("second"), GUARD)
        assert second.error is not None
        assert second.error.code == "timeout"
        after = await session.turn("third")  # refused: the session is dead, nothing started
        assert after.error is not None
        assert after.error.code == "session_closed"
    assert _charged(ctx) == (2, Usage(input_tokens=7, output_tokens=3), 0.02)


async def test_a_session_turn_cut_short_by_a_crash_is_charged_once_at_zero() -> None:
    cli = FakeClaudeCli([CliRun.of([INIT, ASSISTANT, '{"type":"assis'], returncode=1)])
    ctx = RunContext()
    async with _cognition(cli).session(ctx) as session:
        result = await session.turn("go")
    assert result.error is not None
    assert _charged(ctx) == (1, Usage(), 0.0)


async def test_a_session_turn_the_token_cancels_mid_way_is_charged() -> None:
    ctx = RunContext()
    cli = _one_turn_then_silence()
    async with _cognition(cli, timeout=30).session(ctx) as session:
        await session.turn("first")
        task = asyncio.ensure_future(session.turn("second"))
        await until_written(cli, 2)  # the turn waits on the double now
        ctx.cancel.cancel("enough")
        second = await asyncio.wait_for(task, GUARD)
    assert second.error is not None
    assert second.error.code == "cancelled"
    assert ctx.ledger.calls == 2


async def test_a_session_turn_whose_task_is_cancelled_is_charged_and_propagates() -> None:
    cli = _one_turn_then_silence()
    ctx = RunContext()
    async with _cognition(cli, timeout=30).session(ctx) as session:
        await session.turn("first")
        task = asyncio.ensure_future(session.turn("second"))
        await until_written(cli, 2)  # the turn waits on the double now
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, GUARD)
    assert cli.invocations[0].terminated is True
    assert _charged(ctx) == (2, Usage(input_tokens=7, output_tokens=3), 0.02)


@pytest.mark.agentkit(verify=False)  # a budget stops the run before its last spawn on purpose
async def test_a_failed_session_turn_spends_a_max_llm_calls_budget() -> None:
    cli = FakeClaudeCli([CliRun.of([INIT, ASSISTANT]), CliRun.of([INIT, RESULT])])
    ctx = RunContext(budget=Budget(max_llm_calls=1))
    cognition = _cognition(cli)
    async with cognition.session(ctx) as session:
        first = await asyncio.wait_for(session.turn("one"), GUARD)  # ends with no result
        assert first.error is not None
        assert first.error.code == "incomplete_run"
    assert _charged(ctx) == (1, Usage(), 0.0)
    with pytest.raises(BudgetExceeded):
        await cognition.drive(ctx, "two")
    assert (len(cli.invocations), cli.remaining) == (1, 1)  # refused before spawning
