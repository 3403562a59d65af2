"""Recordings per test: a test replays the CLI run it recorded once, stored beside it.

The workflow of vcrpy / pytest-recording, for the claude and codex CLIs.
A test asks the ``cli_recording`` fixture for a spawn and hands it to its
cognition::

    async def test_weather(cli_recording: CliRecorder) -> None:
        spawn = cli_recording("claude")
        result = await ClaudeCliCognition(spawn).drive(make_test_ctx(), "Weather?")

Its recording lives beside the test, in
``recordings/<test module>/<test name>.jsonl`` (a second spawn in
``<test name>.2.jsonl``, and so on), and is committed with it. What the
fixture hands out depends on the record mode, ``--agentkit-record=MODE``
(or the ini option ``agentkit_record``):

- ``none`` (the default): replay only. The spawn is a
  :class:`~agentkit.fakes.cli.FakeClaudeCli` / ``FakeCodexCli`` over the
  test's recording, checking its input (a changed prompt or flag fails with
  a diff instead of replaying a stale answer) and verified like every
  double (a recorded spawn the test never made fails it). A missing
  recording fails the test saying how to record it. No real process starts.
- ``once``: a test with a recording replays it; a test without one runs the
  REAL CLI through :class:`~agentkit.fakes.cli.CapturingSpawn` (secrets
  scrubbed, and the secret gate run before the file is written) and its
  recording is written when the test ends.
- ``all``: every test runs the real CLI and its recording is rewritten.

Real processes start only in ``once`` / ``all``, and only for the tests
being recorded: the agentkit plugin's block on real processes stays in
force everywhere else. A recording is written when its test ends, passed or
failed -- like a cassette -- so look at a failed test's new recording
(``python -m agentkit.fakes.cli show FILE``) before committing it.

Registered through the ``pytest11`` entry point ``agentkit_cli`` of
agentkit-fakes-cli; pytest is imported by this module only.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Unpack, cast

import pytest

from agentkit.core.ports import DEFAULT_STREAM_LIMIT, ProcessPort, SpawnOptions, SpawnPort
from agentkit.core.verification import process_guard

if TYPE_CHECKING:
    # Imported when a test asks for the fixture: the plugin loads in every pytest session.
    from agentkit.fakes.cli._recording._capture import CapturingSpawn

__all__ = ["MODES", "CliRecorder", "cli_recording"]

MODES = ("none", "once", "all")
"""The record modes: replay only; record what is missing; re-record everything."""

_OPTION = "--agentkit-record"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.\-]+")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("agentkit", "agentkit")
    group.addoption(
        _OPTION,
        choices=MODES,
        default=None,
        dest="agentkit_record",
        help="cli_recording: none = replay only (default); once = record the tests with no "
        "recording, with the real CLI; all = re-record every test with the real CLI",
    )
    parser.addini(
        "agentkit_record", f"the default of {_OPTION} (none, once or all)", default="none"
    )


def pytest_configure(config: pytest.Config) -> None:
    _mode(config)  # a wrong ini value is refused before any test runs


def _mode(config: pytest.Config) -> str:
    value = config.getoption("agentkit_record", None) or config.getini("agentkit_record")
    if value not in MODES:
        raise pytest.UsageError(f"agentkit_record = {value!r}: it takes one of {MODES}")
    return str(value)


def _files(folder: Path, name: str) -> list[Path]:
    """One test's recording files, in spawn order: NAME.jsonl, NAME.2.jsonl, ..."""
    found: list[Path] = []
    path = folder / f"{name}.jsonl"
    while path.is_file():
        found.append(path)
        path = folder / f"{name}.{len(found) + 1}.jsonl"
    return found


async def _real_spawn(program: str, *args: str, **options: Unpack[SpawnOptions]) -> ProcessPort:
    """The real CLI, asking the process guard first like agentkit's own real spawn."""
    process_guard.ensure_real_process_allowed((program, *args))
    options.setdefault("limit", DEFAULT_STREAM_LIMIT)
    process = await asyncio.create_subprocess_exec(program, *args, **options)
    return cast(ProcessPort, process)


class CliRecorder:
    """The ``cli_recording`` fixture: call it for the spawn of one CLI in this test.

    One per test, made by the fixture, which writes its recordings when the
    test ends (:meth:`finish`).
    """

    def __init__(self, request: pytest.FixtureRequest) -> None:
        self._mode = _mode(request.config)
        path = Path(request.node.path)
        self._folder = path.parent / "recordings" / path.stem
        self._test = _UNSAFE.sub("-", request.node.name).strip("-") or "test"
        self._nodeid = request.node.nodeid
        self._names: set[str] = set()
        self._captures: list[tuple[CapturingSpawn, str, str]] = []
        self._stack = ExitStack()

    def __call__(
        self,
        cli: Literal["claude", "codex"],
        name: str | None = None,
        *,
        check_input: bool = True,
    ) -> SpawnPort:
        """A spawn replaying (or, in a record mode, recording) this test's run of ``cli``.

        ``name`` is the recording's file name without ``.jsonl`` (default: the
        test's name); a test that runs both CLIs names one of them.
        ``check_input=False`` replays without checking argv and stdin.
        """
        __tracebackhide__ = True
        from agentkit.core.arguments import ArgumentTypeError, check_bool, check_str
        from agentkit.fakes.cli._recording import check_cli

        where = "cli_recording"
        cli = check_cli(cli, where)
        check_bool(check_input, where, "check_input")
        if name is None:
            name = self._test
        elif check_str(name, where, "name", empty=False) != _UNSAFE.sub("-", name):
            raise ArgumentTypeError(
                where, "name", "a file name of letters, digits, '_', '.' and '-'", name
            )
        if name in self._names:
            pytest.fail(
                f"cli_recording: this test already has a recording named {name!r}; "
                "give each CLI of the test its own name=",
                pytrace=False,
            )
        self._names.add(name)
        files = _files(self._folder, name)
        if self._mode == "all" or (self._mode == "once" and not files):
            return self._record(cli, name)
        if not files:
            pytest.fail(
                f"cli_recording: no recording of {cli} for this test: "
                f"{self._folder / name}.jsonl does not exist.\n"
                f"Record it once with the real {cli} (it must be installed and logged in):\n"
                f"    pytest {_OPTION}=once {self._nodeid}\n"
                "then look at it (python -m agentkit.fakes.cli show FILE) and commit it "
                "with the test.",
                pytrace=False,
            )
        from agentkit.fakes.cli import FakeClaudeCli, FakeCodexCli

        double = FakeClaudeCli if cli == "claude" else FakeCodexCli
        return double.replay(*files, check_input=check_input)

    def _record(self, cli: Literal["claude", "codex"], name: str) -> SpawnPort:
        from agentkit.fakes.cli._recording._capture import CapturingSpawn

        if not self._captures:
            # Only a test being recorded may start the real CLI.
            self._stack.enter_context(process_guard.allow_real_processes())
        capture = CapturingSpawn(
            _real_spawn, cli=cli, source=f"pytest {_OPTION}={self._mode} {self._nodeid}"
        )
        self._captures.append((capture, cli, name))
        return capture

    def finish(self) -> None:
        """Write the recordings of the spawns recorded in this test; say what went wrong."""
        __tracebackhide__ = True
        from agentkit.fakes.cli._recording import RecordingError, save_recording

        self._stack.close()
        problems: list[str] = []
        for capture, cli, name in self._captures:
            if capture.running:
                problems.append(
                    f"{name}: {capture.running} {cli} process(es) still running when the test "
                    "ended; nothing was recorded for them (await the cognition to the end)"
                )
            recordings = capture.recordings
            if not recordings:
                problems.append(f"{name}: the test never spawned {cli}; nothing was recorded")
                continue
            for stale in _files(self._folder, name):
                stale.unlink()
            for index, recording in enumerate(recordings):
                suffix = "" if index == 0 else f".{index + 1}"
                try:
                    save_recording(recording, self._folder / f"{name}{suffix}.jsonl")
                except RecordingError as error:
                    problems.append(f"{name}: not written: {error}")
        if problems:
            pytest.fail("cli_recording:\n  " + "\n  ".join(problems), pytrace=False)


@pytest.fixture
def cli_recording(request: pytest.FixtureRequest) -> Iterator[CliRecorder]:
    """A spawn per CLI for this test: its recording replayed, or (record modes) recorded."""
    recorder = CliRecorder(request)
    yield recorder
    recorder.finish()
