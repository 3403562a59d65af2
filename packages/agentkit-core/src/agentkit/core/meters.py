"""Meters: where the usage and cost of every charged call add up."""

from __future__ import annotations

from dataclasses import dataclass, field

from agentkit.core._internal.arguments import (
    check_int,
    check_mapping,
    check_number,
    check_str,
    check_type,
)
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

    def __post_init__(self) -> None:
        check_type(self.usage, Usage, "UsageMeter", "usage", "a Usage")
        check_number(self.cost_usd, "UsageMeter", "cost_usd")
        self.cost_usd = float(self.cost_usd)
        check_int(self.calls, "UsageMeter", "calls")
        check_mapping(self.by_model, "UsageMeter", "by_model", "a dict {model: Usage}")
        for model, usage in self.by_model.items():
            check_str(model, "UsageMeter", "by_model keys")
            check_type(usage, Usage, "UsageMeter", f"by_model[{model!r}]", "a Usage")

    def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        # NaN is refused with the negatives: one NaN charge makes every later total NaN,
        # and a NaN total never trips a budget.
        check_type(usage, Usage, "UsageMeter.record", "usage", "a Usage")
        check_number(cost_usd, "UsageMeter.record", "cost_usd")
        check_str(model, "UsageMeter.record", "model")
        self.usage = self.usage + usage
        self.cost_usd += cost_usd
        self.calls += 1
        self.by_model[model] = self.by_model.get(model, Usage()) + usage
