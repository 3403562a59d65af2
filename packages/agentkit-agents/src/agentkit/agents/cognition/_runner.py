"""The runner: one CLI child, read line by line and always ended -- what both cognitions share.

The child itself is started by the spawn a cognition was given (the real one
is :func:`~agentkit.agents.cognition._spawn.default_spawn`; a double's in
tests); :class:`CliProcess` runs whatever process that spawn returns. The
claude and codex cognitions differ in what the lines MEAN; they do not
differ in how a child process is run, and the ways that goes wrong are the
same for both:

* **Lines are big.** claude writes multi-MB lines (tool results, base64
  images echoed back); ``asyncio``'s default 64 KiB reader limit turns the
  first one into ``ValueError: Separator is not found, and chunk exceed the
  limit``. The real spawn starts the child with asyncio's stream
  readers and the cognitions pass ``limit=`` :data:`DEFAULT_LINE_LIMIT` (64 MiB). A line over
  the limit is recorded as ``too_long`` and reading goes on at the next line
  (the reader may hand back the long line's tail first; it is skipped).
* **stdout is framed on ``\\n`` only.** Blank lines and lines that do not
  start with ``{`` (``[SandboxDebug]`` output, banners) are skipped and kept
  as :class:`~agentkit.agents.cognition.result.SkippedLine`; a ``{`` line that
  does not parse -- or parses only to what no event can hold: nesting deep
  enough to exhaust the recursion limit, ``NaN``, a float that overflows to
  infinity, an integer beyond 2**63 -- is kept as ``invalid_json``; a last
  line without its newline that does not parse is ``truncated`` (a child
  killed mid-write). Nothing a line holds makes reading raise.
* **stderr is drained while stdout is read** by a task of its own, so a CLI
  that writes more than the pipe holds to stderr before closing stdout
  cannot block on it. What is drained goes into a bounded buffer
  (:class:`~agentkit.agents.cognition._stderr_buffer.StderrBuffer`: the
  first and last :data:`DEFAULT_STDERR_KEEP` bytes, the middle counted in
  :attr:`CliProcess.stderr_dropped`), independent of ``limit``. It is
  surfaced once, at the end: :attr:`CliProcess.stderr_text` is complete once
  :meth:`CliProcess.finish` / :meth:`CliProcess.stop` returned.
* **Nothing hangs, nothing is left.** Every wait is bounded. On a timeout, on
  the run's :class:`~agentkit.core.cancellation.CancellationToken`, and on
  ``asyncio.CancelledError`` the child's whole process group is terminated,
  given ``kill_grace`` seconds, then killed; a descendant that left the
  group but still holds the pipes is found by them and killed, and the
  pipes are closed after a short bound rather than waited on.
  ``CancelledError`` is always re-raised after the child is stopped. A child
  that exited while a descendant still holds its stdout gets
  :data:`DEFAULT_EOF_GRACE` for stdout to reach EOF; then the group is
  killed and the read ends as EOF -- the run is what the child made of it.

The child is started in its own session (``start_new_session=True``): a
terminal's Ctrl-C then reaches the parent, whose cleanup decides the child's
end, rather than killing the CLI mid-write behind the parent's back. The
session is also a process group of the child's own, which is what lets the
runner stop everything the CLI started (MCP servers, background shells) and
nothing else. The group, the exit seen apart from the pipes, and the pipes
themselves come from the process the real spawn returns
(:class:`~agentkit.agents.cognition._spawn.GroupControl`); a double's
process has none of them and is stopped with its own ``terminate()`` /
``kill()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any, Literal, TypeVar

from agentkit.agents.cognition._process_json import loads_line
from agentkit.agents.cognition._spawn import GroupControl, group_control
from agentkit.agents.cognition._stderr_buffer import StderrBuffer
from agentkit.agents.cognition.errors import CliError
from agentkit.agents.cognition.result import SkippedLine, SkipReason
from agentkit.core._internal.arguments import (
    check_int,
    check_number,
    check_protocol,
)
from agentkit.core.cancellation import CancellationToken
from agentkit.core.ports import ProcessPort, SpawnPort

__all__ = [
    "DEFAULT_EOF_GRACE",
    "DEFAULT_KILL_GRACE",
    "DEFAULT_LINE_LIMIT",
    "DEFAULT_STDERR_KEEP",
    "CliProcess",
]

T = TypeVar("T")

DEFAULT_LINE_LIMIT = 64 * 1024 * 1024
"""The stdout line limit the cognitions spawn with: 64 MiB.

The official SDK's 1 MiB default is a known crash source (base64 images
echoed in user messages); 64 MiB is the top of the range its own issues
recommend.
"""

DEFAULT_KILL_GRACE = 5.0
"""Seconds a terminated child gets before it is killed (the Python SDK's figure)."""

DEFAULT_STDERR_KEEP = 256 * 1024
"""Bytes of stderr kept from its start, and again from its end (the rest is counted)."""

DEFAULT_EOF_GRACE = 1.0
"""Seconds stdout gets to reach EOF after the child exited, before the group is killed.

A descendant that inherited stdout (a background task, an MCP server) keeps
the pipe open after the CLI itself has finished; the answer is complete, so
waiting on for it would only turn a finished run into a timeout.
"""

_STDERR_CHUNK = 64 * 1024
_KILL_WAIT = 0.5
"""After SIGKILL to the group: how long the pipes get before they are closed."""


def _dropped_whole_line(exc: ValueError) -> bool:
    """Did ``readline()`` discard the over-limit line up to and including its newline?

    asyncio says so in the message: "Separator is found, but chunk is longer
    than limit" (the whole line, newline included, is gone) versus
    "Separator is not found, and chunk exceed the limit" (only what was
    buffered is gone; the rest of the line is still coming). Anything else is
    treated as the second case, which can only cost the rest of that line.
    """
    return "Separator is found" in str(exc)


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace")


def _at_eof(process: ProcessPort) -> bool:
    stdout = process.stdout
    at_eof = getattr(stdout, "at_eof", None)
    return bool(at_eof()) if callable(at_eof) else False


def _check_options(kill_grace: float, eof_grace: float, stderr_keep: int) -> tuple[float, float]:
    """The runner's options, refused naming the argument (``kill_grace=nan`` would never end)."""
    check_int(stderr_keep, "CliProcess", "stderr_keep")
    return (
        check_number(kill_grace, "CliProcess", "kill_grace"),
        check_number(eof_grace, "CliProcess", "eof_grace"),
    )


async def _settle(task: asyncio.Future[Any]) -> None:
    """Cancel a task and wait until it has finished, swallowing what it raised."""
    task.cancel()
    with contextlib.suppress(BaseException):
        await task


class CliProcess:
    """One running CLI child, read line by line.

    Build it with :meth:`start`. Read with :meth:`read_line` (raw lines, for a
    parser that wants the bytes) or :meth:`next_object` (parsed JSON objects,
    noise skipped and recorded in :attr:`skipped`). End it with :meth:`finish`
    (stdout is at EOF: wait for the exit and the end of stderr) or :meth:`stop`
    (terminate the group, then kill it). Bound any of it with :meth:`guard`.
    stderr is drained from the start, beside the reads (:attr:`stderr_text`).
    """

    def __init__(
        self,
        process: ProcessPort,
        argv: Sequence[str],
        *,
        kill_grace: float = DEFAULT_KILL_GRACE,
        eof_grace: float = DEFAULT_EOF_GRACE,
        stderr_keep: int = DEFAULT_STDERR_KEEP,
    ) -> None:
        check_protocol(
            process,
            "CliProcess",
            "process",
            "a ProcessPort (what a SpawnPort returns)",
            ("stdout", "stderr", "wait", "terminate", "kill", "pid"),
        )
        kill_grace, eof_grace = _check_options(kill_grace, eof_grace, stderr_keep)
        self.process = process
        self.argv: tuple[str, ...] = tuple(argv)
        self.kill_grace = float(kill_grace)
        self.eof_grace = float(eof_grace)
        self.skipped: list[SkippedLine] = []
        self.lines_read = 0
        self.eof = False
        self.terminated = False
        self.killed = False
        self.abandoned = False
        self.lingered = False
        self.descendants_killed = False
        """True when a descendant outlived the child and was killed (in its group or by the
        pipe it held)."""
        self._stderr = StderrBuffer(stderr_keep, stderr_keep)
        self._stderr_task: asyncio.Future[None] | None = None
        self._watch_task: asyncio.Future[None] | None = None
        self._returncode: int | None = None
        """The exit code, once seen (by :meth:`_exited`, or read off a stopped child)."""
        self._stopping: asyncio.Future[int | None] | None = None
        self._finished = False
        self._exit_seen = False
        """The exit watcher saw the real child exit (its output is complete)."""
        self._cut = asyncio.Event()
        """Set to end the exit watcher's ``eof_grace`` at once (a deadline came first)."""
        self._group: GroupControl | None = group_control(process)
        """The real child's exit, group and pipes, when the process offers them."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return
        self._begin()

    def _begin(self) -> None:
        """Start draining stderr and (for a real child) watching for its exit."""
        if self._stderr_task is None:
            self._stderr_task = asyncio.ensure_future(self._read_stderr())
        if self._watch_task is None and self._group is not None:
            self._watch_task = asyncio.ensure_future(self._watch_exit(self._group))

    # ------------------------------------------------------------------ start

    @classmethod
    async def start(
        cls,
        spawn: SpawnPort,
        argv: Sequence[str],
        *,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        stdin: bool = False,
        limit: int = DEFAULT_LINE_LIMIT,
        kill_grace: float = DEFAULT_KILL_GRACE,
        eof_grace: float = DEFAULT_EOF_GRACE,
        stderr_keep: int = DEFAULT_STDERR_KEEP,
    ) -> CliProcess:
        """Spawn ``argv`` with stdout/stderr piped; stdin piped only if ``stdin``.

        stdin is otherwise ``DEVNULL``: both CLIs misbehave on an open, silent
        stdin pipe (claude waits 3 s and warns; codex blocks until EOF).
        Raises :class:`CliError` ``spawn_failed`` if the program cannot start.
        """
        argv = tuple(argv)
        if not argv:
            raise ValueError("argv must name a program")
        _check_options(kill_grace, eof_grace, stderr_keep)  # before a child exists
        try:
            process = await spawn(
                argv[0],
                *argv[1:],
                stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=None if cwd is None else os.fspath(cwd),
                env=env,
                limit=limit,
                start_new_session=True,
            )
        except OSError as exc:
            raise CliError(
                "spawn_failed",
                f"could not start {argv[0]!r}: {exc}",
                details={"argv": argv, "cwd": cwd},
            ) from exc
        if process.stdout is None or process.stderr is None:
            raise ValueError("the spawn returned a process without piped stdout/stderr")
        return cls(
            process, argv, kill_grace=kill_grace, eof_grace=eof_grace, stderr_keep=stderr_keep
        )

    # ---------------------------------------------------------------- reading

    @property
    def returncode(self) -> int | None:
        """The exit code once :meth:`finish` / :meth:`stop` has seen the exit."""
        return self._returncode

    @property
    def stderr_text(self) -> str:
        """What stderr held: complete once finish()/stop() returned.

        Before that it is what the drain has read so far (it may lag the
        child). Bounded: the first and last ``stderr_keep`` bytes, with a
        marker line where :attr:`stderr_dropped` bytes were left out.
        """
        return _decode(self._stderr.getvalue())

    @property
    def stderr_dropped(self) -> int:
        """Bytes of stderr read but not kept (the middle of a flood)."""
        return self._stderr.dropped

    def at_eof(self) -> bool:
        """True once stdout has reached EOF (or the child was stopped).

        A method, not only the ``eof`` attribute, so a caller that checked it
        before an ``await`` re-reads it after.
        """
        return self.eof

    @property
    def truncated(self) -> bool:
        return any(s.reason == "truncated" for s in self.skipped)

    @property
    def lost_data(self) -> bool:
        """True if any line meant to be an event could not be read."""
        return any(s.lost_data for s in self.skipped)

    def _skip(self, reason: SkipReason, text: str) -> None:
        self.skipped.append(SkippedLine(self.lines_read, reason, text))

    async def read_line(self) -> bytes | None:
        """The next stdout line, newline included; None at EOF.

        A line over the reader's limit is recorded as ``too_long`` and
        skipped (the reader discarded it; the next call returns the next
        line).
        """
        if self.eof:
            return None
        while True:
            line = await self._stdout_line()
            if isinstance(line, str):
                self.lines_read += 1
                self._skip("too_long", "")
                if line == "cut":
                    await self._skip_rest_of_line()
                continue
            if not line:
                self.eof = True
                return None
            self.lines_read += 1
            return line

    async def _skip_rest_of_line(self) -> None:
        """Discard the tail of an over-limit line the reader only partly dropped.

        When a long line reaches the pipe in chunks, asyncio gives up once it
        holds ``limit`` bytes without a newline ("Separator is not found"),
        drops what it buffered, and hands the REST of that line back on the
        following ``readline()`` calls -- as if it were new lines. Reading on
        to the line's newline resynchronises the framing.
        """
        while True:
            tail = await self._stdout_line()
            if isinstance(tail, str):
                if tail == "dropped":
                    return  # the tail and its newline were dropped together
            elif not tail or tail.endswith(b"\n"):
                return

    async def _stdout_line(self) -> bytes | Literal["dropped", "cut"]:
        """stdout's next line (``b""`` at EOF), or how the reader refused an over-limit one.

        ``dropped``: the whole line, newline included, is gone; ``cut``: only
        what was buffered is gone and the rest of the line is still to come.
        """
        stdout = self.process.stdout
        assert stdout is not None
        try:
            return await stdout.readline()
        except ValueError as exc:
            # asyncio's StreamReader: LimitOverrunError re-raised as ValueError.
            return "dropped" if _dropped_whole_line(exc) else "cut"

    async def next_object(self) -> dict[str, Any] | None:
        """The next stdout line that is a JSON object, parsed; None at EOF.

        Everything else is recorded in :attr:`skipped` and passed over.
        """
        while True:
            line = await self.read_line()
            if line is None:
                return None
            # The common line starts with "{": parse it as is (json.loads skips the
            # newline), so a multi-MB line is not copied once more by strip().
            stripped = line if line[:1] == b"{" else line.strip()
            if not stripped:
                self._skip("blank", "")
                continue
            if not stripped.startswith(b"{"):
                self._skip("not_json", _decode(stripped))
                continue
            try:
                obj = loads_line(stripped)
            except ValueError:
                # Not JSON, or JSON no event can hold (nested ~1,000 deep, 1e400,
                # NaN, an integer beyond 2**63): skipped and recorded, never
                # raised -- the driver decides what a lost line means.
                obj = None
            if not isinstance(obj, dict):
                stripped = stripped.strip()
                reason: SkipReason = "invalid_json" if line.endswith(b"\n") else "truncated"
                self._skip(reason, _decode(stripped))
                continue
            return obj

    # ------------------------------------------------------------------ stdin

    async def write_line(self, obj: Mapping[str, Any]) -> None:
        """Write one compact JSON line to stdin and drain it.

        Raises :class:`CliError` ``session_closed`` when the child's stdin is
        gone (it exited, or stdin was closed).
        """
        stdin = self.process.stdin
        if stdin is None or stdin.is_closing():
            raise CliError("session_closed", "the CLI's stdin is closed")
        data = json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        try:
            stdin.write(data)
            await stdin.drain()
        except (ConnectionError, RuntimeError) as exc:
            raise CliError("session_closed", f"writing to the CLI's stdin failed: {exc}") from exc

    def close_stdin(self) -> None:
        stdin = self.process.stdin
        if stdin is not None and not stdin.is_closing():
            with contextlib.suppress(ConnectionError, RuntimeError):
                stdin.close()

    # ----------------------------------------------------------------- ending

    async def _read_stderr(self) -> None:
        """Drain stderr to EOF into the bounded buffer (runs beside the stdout reads)."""
        stderr = self.process.stderr
        if stderr is None:
            return
        with contextlib.suppress(Exception):  # a broken pipe ends the capture, not the run
            while chunk := await stderr.read(_STDERR_CHUNK):
                self._stderr.feed(chunk)

    def _stderr_done(self) -> bool:
        return self._stderr_task is not None and self._stderr_task.done()

    # -------------------------------------------------- the real child's group

    def _signal(self, signum: int) -> None:
        """Signal the child's process group (the child alone if it offers no group)."""
        if self._group is not None:
            self._group.signal_group(signum)
            return
        with contextlib.suppress(ProcessLookupError):
            if signum == signal.SIGTERM:
                self.process.terminate()
            else:
                self.process.kill()

    async def _watch_exit(self, group: GroupControl) -> None:
        """Once the real child exited, give its output ``eof_grace``, then kill the group.

        The child's output is complete when it exits; only a descendant that
        inherited the pipes can keep them open, and no reader should wait on it.
        A holder outside the group (it moved to a session of its own) is not
        waited on either: it is found by the pipe it holds and killed, the
        pipes are closed, and the reader sees EOF.
        """
        await group.exited()
        self._exit_seen = True
        within, closed = await self._bounded(self._output_closed_unless_cut(), self.eof_grace)
        if (within and closed) or self._stopping is not None:
            return
        ok = False
        if self._kill_leftovers(group):
            ok, _ = await self._bounded(self.process.wait(), _KILL_WAIT)
        if not ok:
            self._close_pipes(group)

    async def _output_closed_unless_cut(self) -> bool:
        """True once the output reached EOF; False as soon as :attr:`_cut` is set."""
        output = asyncio.ensure_future(self.process.wait())
        cut = asyncio.ensure_future(self._cut.wait())
        try:
            await asyncio.wait({output, cut}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            await _settle(cut)
            if not output.done():
                await _settle(output)
        return output.done() and not output.cancelled() and output.exception() is None

    def _kill_leftovers(self, group: GroupControl) -> bool:
        """Kill what is left of the exited child's group; True if anything was."""
        if not group.group_alive():
            return False
        self.descendants_killed = True
        group.signal_group(signal.SIGKILL)
        return True

    def _close_pipes(self, group: GroupControl) -> None:
        """Close the pipes; a holder outside the group is killed (a descendant, too)."""
        if group.close_pipes():
            self.descendants_killed = True

    async def _exited(self) -> int:
        """The exit code, as soon as the child has exited (a real child's pipes aside)."""
        if self._returncode is not None:
            return self._returncode
        if self._group is not None:
            rc = await self._group.exited()
        else:
            rc = await self.process.wait()
        self._returncode = rc
        return rc

    async def _bounded(self, work: Awaitable[T], within: float | None) -> tuple[bool, T | None]:
        task = asyncio.ensure_future(work)
        try:
            done, _ = await asyncio.wait({task}, timeout=within)
        except asyncio.CancelledError:
            await _settle(task)
            raise
        if task in done:
            return True, task.result()
        await _settle(task)
        return False, None

    async def _all_done(self) -> None:
        """The child exited, both its pipes reached EOF, and stderr is drained."""
        self._begin()
        await self._exited()
        await self.process.wait()
        assert self._stderr_task is not None
        await asyncio.shield(self._stderr_task)

    async def _cleanup(self) -> None:
        """The child is gone: kill what is left of its group, free its fds."""
        group = self._group
        if group is not None:
            self._kill_leftovers(group)
            self._close_pipes(group)
        if self._watch_task is not None:
            await _settle(self._watch_task)
        if self._stderr_task is not None and not self._stderr_task.done():
            await self._bounded(asyncio.shield(self._stderr_task), _KILL_WAIT)
            await _settle(self._stderr_task)
        if group is not None:
            # The pipes close in callbacks: once this returns, their fds are free.
            await group.released()

    async def finish(self, *, within: float | None = None) -> int | None:
        """stdout is done: close stdin, wait for the exit and the end of stderr.

        Bounded by ``within`` seconds (default: ``kill_grace``). A child that has
        finished its output but does not exit in that time is stopped
        (:attr:`lingered` is set) -- its output is complete, so that is
        cleanup, not a failure of the run. A real child that exited while a
        descendant holds its pipes is not lingering: the pipes get
        ``eof_grace``, then the group is killed (:attr:`descendants_killed`).
        """
        self.close_stdin()
        if self._stopping is not None:
            return await self.stop()
        limit = self.kill_grace if within is None else within
        ok, _ = await self._bounded(self._exited(), limit)
        if ok:
            # Bounded by the exit watcher: eof_grace, then the group killed, then
            # the pipes closed; the extra second only guards against a stuck loop.
            ok, _ = await self._bounded(self._all_done(), self.eof_grace + 2 * _KILL_WAIT + 1)
        if not ok:
            self.lingered = True
            return await self.stop()
        await self._cleanup()
        self._finished = True
        self.eof = self.eof or _at_eof(self.process)
        return self._returncode

    async def stop(self) -> int | None:
        """Terminate the child's group, wait ``kill_grace``, kill it, wait briefly.

        Idempotent, and safe to call when the child has already exited. The
        exit code is None only when even a killed child could not be waited
        for (:attr:`abandoned`).
        """
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop())
        return await asyncio.shield(self._stopping)

    async def _drain_stdout(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        with contextlib.suppress(Exception):
            while await stdout.read(_STDERR_CHUNK):
                pass

    async def _stop(self) -> int | None:
        self.close_stdin()
        self._begin()

        async def exit_and_pipes() -> None:
            # Drain stdout while waiting: a full pipe would keep a writer blocked.
            await asyncio.gather(self._drain_stdout(), self._all_done())

        done = self._finished or (
            self._returncode is not None and self._stderr_done() and _at_eof(self.process)
        )
        for signum, grace in ((signal.SIGTERM, self.kill_grace), (signal.SIGKILL, _KILL_WAIT)):
            if done:
                break
            alive = self._returncode is None and self.process.returncode is None
            self._signal(signum)
            if alive:
                if signum == signal.SIGTERM:
                    self.terminated = True
                else:
                    self.killed = True
            done, _ = await self._bounded(exit_and_pipes(), grace)
        if not done:
            if self._group is not None:
                self._close_pipes(self._group)  # a holder outside the group
            ok, _ = await self._bounded(self._exited(), _KILL_WAIT)
            code = self.process.returncode
            if not ok and code is not None and self._returncode is None:
                # Exited, but its wait() also waits for pipes something else holds
                # (asyncio's own Process behind a spawn of the caller's): the code
                # is known, and nothing is left to stop.
                self._returncode = code
            elif not ok:
                self.abandoned = True
        await self._cleanup()
        self.eof = True
        return self._returncode

    async def _output_was_complete(self, task: asyncio.Future[Any]) -> bool:
        """At a deadline: had the real child already exited? Then let ``task`` end as EOF.

        The child's output is complete once it has exited; only a descendant
        holding its stdout keeps the read going, for at most ``eof_grace``. A
        deadline shorter than that grace must not turn the finished answer
        into a timeout, whatever the two values are: the grace is cut short
        (the group killed, the pipes closed) and ``task`` gets the bounded
        time that takes.
        """
        if not self._exit_seen or self._stopping is not None:
            return False
        self._cut.set()
        done, _ = await asyncio.wait({task}, timeout=2 * _KILL_WAIT + 1)
        return task in done

    async def guard(
        self,
        work: Awaitable[T],
        *,
        within: float | None,
        cancel: CancellationToken | None = None,
    ) -> T:
        """Await ``work`` for at most ``within`` seconds (None: no limit) or until ``cancel``.

        On the deadline or the token, the child is stopped and this raises --
        unless, at the deadline, the real child had already exited: its output
        is complete, so a descendant still holding stdout is killed, the read
        ends as EOF and ``work`` finishes (whatever ``within`` is, even below
        ``eof_grace``).

        Raises :class:`CliError` ``timeout`` / ``cancelled`` after
        :meth:`stop`. On ``asyncio.CancelledError`` the child is stopped too
        (shielded, so a second cancellation cannot abandon it half-stopped)
        and the CancelledError propagates.
        """
        task = asyncio.ensure_future(work)
        watch: asyncio.Future[Any] | None = None
        waiting: set[asyncio.Future[Any]] = {task}
        if cancel is not None:
            watch = asyncio.ensure_future(cancel.wait())
            waiting.add(watch)
        try:
            done, _ = await asyncio.wait(
                waiting, timeout=within, return_when=asyncio.FIRST_COMPLETED
            )
        except asyncio.CancelledError:
            await _settle(task)
            if watch is not None:
                await _settle(watch)
            with contextlib.suppress(asyncio.CancelledError):
                await self.stop()
            raise
        if watch is not None and watch not in done:
            await _settle(watch)
        if not done and await self._output_was_complete(task):
            done = {task}
        if task in done:
            if not task.cancelled() and task.exception() is not None:
                await self.stop()  # whatever went wrong, the child does not outlive it
            return task.result()
        await _settle(task)
        await self.stop()
        if watch is not None and watch in done:
            reason = cancel.reason if cancel is not None else None
            raise CliError(
                "cancelled",
                f"the run was cancelled{f': {reason}' if reason else ''}; the CLI was stopped",
                stderr=self.stderr_text,
                returncode=self._returncode,
                details={"terminated": self.terminated, "killed": self.killed},
            )
        raise CliError(
            "timeout",
            f"the CLI did not finish within {within} s and was stopped",
            stderr=self.stderr_text,
            returncode=self._returncode,
            details={"terminated": self.terminated, "killed": self.killed, "timeout": within},
        )
