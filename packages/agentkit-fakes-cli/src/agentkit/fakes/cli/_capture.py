"""CapturingSpawn: record what a REAL CLI did, spawn by spawn, as Recordings.

A double is worth what it shares with the real CLI, and the cheapest way to
share everything is to replay what the real CLI wrote. So the capture sits
exactly where the doubles sit -- at the :class:`~agentkit.core.ports.SpawnPort`
seam -- and wraps the real spawn a cognition is given::

    capture = CapturingSpawn(default_spawn, cli="claude")
    await ClaudeCliCognition(spawn=capture).drive(ctx, "hi")
    save_recording(capture.recordings[0], "tests/recordings/hi.jsonl")

What is recorded is what the caller SAW through the pipes: the stdout bytes
it read, each stderr chunk it read placed at the number of stdout bytes read
by then, each stdin write placed the same way, and the exit code ``wait()``
returned -- the same positions :class:`~agentkit.fakes.cli.CliRun` replays.
stderr read after stdout reached its end is the run's stderr "at exit".

One deliberate difference from the pipe underneath: the wrapped reader asks
the real spawn for a far larger line limit and applies the caller's
``limit`` itself, the way the doubles do. asyncio's reader throws away a line
longer than the limit before anyone sees it; the capture must keep those
bytes, or the replay would lack the very line whose loss the cognition
reported.

Environment VALUES are never stored (names only), and everything stored is
scrubbed of secrets first (:mod:`agentkit.fakes.cli._scrub`).
"""

from __future__ import annotations

import datetime
import os
import re
import subprocess
from collections.abc import Mapping, Sequence
from typing import Literal

from agentkit.core.arguments import (
    ArgumentTypeError,
    check_str,
    hide_argument_errors,
)
from agentkit.core.ports import ProcessPort, SpawnPort, StreamReaderPort, StreamWriterPort
from agentkit.fakes.cli._recording import Recording, check_cli
from agentkit.fakes.cli._run import CliRun
from agentkit.fakes.cli._scrub import Scrubber
from agentkit.fakes.cli._streams import LIMIT_FOUND, LIMIT_NOT_FOUND

__all__ = ["CapturingSpawn"]

__tracebackhide__ = hide_argument_errors

_CAPTURE_LIMIT = 1 << 30
"""The line limit the real reader gets, so no over-limit line is lost before it is recorded."""


class _Tape:
    """What one spawn did, in the order the caller saw it."""

    __slots__ = ("stderr_at_exit", "stderr_chunks", "stdin", "stdout", "stdout_eof")

    def __init__(self) -> None:
        self.stdout = bytearray()
        self.stdout_eof = False
        self.stderr_chunks: list[tuple[int, bytes]] = []
        self.stderr_at_exit = bytearray()
        self.stdin: list[tuple[int, bytes]] = []

    def stdout_read(self, data: bytes) -> None:
        self.stdout += data

    def stderr_read(self, data: bytes) -> None:
        if not data:
            return
        if self.stdout_eof:
            self.stderr_at_exit += data
        else:
            self.stderr_chunks.append((len(self.stdout), bytes(data)))


class _TapedReader:
    """A caller's pipe that puts every byte it hands over on the tape (see :meth:`_taken`)."""

    __slots__ = ("_inner", "_tape")

    def __init__(self, inner: StreamReaderPort, tape: _Tape) -> None:
        self._inner = inner
        self._tape = tape

    def _taken(self, data: bytes, n: int) -> None:
        raise NotImplementedError

    async def readline(self) -> bytes:
        line = await self._inner.readline()
        self._taken(line, -1)
        return line

    async def read(self, n: int = -1) -> bytes:
        data = await self._inner.read(n)
        self._taken(data, n)
        return data

    def at_eof(self) -> bool:
        return self._inner.at_eof()


class _StdoutReader(_TapedReader):
    """The caller's stdout: records every byte, applies the caller's line limit."""

    __slots__ = ("_limit",)

    def __init__(self, inner: StreamReaderPort, tape: _Tape, limit: int) -> None:
        super().__init__(inner, tape)
        self._limit = limit

    def _taken(self, data: bytes, n: int) -> None:
        self._tape.stdout_read(data)
        if not data and n != 0:
            self._tape.stdout_eof = True

    async def readline(self) -> bytes:
        line = await super().readline()
        if line.endswith(b"\n"):
            if len(line) - 1 > self._limit:
                raise ValueError(LIMIT_FOUND)
        elif len(line) > self._limit:
            raise ValueError(LIMIT_NOT_FOUND)
        return line


class _StderrReader(_TapedReader):
    __slots__ = ()

    def _taken(self, data: bytes, n: int) -> None:
        self._tape.stderr_read(data)


class _StdinWriter:
    __slots__ = ("_inner", "_tape")

    def __init__(self, inner: StreamWriterPort, tape: _Tape) -> None:
        self._inner = inner
        self._tape = tape

    def write(self, data: bytes) -> None:
        self._inner.write(data)
        self._tape.stdin.append((len(self._tape.stdout), bytes(data)))

    async def drain(self) -> None:
        await self._inner.drain()

    def close(self) -> None:
        self._inner.close()

    def is_closing(self) -> bool:
        return self._inner.is_closing()


class _CapturedProcess:
    """The real process, with its pipes wrapped; everything else passes through."""

    def __init__(self, inner: ProcessPort, tape: _Tape, limit: int) -> None:
        self._inner = inner
        self._exit_code: int | None = None
        out, err, stdin = inner.stdout, inner.stderr, inner.stdin
        self._stdout = _StdoutReader(out, tape, limit) if out is not None else None
        self._stderr = _StderrReader(err, tape) if err is not None else None
        self._stdin = _StdinWriter(stdin, tape) if stdin is not None else None

    @property
    def stdin(self) -> _StdinWriter | None:
        return self._stdin

    @property
    def stdout(self) -> _StdoutReader | None:
        return self._stdout

    @property
    def stderr(self) -> _StderrReader | None:
        return self._stderr

    @property
    def returncode(self) -> int | None:
        return self._inner.returncode

    @property
    def pid(self) -> int:
        return self._inner.pid

    @property
    def exit_code(self) -> int | None:
        """What ``wait()`` returned, once it has."""
        if self._exit_code is None:
            return self._inner.returncode
        return self._exit_code

    async def wait(self) -> int:
        code = await self._inner.wait()
        self._exit_code = code
        return code

    def terminate(self) -> None:
        self._inner.terminate()

    def kill(self) -> None:
        self._inner.kill()


class _Spawned:
    __slots__ = ("argv", "created_at", "cwd", "env_names", "process", "scrubber", "tape")

    def __init__(
        self,
        argv: tuple[str, ...],
        cwd: str | None,
        env_names: tuple[str, ...],
        scrubber: Scrubber,
        process: _CapturedProcess,
        tape: _Tape,
    ) -> None:
        self.argv = argv
        self.cwd = cwd
        self.env_names = env_names
        self.scrubber = scrubber
        self.process = process
        self.tape = tape
        self.created_at = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


class CapturingSpawn:
    """A :class:`~agentkit.core.ports.SpawnPort` that records each spawn it passes on.

    ``spawn`` is the real spawn (agentkit's ``default_spawn``, or
    ``asyncio.create_subprocess_exec``); ``cli`` says which CLI it runs, so
    the recordings replay through the right double. ``scrub`` adds the
    caller's own secrets (a str literally, an ``re.Pattern`` as a pattern) to
    the ones scrubbed by default. ``source`` (how the recordings were made)
    and ``cli_version`` are written into every recording, because a fixture
    whose origin nobody can tell is one nobody dares to refresh.

    :attr:`recordings` holds one :class:`~agentkit.fakes.cli.Recording` per
    spawn whose process has exited, in spawn order; :attr:`running` counts
    the spawns that have not. Reading a recording of a spawn still running
    would give a cut-short run with no exit code, so it is not offered.
    """

    def __init__(
        self,
        spawn: SpawnPort,
        *,
        cli: Literal["claude", "codex"],
        scrub: Sequence[str | re.Pattern[str] | re.Pattern[bytes]] = (),
        source: str = "",
        cli_version: str | None = None,
    ) -> None:
        if not callable(spawn):
            raise ArgumentTypeError(
                "CapturingSpawn", "spawn", "a SpawnPort (e.g. default_spawn)", spawn
            )
        self._cli = check_cli(cli, "CapturingSpawn")
        self._extra = Scrubber.compile_user_patterns(scrub)
        self._source = check_str(source, "CapturingSpawn", "source")
        if cli_version is not None:
            check_str(cli_version, "CapturingSpawn", "cli_version", empty=False)
        self._spawn = spawn
        self._version = cli_version
        self._spawned: list[_Spawned] = []

    @property
    def cli(self) -> str:
        return self._cli

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
    ) -> ProcessPort:
        if stderr == subprocess.STDOUT:
            raise ValueError(
                "CapturingSpawn cannot tell stdout from stderr merged into it (stderr=STDOUT)"
            )
        if isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0:
            raise ValueError(f"limit must be a positive int, got {limit!r}")
        # The scrubber is built before the spawn, from the env the child gets.
        scrubber = Scrubber(env=env, extra=self._extra)
        inner = await self._spawn(
            program,
            *args,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            cwd=cwd,
            env=env,
            limit=max(limit, _CAPTURE_LIMIT),
            start_new_session=start_new_session,
        )
        tape = _Tape()
        process = _CapturedProcess(inner, tape, limit)
        names = tuple(env) if env is not None else tuple(os.environ)
        self._spawned.append(_Spawned((program, *args), cwd, names, scrubber, process, tape))
        return process

    @property
    def running(self) -> int:
        """Spawns whose process has not exited yet (not in :attr:`recordings`)."""
        return sum(1 for s in self._spawned if s.process.exit_code is None)

    @property
    def recordings(self) -> list[Recording]:
        """One scrubbed :class:`Recording` per exited spawn, in spawn order."""
        return [self._recording(s) for s in self._spawned if s.process.exit_code is not None]

    def _recording(self, spawned: _Spawned) -> Recording:
        tape = spawned.tape
        scrub = spawned.scrubber
        code = spawned.process.exit_code
        assert code is not None
        marks = [offset for offset, _ in tape.stderr_chunks] + [o for o, _ in tape.stdin]
        stdout, moved = scrub.stream(bytes(tape.stdout), marks)
        count = len(tape.stderr_chunks)
        stderr_chunks = tuple(
            (offset, scrub.data(data))
            for offset, (_, data) in zip(moved[:count], tape.stderr_chunks, strict=True)
        )
        stdin = tuple(
            (offset, scrub.data(data))
            for offset, (_, data) in zip(moved[count:], tape.stdin, strict=True)
        )
        return Recording(
            cli=self._cli,
            argv=tuple(scrub.text(arg) for arg in spawned.argv),
            run=CliRun(
                stdout=stdout,
                stderr=scrub.data(bytes(tape.stderr_at_exit)),
                returncode=code,
                interleaved_stderr=stderr_chunks,
            ),
            cli_version=self._version,
            cwd=scrub.text(spawned.cwd) if spawned.cwd is not None else None,
            env_names=spawned.env_names,
            stdin=stdin,
            created_at=spawned.created_at,
            source=self._source,
        )
