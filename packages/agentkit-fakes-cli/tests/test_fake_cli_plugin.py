"""The pytest plugin fails a user's test on the CLI doubles' violations, as a user would meet it.

Each case writes a user's test file and runs it in a fresh in-process pytest
session with the real cognitions over the doubles.
"""

from __future__ import annotations

import pytest

from agentkit.core.testing.pytest_plugin import (
    assert_passed_clean,
    assert_verification_failed,
    run_inner,
)

pytest_plugins = ["pytester"]

HEAD = """
import pytest
from agentkit.agents.cognition import ClaudeCliCognition, CodexCliCognition
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import CliRun, FakeClaudeCli, FakeCodexCli, ScriptExhausted

INIT = {"type": "system", "subtype": "init", "session_id": "s"}
RESULT = {"type": "result", "subtype": "success", "is_error": False, "result": "ok",
          "session_id": "s", "num_turns": 1, "total_cost_usd": 0.0,
          "usage": {"input_tokens": 1, "output_tokens": 1}}
"""


def test_an_agent_that_stops_early_fails_its_test(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_two_turns_planned_one_made():
    cli = FakeCodexCli.answering("first", "second")
    result = await CodexCliCognition(cli).drive(RunContext(), "hi")
    assert result is not None  # the body passes: only one spawn happened
""",
    )
    text = assert_verification_failed(result, kind="unspawned_runs", double="FakeCodexCli")
    assert "1 of 2 runs were never spawned" in text


def test_a_session_talking_past_its_recording_fails_at_once(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_three_turns_on_a_two_turn_recording():
    cli = FakeClaudeCli([CliRun.of([INIT, RESULT])])
    async with ClaudeCliCognition(cli, timeout=600).session(RunContext()) as session:
        await session.turn("one")
        await session.turn("two")  # no answer recorded: fails now, not after 600 s
""",
    )
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "ScriptExhausted" in text
    assert "has no answer for" in text


def test_correct_and_opted_out_cli_tests_pass(pytester: pytest.Pytester) -> None:
    result = run_inner(
        pytester,
        HEAD
        + """
async def test_every_run_spawned():
    cli = FakeCodexCli.answering("only")
    await CodexCliCognition(cli).drive(RunContext(), "hi")


async def test_a_shipped_recording_replayed():
    cli = FakeClaudeCli.recorded("text-answer")
    result = await ClaudeCliCognition(cli).drive(RunContext(), "hi")
    assert result.error is None


async def test_extra_runs_opted_out_on_the_double():
    cli = FakeCodexCli.answering("a", "b", verify=False)
    await CodexCliCognition(cli).drive(RunContext(), "hi")


@pytest.mark.agentkit(verify=False)
async def test_extra_runs_opted_out_on_the_test():
    cli = FakeCodexCli.answering("a", "b")
    await CodexCliCognition(cli).drive(RunContext(), "hi")
""",
    )
    assert_passed_clean(result, passed=4)
