"""What one claude turn used and cost, from figures that are partly running totals.

``result.usage`` is the turn's own usage (main loop, per turn), in the
Anthropic convention: input EXCLUSIVE of cache reads and writes, so the
four counts map straight across to agentkit's :class:`~agentkit.core.types.Usage`
(thinking tokens, when reported, are ``reasoning_tokens``, already inside
output). ``result.total_cost_usd`` is NOT per turn: it is the session's
running total, across the turns of a stream-json session and across
``--resume`` (``docs/cli/claude.md``). :func:`turn_cost` takes the turn's
own share -- the codex module's :func:`~agentkit.agents.cognition.codex._usage.turn_usage`
does the same for codex's running token total.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from agentkit.agents.cognition._driver import Charge, Settlement
from agentkit.agents.cognition._fields import EventError, opt_cost, opt_count
from agentkit.agents.cognition.errors import CliError
from agentkit.core.pricing import ANTHROPIC_API, PriceTable, RawUsage, UnknownModelError
from agentkit.core.types import Usage

if TYPE_CHECKING:
    from agentkit.agents.cognition.claude._turn import ClaudeTurn

__all__ = ["last_total", "parse_usage", "reported_usage", "settle", "turn_cost"]

_WHERE = "result.usage"


def parse_usage(obj: Any) -> Usage:
    """A claude ``usage`` object -> agentkit :class:`Usage` (exclusive convention).

    Missing or null counts are 0; a count that is not an int in range raises
    :class:`~agentkit.agents.cognition._fields.EventError`.
    """
    if obj is None:
        return Usage()
    if not isinstance(obj, Mapping):
        raise EventError(f"result: 'usage' must be an object, got {type(obj).__name__}")
    details = obj.get("output_tokens_details")
    thinking = 0
    if isinstance(details, Mapping):
        thinking = opt_count(details, "thinking_tokens", f"{_WHERE}.output_tokens_details")
    raw = RawUsage(
        input_tokens=opt_count(obj, "input_tokens", _WHERE),
        cached_input_tokens=opt_count(obj, "cache_read_input_tokens", _WHERE),
        cache_write_tokens=opt_count(obj, "cache_creation_input_tokens", _WHERE),
        output_tokens=opt_count(obj, "output_tokens", _WHERE),
        reasoning_tokens=thinking,
    )
    return ANTHROPIC_API.normalise(raw)


def _since_last_result(raw: Mapping[str, Any]) -> float | None:
    """The sum of ``model_usage_since_last_result[*].costUSD``, when every figure is usable."""
    since = raw.get("model_usage_since_last_result")
    if not isinstance(since, Mapping) or not since:
        return None
    total = 0.0
    for figures in since.values():
        if not isinstance(figures, Mapping):
            return None
        try:
            cost = opt_cost(figures, "costUSD", "model_usage_since_last_result")
        except EventError:
            return None
        if cost is None:
            return None
        total += cost
    return total


def turn_cost(
    raw: Mapping[str, Any], total_cost_usd: float | None, previous_total: float | None
) -> float | None:
    """This turn's cost as the CLI reports it, or None when it reports none.

    1. ``model_usage_since_last_result``: per-model figures since the previous
       result -- the turn's own cost, right even on the first turn of a
       ``--resume`` (whose ``total_cost_usd`` includes the earlier runs).
       Used only when every figure is a usable cost; otherwise:
    2. ``total_cost_usd`` minus ``previous_total`` (the previous result's
       total in the same process, or the total a resumed session had reached;
       0 for the first). A total that went DOWN (a ``/clear`` restarts it) is
       charged whole: over-charging one turn is the side to err on, an
       under-charge is a budget that never trips.
    """
    since = _since_last_result(raw)
    if since is not None:
        return since
    if total_cost_usd is None:
        return None
    delta = total_cost_usd - (previous_total or 0.0)
    return total_cost_usd if delta < 0 else delta


_MODEL_USAGE_KEYS = (
    ("inputTokens", "input_tokens"),
    ("cacheReadInputTokens", "cached_input_tokens"),
    ("cacheCreationInputTokens", "cache_write_tokens"),
    ("outputTokens", "output_tokens"),
    ("thinkingTokens", "reasoning_tokens"),
)


def _model_usage_tokens(figures: Any) -> Usage | None:
    """The tokens of a ``{model: ModelUsage}`` map (camelCase counts), summed; None if unusable."""
    if not isinstance(figures, Mapping) or not figures:
        return None
    totals = dict.fromkeys((ours for _, ours in _MODEL_USAGE_KEYS), 0)
    for per_model in figures.values():
        if not isinstance(per_model, Mapping):
            return None
        for theirs, ours in _MODEL_USAGE_KEYS:
            value = per_model.get(theirs, 0)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                return None
            totals[ours] += value
    return ANTHROPIC_API.normalise(RawUsage(**totals))


def reported_usage(raw: Mapping[str, Any], usage: Usage, *, first: bool) -> Usage:
    """The turn's tokens: ``result.usage``, or the per-model figures when it is all zeros.

    When ``--max-budget-usd`` stops a run, claude zeroes ``result.usage`` while
    its cost and ``modelUsage`` still carry the call; charging 0 tokens then
    would keep a token budget from ever tripping. The per-model figures since
    the previous result are the turn's own; ``modelUsage`` (a running total
    in a long-lived session) is used only for the first result of a process.
    """
    if usage != Usage():
        return usage
    since = _model_usage_tokens(raw.get("model_usage_since_last_result"))
    if since is not None and since != Usage():
        return since
    if first:
        whole = _model_usage_tokens(raw.get("modelUsage"))
        if whole is not None:
            return whole
    return usage


def settle(
    turn: ClaudeTurn,
    *,
    model: str | None,
    pricing: PriceTable | None,
    previous_total: float | None,
) -> Settlement:
    """What a claude turn is charged: one charge per ``result``, at the turn's own cost.

    Charged under the model a ``model_refusal_fallback`` switched to, when
    one did (the CLI's figures are then the fallback model's), else the
    model ``init`` resolved. The tokens are :func:`reported_usage`'s.

    The cost is the CLI's own figure (:func:`turn_cost`), or the price table's
    when the CLI reports none; with neither, the result is charged 0.0 and
    the turn is ``unpriced`` (an error: claude always reports a cost, so its
    absence is news).
    """
    charged_model = turn.fallback_model or turn.model(model)
    charges: list[Charge] = []
    unpriced: CliError | None = None
    previous = previous_total
    reset = False
    for index, result in enumerate(turn.results):
        usage = reported_usage(
            result.raw, result.usage, first=index == 0 and previous_total is None
        )
        cost = turn_cost(result.raw, result.total_cost_usd, previous)
        if result.total_cost_usd is not None and result.total_cost_usd < (previous or 0.0):
            reset = True
        if cost is None:
            if pricing is None:
                unpriced = unpriced or CliError(
                    "unpriced",
                    "the CLI reported no cost and the cognition has no price table "
                    "(pass pricing=); charged at 0.0",
                    details={"model": charged_model},
                )
            else:
                try:
                    cost = pricing.cost(charged_model, usage)
                except UnknownModelError as exc:
                    unpriced = unpriced or CliError(
                        "unpriced", str(exc), details={"model": charged_model}
                    )
        charges.append(Charge(usage, cost or 0.0, charged_model))
        if result.total_cost_usd is not None:
            previous = result.total_cost_usd
    return Settlement(
        model=charged_model,
        charges=tuple(charges),
        unpriced=unpriced,
        unpriced_flag=unpriced is not None,
        reset=reset,
    )


def last_total(turn: ClaudeTurn, previous_total: float | None) -> float | None:
    """The running total after ``turn``: what the next turn's cost is measured from."""
    for result in reversed(turn.results):
        if result.total_cost_usd is not None:
            return result.total_cost_usd
    return previous_total
