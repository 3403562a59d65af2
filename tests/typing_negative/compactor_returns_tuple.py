"""REJECTED by mypy: a Compactor whose ``compact`` is sync and returns a tuple."""

from __future__ import annotations

from collections.abc import Sequence

from agentkit.core.ports import Compactor
from agentkit.core.types import Message


class SyncCompactor:
    def compact(self, messages: Sequence[Message]) -> tuple[Message, ...]:
        return (Message.user("[COMPACTED]"),)


_compactor: Compactor = SyncCompactor()
