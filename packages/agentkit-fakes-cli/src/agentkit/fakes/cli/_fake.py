"""What the claude and codex doubles share: runs, a cursor, the spawn callable.

A double is called exactly like ``asyncio.create_subprocess_exec`` (the
:class:`~agentkit.core.ports.SpawnPort` shape), so a cognition takes it as
``spawn=`` and runs its own real parsing over the recorded bytes. Each call
consumes the next :class:`~agentkit.fakes.cli._run.CliRun` through the one
shared :class:`~agentkit.core.script.ScriptCursor` and returns a fresh
:class:`~agentkit.fakes.cli._process.FakeCliProcess` over it; the runs
themselves are immutable, so spawns never affect each other.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Self

from agentkit.core.arguments import ArgumentTypeError
from agentkit.core.script import ScriptCursor
from agentkit.fakes.cli._process import FakeCliProcess, Release
from agentkit.fakes.cli._run import CliInvocation, CliRun, Payload

if TYPE_CHECKING:
    # Only for annotations: pathlib costs a cold import several milliseconds.
    from pathlib import Path

__all__ = ["FakeCli"]


class FakeCli:
    """Base of :class:`FakeClaudeCli` and :class:`FakeCodexCli`."""

    _cli_name: ClassVar[str] = "cli"

    def __init__(self, runs: Sequence[CliRun] = (), *, repeat_last: bool = False) -> None:
        if isinstance(runs, CliRun):
            raise TypeError(f"{type(self).__name__} takes a sequence of CliRun; wrap one in a list")
        items = tuple(runs)
        for index, run in enumerate(items):
            if not isinstance(run, CliRun):
                raise TypeError(
                    f"{type(self).__name__}: run {index} must be a CliRun, got {type(run).__name__}"
                )
        self._cursor: ScriptCursor[CliRun] = ScriptCursor(
            items, repeat_last=repeat_last, what="run"
        )
        self.invocations: list[CliInvocation] = []

    @property
    def runs(self) -> tuple[CliRun, ...]:
        return self._cursor.items

    @property
    def remaining(self) -> int:
        """Runs not yet spawned. Never negative; zero after the last spawn."""
        return self._cursor.remaining

    @classmethod
    def replay(cls, path: Path | str, *more: Path | str, repeat_last: bool = False) -> Self:
        """Replay recorded session file(s), one spawn per file.

        The bytes are read now, once, and held immutably -- not streamed off
        disk per spawn. A recording that vanished or changed between
        construction and the spawn three layers down would surface inside
        the cognition's error handling, where a missing fixture is nearly
        unreadable; here it fails at construction with the path in the
        message. The same path given twice shares one buffer.
        """
        # A recording file replays whole (exit code, stderr); plain stdout still works.
        from agentkit.fakes.cli._files import read_recording_file
        from agentkit.fakes.cli._recording import replay_run

        where = f"{cls.__name__}.replay"
        cache: dict[str, CliRun] = {}
        runs: list[CliRun] = []
        given: tuple[object, ...] = (path, *more)
        paths: list[str | os.PathLike[str]] = []
        for index, p in enumerate(given):
            if not isinstance(p, str | os.PathLike):
                argument = "path" if index == 0 else f"paths[{index}]"
                raise ArgumentTypeError(where, argument, "a file path (str or PathLike)", p)
            paths.append(p)
        for p in paths:
            key = os.path.realpath(p)
            run = cache.get(key)
            if run is None:
                data = read_recording_file(where, p)
                run = replay_run(cls._cli_name, data, source=os.fspath(p))
                cache[key] = run
            runs.append(run)
        return cls(runs, repeat_last=repeat_last)

    @classmethod
    def script(
        cls,
        payloads: Iterable[Payload],
        *,
        stderr: bytes = b"",
        returncode: int = 0,
        repeat_last: bool = False,
    ) -> Self:
        """Assemble ONE spawn's output from payloads -- the case nobody recorded.

        See :meth:`CliRun.of` for how a payload becomes bytes: a raw str or
        bytes is written verbatim, which is how a truncated or non-JSON line
        is built. Several spawns are ``cls([CliRun.of(...), ...])``.
        """
        run = CliRun.of(payloads, stderr=stderr, returncode=returncode)
        return cls([run], repeat_last=repeat_last)

    def _release(self, run: CliRun, argv: tuple[str, ...], stdin: int | None) -> Release:
        return Release("at_once")

    async def __call__(
        self,
        program: str,
        *args: str,
        stdin: int | None = None,
        stdout: int | None = None,
        stderr: int | None = None,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        limit: int = 2**16,
        start_new_session: bool = False,
    ) -> FakeCliProcess:
        argv = (program, *args)
        for index, arg in enumerate(argv):
            if not isinstance(arg, str):
                raise TypeError(f"argv[{index}] must be a str, got {type(arg).__name__}: {arg!r}")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0:
            raise ValueError(f"limit must be a positive int, got {limit!r}")
        run = self._cursor.next()
        invocation = CliInvocation(
            argv=argv,
            cwd=cwd,
            env=dict(env) if env is not None else {},
            start_new_session=start_new_session,
        )
        self.invocations.append(invocation)
        return FakeCliProcess(
            run,
            invocation,
            index=len(self.invocations),
            limit=limit,
            release=self._release(run, argv, stdin),
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
        )
