"""FakeGrounder: a Grounder with a canned block and a record of who asked."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["FakeGrounder"]


@dataclass
class FakeGrounder:
    """RequestBuilder test helper. Records ``(ctx, task)`` calls; returns a canned block.

    ``block`` may be the empty string, which is how a test drives the path
    where grounding found nothing and the builder must leave the block out.
    ``calls`` records the ctx itself (not a copy), so a test can assert the
    builder passed through the very ctx it was given.
    """

    block: str = ""
    calls: list[tuple[Any, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.block, str):
            raise TypeError(f"block must be a str, got {type(self.block).__name__}")

    async def ground(self, ctx: Any, task: str) -> str:
        if not isinstance(task, str):
            raise TypeError(f"ground: task must be a str, got {type(task).__name__}: {task!r}")
        self.calls.append((ctx, task))
        return self.block
