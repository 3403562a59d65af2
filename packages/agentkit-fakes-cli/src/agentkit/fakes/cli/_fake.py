"""What the claude and codex doubles share: runs, a cursor, the spawn callable, verification.

A double is called exactly like ``asyncio.create_subprocess_exec`` (the
:class:`~agentkit.core.ports.SpawnPort` shape), so a cognition takes it as
``spawn=`` and runs its own real parsing over the recorded bytes. Each call
consumes the next :class:`~agentkit.fakes.cli._run.CliRun` through the one
shared :class:`~agentkit.core.verification.script.ScriptCursor` and returns a fresh
:class:`~agentkit.fakes.cli._process.FakeCliProcess` over it; the runs
themselves are immutable, so spawns never affect each other.

Strict by default (:class:`~agentkit.core.verification.VerifyingDouble`):
runs never spawned, a session message the recording has no answer for and
a replay whose input differs from the recording are recorded as violations,
which :meth:`assert_complete` -- and the pytest plugin at teardown -- turn
into one :class:`~agentkit.core.verification.VerificationError`.
``verify=False`` opts one double out, as for every other double.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Self, Unpack

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_bool,
    check_int,
    check_str,
)
from agentkit.core.verification import VerifyingDouble, Violation
from agentkit.core.verification.script import ScriptCursor, ScriptExhausted
from agentkit.fakes.cli._run import CliInvocation, CliRun, Payload

if TYPE_CHECKING:
    # Only for annotations: pathlib costs a cold import several milliseconds, and the
    # process model (with its stream doubles) loads at the first spawn.
    from pathlib import Path

    from agentkit.core.ports import ProcessPort, SpawnOptions
    from agentkit.fakes.cli._input_check import InputCheck, ReplayMismatch
    from agentkit.fakes.cli._process import FakeCliProcess, Release
    from agentkit.fakes.cli._recording import Recording

__all__ = ["FakeCli"]


class FakeCli(VerifyingDouble):
    """Base of :class:`FakeClaudeCli` and :class:`FakeCodexCli`."""

    _cli_name: ClassVar[str] = "cli"

    def __init__(
        self,
        runs: Sequence[CliRun] = (),
        *,
        repeat_last: bool = False,
        hang_when_unanswered: bool = False,
        verify: bool = True,
    ) -> None:
        where = type(self).__name__
        if isinstance(runs, CliRun):
            raise ArgumentTypeError(
                where, "runs", "a sequence of CliRun", runs, "wrap one run in a list"
            )
        if isinstance(runs, str | bytes | bytearray | Mapping) or not isinstance(runs, Iterable):
            raise ArgumentTypeError(where, "runs", "a sequence of CliRun", runs)
        items = tuple(runs)
        for index, run in enumerate(items):
            if not isinstance(run, CliRun):
                raise ArgumentTypeError(where, f"runs[{index}]", "a CliRun", run)
        check_bool(repeat_last, where, "repeat_last")
        self._cursor: ScriptCursor[CliRun] = ScriptCursor(
            items, repeat_last=repeat_last, what="run", where=where
        )
        self._hang = check_bool(hang_when_unanswered, where, "hang_when_unanswered")
        self._recordings: tuple[Recording | None, ...] = ()
        self._rerecord = ""
        """The command that records the replayed files again, for ReplayMismatch to print."""
        self._processes: list[FakeCliProcess] = []
        self.invocations: list[CliInvocation] = []
        self._init_verification(verify=verify)

    @property
    def runs(self) -> tuple[CliRun, ...]:
        return self._cursor.items

    @property
    def remaining(self) -> int:
        """Runs not yet spawned. Never negative; zero after the last spawn."""
        return self._cursor.remaining

    def argv(self, index: int = -1) -> tuple[str, ...]:
        """One spawn's argv, defaulting to the most recent."""
        if isinstance(index, bool) or not isinstance(index, int):
            raise ArgumentTypeError(f"{type(self).__name__}.argv", "index", "an int", index)
        try:
            return self.invocations[index].argv
        except IndexError:
            raise IndexError(
                f"no spawn at index {index}: {len(self.invocations)} spawn(s) so far"
            ) from None

    @classmethod
    def replay(
        cls,
        path: Path | str,
        *more: Path | str,
        repeat_last: bool = False,
        check_input: bool = False,
        hang_when_unanswered: bool = False,
        verify: bool = True,
        rerecord: str | None = None,
    ) -> Self:
        """Replay recorded file(s), one spawn per file.

        A recording file (:func:`~agentkit.fakes.cli.save_recording`) replays
        whole -- exit code, stderr and where it was written; a plain stdout
        ``.jsonl`` replays as that stdout with exit code 0. A file that is
        neither is refused here with a :class:`~agentkit.fakes.cli.RecordingError`
        naming it and the line.

        The bytes are read now, once, and held immutably -- not streamed off
        disk per spawn. A recording that vanished or changed between
        construction and the spawn three layers down would surface inside
        the cognition's error handling, where a missing fixture is nearly
        unreadable; here it fails at construction with the path in the
        message. The same path given twice shares one buffer.

        ``check_input=True`` also checks each spawn's argv, and each stdin
        message, against the recording, and raises
        :class:`~agentkit.fakes.cli.ReplayMismatch` with a diff on a
        difference (recording files only: plain stdout holds no argv).
        ``rerecord`` is the command that records the files again; the
        mismatch prints it, for a change that was intended.
        """
        # Imported here: a test built from CliRun never pays for json/re/difflib.
        from agentkit.fakes.cli._recording import replay_recording
        from agentkit.fakes.cli._recording._files import read_recording_file

        where = f"{cls.__name__}.replay"
        check = check_bool(check_input, where, "check_input")
        if rerecord is not None:
            check_str(rerecord, where, "rerecord", empty=False)
        given: tuple[object, ...] = (path, *more)
        paths: list[str | os.PathLike[str]] = []
        for index, p in enumerate(given):
            if not isinstance(p, str | os.PathLike):
                argument = "path" if index == 0 else f"paths[{index}]"
                raise ArgumentTypeError(where, argument, "a file path (str or PathLike)", p)
            paths.append(p)
        cache: dict[str, tuple[CliRun, Recording | None]] = {}
        runs: list[CliRun] = []
        recordings: list[Recording | None] = []
        for p in paths:
            key = os.path.realpath(p)
            loaded = cache.get(key)
            if loaded is None:
                data = read_recording_file(where, p)
                loaded = replay_recording(cls._cli_name, data, source=os.fspath(p))
                if check and loaded[1] is None:
                    raise ArgumentValueError(
                        where,
                        "check_input",
                        "False for a plain stdout file (it records no argv or stdin)",
                        check_input,
                        f"{os.fspath(p)!r} is not a recording file; capture one with "
                        "CapturingSpawn or python -m agentkit.fakes.cli record",
                    )
                cache[key] = loaded
            runs.append(loaded[0])
            recordings.append(loaded[1])
        double = cls(
            runs, repeat_last=repeat_last, hang_when_unanswered=hang_when_unanswered, verify=verify
        )
        if check:
            double._recordings = tuple(recordings)
            double._rerecord = rerecord or ""
        return double

    @classmethod
    def recorded(
        cls,
        name: str,
        *more: str,
        repeat_last: bool = False,
        check_input: bool = False,
        hang_when_unanswered: bool = False,
        verify: bool = True,
    ) -> Self:
        """Replay recordings shipped with agentkit-fakes-cli, by name, one spawn per name.

        ``FakeClaudeCli.recorded("text-answer")``; the names are listed by
        :func:`~agentkit.fakes.cli.recording_names` and in the package README.
        An unknown name raises an ``ArgumentValueError`` listing the known ones.
        """
        from agentkit.fakes.cli._library import recorded_paths

        where = f"{cls.__name__}.recorded"
        paths = recorded_paths(cls._cli_name, (name, *more), where)
        return cls.replay(
            *paths,
            repeat_last=repeat_last,
            check_input=check_input,
            hang_when_unanswered=hang_when_unanswered,
            verify=verify,
        )

    @classmethod
    def script(
        cls,
        payloads: Iterable[Payload],
        *,
        stderr: bytes = b"",
        returncode: int = 0,
        repeat_last: bool = False,
        hang_when_unanswered: bool = False,
        verify: bool = True,
    ) -> Self:
        """Assemble ONE spawn's output from payloads -- the case nobody recorded.

        See :meth:`CliRun.of` for how a payload becomes bytes: a raw str or
        bytes is written verbatim, which is how a truncated or non-JSON line
        is built. Several spawns are ``cls([CliRun.of(...), ...])``.
        """
        run = CliRun.of(payloads, stderr=stderr, returncode=returncode)
        return cls(
            [run], repeat_last=repeat_last, hang_when_unanswered=hang_when_unanswered, verify=verify
        )

    # ------------------------------------------------------------ verification

    def _leftovers(self) -> list[Violation]:
        found = self._session_leftovers()
        cursor = self._cursor
        if cursor.repeat_last or cursor.remaining == 0:
            return found
        total = len(cursor.items)
        return [
            *found,
            self._violation(
                "unspawned_runs",
                f"{cursor.remaining} of {total} runs were never spawned "
                f"(the code under test spawned the CLI {cursor.consumed} time(s))",
                "if the code stopped early, fix it; if the test claims more spawns than the "
                "run makes, remove the extra runs (or pass repeat_last=True for a run meant "
                "to be cut off by a limit)",
            ),
        ]

    def _session_leftovers(self) -> list[Violation]:
        """Sessions left running, and recorded turns a session never asked for."""
        found: list[Violation] = []
        for spawn, process in enumerate(self._processes, start=1):
            if process.left_running():
                found.append(
                    self._violation(
                        "session_not_closed",
                        f"spawn {spawn}'s child is still running: its stdin was never "
                        "closed and it was never terminated or killed",
                        "end the session in the code under test (close stdin, then await "
                        "wait()) or terminate it; a test driving the process itself ends it "
                        "before it returns",
                    )
                )
                continue
            unasked, total = process.unasked_turns()
            if unasked:
                found.append(
                    self._violation(
                        "unasked_turns",
                        f"spawn {spawn}'s session ended with {unasked} of its {total} "
                        "recorded turns never asked for",
                        "if the code under test stopped early, fix it; if the recording "
                        "holds more turns than the test claims, record a shorter session "
                        "(or pass verify=False)",
                    )
                )
        return found

    def _unanswered(self, spawn: int) -> None:
        detail = (
            f"spawn {spawn}'s session was written a message its recording has no answer for "
            "(every recorded turn was already answered)"
        )
        self._record_violation(
            "unanswered_message",
            detail,
            "if the code under test talked past the end, fix it; if the test means more "
            "turns, record them; for a timeout test pass hang_when_unanswered=True",
        )
        raise ScriptExhausted(f"{type(self).__name__}: {detail}")

    def _mismatch(self, error: ReplayMismatch) -> None:
        again = f": {error.rerecord}" if error.rerecord else ""
        self._record_violation(
            "replay_mismatch",
            f"spawn {error.spawn}: the {error.what} differs from the recording:\n{error.diff}",
            f"fix the code under test, or record the spawn again if the change is intended{again}",
        )

    # ------------------------------------------------------------------ spawn

    def _release(self, run: CliRun, argv: tuple[str, ...], stdin: int | None) -> Release:
        """When this CLI's child writes ``run``'s stdout; each CLI's double says it for its CLI.

        The base writes everything at once, as a one-shot CLI does.
        """
        from agentkit.fakes.cli._process import Release, ReleaseMode

        del run, argv, stdin
        return Release(ReleaseMode.AT_ONCE)

    async def __call__(
        self, program: str, *args: str, **options: Unpack[SpawnOptions]
    ) -> ProcessPort:
        """Spawn: the next run's fake child, typed as the port's process (what a real spawn gives).

        Called as :class:`~agentkit.core.ports.SpawnPort` is; the keywords are
        :class:`~agentkit.core.ports.SpawnOptions`, each taking the port's default.
        """
        from agentkit.core.ports import DEFAULT_STREAM_LIMIT, check_spawn_options
        from agentkit.fakes.cli._process import FakeCliProcess, ReleaseMode

        argv = (program, *args)
        where = f"{type(self).__name__}.__call__"
        check_spawn_options(options, where)
        check_str(program, where, "program", empty=False)
        for index, arg in enumerate(args):  # refused as the real default_spawn refuses them
            check_str(arg, where, f"args[{index}]")
        limit = check_int(options.get("limit", DEFAULT_STREAM_LIMIT), where, "limit", minimum=1)
        stdin = options.get("stdin")
        position = min(self._cursor.consumed, len(self._cursor.items) - 1)
        run = self._cursor.next()
        spawn = len(self.invocations) + 1
        release = self._release(run, argv, stdin)
        input_check: InputCheck | None = None
        recording = self._recordings[position] if self._recordings else None
        if recording is not None:
            from agentkit.fakes.cli._input_check import InputCheck

            input_check = InputCheck(
                type(self).__name__,
                spawn,
                recording,
                by_line=release.mode is ReleaseMode.PER_MESSAGE,
                report=self._mismatch,
                rerecord=self._rerecord,
            )
            input_check.argv(argv)
        env = options.get("env")
        invocation = CliInvocation(
            argv=argv,
            cwd=options.get("cwd"),
            env=dict(env) if env is not None else {},
            start_new_session=options.get("start_new_session", False),
        )
        self.invocations.append(invocation)
        process = FakeCliProcess(
            run,
            invocation,
            index=spawn,
            limit=limit,
            release=release,
            stdin=stdin,
            stdout=options.get("stdout"),
            stderr=options.get("stderr"),
            unanswered=None if self._hang else lambda: self._unanswered(spawn),
            input_check=input_check,
        )
        self._processes.append(process)
        return process
