"""Strict verification: what every double shares to make a broken agent fail its test.

A double that holds finite material (a script of turns, a list of CLI runs) or
that can be asked for something it does not have (a URL, a dict-form LLM
prompt) knows things the test body does not: that two turns were never asked
for, that a tool swallowed a ``KeyError`` for a mistyped URL. Raising at the
moment of the miss is not enough -- the code under test may catch it (the tool
loop turns every tool failure into a tool message, by design) and the test goes
green. So each double also *records* the violation, and the record is checked
once more after the test body has run: by :meth:`VerifyingDouble.assert_complete`
when a test calls it, and by the pytest plugin at teardown for every double
created during the test.

What lives here is what all doubles share -- the :class:`Violation` record, the
one :class:`VerificationError` that lists all of them, the
:class:`VerifyingDouble` mixin, and the registry (:func:`collect_doubles`) the
plugin reads -- so that a fakes package needs nothing but agentkit-core and no
fakes package imports pytest.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import Context, ContextVar
from dataclasses import dataclass
from types import FrameType
from typing import Any, Protocol, runtime_checkable

from agentkit.core.arguments import check_bool, check_str, hide_argument_errors
from agentkit.core.failures import kit_failure

__all__ = [
    "REPORT_LIMIT",
    "Verifiable",
    "VerificationError",
    "VerifyingDouble",
    "Violation",
    "collect_doubles",
    "creation_site",
    "verify_all",
]

__tracebackhide__ = hide_argument_errors  # a wrong argument shows the caller's line


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken promise of one double, in words a test failure can show.

    ``double`` names the double (``"FakeLLM.script"``), ``created_at`` is where
    the test made it (``"tests/test_agent.py:12"``), ``kind`` is a short stable
    tag a test may assert on (``"unused_turns"``, ``"unknown_url"`` ...),
    ``detail`` says what was left unused or missed, and ``fix`` says what to
    change -- in the code under test or in the test's material.
    """

    double: str
    created_at: str
    kind: str
    detail: str
    fix: str

    def __str__(self) -> str:
        return f"{self.double} (created at {self.created_at}) {self.kind}: {self.detail}\n    fix: {self.fix}"


@kit_failure
class VerificationError(AssertionError):
    """One or more doubles were not used as the test's material claims.

    An ``AssertionError`` because it is raised where a test asserts -- by a
    test calling ``assert_complete()`` or by the plugin at teardown -- after the
    code under test has finished, so no ``except Exception`` of that code can
    be in the way. ``violations`` holds every :class:`Violation` found, all at
    once, so one run shows everything there is to fix.
    """

    violations: tuple[Violation, ...]

    def __init__(self, violations: Iterable[Violation]) -> None:
        self.violations = tuple(violations)
        count = len(self.violations)
        lines = [f"{count} test-double violation{'' if count == 1 else 's'}:"]
        lines.extend(f"  - {violation}" for violation in self.violations[:REPORT_LIMIT])
        if count > REPORT_LIMIT:
            lines.append(f"  ... and {count - REPORT_LIMIT} more (all in .violations)")
        super().__init__("\n".join(lines))

    def __reduce__(self) -> tuple[type[VerificationError], tuple[tuple[Violation, ...]]]:
        # Rebuilt from the violations, not the message, so it survives pickling
        # (pytest-xdist, multiprocessing) with its structured fields intact.
        return (type(self), (self.violations,))


REPORT_LIMIT = 20
"""How many violations a report spells out; the rest are counted, so a loop that
misses 10,000 times gives a readable failure, not 30,000 lines."""


@runtime_checkable
class Verifiable(Protocol):
    """What the registry and the plugin need of a double."""

    @property
    def verify_enabled(self) -> bool:
        """False when the double was built with ``verify=False``."""
        ...

    def violations(self) -> list[Violation]:
        """Every violation so far: recorded misses plus material left unused."""
        ...

    def assert_complete(self) -> None:
        """Raise :class:`VerificationError` if :meth:`violations` is not empty."""
        ...


_KIT_PREFIXES = ("agentkit.core.", "agentkit.fakes.", "agentkit.agents.")


def creation_site(skip: int = 1) -> str:
    """``"file:line"`` of the first frame outside the kit, looking up from the caller.

    A violation names where the test made the double, not the kit's own
    constructor: the frames of ``agentkit.*`` modules are passed over.
    """
    frame: FrameType | None = sys._getframe(skip)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if not (isinstance(module, str) and module.startswith(_KIT_PREFIXES)):
            return f"{frame.f_code.co_filename}:{frame.f_lineno}"
        frame = frame.f_back
    return "<unknown>"


class _Bucket(list["Verifiable"]):
    """One open :func:`collect_doubles` block: the doubles it collected, and whether it is open.

    ``closed`` is set when the block ends: a double made afterwards by work the
    block started (an asyncio task, a thread) is not added to it -- the check
    of that block has run -- but handed on to the enclosing blocks, with
    ``label`` saying who started the work. ``on_add`` lets a block that lives
    as long as a pytest session look at each double as it arrives.
    """

    __slots__ = ("closed", "isolate", "label", "on_add")

    def __init__(
        self,
        *,
        isolate: bool,
        label: str | None,
        on_add: Callable[[Verifiable, str | None], None] | None = None,
    ) -> None:
        super().__init__()
        self.isolate = isolate
        self.label = label
        self.closed = False
        self.on_add = on_add

    # Two buckets are two blocks, whatever they hold: `in` and `remove` compare by identity.
    __eq__ = object.__eq__
    __hash__ = object.__hash__  # type: ignore[assignment]


# The open blocks, innermost last. A context variable, not a global list, so a
# double is attributed to the block that started the work making it: asyncio
# copies the context into every task it creates, and the pytest plugin has
# threads carry it too (``_carry_into_threads``). Work that outlives its
# block finds the block closed and goes to the enclosing one.
_OPEN: ContextVar[tuple[_Bucket, ...]] = ContextVar("agentkit_open_collectors", default=())
# Where a double goes when its context has no block at all (a thread started
# before any block was opened): the session-long block of the pytest plugin.
_FALLBACK: list[_Bucket] = []


@contextmanager
def collect_doubles(
    *, isolate: bool = False, label: str | None = None
) -> Iterator[list[Verifiable]]:
    """Collect every double created (with verification on) while the block runs.

    The pytest plugin wraps each test in one. Outside any block nothing is
    kept, so a double made at import time or in a script costs no memory.
    Blocks nest; a double is collected by every open block up to and
    including the innermost one opened with ``isolate=True``. The plugin
    isolates each test, so the doubles of a test run by ``pytester`` inside
    another test are that inner test's business alone.

    The open blocks follow the work, not the clock: a double made by an
    asyncio task goes to the blocks open where the task was created, even
    when another block is open by the time it runs; one made after its block
    ended goes to the enclosing blocks (the plugin's session), ``label``
    naming the block that started the work.
    """
    check_bool(isolate, "collect_doubles", "isolate")
    if label is not None:
        check_str(label, "collect_doubles", "label")
    bucket = _Bucket(isolate=isolate, label=label)
    token = _OPEN.set((*_OPEN.get(), bucket))
    try:
        yield bucket
    finally:
        bucket.closed = True
        try:
            _OPEN.reset(token)
        except ValueError:
            # Left in another context than it was entered in (a generator closed
            # elsewhere): drop this block from that context's view instead.
            _OPEN.set(tuple(b for b in _OPEN.get() if b is not bucket))


def _register(double: Verifiable) -> None:
    blocks = _OPEN.get() or tuple(_FALLBACK[-1:])
    started_by: str | None = None
    for bucket in reversed(blocks):
        if bucket.closed:
            # The work that made this double outlived the block that started it.
            if started_by is None:
                started_by = bucket.label or "a block that has ended"
            continue
        bucket.append(double)
        if bucket.on_add is not None:
            bucket.on_add(double, started_by)
        if bucket.isolate:
            break


def _share_blocks(context: Context) -> None:
    """Have ``context`` -- copied before the current blocks were opened -- see them too.

    For a context a framework captured early and runs the test's code in (an
    ``IsolatedAsyncioTestCase`` copies one when it is instantiated).
    """
    context.run(_OPEN.set, _OPEN.get())


def _collecting() -> bool:
    return bool(_OPEN.get() or _FALLBACK)


_THREAD_START = threading.Thread.start


def _carry_into_threads() -> None:
    """Make every thread started from now on inherit the open blocks of its starter.

    A thread starts with an empty context, so without this a double a thread
    makes would belong to no block at all. Only this module's own context
    variable is carried -- nothing else about the thread changes. Installed
    by the pytest plugin for its session; idempotent.
    """
    if threading.Thread.start is not _THREAD_START:
        return

    def start(self: threading.Thread) -> None:
        blocks = _OPEN.get()
        if blocks:
            run = self.run

            def run_in_blocks() -> None:
                _OPEN.set(blocks)
                try:
                    run()
                finally:
                    vars(self).pop("run", None)

            self.run = run_in_blocks  # type: ignore[method-assign]
        _THREAD_START(self)

    threading.Thread.start = start  # type: ignore[method-assign]

    # A pool thread outlives the test that started it and serves whoever submits next
    # (``loop.run_in_executor`` included): each piece of work carries its submitter's
    # blocks, as ``asyncio.to_thread`` carries the whole context.
    from concurrent.futures import ThreadPoolExecutor

    submit = ThreadPoolExecutor.submit

    def submit_in_blocks(
        self: ThreadPoolExecutor, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> Any:
        blocks = _OPEN.get()

        def work(*a: Any, **k: Any) -> Any:
            token = _OPEN.set(blocks)
            try:
                return fn(*a, **k)
            finally:
                _OPEN.reset(token)

        return submit(self, work, *args, **kwargs)

    ThreadPoolExecutor.submit = submit_in_blocks  # type: ignore[method-assign, assignment]


@contextmanager
def _session_block(on_add: Callable[[Verifiable, str | None], None]) -> Iterator[_Bucket]:
    """The plugin's session-long block: isolated, and the fallback for contextless threads."""
    bucket = _Bucket(isolate=True, label="the test session", on_add=on_add)
    token = _OPEN.set((*_OPEN.get(), bucket))
    _FALLBACK.append(bucket)
    try:
        yield bucket
    finally:
        bucket.closed = True
        _FALLBACK.remove(bucket)
        try:
            _OPEN.reset(token)
        except ValueError:
            _OPEN.set(tuple(b for b in _OPEN.get() if b is not bucket))


def _certain_and_unused(double: Verifiable) -> tuple[list[Violation], list[Violation]]:
    """A double's violations in two kinds: certain errors, and material left unused.

    A certain error (a miss, a swallowed exhaustion, a call to a tool never
    offered) was recorded when it happened and is wrong whoever shares the
    double. Unused material only means something once every test meant to
    use the double has run: for a double shared between tests it is judged
    only then. A double not built on :class:`VerifyingDouble` cannot tell
    the two apart, so all it reports counts as unused material.
    """
    if isinstance(double, VerifyingDouble):
        return list(double._recorded), double._leftovers()
    return [], list(double.violations())


def _recorded(double: Verifiable) -> list[Violation]:
    """The certain errors ``double`` has recorded so far, oldest first (none for a plain one)."""
    return double._recorded if isinstance(double, VerifyingDouble) else []


def verify_all(doubles: Iterable[Verifiable]) -> None:
    """Raise ONE :class:`VerificationError` listing the violations of all ``doubles``."""
    found = [
        violation
        for double in doubles
        if double.verify_enabled
        for violation in double.violations()
    ]
    if found:
        raise VerificationError(found)


class VerifyingDouble:
    """Mixin giving a double a violation record, ``assert_complete`` and registration.

    A double calls :meth:`_init_verification` from its constructor (or
    ``__post_init__``), :meth:`_record_violation` at each miss, and overrides
    :meth:`_leftovers` to report material still unused when verification runs
    (unconsumed turns, unspawned runs) -- computed then, not at the miss.
    """

    _verify: bool
    _created_at: str
    _recorded: list[Violation]
    _double_name: str

    def _init_verification(self, *, verify: bool, name: str | None = None) -> None:
        self._double_name = name if name is not None else type(self).__name__
        self._verify = check_bool(verify, self._double_name, "verify")
        self._created_at = creation_site(2)
        self._recorded = []
        if verify and _collecting():
            _register(self)

    @property
    def verify_enabled(self) -> bool:
        return self._verify

    @property
    def created_at(self) -> str:
        """Where the test created this double (``file:line``)."""
        return self._created_at

    def _violation(self, kind: str, detail: str, fix: str) -> Violation:
        return Violation(self._double_name, self._created_at, kind, detail, fix)

    def _record_violation(self, kind: str, detail: str, fix: str) -> None:
        self._recorded.append(self._violation(kind, detail, fix))

    def _leftovers(self) -> list[Violation]:
        """Violations that only exist once the test is over (material left unused)."""
        return []

    def violations(self) -> list[Violation]:
        return [*self._recorded, *self._leftovers()]

    def assert_complete(self) -> None:
        """Raise :class:`VerificationError` listing every violation of this double.

        Call it at the end of a test that does not run under the pytest
        plugin (which calls it for you at teardown).
        """
        __tracebackhide__ = True
        found = self.violations()
        if found:
            raise VerificationError(found)
