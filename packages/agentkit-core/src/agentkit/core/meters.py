"""Meters: where the usage and cost of every charged call add up."""

from __future__ import annotations

from dataclasses import dataclass, field

from agentkit.core.types import Usage

__all__ = ["UsageMeter"]


@dataclass
class UsageMeter:
    """Adds up the usage and cost it is told of, in total and per model.

    Every RunContext carries one as ``ctx.ledger`` (the figure budgets are
    checked against); pass more as ``meters=`` to watch a run from outside.
    """

    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    calls: int = 0
    by_model: dict[str, Usage] = field(default_factory=dict)

    def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        if cost_usd < 0:
            raise ValueError(f"cost_usd must be >= 0, got {cost_usd}")
        self.usage = self.usage + usage
        self.cost_usd += cost_usd
        self.calls += 1
        self.by_model[model] = self.by_model.get(model, Usage()) + usage
