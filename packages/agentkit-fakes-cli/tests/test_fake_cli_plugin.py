"""The pytest plugin fails a user's test on the CLI doubles' violations, as a user would meet it.

Each case writes a user's test file and runs it in a fresh in-process pytest
session with the real cognitions over the doubles.
"""

from __future__ import annotations

import pytest

from tests.support.inner_session import (
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


def _run(pytester: pytest.Pytester, *sources: str) -> pytest.RunResult:
    """Run a user's test file: HEAD's imports and events, then ``sources``."""
    return run_inner(pytester, "".join((HEAD, *sources)))


def test_an_agent_that_stops_early_fails_its_test(pytester: pytest.Pytester) -> None:
    result = _run(
        pytester,
        """
async def test_two_turns_planned_one_made():
    cli = FakeCodexCli.answering("first", "second")
    result = await CodexCliCognition(cli).drive(RunContext(), "hi")
    assert result is not None  # the body passes: only one spawn happened
""",
    )
    text = assert_verification_failed(result, kind="unspawned_runs", double="FakeCodexCli")
    assert "1 of 2 runs were never spawned" in text


def test_a_session_talking_past_its_recording_fails_at_once(pytester: pytest.Pytester) -> None:
    result = _run(
        pytester,
        """
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
    result = _run(
        pytester,
        """
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


# --- sessions: turns never asked for, children never reaped -------------------------------------

SESSION_ARGV = """
import asyncio
from subprocess import PIPE

ARGV = ("claude", "-p", "--input-format", "stream-json", "--output-format", "stream-json")

def user(text):
    import json
    return json.dumps({"type": "user", "message": {"role": "user", "content": text}}).encode()
"""


def test_a_recorded_session_fails_unless_every_turn_was_asked(pytester: pytest.Pytester) -> None:
    result = _run(
        pytester,
        """
async def ask(*questions):
    cli = FakeClaudeCli.recorded("session-two-turns")
    async with ClaudeCliCognition(cli).session(RunContext()) as session:
        for question in questions:
            assert (await session.turn(question)).error is None

async def test_agent_asks_one_of_two_turns():
    await ask("First question?")

async def test_agent_asks_both_turns():
    await ask("First question?", "Second question?")
""",
    )
    text = assert_verification_failed(
        result, kind="unasked_turns", double="FakeClaudeCli", passed=1
    )
    assert "ERROR at teardown of test_agent_asks_one_of_two_turns" in text
    # The test that asked both turns is clean (the report may repeat the one
    # violation in its summary: CI runs print it untruncated).
    assert "ERROR at teardown of test_agent_asks_both_turns" not in text
    assert "1 of its 2 recorded turns never asked for" in text


def test_a_session_never_closed_fails(pytester: pytest.Pytester) -> None:
    result = _run(
        pytester,
        SESSION_ARGV,
        """
async def test_child_left_running():
    cli = FakeClaudeCli([CliRun.of([INIT, RESULT])])
    proc = await cli(*ARGV, stdin=PIPE, stdout=PIPE)
    proc.stdin.write(user("hi") + b"\\n")
    assert b"result" in (await proc.stdout.readline()) + (await proc.stdout.readline())

async def test_child_closed():
    cli = FakeClaudeCli([CliRun.of([INIT, RESULT])])
    proc = await cli(*ARGV, stdin=PIPE, stdout=PIPE)
    proc.stdin.write(user("hi") + b"\\n")
    proc.stdin.close()
    await proc.stdout.read()
    assert await proc.wait() == 0
""",
    )
    text = assert_verification_failed(
        result, kind="session_not_closed", double="FakeClaudeCli", passed=1
    )
    assert "ERROR at teardown of test_child_left_running" in text


# --- the real-process guard covers a capture around a real spawn ---------------------------------

CAPTURE = """
import asyncio
import sys
import pytest
from agentkit.core.verification.process_guard import RealProcessBlocked
from agentkit.fakes.cli import CapturingSpawn, FakeCodexCli

async def run(capture):
    child = await capture(sys.executable, "-c", "print('{}')", stdout=asyncio.subprocess.PIPE)
    await child.stdout.read()
    return await child.wait()
"""


def test_a_capture_around_a_real_spawn_is_blocked_unless_the_test_opts_in(
    pytester: pytest.Pytester,
) -> None:
    result = run_inner(
        pytester,
        CAPTURE
        + """
async def test_forgot_to_opt_in():
    await run(CapturingSpawn(asyncio.create_subprocess_exec, cli="codex"))

@pytest.mark.agentkit(real_processes=True)
async def test_marked():
    assert await run(CapturingSpawn(asyncio.create_subprocess_exec, cli="codex")) == 0

async def test_fixture(allow_real_processes):
    assert await run(CapturingSpawn(asyncio.create_subprocess_exec, cli="codex")) == 0

async def test_around_a_double_needs_nothing():
    capture = CapturingSpawn(FakeCodexCli.answering("hi"), cli="codex")
    assert await run(capture) == 0
""",
    )
    result.assert_outcomes(failed=1, passed=3)
    text = result.stdout.str()
    assert "RealProcessBlocked" in text
    assert "test_forgot_to_opt_in" in text
    assert "@pytest.mark.agentkit(real_processes=True)" in text
