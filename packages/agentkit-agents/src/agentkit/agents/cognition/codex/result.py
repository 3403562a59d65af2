"""The result of one codex turn: the shared :class:`CliResult`, plus what codex adds.

A caller that reads claude and codex alike reads the shared fields (``text``,
``usage``, ``cost_usd``, ``session_id`` / ``thread_id``, ``error``,
``http_status``, ``unpriced``). What only codex has -- a running usage total
that is not the turn's charge, retry notices, warning items -- is kept here
rather than dropped, because "why was this turn charged what it was" and
"what was the CLI complaining about before it failed" are questions a test
(or an operator) asks of codex specifically.
"""

from __future__ import annotations

from dataclasses import dataclass

from agentkit.agents.cognition.codex.events import CodexEvent, CodexItem, ItemEvent
from agentkit.agents.cognition.result import CliResult
from agentkit.core.pricing import RawUsage

__all__ = ["CodexCliResult"]


@dataclass(frozen=True, slots=True)
class CodexCliResult(CliResult[CodexEvent]):
    """One ``codex exec --json`` spawn, which is one turn.

    * ``usage`` (inherited) is THIS turn's charge, split exclusive of cached
      input; ``cumulative_usage`` is the thread's running total as codex
      reported it (raw, inclusive), which the next turn's charge is measured
      from. ``usage_reset`` says the total went down and was charged whole.
    * ``stream_errors`` -- top-level ``error`` events (retry notices; the
      last one usually explains a failure); ``warnings`` -- ``error`` items.
    """

    cumulative_usage: RawUsage | None = None
    usage_reset: bool = False
    stream_errors: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def items(self) -> tuple[CodexItem, ...]:
        """Completed items of the turn, in order."""
        return tuple(
            e.item for e in self.events if isinstance(e, ItemEvent) and e.phase == "completed"
        )
