"""What a ReactAgent run hands back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from agentkit.core.types import Message, ToolCall, Usage

__all__ = ["ReactResult", "StopReason"]

StopReason = Literal["final", "max_iterations", "budget", "cancelled", "awaiting_approval"]


@dataclass(frozen=True, slots=True)
class ReactResult:
    """How a run ended, with everything needed to tell why.

    ``text`` is the accepted final answer and ``output`` what the output
    validator made of it (the text itself without one); both are None unless
    ``stop_reason == "final"``. ``messages`` is the whole transcript, the task
    first, without the system/grounding head the RequestBuilder adds per call.
    ``iterations`` counts steps, one model call each. ``usage``, ``cost_usd``
    and ``llm_calls`` are read from ``ctx.ledger`` when the run stopped: what
    the run's context has been charged. ``checkpoint_key`` and
    ``pending_tool_call`` are set when the run suspended for approval;
    ``detail`` says why a run stopped early (the budget axis, the cancel
    reason).
    """

    stop_reason: StopReason
    text: str | None
    output: Any
    messages: tuple[Message, ...]
    iterations: int
    usage: Usage
    cost_usd: float
    llm_calls: int
    checkpoint_key: str | None = None
    pending_tool_call: ToolCall | None = None
    detail: str | None = None
