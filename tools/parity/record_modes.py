"""The record modes of ``cli_recording`` against the real CLIs, end to end.

A user's test asks the ``cli_recording`` fixture (agentkit-fakes-cli's
pytest plugin) for a spawn; ``--agentkit-record=once`` records it with the
real CLI, the default mode replays it with its input checked. The plugin's
own tests use a small fake CLI program; this check runs the workflow with
the pinned binaries, inside the suite's loopback-only namespace, as a user
would: a throw-away pytest project with one test per CLI, each serving its
model from a :class:`~agentkit.fakes.api.FakeApi` it starts itself.

1. ``pytest --agentkit-record=once``: both tests pass on the real CLIs and
   leave ``recordings/test_recorded/test_<cli>.jsonl`` beside the test.
2. ``pytest`` (mode ``none``): both pass again from the recordings, and the
   model API saw no request (no real CLI ran).
3. ``pytest`` with a changed prompt: both fail with ``ReplayMismatch``
   rather than replaying the stale answer.
4. ``pytest`` with a recording removed: that test fails saying how to record it.

The tests' cognitions get the same argv on every run: claude is pointed at
the API through its environment, codex through a ``config.toml`` in its
``CODEX_HOME`` (a ``-c base_url=`` would put the API's port in argv).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from agentkit.fakes.cli import load_recording
from tools.parity.environment import Workdir, claude_env, codex_env, codex_provider_toml
from tools.parity.scenarios import CLAUDE_MODEL, CODEX_MODEL

__all__ = ["ANSWER", "RecordModes", "run_record_modes", "test_module"]

ANSWER = "Hello from a recorded test."
_CHANGED_PROMPT = "Say goodbye."
_TIMEOUT = 300.0
_BASE_URL = "@BASE_URL@"
"""Where codex's config.toml names the test's own API, filled in by the test once it is up."""


def test_module() -> str:
    """The source of the user's test module the check runs."""
    return f'''"""Recorded once with the real CLI, replayed afterwards."""

import json
import os
from pathlib import Path

from agentkit.agents.cognition import ClaudeCliCognition, CodexCliCognition
from agentkit.core.types import Usage
from agentkit.fakes.api import FakeApi
from agentkit.fakes.cli.pytest_plugin import CliRecorder
from agentkit.fakes.ctx import make_test_ctx
from agentkit.fakes.llm import FakeLLM, Turn

SETUP = json.loads(os.environ["PARITY_RECORD_SETUP"])
PROMPT = os.environ.get("PARITY_RECORD_PROMPT", "Say hello.")
ANSWER = {ANSWER!r}
BASE_URL = {_BASE_URL!r}


def _api() -> FakeApi:
    # Not strict: in replay no request comes, by design.
    turn = Turn(ANSWER, usage=Usage(120, output_tokens=30))
    return FakeApi(FakeLLM.script([turn], verify=False), verify=False)


def _recording(request) -> bool:
    return request.config.getoption("agentkit_record") in ("once", "all")


async def test_claude(cli_recording: CliRecorder, request) -> None:
    setup = SETUP["claude"]
    spawn = cli_recording("claude")
    with _api() as api:
        env = {{**setup["env"], "ANTHROPIC_BASE_URL": api.url}}
        cognition = ClaudeCliCognition(
            spawn, executable=setup["executable"], env=env, cwd=setup["cwd"],
            model=setup["model"], timeout=120.0,
        )
        result = await cognition.drive(make_test_ctx(), PROMPT)
        asked = len(api.requests_to("/v1/messages"))
    assert result.error is None, result.error
    assert result.text == ANSWER
    if not _recording(request):
        assert asked == 0, "a replay reached the model API: a real claude ran"


async def test_codex(cli_recording: CliRecorder, request) -> None:
    setup = SETUP["codex"]
    spawn = cli_recording("codex")
    with _api() as api:
        home = Path(setup["env"]["CODEX_HOME"])
        home.mkdir(parents=True, exist_ok=True)
        (home / "config.toml").write_text(setup["config_toml"].replace(BASE_URL, api.url))
        cognition = CodexCliCognition(
            spawn, executable=setup["executable"], env=setup["env"], cwd=setup["cwd"],
            model=setup["model"], timeout=120.0, extra_args=("--skip-git-repo-check",),
        )
        result = await cognition.drive(make_test_ctx(), PROMPT)
        asked = len(api.requests_to("/v1/responses"))
    assert result.error is None, result.error
    assert result.text == ANSWER
    if not _recording(request):
        assert asked == 0, "a replay reached the model API: a real codex ran"
'''


@dataclass
class RecordModes:
    """What the check found: problems (empty when the workflow held) and the files."""

    problems: list[str] = field(default_factory=list)
    recordings: list[Path] = field(default_factory=list)
    seconds: float = 0.0
    steps: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems


def _setup(binaries: Mapping[str, Path], root: Path) -> dict[str, object]:
    claude = Workdir.fresh(root, "claude")
    codex = Workdir.fresh(root, "codex")
    claude_environment = claude_env(claude, "http://127.0.0.1:9")
    del claude_environment["ANTHROPIC_BASE_URL"]  # the test's own API's, set by the test
    return {
        "claude": {
            "executable": str(binaries["claude"]),
            "env": claude_environment,
            "cwd": str(claude.project),
            "model": CLAUDE_MODEL,
        },
        "codex": {
            "executable": str(binaries["codex"]),
            "env": codex_env(codex),
            "cwd": str(codex.project),
            "model": CODEX_MODEL,
            "config_toml": codex_provider_toml(_BASE_URL),
        },
    }


def _pytest(
    project: Path, setup: Mapping[str, object], *args: str, prompt: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PARITY_RECORD_SETUP"] = json.dumps(setup)
    env.pop("PARITY_RECORD_PROMPT", None)
    if prompt is not None:
        env["PARITY_RECORD_PROMPT"] = prompt
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-c",
        str(project / "pytest.ini"),
        "--rootdir",
        str(project),
        *args,
        "test_recorded.py",
    ]
    return subprocess.run(
        command,
        cwd=project,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=_TIMEOUT,
        check=False,
    )


def _tail(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    return " | ".join(lines[-6:])


def _expect(
    outcome: RecordModes,
    step: str,
    done: subprocess.CompletedProcess[str],
    returncode: int,
    needles: Sequence[str],
) -> None:
    said = done.stdout + done.stderr
    missing = [n for n in needles if n not in said]
    if done.returncode != returncode or missing:
        outcome.problems.append(
            f"{step}: pytest exited {done.returncode} (expected {returncode})"
            + (f", its output lacks {missing}" if missing else "")
            + f": {_tail(done)}"
        )
    else:
        outcome.steps.append(f"{step}: ok")


def run_record_modes(binaries: Mapping[str, Path], work_root: Path) -> RecordModes:
    """Record once with the real CLIs, replay with the input checked; what went wrong."""
    outcome = RecordModes()
    started = time.monotonic()
    root = Workdir.fresh(work_root, "record-modes").root
    project = root / "tests"
    project.mkdir()
    (project / "pytest.ini").write_text("[pytest]\nasyncio_mode = auto\n")
    (project / "test_recorded.py").write_text(test_module())
    setup = _setup(binaries, root / "clis")
    folder = project / "recordings" / "test_recorded"
    files = {cli: folder / f"test_{cli}.jsonl" for cli in ("claude", "codex")}

    record = _pytest(project, setup, "--agentkit-record=once")
    _expect(outcome, "record once (real CLIs)", record, 0, ["2 passed"])
    for cli, path in files.items():
        if not path.is_file():
            outcome.problems.append(f"record once: no recording of {cli} at {path}")
            continue
        outcome.recordings.append(path)
        recording = load_recording(path)
        if recording.cli != cli or ANSWER.encode() not in recording.run.stdout:
            outcome.problems.append(f"record once: {path.name} is not {cli}'s answer")
    if outcome.problems:
        outcome.seconds = time.monotonic() - started
        return outcome

    _expect(outcome, "replay (mode none)", _pytest(project, setup), 0, ["2 passed"])
    changed = _pytest(project, setup, prompt=_CHANGED_PROMPT)
    _expect(outcome, "replay, prompt changed", changed, 1, ["2 failed", "ReplayMismatch"])
    files["codex"].rename(files["codex"].with_suffix(".kept"))
    missing = _pytest(project, setup, "-k", "codex")
    _expect(outcome, "replay, recording missing", missing, 1, ["--agentkit-record=once"])
    files["codex"].with_suffix(".kept").rename(files["codex"])
    outcome.seconds = time.monotonic() - started
    return outcome
