"""The base every verifying double is built on, and where a double says it was made.

A double calls :meth:`VerifyingDouble._init_verification` from its
constructor: it learns where the test made it, and it is handed to its
owner (:mod:`._ownership`). At each miss it calls
:meth:`VerifyingDouble._record_violation`, which keeps the record and offers
it to the owner running at that moment -- so a miss the code under test
swallows is still the failing test's. It overrides
:meth:`VerifyingDouble._leftovers` to report material still unused when it
is judged.
"""

from __future__ import annotations

import contextlib
import os
import sys
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from agentkit.core._internal.arguments import check_bool, check_str
from agentkit.core.verification import _ownership
from agentkit.core.verification._records import Verifiable, VerificationError, Violation

__all__ = ["VerifyingDouble", "collect_doubles", "creation_site"]

_KIT_PREFIXES = ("agentkit.core.", "agentkit.fakes.", "agentkit.agents.")


def _site_of(frame: FrameType | None) -> tuple[str, bool]:
    """``("file:line", from the runner)`` of the first frame outside the kit."""
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if not (isinstance(module, str) and module.startswith(_KIT_PREFIXES)):
            runner = isinstance(module, str) and _ownership.is_runner_module(module)
            return f"{frame.f_code.co_filename}:{frame.f_lineno}", runner
        frame = frame.f_back
    return "<unknown>", True


def creation_site(skip: int = 1) -> str:
    """``"file:line"`` of the first frame outside the kit, looking up from the caller.

    A violation names where the test made the double, not the kit's own
    constructor: the frames of ``agentkit.*`` modules are passed over. A
    double a kit plugin's fixture makes has only pytest above it; the owner
    running then (the test and fixture) names the place instead.
    """
    site, runner = _site_of(sys._getframe(skip))
    if runner:
        owner = _ownership.current_owner()
        named = owner.site() if owner is not None else None
        if named is not None:
            return named
    return site


@contextmanager
def collect_doubles(
    *, isolate: bool = False, label: str | None = None
) -> Iterator[list[Verifiable]]:
    """Collect every double created (with verification on) while the block runs.

    For code that runs doubles without the pytest plugin (a script, another
    test runner): ``verify_all`` the list the block yields when it ends.
    Outside any block and any test nothing is kept, so a double made in a
    script costs no memory. Blocks nest; a block opened without ``isolate``
    hands what it collects to the enclosing owner as well (the test the
    plugin runs, an outer block).

    The block owns what is made in its context: in the code it runs, the
    asyncio tasks it creates and the threads it starts. A double made by
    such work after the block ended goes to the enclosing owner, ``label``
    naming the block that started the work.
    """
    check_bool(isolate, "collect_doubles", "isolate")
    if label is not None:
        check_str(label, "collect_doubles", "label")
    block = _ownership.Block(
        label or "a collect_doubles block", _ownership.current_owner(), isolate=isolate
    )
    with _ownership.carried(block):
        yield block.doubles


class VerifyingDouble:
    """Mixin giving a double a violation record, ``assert_complete`` and an owner.

    A double calls :meth:`_init_verification` from its constructor (or
    ``__post_init__``), :meth:`_record_violation` at each miss, and overrides
    :meth:`_leftovers` to report material still unused when verification runs
    (unconsumed turns, unspawned runs) -- computed then, not at the miss.

    A double that leaves the process (pickled into a process pool, copied
    with ``copy.deepcopy``) is used where this one cannot see it: from then
    on its unused material is not judged here (:attr:`left_process` says
    where it left), while the certain errors it recorded before still are.
    """

    _verify: bool
    _created_at: str
    _recorded: list[Violation]
    _double_name: str
    _left_process: str | None

    def _init_verification(self, *, verify: bool, name: str | None = None) -> None:
        self._double_name = name if name is not None else type(self).__name__
        self._verify = check_bool(verify, self._double_name, "verify")
        self._created_at = creation_site(2)
        self._recorded = []
        self._left_process = None
        if verify:
            _ownership.register(self)
            with contextlib.suppress(TypeError):  # a subclass with __slots__, no __weakref__
                _LIVE.add(self)

    @property
    def verify_enabled(self) -> bool:
        return self._verify

    @property
    def created_at(self) -> str:
        """Where the test created this double (``file:line``)."""
        return self._created_at

    @property
    def left_process(self) -> str | None:
        """Where a copy of this double left for another process or object (None: never)."""
        return getattr(self, "_left_process", None)

    def _violation(self, kind: str, detail: str, fix: str) -> Violation:
        return Violation(self._double_name, self._created_at, kind, detail, fix)

    def _record_violation(self, kind: str, detail: str, fix: str) -> None:
        violation = self._violation(kind, detail, fix)
        self._recorded.append(violation)
        if self._verify:
            _ownership.announce(self, violation)

    def _leftovers(self) -> list[Violation]:
        """Violations that only exist once the test is over (material left unused)."""
        return []

    def violations(self) -> list[Violation]:
        return [*self._recorded, *self._leftovers()]

    def assert_complete(self) -> None:
        """Raise :class:`VerificationError` listing every violation of this double.

        Call it at the end of a test that does not run under the pytest
        plugin (which judges every double for you).
        """
        found = self.violations()
        if found:
            raise VerificationError(found)

    def __reduce_ex__(self, protocol: Any) -> Any:
        # Pickled (a process pool, a subprocess) or deep-copied: the copy is used
        # where this double cannot see it, so this one's leftovers prove nothing.
        if getattr(self, "_left_process", None) is None and hasattr(self, "_verify"):
            site, _ = _site_of(sys._getframe(1))
            object.__setattr__(self, "_left_process", site)
        return object.__reduce_ex__(self, protocol)


_LIVE: weakref.WeakSet[VerifyingDouble] = weakref.WeakSet()
"""Every verifying double alive: what a fork copies into a child process."""


def _forked() -> None:
    # multiprocessing's "fork" (and os.fork) copies every double into the child
    # without pickling it: the child may use any of them where no one here can see.
    for double in list(_LIVE):
        if getattr(double, "_left_process", None) is None:
            object.__setattr__(double, "_left_process", "a fork of this process (os.fork)")


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_parent=_forked)


def recorded(double: Verifiable) -> list[Violation]:
    """The certain errors ``double`` has recorded so far (none for a plain Verifiable)."""
    if isinstance(double, VerifyingDouble):
        return list(getattr(double, "_recorded", ()))
    return []


def left_process(double: Verifiable) -> str | None:
    """Where a copy of ``double`` left (None: never, or not a VerifyingDouble)."""
    return double.left_process if isinstance(double, VerifyingDouble) else None
