"""The real spawn, :func:`default_spawn`, and the process it returns.

:func:`default_spawn` is the :class:`~agentkit.core.ports.SpawnPort` a
cognition uses unless a test gives it a double: it checks its input, asks the
real-process guard, and starts the child. What it returns is
:class:`SpawnedProcess`: asyncio's pipes, with the SpawnPort rules kept.
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
:class:`~agentkit.agents.cognition._runner.CliProcess` looks for on the
process it is given (a wrapper that forwards attributes keeps it).

Two safeguards are set at the spawn, because nothing later can set them:

* **The child dies with its parent** (Linux): it is started with the
  parent-death signal (``prctl(PR_SET_PDEATHSIG, SIGKILL)``), so a test
  process killed by CI, ``timeout`` or ``docker stop`` -- even by SIGKILL,
  where no cleanup of ours runs -- takes the CLI with it, although the CLI
  runs in a session of its own. The signal follows the thread that spawned
  it (the event loop's), and it is not inherited: the CLI's own children see
  their pipes close when it dies.
* **The child's descendants can be proven**: its environment carries a
  token of this spawn alone (:data:`RUN_MARK`), so a descendant that left
  the CLI's session and lost its parent (reparented to init) is still known
  as the CLI's by the environment it inherited -- and a process that is not
  the CLI's (a fork of the test process holding the same pipe) is never
  signalled. See :func:`descends_from`.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import secrets
import signal
import sys
import weakref
from collections.abc import Callable, Iterable, Mapping
from typing import Protocol, Unpack, runtime_checkable

from agentkit.core._internal.arguments import check_int, check_mapping, check_str, check_type
from agentkit.core.ports import (
    DEFAULT_STREAM_LIMIT,
    ProcessPort,
    SpawnOptions,
    check_spawn_options,
)
from agentkit.core.verification.process_guard import ensure_real_process_allowed

__all__ = [
    "RUN_MARK",
    "GroupControl",
    "SpawnedProcess",
    "default_spawn",
    "descends_from",
    "group_control",
]

RUN_MARK = "AGENTKIT_CLI_RUN"
"""The environment variable a real child is started with: a random token of that spawn.

Every descendant that did not clear its environment inherits it, which is
how a holder of the child's pipes is proven to be the child's after it was
orphaned and left the child's session (see :func:`descends_from`).
"""

_PR_SET_PDEATHSIG = 1
_RELEASE_STEPS = 100
"""Loop iterations the pipes get to finish closing (each close is one callback)."""


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
        """Close stdin, stdout and stderr: the readers see EOF, the fds are freed.

        Whatever still holds them and is proven to descend from the child --
        a descendant that left the group -- is killed first: it is the
        child's, and nothing else stops it. Returns how many holders were killed.
        """
        ...

    async def released(self) -> None:
        """Return once every pipe to the child is closed (its descriptor freed)."""
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
        mark: str | None = None,
    ) -> None:
        self._transport = transport
        self._protocol = protocol
        self._own_group = own_group
        self._mark = mark
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

    def _open_pipes(self) -> list[tuple[int, asyncio.BaseTransport]]:
        """The pipe transports whose descriptor is still open, by the child's fd."""
        found = []
        for fd in (0, 1, 2):
            pipe = self._transport.get_pipe_transport(fd)
            file = None if pipe is None else pipe.get_extra_info("pipe")
            if pipe is not None and file is not None and not file.closed:
                found.append((fd, pipe))
        return found

    def close_pipes(self) -> int:
        """Close the pipes; first kill whatever proven descendant still holds them.

        Called once the child is gone and its group killed, so a holder is a
        descendant that left the group (``setsid()``): no signal to the group
        reaches it, but the pipe it holds -- made for this child alone --
        names it. A holder is killed only once :func:`descends_from` proved
        it the child's: a fork of the caller holds the same pipes and is left
        alone. stdin counts too: a descendant that inherited it and never
        reads would keep unsent input -- and its descriptor -- forever.
        Without ``/proc`` (not Linux) the pipes are closed all the same.
        Returns how many holders were killed.
        """
        pipes = self._open_pipes()
        inodes = set()
        for _, pipe in pipes:
            with contextlib.suppress(OSError, AttributeError):
                inodes.add(os.fstat(pipe.get_extra_info("pipe").fileno()).st_ino)
        root = self.pid
        session = root if self._own_group else None
        killed = 0
        for pid in _holders(inodes):
            if _kill_if(pid, lambda p: descends_from(p, root, session=session, mark=self._mark)):
                killed += 1
        for fd, pipe in pipes:
            if fd == 0:
                # Unsent input is for a child that is gone: drop it, free the fd now.
                # (A write pipe already closing with nothing buffered is closed by
                # its own callback; a second one would run connection_lost twice.)
                if isinstance(pipe, asyncio.WriteTransport) and (
                    not pipe.is_closing() or pipe.get_write_buffer_size()
                ):
                    pipe.abort()
            elif not pipe.is_closing():
                pipe.close()
        return killed

    async def released(self) -> None:
        """Return once every pipe's descriptor is closed, or after a bounded few loop turns.

        A transport closes its pipe in a callback the loop runs next, so a
        caller that returns at once would still hold the descriptors; a
        process that opens and closes sessions by the thousand would then
        count them as leaked, and under load run into "too many open files".
        """
        for _ in range(_RELEASE_STEPS):
            if not self._open_pipes():
                return
            await asyncio.sleep(0)


def _proc_stat(pid: int) -> tuple[int, int] | None:
    """``(ppid, session id)`` of ``pid`` from ``/proc/PID/stat``; None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            data = file.read()
    except OSError:
        return None
    fields = data.rsplit(b")", 1)[-1].split()
    try:
        return int(fields[1]), int(fields[3])
    except (IndexError, ValueError):
        return None


def _environ_has(pid: int, mark: str) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as file:
            return f"{RUN_MARK}={mark}".encode() in file.read().split(b"\0")
    except OSError:
        return False


def descends_from(pid: int, root: int, *, session: int | None, mark: str | None) -> bool:
    """Is ``pid`` the process ``root`` or one of its descendants? Proven, never guessed.

    Any one of three proofs, read from ``/proc``: its parent chain reaches
    ``root``; it is in ``root``'s own ``session`` (a session is entered only
    by inheritance, and its id is not reused while a member lives); or its
    environment holds ``mark``, the token only ``root``'s spawn was given.
    A process orphaned and moved to a session of its own keeps the third.
    Anything else -- a fork of the caller, an unrelated process that opened
    the same pipe -- is not proven, and so not the runner's to kill.
    """
    seen: set[int] = set()
    current = pid
    while current > 1 and current not in seen:
        if current == root:
            return True
        seen.add(current)
        stat = _proc_stat(current)
        if stat is None:
            break
        parent, sid = stat
        if session is not None and sid == session:
            return True
        current = parent
    return mark is not None and _environ_has(pid, mark)


def _kill_if(pid: int, proven: Callable[[int], bool]) -> bool:
    """SIGKILL ``pid`` if ``proven(pid)``; True if it was signalled.

    Where the platform has pidfds the process is pinned first, so the proof
    and the signal are about the same process even if ``pid`` is reused.
    """
    pin = getattr(os, "pidfd_open", None)
    send = getattr(signal, "pidfd_send_signal", None)
    pidfd = -1
    if pin is not None and send is not None:
        try:
            pidfd = pin(pid)
        except OSError:
            return False  # gone already
    try:
        if not proven(pid):
            return False
        try:
            if pidfd >= 0:
                assert send is not None
                send(pidfd, signal.SIGKILL)
            else:
                os.kill(pid, signal.SIGKILL)
        except OSError:
            return False
        return True
    finally:
        if pidfd >= 0:
            os.close(pidfd)


def _holders(inodes: Iterable[int]) -> list[int]:
    """Pids of other processes holding one of the pipes ``inodes`` (read from ``/proc``)."""
    targets = {f"pipe:[{inode}]" for inode in inodes}
    if not targets:
        return []
    own = os.getpid()
    found = []
    with contextlib.suppress(OSError), os.scandir("/proc") as entries:
        for entry in entries:
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


def _parent_death_signal() -> Callable[[], None] | None:
    """A ``preexec_fn`` that gives the child SIGKILL when its parent dies; None off Linux.

    Resolved in the parent, so the child (between fork and exec) only makes
    the call. The parent may die before the call is made; then the child is
    already orphaned and the signal would never come, so it checks its
    parent is still the one that forked it, and ends itself if not.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def arm() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)

    return arm


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


async def _start(
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
    """Start ``program`` the way ``asyncio.create_subprocess_exec`` does; wrap it.

    The child gets the parent-death signal and, in its environment,
    :data:`RUN_MARK` set to a token of its own (see the module's docstring).
    """
    loop = asyncio.get_running_loop()
    mark = secrets.token_hex(16)
    environment = dict(os.environ if env is None else env)
    environment[RUN_MARK] = mark
    transport, protocol = await loop.subprocess_exec(
        lambda: _Protocol(limit, loop),
        program,
        *args,
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        cwd=cwd,
        env=environment,
        start_new_session=start_new_session,
        preexec_fn=_parent_death_signal(),
    )
    process = SpawnedProcess(transport, protocol, own_group=start_new_session, mark=mark)
    _spawned[process.pid] = process
    return process


async def default_spawn(program: str, *args: str, **options: Unpack[SpawnOptions]) -> ProcessPort:
    """The real spawn: ``asyncio.create_subprocess_exec`` behind the SpawnPort shape.

    Refuses wrong input before anything starts (``TypeError`` / ``ValueError``
    naming the argument: a ``limit`` of 1.5 would otherwise drop every line),
    and asks :func:`~agentkit.core.verification.process_guard.ensure_real_process_allowed`
    first, so a unit test that forgot its fake spawn fails instead of running
    the real binary.

    The process it returns keeps the rules the doubles keep: ``wait()`` gives
    the exit code only once stdout and stderr are at EOF, and ``terminate()``
    / ``kill()`` after the exit do nothing (asyncio's own ``Process`` breaks
    both; see :class:`SpawnedProcess`).
    Its keywords are :class:`~agentkit.core.ports.SpawnOptions`, each taking
    the port's default.
    """
    where = "default_spawn"
    check_spawn_options(options, where)
    check_str(program, where, "program", empty=False)
    for index, arg in enumerate(args):
        check_str(arg, where, f"args[{index}]")
    limit = check_int(options.get("limit", DEFAULT_STREAM_LIMIT), where, "limit", minimum=1)
    env = options.get("env")
    if env is not None:
        wanted = "a Mapping[str, str] or None"
        for key, value in check_mapping(env, where, "env", wanted).items():
            check_str(key, where, "env key", empty=False)
            check_str(value, where, f"env[{key!r}]")
    cwd = options.get("cwd")
    if cwd is not None:
        check_type(cwd, (str, os.PathLike), where, "cwd", "a str, a path or None")
    ensure_real_process_allowed((program, *args))
    return await _start(
        program,
        args,
        stdin=options.get("stdin"),
        stdout=options.get("stdout"),
        stderr=options.get("stderr"),
        cwd=cwd,
        env=env,
        limit=limit,
        start_new_session=options.get("start_new_session", False),
    )
