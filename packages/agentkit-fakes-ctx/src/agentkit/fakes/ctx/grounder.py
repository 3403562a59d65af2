"""FakeGrounder: a Grounder with a canned block and a record of who asked."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agentkit.core._internal.arguments import check_str, check_values

__all__ = ["FakeGrounder"]


@dataclass
class FakeGrounder:
    """RequestBuilder test helper. Records ``(ctx, task)`` calls; returns a canned block.

    ``block`` may be the empty string, which is how a test drives the path
    where grounding found nothing and the builder must leave the block out.
    ``calls`` records the ctx itself (not a copy), so a test can assert the
    builder passed through the very ctx it was given.

    It verifies nothing at teardown: the block is a single answer for every
    task, with nothing to leave over or to miss.
    """

    block: str = ""
    calls: list[tuple[Any, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_str(self.block, "FakeGrounder", "block")
        self.calls = list(check_values(self.calls, "FakeGrounder", "calls", "a list"))

    async def ground(self, ctx: Any, task: str) -> str:
        check_str(task, "FakeGrounder.ground", "task")
        self.calls.append((ctx, task))
        return self.block
