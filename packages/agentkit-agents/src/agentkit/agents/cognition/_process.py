"""The process the real spawn returns: asyncio's pipes, with the SpawnPort rules kept.

``asyncio.create_subprocess_exec`` hands back a ``Process`` that breaks two
rules every double of the seam keeps (and the SpawnPort contract suite
checks): its ``wait()`` returns the exit code at once when the child has
already exited, even though stdout has not reached EOF yet (it waits for the
pipes only when it has to wait at all), and ``terminate()`` / ``kill()``
raise ``ProcessLookupError`` once the child has been reaped. Code written
against a double would meet both only in production.

:class:`SpawnedProcess` is built on the same public pieces
(``loop.subprocess_exec`` and asyncio's stream protocol), with a protocol
that records the two moments that matter as events: the child exited, and
both output pipes delivered their EOF to the readers. ``wait()`` is then
"exited AND output at EOF", always; signals after the exit do nothing.

It also owns what only a real child has -- the process group the CLI runner
stops as a whole, and the pipes it may have to close when a descendant
outside the group still holds them -- as :class:`GroupControl`, which
:class:`~agentkit.agents.cognition.process.CliProcess` looks for on the
process it is given (a wrapper that forwards attributes keeps it).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import weakref
from collections.abc import Mapping
from typing import Protocol, runtime_checkable

__all__ = ["GroupControl", "SpawnedProcess", "group_control", "spawn_process"]


@runtime_checkable
class GroupControl(Protocol):
    """What a real child offers beyond the ProcessPort: its exit alone, its group, its pipes."""

    async def exited(self) -> int:
        """The exit code as soon as the child has exited (its pipes may still be open)."""
        ...

    def signal_group(self, signum: int) -> None:
        """Signal every process in the child's group (the child alone if it has none)."""
        ...

    def group_alive(self) -> bool:
        """Is any process of the child's group still running?"""
        ...

    def close_pipes(self) -> int:
        """Close stdout and stderr: the readers see EOF, the fds are freed.

        Whatever still holds their write ends -- a descendant that left the
        group -- is killed first: it is the child's, and nothing else stops it.
        Returns how many such holders were killed.
        """
        ...


class _Protocol(asyncio.subprocess.SubprocessStreamProtocol):
    """asyncio's stream protocol, plus an event for the exit and one for the output's EOF."""

    def __init__(self, limit: int, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(limit=limit, loop=loop)
        self.exited = asyncio.Event()
        self.output_closed = asyncio.Event()
        self._open: set[int] = set()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        assert isinstance(transport, asyncio.SubprocessTransport)
        self._open = {fd for fd in (1, 2) if transport.get_pipe_transport(fd) is not None}
        if not self._open:
            self.output_closed.set()

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        # The base class feeds the reader its EOF first: once the event is set,
        # a reader that was drained meanwhile is at_eof().
        super().pipe_connection_lost(fd, exc)
        self._open.discard(fd)
        if not self._open:
            self.output_closed.set()

    def process_exited(self) -> None:
        super().process_exited()
        self.exited.set()


class SpawnedProcess:
    """A real child behind the ProcessPort shape, keeping the rules the doubles keep.

    * ``wait()`` returns once the child has exited AND stdout and stderr have
      reached EOF -- whether or not the child had already exited when it was
      called (asyncio's own ``wait()`` skips the pipes in that case);
    * ``terminate()`` / ``kill()`` after the exit do nothing, like ``Popen``'s;
    * :meth:`exited`, :meth:`signal_group`, :meth:`group_alive` and
      :meth:`close_pipes` (:class:`GroupControl`) let a runner stop the
      whole group and stop waiting on pipes a stray descendant holds.
    """

    def __init__(
        self,
        transport: asyncio.SubprocessTransport,
        protocol: _Protocol,
        *,
        own_group: bool,
    ) -> None:
        self._transport = transport
        self._protocol = protocol
        self._own_group = own_group
        self._group_gone = False
        self.pid: int = transport.get_pid()

    def __repr__(self) -> str:
        return f"<SpawnedProcess pid={self.pid} returncode={self.returncode}>"

    @property
    def stdin(self) -> asyncio.StreamWriter | None:
        return self._protocol.stdin

    @property
    def stdout(self) -> asyncio.StreamReader | None:
        return self._protocol.stdout

    @property
    def stderr(self) -> asyncio.StreamReader | None:
        return self._protocol.stderr

    @property
    def returncode(self) -> int | None:
        return self._transport.get_returncode()

    async def exited(self) -> int:
        await self._protocol.exited.wait()
        code = self.returncode
        assert code is not None
        return code

    async def wait(self) -> int:
        """The exit code, once the child has exited and its output reached EOF."""
        code = await self.exited()
        await self._protocol.output_closed.wait()
        return code

    def _send(self, signum: int) -> None:
        if self.returncode is not None:
            return  # exited: nothing to signal, and the pid may be reused
        with contextlib.suppress(ProcessLookupError):
            self._transport.send_signal(signum)

    def terminate(self) -> None:
        self._send(signal.SIGTERM)

    def kill(self) -> None:
        self._send(signal.SIGKILL)

    def signal_group(self, signum: int) -> None:
        if not self._own_group:
            # The child shares the caller's group: signalling it would hit the caller.
            self._send(signum)
            return
        if self._group_gone:
            return
        try:
            os.killpg(self.pid, signum)
        except ProcessLookupError:
            # Once empty, never signalled again: the id could be reused.
            self._group_gone = True
        except PermissionError:
            pass

    def group_alive(self) -> bool:
        if not self._own_group:
            return self.returncode is None
        if self._group_gone:
            return False
        try:
            os.killpg(self.pid, 0)
        except ProcessLookupError:
            self._group_gone = True
            return False
        except PermissionError:
            return True
        return True

    def close_pipes(self) -> int:
        """Close stdout and stderr; first kill whatever still holds their write ends.

        Called once the child is gone and its group killed, so a holder is a
        descendant that left the group (``setsid()``): no signal to the group
        reaches it, but the pipe it holds -- made for this child alone --
        names it. Without ``/proc`` (not Linux) the pipes are closed all the same.
        Returns how many holders were killed.
        """
        pipes = []
        for fd in (1, 2):
            pipe = self._transport.get_pipe_transport(fd)
            if pipe is not None and not pipe.is_closing():
                pipes.append(pipe)
        inodes = set()
        for pipe in pipes:
            with contextlib.suppress(OSError, AttributeError):
                inodes.add(os.fstat(pipe.get_extra_info("pipe").fileno()).st_ino)
        holders = _holders(inodes)
        for pid in holders:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        for pipe in pipes:
            pipe.close()
        return len(holders)


def _holders(inodes: set[int]) -> list[int]:
    """Pids of other processes holding one of the pipes ``inodes`` (read from ``/proc``)."""
    if not inodes:
        return []
    targets = {f"pipe:[{inode}]" for inode in inodes}
    own = os.getpid()
    found = []
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit() or int(entry.name) == own:
                continue
            try:
                fds = os.listdir(f"/proc/{entry.name}/fd")
            except OSError:  # gone meanwhile, or not ours to look at
                continue
            for fd in fds:
                try:
                    link = os.readlink(f"/proc/{entry.name}/fd/{fd}")
                except OSError:
                    continue
                if link in targets:
                    found.append(int(entry.name))
                    break
    return found


_spawned: weakref.WeakValueDictionary[int, SpawnedProcess] = weakref.WeakValueDictionary()
"""Every live :class:`SpawnedProcess`, by pid: found again behind a wrapper that forwards
``pid`` but not the group methods (a recording spawn wraps the pipes and nothing else)."""


def group_control(process: object) -> GroupControl | None:
    """The group control of a real child ``process`` is, or wraps; None for a double.

    A double's pid is never a real one (the CLI doubles count up from Linux's
    ``PID_MAX_LIMIT``), so the lookup by pid cannot hand a double the group of
    a real child.
    """
    if isinstance(process, GroupControl):
        return process
    pid = getattr(process, "pid", None)
    return _spawned.get(pid) if isinstance(pid, int) else None


async def spawn_process(
    program: str,
    args: tuple[str, ...],
    *,
    stdin: int | None,
    stdout: int | None,
    stderr: int | None,
    cwd: str | os.PathLike[str] | None,
    env: Mapping[str, str] | None,
    limit: int,
    start_new_session: bool,
) -> SpawnedProcess:
    """Start ``program`` the way ``asyncio.create_subprocess_exec`` does; wrap it."""
    loop = asyncio.get_running_loop()
    transport, protocol = await loop.subprocess_exec(
        lambda: _Protocol(limit, loop),
        program,
        *args,
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        cwd=cwd,
        env=None if env is None else dict(env),
        start_new_session=start_new_session,
    )
    process = SpawnedProcess(transport, protocol, own_group=start_new_session)
    _spawned[process.pid] = process
    return process
