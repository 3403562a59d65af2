"""The one session contract both CLI cognitions keep.

``cognition.session(ctx, resume=...)`` is a conversation: many turns, each
continuing the previous one's session (claude) or thread (codex). How a CLI
keeps one differs -- claude keeps one process alive and writes each message
on its stdin, codex starts one ``exec`` per turn and resumes the thread by
id -- but what a caller sees is the same, and :class:`CliSession` holds it
in one place:

* ``resume=`` (the keyword :meth:`drive` takes too) continues an earlier
  session / thread by its id; :attr:`CliSession.session_id` is the id later
  turns continue, once known.
* A session is open between :meth:`~CliSession.start` and
  :meth:`~CliSession.aclose`, which ``async with cognition.session(ctx) as
  session:`` calls on entry and on exit however the block ends.
* :meth:`~CliSession.turn` runs one turn and returns the CLI's result; turns
  run one at a time, in the order they were asked for (the next one needs
  this one's id). What the CLI did -- including a session whose process has
  gone, ``session_closed`` -- is the result's ``error``, never raised.
* Using a session outside its open span is a mistake in the caller's code,
  not something the CLI did, and raises :class:`SessionStateError` at once:
  a turn before :meth:`~CliSession.start` or after
  :meth:`~CliSession.aclose`, or a second :meth:`~CliSession.start`. Nothing
  is spawned or charged for it. (A result would be easy to miss; an
  exception at the line that is wrong is not -- the way a closed file or a
  closed HTTP client refuses a read.)
* ``aclose()`` is idempotent.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

from agentkit.agents.cognition.result import CliResult
from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_str,
)
from agentkit.core.runtime import RunContext

__all__ = ["CliSession", "SessionStateError"]

# Covariant: a session only hands results out, so any CLI's session is a CliSession[CliResult[Any]].
ResultT = TypeVar("ResultT", bound="CliResult[Any]", covariant=True)


class SessionStateError(RuntimeError):
    """A session used outside its open span: a turn before ``start()`` or after
    ``aclose()``, or ``start()`` twice. Raised before anything is spawned or charged."""


class CliSession(ABC, Generic[ResultT]):
    """A conversation with one CLI: an async context manager of turns (see the module).

    A CLI supplies :meth:`_turn` (one turn, the session open and the turn
    lock held) and :meth:`_close` (end what the session holds), and may
    supply :meth:`_start` (a claude session spawns its process there; a
    codex session has nothing to start before its first turn). It counts its
    turns in :attr:`turns` (failed ones included; not those refused before
    they started).
    """

    def __init__(
        self, cognition: object, ctx: RunContext, session_id: str | None, *, expected: type
    ) -> None:
        where = type(self).__name__
        if not isinstance(cognition, expected):
            raise ArgumentTypeError(where, "cognition", f"a {expected.__name__}", cognition)
        if not isinstance(ctx, RunContext):
            raise ArgumentTypeError(where, "ctx", "a RunContext", ctx)
        self.ctx = ctx
        self.turns = 0
        self._session_id = session_id
        self._started = False
        self._closed = False
        self._lock = asyncio.Lock()

    @property
    def session_id(self) -> str | None:
        """The session (claude) / thread (codex) id later turns continue, once known."""
        return self._session_id

    @property
    def started(self) -> bool:
        """True once :meth:`start` has succeeded."""
        return self._started

    @property
    def closed(self) -> bool:
        """True once :meth:`aclose` was called: later turns raise :class:`SessionStateError`."""
        return self._closed

    async def start(self) -> None:
        """Open the session (``async with`` calls it). Raises :class:`SessionStateError`
        if it was started or closed already; a claude session raises
        :class:`~agentkit.agents.cognition.CliError` ``spawn_failed`` when its
        process cannot start (and may then be started again)."""
        if self._closed:
            raise SessionStateError(f"this {type(self).__name__} is closed")
        if self._started:
            raise SessionStateError(f"this {type(self).__name__} has already been started")
        await self._start()
        self._started = True

    async def turn(self, prompt: str) -> ResultT:
        """Run one turn and return its result; the CLI's failures are its ``error``.

        Raises :class:`SessionStateError` when the session is not open, an
        argument error for an empty ``prompt``, and ``BudgetExceeded`` before
        starting a turn the run's budget cannot pay for.
        """
        where = f"{type(self).__name__}.turn"
        if not check_str(prompt, where, "prompt", empty=False).strip():
            raise ArgumentValueError(
                where, "prompt", "a non-empty str (not only whitespace)", prompt
            )
        self._check_open()
        async with self._lock:
            self._check_open()  # closed while this turn waited for the one before
            return await self._turn(prompt)

    async def aclose(self) -> None:
        """Close the session; later turns raise :class:`SessionStateError`. Idempotent."""
        if self._closed:
            return
        self._closed = True
        await self._close()

    def _check_open(self) -> None:
        name = type(self).__name__
        if self._closed:
            raise SessionStateError(f"this {name} is closed: start a new session for more turns")
        if not self._started:
            raise SessionStateError(
                f"this {name} was not started: use 'async with cognition.session(ctx) as s' "
                "(or await s.start())"
            )

    async def _start(self) -> None:
        """Start what the session needs before its first turn (nothing by default)."""

    @abstractmethod
    async def _turn(self, prompt: str) -> ResultT:
        """One turn: the session is open and no other turn is running."""

    @abstractmethod
    async def _close(self) -> None:
        """End what the session holds (called once, by the first :meth:`aclose`)."""

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
