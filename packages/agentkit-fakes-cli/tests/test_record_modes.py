"""Recordings per test, end to end: record once with a "real" CLI, replay afterwards.

The real CLI is ``fixtures/fake_claude.py``, a small program printing
claude's stream-json, started as a genuine child process through the
plugin's real spawn; it logs each run to a file, which is how these tests
tell a real run from a replay. Each step runs the user's test file in a
fresh in-process pytest session, as a user would run pytest.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.support.inner_session import run_inner

pytest_plugins = ["pytester"]

FAKE = Path(__file__).parent / "fixtures" / "fake_claude.py"

TEST = """
from agentkit.agents.cognition import ClaudeCliCognition
from agentkit.fakes.cli.pytest_plugin import CliRecorder
from agentkit.fakes.ctx import make_test_ctx

EXECUTABLE = {executable!r}


async def test_weather(cli_recording: CliRecorder) -> None:
    cognition = ClaudeCliCognition(cli_recording("claude"), executable=EXECUTABLE)
    for prompt in {prompts!r}:
        result = await cognition.drive(make_test_ctx(), prompt)
        assert result.error is None
        assert result.text == "You said: " + prompt + {said!r}
"""


@pytest.fixture
def fake_cli(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """An executable copy of the fake claude, and the log its runs append to."""
    program = pytester.path / "bin" / "claude"
    program.parent.mkdir()
    program.write_text(f"#!{sys.executable}\n" + FAKE.read_text(encoding="utf-8"), "utf-8")
    program.chmod(0o755)
    log = pytester.path / "runs.log"
    monkeypatch.setenv("FAKE_CLAUDE_LOG", str(log))
    return program, log


def run(
    pytester: pytest.Pytester,
    program: Path,
    *args: str,
    prompts: tuple[str, ...] = ("Weather in Paris?",),
    said: str = "",
) -> pytest.RunResult:
    source = TEST.format(executable=str(program), prompts=prompts, said=said)
    return run_inner(pytester, source, *args)


def real_runs(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def recording(pytester: pytest.Pytester, name: str = "test_weather") -> Path:
    return pytester.path / "recordings" / "test_inner" / f"{name}.jsonl"


def test_a_missing_recording_fails_with_how_to_record_it(
    pytester: pytest.Pytester, fake_cli: tuple[Path, Path]
) -> None:
    program, log = fake_cli
    result = run(pytester, program)
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "no recording of claude for this test" in text
    assert "pytest --agentkit-record=once test_inner.py::test_weather" in text
    assert real_runs(log) == []  # the default mode never starts the real CLI


def test_record_once_then_replay_without_the_real_cli(
    pytester: pytest.Pytester, fake_cli: tuple[Path, Path]
) -> None:
    program, log = fake_cli
    run(pytester, program, "--agentkit-record=once").assert_outcomes(passed=1)
    assert real_runs(log) == ["Weather in Paris?"]
    saved = recording(pytester)
    header = json.loads(saved.read_text(encoding="utf-8").splitlines()[0])
    assert header["cli"] == "claude"
    assert "--agentkit-record=once" in header["source"]

    run(pytester, program).assert_outcomes(passed=1)  # default mode: the replay
    run(pytester, program, "--agentkit-record=once").assert_outcomes(passed=1)  # has one
    assert real_runs(log) == ["Weather in Paris?"]  # the real CLI ran once, in all


def test_record_all_runs_the_real_cli_again_and_rewrites(
    pytester: pytest.Pytester, fake_cli: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    program, log = fake_cli
    run(pytester, program, "--agentkit-record=once").assert_outcomes(passed=1)
    monkeypatch.setenv("FAKE_CLAUDE_SAY", " (v2)")
    run(pytester, program, "--agentkit-record=all", said=" (v2)").assert_outcomes(passed=1)
    assert len(real_runs(log)) == 2
    monkeypatch.delenv("FAKE_CLAUDE_SAY")
    run(pytester, program, said=" (v2)").assert_outcomes(passed=1)  # replays the new one
    assert len(real_runs(log)) == 2


def test_a_changed_prompt_fails_the_replay_with_a_diff(
    pytester: pytest.Pytester, fake_cli: tuple[Path, Path]
) -> None:
    program, log = fake_cli
    run(pytester, program, "--agentkit-record=once").assert_outcomes(passed=1)
    result = run(pytester, program, prompts=("Weather in Rome?",))
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "ReplayMismatch" in text
    assert "-Weather in Paris?" in text
    assert "+Weather in Rome?" in text
    assert len(real_runs(log)) == 1


def test_every_spawn_is_recorded_and_an_unused_one_fails_the_replay(
    pytester: pytest.Pytester, fake_cli: tuple[Path, Path]
) -> None:
    program, log = fake_cli
    two = ("one", "two")
    run(pytester, program, "--agentkit-record=once", prompts=two).assert_outcomes(passed=1)
    assert recording(pytester).is_file()
    assert recording(pytester, "test_weather.2").is_file()
    run(pytester, program, prompts=two).assert_outcomes(passed=1)
    # The test now stops after one run: the second recorded spawn is left over.
    result = run(pytester, program, prompts=("one",))
    result.assert_outcomes(passed=1, errors=1)
    assert "unspawned_runs" in result.stdout.str()
    # Re-recorded with one run, the stale second file goes.
    run(pytester, program, "--agentkit-record=all", prompts=("one",)).assert_outcomes(passed=1)
    assert not recording(pytester, "test_weather.2").exists()
    assert len(real_runs(log)) == 3


def test_the_recording_is_scrubbed_of_secrets(
    pytester: pytest.Pytester, fake_cli: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    program, _ = fake_cli
    secret = "sk-ant-api03-" + "x7" * 20
    monkeypatch.setenv("ANTHROPIC_API_KEY", secret)
    monkeypatch.setenv("FAKE_CLAUDE_SAY", " " + secret)
    result = run(pytester, program, "--agentkit-record=once", said=" " + secret)
    result.assert_outcomes(passed=1)
    text = recording(pytester).read_text(encoding="utf-8")
    assert secret not in text
    assert "You said: Weather in Paris?" in text


def test_a_wrong_mode_is_refused(pytester: pytest.Pytester, fake_cli: tuple[Path, Path]) -> None:
    program, _ = fake_cli
    result = run(pytester, program, "--agentkit-record=sometimes")
    assert result.ret != 0
    assert "invalid choice" in result.stderr.str()


def test_outside_the_fixture_real_processes_stay_blocked_in_a_record_mode(
    pytester: pytest.Pytester, fake_cli: tuple[Path, Path]
) -> None:
    program, log = fake_cli
    source = f"""
from agentkit.agents.cognition import ClaudeCliCognition
from agentkit.fakes.ctx import make_test_ctx


async def test_forgot_the_fixture() -> None:
    await ClaudeCliCognition(executable={str(program)!r}).drive(make_test_ctx(), "hi")
"""
    result = run_inner(pytester, source, "--agentkit-record=all")
    result.assert_outcomes(failed=1)
    assert "RealProcessBlocked" in result.stdout.str()
    assert real_runs(log) == []


def test_a_session_that_leaves_recorded_turns_unasked_fails(pytester: pytest.Pytester) -> None:
    # A real two-turn session recording stands in for one the test recorded earlier.
    from agentkit.fakes.cli import recording_path

    target = recording(pytester, "test_session")
    target.parent.mkdir(parents=True)
    target.write_bytes(recording_path("claude", "session-two-turns").read_bytes())
    source = """
from agentkit.agents.cognition import ClaudeCliCognition
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli.pytest_plugin import CliRecorder


async def test_session(cli_recording: CliRecorder) -> None:
    cognition = ClaudeCliCognition(cli_recording("claude"), model="claude-sonnet-4-5-20250929")
    async with cognition.session(RunContext()) as session:
        await session.turn("Remember the word: parity.")
        {second}
"""
    both = 'await session.turn("Which word did I ask you to remember?")'
    run_inner(pytester, source.format(second=both)).assert_outcomes(passed=1)
    result = run_inner(pytester, source.format(second="pass"))
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "ReplayMismatch" in text
    assert "1 of 2 messages written" in text
