"""``CodexCliCognition``: think by running ``codex exec --json``, one spawn per turn.

``codex exec`` is one-shot: a process runs one turn and exits. So a turn IS a
spawn, and a conversation is a chain of spawns threaded by the id the first
one announced: turn 1 is ``codex exec --json ... <prompt>``, every later turn
``codex exec --json ... resume <thread_id> <prompt>`` (the official SDK does
the same). :meth:`CodexCliCognition.drive` is one fresh turn;
:class:`CodexCliSession` is the chain.

What each turn does, and why:

* **stdin is closed** (``DEVNULL``); the prompt is an argument. ``codex exec``
  with an open stdin pipe blocks until EOF and appends what it read to the
  prompt (recorded: ``Reading additional input from stdin...``).
* **Options go before ``resume``** (see :mod:`.codex_argv`): ``resume``
  rejects ``--sandbox`` and friends after it, but a resumed thread does not
  remember them, so they are re-passed, in front, on every turn.
* **Events decide the outcome, not the exit code alone.** ``turn.completed``
  is success; ``turn.failed`` is failure even with exit 0; a stream with
  neither is ``incomplete_run`` even with exit 0. Top-level ``error`` events
  are retry notices and never fail a turn themselves. A non-zero exit with
  no ``turn.failed`` is ``cli_exit_<n>``, with stderr -- read once, at EOF --
  attached, because for startup failures (not a git repo, unknown thread,
  a usage error) stderr is the only thing that says what went wrong.
* **A turn is charged once, and only for itself.** ``turn.completed.usage``
  is the thread's running total, so the charge is the difference from the
  previous turn's total (:mod:`.codex_usage`), split exclusive of cached
  input via ``OPENAI_API``. Every spawn that ran charges the run's context
  exactly once -- a failed or incomplete turn with zero usage (codex reports
  none), so ``max_llm_calls`` still counts it and a loop of failing turns
  still meets its budget; the tokens it did spend are in the thread total
  and are charged with the next completed turn.
* **Nothing hangs.** Each turn is bounded by ``timeout`` and by the run's
  cancellation token (an offline codex retries forever: the recording never
  ended on its own); the shared runner terminates, then kills, the child.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any

from agentkit.agents.cognition.codex_argv import codex_exec_argv
from agentkit.agents.cognition.codex_events import CodexTurn, CodexTurnFold
from agentkit.agents.cognition.codex_result import CodexCliResult
from agentkit.agents.cognition.codex_usage import TurnUsage, turn_usage
from agentkit.agents.cognition.errors import CliError, exit_code_error
from agentkit.agents.cognition.options import CliCognitionBase
from agentkit.agents.cognition.process import (
    DEFAULT_KILL_GRACE,
    DEFAULT_LINE_LIMIT,
    CliProcess,
    default_spawn,
)
from agentkit.core.ports import SpawnPort
from agentkit.core.pricing import PriceTable, RawUsage
from agentkit.core.runtime import RunContext
from agentkit.core.types import Usage

__all__ = [
    "CODEX_BILLING_MODEL",
    "DEFAULT_CODEX_TIMEOUT",
    "CodexCliCognition",
    "CodexCliSession",
]

DEFAULT_CODEX_TIMEOUT = 600.0
"""Seconds one codex turn may take before it is stopped.

A default rather than None because codex without a network never ends a turn
(endless ``Reconnecting...``). Pass ``timeout=None`` to opt out deliberately.
"""

CODEX_BILLING_MODEL = "codex"
"""The model name a turn is charged under when none was given: the stream never
names the model, and the CLI's configured default is not knowable from here."""

_HTTP_STATUS = re.compile(r"\bunexpected status (\d{3})\b")


def _turn_failed_error(message: str) -> CliError:
    """``turn.failed`` -> a typed error; an HTTP status in the text picks the code."""
    match = _HTTP_STATUS.search(message)
    status = int(match.group(1)) if match else None
    if status in (401, 403):
        code = "authentication_failed"
    elif status == 429:
        code = "rate_limit"
    else:
        code = "turn_failed"
    details: dict[str, Any] = {"turn_failed": message}
    if status is not None:
        details["http_status"] = status
    return CliError(code, message or "codex reported turn.failed", details=details)


def _stderr_headline(stderr: str) -> str:
    """The line of stderr that says what went wrong, for an error's message.

    ``Error: ...`` / ``error: ...`` when there is one (an unknown thread id, a
    clap usage error), else the last non-blank line that is not codex's
    routine ``Reading additional input from stdin...`` notice.
    """
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if line.lower().startswith("error:"):
            return line
    meaningful = [line for line in lines if not line.startswith("Reading additional input")]
    return meaningful[-1] if meaningful else ""


class CodexCliCognition(CliCognitionBase):
    """Drives the codex CLI: one fresh turn with :meth:`drive`, a thread with :meth:`session`.

    ``spawn`` is the subprocess seam (``asyncio.create_subprocess_exec`` by
    default; ``agentkit.fakes.cli.FakeCodexCli`` in tests). ``model`` is
    passed as ``-m`` and is the name turns are charged under; ``extra_args``
    go in front of everything positional, on every turn (``--sandbox``,
    ``--skip-git-repo-check``, ``-c key=value``). ``pricing`` prices each turn
    (codex reports no cost); without it a turn costs 0.0. ``timeout`` bounds
    each turn, in seconds.
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
        timeout: float | None = DEFAULT_CODEX_TIMEOUT,
        executable: str = "codex",
        limit: int = DEFAULT_LINE_LIMIT,
        kill_grace: float = DEFAULT_KILL_GRACE,
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
        if pricing is not None:
            if model is None:
                raise ValueError(
                    "pricing= needs model=: the codex stream never names the model, "
                    "so there is nothing else to look the price up by"
                )
            pricing.price(model)  # UnknownModelError now, not after a turn was paid for
        # Validate the fixed part of the argv once, here, rather than at the first turn.
        codex_exec_argv("probe", executable=executable, model=model, extra_args=self.extra_args)

    @property
    def billing_model(self) -> str:
        return self.model or CODEX_BILLING_MODEL

    async def drive(self, ctx: RunContext, prompt: str) -> CodexCliResult:
        """Run ONE fresh turn (``codex exec --json ... <prompt>``) and charge it to ``ctx``.

        Returns the result, with ``error`` set if the turn did not succeed;
        raises only for bad arguments and for the run's own policy
        (``BudgetExceeded`` from ``ctx.check_budget()`` before spawning).
        """
        result, _ = await self._turn(ctx, prompt, resume=None, previous=None)
        return result

    def session(
        self,
        ctx: RunContext,
        *,
        thread_id: str | None = None,
        usage_so_far: RawUsage | None = None,
    ) -> CodexCliSession:
        """A conversation on one codex thread; see :class:`CodexCliSession`.

        Raises ``ValueError`` if ``extra_args`` hold ``--ephemeral``: an
        ephemeral thread is never saved, so it cannot be resumed.
        """
        return CodexCliSession(self, ctx, thread_id=thread_id, usage_so_far=usage_so_far)

    # ---------------------------------------------------------------- a turn

    async def _turn(
        self,
        ctx: RunContext,
        prompt: str,
        *,
        resume: str | None,
        previous: RawUsage | None,
    ) -> tuple[CodexCliResult, CodexTurn]:
        argv = codex_exec_argv(
            prompt,
            executable=self.executable,
            model=self.model,
            extra_args=self.extra_args,
            resume_thread_id=resume,
        )
        ctx.check_budget()
        if ctx.cancel.cancelled:
            reason = ctx.cancel.reason
            error = CliError(
                "cancelled",
                f"the run was cancelled before codex was started{f': {reason}' if reason else ''}",
            )
            return self._unstarted(error, resume), CodexTurn()
        with ctx.trace.span("codex_cli.turn", kind="client", resumed=resume is not None) as span:
            result, turn = await self._spawned_turn(ctx, argv, resume=resume, previous=previous)
            span.set("cli.thread_id", result.thread_id)
            span.set("cli.cost_usd", result.cost_usd)
            span.set("cli.error", result.error.code if result.error is not None else None)
            return result, turn

    async def _spawned_turn(
        self,
        ctx: RunContext,
        argv: tuple[str, ...],
        *,
        resume: str | None,
        previous: RawUsage | None,
    ) -> tuple[CodexCliResult, CodexTurn]:
        try:
            proc = await CliProcess.start(
                self.spawn,
                argv,
                cwd=self.cwd,
                env=self.env,
                limit=self.limit,
                kill_grace=self.kill_grace,
            )
        except CliError as exc:  # spawn_failed: nothing ran, nothing to charge
            return self._unstarted(exc, resume), CodexTurn()

        fold = CodexTurnFold()

        async def read() -> None:
            while (obj := await proc.next_object()) is not None:
                fold.feed(obj, line_no=proc.lines_read)
            await proc.finish()

        interrupted: CliError | None = None
        try:
            await proc.guard(read(), within=self.timeout, cancel=ctx.cancel)
        except CliError as exc:  # timeout / cancelled: the child is already stopped
            interrupted = exc
        except asyncio.CancelledError:
            # The child was stopped by guard(); the spawn still happened, so it is charged.
            ctx.charge(Usage(), 0.0, model=self.billing_model)
            raise
        turn = fold.result()
        return self._conclude(ctx, proc, turn, interrupted, resume, previous), turn

    def _unstarted(self, error: CliError, resume: str | None) -> CodexCliResult:
        return CodexCliResult(error=error, session_id=resume, model=self.billing_model)

    def _conclude(
        self,
        ctx: RunContext,
        proc: CliProcess,
        turn: CodexTurn,
        interrupted: CliError | None,
        resume: str | None,
        previous: RawUsage | None,
    ) -> CodexCliResult:
        returncode = proc.returncode
        stderr = proc.stderr_text
        thread_id = turn.thread_id or resume
        mismatch: CliError | None = None
        if resume is not None and turn.thread_id is not None and turn.thread_id != resume:
            mismatch = CliError(
                "thread_mismatch",
                f"resumed thread {resume!r} but codex announced {turn.thread_id!r}",
                details={"resumed": resume, "announced": turn.thread_id},
            )
            previous = None  # a different thread's total is its own

        charged: TurnUsage | None = None
        bad_usage: CliError | None = None
        if turn.usage is not None:
            try:
                charged = turn_usage(turn.usage, previous)
            except ValueError as exc:
                bad_usage = CliError(
                    "invalid_usage", str(exc), details={"usage": turn.usage, "previous": previous}
                )

        # Most specific first: the cognition stopped the child > the turn is not on this
        # thread > its usage is unreadable > what the stream and the exit code say.
        error = interrupted or mismatch or bad_usage or self._outcome_error(proc, turn, returncode)
        if error is not None:
            error = error.with_evidence(
                stderr=stderr,
                returncode=returncode,
                details={"argv": proc.argv, "thread_id": thread_id},
            )

        usage = charged.usage if charged is not None else Usage()
        cost = self.pricing.cost(self.billing_model, usage) if self.pricing is not None else 0.0
        ctx.charge(usage, cost, model=self.billing_model)

        return CodexCliResult(
            text=turn.text,
            usage=usage,
            cost_usd=cost,
            stop_reason=None,
            session_id=thread_id,
            events=turn.events,
            error=error,
            model=self.billing_model,
            returncode=returncode,
            stderr=stderr,
            skipped=tuple(proc.skipped),
            cumulative_usage=turn.usage,
            usage_reset=charged.reset if charged is not None else False,
            stream_errors=turn.stream_errors,
            warnings=turn.warnings,
            problems=turn.problems,
        )

    @staticmethod
    def _outcome_error(
        proc: CliProcess,
        turn: CodexTurn,
        returncode: int | None,
    ) -> CliError | None:
        """What a turn that ran to its end amounts to, most specific cause first."""
        failed = turn.failed
        if failed is not None:
            return _turn_failed_error(failed.message)
        # A child stopped because it lingered after a completed turn (its output was
        # whole) exited on our signal: that is cleanup, not the turn's verdict.
        lingered_after_completion = turn.completed and proc.lingered
        if returncode is not None and returncode != 0 and not lingered_after_completion:
            return exit_code_error(
                returncode,
                stderr=proc.stderr_text,
                message=_stderr_headline(proc.stderr_text),
            )
        lost = [s for s in proc.skipped if s.lost_data]
        if lost:
            first = lost[0]
            code = "line_too_long" if first.reason == "too_long" else "invalid_json"
            return CliError(
                code,
                f"stdout line {first.line_no} could not be read ({first.reason}); "
                f"the turn may be missing events",
                details={"lines": tuple(lost)},
            )
        if turn.problems:
            first_problem = turn.problems[0]
            return CliError(
                "invalid_event",
                f"stdout line {first_problem.line_no} broke the codex event schema: "
                f"{first_problem.reason}",
                details={"problems": turn.problems},
            )
        if turn.terminal is None:
            message = "the codex stream ended without turn.completed or turn.failed"
            if proc.truncated:
                message += " (its last line was cut off mid-write)"
            if turn.stream_errors:
                message += f"; last stream error: {turn.stream_errors[-1]}"
            return CliError(
                "incomplete_run",
                message,
                details={"truncated": proc.truncated, "stream_errors": turn.stream_errors},
            )
        return None


def _is_ephemeral_flag(arg: str) -> bool:
    return arg == "--ephemeral" or arg.startswith("--ephemeral=")


class CodexCliSession:
    """A conversation on one codex thread: a fresh exec, then ``resume <id>`` per turn.

    The first turn is a plain ``codex exec``; the thread id its
    ``thread.started`` announces is resumed by every later turn. A turn that
    announces no id (a startup failure) leaves the session unthreaded, so the
    next turn starts fresh rather than resuming nothing.

    Pass ``thread_id`` to continue a thread an earlier process started, and
    ``usage_so_far`` with it (that thread's last reported total) if you have
    it: codex's usage is the thread's running total, and without a baseline
    the first turn is charged everything the thread ever spent.

    Turns run one at a time (a lock, not an error: the next turn needs this
    one's thread id). It is an async context manager for symmetry with the
    claude session; there is no process to close between turns -- each turn's
    child has exited before :meth:`turn` returns -- so :meth:`aclose` only
    refuses later turns.

    A cognition whose ``extra_args`` hold ``--ephemeral`` is refused here,
    with a ``ValueError``: codex writes no rollout for an ephemeral thread, so
    ``resume <id>`` -- every turn after the first -- would fail late, as a
    bare ``cli_exit_1``, after the first turn was paid for. ``drive()`` (one
    fresh turn, never resumed) stays allowed.
    """

    def __init__(
        self,
        cognition: CodexCliCognition,
        ctx: RunContext,
        *,
        thread_id: str | None = None,
        usage_so_far: RawUsage | None = None,
    ) -> None:
        ephemeral = [a for a in cognition.extra_args if _is_ephemeral_flag(a)]
        if ephemeral:
            raise ValueError(
                f"a codex session cannot use {ephemeral[0]!r} in extra_args: an ephemeral "
                "thread is not saved, so its next turn (codex exec resume <id>) would fail; "
                "drop the flag, or use drive() for one-off turns"
            )
        if usage_so_far is not None and thread_id is None:
            raise ValueError(
                "usage_so_far= is the total of an existing thread: pass thread_id= too"
            )
        self.cognition = cognition
        self.ctx = ctx
        self._thread_id = thread_id
        self._total = usage_so_far
        self._turns = 0
        self._closed = False
        self._lock = asyncio.Lock()

    @property
    def thread_id(self) -> str | None:
        """The thread later turns resume (None until a turn announced one)."""
        return self._thread_id

    @property
    def turns(self) -> int:
        """Turns run so far (failed ones included; not those refused after close)."""
        return self._turns

    @property
    def usage_total(self) -> RawUsage | None:
        """The thread's running total as codex last reported it (raw, inclusive)."""
        return self._total

    @property
    def closed(self) -> bool:
        return self._closed

    async def turn(self, prompt: str) -> CodexCliResult:
        """Run the next turn: resume the thread if there is one, else a fresh exec."""
        async with self._lock:
            if self._closed:
                return CodexCliResult(
                    error=CliError("session_closed", "this codex session was closed"),
                    session_id=self._thread_id,
                    model=self.cognition.billing_model,
                )
            resume = self._thread_id
            result, turn = await self.cognition._turn(
                self.ctx, prompt, resume=resume, previous=self._total
            )
            self._turns += 1
            mismatched = result.error is not None and result.error.code == "thread_mismatch"
            if resume is None and turn.thread_id is not None:
                self._thread_id = turn.thread_id
            if turn.usage is not None and not mismatched:
                self._total = turn.usage
            return result

    async def aclose(self) -> None:
        """Refuse later turns (there is no process to end: each turn's has exited)."""
        self._closed = True

    async def __aenter__(self) -> CodexCliSession:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
