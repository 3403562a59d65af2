"""check_input=True against the shipped real recordings, driven by the real cognition."""

from __future__ import annotations

import pytest

from agentkit.agents.cognition import ClaudeCliCognition
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import FakeClaudeCli, ReplayMismatch

MODEL = "claude-sonnet-4-5-20250929"
BRIEFLY = ("--append-system-prompt", "Answer briefly.")


async def test_the_same_drive_passes_and_a_different_model_fails_with_a_diff() -> None:
    cli = FakeClaudeCli.recorded("text-answer", check_input=True)
    result = await ClaudeCliCognition(cli, model=MODEL, extra_args=BRIEFLY).drive(
        RunContext(), "Say hello."
    )
    assert result.error is None
    cli.assert_complete()

    other = FakeClaudeCli.recorded("text-answer", check_input=True, verify=False)
    with pytest.raises(ReplayMismatch) as caught:
        await ClaudeCliCognition(other, model="claude-opus-4", extra_args=BRIEFLY).drive(
            RunContext(), "Say hello."
        )
    assert f" --model\n-{MODEL}\n+claude-opus-4\n --append" in caught.value.diff
    assert "/var/tmp" not in caught.value.diff  # argv[0] is compared by file name
    assert [v.kind for v in other.violations()] == ["replay_mismatch"]


async def test_a_session_writing_the_recorded_messages_passes_and_another_fails() -> None:
    cli = FakeClaudeCli.recorded("session-two-turns", check_input=True)
    async with ClaudeCliCognition(cli, model=MODEL).session(RunContext()) as session:
        await session.turn("Remember the word: parity.")
        second = await session.turn("Which word did I ask you to remember?")
    assert second.error is None
    cli.assert_complete()

    other = FakeClaudeCli.recorded("session-two-turns", check_input=True, verify=False)
    with pytest.raises(ReplayMismatch) as caught:
        async with ClaudeCliCognition(other, model=MODEL).session(RunContext()) as session:
            await session.turn("Remember the word: parity.")
            await session.turn("Which word was it?")
    assert caught.value.what == "stdin message 2"
    assert '+    "content": "Which word was it?"' in caught.value.diff
