"""Run-time conformance: FakeClaudeCli vs a REAL child process, on the same recordings.

docs/design.md "Conformance": the same behavioural contract runs against the
double and against the real implementation -- here "the real subprocess
spawn vs FakeClaudeCli on a recorded session". The real side is the real
seam, :func:`~agentkit.agents.cognition.default_spawn`
(``asyncio.create_subprocess_exec``), starting ``tests/support/replay_child.py``
in place of ``claude``: the recording's bytes go through real pipes in
chunks, a session's turns are paced by real stdin lines, the exit status and
the signals are real. The double is
:class:`~agentkit.fakes.cli.FakeClaudeCli` over the same bytes. The
cognition is the real :class:`~agentkit.agents.cognition.ClaudeCliCognition`
both times, so a difference between the two results is a difference between
the double and a subprocess.

Each comparison covers the whole result, field by field (text, usage, cost,
stop reason, session id, mapped events, the error's code/message/stderr/exit
code/details, stderr, exit code, skipped lines), what each side was asked to
spawn, what a session wrote on stdin, and what was charged to the run.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import signal
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from agentkit.agents.cognition import ClaudeCliCognition, ClaudeCliSession, CliResult
from agentkit.agents.cognition.claude import ClaudeAssistant, TextBlock
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import FakeClaudeCli, Recording, load_recording
from tests.support.cli import (
    SIGTERM_GRACE,
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
    kept_stderr,
    ledger,
    recorded,
    recording,
)

BOTH = SideBySide(ClaudeCliCognition, FakeClaudeCli)

# The real side of every comparison starts real children through default_spawn.
pytestmark = pytest.mark.agentkit(real_processes=True)


# ------------------------------------------------------------- recordings


def turns(rec: Recording) -> int:
    """How many turns ``rec`` answers: its ``result`` lines."""
    count = 0
    for line in rec.run.stdout.splitlines():
        with contextlib.suppress(ValueError):
            obj = json.loads(line)
            count += isinstance(obj, dict) and obj.get("type") == "result"
    return count


def is_session(rec: Recording) -> bool:
    """Recorded with ``--input-format stream-json`` (turns paced by stdin), and answering."""
    return "--input-format" in rec.argv and turns(rec) >= 1


def prompts(rec: Recording) -> list[str]:
    """The user texts ``rec`` recorded on stdin, else one made-up prompt per turn."""
    users = [json.loads(m) for m in rec.stdin_messages]
    said = [_user_text(m) for m in users if m.get("type") == "user"]
    return said or [f"question {n}" for n in range(1, turns(rec) + 1)]


def _user_text(message: Mapping[str, Any]) -> str:
    content = message["message"]["content"]
    if isinstance(content, str):
        return content
    return "".join(block["text"] for block in content if block.get("type") == "text")


RECORDINGS = every_recording("claude")
SESSIONS = [path for path in RECORDINGS if is_session(load_recording(path))]
TWO_TURNS_PATH = recorded("claude", "claude-2.1.332-stream-json-input-two-turns")
TWO_TURNS = load_recording(TWO_TURNS_PATH)
TEXT_SUCCESS = recording("claude", "claude-2.1.332-text-success").run.stdout


def test_the_recordings_cover_success_failure_and_sessions() -> None:
    # The parametrisations below are only worth something if they span all of these.
    runs = [load_recording(path).run for path in RECORDINGS]
    assert len(runs) >= 15
    assert {run.returncode for run in runs} == {0, 1}
    assert any(not run.stdout for run in runs)
    assert any(run.stderr and run.stdout for run in runs)
    assert len(SESSIONS) >= 3
    assert turns(TWO_TURNS) == 2
    assert prompts(TWO_TURNS) == ["First question?", "Second question?"]


# -------------------------------------------------------------- comparing


@dataclasses.dataclass
class SessionRun:
    """Everything one side of a session comparison produced."""

    results: Sequence[CliResult[Any]]
    returncode: int | None
    stderr: str
    trailing: list[Any]
    ledger: tuple[Any, ...]


async def run_session(
    spawn: ChildSpawn | FakeClaudeCli, prompts: Sequence[str], **options: Any
) -> SessionRun:
    ctx = RunContext()
    session: ClaudeCliSession
    async with asyncio.timeout(STEP), ClaudeCliCognition(spawn, **options).session(ctx) as session:
        results = [await session.turn(p) for p in prompts]
    return SessionRun(results, session.returncode, session.stderr, session.trailing, ledger(ctx))


def assert_same_sessions(real: SessionRun, fake: SessionRun) -> None:
    assert len(real.results) == len(fake.results)
    for r, d in zip(real.results, fake.results, strict=True):
        assert_same(r, d)
    assert real.returncode == fake.returncode
    assert real.stderr == fake.stderr
    assert real.trailing == fake.trailing
    assert real.ledger == fake.ledger


# ------------------------------------------------------- the recordings


@pytest.mark.parametrize("path", RECORDINGS, ids=[p.stem for p in RECORDINGS])
async def test_a_recording_driven_once_is_the_same_through_the_double_and_a_real_child(
    path: Path, tmp_path: Path
) -> None:
    await BOTH.assert_recording_alike(path, tmp_path)


@pytest.mark.parametrize("path", SESSIONS, ids=[p.stem for p in SESSIONS])
async def test_a_recorded_session_is_the_same_turn_by_turn_through_both(
    path: Path, tmp_path: Path
) -> None:
    rec = load_recording(path)
    stdin_log = tmp_path / "stdin.jsonl"
    spawn = ChildSpawn(child_args(rec, tmp_path, "--session", "--stdin-log", str(stdin_log)))
    fake = FakeClaudeCli.replay(path)
    said = prompts(rec)
    assert len(said) == turns(rec) >= 1

    real = await run_session(spawn, said)
    double = await run_session(fake, said)

    assert_real_children(spawn, rec.run.returncode)
    assert real.returncode == rec.run.returncode
    assert_same_sessions(real, double)
    assert_same_spawns(spawn, fake)
    # The input side too: the real child read exactly what the double recorded.
    assert stdin_log.read_bytes() == fake.invocations[0].stdin
    assert all(r.session_id is not None for r in real.results)


async def test_the_two_turn_session_answers_each_turn_in_turn(tmp_path: Path) -> None:
    stdin_log = tmp_path / "stdin.jsonl"
    spawn = ChildSpawn(child_args(TWO_TURNS, tmp_path, "--session", "--stdin-log", str(stdin_log)))
    fake = FakeClaudeCli.replay(TWO_TURNS_PATH)

    real = await run_session(spawn, prompts(TWO_TURNS))
    double = await run_session(fake, prompts(TWO_TURNS))

    assert_same_sessions(real, double)
    first, second = real.results
    assert (first.text, second.text) == ("First answer.", "Second answer.")
    assert first.session_id == second.session_id == "90a1a048-b2cb-47e3-9c96-82d6cec8e464"
    # total_cost_usd is cumulative (0.00051 -> 0.00072): each turn is charged its own share.
    assert first.cost_usd == pytest.approx(0.00051)
    assert second.cost_usd == pytest.approx(0.00021)
    assert first.returncode is None  # the process was still serving turns
    assert real.returncode == 0
    lines = [json.loads(line) for line in stdin_log.read_text().splitlines()]
    assert [_user_text(m) for m in lines] == ["First question?", "Second question?"]
    assert "--input-format" in spawn.argv[0]


async def test_a_turn_the_recording_lacks_times_out_alike_in_both(tmp_path: Path) -> None:
    # Both the child and the double wait forever for an answer they do not have; the
    # cognition's per-turn timeout must stop either the same way. The recorded turns run
    # under it too: the child is up and reading stdin before the first (the spawn waits
    # for it), so each of them is a pipe's round trip, far inside the timeout.
    said = [*prompts(TWO_TURNS), "Third question?", "Fourth question?"]
    ready = tmp_path / "reading-stdin"
    spawn = ChildSpawn(
        child_args(TWO_TURNS, tmp_path, "--session", "--ready-file", str(ready)), ready=ready
    )
    fake = FakeClaudeCli.replay(TWO_TURNS_PATH, hang_when_unanswered=True)

    real = await run_session(spawn, said, timeout=1.0, kill_grace=SIGTERM_GRACE)
    double = await run_session(fake, said, timeout=1.0, kill_grace=SIGTERM_GRACE)

    assert_same_sessions(real, double)
    third = real.results[2]
    assert third.error is not None
    assert third.error.code == "timeout"
    assert third.returncode == -signal.SIGTERM
    assert [r.error for r in real.results[:2]] == [None, None]
    fourth = real.results[3]  # the stopped session refuses further turns, in both
    assert fourth.error is not None
    assert fourth.error.code == "session_closed"
    assert_real_children(spawn, -signal.SIGTERM)


# ------------------------------------------------------ framing edge cases


def _with_big_assistant_text(text: str) -> bytes:
    """text-success with its one assistant text block replaced by ``text``."""
    out: list[bytes] = []
    for line in TEXT_SUCCESS.splitlines():
        obj = json.loads(line)
        if obj.get("type") == "assistant":
            obj["message"]["content"][0]["text"] = text
        out.append(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode() + b"\n")
    return b"".join(out)


async def test_a_3_mb_assistant_line_arrives_whole_through_both(tmp_path: Path) -> None:
    text = "0123456789abcdef" * (3 * 1024 * 1024 // 16)
    real, double = await BOTH.over_bytes(_with_big_assistant_text(text), tmp_path)
    assert real.error is None
    assert real.skipped == ()
    assistant = [e for e in real.events if isinstance(e, ClaudeAssistant)]
    assert assistant[0].blocks == (TextBlock(text),)
    assert_same(real, double)


async def test_a_truncated_last_line_is_the_same_incomplete_run_through_both(
    tmp_path: Path,
) -> None:
    real = await BOTH.assert_truncated_alike(TEXT_SUCCESS, tmp_path)  # cut in the result
    assert real.text == "pong"  # the assistant's text survives


async def test_noise_blank_and_corrupt_lines_are_skipped_alike_by_both(tmp_path: Path) -> None:
    noise = b'\n[SandboxDebug] plain text on stdout\n{"type":"system",\n'
    reasons = ["blank", "not_json", "invalid_json"]
    await BOTH.assert_skipped_alike(noise + TEXT_SUCCESS, tmp_path, reasons, "invalid_json")


_PONG = json.dumps("\u00e9\u20ac\U0001f600" * 1000, ensure_ascii=False).encode()


@dataclasses.dataclass(frozen=True)
class Framing:
    """One way stdout (or stderr) can arrive, and the error code it must come to."""

    id: str
    data: bytes
    code: str | None
    stderr: bytes = b""
    returncode: int = 0
    child: tuple[str, ...] = ()


FRAMINGS = [
    Framing(
        "multibyte-utf8-split-across-7-byte-writes",
        TEXT_SUCCESS.replace(b'"pong"', _PONG),
        None,
        child=("--chunk", "7"),
    ),
    Framing("no-final-newline", TEXT_SUCCESS.rstrip(b"\n"), None),
    Framing("crlf-line-ends", TEXT_SUCCESS.replace(b"\n", b"\r\n"), None),
    Framing("json-that-is-not-an-object", b'[1, 2]\n"text"\n' + TEXT_SUCCESS, None),
    Framing(
        "invalid-utf8-in-the-result",
        TEXT_SUCCESS.replace(b"pong", b"po\xffng"),
        "incomplete_run",
    ),
    Framing("init-only-then-exit-0", TEXT_SUCCESS.splitlines(keepends=True)[0], "incomplete_run"),
    Framing("empty-stdout-exit-0", b"", "incomplete_run"),
    Framing("success-but-exit-3", TEXT_SUCCESS, "cli_exit_3", returncode=3),
    Framing(
        "3-mb-stderr-written-before-stdout",
        TEXT_SUCCESS,
        None,
        stderr=b"warning: " + b"e" * (3 * 1024 * 1024) + b"\n",
        child=("--stderr-at", "start"),
    ),
]


@pytest.mark.parametrize("case", FRAMINGS, ids=[c.id for c in FRAMINGS])
async def test_a_framing_edge_case_is_the_same_through_both(case: Framing, tmp_path: Path) -> None:
    real, double = await BOTH.over_bytes(
        case.data, tmp_path, stderr=case.stderr, returncode=case.returncode, child=case.child
    )
    assert (real.error.code if real.error is not None else None) == case.code
    # A flood keeps its head and tail (bounded, like the double's drain of the same bytes).
    assert real.stderr == kept_stderr(case.stderr)
    assert_same(real, double)


async def test_an_assistant_line_over_the_limit_is_skipped_alike_by_both(
    tmp_path: Path,
) -> None:
    data = _with_big_assistant_text("y" * (3 * 1024 * 1024))
    await BOTH.assert_skipped_alike(
        data, tmp_path, ["too_long"], "line_too_long", limit=1024 * 1024
    )


# ------------------------------------------- stopping a child that hangs


def _hang_args(ready: Path, *extra: str) -> list[str]:
    first = len(TEXT_SUCCESS.splitlines(keepends=True)[0])  # system/init, then nothing
    err = ready.with_name("early.stderr")
    err.write_bytes(b"Warning: something worth reading after the kill\n")
    out = ready.with_name("text-success.stdout")
    out.write_bytes(TEXT_SUCCESS)
    return hang_args(out, err, first, ready, *extra)


def _assert_stopped_after_init(result: CliResult[Any], code: str) -> None:
    assert result.error is not None
    assert result.error.code == code
    assert [type(e).__name__ for e in result.events] == ["ClaudeInit"]
    assert result.session_id is not None
    assert result.stderr == "Warning: something worth reading after the kill\n"
    assert result.error.stderr == result.stderr
    assert result.cost_usd == 0.0


async def test_a_hanging_child_is_terminated_on_the_timeout(tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    result, spawn, _ = await BOTH.stopped_while_hanging(_hang_args(ready), ready, time_limit=1.0)
    _assert_stopped_after_init(result, "timeout")
    assert_stopped_by(result, spawn, signal.SIGTERM)


async def test_a_child_that_ignores_sigterm_is_killed_on_cancellation(tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    args = _hang_args(ready, "--ignore-sigterm")
    result, spawn, _ = await BOTH.stopped_while_hanging(args, ready, kill_grace=0.3)
    _assert_stopped_after_init(result, "cancelled")
    assert_stopped_by(result, spawn, signal.SIGKILL)


async def test_task_cancellation_stops_the_real_child_and_propagates(tmp_path: Path) -> None:
    ready = tmp_path / "ready"
    await BOTH.assert_task_cancellation_stops_the_child(_hang_args(ready), ready)


# ------------------------------------------------ the SpawnPort contract suite


@pytest.mark.parametrize("path", RECORDINGS, ids=[p.stem for p in RECORDINGS])
async def test_a_recording_passes_the_spawn_port_contract_through_both(
    path: Path, tmp_path: Path
) -> None:
    await BOTH.assert_spawn_port_holds(path, tmp_path)
