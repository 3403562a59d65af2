"""The fake child process one spawn of a CLI double returns.

It conforms to :class:`agentkit.core.ports.ProcessPort` and behaves like an
``asyncio.subprocess.Process`` in the ways a cognition depends on:

* ``stdout`` is a :class:`~agentkit.fakes.cli._streams.FakeStreamReader` under
  the ``limit`` the spawn was given, reaching EOF after the run's bytes.
* ``stderr`` carries the run's interleaved chunks, each readable once stdout
  has been written up to its offset, then the run's ``stderr`` lump when the
  process ends.
* ``returncode`` is None until ``wait()`` has returned, and ``wait()`` returns
  only once stdout has been read to EOF -- the child of a pipe nobody drains
  cannot exit (and asyncio's own ``wait()`` waits for the pipes too).
* ``terminate()`` / ``kill()`` on a live process are recorded on the
  invocation and end it: stdout stops where the reader is, stderr keeps what
  was written so far, and the exit code is ``-15`` / ``-9`` as for a real
  child killed by that signal. On an exited process they do nothing, as
  ``Popen.terminate`` does.

WHEN the child writes its stdout is a :class:`Release` policy, which each
CLI's double decides for its CLI (``FakeClaudeCli._release``,
``FakeCodexCli._release``) from the argv and the stdin mode.
"""

from __future__ import annotations

import enum
import json
import signal
import subprocess
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from agentkit.core._frozen import dataclass
from agentkit.fakes.cli._run import CliInvocation, CliRun
from agentkit.fakes.cli._streams import FakeStreamReader, FakeStreamWriter, Signal

if TYPE_CHECKING:
    # Only for annotations: the check (json, difflib, the scrubber) loads with check_input=True.
    from agentkit.fakes.cli._input_check import InputCheck

__all__ = [
    "FakeCliProcess",
    "Release",
    "ReleaseMode",
    "ReplyBoundary",
    "reply_boundaries",
    "stream_json_input",
]

_PIPE = subprocess.PIPE
_STDOUT = subprocess.STDOUT
PIPE_CAPACITY = 1 << 16
"""Bytes a Linux pipe holds before its writer blocks (the default since 2.6.11)."""
_PID_BASE = 1 << 22
"""Linux's PID_MAX_LIMIT: no real process has a pid at or above it, so a fake
pid handed to ``os.kill`` by mistake fails with ESRCH instead of hitting a
real process."""


@dataclass(frozen=True, slots=True)
class ReplyBoundary:
    """The end offset of a stdout line that answers a stdin message, and its kind."""

    end: int
    kind: str


class ReleaseMode(enum.Enum):
    """When a fake child writes its stdout."""

    AT_ONCE = "at_once"
    """Everything at spawn, then exit (a one-shot CLI)."""
    ON_STDIN_EOF = "on_stdin_eof"
    """Everything once stdin is closed (codex with a stdin pipe reads it to EOF first)."""
    PER_MESSAGE = "per_message"
    """Turn by turn, as stdin messages ask for them (a claude stream-json session)."""


@dataclass(frozen=True, slots=True)
class Release:
    """When a fake child writes its stdout: a :class:`ReleaseMode` and, per message, where.

    ``PER_MESSAGE`` -- claude with ``--input-format stream-json``: each stdin
    ``user`` message releases stdout through the next ``result`` line (the
    turn it asked for), each ``control_request`` through the next
    ``control_response`` if that comes first. Nothing is written before the
    first message. Closing stdin ends the session: the rest after the last
    ``result`` is written if every turn was asked for, and the process
    exits. A user message with no ``result`` left to answer it means one of
    two things. If the recording has unwritten bytes or a non-zero exit
    code, the CLI died in that turn: the rest is written and the process
    exits as recorded (a truncated turn, a startup failure). If the
    recording ended cleanly after its last ``result``, the code under test
    asked for more than the recording claims: the write raises
    :class:`~agentkit.core.verification.script.ScriptExhausted` at once (and the double
    records the violation) -- unless the double was built with
    ``hang_when_unanswered=True``, when the turn never ends and only
    ``terminate()`` / ``kill()`` end the child, which is how a timeout test
    is written. A stdin line that is not JSON ends the process as claude
    2.1.332 does (a parse error on stderr, exit 1).
    """

    mode: ReleaseMode
    boundaries: tuple[ReplyBoundary, ...] = ()


def stream_json_input(argv: tuple[str, ...]) -> bool:
    """Does ``argv`` ask for ``--input-format stream-json`` (a claude session)?"""
    for index, arg in enumerate(argv):
        if arg == "--input-format=stream-json":
            return True
        if arg == "--input-format" and argv[index + 1 : index + 2] == ("stream-json",):
            return True
    return False


_REPLY_KINDS = {b'"result"': "result", b'"control_response"': "control_response"}


def reply_boundaries(stdout: bytes) -> tuple[ReplyBoundary, ...]:
    """End offsets of top-level ``result`` / ``control_response`` lines.

    A cheap substring test picks candidate lines; only those are parsed, so
    a long session is not decoded twice.
    """
    out: list[ReplyBoundary] = []
    pos = 0
    size = len(stdout)
    while pos < size:
        newline = stdout.find(b"\n", pos)
        end = size if newline == -1 else newline + 1
        for needle, kind in _REPLY_KINDS.items():
            if stdout.find(needle, pos, end) == -1:
                continue
            try:
                obj = json.loads(stdout[pos:end])
            except (ValueError, RecursionError):  # nesting too deep is not JSON either
                break
            if isinstance(obj, dict) and obj.get("type") == kind:
                out.append(ReplyBoundary(end, kind))
            break
        pos = end
    return tuple(out)


def _malformed_stdin_message(line: bytes) -> bytes:
    return (
        f"Error parsing streaming input line (type=unknown, {len(line)} chars): SyntaxError\n"
    ).encode()


class FakeCliProcess:
    """One fake CLI child: the run's bytes, released per its :class:`Release`."""

    def __init__(
        self,
        run: CliRun,
        invocation: CliInvocation,
        *,
        index: int,
        limit: int,
        release: Release,
        stdin: int | None,
        stdout: int | None,
        stderr: int | None,
        unanswered: Callable[[], None] | None = None,
        input_check: InputCheck | None = None,
    ) -> None:
        if stderr == _STDOUT:
            raise ValueError("the CLI doubles do not merge stderr into stdout (stderr=STDOUT)")
        self._run = run
        self._invocation = invocation
        self._release = release
        self._unanswered_hook = unanswered
        self._input_check = input_check
        self._pid = _PID_BASE + index
        self._exit_code: int | None = None
        self._returncode: int | None = None
        self._finished = False
        self._signalled = False
        self._changed = Signal()
        self._pending_stdin = b""
        self._next_boundary = 0
        self._unanswered = 0
        self._died_on_input = False
        stderr_data = b"".join(chunk for _, chunk in run.interleaved_stderr) + run.stderr
        self._stderr_marks: list[tuple[int, int]] = []
        written = 0
        for offset, chunk in run.interleaved_stderr:
            written += len(chunk)
            self._stderr_marks.append((offset, written))
        self._stderr_reader = FakeStreamReader(
            stderr_data, limit=limit, on_consumed=self._stderr_consumed
        )
        self._stdout_target = 0
        self._exit_pending: int | None = None
        self._stdout_reader = FakeStreamReader(run.stdout, limit=limit, on_consumed=self._consumed)
        self._stdout_piped = stdout == _PIPE
        self._stderr_piped = stderr == _PIPE
        self._stdin_writer: FakeStreamWriter | None = None
        if stdin == _PIPE:
            self._stdin_writer = FakeStreamWriter(self._on_stdin, self._on_stdin_close, self._alive)
        mode = release.mode
        if mode is ReleaseMode.AT_ONCE or (mode is ReleaseMode.ON_STDIN_EOF and stdin != _PIPE):
            self._write_stdout(len(run.stdout))
            self._exit(run.returncode)
        elif stdin != _PIPE:
            # A session whose stdin is not a pipe sees EOF at once: it ends unasked.
            self._on_stdin_close()

    # ------------------------------------------------------------ ProcessPort

    @property
    def stdin(self) -> FakeStreamWriter | None:
        return self._stdin_writer

    @property
    def stdout(self) -> FakeStreamReader | None:
        return self._stdout_reader if self._stdout_piped else None

    @property
    def stderr(self) -> FakeStreamReader | None:
        return self._stderr_reader if self._stderr_piped else None

    @property
    def returncode(self) -> int | None:
        return self._returncode

    @property
    def pid(self) -> int:
        return self._pid

    async def wait(self) -> int:
        while not self._can_be_reaped():
            await self._changed.wait()
        assert self._exit_code is not None
        self._returncode = self._exit_code
        self._invocation.returncode = self._exit_code
        return self._exit_code

    def terminate(self) -> None:
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)

    # ----------------------------------------------------------- verification

    def left_running(self) -> bool:
        """A session whose end was never asked for: stdin never closed, never signalled.

        A one-shot child ends by itself; a session (claude stream-json, codex
        reading stdin) ends only when its caller closes stdin or signals it,
        and a real one left like this is a process the code under test leaks.
        """
        if self._release.mode is ReleaseMode.AT_ONCE:
            return False
        return not self._finished and self._exit_pending is None

    def unasked_turns(self) -> tuple[int, int]:
        """``(turns never asked for, recorded turns)`` of a claude stream-json session.

        A turn is asked for by a stdin ``user`` message; a session that ended
        (stdin closed, or signalled) before every recorded ``result`` was asked
        for left those turns unused. A child that died of a malformed stdin
        line is not counted: the failure is the news.
        """
        if self._release.mode is not ReleaseMode.PER_MESSAGE or self._died_on_input:
            return 0, 0
        results = [b for b in self._release.boundaries if b.kind == "result"]
        unasked = sum(
            1 for b in self._release.boundaries[self._next_boundary :] if b.kind == "result"
        )
        return unasked, len(results)

    # -------------------------------------------------------------- internals

    def _alive(self) -> bool:
        """Not yet exited: a child that finished writing is alive until its stdout drains."""
        return not self._signalled and not self._can_be_reaped()

    def _exited_early(self) -> bool:
        return self._finished

    def _can_be_reaped(self) -> bool:
        if not self._finished:
            return False
        return not self._stdout_piped or self._stdout_reader.at_eof()

    def _consumed(self, nbytes: int, lines: int) -> None:
        self._invocation.lines_read += lines
        self._changed.notify()

    def _signal(self, signum: int) -> None:
        if self._returncode is not None or (self._finished and self._can_be_reaped()):
            return  # already exited: Popen.send_signal is a no-op then
        self._signalled = True
        if signum == signal.SIGTERM:
            self._invocation.terminated = True
        else:
            self._invocation.killed = True
        self._stdout_reader.abort()
        self._finished = True
        self._exit_code = -signum
        self._stderr_reader.feed_eof()
        self._changed.notify()

    def _stderr_consumed(self, nbytes: int, lines: int) -> None:
        if nbytes and not self._finished:
            self._flow()  # room in the stderr pipe: a blocked child writes on

    def _stderr_room(self, upto: int) -> int:
        """How far the child gets writing stderr up to ``upto`` before the pipe is full.

        A real child blocks in write(2) once ``PIPE_CAPACITY`` bytes of stderr
        sit unread -- and while it is blocked it writes no stdout and does not
        exit. A cognition that reads stderr only after stdout's end deadlocks
        there against the real CLI; the double makes it hang the same way
        rather than pass. stderr not piped to the caller never fills.
        """
        if not self._stderr_piped:
            return upto
        return min(upto, self._stderr_reader.position + PIPE_CAPACITY)

    def _flow(self) -> None:
        """Write as far as the pipes let the child: stdout to its target, stderr, then exit."""
        reader = self._stderr_reader
        for offset, upto in self._stderr_marks:
            if offset > self._stdout_target:
                break
            if upto <= reader.released:
                continue
            self._stdout_reader.release(offset)
            room = self._stderr_room(upto)
            reader.release(room)
            if room < upto:
                return  # blocked writing this chunk
        self._stdout_reader.release(self._stdout_target)
        if self._exit_pending is None or self._finished:
            return
        room = self._stderr_room(reader.size)
        reader.release(room)
        if room < reader.size:
            return  # blocked writing its last stderr: it has not exited
        self._stdout_reader.feed_eof()
        reader.feed_eof()
        self._finished = True
        self._exit_code = self._exit_pending
        self._changed.notify()

    def _write_stdout(self, end: int) -> None:
        """The child now writes ``stdout[:end]`` and the stderr chunks up to it."""
        self._stdout_target = max(self._stdout_target, min(end, len(self._run.stdout)))
        self._flow()

    def _exit(self, code: int) -> None:
        """Normal end: the rest of stderr, EOF on both pipes, an exit code to reap."""
        if self._finished or self._exit_pending is not None:
            return
        self._exit_pending = code
        self._flow()

    def _on_stdin(self, data: bytes) -> None:
        if self._input_check is not None:
            self._input_check.write(data)
        self._invocation.stdin += data
        if self._release.mode is not ReleaseMode.PER_MESSAGE:
            return
        self._pending_stdin += data
        while (newline := self._pending_stdin.find(b"\n")) != -1 and not self._finished:
            line = self._pending_stdin[:newline]
            self._pending_stdin = self._pending_stdin[newline + 1 :]
            self._on_stdin_line(line)

    def _on_stdin_line(self, line: bytes) -> None:
        if not line.strip():
            return
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError):  # nesting too deep is a malformed message too
            obj = None
        if not isinstance(obj, dict):
            self._stderr_reader.append(_malformed_stdin_message(line))
            self._died_on_input = True
            self._exit_early(1)
            return
        kind = obj.get("type")
        if kind == "user":
            self._answer("result")
        elif kind == "control_request":
            self._answer("control_response")

    def _answer(self, kind: str) -> None:
        boundaries: Sequence[ReplyBoundary] = self._release.boundaries
        for index in range(self._next_boundary, len(boundaries)):
            boundary = boundaries[index]
            if boundary.kind == kind:
                self._next_boundary = index + 1
                self._write_stdout(boundary.end)
                return
            if boundary.kind == "result":
                return  # the next reply is a turn's result: a control request gets none here
        if kind != "result":
            return
        if self._stdout_reader.released < len(self._run.stdout) or self._run.returncode != 0:
            # The recording ends inside this turn (or the process failed): the
            # child died in it. Write what it wrote, then exit as recorded.
            self._write_stdout(len(self._run.stdout))
            self._exit(self._run.returncode)
        elif self._unanswered_hook is not None:
            self._unanswered_hook()  # raises: the recording has no answer for this message
        else:
            self._unanswered += 1  # hang_when_unanswered: this turn never ends

    def _exit_early(self, code: int) -> None:
        """The child exits before writing the rest: stdout ends where it is."""
        self._stdout_reader.feed_eof()
        self._stderr_reader.feed_eof()
        self._finished = True
        self._exit_code = code
        self._changed.notify()

    def _on_stdin_close(self) -> None:
        if self._input_check is not None:
            self._input_check.close()
        if self._finished:
            return
        if self._release.mode is ReleaseMode.PER_MESSAGE:
            if self._pending_stdin.strip():
                line, self._pending_stdin = self._pending_stdin, b""
                self._on_stdin_line(line)
                if self._exited_early():
                    return
            if self._unanswered:
                # The CLI finishes the in-flight turn before it exits on EOF; this
                # turn has no recorded end, so the child runs on until signalled.
                return
            unasked = self._release.boundaries[self._next_boundary :]
            if all(b.kind != "result" for b in unasked):
                self._write_stdout(len(self._run.stdout))
            self._exit(self._run.returncode)
            return
        self._write_stdout(len(self._run.stdout))
        self._exit(self._run.returncode)
