"""The one turn algorithm every CLI cognition runs -- drive and session alike.

Whatever the CLI, a turn is the same steps, in the same order, with the same
guarantees; only four things differ and each CLI module supplies just those:
its argv, its event mapping and the fold of events into a turn
(:class:`TurnFold`), how the fold is settled into charges (its cost rule),
and how the CLI reports its own failure (:meth:`TurnFold.reported_error`).

The steps (:meth:`TurnDriver.run`):

1. **Before anything starts**: the run's budget is checked (``BudgetExceeded``
   propagates) and a run cancelled already gets ``cancelled`` without a
   spawn (:meth:`TurnDriver.refuse`) -- nothing ran, nothing is charged.
2. **A span** (``<cli>_cli.drive`` / ``.turn``) wraps the turn and ends
   annotated with ``cli.session_id``, ``cli.cost_usd`` and ``cli.error``.
3. **Start**: spawn the child (``spawn_failed`` is returned, not raised, and
   not charged), or use a session's running one and write its message.
4. **A guarded read loop**: objects are fed to the fold until EOF (a one-shot
   run, then ``finish``) or until the turn's terminal event (a session turn);
   the whole of it bounded by ``timeout`` and the run's cancellation token
   (:meth:`~agentkit.agents.cognition._runner.CliProcess.guard`).
5. **Charge every started turn exactly once**, in a ``finally``: from what the
   CLI reported, or -- when it reported nothing (timeout, crash, truncated
   stream, the caller cancelling it) -- with zero usage and cost, so
   ``Budget(max_llm_calls=...)`` counts attempts and a loop of failing turns
   still meets its budget. ``asyncio.CancelledError`` propagates after that.
6. **One error**, from the shared ladder (:mod:`._ladder`), with the evidence
   (stderr, exit code, argv, the lines that were lost) attached.
"""

from __future__ import annotations

import asyncio
import os
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from agentkit.agents.cognition._fields import EventError, problem
from agentkit.agents.cognition._ladder import TurnFacts, decide
from agentkit.agents.cognition._runner import CliProcess
from agentkit.agents.cognition.errors import CliError
from agentkit.agents.cognition.options import CliCognitionBase
from agentkit.agents.cognition.result import CliResult, EventProblem, SkippedLine
from agentkit.core.runtime import RunContext
from agentkit.core.types import Usage

__all__ = [
    "Charge",
    "Settlement",
    "TurnDriver",
    "TurnFold",
    "TurnRun",
    "cancelled_before",
]

EventT = TypeVar("EventT")
FoldT = TypeVar("FoldT", bound="TurnFold[Any]")
ResultT = TypeVar("ResultT", bound=CliResult[Any])


class TurnFold(ABC, Generic[EventT]):
    """The events of one turn, folded. A CLI subclasses it and supplies :meth:`_apply`,
    :meth:`reported_error`, :attr:`text` and :attr:`session_id`.

    :meth:`feed` never raises on stream content: an object that breaks the
    CLI's schema (:class:`~agentkit.agents.cognition._fields.EventError`) --
    or that the mapping cannot handle at all -- becomes an
    :class:`~agentkit.agents.cognition._fields.EventProblem` with its line
    number, so reading goes on to EOF (stderr and the exit code are read
    there) and the ladder decides what the turn amounts to.
    """

    def __init__(self) -> None:
        self.events: list[EventT] = []
        self.problems: list[EventProblem] = []
        self.terminal = False
        """True once the turn's terminal event (claude ``result``, codex ``turn.*``) was read."""
        self.abort: CliError | None = None
        """Set by the fold when the stream shows the turn cannot end well by waiting (claude
        asked something nobody will answer): the driver stops the child at once and the turn
        fails with this error, instead of waiting for ``timeout``."""

    @property
    def deadline(self) -> float | None:
        """A ``time.monotonic()`` by which the next object must arrive, else :meth:`expired`.

        None (the default): no deadline beyond the turn's ``timeout``. codex
        sets one while it is reconnecting (its ``reconnect_window``).
        """
        return None

    def expired(self) -> CliError:
        """The error of a turn whose :attr:`deadline` passed with nothing read."""
        return CliError("timeout", "the CLI's stream deadline passed")

    def feed(self, obj: Mapping[str, Any], line_no: int) -> EventT | None:
        """Consume one object; return its event (None if it broke the schema)."""
        try:
            return self._apply(obj, line_no)
        except EventError as exc:
            self.problems.append(problem(line_no, str(exc), obj))
        except (RecursionError, OverflowError, ArithmeticError, TypeError, ValueError) as exc:
            # Input no rule above foresaw; a typed problem, never a raw exception.
            self.problems.append(problem(line_no, f"unreadable ({type(exc).__name__})", obj))
        return None

    @abstractmethod
    def _apply(self, obj: Mapping[str, Any], line_no: int) -> EventT | None:
        """Map and fold one object; raise EventError if it breaks the schema."""

    @abstractmethod
    def reported_error(self) -> CliError | None:
        """The CLI's own verdict that the turn failed (None: it did not say so)."""

    @property
    @abstractmethod
    def text(self) -> str:
        """The turn's answer as the CLI reported it."""

    @property
    @abstractmethod
    def session_id(self) -> str | None:
        """The session / thread id the turn announced."""

    @property
    def http_status(self) -> int | None:
        """The HTTP status of the failed call, when the CLI gave one."""
        return None

    @property
    def stop_reason(self) -> str | None:
        return None

    @property
    def notes(self) -> tuple[str, ...]:
        """The CLI's last words before its stream ended (retry notices), if it has any."""
        return ()


@dataclass(frozen=True, slots=True)
class Charge:
    """One charge to the run's context."""

    usage: Usage
    cost_usd: float
    model: str


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a turn is charged, as its CLI's cost rule decided from the fold.

    ``charges`` is empty when the CLI reported nothing chargeable; the driver
    then charges zero once under ``model``. ``mismatch`` and ``charge_fault``
    are the ladder's rungs 2 and 3; ``unpriced`` its last (an error) and
    ``unpriced_flag`` the result's flag.
    """

    model: str
    charges: tuple[Charge, ...] = ()
    mismatch: CliError | None = None
    charge_fault: CliError | None = None
    unpriced: CliError | None = None
    unpriced_flag: bool = False
    reset: bool = False
    """The CLI's running total went down since the baseline, so it was charged whole."""

    @property
    def usage(self) -> Usage:
        total = Usage()
        for charge in self.charges:
            total = total + charge.usage
        return total

    @property
    def cost_usd(self) -> float:
        return float(sum(c.cost_usd for c in self.charges))


@dataclass(frozen=True, slots=True)
class TurnRun(Generic[FoldT]):
    """One turn as the driver ran it: the fold, the charge, the error, the process facts."""

    fold: FoldT
    settlement: Settlement
    error: CliError | None
    stopped: CliError | None = None
    """The runner stopped the turn (``timeout`` / ``cancelled`` / ``session_closed``)."""
    proc: CliProcess | None = None
    returncode: int | None = None
    stderr: str = ""
    skipped: tuple[SkippedLine, ...] = ()


def cancelled_before(ctx: RunContext) -> CliError:
    reason = ctx.cancel.reason
    return CliError(
        "cancelled",
        f"the run was cancelled before the CLI was started{f': {reason}' if reason else ''}",
    )


class TurnDriver:
    """Runs turns for one cognition: its options, its span names, the shared algorithm."""

    def __init__(
        self,
        options: CliCognitionBase,
        *,
        cli: str,
        env: Callable[[], Mapping[str, str] | None],
    ) -> None:
        self.options = options
        self.cli = cli
        self.env = env

    def refuse(self, ctx: RunContext) -> CliError | None:
        """Step 1: ``BudgetExceeded`` propagates; a cancelled run gets ``cancelled``."""
        ctx.check_budget()
        if ctx.cancel.cancelled:
            return cancelled_before(ctx)
        return None

    async def start(self, argv: tuple[str, ...], *, stdin: bool = False) -> CliProcess:
        """Spawn ``argv``; raises :class:`CliError` ``spawn_failed``."""
        opts = self.options
        return await CliProcess.start(
            opts.spawn,
            argv,
            cwd=None if opts.cwd is None else os.fspath(opts.cwd),
            env=self.env(),
            stdin=stdin,
            limit=opts.limit,
            kill_grace=opts.kill_grace,
        )

    async def run(
        self,
        ctx: RunContext,
        fold: FoldT,
        settle: Callable[[FoldT], Settlement],
        *,
        span: str,
        argv: tuple[str, ...] | None = None,
        proc: CliProcess | None = None,
        message: Mapping[str, Any] | None = None,
        attrs: Mapping[str, Any] | None = None,
    ) -> TurnRun[FoldT]:
        """Steps 2-6 for one turn: spawn ``argv`` and read to EOF, or write
        ``message`` to the running ``proc`` and read to the terminal event."""
        with ctx.trace.span(f"{self.cli}_cli.{span}", kind="client", **dict(attrs or {})) as sp:
            run = await self._run(ctx, fold, settle, argv=argv, proc=proc, message=message)
            sp.set("cli.session_id", fold.session_id)
            sp.set("cli.cost_usd", run.settlement.cost_usd)
            sp.set("cli.error", run.error.code if run.error is not None else None)
            return run

    async def _run(
        self,
        ctx: RunContext,
        fold: FoldT,
        settle: Callable[[FoldT], Settlement],
        *,
        argv: tuple[str, ...] | None,
        proc: CliProcess | None,
        message: Mapping[str, Any] | None,
    ) -> TurnRun[FoldT]:
        to_eof = proc is None
        if proc is None:
            assert argv is not None
            try:
                proc = await self.start(argv)
            except CliError as exc:  # nothing ran: nothing to charge
                return TurnRun(fold, settle(fold), exc)
        running = proc
        skipped_from = len(running.skipped)

        async def next_object() -> dict[str, Any] | None:
            deadline = fold.deadline
            if deadline is None:
                return await running.next_object()
            try:
                return await asyncio.wait_for(
                    running.next_object(), max(0.0, deadline - time.monotonic())
                )
            except TimeoutError:
                raise fold.expired() from None

        async def body() -> None:
            if message is not None:
                await running.write_line(message)
            while (obj := await next_object()) is not None:
                fold.feed(obj, running.lines_read)
                if fold.abort is not None:
                    raise fold.abort  # the guard stops the child; the turn fails with it
                if fold.terminal and not to_eof:
                    return
            await running.finish()

        stopped: CliError | None = None
        settlement: Settlement | None = None
        try:
            await running.guard(body(), within=self.options.timeout, cancel=ctx.cancel)
        except CliError as exc:  # timeout / cancelled / session_closed / the fold's
            stopped = exc  # abort or expired deadline: the child is stopped
        finally:
            settlement = settle(fold)
            charges = settlement.charges or (Charge(Usage(), 0.0, settlement.model),)
            for charge in charges:
                ctx.charge(charge.usage, charge.cost_usd, model=charge.model)
        exited = to_eof or running.at_eof()
        returncode = running.returncode if exited else None
        stderr = running.stderr_text if exited else ""
        skipped = tuple(running.skipped[skipped_from:])
        facts = TurnFacts(
            stopped=stopped,
            mismatch=settlement.mismatch,
            charge_fault=settlement.charge_fault,
            reported=fold.reported_error(),
            terminal=fold.terminal,
            returncode=returncode,
            lingered=running.lingered,
            skipped=skipped,
            problems=tuple(fold.problems),
            unpriced=settlement.unpriced,
            stderr=stderr,
            notes=fold.notes,
        )
        error = decide(facts, argv=running.argv, session_id=fold.session_id)
        return TurnRun(fold, settlement, error, stopped, running, returncode, stderr, skipped)

    @staticmethod
    def result(cls: type[ResultT], run: TurnRun[Any], **extra: Any) -> ResultT:
        """The CLI's result type, its shared fields filled from ``run``."""
        fold = run.fold
        settlement = run.settlement
        return cls(
            text=fold.text,
            usage=settlement.usage,
            cost_usd=settlement.cost_usd,
            stop_reason=fold.stop_reason,
            session_id=fold.session_id,
            events=tuple(fold.events),
            error=run.error,
            model=settlement.model,
            returncode=run.returncode,
            stderr=run.stderr,
            skipped=run.skipped,
            problems=tuple(fold.problems),
            unpriced=settlement.unpriced_flag,
            http_status=fold.http_status,
            **extra,
        )
