"""RecordingObserver: an ObserverPort that keeps every event it is told of."""

from __future__ import annotations

from typing import Any

__all__ = ["RecordingObserver"]


class RecordingObserver:
    """Appends each ``emit(event, **fields)`` to ``observations`` as ``(event, fields)``.

    ``fields`` is copied, so a caller reusing its keyword dict cannot rewrite
    an earlier record. An event name that is not a str is a TypeError here,
    where the emitting call is on the stack, rather than a puzzling record.
    """

    __slots__ = ("observations",)

    def __init__(self) -> None:
        self.observations: list[tuple[str, dict[str, Any]]] = []

    def emit(self, event: str, **fields: Any) -> None:
        if not isinstance(event, str):
            raise TypeError(f"event name must be a str, got {type(event).__name__}: {event!r}")
        self.observations.append((event, dict(fields)))

    @property
    def names(self) -> list[str]:
        """Just the event names, in order."""
        return [event for event, _ in self.observations]
