"""``describe(value)``: how an error message shows the value it was given, short and never failing.

Its own module because both the public argument errors
(:mod:`agentkit.core.errors`) and the internal checks need it, and the checks
import the errors: here neither imports the other to get it.
"""

from __future__ import annotations

__all__ = ["describe"]


def describe(value: object, limit: int = 80) -> str:
    """``type repr`` of ``value``, the repr cut to ``limit`` characters (a huge value stays short)."""
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the real error
        text = "<unrepresentable>"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{type(value).__name__} {text}"
