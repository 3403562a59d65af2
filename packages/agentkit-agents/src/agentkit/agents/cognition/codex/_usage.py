"""What one codex turn cost, from a figure that is not per turn.

``turn.completed.usage`` is the THREAD's running total: summed over every
model call of the turn and over every earlier ``exec`` / ``exec resume`` of
the same thread (``docs/cli/codex.md``: 1200 -> 2700 -> 4200 input across
three invocations). Charging it as reported would bill turn 3 for
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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agentkit.agents.cognition._driver import Charge, Settlement
from agentkit.agents.cognition._fields import EventError, opt_count
from agentkit.agents.cognition.errors import CliError
from agentkit.core.pricing import OPENAI_API, Mode, PriceTable, RawUsage
from agentkit.core.types import Usage

if TYPE_CHECKING:
    from agentkit.agents.cognition.codex._turn import CodexTurn

__all__ = [
    "BILLING_MODEL",
    "CODEX_MODE",
    "TurnUsage",
    "parse_usage",
    "settle",
    "turn_usage",
]

BILLING_MODEL = "codex"
"""The model name a turn is charged under when none was given: the stream never
names the model, and the CLI's configured default is not knowable from here."""

_WHERE = "turn.completed.usage"

CODEX_MODE: Mode = OPENAI_API
"""Codex reports usage in the OpenAI Responses-API convention."""

_FIELDS = (
    "input_tokens",
    "cached_input_tokens",
    "cache_write_tokens",
    "output_tokens",
    "reasoning_tokens",
)


def parse_usage(obj: Any) -> RawUsage:
    """``turn.completed.usage`` -> :class:`RawUsage`, still in Codex's convention.

    Every field is optional (older builds send three of the five), but a field
    that is present must be a count: a usage figure that is not one is a
    broken stream, and defaulting it to 0 would bill it as free.
    """
    if obj is None:
        return RawUsage()
    if not isinstance(obj, Mapping):
        raise EventError(f"turn.completed: 'usage' must be an object, got {type(obj).__name__}")
    return RawUsage(
        input_tokens=opt_count(obj, "input_tokens", _WHERE),
        cached_input_tokens=opt_count(obj, "cached_input_tokens", _WHERE),
        cache_write_tokens=opt_count(obj, "cache_write_input_tokens", _WHERE),
        output_tokens=opt_count(obj, "output_tokens", _WHERE),
        reasoning_tokens=opt_count(obj, "reasoning_output_tokens", _WHERE),
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


def settle(
    turn: CodexTurn,
    *,
    model: str | None,
    pricing: PriceTable | None,
    resume: str | None,
    previous: RawUsage | None,
) -> Settlement:
    """What a codex turn is charged: its share of the thread total, priced by the table.

    A resumed turn that announced another thread is ``session_mismatch`` and
    charged against no baseline (a different thread's total is its own). A
    usage that cannot be split (more cached than input) is ``invalid_usage``
    and charges zero rather than a clamped guess. Codex reports no cost, so
    without a price table the turn costs 0.0 and is flagged ``unpriced``.
    """
    billing = model or BILLING_MODEL
    mismatch: CliError | None = None
    if resume is not None and turn.thread_id is not None and turn.thread_id != resume:
        mismatch = CliError(
            "session_mismatch",
            f"resumed thread {resume!r} but codex announced {turn.thread_id!r}",
            details={"resumed": resume, "announced": turn.thread_id},
        )
        previous = None
    cumulative = turn.usage
    if cumulative is None:
        return Settlement(model=billing, mismatch=mismatch, unpriced_flag=pricing is None)
    try:
        charged = turn_usage(cumulative, previous)
    except ValueError as exc:
        fault = CliError(
            "invalid_usage", str(exc), details={"usage": cumulative, "previous": previous}
        )
        return Settlement(
            model=billing, mismatch=mismatch, charge_fault=fault, unpriced_flag=pricing is None
        )
    cost = pricing.cost(billing, charged.usage) if pricing is not None else 0.0
    return Settlement(
        model=billing,
        charges=(Charge(charged.usage, cost, billing),),
        mismatch=mismatch,
        unpriced_flag=pricing is None,
        reset=charged.reset,
    )
