"""Recordings per test, end to end: record once with a "real" CLI, replay afterwards.

The real CLI is ``fixtures/fake_claude.py``, a small program printing
claude's stream-json, started as a genuine child process through the
plugin's real spawn; it logs each run to a file, which is how these tests
tell a real run from a replay. Each step runs the user's test file in a
fresh in-process pytest session, as a user would run pytest.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

import pytest

from tests.support.inner_session import INNER_INI, assert_report, run_inner

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
    # The source names the command that records it again, the same whichever mode made it.
    assert "pytest --agentkit-record=all test_inner.py::test_weather" in header["source"]

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
    assert "-Weather in Paris?" in text
    assert "+Weather in Rome?" in text
    # It says how to record the test again, as a missing recording does ...
    assert "If the change is intended, record it again:" in text
    assert "    pytest --agentkit-record=all test_inner.py::test_weather" in text
    # ... and names the class where a user imports it, not the private module defining it.
    assert "agentkit.fakes.cli.ReplayMismatch: " in text
    assert "_input_check" not in text
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


# ------------------------------------------------------------- one file per test

HEAD = """
import pytest

from agentkit.agents.cognition import ClaudeCliCognition
from agentkit.fakes.cli.pytest_plugin import CliRecorder
from agentkit.fakes.ctx import make_test_ctx

EXECUTABLE = {executable!r}


async def ask(spawn, prompt: str) -> None:
    result = await ClaudeCliCognition(spawn, executable=EXECUTABLE).drive(make_test_ctx(), prompt)
    assert result.error is None
    assert result.text == "You said: " + prompt
"""


def run_source(pytester: pytest.Pytester, program: Path, body: str, *args: str) -> pytest.RunResult:
    return run_inner(pytester, HEAD.format(executable=str(program)) + body, *args)


def run_interrupted(
    pytester: pytest.Pytester, program: Path, body: str, *args: str
) -> pytest.RunResult:
    """``run_source`` for a test that ends the session with Ctrl-C (KeyboardInterrupt)."""
    pytester.makeini(INNER_INI)
    pytester.makepyfile(test_inner=HEAD.format(executable=str(program)) + body)
    # In-process, pytester raises the inner session's Ctrl-C in this one unless told not to.
    return pytester.runpytest(
        "-p", "no:randomly", "-p", "no:hypothesispytest", *args, no_reraise_ctrlc=True
    )


def recorded_files(pytester: pytest.Pytester) -> list[str]:
    folder = pytester.path / "recordings" / "test_inner"
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


CITIES = ["New York", "New-York", "new york", "new-york", "New.York", "New/York", "NEW YORK"]

NAMESAKES = f"""
class TestParis:
    async def test_weather(self, cli_recording: CliRecorder) -> None:
        await ask(cli_recording("claude"), "Paris?")


class TestRome:
    async def test_weather(self, cli_recording: CliRecorder) -> None:
        await ask(cli_recording("claude"), "Rome?")


async def test_weather(cli_recording: CliRecorder) -> None:
    await ask(cli_recording("claude"), "Nowhere?")


@pytest.mark.parametrize("city", {CITIES!r})
async def test_city(cli_recording: CliRecorder, city: str) -> None:
    await ask(cli_recording("claude"), city + "?")
"""


def test_tests_whose_names_clean_alike_each_get_their_own_file(
    pytester: pytest.Pytester, fake_cli: tuple[Path, Path]
) -> None:
    program, log = fake_cli
    tests = 3 + len(CITIES)
    run_source(pytester, program, NAMESAKES, "--agentkit-record=once").assert_outcomes(passed=tests)
    assert len(real_runs(log)) == tests
    files = recorded_files(pytester)
    assert len(files) == tests
    # Differing in case only is different too: a checkout on macOS or Windows keeps them apart.
    assert len({name.casefold() for name in files}) == tests
    assert "test_weather.jsonl" in files  # a plain lowercase name is used as it is
    assert "test_city-new-york.jsonl" in files
    assert any(name.startswith("TestParis.test_weather~") for name in files)
    assert any(name.startswith("test_city-New-York~") for name in files)

    # Each test replays its own run: none is answered with another's recording.
    run_source(pytester, program, NAMESAKES).assert_outcomes(passed=tests)
    run_source(pytester, program, NAMESAKES, "--agentkit-record=once").assert_outcomes(passed=tests)
    assert len(real_runs(log)) == tests


LONG_ID = "a-parameter-id-" + "x" * 400

LONG = f"""
@pytest.mark.parametrize("prompt", ["Long?"], ids=[{LONG_ID!r}])
async def test_long(cli_recording: CliRecorder, prompt: str) -> None:
    await ask(cli_recording("claude"), prompt)
"""


def test_a_test_id_over_the_file_name_limit_is_recorded_and_replayed(
    pytester: pytest.Pytester, fake_cli: tuple[Path, Path]
) -> None:
    program, log = fake_cli
    (pytester.path / "recordings" / "test_inner").mkdir(parents=True)  # as another test made it
    result = run_source(pytester, program, LONG)
    text = assert_report(result, "no recording of claude for this test", failed=1)
    assert "File name too long" not in text

    run_source(pytester, program, LONG, "--agentkit-record=once").assert_outcomes(passed=1)
    (name,) = recorded_files(pytester)
    assert len(name.encode()) < 255
    assert name.startswith("test_long-a-parameter-id-xxx")
    run_source(pytester, program, LONG).assert_outcomes(passed=1)
    assert real_runs(log) == ["Long?"]


# ------------------------------------------------------------------ interrupted

CUT_SHORT = """
async def test_weather(cli_recording: CliRecorder) -> None:
    await ask(cli_recording("claude"), "Weather in Paris?")
    raise KeyboardInterrupt  # Ctrl-C while the test records
"""


def test_an_interrupted_recording_is_not_written(
    pytester: pytest.Pytester, fake_cli: tuple[Path, Path]
) -> None:
    program, log = fake_cli
    result = run_interrupted(pytester, program, CUT_SHORT, "--agentkit-record=once")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert real_runs(log) == ["Weather in Paris?"]
    assert recorded_files(pytester) == []  # no recording of the run the interruption cut
    text = result.stdout.str()
    assert "cli_recording: interrupted, not written" in text
    assert "the run was cut short (still missing)" in text
    # The next run does not replay the kill: it still has no recording.
    again = run(pytester, program)
    assert_report(again, "no recording of claude for this test", failed=1)


def test_an_interrupted_re_record_leaves_the_recording_as_it_was(
    pytester: pytest.Pytester, fake_cli: tuple[Path, Path]
) -> None:
    program, _ = fake_cli
    run(pytester, program, "--agentkit-record=once").assert_outcomes(passed=1)
    before = recording(pytester).read_bytes()
    result = run_interrupted(pytester, program, CUT_SHORT, "--agentkit-record=all")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert "the run was cut short (kept as it was)" in result.stdout.str()
    assert recording(pytester).read_bytes() == before


# ----------------------------------------------------------- unwritable folders

ONE = """
async def test_weather(cli_recording: CliRecorder) -> None:
    await ask(cli_recording("claude"), "Weather in Paris?")
"""


def test_a_folder_that_cannot_be_made_fails_before_the_real_cli_runs(
    pytester: pytest.Pytester, fake_cli: tuple[Path, Path]
) -> None:
    program, log = fake_cli
    (pytester.path / "recordings").mkdir()
    (pytester.path / "recordings" / "test_inner").write_text("a file, not a folder")
    result = run_source(pytester, program, ONE, "--agentkit-record=once")
    text = assert_report(
        result, "cannot write the recording test_weather.jsonl", "is a file, not a folder", failed=1
    )
    assert "The real CLI was not run" in text
    assert "OSError" not in text
    assert real_runs(log) == []


def _read_only_folder(folder: Path) -> None:
    """``folder`` made a folder nobody may create files in -- root included."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        folder.mkdir()
        folder.chmod(0o555)
        return
    # Root may write wherever permissions would stop anyone else; sysfs refuses it too.
    sysfs = Path("/sys/kernel")
    try:
        tempfile.TemporaryFile(dir=sysfs).close()
    except OSError:
        folder.symlink_to(sysfs, target_is_directory=True)
        return
    pytest.skip("no folder here refuses root a new file")


def test_a_read_only_folder_fails_before_the_real_cli_runs(
    pytester: pytest.Pytester, fake_cli: tuple[Path, Path]
) -> None:
    program, log = fake_cli
    _read_only_folder(pytester.path / "recordings" / "test_inner")
    # The test file named: collecting the whole folder would walk into the link.
    result = run_source(pytester, program, ONE, "--agentkit-record=once", "test_inner.py")
    text = assert_report(result, "no file can be made in", "The real CLI was not run", failed=1)
    assert "Traceback" not in text
    assert real_runs(log) == []


TWO = """
from pathlib import Path


async def test_two(cli_recording: CliRecorder) -> None:
    first = cli_recording("claude")
    second = cli_recording("claude", name="second")
    await ask(first, "one")
    await ask(second, "two")
    # The second file's place is taken while the test runs, after the check.
    (Path(__file__).parent / "recordings" / "test_inner" / "test_two@second.jsonl").mkdir()
"""


def test_a_recording_that_cannot_be_written_is_reported_and_the_others_are_written(
    pytester: pytest.Pytester, fake_cli: tuple[Path, Path]
) -> None:
    program, _ = fake_cli
    result = run_source(pytester, program, TWO, "--agentkit-record=once")
    text = assert_report(result, "test_two@second.jsonl: not written", passed=1, errors=1)
    assert "Traceback" not in text
    assert recording(pytester, "test_two").is_file()
    assert "You said: one" in recording(pytester, "test_two").read_text(encoding="utf-8")


# ------------------------------------------------------------- what is recorded

SCRUBBED = """
from agentkit.core._internal.arguments import ArgumentTypeError


async def test_weather(cli_recording: CliRecorder) -> None:
    with pytest.raises(ArgumentTypeError, match="cli_recording.*scrub"):
        cli_recording("claude", scrub="Gotham")
    spawn = cli_recording("claude", scrub=["Gotham"])
    cognition = ClaudeCliCognition(spawn, executable=EXECUTABLE)
    result = await cognition.drive(make_test_ctx(), "Weather in Gotham?")
    assert result.text in ("You said: Weather in Gotham?", "You said: Weather in [REDACTED]?")
"""


def test_the_fixture_scrubs_the_tests_own_secrets(
    pytester: pytest.Pytester, fake_cli: tuple[Path, Path]
) -> None:
    program, log = fake_cli
    run_source(pytester, program, SCRUBBED, "--agentkit-record=once").assert_outcomes(passed=1)
    text = recording(pytester).read_text(encoding="utf-8")
    assert "Gotham" not in text
    assert "Weather in [REDACTED]?" in text
    run_source(pytester, program, SCRUBBED).assert_outcomes(passed=1)  # the replay still matches
    assert len(real_runs(log)) == 1


def test_an_inherited_environment_is_not_named_in_the_recording(
    pytester: pytest.Pytester, fake_cli: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    program, _ = fake_cli
    monkeypatch.setenv("PS1", "$ ")
    monkeypatch.setenv("OLDPWD", "/somewhere/else")
    run_source(pytester, program, ONE, "--agentkit-record=once").assert_outcomes(passed=1)
    header = json.loads(recording(pytester).read_text(encoding="utf-8").splitlines()[0])
    assert header["env_names"] == []


NAMED = """
from agentkit.core._internal.arguments import ArgumentValueError


def test_named(cli_recording: CliRecorder) -> None:
    with pytest.raises(ArgumentValueError, match="name"):
        cli_recording("claude", name="second.2")  # would read as the 2nd spawn's file
    cli_recording("claude", name="second", check_input=False)
    cli_recording("claude", name="SECOND")  # one file with the first where case is ignored
"""


def test_a_named_recording_belongs_to_its_test(pytester: pytest.Pytester) -> None:
    from agentkit.fakes.cli import recording_path

    target = recording(pytester, "test_named@second")
    target.parent.mkdir(parents=True)
    target.write_bytes(recording_path("claude", "text-answer").read_bytes())
    result = run_source(pytester, Path("claude"), NAMED)
    text = assert_report(result, "already has a recording named 'SECOND'", failed=1)
    assert "no recording" not in text  # the named recording was found under the test's name


def test_a_recording_under_the_name_earlier_versions_gave_it_is_pointed_at(
    pytester: pytest.Pytester,
) -> None:
    from agentkit.fakes.cli import recording_path

    old = recording(pytester)  # test_weather.jsonl: the class was left out of the name
    old.parent.mkdir(parents=True)
    old.write_bytes(recording_path("claude", "text-answer").read_bytes())
    source = """
class TestParis:
    def test_weather(self, cli_recording: CliRecorder) -> None:
        cli_recording("claude")
"""
    result = run_source(pytester, Path("claude"), source)
    text = assert_report(result, "no recording of claude for this test", "git mv", failed=1)
    assert "TestParis.test_weather~" in text
