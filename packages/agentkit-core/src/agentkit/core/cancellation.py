"""Cooperative cancellation of a run."""

from __future__ import annotations

import asyncio

__all__ = ["CancellationToken", "RunCancelled"]


class RunCancelled(Exception):
    """The run's CancellationToken was cancelled; ``reason`` says why."""

    def __init__(self, reason: str | None = None) -> None:
        self.reason = reason
        super().__init__(f"run cancelled: {reason}" if reason else "run cancelled")


class CancellationToken:
    """A flag a run polls (``raise_if_cancelled``) or awaits (``wait``).

    Cooperative on purpose: a loop stops at its next step boundary with its
    transcript intact, where ``Task.cancel`` would unwind from wherever it was.
    """

    __slots__ = ("_event", "_reason")

    def __init__(self) -> None:
        self._event = asyncio.Event()
        self._reason: str | None = None

    def cancel(self, reason: str | None = None) -> None:
        if not self._event.is_set():
            self._reason = reason
            self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    @property
    def reason(self) -> str | None:
        return self._reason

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise RunCancelled(self._reason)

    async def wait(self) -> None:
        await self._event.wait()
