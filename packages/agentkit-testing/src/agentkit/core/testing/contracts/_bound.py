"""One check, run so that nothing the implementation does can hang the run or go unseen.

Why a thread and a deadline from outside: ``asyncio.timeout`` bounds only an
implementation that awaits. One that blocks the event loop (``time.sleep``, a
busy loop, a blocking lock) never lets the timeout fire, and one that
swallows ``CancelledError`` never ends when it does fire; either hung the
whole run with no report. So each check runs in an event loop of its own, on
a daemon thread, and the runner waits for it from the caller's loop. At the
bound the check's task is cancelled (an implementation that awaits ends
there, and the report says where it was waiting); if it has still not ended
after :data:`CANCEL_GRACE`, the runner reports where it is stuck and leaves
the thread behind.

Why daemon threads all the way down: at exit the interpreter joins every
non-daemon thread, and ``concurrent.futures`` joins its pools' threads too, so
one stuck call (the check's own loop, or ``asyncio.to_thread(time.sleep,
...)`` on the loop's default executor) would keep pytest's process alive after
its summary. The check's thread is a daemon, and its loop's default executor
runs each call on a daemon thread of its own, never joined.

Why the check also answers for what it leaves: an implementation that starts
a thread or a child process and never stops it passes every check while the
test run slowly fills with them. Threads started during the check and still
alive after it (a short grace for those ending anyway), and child processes
still running, are the check's failure, named; the children are killed so
they do not outlive the run.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import functools
import gc
import os
import signal
import subprocess
import sys
import threading
import time
import types
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

__all__ = ["CANCEL_GRACE", "LEAK_GRACE", "Outcome", "run_bounded"]

T = TypeVar("T")

CANCEL_GRACE = 5.0
"""Seconds a check cancelled at its bound is given to end before it is reported stuck."""

LEAK_GRACE = 5.0
"""Seconds threads and child processes started during a check are given to end after it.

Generous, as a correct implementation must never fail for a thread that was
ending anyway on a loaded machine; only what is really left pays the wait.
"""

WORKER_PREFIX = "agentkit-contract-check"
"""The name of the threads checks run on (never counted as left behind)."""

_KIT = os.path.dirname(os.path.abspath(__file__))


@dataclass
class Outcome:
    """How a check ended: ``error`` it raised (None: it returned), or the ``hang`` it was.

    ``left`` names what it left behind (threads, child processes, tasks).
    """

    error: BaseException | None = None
    hang: str | None = None
    left: list[str] = field(default_factory=list)


class _DaemonCalls(concurrent.futures.ThreadPoolExecutor):
    """A check's default executor: each call on a daemon thread of its own, never joined.

    ``asyncio.to_thread`` and ``run_in_executor(None, ...)`` run here. The
    stdlib's pool joins its threads at interpreter exit, so a call that never
    returns would keep the process alive; here a call still running after
    the check is reported as a thread left behind.
    """

    def submit(
        self, fn: Callable[..., T], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[T]:
        future: concurrent.futures.Future[T] = concurrent.futures.Future()

        def call() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:
                future.set_exception(exc)
            else:
                future.set_result(result)

        name = f"executor call {_callable_name(fn, args)}"
        threading.Thread(target=call, name=name, daemon=True).start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        pass  # nothing to join: a call still running is reported, not waited for


def _callable_name(fn: Any, args: tuple[Any, ...]) -> str:
    """``time.sleep`` for ``to_thread(time.sleep, ...)``, which hands over ``Context.run``."""
    while isinstance(fn, functools.partial):
        fn, args = fn.func, fn.args + args
    if getattr(fn, "__name__", None) == "run" and args and callable(args[0]):
        fn = args[0]  # contextvars.Context.run(func, ...)
    module = getattr(fn, "__module__", None)
    name = getattr(fn, "__qualname__", None) or repr(fn)
    return f"{module}.{name}" if module else name


@dataclass
class _Run:
    """What the check's thread and the waiting runner share."""

    limit: float
    outer: asyncio.AbstractEventLoop
    ended: asyncio.Future[None]
    closed: asyncio.Future[None]
    loop: asyncio.AbstractEventLoop | None = None
    task: asyncio.Task[Any] | None = None
    timed_out: bool = False
    abandoned: bool = False
    """Set once the runner has stopped waiting: the check's findings have been reported."""
    waiting_in: str | None = None
    outcome: Outcome = field(default_factory=Outcome)

    def notify(self, future: asyncio.Future[None]) -> None:
        def settle() -> None:
            if not future.done():
                future.set_result(None)

        with contextlib.suppress(RuntimeError):  # the caller's loop closed: nobody waits now
            self.outer.call_soon_threadsafe(settle)

    def deadline(self) -> None:
        """At the bound: note where the check is waiting, then cancel it."""
        if self.task is not None and not self.task.done():
            self.timed_out = True
            self.waiting_in = _place(_coroutine_frames(self.task))
            self.task.cancel()


async def run_bounded(job: Callable[[], Awaitable[None]], limit: float) -> Outcome:
    """Run ``job()`` in an event loop of its own on a daemon thread, bounded by ``limit`` seconds."""
    outer = asyncio.get_running_loop()
    run = _Run(limit, outer, outer.create_future(), outer.create_future())
    context = contextvars.copy_context()  # the caller's: the plugin's and the suite's state
    thread = threading.Thread(
        target=context.run, args=(_work, job, run), name=WORKER_PREFIX, daemon=True
    )
    thread.start()
    try:
        done, _ = await asyncio.wait([run.ended], timeout=limit + CANCEL_GRACE)
        if not done:
            where = _place(_running_check(thread)) or _place(_task_frames(run))
            _stop(run)
            return Outcome(
                hang=f"did not finish within {limit:g}s and did not end when cancelled "
                f"{CANCEL_GRACE:g}s later: it blocks the event loop or ignores cancellation"
                + (f"; it is stuck in {where}" if where else "")
                + ". Its thread is left running as a daemon, which ends with the process"
            )
        done, _ = await asyncio.wait([run.closed], timeout=2 * (CANCEL_GRACE + LEAK_GRACE) + 5)
    except BaseException:
        _stop(run)  # the caller is being cancelled or interrupted: stop the check too
        raise
    outcome = run.outcome
    if not done:
        where = _place(_thread_frames(thread), innermost=True)
        outcome.left.append(
            "its event loop, which did not close after the check"
            + (f" (stuck in {where})" if where else "")
        )
    return outcome


def _stop(run: _Run) -> None:
    run.abandoned = True
    loop, task = run.loop, run.task
    if loop is not None and task is not None:
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(task.cancel)


def _work(job: Callable[[], Awaitable[None]], run: _Run) -> None:
    """The check's thread: run the job, then sweep what it left, then close its loop."""
    loop = asyncio.new_event_loop()
    loop.set_default_executor(_DaemonCalls(max_workers=1))
    asyncio.set_event_loop(loop)
    threads_before = set(threading.enumerate())
    children_before = set(_children())
    run.loop = loop
    try:
        task = loop.create_task(_awaited(job))
        run.task = task
        handle = loop.call_later(run.limit, run.deadline)
        with contextlib.suppress(BaseException):
            loop.run_until_complete(task)
        handle.cancel()
        if run.timed_out:  # however it ended once cancelled, it overran its bound
            where = f"; it was waiting in {run.waiting_in}" if run.waiting_in else ""
            run.outcome.hang = f"did not finish within {run.limit:g}s (a hang){where}"
        elif not task.done():  # its loop was stopped under it (a callback raised)
            run.outcome.error = RuntimeError(
                "the check's event loop stopped before the check ended"
            )
        elif task.cancelled():
            run.outcome.error = asyncio.CancelledError()
        else:
            run.outcome.error = task.exception()
        run.notify(run.ended)
        run.outcome.left += loop.run_until_complete(_cancel_the_rest(loop, task))
        if not run.abandoned:
            # Not for a check given up on: it may end long after, when threads and children
            # that later tests started are about, and they are not its to report or kill.
            left = loop.run_until_complete(_left_behind(threads_before, children_before, run))
            run.outcome.left += left
        loop.run_until_complete(_bounded(loop.shutdown_asyncgens()))
    finally:
        asyncio.set_event_loop(None)
        loop.close()
        run.notify(run.ended)
        run.notify(run.closed)


async def _awaited(job: Callable[[], Awaitable[None]]) -> None:
    await job()


async def _bounded(awaitable: Awaitable[None]) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(awaitable, CANCEL_GRACE)


async def _cancel_the_rest(loop: asyncio.AbstractEventLoop, check: asyncio.Task[Any]) -> list[str]:
    """Cancel the tasks the implementation left running; name those that would not end."""
    rest = [
        t for t in asyncio.all_tasks(loop) if t is not check and t is not asyncio.current_task()
    ]
    for task in rest:
        task.cancel()
    if rest:
        await asyncio.wait(rest, timeout=CANCEL_GRACE)
    return [
        f"task {t.get_name()} ({_place(_coroutine_frames(t)) or 'running'}), which did not end "
        "when cancelled"
        for t in rest
        if not t.done()
    ]


async def _left_behind(
    threads_before: set[threading.Thread], children_before: set[int], run: _Run
) -> list[str]:
    """Threads and child processes started during the check and still there after a grace."""

    def threads() -> list[threading.Thread]:
        return [
            t
            for t in threading.enumerate()
            if t not in threads_before and t.is_alive() and not t.name.startswith(WORKER_PREFIX)
        ]

    def children() -> dict[int, str]:
        return {pid: text for pid, text in _children().items() if pid not in children_before}

    await _settle(lambda: bool(threads() or children()))
    running = {} if run.abandoned else children()
    for pid in running:
        _kill(pid)
    # A killed child's reaper (asyncio's watcher thread, say) ends once the child is reaped.
    await _settle(lambda: bool(running and threads()))
    left = [f"child process {pid} ({text}), killed by the suite" for pid, text in running.items()]
    return left + [_thread_text(t) for t in threads()]


async def _settle(busy: Callable[[], bool]) -> None:
    """Run the loop until ``busy()`` is False, for :data:`LEAK_GRACE` seconds at most."""
    deadline = time.monotonic() + LEAK_GRACE
    for _ in range(int(LEAK_GRACE / 0.01) + 1):
        if not busy() or time.monotonic() >= deadline:
            return
        await asyncio.sleep(0.01)


def _thread_text(thread: threading.Thread) -> str:
    frames = [f for f in _thread_frames(thread) if f.f_code.co_filename != threading.__file__]
    where = _place(frames, innermost=True)
    return f"thread {thread.name!r}" + (f" ({where})" if where else "") + ", still running"


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))


def _children() -> dict[int, str]:
    """This process's running descendants: ``{pid: command line}`` (zombies are not running).

    On Linux read from each process's ``task/*/children`` (a few files, not
    the whole process table, since this runs twice per check); elsewhere from
    ``ps``. Windows is not covered: it has no way to list them without a
    dependency.
    """
    me = os.getpid()
    if not os.path.isdir(f"/proc/{me}/task"):
        return _from_ps(me)
    found: dict[int, str] = {}
    parents = [me]
    while parents:
        for pid in _kids(parents.pop()):
            if pid not in found and (text := _running_command(pid)) is not None:
                found[pid] = text
                parents.append(pid)
    return found


def _kids(pid: int) -> list[int]:
    kids: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return kids  # it ended meanwhile
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", "rb") as listing:
                kids += [int(n) for n in listing.read().split()]
        except OSError:
            continue
    return kids


def _running_command(pid: int) -> str | None:
    """``pid``'s command line, or None once it has exited (a zombie) or is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            if stat.read().rsplit(b")", 1)[1].split()[0] == b"Z":
                return None
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            text = cmdline.read().replace(b"\0", b" ").strip()
    except (OSError, IndexError):
        return None
    return text.decode(errors="replace")[:120]


def _from_ps(me: int) -> dict[int, str]:
    if sys.platform == "win32":
        return {}
    try:
        with subprocess.Popen(
            ["ps", "-A", "-o", "pid=,ppid=,stat=,args="],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        ) as ps:
            listing, _ = ps.communicate(timeout=10)
    except (OSError, subprocess.SubprocessError):
        return {}
    table: dict[int, tuple[int, str]] = {}
    for line in listing.splitlines():
        parts = line.split(None, 3)
        if len(parts) >= 3 and parts[0].isdigit() and parts[1].isdigit() and "Z" not in parts[2]:
            table[int(parts[0])] = (int(parts[1]), parts[3][:120] if len(parts) > 3 else "")
    table.pop(ps.pid, None)  # the ps that listed them
    found: dict[int, str] = {}
    parents = {me}
    while more := {
        pid: text for pid, (ppid, text) in table.items() if ppid in parents and pid not in found
    }:
        found.update(more)
        parents |= set(more)
    return found


# ------------------------------------------------------------------ where it is


def _thread_frames(thread: threading.Thread) -> list[types.FrameType]:
    """The frames ``thread`` is running, outermost first (empty once it has ended)."""
    frame = sys._current_frames().get(thread.ident or -1)
    frames: list[types.FrameType] = []
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    return frames[::-1]


def _running_check(thread: threading.Thread) -> list[types.FrameType]:
    """The frames of the check ``thread`` is running, if it is in one (not idle in its loop)."""
    frames = _thread_frames(thread)
    starts = [i for i, f in enumerate(frames) if f.f_code is _awaited.__code__]
    return frames[starts[0] :] if starts else []


def _task_frames(run: _Run) -> list[types.FrameType]:
    return [] if run.task is None else _coroutine_frames(run.task)


def _coroutine_frames(task: asyncio.Task[Any]) -> list[types.FrameType]:
    """The frames of the coroutines ``task`` is suspended in, outermost first."""
    frames: list[types.FrameType] = []
    awaited: Any = task.get_coro()
    for _ in range(100):
        frame = _frame_of(awaited)
        if frame is None:
            if type(awaited).__name__ not in _ASYNC_GENERATOR_STEPS:
                break  # a future: what it waits for runs elsewhere
            # An async generator's asend / athrow hides its generator: find it by reference.
            inner = [o for o in gc.get_referents(awaited) if _frame_of(o) is not None]
            if not inner:
                break
            awaited = inner[0]
            continue
        frames.append(frame)
        awaited = (
            getattr(awaited, "cr_await", None)
            or getattr(awaited, "ag_await", None)
            or getattr(awaited, "gi_yieldfrom", None)
        )
        if awaited is None:
            break
    return frames


_ASYNC_GENERATOR_STEPS = ("async_generator_asend", "async_generator_athrow")


def _frame_of(obj: object) -> types.FrameType | None:
    for name in ("cr_frame", "ag_frame", "gi_frame"):
        frame = getattr(obj, name, None)
        if isinstance(frame, types.FrameType):
            return frame
    return None


def _place(frames: list[types.FrameType], *, innermost: bool = False) -> str | None:
    """The implementation's code in ``frames``: the method the suite called, and the line.

    That is the first frame after the suite's own (or, for a thread the suite
    did not start, the innermost), with the innermost frame below it when it
    is elsewhere: ``SleepyFetch.fetch (test_x.py:14), at queue.py:171 in get``.
    """
    ours = [i for i, f in enumerate(frames) if f.f_code.co_filename.startswith(_KIT)]
    theirs = frames[ours[-1] + 1 :] if ours else ([] if not innermost else frames)
    if not theirs:
        return None
    entry, deepest = (theirs[-1], theirs[-1]) if innermost else (theirs[0], theirs[-1])
    text = f"{_qualname(entry)} ({_line(entry)})"
    if deepest is not entry:
        text += f", at {_line(deepest)} in {_qualname(deepest)}"
    return text


def _qualname(frame: types.FrameType) -> str:
    return getattr(frame.f_code, "co_qualname", frame.f_code.co_name)


def _line(frame: types.FrameType) -> str:
    return f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno}"
