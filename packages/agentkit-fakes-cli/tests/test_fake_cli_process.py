"""The fake child process: spawn bookkeeping, exit, signals, stderr and stdin."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.ports import DEFAULT_STREAM_LIMIT, ProcessPort
from agentkit.fakes.cli import (
    CapturingSpawn,
    CliRun,
    CliStderr,
    FakeClaudeCli,
    FakeCodexCli,
    RecordingError,
    ScriptExhausted,
)

PIPE = subprocess.PIPE
DEVNULL = subprocess.DEVNULL


def _rc(proc: ProcessPort) -> int | None:
    """Read returncode afresh (a helper, so a checker does not carry an earlier narrowing)."""
    return proc.returncode


async def _drain(stream: object) -> bytes:
    from agentkit.core.ports import StreamReaderPort

    assert stream is not None
    reader: StreamReaderPort = stream  # type: ignore[assignment]
    return await asyncio.wait_for(reader.read(), 5)


async def test_each_spawn_consumes_the_next_run_then_script_exhausted() -> None:
    cli = FakeClaudeCli([CliRun(stdout=b"1\n"), CliRun(stdout=b"2\n")])
    assert cli.remaining == 2
    first = await cli("claude", "-p", "a", stdout=PIPE)
    second = await cli("claude", "-p", "b", stdout=PIPE)
    assert cli.remaining == 0
    assert await _drain(first.stdout) == b"1\n"
    assert await _drain(second.stdout) == b"2\n"
    with pytest.raises(ScriptExhausted, match="2 runs"):
        await cli("claude", "-p", "c", stdout=PIPE)
    assert [inv.argv for inv in cli.invocations] == [
        ("claude", "-p", "a"),
        ("claude", "-p", "b"),
    ]


async def test_repeat_last_replays_the_final_run_forever() -> None:
    cli = FakeCodexCli([CliRun(stdout=b"a\n"), CliRun(stdout=b"b\n")], repeat_last=True)
    outs = []
    for _ in range(4):
        proc = await cli("codex", stdout=PIPE)
        outs.append(await _drain(proc.stdout))
    assert outs == [b"a\n", b"b\n", b"b\n", b"b\n"]
    assert cli.remaining == 0
    with pytest.raises(ValueError, match="repeat_last"):
        FakeCodexCli([], repeat_last=True)


async def test_the_invocation_records_argv_cwd_env_and_session_flag() -> None:
    cli = FakeCodexCli([CliRun()])
    await cli("codex", "exec", cwd="/w", env={"A": "1"}, start_new_session=True, stdout=PIPE)
    inv = cli.invocations[0]
    assert (inv.argv, inv.cwd, dict(inv.env), inv.start_new_session) == (
        ("codex", "exec"),
        "/w",
        {"A": "1"},
        True,
    )
    assert cli.argv() == ("codex", "exec")
    assert cli.argv(0) == ("codex", "exec")
    with pytest.raises(IndexError, match="1 spawn"):
        cli.argv(3)


async def test_returncode_is_none_until_stdout_is_drained_and_waited() -> None:
    cli = FakeClaudeCli([CliRun(stdout=b"a\nb\n", returncode=7)])
    proc = await cli("claude", stdout=PIPE, stderr=PIPE)
    assert _rc(proc) is None
    assert proc.stdout is not None
    assert await proc.stdout.readline() == b"a\n"
    waiter = asyncio.ensure_future(proc.wait())
    await asyncio.sleep(0.01)
    assert not waiter.done()  # b"b\n" is still in the pipe: the child cannot exit
    assert _rc(proc) is None
    assert await proc.stdout.readline() == b"b\n"
    assert await proc.stdout.readline() == b""
    assert await asyncio.wait_for(waiter, 5) == 7
    assert _rc(proc) == 7
    assert cli.invocations[0].returncode == 7
    assert cli.invocations[0].lines_read == 2


async def test_terminate_and_kill_end_the_stream_like_a_real_child() -> None:
    cli = FakeClaudeCli([CliRun(stdout=b"a\nb\nc\n")], repeat_last=True)
    proc = await cli("claude", stdout=PIPE, stderr=PIPE)
    assert proc.stdout is not None
    assert await proc.stdout.readline() == b"a\n"
    proc.terminate()
    assert await proc.stdout.readline() == b""
    assert await asyncio.wait_for(proc.wait(), 5) == -15
    inv = cli.invocations[0]
    assert (inv.terminated, inv.killed, inv.returncode, inv.lines_read) == (True, False, -15, 1)
    proc.kill()  # exited: a no-op, as Popen.kill is
    assert inv.killed is False

    proc = await cli("claude", stdout=PIPE)
    proc.kill()
    assert await asyncio.wait_for(proc.wait(), 5) == -9
    assert cli.invocations[1].killed is True


async def test_signals_after_a_normal_exit_are_no_ops() -> None:
    cli = FakeClaudeCli([CliRun(stdout=b"a\n")])
    proc = await cli("claude", stdout=PIPE)
    assert await _drain(proc.stdout) == b"a\n"
    assert await proc.wait() == 0
    proc.terminate()
    proc.kill()
    assert proc.returncode == 0
    assert cli.invocations[0].terminated is False


async def test_interleaved_stderr_is_readable_in_order_with_the_lump_last() -> None:
    run = CliRun.of(
        [{"type": "a"}, CliStderr(b"one\n"), {"type": "b"}, CliStderr(b"two\n")],
        stderr=b"end\n",
        returncode=1,
    )
    proc = await FakeClaudeCli([run])("claude", stdout=PIPE, stderr=PIPE)
    await _drain(proc.stdout)
    assert await _drain(proc.stderr) == b"one\ntwo\nend\n"
    assert await proc.wait() == 1


async def test_unpiped_streams_are_none_and_stderr_stdout_merge_is_refused() -> None:
    cli = FakeClaudeCli([CliRun(stdout=b"a\n")], repeat_last=True)
    proc = await cli("claude", stdout=DEVNULL, stderr=None)
    assert proc.stdout is None
    assert proc.stderr is None
    assert proc.stdin is None
    assert await asyncio.wait_for(proc.wait(), 5) == 0
    with pytest.raises(ValueError, match="STDOUT"):
        await cli("claude", stdout=PIPE, stderr=subprocess.STDOUT)


async def test_pid_is_never_a_real_process() -> None:
    proc = await FakeClaudeCli([CliRun()])("claude")
    assert proc.pid >= 1 << 22
    with pytest.raises(ProcessLookupError):
        os.kill(proc.pid, 0)


async def test_argv_must_be_strings() -> None:
    # Refused as the real default_spawn refuses it: a typed error naming args[i].
    with pytest.raises(ArgumentTypeError, match=r"args\[0\] must be a str"):
        await FakeClaudeCli([CliRun()], verify=False)("claude", Path("x"))  # type: ignore[arg-type]
    with pytest.raises(ArgumentValueError, match="limit"):
        await FakeClaudeCli([CliRun()], verify=False)("claude", limit=0)


async def test_a_keyword_the_spawn_port_does_not_take_is_a_type_error() -> None:
    # The spawns take SpawnOptions as **options: an untyped caller's misspelling still
    # fails as against a spelled-out signature, before a run is consumed.
    double = FakeClaudeCli([CliRun()], verify=False)
    for spawn in (double, CapturingSpawn(double, cli="claude")):
        with pytest.raises(
            TypeError, match=r"__call__\(\) got an unexpected keyword argument 'limt'"
        ):
            await spawn("claude", limt=5)  # type: ignore[call-arg]
    assert double.remaining == 1


async def test_a_spawn_given_no_limit_reads_under_the_ports_default() -> None:
    line = b"x" * (DEFAULT_STREAM_LIMIT + 1) + b"\n"  # asyncio allows limit bytes before "\n"
    double = FakeClaudeCli([CliRun(stdout=line)] * 2, verify=False)
    fits = await double("claude", stdout=PIPE, limit=DEFAULT_STREAM_LIMIT + 1)
    assert fits.stdout is not None
    assert await fits.stdout.readline() == line
    over = await double("claude", stdout=PIPE)
    assert over.stdout is not None
    with pytest.raises(ValueError, match="longer than limit"):
        await over.stdout.readline()


async def test_stdin_writes_are_recorded_and_closing_is_final() -> None:
    cli = FakeClaudeCli([CliRun(stdout=b"a\n")])
    proc = await cli("claude", "-p", "x", stdin=PIPE, stdout=PIPE)
    assert proc.stdin is not None
    proc.stdin.write(b"he")
    proc.stdin.write(b"llo\n")
    await proc.stdin.drain()
    proc.stdin.close()
    assert proc.stdin.is_closing()
    with pytest.raises(RuntimeError, match="closed"):
        proc.stdin.write(b"more")
    assert cli.invocations[0].stdin == b"hello\n"


async def test_drain_on_a_dead_childs_stdin_raises_connection_reset() -> None:
    cli = FakeClaudeCli([CliRun(stdout=b"a\n")])
    proc = await cli("claude", "-p", "x", stdin=PIPE, stdout=PIPE)
    proc.kill()
    assert proc.stdin is not None
    proc.stdin.write(b"late")
    with pytest.raises(ConnectionResetError):
        await proc.stdin.drain()
    assert cli.invocations[0].stdin == b""  # never reached the child


def test_replay_reads_eagerly_and_fails_at_construction(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    with pytest.raises(RecordingError, match=r"nope\.jsonl: FakeClaudeCli.replay: no such file"):
        FakeClaudeCli.replay(missing)
    with pytest.raises(RecordingError, match="a directory, not a recording file"):
        FakeCodexCli.replay(tmp_path)
    with pytest.raises(ArgumentTypeError, match="path must be a file path") as caught:
        FakeClaudeCli.replay(42)  # type: ignore[arg-type]
    assert caught.value.argument == "path"
    with pytest.raises(ArgumentTypeError) as caught:
        FakeClaudeCli.replay(missing, None)  # type: ignore[arg-type]
    assert caught.value.argument == "paths[1]"


async def test_replay_holds_the_bytes_so_a_vanished_file_still_replays(tmp_path: Path) -> None:
    path = tmp_path / "rec.jsonl"
    path.write_bytes(b'{"type":"x"}\n')
    cli = FakeClaudeCli.replay(path, str(path))
    path.unlink()
    assert cli.remaining == 2
    assert cli.runs[0].stdout is cli.runs[1].stdout  # the same path shares one buffer
    for _ in range(2):
        proc = await cli("claude", stdout=PIPE)
        assert await _drain(proc.stdout) == b'{"type":"x"}\n'


def test_constructor_refuses_non_runs() -> None:
    with pytest.raises(ArgumentTypeError, match=r"runs\[0\] must be a CliRun") as caught:
        FakeClaudeCli([b"bytes"])  # type: ignore[list-item]
    assert caught.value.argument == "runs[0]"
    with pytest.raises(ArgumentTypeError, match="wrap one run in a list"):
        FakeCodexCli(CliRun())  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="runs must be a sequence of CliRun"):
        FakeCodexCli({"stdout": b""})  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="repeat_last must be a bool"):
        FakeCodexCli([CliRun()], repeat_last=1)  # type: ignore[arg-type]
    with pytest.raises(ArgumentValueError, match="repeat_last must be False when there is no run"):
        FakeCodexCli([], repeat_last=True)
    with pytest.raises(ArgumentTypeError, match="hang_when_unanswered must be a bool"):
        FakeClaudeCli([CliRun()], hang_when_unanswered="yes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="verify must be a bool"):
        FakeClaudeCli([CliRun()], verify=None)  # type: ignore[arg-type]


async def test_script_is_one_spawn() -> None:
    cli = FakeCodexCli.script([{"type": "turn.started"}], stderr=b"e", returncode=2)
    assert cli.remaining == 1
    proc = await cli("codex", stdout=PIPE, stderr=PIPE)
    assert await _drain(proc.stdout) == b'{"type":"turn.started"}\n'
    assert await _drain(proc.stderr) == b"e"
    assert await proc.wait() == 2


async def test_codex_with_a_stdin_pipe_writes_nothing_until_stdin_closes() -> None:
    cli = FakeCodexCli.answering("pong")
    proc = await cli("codex", "exec", "--json", "hi", stdin=PIPE, stdout=PIPE)
    assert proc.stdout is not None
    assert proc.stdin is not None
    pending = asyncio.ensure_future(proc.stdout.readline())
    await asyncio.sleep(0.01)
    assert not pending.done()  # codex reads stdin to EOF before starting the turn
    proc.stdin.write(b"extra context\n")
    proc.stdin.close()
    first = await asyncio.wait_for(pending, 5)
    assert b"thread.started" in first
    assert cli.invocations[0].stdin == b"extra context\n"
