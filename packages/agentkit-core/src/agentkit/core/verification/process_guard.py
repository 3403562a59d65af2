"""A switch that stops unit tests from starting real CLI processes by accident.

A test that forgets ``spawn=FakeClaudeCli(...)`` runs the real ``claude``
binary: on a developer's machine it may even succeed, slowly and at a price,
and in CI it fails for a reason that has nothing to do with the code under
test. The real spawn (``agentkit.agents.cognition.default_spawn``) asks
:func:`ensure_real_process_allowed` before it starts anything; the pytest
plugin blocks real processes around each test unless the test opts in. Outside
a blocking block -- in production, in a script -- nothing is blocked.

It lives in agentkit-core, beside the spawn Protocol, so the real spawn and the
plugin agree on one switch without either importing the other.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from agentkit.core._internal.failures import kit_failure

__all__ = [
    "RealProcessBlocked",
    "allow_real_processes",
    "block_real_processes",
    "ensure_real_process_allowed",
    "real_processes_blocked",
]


@kit_failure
class RealProcessBlocked(BaseException):
    """A real process was about to start where the test did not allow one.

    A BaseException, like ``ScriptExhausted`` and for the same reason: the
    cognition that calls the spawn turns ordinary exceptions into a failed
    result, and a test asserting on that failure would pass without ever
    noticing that it ran (or tried to run) the real binary.
    """


_blocks: list[str] = []
_allows: list[bool] = []


def real_processes_blocked() -> bool:
    """True while a :func:`block_real_processes` block is open and no allow is."""
    return bool(_blocks) and not _allows


def ensure_real_process_allowed(argv: Sequence[str]) -> None:
    """Raise :class:`RealProcessBlocked` naming the opt-in, if real processes are blocked."""
    if real_processes_blocked():
        what = " ".join(argv[:1]) if argv else "a process"
        raise RealProcessBlocked(f"refusing to start the real process {what!r}: {_blocks[-1]}")


@contextmanager
def block_real_processes(opt_in: str) -> Iterator[None]:
    """Block real processes while the block runs; ``opt_in`` tells how to allow them.

    ``opt_in`` ends up in the :class:`RealProcessBlocked` message, so it should
    name the fix (the pytest plugin names its marker and fixture).
    """
    _blocks.append(opt_in)
    try:
        yield
    finally:
        _blocks.pop()


@contextmanager
def allow_real_processes() -> Iterator[None]:
    """Allow real processes inside an enclosing :func:`block_real_processes` block."""
    _allows.append(True)
    try:
        yield
    finally:
        _allows.pop()
