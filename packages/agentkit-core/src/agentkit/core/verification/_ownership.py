"""Who owns a double: the one rule that decides which check judges it.

Every double with verification on is handed, when it is made, to its
*owner*: the thing that was running when it was made. An owner is judged
when it ends -- a test at its teardown, a fixture at its finalization, a
:func:`~agentkit.core.verification.collect_doubles` block when it closes.

Which owner is running is told, never guessed:

- In the thread that runs the tests, the runner says it: the pytest plugin
  pushes the test, fixture or collection step it is running onto
  :func:`running` as it starts, and pops it as it ends. How the code under
  test schedules its work there (tasks, a shared event loop, an
  ``IsolatedAsyncioTestCase``'s copied context) does not change the answer.
- In any other thread, the owner is the one that was running where the work
  was handed over: :func:`carry_into_threads` has ``Thread.start`` and
  ``ThreadPoolExecutor.submit`` take the starter's owner along. A thread that
  outlives its owner finds it ended; what it makes then goes to the owner's
  parent (the session), naming the owner that started the work -- never to
  whatever test happens to run at that moment.
- A ``collect_doubles`` block is an owner too, carried by the context, so
  it holds in the code, tasks and threads it starts.

A certain error (a miss, an exhausted script) is *witnessed* when it
happens: :func:`announce` offers it to the running owner, then to its
parents, and the first that reports certain errors (a test) takes it. So a
miss on a double a module fixture made is reported against the test in
which it happened.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any
from weakref import WeakKeyDictionary

from agentkit.core.verification._records import Verifiable, Violation

__all__ = [
    "Owner",
    "announce",
    "carry_into_threads",
    "current_owner",
    "register",
    "running",
    "started_threads",
]


class Owner:
    """Something doubles belong to, judged when it ends.

    ``parent`` is the owner that was running when this one began: what a
    double goes to when it arrives after this owner has ended, and what a
    certain error is offered to when this owner does not report such errors.
    Subclasses (the plugin's test, fixture, collection and session owners)
    decide what to keep; this base keeps every double it is handed.
    """

    __slots__ = ("doubles", "ended", "label", "parent")

    def __init__(self, label: str, parent: Owner | None) -> None:
        self.label = label
        self.parent = parent
        self.doubles: list[Verifiable] = []
        self.ended = False

    def adopt(self, double: Verifiable, started_by: Owner | None) -> None:
        """Take ``double``, made while this owner ran (``started_by``: an ended owner's work)."""
        self.doubles.append(double)

    def witness(self, double: Verifiable, violation: Violation) -> bool:
        """Take a certain error that happened while this owner ran; False passes it up."""
        return False

    def site(self) -> str | None:
        """Where a double made by this owner's machinery (not the user's code) is said to come from."""
        return None if self.parent is None else self.parent.site()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.label}{' (ended)' if self.ended else ''}>"


class Block(Owner):
    """A :func:`collect_doubles` block; one not ``isolate``-d hands its doubles up as well."""

    __slots__ = ("isolate",)

    def __init__(self, label: str, parent: Owner | None, *, isolate: bool) -> None:
        super().__init__(label, parent)
        self.isolate = isolate

    def adopt(self, double: Verifiable, started_by: Owner | None) -> None:
        self.doubles.append(double)
        if not self.isolate and self.parent is not None and not self.parent.ended:
            self.parent.adopt(double, started_by)

    def witness(self, double: Verifiable, violation: Violation) -> bool:
        # An isolated block judges its own doubles whole (a hypothesis example, an
        # inner run): their errors are not news to whoever runs around it.
        return self.isolate and any(mine is double for mine in self.doubles)


# The owners the test runner is running in its own thread, innermost last. A plain
# list, not a context variable: the runner says what runs, whatever context the
# code under test happens to run in.
_RUNNING: list[Owner] = []
# The owner carried into other threads and into collect_doubles blocks.
_CARRIED: ContextVar[Owner | None] = ContextVar("agentkit_owner", default=None)
_STARTED: WeakKeyDictionary[threading.Thread, Owner] = WeakKeyDictionary()
# Set while a ThreadPoolExecutor starts its workers: a pool thread serves whoever
# submits next and ends when its pool is shut down, not when its first work is done.
_IN_POOL: ContextVar[bool] = ContextVar("agentkit_in_pool", default=False)


def current_owner() -> Owner | None:
    """The owner a double made here and now belongs to (None: nobody is collecting)."""
    carried = _CARRIED.get()
    if carried is not None:
        return carried
    return _RUNNING[-1] if _RUNNING else None


@contextmanager
def running(owner: Owner) -> Iterator[Owner]:
    """Have ``owner`` run in the runner's thread for the block.

    Running is not living: a fixture runs while it is set up and lives until
    it is finalized, so the caller says when an owner has ended.
    """
    _RUNNING.append(owner)
    try:
        yield owner
    finally:
        if _RUNNING and _RUNNING[-1] is owner:
            _RUNNING.pop()
        elif owner in _RUNNING:  # ended out of order (a generator closed elsewhere)
            _RUNNING.remove(owner)


@contextmanager
def carried(owner: Owner) -> Iterator[Owner]:
    """Have ``owner`` own what this context (and the work it starts) makes, for the block."""
    token = _CARRIED.set(owner)
    try:
        yield owner
    finally:
        owner.ended = True
        try:
            _CARRIED.reset(token)
        except ValueError:  # left in another context than it was entered in
            _CARRIED.set(owner.parent if isinstance(owner, Block) else None)


def register(double: Verifiable) -> None:
    """Hand a new double to its owner; one that has ended passes it to its parent."""
    owner = current_owner()
    started_by: Owner | None = None
    while owner is not None and owner.ended:
        started_by = started_by or owner
        owner = owner.parent
    if owner is not None:
        owner.adopt(double, started_by)


def announce(double: Verifiable, violation: Violation) -> None:
    """Offer a certain error to the owner running now, then to its parents."""
    owner = current_owner()
    while owner is not None:
        if not owner.ended and owner.witness(double, violation):
            return
        owner = owner.parent


_RUNNER_MODULES: list[tuple[str, ...]] = []
"""The module prefixes of the test runners running owners now (their frames are no user's)."""


@contextmanager
def runner_frames(prefixes: tuple[str, ...]) -> Iterator[None]:
    """Have frames of the packages ``prefixes`` name (``"pkg."``) count as the runner's.

    A double a runner's fixture makes has only the runner's frames above it:
    its creation site is then the running owner's (the test, the fixture).
    The runner names its own modules, so the kit guesses none.
    """
    _RUNNER_MODULES.append(prefixes)
    try:
        yield
    finally:
        _RUNNER_MODULES.remove(prefixes)


def is_runner_module(module: str) -> bool:
    """True for a module of a runner that is running owners now."""
    dotted = module + "."  # "pytest" itself is under "pytest."
    return any(dotted.startswith(prefixes) for prefixes in _RUNNER_MODULES)


def started_threads(root: Owner) -> list[threading.Thread]:
    """The threads, not a pool's, started by an owner under ``root``, still alive."""
    found = []
    for thread, owner in list(_STARTED.items()):
        top: Owner | None = owner
        while top is not None and top is not root:
            top = top.parent
        if top is root and thread.is_alive():
            found.append(thread)
    return found


_THREAD_START = threading.Thread.start


def carry_into_threads() -> None:
    """Make every thread, and every piece of pool work, carry its starter's owner.

    A thread starts with an empty context, so without this a double a thread
    makes would belong to no one. Only this module's own context variable is
    set in the thread -- nothing else about it changes. Idempotent.
    """
    if threading.Thread.start is not _THREAD_START:
        return

    def start(self: threading.Thread) -> None:
        owner = current_owner()
        if owner is not None:
            run = self.run

            def run_owned() -> None:
                _CARRIED.set(owner)
                try:
                    run()
                finally:
                    vars(self).pop("run", None)

            self.run = run_owned  # type: ignore[method-assign]
            if not _IN_POOL.get():
                _STARTED[self] = owner
        _THREAD_START(self)

    threading.Thread.start = start  # type: ignore[method-assign]

    # A pool thread outlives the work that started it and serves whoever submits next
    # (``loop.run_in_executor`` and ``asyncio.to_thread`` included): each piece of work
    # carries its submitter's owner.
    from concurrent.futures import ThreadPoolExecutor

    submit = ThreadPoolExecutor.submit

    def submit_owned(
        self: ThreadPoolExecutor, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> Any:
        owner = current_owner()
        pool = _IN_POOL.set(True)
        try:
            if owner is None:
                return submit(self, fn, *args, **kwargs)

            def work(*a: Any, **k: Any) -> Any:
                token = _CARRIED.set(owner)
                try:
                    return fn(*a, **k)
                finally:
                    _CARRIED.reset(token)

            return submit(self, work, *args, **kwargs)
        finally:
            _IN_POOL.reset(pool)

    ThreadPoolExecutor.submit = submit_owned  # type: ignore[method-assign, assignment]
