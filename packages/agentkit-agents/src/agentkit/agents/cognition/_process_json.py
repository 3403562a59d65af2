"""JSON for a CLI's stdout lines: hostile input is a ValueError, never anything else.

``json.loads`` accepts more than a CLI event can mean and raises more than
``ValueError`` on the way:

* an object nested about a thousand deep raises ``RecursionError``;
* ``1e400`` parses to ``inf`` and ``NaN`` / ``Infinity`` are accepted, so a
  cost or a token count becomes a number no arithmetic survives (``inf`` in a
  ledger, ``OverflowError`` from ``int(inf)``);
* an integer of any size parses, and an absurd one overflows the first
  ``float()`` it meets (a usage figure turned into a cost).

:func:`loads_line` parses the way the CLI runner needs: every one of these
is a ``ValueError`` naming what was refused, so a hostile line is skipped and
recorded with its line number exactly like one that is not JSON at all. The
bound on integers is 2**63 either way -- beyond any count or id a CLI emits
as a JSON number (larger ids arrive as strings) -- which also refuses a
model-written tool argument of twenty digits; such a line is reported, not
lost silently.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["INT_BOUND", "loads_line"]

INT_BOUND = 2**63
"""The largest magnitude an integer in a line may have (inclusive)."""

_INT_DIGITS = len(str(INT_BOUND))


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} does not fit a finite float")
    return value


def _bounded_int(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > _INT_DIGITS:  # refused before int() spends time on it
        raise ValueError(f"an integer of {digits} digits is beyond +-2**63")
    value = int(text)
    if abs(value) > INT_BOUND:
        raise ValueError(f"the integer {text} is beyond +-2**63")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def loads_line(data: bytes | str) -> Any:
    """``json.loads(data)``, raising only ``ValueError`` for what a CLI line must not hold.

    Refused: nesting deep enough to exhaust the recursion limit, ``NaN`` /
    ``Infinity`` / ``-Infinity``, floats that overflow to infinity, and
    integers beyond +-:data:`INT_BOUND`.
    """
    try:
        return json.loads(
            data,
            parse_float=_finite_float,
            parse_int=_bounded_int,
            parse_constant=_no_constant,
        )
    except RecursionError:
        raise ValueError("the JSON is nested too deeply") from None
