"""Recordings per test: a test replays the CLI run it recorded once, stored beside it.

The workflow of vcrpy / pytest-recording, for the claude and codex CLIs.
A test asks the ``cli_recording`` fixture for a spawn and hands it to its
cognition::

    async def test_weather(cli_recording: CliRecorder) -> None:
        spawn = cli_recording("claude")
        result = await ClaudeCliCognition(spawn).drive(make_test_ctx(), "Weather?")

Its recording lives beside the test, in
``recordings/<test module>/<test>.jsonl`` (a second spawn in
``<test>.2.jsonl``, and so on), and is committed with it. ``<test>`` is one
name per test, never shared: the test's class, name and parameter id,
readable, and a short hash of them where that text alone might not be
unique (the CLI guide's "Recordings per test" shows the names). What the
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
  recording is written when the test ends. The folder is checked first:
  a recording that could not be written fails the test before the real
  CLI runs.
- ``all``: every test runs the real CLI and its recording is rewritten.

Real processes start only in ``once`` / ``all``, and only for the tests
being recorded: the agentkit plugin's block on real processes stays in
force everywhere else. A recording is written when its test ends, passed or
failed -- like a cassette -- so look at a failed test's new recording
(``python -m agentkit.fakes.cli show FILE``) before committing it. A
session interrupted (Ctrl-C) while a test records writes nothing for that
test: the run was cut short, and a recording of it would replay the kill.

Registered through the ``pytest11`` entry point ``agentkit_cli`` of
agentkit-fakes-cli; pytest is imported by this module only.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shlex
import stat
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple, Unpack, cast

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
_SESSION = "agentkit_cli_recording_session"


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
    config.pluginmanager.register(_Session(), _SESSION)


def _mode(config: pytest.Config) -> str:
    value = config.getoption("agentkit_record", None) or config.getini("agentkit_record")
    if value not in MODES:
        raise pytest.UsageError(f"agentkit_record = {value!r}: it takes one of {MODES}")
    return str(value)


class _Session:
    """What the fixture needs to know of the session: was it interrupted (Ctrl-C, pytest.exit)?

    An interrupted session tears the running test's fixtures down at its
    end, so without this the recorder would write the run the interruption
    cut short -- a well-formed recording of a kill, replayed from then on.
    What was not written for that reason is said in the terminal summary:
    the test's own report is never printed.
    """

    def __init__(self) -> None:
        self.interrupted = False
        self.discarded: list[str] = []

    def pytest_keyboard_interrupt(self) -> None:
        self.interrupted = True

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self.discarded:
            return
        terminalreporter.write_sep("=", "cli_recording: interrupted, not written")
        for line in self.discarded:
            terminalreporter.write_line(line)


def _problem(error: OSError) -> str:
    """An OSError as a reader wants it: what went wrong, without the errno's number."""
    return error.strerror or str(error)


def _in_module(node: pytest.Item) -> str:
    """The test's id inside its module: ``TestClass::test_name[param]``."""
    module = node.getparent(pytest.Module)
    if module is None:
        return node.nodeid.partition("::")[2] or node.name
    chain = node.listchain()
    return "::".join(item.name for item in chain[chain.index(module) + 1 :])


def _is_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return False


async def _real_spawn(program: str, *args: str, **options: Unpack[SpawnOptions]) -> ProcessPort:
    """The real CLI, asking the process guard first like agentkit's own real spawn."""
    process_guard.ensure_real_process_allowed((program, *args))
    options.setdefault("limit", DEFAULT_STREAM_LIMIT)
    process = await asyncio.create_subprocess_exec(program, *args, **options)
    return cast(ProcessPort, process)


class _Capture(NamedTuple):
    spawn: CapturingSpawn
    cli: str
    name: str | None


class CliRecorder:
    """The ``cli_recording`` fixture: call it for the spawn of one CLI in this test.

    One per test, made by the fixture, which writes its recordings when the
    test ends (:meth:`finish`).
    """

    def __init__(self, request: pytest.FixtureRequest) -> None:
        from agentkit.fakes.cli._per_test import stem_of

        self._mode = _mode(request.config)
        node = request.node
        path = Path(node.path)
        self._folder = path.parent / "recordings" / path.stem
        self._stem = stem_of(_in_module(node))
        self._test_name = node.name
        self._nodeid = node.nodeid
        self._session = cast(_Session, request.config.pluginmanager.get_plugin(_SESSION))
        self._names: set[str] = set()
        self._captures: list[_Capture] = []
        self._made: list[Path] = []
        self._stack = ExitStack()

    def __call__(
        self,
        cli: Literal["claude", "codex"],
        name: str | None = None,
        *,
        check_input: bool = True,
        scrub: Sequence[str | re.Pattern[str] | re.Pattern[bytes]] = (),
    ) -> SpawnPort:
        """A spawn replaying (or, in a record mode, recording) this test's run of ``cli``.

        ``name`` names the recording within the test (``STEM@NAME.jsonl``;
        letters, digits, ``_`` and ``-``): a test that runs both CLIs names
        one of them. ``check_input=False`` replays without checking argv and
        stdin. ``scrub`` adds the test's own secrets to the ones scrubbed
        from a recording by default, as ``CapturingSpawn(scrub=)`` does.
        """
        __tracebackhide__ = True
        from agentkit.core._internal.arguments import ArgumentValueError, check_bool, check_str
        from agentkit.fakes.cli._per_test import MAX_NAME, valid_name
        from agentkit.fakes.cli._recording import check_cli
        from agentkit.fakes.cli._recording._scrub import Scrubber

        where = "cli_recording"
        cli = check_cli(cli, where)
        check_bool(check_input, where, "check_input")
        Scrubber.compile_user_patterns(scrub, where)
        if name is not None and not valid_name(check_str(name, where, "name", empty=False)):
            raise ArgumentValueError(
                where,
                "name",
                f"at most {MAX_NAME} letters, digits, '_' and '-' (the files add the rest)",
                name,
            )
        key = "" if name is None else name.casefold()  # one file on a case-blind file system
        if key in self._names:
            shown = "the default (no name)" if name is None else repr(name)
            pytest.fail(
                f"cli_recording: this test already has a recording named {shown}; "
                "give each CLI of the test its own name=",
                pytrace=False,
            )
        self._names.add(key)
        files = self._existing(name)
        if self._mode == "all" or (self._mode == "once" and not files):
            return self._record(cli, name, scrub)
        if not files:
            pytest.fail(self._missing(cli, name), pytrace=False)
        from agentkit.fakes.cli import FakeClaudeCli, FakeCodexCli

        double = FakeClaudeCli if cli == "claude" else FakeCodexCli
        again = f"pytest {_OPTION}=all {shlex.quote(self._nodeid)}"
        return double.replay(*files, check_input=check_input, rerecord=again)

    def _path(self, name: str | None, spawn: int = 1) -> Path:
        from agentkit.fakes.cli._per_test import file_name

        return self._folder / file_name(self._stem, name, spawn)

    def _existing(self, name: str | None) -> list[Path]:
        """The recording files of ``name``, in spawn order: STEM.jsonl, STEM.2.jsonl, ..."""
        __tracebackhide__ = True
        found: list[Path] = []
        path = self._path(name)
        try:
            while _is_file(path):
                found.append(path)
                path = self._path(name, len(found) + 1)
        except OSError as error:
            pytest.fail(
                f"cli_recording: cannot look for the recording {path}: {_problem(error)}",
                pytrace=False,
            )
        return found

    def _missing(self, cli: str, name: str | None) -> str:
        from agentkit.fakes.cli._per_test import legacy_stem

        target = self._path(name)
        text = (
            f"cli_recording: no recording of {cli} for this test: {target} does not exist.\n"
            f"Record it once with the real {cli} (it must be installed and logged in):\n"
            f"    pytest {_OPTION}=once {shlex.quote(self._nodeid)}\n"
            "then look at it (python -m agentkit.fakes.cli show FILE) and commit it with the test."
        )
        old = self._folder / f"{legacy_stem(self._test_name, name)}.jsonl"
        try:
            found = old != target and _is_file(old)
        except OSError:  # a name too long for the file system: no such file, then
            found = False
        if found:
            text += (
                f"\n{old.name} in that folder has the name earlier versions of cli_recording "
                f"gave this test's recording; if it is this test's, rename it (with its "
                f".2.jsonl, ... files):\n    git mv {shlex.quote(str(old))} "
                f"{shlex.quote(str(target))}"
            )
        return text

    def _record(
        self,
        cli: Literal["claude", "codex"],
        name: str | None,
        scrub: Sequence[str | re.Pattern[str] | re.Pattern[bytes]],
    ) -> SpawnPort:
        __tracebackhide__ = True
        from agentkit.fakes.cli._recording._capture import CapturingSpawn

        self._check_writable(name)
        if not self._captures:
            # Only a test being recorded may start the real CLI.
            self._stack.enter_context(process_guard.allow_real_processes())
        capture = CapturingSpawn(
            _real_spawn,
            cli=cli,
            scrub=scrub,
            source=f"cli_recording; recorded again by: pytest {_OPTION}=all "
            f"{shlex.quote(self._nodeid)}",
        )
        self._captures.append(_Capture(capture, cli, name))
        return capture

    def _check_writable(self, name: str | None) -> None:
        """Before the real CLI runs: can this recording be written at all?

        Found out at the end, a read-only folder or a name the file system
        refuses would cost a real (maybe paid) run and then lose it.
        """
        __tracebackhide__ = True
        import tempfile

        folder = self._folder
        target = self._path(name)
        try:
            missing: list[Path] = []
            while not folder.exists():
                missing.append(folder)
                folder = folder.parent
            self._folder.mkdir(parents=True, exist_ok=True)
            self._made.extend(reversed(missing))
        except FileExistsError as error:
            problem = f"{error.filename or folder} is a file, not a folder"
        except OSError as error:
            problem = f"{error.filename or self._folder}: {_problem(error)}"
        else:
            try:
                handle, probe = tempfile.mkstemp(dir=self._folder, prefix=".probe-")
                os.close(handle)
                os.unlink(probe)
            except OSError as error:
                problem = f"no file can be made in {self._folder}: {_problem(error)}"
            else:
                if not target.exists() or _is_file(target):
                    return
                problem = f"{target} is there, and is not a file"
        pytest.fail(
            f"cli_recording: cannot write the recording {target.name}: {problem}. "
            "The real CLI was not run: make the recordings folder writable, or replay "
            "(the default mode).",
            pytrace=False,
        )

    def finish(self) -> None:
        """Write the recordings of the spawns recorded in this test; say what went wrong.

        Each file is written on its own: one that cannot be written is
        reported and the others still are. After an interrupted session
        (Ctrl-C) nothing is written: the run was cut short.
        """
        __tracebackhide__ = True
        self._stack.close()
        if self._session.interrupted:
            self._discard()
            return
        from agentkit.fakes.cli._recording import RecordingError, save_recording

        problems: list[str] = []
        for capture, cli, name in self._captures:
            if capture.running:
                problems.append(
                    f"{self._path(name).name}: {capture.running} {cli} process(es) still "
                    "running when the test ended; nothing was recorded for them (await the "
                    "cognition to the end)"
                )
            recordings = capture.recordings
            if not recordings:
                problems.append(
                    f"{self._path(name).name}: the test never spawned {cli}; nothing was recorded"
                )
                continue
            for spawn, recording in enumerate(recordings, start=1):
                target = self._path(name, spawn)
                try:
                    save_recording(recording, target)
                except RecordingError as error:
                    problems.append(f"{target.name}: not written: {error}")
                except OSError as error:
                    problems.append(f"{target.name}: not written: {_problem(error)}")
            spawn = len(recordings) + 1
            while _is_file(stale := self._path(name, spawn)):  # from a longer earlier run
                try:
                    stale.unlink()
                except OSError as error:
                    problems.append(f"{stale.name}: left over, not removed: {_problem(error)}")
                spawn += 1
        self._tidy()
        if problems:
            where = f"cli_recording, in {self._folder}:\n  "
            pytest.fail(where + "\n  ".join(problems), pytrace=False)

    def _discard(self) -> None:
        """The session was interrupted: write nothing, and say what was not written."""
        for _, _, name in self._captures:
            kept = "kept as it was" if _is_file(self._path(name)) else "still missing"
            self._session.discarded.append(
                f"{self._nodeid}: {self._path(name)} not written, the run was cut short "
                f"({kept}); record it again: pytest {_OPTION}={self._mode} "
                f"{shlex.quote(self._nodeid)}"
            )
        self._tidy()

    def _tidy(self) -> None:
        """Remove the folders made for recordings that were not written (empty ones only)."""
        for folder in self._made:
            with contextlib.suppress(OSError):
                folder.rmdir()


@pytest.fixture
def cli_recording(request: pytest.FixtureRequest) -> Iterator[CliRecorder]:
    """A spawn per CLI for this test: its recording replayed, or (record modes) recorded."""
    recorder = CliRecorder(request)
    yield recorder
    recorder.finish()
