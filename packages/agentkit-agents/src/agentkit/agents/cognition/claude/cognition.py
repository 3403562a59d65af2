"""ClaudeCliCognition: thinking by running ``claude -p --output-format stream-json``.

Two shapes, because the CLI has two:

* :meth:`ClaudeCliCognition.drive` spawns ONE process per prompt (the prompt
  is the last argument, stdin is closed) and reads it to EOF; with
  ``resume=`` it continues an earlier session (``fork=True``: under a new
  session id) and charges only what the new turn cost;
* :meth:`ClaudeCliCognition.session` spawns ONE process with
  ``--input-format stream-json`` and serves many turns off the same stdout:
  each :meth:`ClaudeCliSession.turn` writes one user message on stdin and
  reads until that turn's ``result``. Messages are written one at a time,
  after the previous turn's result, because messages written mid-turn are
  queued and may be coalesced into one turn.

Either way the turn runs the shared turn algorithm
(:class:`~agentkit.agents.cognition._driver.TurnDriver`: budget check,
cancelled-before-start, span, start, guarded read, charge once, one error
from the shared ladder). What is claude's own is the argv (:mod:`.argv`), the
event mapping (:mod:`.events`), the fold and its failure verdict
(:mod:`._turn`) and the cost rule (:mod:`._usage`): each ``result`` is charged
once, from its usage and the CLI's own cost figure -- the cost since the
previous result -- or, when the CLI reports none, the price table's.
"""

from __future__ import annotations

import contextlib
import os
from functools import partial
from typing import Any

from agentkit.agents.cognition._driver import TurnDriver, TurnRun
from agentkit.agents.cognition._runner import CliProcess
from agentkit.agents.cognition.claude._turn import ClaudeTurn
from agentkit.agents.cognition.claude._usage import last_total, settle
from agentkit.agents.cognition.claude.argv import build_argv
from agentkit.agents.cognition.claude.events import ClaudeEvent
from agentkit.agents.cognition.claude.result import ClaudeCliResult
from agentkit.agents.cognition.errors import CliError
from agentkit.agents.cognition.options import CliCognitionBase
from agentkit.agents.cognition.session import CliSession
from agentkit.core._internal.arguments import check_bool, check_number, check_str
from agentkit.core.runtime import RunContext

__all__ = ["ClaudeCliCognition", "ClaudeCliSession"]


def _user_message(prompt: str) -> dict[str, Any]:
    """The stdin line both official SDKs write for a user turn."""
    return {
        "type": "user",
        "message": {"role": "user", "content": prompt},
        "parent_tool_use_id": None,
        "session_id": "",
    }


def _check_resume(
    where: str, resume: object, fork: object, cost_so_far: object
) -> tuple[str | None, bool, float | None]:
    if resume is not None:
        check_str(resume, where, "resume", empty=False)
    check_bool(fork, where, "fork")
    if cost_so_far is not None:
        check_number(cost_so_far, where, "cost_so_far")
    return (
        resume if isinstance(resume, str) else None,
        fork is True,
        None if cost_so_far is None else float(cost_so_far),  # type: ignore[arg-type]
    )


def _result(run: TurnRun[ClaudeTurn]) -> ClaudeCliResult:
    return TurnDriver.result(
        ClaudeCliResult,
        run,
        permission_denials=run.fold.permission_denials,
        structured_output=run.fold.structured_output,
        mcp_servers=run.fold.mcp_servers,
    )


class ClaudeCliCognition(CliCognitionBase):
    """Drives the claude CLI; the options are every CLI cognition's (:class:`CliCognitionBase`).

    ``model`` adds ``--model``; ``extra_args`` are appended verbatim before the
    prompt (``--max-turns``, ``--allowedTools``...; the format flags are the
    cognition's own). ``env=None`` inherits the environment minus
    ``CLAUDECODE`` (a claude started from inside Claude Code refuses to run
    nested); a given ``env`` is passed as is. ``pricing`` prices a turn whose
    result carries no cost (it then must list the model). Wrong input is
    refused at construction, naming the argument.
    """

    EXECUTABLE = "claude"
    build_argv = staticmethod(build_argv)
    _driver: TurnDriver

    def _configure(self) -> None:
        self.argv("x")  # the flags are checked now, not at the first spawn
        self._driver = TurnDriver(self, cli="claude", env=self._env)

    def _env(self) -> dict[str, str]:
        if self.env is not None:
            return dict(self.env)
        return {k: v for k, v in os.environ.items() if k != "CLAUDECODE"}

    async def drive(
        self,
        ctx: RunContext,
        prompt: str,
        *,
        resume: str | None = None,
        fork: bool = False,
        cost_so_far: float | None = None,
    ) -> ClaudeCliResult:
        """One run: spawn ``claude -p ... <prompt>``, read it to EOF, charge each result.

        ``resume`` continues the session with that id (``--resume=<id>``;
        ``fork=True`` adds ``--fork-session``: a new id, the same history).
        The resumed run's ``total_cost_usd`` includes every earlier run, so
        the charge is the CLI's cost since the last result when it reports
        one, else the total minus ``cost_so_far`` (the session's total so
        far, e.g. the earlier result's ``cost_usd`` sum).

        Returns the result with ``error`` set rather than raising on a CLI
        failure. Raises ``BudgetExceeded`` (before spawning) when the run's
        budget is spent, and re-raises ``asyncio.CancelledError`` after
        stopping the child and charging the attempt.
        """
        resume, fork, cost_so_far = _check_resume("drive", resume, fork, cost_so_far)
        argv = self.argv(prompt, resume=resume, fork=fork)
        refused = self._driver.refuse(ctx)
        if refused is not None:
            return ClaudeCliResult(error=refused, session_id=resume)
        turn = ClaudeTurn()
        rule = partial(settle, model=self.model, pricing=self.pricing, previous_total=cost_so_far)
        run = await self._driver.run(
            ctx, turn, rule, span="drive", argv=argv, attrs={"resumed": resume is not None}
        )
        return _result(run)

    def session(
        self,
        ctx: RunContext,
        *,
        resume: str | None = None,
        fork: bool = False,
        cost_so_far: float | None = None,
    ) -> ClaudeCliSession:
        """A long-lived stream-json session charged to ``ctx``; use ``async with``.

        ``resume`` / ``fork`` / ``cost_so_far`` continue an earlier session,
        as for :meth:`drive`.
        """
        return ClaudeCliSession(self, ctx, resume=resume, fork=fork, cost_so_far=cost_so_far)


class ClaudeCliSession(CliSession[ClaudeCliResult]):
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
    and cost when it has none. A turn refused before it started -- the
    session is dead, or the run was cancelled -- is not charged.
    """

    def __init__(
        self,
        cognition: ClaudeCliCognition,
        ctx: RunContext,
        *,
        resume: str | None = None,
        fork: bool = False,
        cost_so_far: float | None = None,
    ) -> None:
        super().__init__(cognition, ctx, None, expected=ClaudeCliCognition)
        resume, fork, cost_so_far = _check_resume("ClaudeCliSession", resume, fork, cost_so_far)
        self._session_id = resume if not fork else None
        self.cognition = cognition
        self.trailing: list[ClaudeEvent] = []
        self._resume = resume
        self._fork = fork
        self._proc: CliProcess | None = None
        """The runner of the session's child, once started (internal: what the kit's tests read)."""
        self._dead: CliError | None = None
        self._previous_total = cost_so_far

    @property
    def returncode(self) -> int | None:
        return self._proc.returncode if self._proc is not None else None

    @property
    def stderr(self) -> str:
        return self._proc.stderr_text if self._proc is not None else ""

    async def _start(self) -> None:
        cog = self.cognition
        argv = cog.argv(None, session=True, resume=self._resume, fork=self._fork)
        self._proc = await cog._driver.start(argv, stdin=True)

    def _closed_result(self, cause: CliError | None = None) -> ClaudeCliResult:
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
        returncode = proc.returncode if proc is not None else None
        stderr = proc.stderr_text if proc is not None else ""
        return ClaudeCliResult(
            error=dead.with_evidence(stderr=stderr, returncode=returncode),
            session_id=self._session_id,
            returncode=returncode,
            stderr=stderr,
        )

    async def _turn(self, prompt: str) -> ClaudeCliResult:
        """Write one user message and read until its ``result``; charge it once."""
        proc = self._proc
        assert proc is not None  # started: CliSession.turn checked
        if self._dead is not None or proc.eof:
            return self._closed_result()
        cog = self.cognition
        refused = cog._driver.refuse(self.ctx)
        if refused is not None:
            await proc.stop()
            self._dead = refused
            return self._closed_result(refused)
        self.turns += 1
        turn = ClaudeTurn()
        rule = partial(
            settle, model=cog.model, pricing=cog.pricing, previous_total=self._previous_total
        )
        run = await cog._driver.run(
            self.ctx,
            turn,
            rule,
            span="turn",
            proc=proc,
            message=_user_message(prompt),
            attrs={"turn": self.turns},
        )
        self._previous_total = last_total(turn, self._previous_total)
        if run.stopped is not None:
            self._dead = run.stopped
        elif proc.at_eof():
            self._dead = run.error or CliError(
                "session_closed", "the CLI exited after a successful turn"
            )
        if turn.session_id:
            self._session_id = turn.session_id
        return _result(run)

    async def _close(self) -> None:
        """Close stdin, read the rest of stdout, read stderr once, wait (bounded)."""
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
                trailing.feed(obj, proc.lines_read)
            await proc.finish()

        with contextlib.suppress(CliError):  # stopped: stderr and exit code are on proc
            await proc.guard(drain(), within=self.cognition.kill_grace)
        self.trailing.extend(trailing.events)
