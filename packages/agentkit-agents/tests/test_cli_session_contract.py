"""One session contract, kept by both CLIs (``agentkit.agents.cognition.session``).

Every test here runs once for claude and once for codex, against recordings of
the real CLIs: claude's shipped two-turn stream-json session, and a codex
thread of a fresh exec and two resumes. What a CLI does its own way -- how it
names a resume on its argv -- is the only thing a case supplies; what a
caller sees is asserted once, for both.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from agentkit.agents.cognition import (
    ClaudeCliCognition,
    ClaudeCliSession,
    CliSession,
    CodexCliCognition,
    CodexCliSession,
    SessionStateError,
)
from agentkit.agents.cognition.claude._turn import ClaudeTurn
from agentkit.agents.cognition.codex._turn import CodexTurn
from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import FakeClaudeCli, FakeCodexCli
from tests.support.cli import recorded

GUARD = 10.0


@dataclass(frozen=True)
class Case:
    """One CLI: a double replaying a two-turn conversation, an id to resume, and how
    its argv names a resumed id."""

    name: str
    double: Callable[[], Any]
    cognition_class: type[ClaudeCliCognition | CodexCliCognition]
    options: dict[str, Any]
    session_id: str
    resumes: Callable[[tuple[str, ...], str], bool]

    def cognition(self, cli: Any) -> Any:
        return self.cognition_class(cli, timeout=GUARD, **self.options)


CLAUDE = Case(
    "claude",
    lambda: FakeClaudeCli.recorded("session-two-turns"),
    ClaudeCliCognition,
    {},
    "80637039-6c89-41b5-aea8-742bfd647e97",
    lambda argv, sid: f"--resume={sid}" in argv,
)
CODEX = Case(
    "codex",
    lambda: FakeCodexCli.replay(
        recorded("codex", "codex-0.163.0-message-success"),
        recorded("codex", "codex-0.163.0-exec-resume"),
    ),
    CodexCliCognition,
    {"model": "gpt-5.6-luna"},
    "01a2363e-c45e-7df3-b850-4ea5f38e7c39",
    lambda argv, sid: argv[-3:-1] == ("resume", sid),
)


@pytest.fixture(params=[CLAUDE, CODEX], ids=lambda case: case.name)
def case(request: pytest.FixtureRequest) -> Case:
    case: Case = request.param
    return case


async def _turn(session: Any, prompt: str) -> Any:
    return await asyncio.wait_for(session.turn(prompt), GUARD)


def test_session_and_drive_name_the_resumed_id_alike(case: Case) -> None:
    session = inspect.signature(case.cognition_class.session).parameters
    drive = inspect.signature(case.cognition_class.drive).parameters
    assert list(session)[:3] == ["self", "ctx", "resume"]
    assert "resume" in drive
    assert session["resume"].kind is inspect.Parameter.KEYWORD_ONLY
    assert session["resume"].default is None


async def test_two_turns_continue_one_session(case: Case) -> None:
    cli = case.double()
    ctx = RunContext()
    async with case.cognition(cli).session(ctx) as session:
        before = session.session_id
        first = await _turn(session, "Remember the word: parity.")
        after_first = session.session_id
        second = await _turn(session, "Which word did I ask you to remember?")
    assert before is None
    assert after_first is not None
    assert (first.error, second.error) == (None, None)
    assert first.session_id == second.session_id == after_first == session.session_id
    assert session.turns == 2
    assert ctx.ledger.calls == 2
    assert session.closed


async def test_resume_continues_the_given_id_from_the_first_turn(case: Case) -> None:
    cli = case.double()
    async with case.cognition(cli).session(RunContext(), resume=case.session_id) as session:
        assert session.session_id == case.session_id
        await _turn(session, "Remember the word: parity.")
        await _turn(session, "Which word did I ask you to remember?")
    assert case.resumes(cli.argv(0), case.session_id)


async def test_a_turn_before_start_raises_and_starts_nothing(case: Case) -> None:
    cli = case.double()
    ctx = RunContext()
    session = case.cognition(cli).session(ctx)
    with pytest.raises(SessionStateError, match="not started"):
        await session.turn("Remember the word: parity.")
    assert cli.invocations == []
    assert ctx.ledger.calls == 0
    async with session:  # still usable once opened
        await _turn(session, "Remember the word: parity.")
        await _turn(session, "Which word did I ask you to remember?")


async def test_a_turn_after_aclose_raises_and_starts_nothing(case: Case) -> None:
    cli = case.double()
    ctx = RunContext()
    async with case.cognition(cli).session(ctx) as session:
        await _turn(session, "Remember the word: parity.")
        await _turn(session, "Which word did I ask you to remember?")
    spawned = len(cli.invocations)
    with pytest.raises(SessionStateError, match="closed"):
        await session.turn("And now?")
    assert isinstance(SessionStateError("x"), RuntimeError)
    assert len(cli.invocations) == spawned
    assert ctx.ledger.calls == 2
    await session.aclose()  # idempotent
    with pytest.raises(SessionStateError, match="closed"):
        await session.start()


async def test_start_twice_raises(case: Case) -> None:
    cli = case.double()
    async with case.cognition(cli).session(RunContext()) as session:
        with pytest.raises(SessionStateError, match="already been started"):
            await session.start()
        await _turn(session, "Remember the word: parity.")
        await _turn(session, "Which word did I ask you to remember?")


async def test_concurrent_turns_run_one_after_the_other(case: Case) -> None:
    cli = case.double()
    async with case.cognition(cli).session(RunContext()) as session:
        first, second = await asyncio.wait_for(
            asyncio.gather(
                session.turn("Remember the word: parity."),
                session.turn("Which word did I ask you to remember?"),
            ),
            GUARD,
        )
    assert (first.error, second.error) == (None, None)
    assert session.turns == 2


@pytest.mark.parametrize(
    ("prompt", "error"),
    [("", ArgumentValueError), ("  ", ArgumentValueError), (1, ArgumentTypeError)],
)
async def test_an_empty_prompt_is_refused_naming_it(
    case: Case, prompt: object, error: type[Exception]
) -> None:
    cli = case.double()
    async with case.cognition(cli).session(RunContext()) as session:
        with pytest.raises(error) as caught:
            await session.turn(prompt)
        assert getattr(caught.value, "argument", None) == "prompt"
        await _turn(session, "Remember the word: parity.")
        await _turn(session, "Which word did I ask you to remember?")


def test_both_sessions_are_the_one_abstract_session() -> None:
    assert issubclass(ClaudeCliSession, CliSession)
    assert issubclass(CodexCliSession, CliSession)
    assert inspect.isabstract(CliSession)
    assert CliSession.__abstractmethods__ == {"_turn", "_close"}
    with pytest.raises(TypeError, match="abstract"):
        CliSession(object(), RunContext(), None, expected=object)  # type: ignore[abstract]


def test_the_folds_share_one_abstract_fold() -> None:
    from agentkit.agents.cognition._driver import TurnFold

    assert inspect.isabstract(TurnFold)
    assert TurnFold.__abstractmethods__ == {"_apply", "reported_error", "text", "session_id"}
    assert not inspect.isabstract(ClaudeTurn)
    assert not inspect.isabstract(CodexTurn)
