"""The CLI doubles are strict: unspawned runs, replay input checks, any Mapping, argv(index)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from types import MappingProxyType

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError
from agentkit.core.verification import VerificationError
from agentkit.fakes.cli import (
    CliRun,
    FakeClaudeCli,
    FakeCodexCli,
    Recording,
    ReplayMismatch,
    codex_turn,
    save_recording,
)
from agentkit.fakes.cli._fake import FakeCli
from agentkit.fakes.cli._process import ReleaseMode

PIPE = subprocess.PIPE


def test_unspawned_runs_are_a_violation_naming_the_fix() -> None:
    here = sys._getframe().f_lineno + 1
    cli = FakeCodexCli.answering("a", "b", verify=False)
    (violation,) = cli.violations()
    assert violation.kind == "unspawned_runs"
    assert violation.double == "FakeCodexCli"
    assert violation.created_at == f"{__file__}:{here}"
    assert "2 of 2 runs were never spawned" in violation.detail
    assert "repeat_last=True" in violation.fix
    with pytest.raises(VerificationError, match="unspawned_runs"):
        cli.assert_complete()


async def test_spawned_and_repeating_doubles_have_nothing_left_over() -> None:
    cli = FakeClaudeCli([CliRun(stdout=b"{}\n")])
    await asyncio.wait_for((await cli("claude")).wait(), 5)
    repeating = FakeClaudeCli([CliRun()], repeat_last=True)
    empty = FakeCodexCli()
    for double in (cli, repeating, empty):
        assert double.violations() == []
        double.assert_complete()


async def test_argv_by_index_on_both_doubles() -> None:
    for cli in (FakeClaudeCli([CliRun(), CliRun()]), FakeCodexCli([CliRun(), CliRun()])):
        await asyncio.wait_for((await cli("x", "1")).wait(), 5)
        await asyncio.wait_for((await cli("x", "2")).wait(), 5)
        assert cli.argv() == ("x", "2")
        assert cli.argv(0) == ("x", "1")
        with pytest.raises(IndexError, match="no spawn at index 5: 2 spawn"):
            cli.argv(5)


def test_each_double_decides_when_its_cli_writes() -> None:
    run = CliRun.of([{"type": "result"}])
    claude, codex = FakeClaudeCli([run], verify=False), FakeCodexCli([run], verify=False)
    session = claude._release(run, ("claude", "--input-format", "stream-json"), PIPE)
    assert session.mode is ReleaseMode.PER_MESSAGE
    assert [b.kind for b in session.boundaries] == ["result"]
    assert claude._release(run, ("claude", "-p"), PIPE).mode is ReleaseMode.AT_ONCE
    assert codex._release(run, ("codex",), PIPE).mode is ReleaseMode.ON_STDIN_EOF
    assert codex._release(run, ("codex",), None).mode is ReleaseMode.AT_ONCE
    # The base knows no CLI: a one-shot child writes everything at once.
    assert FakeCli._release(
        claude, run, ("claude", "--input-format", "stream-json"), PIPE
    ).mode is (ReleaseMode.AT_ONCE)


def test_any_mapping_is_accepted_where_a_dict_is() -> None:
    arguments = MappingProxyType({"path": "a.txt"})
    event = MappingProxyType({"type": "tool", "input": arguments})
    assert CliRun.of([event]).stdout == b'{"type":"tool","input":{"path":"a.txt"}}\n'
    assert FakeClaudeCli.script([event], verify=False).runs[0].stdout == CliRun.of([event]).stdout
    item = MappingProxyType({"id": "i", "type": "mcp_tool_call", "arguments": arguments})
    events = codex_turn(items=[item])
    assert events[2] == {"type": "item.completed", "item": {**item, "arguments": dict(arguments)}}
    json.dumps(events)  # plain JSON all the way down


def _recording(tmp_path: Path, argv: tuple[str, ...], stdin: tuple[bytes, ...]) -> Path:
    run = CliRun.of(
        [
            {"type": "system", "subtype": "init"},
            {"type": "result", "n": 1},
            {"type": "result", "n": 2},
        ]
    )
    turn = len(run.stdout.splitlines(keepends=True)[0]) + len(
        run.stdout.splitlines(keepends=True)[1]
    )
    offsets = [0, turn][: len(stdin)]
    return save_recording(
        Recording(
            cli="claude",
            argv=argv,
            run=run,
            stdin=tuple(zip(offsets, stdin, strict=True)),
        ),
        tmp_path / "session.jsonl",
    )


SESSION = ("/opt/real/claude", "-p", "--input-format", "stream-json", "--model", "m1")


def _user(text: str, **extra: object) -> bytes:
    return json.dumps({"type": "user", "message": {"content": text}, **extra}).encode() + b"\n"


async def test_check_input_passes_the_same_argv_and_messages(tmp_path: Path) -> None:
    path = _recording(tmp_path, SESSION, (_user("one"), _user("two")))
    cli = FakeClaudeCli.replay(path, check_input=True)
    proc = await cli("claude", *SESSION[1:], stdin=PIPE, stdout=PIPE)
    assert proc.stdin is not None
    # Key order and spacing do not matter; argv[0] is compared by file name.
    proc.stdin.write(b'{"message": {"content": "one"}, "type": "user"}\n')
    proc.stdin.write(_user("two"))
    proc.stdin.close()
    assert proc.stdout is not None
    assert (await asyncio.wait_for(proc.stdout.read(), 5)).count(b"\n") == 3
    assert await asyncio.wait_for(proc.wait(), 5) == 0
    cli.assert_complete()


async def test_check_input_refuses_a_different_argv_with_a_diff(tmp_path: Path) -> None:
    cli = FakeClaudeCli.replay(_recording(tmp_path, SESSION, ()), check_input=True, verify=False)
    with pytest.raises(ReplayMismatch) as caught:
        await cli("claude", "-p", "--input-format", "stream-json", "--model", "m2")
    error = caught.value
    assert (error.double, error.spawn, error.what) == ("FakeClaudeCli", 1, "argv")
    assert "-m1\n+m2" in error.diff
    assert "--- recorded\n+++ given" in str(error)
    (violation,) = cli.violations()
    assert violation.kind == "replay_mismatch"
    assert "-m1" in violation.detail


async def test_a_mismatch_prints_the_command_that_records_it_again(tmp_path: Path) -> None:
    path = _recording(tmp_path, SESSION, ())
    with pytest.raises(ArgumentTypeError, match="rerecord"):
        FakeClaudeCli.replay(path, check_input=True, rerecord=["pytest"])  # type: ignore[arg-type]
    again = "pytest --agentkit-record=all tests/test_x.py::test_y"
    cli = FakeClaudeCli.replay(path, check_input=True, verify=False, rerecord=again)
    with pytest.raises(ReplayMismatch) as caught:
        await cli("claude", "-p", "--input-format", "stream-json", "--model", "m2")
    assert caught.value.rerecord == again
    assert str(caught.value).endswith(f"If the change is intended, record it again:\n    {again}")
    (violation,) = cli.violations()
    assert violation.fix.endswith(again)


async def test_check_input_refuses_a_different_session_message_at_once(tmp_path: Path) -> None:
    path = _recording(tmp_path, SESSION, (_user("one"), _user("two")))
    cli = FakeClaudeCli.replay(path, check_input=True, verify=False)
    proc = await cli(*SESSION, stdin=PIPE, stdout=PIPE)
    assert proc.stdin is not None
    proc.stdin.write(_user("one"))
    with pytest.raises(ReplayMismatch) as caught:
        proc.stdin.write(_user("TWO"))
    assert caught.value.what == "stdin message 2"
    assert '-    "content": "two"\n+    "content": "TWO"' in caught.value.diff
    proc.kill()


async def test_check_input_refuses_a_message_too_many_and_one_too_few(tmp_path: Path) -> None:
    path = _recording(tmp_path, SESSION, (_user("one"),))
    cli = FakeClaudeCli.replay(path, path, check_input=True, verify=False)
    proc = await cli(*SESSION, stdin=PIPE, stdout=PIPE)
    assert proc.stdin is not None
    proc.stdin.write(_user("one"))
    with pytest.raises(ReplayMismatch, match="the recording has no such message"):
        proc.stdin.write(_user("extra"))
    proc.kill()
    short = await cli(*SESSION, stdin=PIPE, stdout=PIPE)
    assert short.stdin is not None
    with pytest.raises(ReplayMismatch, match=r"stdin \(0 of 1 messages written\)"):
        short.stdin.close()


async def test_check_input_matches_what_the_capture_scrubbed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", "/home/alice")
    recorded = ("codex", "exec", "--cd", "~/project", "--api-key", "[REDACTED]", "-")
    path = save_recording(
        Recording(cli="codex", argv=recorded, stdin=((0, b"the prompt"),)), tmp_path / "c.jsonl"
    )
    cli = FakeCodexCli.replay(path, check_input=True)
    given = ("codex", "exec", "--cd", "/home/alice/project", "--api-key", "live-secret", "-")
    proc = await cli(*given, stdin=PIPE, stdout=PIPE)
    assert proc.stdin is not None
    proc.stdin.write(b"the prompt")
    proc.stdin.close()
    assert proc.stdout is not None
    assert await asyncio.wait_for(proc.stdout.read(), 5) == b""
    assert await asyncio.wait_for(proc.wait(), 5) == 0
    cli.assert_complete()


def test_check_input_needs_a_recording_file(tmp_path: Path) -> None:
    plain = tmp_path / "plain.jsonl"
    plain.write_bytes(b'{"type":"result"}\n')
    with pytest.raises(ValueError, match="check_input must be False for a plain stdout file"):
        FakeClaudeCli.replay(plain, check_input=True)
    with pytest.raises(TypeError, match="check_input must be a bool"):
        FakeClaudeCli.replay(plain, check_input="yes")  # type: ignore[arg-type]
