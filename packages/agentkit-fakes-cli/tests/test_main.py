"""python -m agentkit.fakes.cli record / show."""

from __future__ import annotations

import io
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from agentkit.core._internal.arguments import ArgumentValueError
from agentkit.fakes.cli import (
    CliRun,
    CliStderr,
    Recording,
    load_recording,
    recording_path,
    save_recording,
)
from agentkit.fakes.cli._recording._command import main

_FAKE_CLAUDE = """\
#!{python}
import json, os, sys
if sys.argv[1:] == ["--version"]:
    print("2.1.332 (Claude Code)")
    sys.exit(0)
print(json.dumps({{"type": "system", "subtype": "init", "session_id": "s1", "cwd": os.getcwd(),
                  "key": os.environ.get("ANTHROPIC_API_KEY", "")}}), flush=True)
sys.stderr.write("warning: args %s\\n" % " ".join(sys.argv[1:]))
sys.stderr.flush()
stdin = sys.stdin.read()
print(json.dumps({{"type": "result", "subtype": "success", "result": "got " + stdin.strip(),
                  "num_turns": 1}}), flush=True)
sys.exit(5)
"""


def _fake_cli(tmp_path: Path) -> Path:
    script = tmp_path / "claude"
    script.write_text(_FAKE_CLAUDE.format(python=sys.executable))
    script.chmod(0o755)
    return script


@pytest.mark.agentkit(real_processes=True)
def test_record_runs_the_cli_and_writes_a_scrubbed_recording(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    key = "sk-ant-api03-" + "Z" * 40
    monkeypatch.setenv("ANTHROPIC_API_KEY", key)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"piped prompt\n")))
    out = tmp_path / "rec" / "r.jsonl"
    status = main(
        [
            "record",
            "claude",
            "--out",
            str(out),
            "--executable",
            str(_fake_cli(tmp_path)),
            "--scrub",
            r"args \S+",
            "--",
            "-p",
            "--token",
            key,
        ]
    )
    assert status == 0
    captured = capsys.readouterr()
    assert f"wrote {out} (claude exit code 5)" in captured.err
    assert '"type": "result"' in captured.out  # the run is passed through as it happens
    assert key.encode() not in out.read_bytes()
    recording = load_recording(out)
    assert recording.cli == "claude"
    assert recording.cli_version == "2.1.332"
    assert recording.argv[1:] == ("-p", "--token", "[REDACTED]")
    assert recording.run.returncode == 5
    assert recording.stdin_messages == (b"piped prompt\n",)
    assert b'"result": "got piped prompt"' in recording.run.stdout
    stderr = b"".join(c for _, c in recording.run.interleaved_stderr) + recording.run.stderr
    assert stderr == b"warning: [REDACTED] --token [REDACTED]\n"
    assert recording.source == "python -m agentkit.fakes.cli record claude"


def test_record_without_the_cli_on_path_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert main(["record", "codex", "--", "exec", "hi"]) == 2
    assert "no 'codex' on PATH; pass --executable" in capsys.readouterr().err


def test_record_refuses_a_bad_scrub_pattern(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["record", "claude", "--executable", sys.executable, "--scrub", "(", "--", "-V"])
    assert status == 2
    assert "--scrub '(' is not a regular expression" in capsys.readouterr().err


def _show(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    assert main(["show", str(path), *extra]) == 0
    return capsys.readouterr().out


def _show_refused(name: str, capsys: pytest.CaptureFixture[str]) -> str:
    """``show NAME`` fails, saying why in exactly one ``show:`` message: its stderr."""
    assert main(["show", name]) == 1
    err = capsys.readouterr().err
    assert err.count("show:") == 1
    return err


CLAUDE_TOOL_RUN = CliRun.of(
    [
        {"type": "system", "subtype": "init", "session_id": "s-1", "model": "m", "tools": ["Bash"]},
        {"type": "stream_event", "event": {}},
        {"type": "stream_event", "event": {}},
        {
            "type": "assistant",
            "message": {
                "content": [
                    {"type": "thinking", "thinking": "let me look"},
                    {"type": "text", "text": "Listing files."},
                    {"type": "tool_use", "id": "tu_1", "name": "Bash", "input": {"command": "ls"}},
                ]
            },
        },
        {
            "type": "user",
            "message": {
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "tu_1",
                        "content": "a.txt",
                        "is_error": True,
                    }
                ]
            },
        },
        CliStderr(b"retrying after 529\n"),
        {"type": "rate_limit_event", "info": {"status": "allowed"}},
        "plain text warning\n",
        {
            "type": "result",
            "subtype": "error_max_turns",
            "is_error": True,
            "num_turns": 2,
            "duration_ms": 1234,
            "total_cost_usd": 0.0125,
            "usage": {"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 3},
            "permission_denials": [{"tool_name": "Write", "tool_input": {"path": "x"}}],
        },
    ],
    stderr=b"Error: max turns\n",
    returncode=1,
)


def test_show_prints_a_claude_run_as_a_transcript(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = save_recording(
        Recording(
            cli="claude",
            argv=("claude", "-p", "hi"),
            run=CLAUDE_TOOL_RUN,
            cli_version="2.1.332",
            cwd="~/project",
            stdin=((0, b'{"type":"user","message":{"role":"user","content":"hi there"}}\n'),),
            source="test",
        ),
        tmp_path / "c.jsonl",
    )
    assert _show(path, capsys).splitlines() == [
        "claude 2.1.332",
        "source: test",
        "$ claude -p hi",
        "cwd: ~/project",
        "",
        "user (stdin): hi there",
        "[system init] session s-1, model m, 1 tools",
        "--- turn 1 ---",
        "  (2 partial-message stream events)",
        "thinking: let me look",
        "assistant: Listing files.",
        'tool call Bash (tu_1): {"command":"ls"}',
        "tool result (tu_1) [error]: a.txt",
        "stderr: retrying after 529",
        "[event 'rate_limit_event' not known to this transcript] "
        '{"type":"rate_limit_event","info":{"status":"allowed"}}',
        "stdout (not a JSON object): plain text warning",
        "result error_max_turns (is_error): 2 turn(s), cost $0.0125",
        "  usage: input 10, output 5, cache read 3, cache write 0",
        '  permission denied: Write {"path":"x"}',
        "",
        "stderr at exit: Error: max turns",
        "exit code 1",
    ]


CODEX_RUN = CliRun.of(
    [
        {"type": "thread.started", "thread_id": "th-1"},
        {"type": "turn.started"},
        {"type": "item.started", "item": {"id": "i0", "type": "command_execution"}},
        {"type": "item.completed", "item": {"id": "i0", "type": "reasoning", "text": "think"}},
        {
            "type": "item.completed",
            "item": {
                "id": "i1",
                "type": "command_execution",
                "command": "bash -lc ls",
                "aggregated_output": "a.txt\n",
                "exit_code": 0,
                "status": "completed",
            },
        },
        {"type": "item.completed", "item": {"id": "i2", "type": "error", "message": "careful"}},
        {"type": "item.completed", "item": {"id": "i3", "type": "agent_message", "text": "done"}},
        {"type": "error", "message": "stream disconnected"},
        {"type": "turn.failed", "error": {"message": "unexpected status 401"}},
        {
            "type": "turn.completed",
            "usage": {
                "input_tokens": 9,
                "cached_input_tokens": 4,
                "output_tokens": 2,
                "reasoning_output_tokens": 1,
            },
        },
        {"type": "some.future.event"},
    ],
)


def test_show_prints_a_codex_run_and_a_plain_stdout_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = tmp_path / "plain.jsonl"
    plain.write_bytes(CODEX_RUN.stdout)
    assert _show(plain, capsys).splitlines() == [
        "codex",
        "(stdout only: no command line, stdin, stderr or exit code was recorded)",
        "",
        "[thread th-1]",
        "--- turn 1 ---",
        "reasoning: think",
        "command (completed, exit 0): bash -lc ls",
        "  output: a.txt",
        "    ",
        "error item: careful",
        "assistant: done",
        "stream error: stream disconnected",
        "turn failed: unexpected status 401",
        "turn completed: usage input 9 (cached 4), output 2, reasoning 1",
        '[event \'some.future.event\' not known to this transcript] {"type":"some.future.event"}',
        "",
    ]
    assert _show(plain, capsys, "--cli", "claude").splitlines()[0] == "claude"


def test_show_quotes_the_command_line_as_a_shell_would_take_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ("claude", "-p", "--append-system-prompt", "Answer briefly.", "--", "it's $HOME")
    path = save_recording(
        Recording(cli="claude", argv=argv, run=CliRun(stdout=b"")), tmp_path / "q.jsonl"
    )
    line = next(x for x in _show(path, capsys).splitlines() if x.startswith("$ "))
    assert line == "$ claude -p --append-system-prompt 'Answer briefly.' -- 'it'\"'\"'s $HOME'"
    assert tuple(shlex.split(line[2:])) == argv


def test_show_takes_the_name_of_a_shipped_recording(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no file of that name here: the shipped one is meant
    assert main(["show", "overloaded-529"]) == 0
    by_name = capsys.readouterr().out
    assert by_name.startswith("claude ")
    assert main(["show", str(recording_path("claude", "overloaded-529"))]) == 0
    assert capsys.readouterr().out == by_name
    assert main(["show", "codex/text-answer"]) == 0
    assert capsys.readouterr().out.startswith("codex ")
    assert main(["show", "text-answer", "--cli", "claude"]) == 0
    assert capsys.readouterr().out.startswith("claude ")


def test_show_asks_which_cli_for_a_name_both_ship(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    err = _show_refused("text-answer", capsys)
    assert "show claude/text-answer or show codex/text-answer" in err


def test_show_of_a_missing_name_says_so_once_and_lists_the_shipped_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    err = _show_refused("text-answr", capsys)
    assert err.startswith("show: text-answr: no such file")
    assert "shipped recording (claude: " in err
    assert "text-answer" in err


def test_a_file_of_that_name_wins_over_the_shipped_recording(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "text-answer").write_bytes(CODEX_RUN.stdout)
    assert main(["show", "text-answer"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("(stdout only")


def test_recording_path_is_the_file_recorded_replays() -> None:
    path = recording_path("codex", "text-answer")
    assert path.is_file()
    assert path.name == "text-answer.jsonl"
    with pytest.raises(ArgumentValueError, match="text-answer"):
        recording_path("codex", "no-such-recording")
    with pytest.raises(ArgumentValueError, match="cli"):
        recording_path("gemini", "text-answer")


def test_show_names_a_broken_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    assert main(["show", str(path)]) == 1
    assert f"show: {path}:3: binary data" in capsys.readouterr().err


@pytest.mark.agentkit(real_processes=True)
def test_python_dash_m_runs_show(tmp_path: Path) -> None:
    path = save_recording(
        Recording(cli="codex", argv=("codex", "exec"), run=CliRun(returncode=4)),
        tmp_path / "r.jsonl",
    )
    done = subprocess.run(
        [sys.executable, "-m", "agentkit.fakes.cli", "show", str(path)],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines()[-1] == "exit code 4"


@pytest.mark.agentkit(real_processes=True)
def test_record_stops_a_cli_that_runs_past_the_timeout_and_still_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "codex"
    script.write_text(
        f"#!{sys.executable}\n"
        "import sys, time\n"
        'print(\'{"type":"thread.started","thread_id":"t"}\', flush=True)\n'
        "time.sleep(60)\n"
    )
    script.chmod(0o755)
    monkeypatch.setattr(sys, "stdin", None)
    out = tmp_path / "slow.jsonl"
    argv = ["record", "codex", "--out", str(out), "--executable", str(script)]
    argv += ["--cli-version", "0.163.0", "--timeout", "1", "--", "exec", "--json", "hi"]
    assert main(argv) == 0
    assert "did not finish within 1 s" in capsys.readouterr().err
    recording = load_recording(out)
    assert recording.run.returncode == -15
    assert recording.run.stdout == b'{"type":"thread.started","thread_id":"t"}\n'
    assert recording.argv[1:] == ("exec", "--json", "hi")
    assert recording.cli_version == "0.163.0"


def test_show_without_a_reader_of_the_events_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.metadata

    path = save_recording(
        Recording(cli="codex", argv=("codex", "exec"), run=CODEX_RUN), tmp_path / "r.jsonl"
    )
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **_: ())
    assert main(["show", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"show: {path}: reading a codex stream needs")
    assert "pip install agentkit-agents" in captured.err
