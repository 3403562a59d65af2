"""RecordingError: the one error a recording file that cannot be used raises.

Its own module, below everything else in the sub-package, so that reading a
file, parsing it and gating it can all raise it without importing each
other.
"""

from __future__ import annotations

from agentkit.core._internal.failures import kit_failure

__all__ = ["RecordingError", "shown"]


@kit_failure
class RecordingError(ValueError):
    """A recording file that cannot be loaded: names the file and the 1-based line.

    Raised at load, not at replay, so a bad fixture fails where it is named
    rather than three layers down inside a cognition's error handling.
    """

    # Reported where it is exported: a traceback names the class a user can import.
    __module__ = "agentkit.fakes.cli"

    def __init__(self, source: str, line: int, problem: str) -> None:
        self.source = source
        self.line = line
        """1-based; 0 when the problem is the file as a whole (missing, a FIFO, ...)."""
        self.problem = problem
        super().__init__(f"{source}:{line}: {problem}" if line else f"{source}: {problem}")

    def __reduce__(self) -> tuple[type[RecordingError], tuple[str, int, str]]:
        return (type(self), (self.source, self.line, self.problem))


def shown(value: object) -> str:
    """``value`` for an error message, cut short: a damaged file may hold a megabyte there."""
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:60]}... ({len(text)} chars)"
