"""``CodexCliCognition``: think by running ``codex exec --json``, one spawn per turn.

``codex exec`` is one-shot: a process runs one turn and exits. So a turn IS a
spawn, and a conversation is a chain of spawns threaded by the id the first
one announced: turn 1 is ``codex exec --json ... <prompt>``, every later turn
``codex exec --json ... resume <thread_id> <prompt>``.
:meth:`CodexCliCognition.drive` is one turn (fresh, or ``resume=`` a
thread); :class:`CodexCliSession` is the chain.

Every turn runs the shared turn algorithm
(:class:`~agentkit.agents.cognition._driver.TurnDriver`: budget check,
cancelled-before-start, span, spawn, guarded read to EOF, charge once, one
error from the shared ladder). What is codex's own is the argv
(:mod:`.argv`: options before ``resume``, stdin closed), the event mapping
(:mod:`.events`), the fold and its failure verdict (:mod:`._turn`:
``turn.completed`` is success, ``turn.failed`` failure even with exit 0,
neither is ``incomplete_run`` even with exit 0) and the charge rule
(:mod:`._usage`: ``turn.completed.usage`` is the thread's running total, so a
turn is charged the difference from the previous turn's total). Nothing
hangs: an offline codex retries forever, so every turn is bounded by
``timeout`` and the run's cancellation token.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Final

from agentkit.agents.cognition._driver import TurnDriver
from agentkit.agents.cognition._runner import DEFAULT_KILL_GRACE, DEFAULT_LINE_LIMIT
from agentkit.agents.cognition._spawn import default_spawn
from agentkit.agents.cognition.codex._turn import CodexTurn
from agentkit.agents.cognition.codex._usage import BILLING_MODEL, settle
from agentkit.agents.cognition.codex.argv import build_argv
from agentkit.agents.cognition.codex.result import CodexCliResult
from agentkit.agents.cognition.options import DEFAULT_TIMEOUT, CliCognitionBase, check_seconds
from agentkit.agents.cognition.session import CliSession
from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_str,
)
from agentkit.core.ports import SpawnPort
from agentkit.core.pricing import PriceTable, RawUsage
from agentkit.core.runtime import RunContext

__all__ = ["DEFAULT_RECONNECT_WINDOW", "CodexCliCognition", "CodexCliSession"]

DEFAULT_RECONNECT_WINDOW: Final = 60.0
"""Seconds codex may keep reconnecting, with no progress, before the turn ends ``connection_failed``."""


def _check_resume(where: str, resume: object, usage_so_far: object) -> None:
    if resume is not None:
        check_str(resume, where, "resume", empty=False)
    if usage_so_far is not None:
        if not isinstance(usage_so_far, RawUsage):
            raise ArgumentTypeError(where, "usage_so_far", "a RawUsage or None", usage_so_far)
        if resume is None:
            raise ArgumentValueError(
                where,
                "usage_so_far",
                "None without a thread to resume: it is an existing thread's total, "
                "so pass resume= too",
                usage_so_far,
            )


class CodexCliCognition(CliCognitionBase):
    """Drives ``codex exec --json``; the options are every CLI cognition's (:class:`CliCognitionBase`).

    A turn with :meth:`drive`, a thread with :meth:`session`. ``model`` is
    passed as ``-m`` and is the name turns are charged under; ``extra_args``
    go in front of everything positional, on every turn (``--sandbox``,
    ``--skip-git-repo-check``, ``-c key=value``). ``env=None`` inherits the
    environment. ``pricing`` prices each turn (codex reports no cost; without
    a table a turn costs 0.0 and its result is ``unpriced``) and then needs
    ``model``. Wrong input is refused at construction, naming the argument.
    """

    EXECUTABLE = "codex"
    build_argv = staticmethod(build_argv)
    _driver: TurnDriver

    def __init__(
        self,
        spawn: SpawnPort = default_spawn,
        *,
        model: str | None = None,
        extra_args: Sequence[str] = (),
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        pricing: PriceTable | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        executable: str | None = None,
        kill_grace: float = DEFAULT_KILL_GRACE,
        limit: int = DEFAULT_LINE_LIMIT,
        reconnect_window: float | None = DEFAULT_RECONNECT_WINDOW,
    ) -> None:
        """The shared options (:class:`CliCognitionBase`), and codex's ``reconnect_window``.

        ``reconnect_window`` is how many seconds codex may go on printing
        ``Reconnecting...`` notices without progress before the turn is ended
        as ``connection_failed`` (codex that cannot reach its API never ends
        the turn itself, whatever its retry settings); None leaves it to
        ``timeout``.
        """
        if reconnect_window is not None:
            check_seconds(
                reconnect_window,
                type(self).__name__,
                "reconnect_window",
                "> 0 seconds (finite) or None",
                positive=True,
            )
        self.reconnect_window: float | None = (
            None if reconnect_window is None else float(reconnect_window)
        )
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

    def _configure(self) -> None:
        pricing = self.pricing
        if pricing is not None:
            if self.model is None:
                raise ArgumentValueError(
                    type(self).__name__,
                    "model",
                    "a model name: pricing= needs model= (the codex stream never names the "
                    "model, so there is nothing else to look the price up by)",
                    self.model,
                )
            pricing.price(self.model)  # UnknownModelError now, not after a turn was paid for
        self.argv("probe")  # the flags are checked now, not at the first turn
        self._driver = TurnDriver(self, cli="codex", env=lambda: self.env)

    @property
    def billing_model(self) -> str:
        return self.model or BILLING_MODEL

    async def drive(
        self,
        ctx: RunContext,
        prompt: str,
        *,
        resume: str | None = None,
        usage_so_far: RawUsage | None = None,
    ) -> CodexCliResult:
        """Run ONE turn (``codex exec --json ... [resume <id>] <prompt>``), charge it to ``ctx``.

        ``resume`` continues that thread; ``usage_so_far`` is its last
        reported total, which the turn's charge is measured from (without it,
        the turn is charged the thread's whole total).

        Returns the result, with ``error`` set if the turn did not succeed;
        raises only for bad arguments and for the run's own policy
        (``BudgetExceeded`` before spawning).
        """
        _check_resume("drive", resume, usage_so_far)
        argv = self.argv(prompt, resume=resume)
        refused = self._driver.refuse(ctx)
        if refused is not None:
            return CodexCliResult(
                error=refused,
                session_id=resume,
                model=self.billing_model,
                unpriced=self.pricing is None,
            )
        turn = CodexTurn(resume, self.reconnect_window)
        rule = partial(
            settle, model=self.model, pricing=self.pricing, resume=resume, previous=usage_so_far
        )
        run = await self._driver.run(
            ctx, turn, rule, span="turn", argv=argv, attrs={"resumed": resume is not None}
        )
        return TurnDriver.result(
            CodexCliResult,
            run,
            cumulative_usage=turn.usage,
            usage_reset=run.settlement.reset,
            stream_errors=tuple(turn.stream_errors),
            warnings=tuple(turn.warnings),
        )

    def session(
        self,
        ctx: RunContext,
        *,
        resume: str | None = None,
        usage_so_far: RawUsage | None = None,
    ) -> CodexCliSession:
        """A conversation on one codex thread charged to ``ctx``; use ``async with``.

        ``resume`` / ``usage_so_far`` continue an earlier thread, as for
        :meth:`drive`; see :class:`CodexCliSession`.
        """
        return CodexCliSession(self, ctx, resume=resume, usage_so_far=usage_so_far)


def _is_ephemeral_flag(arg: str) -> bool:
    return arg == "--ephemeral" or arg.startswith("--ephemeral=")


class CodexCliSession(CliSession[CodexCliResult]):
    """A conversation on one codex thread: a fresh exec, then ``resume <id>`` per turn.

    The first turn is a plain ``codex exec``; the thread id its
    ``thread.started`` announces is resumed by every later turn. A turn that
    announces no id (a startup failure) leaves the session unthreaded, so the
    next turn starts fresh rather than resuming nothing.

    Pass ``resume`` (a thread id) to continue a thread an earlier process
    started, and ``usage_so_far`` with it (that thread's last reported total) if you have
    it: codex's usage is the thread's running total, and without a baseline
    the first turn is charged everything the thread ever spent.

    The session contract is claude's (:class:`~agentkit.agents.cognition.CliSession`):
    open it with ``async with``; turns run one at a time (the next turn needs
    this one's thread id). There is no process to end between turns -- each
    turn's child has exited before :meth:`turn` returns -- so closing only
    refuses later turns.

    A cognition whose ``extra_args`` hold ``--ephemeral`` is refused here:
    codex writes no rollout for an ephemeral thread, so ``resume <id>`` --
    every turn after the first -- would fail late, as a bare ``cli_exit_1``,
    after the first turn was paid for. ``drive()`` stays allowed.
    """

    def __init__(
        self,
        cognition: CodexCliCognition,
        ctx: RunContext,
        *,
        resume: str | None = None,
        usage_so_far: RawUsage | None = None,
    ) -> None:
        super().__init__(cognition, ctx, None, expected=CodexCliCognition)
        _check_resume("CodexCliSession", resume, usage_so_far)
        self._session_id = resume
        ephemeral = [a for a in cognition.extra_args if _is_ephemeral_flag(a)]
        if ephemeral:
            raise ArgumentValueError(
                "CodexCliSession",
                "cognition.extra_args",
                "free of --ephemeral (an ephemeral thread is not saved, so its next turn, "
                "codex exec resume <id>, would fail; use drive() for one-off turns)",
                ephemeral[0],
            )
        self.cognition = cognition
        self._total = usage_so_far

    @property
    def thread_id(self) -> str | None:
        """Codex's name for :attr:`session_id`: the thread later turns resume."""
        return self._session_id

    @property
    def usage_total(self) -> RawUsage | None:
        """The thread's running total as codex last reported it (raw, inclusive)."""
        return self._total

    async def _turn(self, prompt: str) -> CodexCliResult:
        """Run the next turn: resume the thread if there is one, else a fresh exec."""
        resume = self._session_id
        result = await self.cognition.drive(
            self.ctx, prompt, resume=resume, usage_so_far=self._total if resume else None
        )
        self.turns += 1
        on_this_thread = resume is None or result.session_id == resume
        if resume is None and result.session_id is not None:
            self._session_id = result.session_id
        if result.cumulative_usage is not None and on_this_thread:
            self._total = result.cumulative_usage
        return result

    async def _close(self) -> None:
        """Nothing to end: each turn's child has exited before its turn returned."""
