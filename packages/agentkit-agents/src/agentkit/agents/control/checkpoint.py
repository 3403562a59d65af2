"""An in-memory Checkpointer: the suspend-and-resume path without a database.

It stores each state as JSON TEXT, not as the object it was handed. That is
the point of it being real rather than a dict: a state that is not plain JSON
(a dataclass, a set, a ToolCall's read-only mapping) fails here, at ``save``,
with the key in the message, instead of in production on the first durable
store; and ``load`` hands back a fresh copy, so a caller that mutates what it
saved or loaded cannot change what a later resume reads.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["CheckpointNotSerialisable", "InMemoryCheckpointer"]


class CheckpointNotSerialisable(TypeError):
    """A state handed to ``save`` is not plain JSON; nothing was stored."""

    def __init__(self, key: str, reason: str) -> None:
        self.key = key
        self.reason = reason
        super().__init__(f"checkpoint {key!r} is not JSON-serialisable: {reason}")


class InMemoryCheckpointer:
    """Checkpointer (``agentkit.core.ports.Checkpointer``) holding JSON text per key."""

    __slots__ = ("_states",)

    def __init__(self) -> None:
        self._states: dict[str, str] = {}

    async def save(self, key: str, state: Mapping[str, Any]) -> None:
        if not isinstance(key, str) or not key:
            raise ValueError(f"a checkpoint key must be a non-empty string, got {key!r}")
        if not isinstance(state, Mapping):
            raise CheckpointNotSerialisable(
                key, f"state is a {type(state).__name__}, not a Mapping"
            )
        try:
            text = json.dumps(dict(state), allow_nan=False, sort_keys=True)
        except (TypeError, ValueError) as exc:
            raise CheckpointNotSerialisable(key, str(exc)) from exc
        self._states[key] = text

    async def load(self, key: str) -> Mapping[str, Any] | None:
        text = self._states.get(key)
        if text is None:
            return None
        loaded: dict[str, Any] = json.loads(text)
        return loaded

    @property
    def keys(self) -> tuple[str, ...]:
        """Every key saved so far, in the order first saved."""
        return tuple(self._states)

    def __len__(self) -> int:
        return len(self._states)

    def __contains__(self, key: object) -> bool:
        return key in self._states
