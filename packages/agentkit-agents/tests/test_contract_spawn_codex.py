"""Run-time conformance: FakeCodexCli vs a REAL child process, on the same recordings.

docs/design.md "Conformance": the same behavioural contract runs against the
double and against the real implementation. Here the real implementation is
the real subprocess seam -- :func:`~agentkit.agents.cognition.default_spawn`
(``asyncio.create_subprocess_exec``) starting ``tests/support/replay_child.py`` in
place of ``codex``, so the bytes travel through real pipes, real chunked
reads, a real exit status and real signals. The double is
:class:`~agentkit.fakes.cli.FakeCodexCli` over the same bytes. The cognition
(:class:`~agentkit.agents.cognition.CodexCliCognition`) is the real one
both times, so any difference in the results is a difference between the
double and a subprocess -- which is what the double promises not to have.

Every comparison is the whole result, field by field (text, usage, cost,
thread id, mapped events, error code/message/stderr/exit code/details,
stderr, exit code, skipped lines, codex's extras), plus what each side was
asked to spawn and what was charged to the run.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

import pytest

from agentkit.agents.cognition import CliResult, CodexCliCognition
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import CliRun, FakeCodexCli, codex_turn, load_recording
from tests.support.cli import (
    CODEX_MODEL,
    STEP,
    ChildSpawn,
    SideBySide,
    assert_real_children,
    assert_same,
    assert_same_spawns,
    assert_stopped_by,
    child_args,
    every_recording,
    hang_args,
    ledger,
    recorded,
    recording,
)

BOTH = SideBySide(CodexCliCognition, FakeCodexCli)

# The real side of every comparison starts real children through default_spawn.
pytestmark = pytest.mark.agentkit(real_processes=True)


# ------------------------------------------------------------- recordings


RECORDINGS = every_recording("codex")


def test_the_recordings_cover_success_and_failure() -> None:
    # The parametrisation below is only worth something if it spans both outcomes.
    runs = [load_recording(path).run for path in RECORDINGS]
    assert len(runs) >= 12
    assert {0, 1, 2, 124} <= {run.returncode for run in runs}
    assert any(not run.stdout for run in runs)


# ------------------------------------------------------- the recordings


@pytest.mark.parametrize("path", RECORDINGS, ids=[p.stem for p in RECORDINGS])
async def test_a_recording_gives_the_same_result_through_the_double_and_a_real_child(
    path: Path, tmp_path: Path
) -> None:
    await BOTH.assert_recording_alike(path, tmp_path, model=CODEX_MODEL)


async def test_a_three_turn_session_over_resumed_recordings_is_the_same_through_both(
    tmp_path: Path,
) -> None:
    names = ("message-success", "exec-resume", "exec-resume-second")
    paths = [recorded("codex", f"codex-0.163.0-{n}") for n in names]
    spawn = ChildSpawn(*(child_args(load_recording(p), tmp_path) for p in paths))
    fake = FakeCodexCli.replay(*paths)
    cognition_real = CodexCliCognition(spawn=spawn, model=CODEX_MODEL)
    cognition_fake = CodexCliCognition(spawn=fake, model=CODEX_MODEL)
    real_ctx, fake_ctx = RunContext(), RunContext()
    prompts = ("Reply with: pong", "Say it again", "Say it again")

    async with asyncio.timeout(STEP), cognition_real.session(real_ctx) as session:
        real = [await session.turn(p) for p in prompts]
        real_total = session.usage_total
    async with asyncio.timeout(STEP), cognition_fake.session(fake_ctx) as session:
        double = [await session.turn(p) for p in prompts]
        fake_total = session.usage_total

    assert_real_children(spawn, 0, 0, 0)
    for r, d in zip(real, double, strict=True):
        assert_same(r, d)
    assert_same_spawns(spawn, fake)
    assert spawn.argv[1][-3:-1] == ("resume", real[0].thread_id)  # the chain really threaded
    cumulative = [r.cumulative_usage for r in real]
    assert [c.input_tokens if c else None for c in cumulative] == [1200, 2700, 4200]
    charged = [r.usage.input_tokens + r.usage.cached_input_tokens for r in real]
    assert charged == [1200, 1500, 1500]  # each turn charged its own share, not the total
    assert real_total == fake_total
    assert ledger(real_ctx) == ledger(fake_ctx)


# ------------------------------------------------------ framing edge cases


async def test_a_3_mb_line_arrives_whole_through_both(tmp_path: Path) -> None:
    text = "0123456789abcdef" * (3 * 1024 * 1024 // 16)  # 3 MiB in ONE agent_message line
    data = CliRun.of(codex_turn(text=text, usage=(100, 20, 7))).stdout
    real, double = await BOTH.over_bytes(data, tmp_path)
    assert real.error is None
    assert real.text == text
    assert_same(real, double)


async def test_a_truncated_last_line_is_the_same_incomplete_run_through_both(
    tmp_path: Path,
) -> None:
    whole = recording("codex", "codex-0.163.0-message-success").run.stdout
    await BOTH.assert_truncated_alike(whole, tmp_path)  # cut in turn.completed


async def test_noise_blank_and_corrupt_lines_are_skipped_alike_by_both(tmp_path: Path) -> None:
    payloads: list[Any] = ["\n", "warning: a plain-text line on stdout\n", '{"broken": \n']
    payloads += codex_turn(text="pong", usage=(10, 0, 2))
    reasons = ["blank", "not_json", "invalid_json"]
    await BOTH.assert_skipped_alike(CliRun.of(payloads).stdout, tmp_path, reasons, "invalid_json")


async def test_a_line_over_the_limit_is_skipped_alike_by_both(tmp_path: Path) -> None:
    text = "x" * (3 * 1024 * 1024)
    data = CliRun.of(codex_turn(text=text, usage=(10, 0, 2))).stdout
    await BOTH.assert_skipped_alike(
        data, tmp_path, ["too_long"], "line_too_long", limit=1024 * 1024
    )


# ------------------------------------------- stopping a child that hangs


HANG = recording("codex", "codex-0.163.0-offline-reconnecting-killed").run


def _hang_args(ready: Path, *extra: str) -> list[str]:
    out, err = ready.with_name("hang.stdout"), ready.with_name("hang.stderr")
    out.write_bytes(HANG.stdout)
    err.write_bytes(HANG.stderr)
    first_two = len(b"".join(HANG.stdout.splitlines(keepends=True)[:2]))
    return hang_args(out, err, first_two, ready, *extra)


def _assert_stopped_after_partial_output(result: CliResult[Any], code: str) -> None:
    assert result.error is not None
    assert result.error.code == code
    # What the child wrote before it hung survives: the first two events and the stderr.
    assert [type(e).__name__ for e in result.events] == ["ThreadStarted", "TurnStarted"]
    assert result.session_id == "01a2363b-7e16-79e1-927a-d428207d3676"
    assert result.stderr == HANG.stderr.decode()
    assert result.error.stderr == result.stderr


async def test_a_hanging_child_is_terminated_on_the_timeout(tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    result, spawn, ctx = await BOTH.stopped_while_hanging(_hang_args(ready), ready, time_limit=1.0)
    _assert_stopped_after_partial_output(result, "timeout")
    assert_stopped_by(result, spawn, signal.SIGTERM)
    assert ctx.ledger.calls == 1  # the spawn ran, so it is charged (with nothing)


async def test_a_hanging_child_is_terminated_on_the_cancellation_token(tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    result, spawn, _ = await BOTH.stopped_while_hanging(
        _hang_args(ready), ready, reason="user hit stop"
    )
    _assert_stopped_after_partial_output(result, "cancelled")
    assert result.error is not None
    assert "user hit stop" in result.error.message
    assert result.returncode == -signal.SIGTERM
    assert_real_children(spawn, -signal.SIGTERM)


async def test_a_child_that_ignores_sigterm_is_killed(tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    args = _hang_args(ready, "--ignore-sigterm")
    result, spawn, _ = await BOTH.stopped_while_hanging(args, ready, kill_grace=0.3)
    _assert_stopped_after_partial_output(result, "cancelled")
    assert_stopped_by(result, spawn, signal.SIGKILL)


async def test_task_cancellation_stops_the_real_child_and_propagates(tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    ctx = await BOTH.assert_task_cancellation_stops_the_child(_hang_args(ready), ready)
    assert ctx.ledger.calls == 1


# ------------------------------------------------ the SpawnPort contract suite


@pytest.mark.parametrize("path", RECORDINGS, ids=[p.stem for p in RECORDINGS])
async def test_a_recording_passes_the_spawn_port_contract_through_both(
    path: Path, tmp_path: Path
) -> None:
    await BOTH.assert_spawn_port_holds(path, tmp_path)
