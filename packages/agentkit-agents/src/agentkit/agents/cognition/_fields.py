"""Reading one field of a CLI's JSON object: the strict rules both event mappings share.

Both CLIs add fields constantly, so every field but a discriminator or an id
is optional: missing or ``null`` reads as None. A field that IS present with
the wrong type is not guessed at -- it raises :class:`EventError`, and the
object becomes an :class:`EventProblem` of the turn (the turn's error says
which line), the same way for claude and codex. Numbers are held to what
they mean: a count is an int in ``[0, MAX_COUNT]``, a cost a finite float in
``[0, MAX_COST_USD]``; JSON's ``1e400`` (read as ``inf``), ``NaN`` or a
400-digit integer would otherwise overflow a price computation or come back
as ``inf`` on a successful result (``docs/cli/pitfalls.md``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, Final

from agentkit.agents.cognition.result import EventProblem
from agentkit.core.types import FrozenDict

__all__ = [
    "EMPTY",
    "MAX_COST_USD",
    "MAX_COUNT",
    "EventError",
    "opt_bool",
    "opt_cost",
    "opt_count",
    "opt_int",
    "opt_mapping",
    "opt_str",
    "opt_str_list",
    "problem",
    "req_str",
    "view",
]

MAX_COUNT: Final = 10**15
"""The largest token count read as one (a quadrillion: anything above is a broken report)."""

MAX_COST_USD: Final = 1e9
"""The largest cost read as one, in USD (anything above is a broken report, not a bill)."""

EMPTY: Final[Mapping[str, Any]] = FrozenDict()

_TEXT_LIMIT = 4096


class EventError(ValueError):
    """A JSON object that is not a readable event of its CLI: a required part is
    missing, or a present field has the wrong type or an impossible value."""

    __module__ = "agentkit.agents.cognition.claude.events"  # what a traceback prints: the public path (the codex events module exports it too)


def problem(line_no: int, reason: str, obj: object) -> EventProblem:
    """An :class:`EventProblem` for ``obj``, whatever it holds."""
    try:
        text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), default=repr)
    except (ValueError, TypeError, RecursionError):
        text = f"<{type(obj).__name__} that cannot be shown>"
    if len(text) > _TEXT_LIMIT:
        text = text[:_TEXT_LIMIT] + f"[... {len(text) - _TEXT_LIMIT} more characters]"
    return EventProblem(line_no, reason, text)


def view(obj: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only copy of a parsed object's top level (its values are shared, not copied).

    A :class:`~agentkit.core.types.FrozenDict`, as the core value types hold:
    an event then pickles, deep-copies and prints as the JSON object it was.
    """
    return obj if isinstance(obj, FrozenDict) else FrozenDict(obj)


def _wrong(where: str, key: str, wanted: str, value: object) -> EventError:
    shown = repr(value) if not isinstance(value, dict | list) else type(value).__name__
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return EventError(f"{where}: {key!r} must be {wanted}, got {shown}")


def opt_str(obj: Mapping[str, Any], key: str, where: str) -> str | None:
    value = obj.get(key)
    if value is None or isinstance(value, str):
        return value
    raise _wrong(where, key, "a string or null", value)


def req_str(obj: Mapping[str, Any], key: str, where: str) -> str:
    """A discriminator or an id: present, a string, not empty."""
    value = obj.get(key)
    if not isinstance(value, str) or not value:
        raise _wrong(where, key, "a non-empty string", value)
    return value


def opt_bool(obj: Mapping[str, Any], key: str, where: str) -> bool | None:
    value = obj.get(key)
    if value is None or isinstance(value, bool):
        return value
    raise _wrong(where, key, "true, false or null", value)


def opt_int(obj: Mapping[str, Any], key: str, where: str) -> int | None:
    """Any integer (an exit code, a status, a turn count) within +-MAX_COUNT."""
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_COUNT:
        raise _wrong(where, key, "an integer or null", value)
    return value


def opt_count(obj: Mapping[str, Any], key: str, where: str) -> int:
    """A token count: missing or null is 0; otherwise an int in [0, MAX_COUNT]."""
    value = obj.get(key)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise _wrong(where, key, f"an integer from 0 to {MAX_COUNT}", value)
    return value


def opt_cost(obj: Mapping[str, Any], key: str, where: str) -> float | None:
    """A cost in USD: missing or null is None; otherwise finite, in [0, MAX_COST_USD]."""
    value = obj.get(key)
    if value is None:
        return None
    wanted = f"a finite number from 0 to {MAX_COST_USD:g}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _wrong(where, key, wanted, value)
    try:
        cost = float(value)
    except OverflowError:  # a 400-digit integer
        raise _wrong(where, key, wanted, value) from None
    if not math.isfinite(cost) or not 0 <= cost <= MAX_COST_USD:
        raise _wrong(where, key, wanted, value)
    return cost


def opt_mapping(obj: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any] | None:
    value = obj.get(key)
    if value is None or isinstance(value, Mapping):
        return value
    raise _wrong(where, key, "an object or null", value)


def opt_str_list(obj: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    """A list of strings (missing or null: empty)."""
    value = obj.get(key)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _wrong(where, key, "a list of strings or null", value)
    return tuple(value)
