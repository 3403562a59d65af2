"""FakeClaudeCli.replay / FakeCodexCli.replay load a recording whole; plain stdout files still work."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from agentkit.fakes.cli import CliRun, CliStderr, FakeClaudeCli, FakeCodexCli
from agentkit.fakes.cli._recording import Recording, RecordingError, save_recording


async def _drain(fake: FakeClaudeCli | FakeCodexCli) -> tuple[bytes, bytes, int]:
    proc = await fake(
        "claude",
        "-p",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    assert proc.stderr is not None
    proc.stdin.close()  # codex answers once its stdin is closed
    out = await asyncio.wait_for(proc.stdout.read(), 10)
    err = await asyncio.wait_for(proc.stderr.read(), 10)
    return out, err, await asyncio.wait_for(proc.wait(), 10)


async def test_a_recorded_failure_replays_with_its_exit_code_and_stderr(tmp_path: Path) -> None:
    run = CliRun.of(
        [{"type": "system", "subtype": "init"}, CliStderr(b"retrying\n"), {"type": "result"}],
        stderr=b"API Error: 529\n",
        returncode=1,
    )
    path = save_recording(
        Recording(cli="claude", argv=("claude", "-p"), run=run), tmp_path / "r.jsonl"
    )
    fake = FakeClaudeCli.replay(path)
    out, err, code = await _drain(fake)
    assert out == run.stdout
    assert code == 1
    assert err == b"retrying\nAPI Error: 529\n"


async def test_plain_stdout_jsonl_still_replays_as_exit_zero(tmp_path: Path) -> None:
    path = tmp_path / "plain.jsonl"
    path.write_bytes(b'{"type":"thread.started","thread_id":"t"}\n')
    out, err, code = await _drain(FakeCodexCli.replay(path))
    assert (out, err, code) == (path.read_bytes(), b"", 0)


def test_a_recording_of_the_other_cli_is_refused_at_replay(tmp_path: Path) -> None:
    path = save_recording(Recording(cli="codex", argv=("codex", "exec")), tmp_path / "c.jsonl")
    with pytest.raises(RecordingError, match="cannot be replayed by a claude double"):
        FakeClaudeCli.replay(path)


def test_a_broken_recording_fails_at_replay_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b'{"agentkit_recording": 1, "cli": "codex", "argv": []}\n{"type":"x"}\n')
    with pytest.raises(RecordingError, match=r"cut\.jsonl:2: truncated"):
        FakeCodexCli.replay(path)


async def test_save_load_replay_gives_the_recorded_bytes_back(tmp_path: Path) -> None:
    run = CliRun.of(
        [
            {"type": "thread.started", "thread_id": "t"},
            "warning: plain text on stdout\n",
            CliStderr(b"\xffnot utf-8\n"),
            {"type": "turn.completed", "usage": {}},
            '{"type":"cut',
        ],
        stderr=b"done\n",
        returncode=3,
    )
    path = save_recording(Recording(cli="codex", argv=("codex", "exec")), tmp_path / "a.jsonl")
    path = save_recording(Recording(cli="codex", argv=("codex", "exec"), run=run), path)
    out, err, code = await _drain(FakeCodexCli.replay(path))
    assert out == run.stdout
    assert err == b"\xffnot utf-8\ndone\n"
    assert code == 3


def test_the_same_recording_twice_is_read_once_and_shared(tmp_path: Path) -> None:
    path = save_recording(
        Recording(cli="claude", argv=("claude",), run=CliRun(stdout=b"{}\n", returncode=2)),
        tmp_path / "r.jsonl",
    )
    fake = FakeClaudeCli.replay(path, str(path), verify=False)
    assert fake.runs[0] is fake.runs[1]
    assert fake.runs[0].returncode == 2


def test_a_recording_line_nested_too_deep_is_a_recording_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    header = b'{"agentkit_recording": 1, "cli": "codex", "argv": ["codex"]}\n'
    path.write_bytes(header + b"[" * 100_000 + b"]" * 100_000 + b'\n#end {"exit_code": 0}\n')
    with pytest.raises(RecordingError, match=r"deep\.jsonl:2: not a JSON line"):
        FakeCodexCli.replay(path)
