"""CodexCliSession: a fresh exec, then ``codex exec ... resume <thread id>`` per turn."""

from __future__ import annotations

import asyncio
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from agentkit.agents.cognition import (
    CodexCliResult,
    CodexCliSession,
    SessionStateError,
)
from agentkit.agents.cognition.codex.argv import RESUME_REJECTED_FLAGS
from agentkit.core.meters import UsageMeter
from agentkit.core.ports import ProcessPort
from agentkit.core.pricing import OPENAI_API, ModelPrice, PriceTable, RawUsage
from agentkit.core.runtime import RunContext
from agentkit.core.types import Usage
from agentkit.core.verification.script import ScriptExhausted
from agentkit.fakes.cli import DEFAULT_THREAD_ID, CliRun, FakeCodexCli, codex_turn
from tests.support.cli import CODEX_EXEC as EXEC
from tests.support.cli import CODEX_MODEL as MODEL
from tests.support.cli import CODEX_RECORDED as FIXTURES
from tests.support.cli import CODEX_THREAD as THREAD
from tests.support.cli import ForwardingSpawn, recording
from tests.support.cli import codex_cognition as cognition

GUARD = 10.0


def fixture(name: str) -> Path:
    return FIXTURES / name


async def opened(session: CodexCliSession) -> CodexCliSession:
    """The session, started (these tests read it after their turns; codex holds no process)."""
    await session.start()
    return session


async def turn(session: CodexCliSession, prompt: str) -> CodexCliResult:
    return await asyncio.wait_for(session.turn(prompt), GUARD)


# ------------------------------------------------------ the recorded thread


async def test_exec_then_resume_then_resume_again_over_the_recorded_thread() -> None:
    cli = FakeCodexCli.replay(
        fixture("codex-0.163.0-message-success.jsonl"),
        fixture("codex-0.163.0-exec-resume.jsonl"),
        fixture("codex-0.163.0-exec-resume-second.jsonl"),
    )
    meter = UsageMeter()
    ctx = RunContext(meters=[meter])
    async with cognition(cli).session(ctx) as session:
        before = session.thread_id
        first = await turn(session, "Reply with: pong")
        assert before is None
        assert session.thread_id == THREAD
        second = await turn(session, "Say it again")
        third = await turn(session, "Say it again")

    # argv of each spawn: a plain exec, then resume <the announced id>, options in front
    assert cli.argv(0) == (*EXEC, "Reply with: pong")
    resumed = (*EXEC, "resume", THREAD)
    assert cli.argv(1) == (*resumed, "Say it again")
    assert cli.argv(2) == (*resumed, "Say it again")
    assert [r.thread_id for r in (first, second, third)] == [THREAD] * 3
    assert [r.text for r in (first, second, third)] == ["pong", "pong again", "pong again"]
    assert all(r.ok for r in (first, second, third))

    # codex's totals are cumulative (1200 -> 2700 -> 4200 input); each turn pays its own share
    assert [r.cumulative_usage for r in (first, second, third)] == [
        RawUsage(1200, 200, 0, 30, 12),
        RawUsage(2700, 1400, 0, 50, 12),
        RawUsage(4200, 2600, 0, 70, 12),
    ]
    assert first.usage == Usage(1000, 200, 0, 30, 12)
    assert second.usage == Usage(300, 1200, 0, 20, 0)  # (2700-1200) - (1400-200) fresh
    assert third.usage == Usage(300, 1200, 0, 20, 0)
    # charged once per turn, and the charges add up to the thread's last total -- not more
    for counted in (ctx.ledger, meter):
        assert counted.calls == 3
        assert counted.usage == OPENAI_API.normalise(RawUsage(4200, 2600, 0, 70, 12))
    assert session.usage_total == RawUsage(4200, 2600, 0, 70, 12)
    assert session.turns == 3
    assert cli.remaining == 0


async def test_each_turn_is_priced_on_its_own_share() -> None:
    cli = FakeCodexCli.replay(
        fixture("codex-0.163.0-message-success.jsonl"),
        fixture("codex-0.163.0-exec-resume.jsonl"),
    )
    prices = PriceTable({MODEL: ModelPrice(input=1.0, output=10.0, cached_input=0.1)})
    ctx = RunContext()
    async with cognition(cli, pricing=prices).session(ctx) as session:
        first = await turn(session, "a")
        second = await turn(session, "b")
    assert first.cost_usd == pytest.approx((1000 * 1.0 + 200 * 0.1 + 30 * 10.0) / 1e6)
    assert second.cost_usd == pytest.approx((300 * 1.0 + 1200 * 0.1 + 20 * 10.0) / 1e6)
    assert ctx.ledger.cost_usd == pytest.approx(first.cost_usd + second.cost_usd)


# ---------------------------------------------------- scripted sessions


async def test_three_turns_consume_exactly_three_runs_and_a_fourth_is_loud() -> None:
    cli = FakeCodexCli.answering("first", "second", "third")
    ctx = RunContext()
    session = await opened(cognition(cli).session(ctx))
    texts = [(await turn(session, f"turn {n}")).text for n in (1, 2, 3)]
    assert texts == ["first", "second", "third"]
    assert cli.remaining == 0
    assert len(cli.invocations) == 3
    assert "resume" not in cli.argv(0)
    assert cli.argv(1)[-3:] == ("resume", DEFAULT_THREAD_ID, "turn 2")
    assert cli.argv(2)[-3:] == ("resume", DEFAULT_THREAD_ID, "turn 3")
    assert ctx.ledger.calls == 3
    with pytest.raises(ScriptExhausted):
        await session.turn("turn 4")


async def test_options_rejected_after_resume_are_re_passed_before_it() -> None:
    """codex exec resume refuses --sandbox after the subcommand (recorded), yet forgets it."""
    rejection = recording("codex", "codex-0.163.0-resume-rejects-sandbox-flag").run
    cli = FakeCodexCli.answering("one", "two", "three")
    clap = _ClapLikeSpawn(cli, rejection)
    extra = ("--skip-git-repo-check", "--sandbox", "workspace-write", "-C", "/w", "--add-dir", "/x")
    async with cognition(clap, extra_args=extra).session(RunContext()) as session:
        results = [await turn(session, p) for p in ("a", "b", "c")]
    assert all(r.ok for r in results), [r.error for r in results]
    assert clap.rejected == 0
    for index in (1, 2):
        argv = cli.argv(index)
        cut = argv.index("resume")
        assert argv[:cut] == ("codex", "exec", "--json", "-m", MODEL, *extra)
        assert argv[cut:] == ("resume", DEFAULT_THREAD_ID, "bc"[index - 1])


@pytest.mark.agentkit(verify=False)  # leaves runs unspawned on purpose
async def test_the_clap_like_spawn_does_reject_a_misplaced_flag() -> None:
    # the double used above can fail: the same argv with --sandbox after resume is refused
    rejection = recording("codex", "codex-0.163.0-resume-rejects-sandbox-flag").run
    clap = _ClapLikeSpawn(FakeCodexCli.answering("unused"), rejection)
    process = await clap("codex", "exec", "resume", "--sandbox", "read-only", "t", "again")
    assert clap.rejected == 1
    assert process.stderr is not None
    assert b"unexpected argument '--sandbox'" in await process.stderr.read()


async def test_resuming_an_unknown_thread_is_a_stderr_only_exit_1() -> None:
    unknown = "01a2363e-0000-7000-8000-000000000000"
    run = recording("codex", "codex-0.163.0-resume-unknown-thread").run
    cli = FakeCodexCli([run])
    ctx = RunContext()
    session = await opened(cognition(cli).session(ctx, resume=unknown))
    result = await turn(session, "Say it again")
    assert cli.argv(0)[-3:] == ("resume", unknown, "Say it again")
    assert result.error is not None
    assert result.error.code == "cli_exit_1"
    assert result.error.message == (
        "Error: thread/resume: thread/resume failed: no rollout found for thread id "
        f"{unknown} (code -32600)"
    )
    assert "Stack backtrace" in result.error.stderr
    assert result.thread_id == unknown
    assert session.thread_id == unknown
    assert ctx.ledger.calls == 1


async def test_resuming_an_existing_thread_with_its_total_charges_only_the_new_turn() -> None:
    cli = FakeCodexCli.replay(fixture("codex-0.163.0-exec-resume.jsonl"))
    ctx = RunContext()
    session = await opened(
        cognition(cli).session(ctx, resume=THREAD, usage_so_far=RawUsage(1200, 200, 0, 30, 12))
    )
    result = await turn(session, "Say it again")
    assert cli.argv(0)[-3:] == ("resume", THREAD, "Say it again")
    assert result.usage == Usage(300, 1200, 0, 20, 0)
    assert not result.usage_reset


def test_usage_so_far_without_a_thread_is_refused() -> None:
    with pytest.raises(ValueError, match="resume="):
        cognition(FakeCodexCli()).session(RunContext(), usage_so_far=RawUsage(1))


async def test_a_resumed_turn_that_does_not_re_announce_the_thread_keeps_it() -> None:
    cli = FakeCodexCli(
        [
            CliRun.of(codex_turn(text="a", thread_id="t-1", usage=(100, 0, 10))),
            CliRun.of(codex_turn(text="b", thread_id=None, usage=(250, 80, 25))),
            CliRun.of(codex_turn(text="c", thread_id=None, usage=(400, 200, 40))),
        ]
    )
    session = await opened(cognition(cli).session(RunContext()))
    results = [await turn(session, p) for p in ("1", "2", "3")]
    assert [r.thread_id for r in results] == ["t-1"] * 3
    assert cli.argv(2)[-3:] == ("resume", "t-1", "3")
    assert results[1].usage == Usage(70, 80, 0, 15, 0)
    assert results[2].usage == Usage(30, 120, 0, 15, 0)


async def test_a_failed_first_turn_without_a_thread_leaves_the_next_one_fresh() -> None:
    cli = FakeCodexCli(
        [
            recording("codex", "codex-0.163.0-not-a-git-repo").run,
            CliRun.of(codex_turn(text="ok")),
        ]
    )
    session = await opened(cognition(cli).session(RunContext()))
    failed = await turn(session, "one")
    assert failed.error is not None
    assert failed.error.code == "cli_exit_1"
    assert session.thread_id is None
    ok = await turn(session, "two")
    assert ok.ok
    assert "resume" not in cli.argv(1)
    assert session.thread_id == DEFAULT_THREAD_ID


async def test_a_failed_turn_keeps_the_baseline_so_its_tokens_land_on_the_next_turn() -> None:
    cli = FakeCodexCli(
        [
            CliRun.of(codex_turn(text="a", thread_id="t", usage=(100, 0, 10))),
            CliRun.of(codex_turn(failed="stream disconnected", thread_id="t"), returncode=1),
            CliRun.of(codex_turn(text="c", thread_id="t", usage=(400, 100, 30))),
        ]
    )
    ctx = RunContext()
    session = await opened(cognition(cli).session(ctx))
    a = await turn(session, "1")
    b = await turn(session, "2")
    c = await turn(session, "3")
    assert b.error is not None
    assert b.error.code == "turn_failed"
    assert b.usage == Usage()
    assert cli.argv(2)[-3:] == ("resume", "t", "3")
    assert c.usage == Usage(200, 100, 0, 20, 0)  # measured from turn 1's total
    assert ctx.ledger.calls == 3
    assert ctx.ledger.usage == a.usage + c.usage


async def test_a_resumed_turn_announcing_another_thread_is_a_mismatch() -> None:
    cli = FakeCodexCli(
        [
            CliRun.of(codex_turn(text="a", thread_id="t-1", usage=(100, 0, 10))),
            CliRun.of(codex_turn(text="b", thread_id="t-2", usage=(40, 0, 4))),
            CliRun.of(codex_turn(text="c", thread_id="t-1", usage=(300, 0, 30))),
        ]
    )
    session = await opened(cognition(cli).session(RunContext()))
    await turn(session, "1")
    odd = await turn(session, "2")
    assert odd.error is not None
    assert odd.error.code == "session_mismatch"  # the one code for both CLIs
    assert odd.error.details["announced"] == "t-2"
    assert odd.usage == Usage(40, 0, 0, 4, 0)  # another thread's total is its own
    assert session.thread_id == "t-1"
    third = await turn(session, "3")
    assert cli.argv(2)[-3:] == ("resume", "t-1", "3")
    assert third.usage == Usage(200, 0, 0, 20, 0)


async def test_a_total_that_went_down_is_charged_whole_and_flagged() -> None:
    cli = FakeCodexCli(
        [
            CliRun.of(codex_turn(text="a", usage=(500, 0, 50))),
            CliRun.of(codex_turn(text="b", usage=(100, 0, 10))),
        ]
    )
    session = await opened(cognition(cli).session(RunContext()))
    await turn(session, "1")
    low = await turn(session, "2")
    assert low.usage_reset
    assert low.usage == Usage(100, 0, 0, 10, 0)


@pytest.mark.agentkit(verify=False)  # leaves runs unspawned on purpose
async def test_turns_after_aclose_are_refused_without_spawning() -> None:
    cli = FakeCodexCli.answering("a", "b")
    async with cognition(cli).session(RunContext()) as session:
        await turn(session, "1")
    assert session.closed
    with pytest.raises(SessionStateError, match="closed"):
        await turn(session, "2")
    assert session.thread_id == DEFAULT_THREAD_ID
    assert cli.remaining == 1


async def test_concurrent_turns_run_one_after_the_other_on_the_thread() -> None:
    cli = FakeCodexCli.answering("a", "b")
    session = await opened(cognition(cli).session(RunContext()))
    first, second = await asyncio.wait_for(
        asyncio.gather(session.turn("1"), session.turn("2")), GUARD
    )
    assert (first.text, second.text) == ("a", "b")
    assert "resume" not in cli.argv(0)
    assert cli.argv(1)[-3:] == ("resume", DEFAULT_THREAD_ID, "2")


# -------------------------------------------------------------------- helpers


class _ClapLikeSpawn(ForwardingSpawn):
    """Refuses, as codex 0.163.0's argument parser does, an exec-only flag after ``resume``.

    A misplaced flag gets the recorded usage error (exit 2, stderr only);
    anything else goes to the wrapped double.
    """

    def __init__(self, inner: FakeCodexCli, rejection: CliRun) -> None:
        super().__init__(self._parse)
        self.inner = inner
        self.rejection = rejection
        self.rejected = 0

    async def _parse(self, argv: tuple[str, ...], kw: dict[str, Any]) -> ProcessPort:
        program, *args = argv
        kw["stdout"] = subprocess.PIPE if kw["stdout"] is None else kw["stdout"]
        kw["stderr"] = subprocess.PIPE if kw["stderr"] is None else kw["stderr"]
        if "resume" in args and RESUME_REJECTED_FLAGS & set(args[args.index("resume") + 1 :]):
            self.rejected += 1
            return await FakeCodexCli([self.rejection])(program, *args, **kw)
        return await self.inner(program, *args, **kw)


async def test_each_turn_is_one_client_span_with_its_thread_and_outcome() -> None:
    from agentkit.core.runtime import Services
    from agentkit.fakes.ctx import RecordingTracer

    tracer = RecordingTracer()
    ctx = RunContext(services=Services(trace=tracer))
    cli = FakeCodexCli(
        [CliRun.of(codex_turn(text="a")), CliRun.of(codex_turn(failed="boom"), returncode=1)]
    )
    session = await opened(cognition(cli).session(ctx))
    await turn(session, "1")
    await turn(session, "2")
    assert [(s.name, s.kind) for s in tracer.spans] == [("codex_cli.turn", "client")] * 2
    first, second = tracer.spans
    assert first.attrs == {
        "resumed": False,
        "cli.session_id": DEFAULT_THREAD_ID,
        "cli.cost_usd": 0.0,
        "cli.error": None,
    }
    assert second.attrs["resumed"] is True
    assert second.attrs["cli.error"] == "turn_failed"
    assert all(s.ended for s in tracer.spans)


# ------------------------------------------------------------ --ephemeral


@pytest.mark.parametrize("flag", ["--ephemeral", "--ephemeral=true"])
@pytest.mark.agentkit(verify=False)  # leaves runs unspawned on purpose
def test_a_session_refuses_an_ephemeral_cognition_up_front(flag: str) -> None:
    # An ephemeral thread is never saved: turn 2's `resume <id>` would fail late as cli_exit_1.
    cli = FakeCodexCli([CliRun.of(codex_turn(text="one")), CliRun.of(codex_turn(text="two"))])
    cog = cognition(cli, extra_args=("--skip-git-repo-check", flag))
    with pytest.raises(ValueError, match=re.escape(repr(flag))) as raised:
        cog.session(RunContext())
    assert "resume" in str(raised.value)
    with pytest.raises(ValueError, match="--ephemeral"):
        CodexCliSession(cog, RunContext(), resume=THREAD)
    assert cli.invocations == []


async def test_drive_stays_allowed_with_ephemeral() -> None:
    cli = FakeCodexCli.script(codex_turn(text="one-off"))
    ctx = RunContext()
    cog = cognition(cli, extra_args=("--skip-git-repo-check", "--ephemeral"))
    result = await asyncio.wait_for(cog.drive(ctx, "go"), GUARD)
    assert result.error is None
    assert result.text == "one-off"
    assert "--ephemeral" in cli.invocations[0].argv
    assert ctx.ledger.calls == 1


@pytest.mark.agentkit(verify=False)  # leaves runs unspawned on purpose
def test_a_session_without_ephemeral_opens() -> None:
    cog = cognition(FakeCodexCli.script(codex_turn(text="x")), extra_args=("--ephemeral-ish",))
    assert isinstance(cog.session(RunContext()), CodexCliSession)
