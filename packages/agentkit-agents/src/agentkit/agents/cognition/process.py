"""Spawning a CLI and reading it: the part every CLI cognition shares.

The claude and codex cognitions differ in what the lines MEAN; they do not
differ in how a child process is run, and the ways that goes wrong are the
same for both (cli-formats.md §3):

* **Lines are big.** claude writes multi-MB lines (tool results, base64
  images echoed back); ``asyncio``'s default 64 KiB reader limit turns the
  first one into ``ValueError: Separator is not found, and chunk exceed the
  limit``. :func:`default_spawn` is ``asyncio.create_subprocess_exec`` and the
  cognitions pass ``limit=`` :data:`DEFAULT_LINE_LIMIT` (64 MiB). A line over
  the limit is recorded as ``too_long`` and reading goes on at the next line
  (the reader may hand back the long line's tail first; it is skipped).
* **stdout is framed on ``\\n`` only.** Blank lines and lines that do not
  start with ``{`` (``[SandboxDebug]`` output, banners) are skipped and kept
  as :class:`~agentkit.agents.cognition.result.SkippedLine`; a ``{`` line that
  does not parse is kept as ``invalid_json``; a last line without its newline
  that does not parse is ``truncated`` (a child killed mid-write).
* **stderr is read once, at the end.** After stdout reaches EOF (or after the
  child was stopped), never interleaved with stdout reads: what the child
  wrote to it mid-run survives in the pipe until then. It is read into an
  instance buffer chunk by chunk, so a read interrupted by a timeout keeps
  what it had.
* **Nothing hangs.** Every wait is bounded. On a timeout, on the run's
  :class:`~agentkit.core.cancellation.CancellationToken`, and on
  ``asyncio.CancelledError`` the child is terminated, given ``kill_grace``
  seconds, then killed; a child that still does not go (a grandchild holding
  its pipes: ``asyncio``'s ``wait()`` waits for the pipes too) is abandoned
  after another grace period rather than waited on forever.
  ``CancelledError`` is always re-raised after the child is stopped.

The child is started in its own session (``start_new_session=True``): a
terminal's Ctrl-C then reaches the parent, whose cleanup decides the child's
end, rather than killing the CLI mid-write behind the parent's back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any, TypeVar

from agentkit.agents.cognition.errors import CliError
from agentkit.agents.cognition.result import SkippedLine, SkipReason
from agentkit.core.cancellation import CancellationToken
from agentkit.core.ports import ProcessPort, SpawnPort

__all__ = [
    "DEFAULT_KILL_GRACE",
    "DEFAULT_LINE_LIMIT",
    "CliProcess",
    "default_spawn",
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

_STDERR_CHUNK = 64 * 1024


async def default_spawn(
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
    """The real spawn: ``asyncio.create_subprocess_exec`` behind the SpawnPort shape."""
    return await asyncio.create_subprocess_exec(
        program,
        *args,
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        cwd=cwd,
        env=None if env is None else dict(env),
        limit=limit,
        start_new_session=start_new_session,
    )


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
    (stdout is at EOF: read stderr once, wait for the exit) or :meth:`stop`
    (terminate, then kill). Bound any of it with :meth:`guard`.
    """

    def __init__(
        self,
        process: ProcessPort,
        argv: Sequence[str],
        *,
        kill_grace: float = DEFAULT_KILL_GRACE,
    ) -> None:
        if kill_grace < 0:
            raise ValueError(f"kill_grace must be >= 0, got {kill_grace}")
        self.process = process
        self.argv: tuple[str, ...] = tuple(argv)
        self.kill_grace = kill_grace
        self.skipped: list[SkippedLine] = []
        self.lines_read = 0
        self.eof = False
        self.terminated = False
        self.killed = False
        self.abandoned = False
        self.lingered = False
        self._stderr_buf = bytearray()
        self._stderr_done = False
        self._stderr_started = False
        self._returncode: int | None = None
        self._waited = False
        self._stopping: asyncio.Future[int | None] | None = None

    # ------------------------------------------------------------------ start

    @classmethod
    async def start(
        cls,
        spawn: SpawnPort,
        argv: Sequence[str],
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        stdin: bool = False,
        limit: int = DEFAULT_LINE_LIMIT,
        kill_grace: float = DEFAULT_KILL_GRACE,
    ) -> CliProcess:
        """Spawn ``argv`` with stdout/stderr piped; stdin piped only if ``stdin``.

        stdin is otherwise ``DEVNULL``: both CLIs misbehave on an open, silent
        stdin pipe (claude waits 3 s and warns; codex blocks until EOF).
        Raises :class:`CliError` ``spawn_failed`` if the program cannot start.
        """
        argv = tuple(argv)
        if not argv:
            raise ValueError("argv must name a program")
        try:
            process = await spawn(
                argv[0],
                *argv[1:],
                stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
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
        return cls(process, argv, kill_grace=kill_grace)

    # ---------------------------------------------------------------- reading

    @property
    def returncode(self) -> int | None:
        """The exit code once :meth:`finish` / :meth:`stop` has seen the exit."""
        return self._returncode

    @property
    def stderr_text(self) -> str:
        """What has been read from stderr (all of it after finish/stop)."""
        return _decode(bytes(self._stderr_buf))

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
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            try:
                line = await stdout.readline()
            except ValueError as exc:
                # asyncio's StreamReader: LimitOverrunError re-raised as ValueError.
                self.lines_read += 1
                self._skip("too_long", "")
                if not _dropped_whole_line(exc):
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
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            try:
                tail = await stdout.readline()
            except ValueError as exc:
                if _dropped_whole_line(exc):
                    return  # the tail and its newline were dropped together
                continue
            if not tail or tail.endswith(b"\n"):
                return

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
                obj = json.loads(stripped)
            except ValueError:
                stripped = stripped.strip()
                reason: SkipReason = "invalid_json" if line.endswith(b"\n") else "truncated"
                self._skip(reason, _decode(stripped))
                continue
            assert isinstance(obj, dict)  # a "{" line that parses is an object
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
        """Drain stderr to EOF into the instance buffer (safe to interrupt and resume)."""
        if self._stderr_done:
            return
        self._stderr_started = True
        stderr = self.process.stderr
        assert stderr is not None
        while True:
            chunk = await stderr.read(_STDERR_CHUNK)
            if not chunk:
                self._stderr_done = True
                return
            self._stderr_buf += chunk

    async def _wait(self) -> int:
        rc = await self.process.wait()
        self._returncode = rc
        self._waited = True
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

    async def finish(self, *, within: float | None = None) -> int | None:
        """stdout is done: close stdin, read stderr once, wait for the exit.

        Bounded by ``within`` seconds (default: ``kill_grace``). A child that has
        finished its output but does not exit in that time is stopped
        (:attr:`lingered` is set) -- its output is complete, so that is
        cleanup, not a failure of the run.
        """
        self.close_stdin()
        if self._waited and self._stderr_done:
            return self._returncode
        limit = self.kill_grace if within is None else within

        async def both() -> None:
            await asyncio.gather(self._read_stderr(), self._wait())

        ok, _ = await self._bounded(both(), limit)
        if not ok:
            self.lingered = True
            return await self.stop()
        return self._returncode

    async def stop(self) -> int | None:
        """Terminate the child, wait ``kill_grace``, kill it, wait again; read stderr.

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
        with contextlib.suppress(ValueError):
            while await stdout.read(_STDERR_CHUNK):
                pass

    async def _stop(self) -> int | None:
        self.close_stdin()
        if not self._waited:
            proc = self.process

            async def exit_and_pipes() -> None:
                # The pipes must reach EOF for asyncio's wait() to return, so drain
                # both while waiting: a full stdout buffer would otherwise keep the
                # transport paused and the wait pending forever.
                await asyncio.gather(self._drain_stdout(), self._read_stderr(), self._wait())

            for signal_name in ("terminate", "kill"):
                if proc.returncode is None:
                    try:
                        if signal_name == "terminate":
                            proc.terminate()
                            self.terminated = True
                        else:
                            proc.kill()
                            self.killed = True
                    except ProcessLookupError:
                        pass

                ok, _ = await self._bounded(exit_and_pipes(), self.kill_grace)
                if ok:
                    break
            else:
                self.abandoned = True
        if not self._stderr_done:
            await self._bounded(self._read_stderr(), self.kill_grace)
        self.eof = True
        return self._returncode

    async def guard(
        self,
        work: Awaitable[T],
        *,
        within: float | None,
        cancel: CancellationToken | None = None,
    ) -> T:
        """Await ``work`` for at most ``within`` seconds (None: no limit) or until ``cancel``.

        On the deadline or the token, the child is stopped and this raises.

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
