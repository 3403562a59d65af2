"""ClaudeCliCognition: thinking by running ``claude -p --output-format stream-json``.

Two shapes, because the CLI has two:

* :meth:`ClaudeCliCognition.drive` spawns ONE process per prompt (the prompt
  is the last argument, stdin is closed) and reads it to EOF;
* :meth:`ClaudeCliCognition.session` spawns ONE process with
  ``--input-format stream-json`` and serves many turns off the same stdout:
  each :meth:`ClaudeCliSession.turn` writes one user message on stdin and
  reads until that turn's ``result``. Messages are written one at a time,
  after the previous turn's result, because messages written mid-turn are
  queued and may be coalesced into one turn.

Either way each turn is charged to the run's context once, from the turn's
``result`` (never from the per-block ``assistant`` usage): its usage in the
Anthropic (exclusive) convention, and the CLI's own cost figure -- the cost
since the previous result -- or, when the CLI reports none, the price table's.
A run or session turn that started but produced no ``result`` (it timed out,
crashed, was truncated, was cancelled mid-way) is still charged once, with
zero usage and zero cost, exactly as the codex cognition charges a failed
turn: ``Budget(max_llm_calls=...)`` counts attempts, so a loop of failing
runs still meets its budget instead of respawning forever. Nothing is charged
when nothing ran: the spawn failed, or the run was cancelled before it began.
The process side (framing, stderr, timeouts, terminate-then-kill) is the
shared :class:`~agentkit.agents.cognition.process.CliProcess`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any

from agentkit.agents.cognition.claude_argv import claude_argv
from agentkit.agents.cognition.claude_events import ClaudeEvent, ClaudeResult, turn_cost
from agentkit.agents.cognition.claude_turn import ClaudeTurn
from agentkit.agents.cognition.errors import CliError
from agentkit.agents.cognition.options import CliCognitionBase
from agentkit.agents.cognition.process import (
    DEFAULT_KILL_GRACE,
    DEFAULT_LINE_LIMIT,
    CliProcess,
    default_spawn,
)
from agentkit.agents.cognition.result import CliResult
from agentkit.core.ports import SpawnPort
from agentkit.core.pricing import PriceTable, UnknownModelError
from agentkit.core.runtime import RunContext
from agentkit.core.types import Usage

__all__ = ["ClaudeCliCognition", "ClaudeCliSession", "ClaudeResultT"]

ClaudeResultT = CliResult[ClaudeEvent]
"""What a claude turn returns."""

DEFAULT_TIMEOUT = 600.0
"""Seconds one run (or one session turn) may take before the child is stopped."""


def _inherited_env() -> dict[str, str]:
    # A claude started from inside Claude Code inherits CLAUDECODE and then
    # refuses to run nested; the official SDK drops it for the same reason.
    return {k: v for k, v in os.environ.items() if k != "CLAUDECODE"}


def _user_message(prompt: str) -> dict[str, Any]:
    """The stdin line both official SDKs write for a user turn."""
    return {
        "type": "user",
        "message": {"role": "user", "content": prompt},
        "parent_tool_use_id": None,
        "session_id": "",
    }


class ClaudeCliCognition(CliCognitionBase):
    """Drives the claude CLI; ``spawn`` is the subprocess seam (a double in tests).

    ``model`` adds ``--model``; ``extra_args`` are appended verbatim before the
    prompt (``--max-turns``, ``--allowedTools``, ``--resume=<id>``...; the
    format flags are the cognition's own). ``env=None`` inherits the
    environment minus ``CLAUDECODE``; a given ``env`` is passed as is.
    ``pricing`` prices a turn whose result carries no cost (it then must list
    the model). ``timeout`` bounds one run / one session turn, in seconds
    (None: unbounded -- not recommended); ``kill_grace`` is how long a
    terminated child gets before it is killed.
    """

    def __init__(
        self,
        spawn: SpawnPort = default_spawn,
        *,
        model: str | None = None,
        extra_args: Sequence[str] = (),
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        pricing: PriceTable | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        executable: str = "claude",
        kill_grace: float = DEFAULT_KILL_GRACE,
        limit: int = DEFAULT_LINE_LIMIT,
    ) -> None:
        super().__init__(
            spawn,
            model=model,
            extra_args=extra_args,
            cwd=cwd,
            env=env,
            pricing=pricing,
            timeout=timeout,
            executable=executable,
            kill_grace=kill_grace,
            limit=limit,
        )
        # Check the flags now, not at the first spawn.
        claude_argv("x", executable=executable, model=model, extra_args=self.extra_args)

    # ------------------------------------------------------------ plumbing

    def _env(self) -> dict[str, str]:
        return dict(self.env) if self.env is not None else _inherited_env()

    async def _start(self, argv: tuple[str, ...], *, stdin: bool) -> CliProcess:
        return await CliProcess.start(
            self.spawn,
            argv,
            cwd=self.cwd,
            env=self._env(),
            stdin=stdin,
            limit=self.limit,
            kill_grace=self.kill_grace,
        )

    def _charge(
        self,
        ctx: RunContext,
        turn: ClaudeTurn,
        result: ClaudeResult,
        previous_total: float | None,
    ) -> tuple[float, CliError | None]:
        """Charge one result to ``ctx``; return its cost and an ``unpriced`` error if any."""
        model = turn.model(self.model)
        cost = turn_cost(result, previous_total)
        unpriced: CliError | None = None
        if cost is None:
            if self.pricing is None:
                unpriced = CliError(
                    "unpriced",
                    "the CLI reported no cost and the cognition has no price table "
                    "(pass pricing=); charged at 0.0",
                    details={"model": model},
                )
            else:
                try:
                    cost = self.pricing.cost(model, result.usage)
                except UnknownModelError as exc:
                    unpriced = CliError("unpriced", str(exc), details={"model": model})
        charged = cost or 0.0
        ctx.charge(result.usage, charged, model=model)
        return charged, unpriced

    def _charge_attempt(self, ctx: RunContext, turn: ClaudeTurn) -> None:
        """Charge a started run / turn that reported no result: zero, but one call.

        The CLI ran (and may well have spent tokens it never reported), so the
        attempt counts against ``max_llm_calls`` -- the codex cognition's rule.
        """
        ctx.charge(Usage(), 0.0, model=turn.model(self.model))

    def _outcome(
        self,
        turn: ClaudeTurn,
        proc: CliProcess,
        *,
        usage: Usage,
        cost: float,
        interrupted: CliError | None,
        unpriced: CliError | None,
        skipped_from: int,
        exited: bool,
    ) -> ClaudeResultT:
        skipped = tuple(proc.skipped[skipped_from:])
        returncode = proc.returncode if exited else None
        stderr = proc.stderr_text if exited else ""
        error = turn.error(
            returncode=returncode,
            interrupted=interrupted,
            skipped=skipped,
            lingered=proc.lingered,
            unpriced=unpriced,
            stderr=stderr,
        )
        result = turn.result
        return CliResult(
            text=turn.text,
            usage=usage,
            cost_usd=cost,
            stop_reason=result.stop_reason if result is not None else None,
            session_id=turn.session_id,
            events=tuple(turn.events),
            error=error,
            model=turn.model(self.model),
            returncode=returncode,
            stderr=stderr,
            skipped=skipped,
        )

    # --------------------------------------------------------------- drive

    async def drive(self, ctx: RunContext, prompt: str) -> ClaudeResultT:
        """One run: spawn ``claude -p ... <prompt>``, read it to EOF, charge each result.

        Returns the result with ``error`` set rather than raising on a CLI
        failure. Raises ``BudgetExceeded`` (before spawning) when the run's
        budget is spent, and re-raises ``asyncio.CancelledError`` after
        stopping the child. A started run that reported no result is charged
        once with zero usage (also when the caller cancelled it); a spawn
        that failed or a run cancelled before it started charges nothing.
        """
        argv = claude_argv(
            prompt, executable=self.executable, model=self.model, extra_args=self.extra_args
        )
        ctx.check_budget()
        if ctx.cancel.cancelled:
            return CliResult(error=_cancelled_before(ctx))
        with ctx.trace.span("claude_cli.drive", kind="client") as span:
            try:
                proc = await self._start(argv, stdin=False)
            except CliError as exc:
                span.set("cli.error", exc.code)
                return CliResult(error=exc)
            turn = ClaudeTurn()
            totals: dict[str, Any] = {"usage": Usage(), "cost": 0.0, "previous": None, "n": 0}
            unpriced: list[CliError] = []

            async def body() -> None:
                while (obj := await proc.next_object()) is not None:
                    event = turn.feed(obj)
                    if isinstance(event, ClaudeResult):
                        charged, missing = self._charge(ctx, turn, event, totals["previous"])
                        totals["usage"] = totals["usage"] + event.usage
                        totals["cost"] += charged
                        totals["n"] += 1
                        if event.total_cost_usd is not None:
                            totals["previous"] = event.total_cost_usd
                        if missing is not None:
                            unpriced.append(missing)
                await proc.finish()

            interrupted: CliError | None = None
            try:
                await proc.guard(body(), within=self.timeout, cancel=ctx.cancel)
            except CliError as exc:
                interrupted = exc
            finally:
                # The run happened however it ended (guard() stops the child on
                # cancellation), so a run that reported no result is charged once.
                if totals["n"] == 0:
                    self._charge_attempt(ctx, turn)
            outcome = self._outcome(
                turn,
                proc,
                usage=totals["usage"],
                cost=totals["cost"],
                interrupted=interrupted,
                unpriced=unpriced[0] if unpriced else None,
                skipped_from=0,
                exited=True,
            )
            _annotate(span, outcome)
            return outcome

    # ------------------------------------------------------------- session

    def session(self, ctx: RunContext) -> ClaudeCliSession:
        """A long-lived stream-json session charged to ``ctx``; use ``async with``."""
        return ClaudeCliSession(self, ctx)


def _cancelled_before(ctx: RunContext) -> CliError:
    reason = ctx.cancel.reason
    return CliError(
        "cancelled",
        f"the run was cancelled before the CLI was started{f': {reason}' if reason else ''}",
    )


def _annotate(span: Any, outcome: ClaudeResultT) -> None:
    span.set("cli.session_id", outcome.session_id)
    span.set("cli.cost_usd", outcome.cost_usd)
    span.set("cli.error", outcome.error.code if outcome.error is not None else None)


class ClaudeCliSession:
    """One ``claude -p --input-format stream-json`` process serving many turns.

    ``async with cognition.session(ctx) as session:`` spawns it (raising
    :class:`CliError` ``spawn_failed`` if it cannot start); each
    ``await session.turn(prompt)`` is one turn; leaving the block closes stdin
    -- the CLI's signal to finish and exit -- reads what it still writes,
    then its stderr once, and waits for it (stopping it after ``kill_grace``).
    A turn that times out or is cancelled stops the process; later turns
    return a ``session_closed`` error.

    Every turn that was started (its message was due to be written) is
    charged to ``ctx`` exactly once: from its ``result``, or with zero usage
    and cost when it has none (timeout, crash, truncated stream, the caller
    cancelling it). A turn refused before it started -- the session is dead,
    or the run was cancelled -- is not charged.
    """

    def __init__(self, cognition: ClaudeCliCognition, ctx: RunContext) -> None:
        self.cognition = cognition
        self.ctx = ctx
        self.turns = 0
        self.trailing: list[ClaudeEvent] = []
        self._proc: CliProcess | None = None
        self._dead: CliError | None = None
        self._closed = False
        self._previous_total: float | None = None
        self._session_id: str | None = None

    @property
    def session_id(self) -> str | None:
        return self._session_id

    @property
    def process(self) -> CliProcess | None:
        return self._proc

    @property
    def returncode(self) -> int | None:
        return self._proc.returncode if self._proc is not None else None

    @property
    def stderr(self) -> str:
        return self._proc.stderr_text if self._proc is not None else ""

    async def __aenter__(self) -> ClaudeCliSession:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def start(self) -> None:
        if self._proc is not None or self._closed:
            raise RuntimeError("this session has already been started")
        cog = self.cognition
        argv = claude_argv(
            None,
            executable=cog.executable,
            model=cog.model,
            extra_args=cog.extra_args,
            session=True,
        )
        self._proc = await cog._start(argv, stdin=True)

    def _closed_result(self, cause: CliError | None = None) -> ClaudeResultT:
        """A turn that cannot run: ``cause`` itself, or ``session_closed`` naming why."""
        proc = self._proc
        dead = cause
        if dead is None:
            why = self._dead
            dead = CliError(
                "session_closed",
                "the session's CLI process has exited"
                + (f" ({why.code}: {why.message})" if why is not None else ""),
                details={"cause": why.code if why is not None else None},
            )
        return CliResult(
            error=dead.with_evidence(
                stderr=proc.stderr_text if proc is not None else "",
                returncode=proc.returncode if proc is not None else None,
            ),
            session_id=self._session_id,
            returncode=proc.returncode if proc is not None else None,
            stderr=proc.stderr_text if proc is not None else "",
        )

    async def turn(self, prompt: str) -> ClaudeResultT:
        """Write one user message and read until its ``result``; charge it once.

        Charged from the result, or with zero usage when the turn started but
        no result came (see the class docstring); raises ``BudgetExceeded``
        before writing when the run's budget is spent.
        """
        if not isinstance(prompt, str) or not prompt.strip():
            raise ValueError("a session turn needs a non-empty prompt")
        if self._closed:
            raise RuntimeError("this session is closed")
        proc = self._proc
        if proc is None:
            raise RuntimeError(
                "the session was not started: use 'async with cognition.session(ctx)'"
            )
        if self._dead is not None or proc.eof:
            return self._closed_result()
        ctx = self.ctx
        cog = self.cognition
        ctx.check_budget()
        if ctx.cancel.cancelled:
            await proc.stop()
            self._dead = _cancelled_before(ctx)
            return self._closed_result(self._dead)
        self.turns += 1
        turn = ClaudeTurn()
        skipped_from = len(proc.skipped)
        charged: dict[str, Any] = {"usage": Usage(), "cost": 0.0, "unpriced": None, "n": 0}

        async def body() -> None:
            await proc.write_line(_user_message(prompt))
            while (obj := await proc.next_object()) is not None:
                event = turn.feed(obj)
                if isinstance(event, ClaudeResult):
                    cost, missing = cog._charge(ctx, turn, event, self._previous_total)
                    charged.update(usage=event.usage, cost=cost, unpriced=missing, n=1)
                    if event.total_cost_usd is not None:
                        self._previous_total = event.total_cost_usd
                    return
            await proc.finish()  # EOF before the result: the CLI has exited

        with ctx.trace.span("claude_cli.turn", kind="client", turn=self.turns) as span:
            interrupted: CliError | None = None
            try:
                await proc.guard(body(), within=cog.timeout, cancel=ctx.cancel)
            except CliError as exc:
                if exc.code == "session_closed":
                    await proc.stop()
                interrupted = exc
                self._dead = exc
            finally:
                # The turn started however it ended (guard() stops the child on
                # cancellation), so a turn that reported no result is charged once.
                if charged["n"] == 0:
                    cog._charge_attempt(ctx, turn)
            exited = proc.at_eof()
            if exited and self._dead is None:
                self._dead = turn.error(returncode=proc.returncode) or CliError(
                    "session_closed", "the CLI exited after a successful turn"
                )
            outcome = cog._outcome(
                turn,
                proc,
                usage=charged["usage"],
                cost=charged["cost"],
                interrupted=interrupted,
                unpriced=charged["unpriced"],
                skipped_from=skipped_from,
                exited=exited,
            )
            if outcome.session_id:
                self._session_id = outcome.session_id
            _annotate(span, outcome)
            return outcome

    async def aclose(self) -> None:
        """Close stdin, read the rest of stdout, read stderr once, wait (bounded)."""
        if self._closed:
            return
        self._closed = True
        proc = self._proc
        if proc is None:
            return
        proc.close_stdin()
        if proc.eof:
            if self._dead is not None:
                await proc.stop()
            else:
                await proc.finish()
            return
        trailing = ClaudeTurn()

        async def drain() -> None:
            while (obj := await proc.next_object()) is not None:
                trailing.feed(obj)
            await proc.finish()

        with contextlib.suppress(CliError):  # stopped: stderr and exit code are on proc
            await proc.guard(drain(), within=self.cognition.kill_grace)
        self.trailing.extend(trailing.events)
