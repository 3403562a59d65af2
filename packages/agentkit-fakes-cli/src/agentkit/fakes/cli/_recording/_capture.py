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

One deliberate difference from the pipe underneath: the capture frames the
caller's lines itself, over ``read()`` of the real pipe, applying the
caller's ``limit`` the way asyncio's reader does. asyncio's reader throws
away a line longer than the limit before anyone sees it; the capture keeps
the start of it (``limit + 1`` bytes, enough for a replay with the same
limit to refuse it the same way), and says in the recording's ``notes``
how much it cut; the word the cut went through is masked, since it may be
half a secret. Memory is bounded the same way: a CLI writing a gigabyte
without a newline costs about ``limit`` bytes, and stderr past
:data:`STDERR_KEEP` bytes is counted, not kept.

Environment VALUES are never stored (names only), and only the names the
run SET (:func:`set_names`): an inherited environment is the recording
machine's (``PS1``, ``OLDPWD``, ...), and naming it would make every
re-record on another machine a diff in every name.
Everything stored is scrubbed of secrets first
(:mod:`agentkit.fakes.cli._recording._scrub`).
"""

from __future__ import annotations

import datetime
import os
import re
import subprocess
from collections.abc import Mapping, Sequence
from typing import Literal, Unpack

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    check_str,
)
from agentkit.core.ports import (
    DEFAULT_STREAM_LIMIT,
    ProcessPort,
    SpawnOptions,
    SpawnPort,
    StreamReaderPort,
    StreamWriterPort,
    check_spawn_options,
)
from agentkit.core.verification.process_guard import ensure_real_process_allowed
from agentkit.fakes.cli._fake import FakeCli
from agentkit.fakes.cli._recording._deltas import scrub_split_deltas
from agentkit.fakes.cli._recording._format import Recording, check_cli
from agentkit.fakes.cli._recording._scrub import Scrubber, move_offset
from agentkit.fakes.cli._run import CliRun
from agentkit.fakes.cli._streams import LIMIT_FOUND, LIMIT_NOT_FOUND

__all__ = ["STDERR_KEEP", "CapturingSpawn", "set_names"]

_CHUNK = 1 << 16
"""How much the capture reads from the real stdout at a time."""

STDERR_KEEP = 1 << 20
"""Bytes of stderr a recording keeps (from its start); the rest is counted in its notes."""


def set_names(env: Mapping[str, str] | None) -> tuple[str, ...]:
    """The names a spawn's ``env`` sets: those not holding the recording process's own value.

    ``env=None`` inherits everything; and a cognition that passes the
    process's environment on (claude's passes it minus ``CLAUDECODE``)
    inherits it just the same. Either way those names are the recording
    machine's, not the run's, so they are left out. What the test or the
    cognition set -- a ``HOME`` of its own, an API's URL -- is named.
    """
    if env is None:
        return ()
    own = os.environ
    return tuple(name for name, value in env.items() if own.get(name) != value)


_SEPARATORS = frozenset(b" \t\r\n\"',;<>()[]{}")
_EDGE_REACH = 4096
"""How far back a word at a cut edge is masked: longer than any secret."""


def mask_edge(data: bytearray, end: int) -> None:
    """Overwrite the word that ``data[:end]`` ends in, where a cut dropped what followed.

    A secret the cut went through is no longer whole, so nothing can know
    it (a known value's first half, a key shorter than its shape): the word
    the kept part ends in is replaced by as many ``*``, keeping the length
    a replay of the cut line relies on.
    """
    start = end
    while start > max(0, end - _EDGE_REACH) and data[start - 1] not in _SEPARATORS:
        start -= 1
    data[start:end] = b"*" * (end - start)


class _Tape:
    """What one spawn did, in the order the caller saw it, within the bounds a recording keeps.

    stdout is kept as it came, except the part of a line past ``limit + 1``
    bytes: the caller's reader refused that line anyway, and ``limit + 1``
    bytes are enough for a replay with the same limit to refuse it too. So a
    CLI that writes a gigabyte without a newline costs the capture about
    ``limit`` bytes, not a gigabyte twice. Marks (stderr chunks, stdin writes)
    are placed at the stdout the caller had CONSUMED by then, not at what the
    capture read ahead.
    """

    __slots__ = (
        "_cut_before",
        "_next_cut",
        "consumed",
        "cuts",
        "edges",
        "line_kept",
        "line_start",
        "notes",
        "raw",
        "room",
        "stderr_at_exit",
        "stderr_chunks",
        "stderr_dropped",
        "stderr_kept",
        "stdin",
        "stdout",
        "stdout_eof",
    )

    def __init__(self, limit: int) -> None:
        self.stdout = bytearray()
        self.stdout_eof = False
        self.stderr_chunks: list[tuple[int, bytes]] = []
        self.stderr_at_exit = bytearray()
        self.stderr_kept = 0
        self.stderr_dropped = 0
        self.stdin: list[tuple[int, bytes]] = []
        self.room = limit + 1
        self.raw = 0
        """stdout bytes read from the real pipe."""
        self.consumed = 0
        """stdout bytes the caller has taken (handed over, or refused as over its limit)."""
        self.line_start = 0
        self.line_kept = 0
        self.cuts: list[list[int]] = []
        """``[raw start, raw end]`` of each cut; the end grows while the line goes on."""
        self.edges: list[int] = []
        """Where in the kept stdout each cut begins: what precedes it may be half a secret."""
        self.notes: list[str] = []
        self._next_cut = 0
        self._cut_before = 0

    def stdout_read(self, data: bytes) -> None:
        while data:
            newline = data.find(b"\n")
            piece = data if newline == -1 else data[:newline]
            keep = max(0, min(len(piece), self.room - self.line_kept))
            self.stdout += piece[:keep]
            self.line_kept += keep
            if keep < len(piece):
                at = self.raw + keep
                if self.cuts and self.cuts[-1][1] == at:
                    self.cuts[-1][1] = at + len(piece) - keep
                else:
                    self.cuts.append([at, at + len(piece) - keep])
                    self.edges.append(len(self.stdout))
            self.raw += len(piece)
            if newline == -1:
                return
            self._end_line()
            self.stdout += b"\n"
            self.raw += 1
            self.line_start = self.raw
            self.line_kept = 0
            data = data[newline + 1 :]

    def _line_note(self) -> str | None:
        """The note on the current line, if part of it was cut."""
        if not (self.cuts and self.cuts[-1][0] >= self.line_start):
            return None
        cut = self.cuts[-1][1] - self.cuts[-1][0]
        return (
            f"stdout line at byte {len(self.stdout) - self.line_kept}: "
            f"{self.line_kept + cut} bytes long, over the reader's limit of "
            f"{self.room - 1}; the first {self.line_kept} kept, {cut} cut"
        )

    def _end_line(self) -> None:
        note = self._line_note()
        if note is not None:
            self.notes.append(note)

    def stdout_end(self) -> None:
        """The caller saw stdout's end: a cut unterminated line is noted."""
        if not self.stdout_eof:
            self.stdout_eof = True
            self._end_line()

    def position(self) -> int:
        """Where in the KEPT stdout the caller is now."""
        raw = self.consumed
        while self._next_cut < len(self.cuts) and self.cuts[self._next_cut][1] <= raw:
            start, end = self.cuts[self._next_cut]
            self._cut_before += end - start
            self._next_cut += 1
        inside = 0
        if self._next_cut < len(self.cuts) and self.cuts[self._next_cut][0] < raw:
            inside = raw - self.cuts[self._next_cut][0]
        return raw - self._cut_before - inside

    def stderr_read(self, data: bytes) -> None:
        if not data:
            return
        room = STDERR_KEEP - self.stderr_kept
        if len(data) > room:
            self.stderr_dropped += len(data) - max(room, 0)
            data = data[: max(room, 0)]
            if not data:
                return
        self.stderr_kept += len(data)
        if self.stdout_eof:
            self.stderr_at_exit += data
        else:
            self.stderr_chunks.append((self.position(), bytes(data)))

    def all_notes(self) -> tuple[str, ...]:
        notes = list(self.notes)
        if not self.stdout_eof:  # the caller stopped reading inside a cut line (a kill)
            note = self._line_note()
            if note is not None:
                notes.append(note)
        if self.stderr_dropped:
            notes.append(
                f"stderr: the first {STDERR_KEEP} bytes kept, "
                f"{self.stderr_dropped} more bytes dropped"
            )
        return tuple(notes)


class _StdoutReader:
    """The caller's stdout: records every byte (within the tape's bounds), frames lines itself.

    Lines are framed here, over ``read()`` of the real pipe, with the
    caller's ``limit`` applied the way asyncio's reader applies it (the same
    two errors), so a line over the limit is refused to the caller while its
    start is still recorded: asyncio's own reader would throw the line away
    before anyone saw it.
    """

    __slots__ = ("_buffer", "_eof", "_inner", "_limit", "_tape")

    def __init__(self, inner: StreamReaderPort, tape: _Tape, limit: int) -> None:
        self._inner = inner
        self._tape = tape
        self._limit = limit
        self._buffer = bytearray()
        self._eof = False

    async def _fill(self, n: int = _CHUNK) -> bool:
        data = await self._inner.read(n)
        if not data:
            self._eof = True
            return False
        self._tape.stdout_read(data)
        self._buffer += data
        return True

    def _take(self, size: int) -> bytes:
        data = bytes(self._buffer[:size])
        self._drop(size)
        return data

    def _drop(self, size: int) -> None:
        """The caller is refused these bytes (over its limit): gone without a copy."""
        del self._buffer[:size]
        self._tape.consumed += size

    async def readline(self) -> bytes:
        searched = 0
        while True:
            newline = self._buffer.find(b"\n", searched)
            if newline != -1:
                if newline > self._limit:
                    self._drop(newline + 1)
                    raise ValueError(LIMIT_FOUND)
                return self._take(newline + 1)
            searched = len(self._buffer)
            if len(self._buffer) > self._limit:
                self._drop(len(self._buffer))
                raise ValueError(LIMIT_NOT_FOUND)
            if self._eof or not await self._fill():
                line = self._take(len(self._buffer))
                if not line:
                    self._tape.stdout_end()
                return line

    async def read(self, n: int = -1) -> bytes:
        if n == 0:
            return b""
        if not self._buffer and not self._eof:
            await self._fill(n if n > 0 else _CHUNK)
        if n < 0:
            while not self._eof:
                await self._fill()
            n = len(self._buffer)
        data = self._take(min(n, len(self._buffer)))
        if not data:
            self._tape.stdout_end()
        return data

    def at_eof(self) -> bool:
        return not self._buffer and (self._eof or self._inner.at_eof())


class _StderrReader:
    __slots__ = ("_inner", "_tape")

    def __init__(self, inner: StreamReaderPort, tape: _Tape) -> None:
        self._inner = inner
        self._tape = tape

    async def readline(self) -> bytes:
        line = await self._inner.readline()
        self._tape.stderr_read(line)
        return line

    async def read(self, n: int = -1) -> bytes:
        data = await self._inner.read(n)
        self._tape.stderr_read(data)
        return data

    def at_eof(self) -> bool:
        return self._inner.at_eof()


class _StdinWriter:
    __slots__ = ("_inner", "_tape")

    def __init__(self, inner: StreamWriterPort, tape: _Tape) -> None:
        self._inner = inner
        self._tape = tape

    def write(self, data: bytes) -> None:
        self._inner.write(data)
        self._tape.stdin.append((self._tape.position(), bytes(data)))

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
        self, program: str, *args: str, **options: Unpack[SpawnOptions]
    ) -> ProcessPort:
        check_spawn_options(options, "CapturingSpawn.__call__")
        if options.get("stderr") == subprocess.STDOUT:
            raise ValueError(
                "CapturingSpawn cannot tell stdout from stderr merged into it (stderr=STDOUT)"
            )
        # The tape reads under the limit the inner spawn is given, so it is given one.
        limit = options.setdefault("limit", DEFAULT_STREAM_LIMIT)
        if isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0:
            raise ValueError(f"limit must be a positive int, got {limit!r}")
        if not isinstance(self._spawn, FakeCli | CapturingSpawn):
            # Around anything but a double (asyncio.create_subprocess_exec, a user's own
            # spawn) the capture is a road to a real child: it asks the switch the real
            # default_spawn asks, so under the pytest plugin no test starts one unasked.
            ensure_real_process_allowed((program, *args))
        # The scrubber is built before the spawn, from the env the child gets.
        env = options.get("env")
        scrubber = Scrubber(env=env, argv=args, extra=self._extra)
        inner = await self._spawn(program, *args, **options)
        tape = _Tape(limit)
        process = _CapturedProcess(inner, tape, limit)
        names = set_names(env)
        spawned = _Spawned((program, *args), options.get("cwd"), names, scrubber, process, tape)
        self._spawned.append(spawned)
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
        # Scrubbed assembled, not read by read: a secret split across two stderr
        # reads, two stdin writes or two streamed deltas is found across the seam.
        marks = [offset for offset, _ in tape.stderr_chunks] + [o for o, _ in tape.stdin]
        kept = bytearray(tape.stdout)
        for edge in tape.edges:
            mask_edge(kept, edge)
        stdout, spans = scrub_split_deltas(bytes(kept), scrub.find)
        marks = [move_offset(mark, spans) for mark in marks]
        stdout, moved = scrub.stream(stdout, marks)
        count = len(tape.stderr_chunks)
        pieces = [data for _, data in tape.stderr_chunks] + [bytes(tape.stderr_at_exit)]
        if tape.stderr_dropped:
            last = max((i for i, piece in enumerate(pieces) if piece), default=None)
            if last is not None:
                edged = bytearray(pieces[last])
                mask_edge(edged, len(edged))
                pieces[last] = bytes(edged)
        stderr = scrub.pieces(pieces)
        stderr_chunks = tuple(
            (offset, data)
            for offset, data in zip(moved[:count], stderr[:count], strict=True)
            if data
        )
        writes = scrub.pieces([data for _, data in tape.stdin])
        stdin = tuple(zip(moved[count:], writes, strict=True))
        return Recording(
            cli=self._cli,
            argv=scrub.argv(spawned.argv),
            run=CliRun(
                stdout=stdout,
                stderr=stderr[count],
                returncode=code,
                interleaved_stderr=stderr_chunks,
            ),
            cli_version=scrub.text(self._version) if self._version is not None else None,
            cwd=scrub.text(spawned.cwd) if spawned.cwd is not None else None,
            env_names=spawned.env_names,
            stdin=stdin,
            created_at=spawned.created_at,
            source=scrub.text(self._source),
            notes=tape.all_notes(),
        )
