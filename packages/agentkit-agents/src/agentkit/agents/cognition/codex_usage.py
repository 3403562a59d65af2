"""What one codex turn cost, from a figure that is not per turn.

``turn.completed.usage`` is the THREAD's running total: summed over every
model call of the turn and over every earlier ``exec`` / ``exec resume`` of
the same thread (cli-formats.md §2.3, verified 1200 -> 2700 -> 4200 input
across three invocations). Charging it as reported would bill turn 3 for
turns 1 and 2 again; summing it would do worse. This turn's usage is the
difference from the previous ``turn.completed`` of the thread, and only then
is it split into agentkit's exclusive :class:`~agentkit.core.types.Usage`
(Codex counts input INCLUSIVE of cached and cache-written input, which is
:data:`~agentkit.core.pricing.OPENAI_API`'s convention).

The difference is taken on the raw, inclusive figures and normalised after:
the split is linear, so this is the same as differencing the split figures,
and it keeps the one conversion in core (``Mode.normalise``) the only place
the subtraction of cached input happens.
"""

from __future__ import annotations

from dataclasses import dataclass

from agentkit.core.pricing import OPENAI_API, Mode, RawUsage
from agentkit.core.types import Usage

__all__ = ["CODEX_MODE", "TurnUsage", "turn_usage"]

CODEX_MODE: Mode = OPENAI_API
"""Codex reports usage in the OpenAI Responses-API convention."""

_FIELDS = (
    "input_tokens",
    "cached_input_tokens",
    "cache_write_tokens",
    "output_tokens",
    "reasoning_tokens",
)


@dataclass(frozen=True, slots=True)
class TurnUsage:
    """One turn's share of a thread's running total.

    ``raw`` is this turn's figure still in Codex's convention, ``usage`` the
    same split into agentkit's. ``reset`` says the running total went DOWN
    since the previous turn -- not something a cumulative counter does, so the
    baseline is taken to have restarted (a new rollout, or a CLI that reports
    per turn) and the reported figure is charged whole. Over-charging one turn
    is the side to err on: under-charging is a budget that does not trip.
    """

    raw: RawUsage
    usage: Usage
    cumulative: RawUsage
    reset: bool = False


def turn_usage(
    cumulative: RawUsage, previous: RawUsage | None = None, *, mode: Mode = CODEX_MODE
) -> TurnUsage:
    """This turn's usage, given the thread's total now and at the previous turn.

    ``previous`` is None for the first turn of a thread this process has seen,
    whose total is its own. Raises ``ValueError`` (from ``Mode.normalise``) if
    the turn claims more cached input than input: that is a broken report and
    clamping would hide it.
    """
    if previous is None:
        return TurnUsage(cumulative, mode.normalise(cumulative), cumulative)
    deltas = {name: getattr(cumulative, name) - getattr(previous, name) for name in _FIELDS}
    if any(value < 0 for value in deltas.values()):
        return TurnUsage(cumulative, mode.normalise(cumulative), cumulative, reset=True)
    raw = RawUsage(**deltas)
    return TurnUsage(raw, mode.normalise(raw), cumulative)
