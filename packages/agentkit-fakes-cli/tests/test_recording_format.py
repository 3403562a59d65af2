"""The recording format: save -> load is byte-identical, and bad files fail at load naming file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentkit.fakes.cli import CliRun, CliStderr
from agentkit.fakes.cli._recording import (
    Recording,
    RecordingError,
    load_recording,
    parse_recording,
    save_recording,
)
from agentkit.fakes.cli._recording._format import is_recording


def _rich() -> Recording:
    run = CliRun.of(
        [
            {"type": "system", "subtype": "init", "session_id": "s1"},
            CliStderr(b"warning: slow\n"),
            "not json at all\n",
            "\n",
            b"\xff\xfe raw bytes\n",
            {"type": "result", "subtype": "success", "result": "h\u00e9"},
            '{"type":"result",',
        ],
        stderr=b"API Error: 529 overloaded\n",
        returncode=1,
    )
    return Recording(
        cli="claude",
        argv=("claude", "-p", "--output-format", "stream-json"),
        run=run,
        cli_version="2.1.4",
        cwd="/tmp/x",
        env_names=("PATH", "ANTHROPIC_API_KEY"),
        stdin=((0, b'{"type":"user"}\n'), (len(run.stdout), b"bye\n")),
        created_at="2026-12-03T15:00:00Z",
        source="unit test",
    )


def test_save_load_is_byte_identical(tmp_path: Path) -> None:
    rec = _rich()
    path = save_recording(rec, tmp_path / "a" / "r.jsonl")
    loaded = load_recording(path)
    assert loaded == rec
    assert loaded.run.stdout == rec.run.stdout
    assert loaded.run.interleaved_stderr == rec.run.interleaved_stderr
    assert loaded.dumps() == path.read_bytes()


def test_json_stdout_lines_are_written_verbatim() -> None:
    run = CliRun.of([{"type": "a"}, {"type": "b"}])
    text = Recording(cli="codex", argv=("codex", "exec"), run=run).dumps().decode()
    lines = text.splitlines()
    assert lines[1:3] == ['{"type":"a"}', '{"type":"b"}']
    assert lines[-1].startswith("#end ")
    assert is_recording(text.encode())
    assert not is_recording(run.stdout)


def test_env_values_are_not_part_of_the_format() -> None:
    rec = Recording(cli="codex", argv=("codex",), env_names=("B", "A", "B"))
    assert rec.env_names == ("A", "B")


@pytest.mark.parametrize(
    ("data", "line", "fragment"),
    [
        (b"", 1, "empty"),
        (b'{"agentkit_recording": 1, "cli": "claude", "argv": []}\n{"type":"a"}\n', 2, "truncated"),
        (b'{"agentkit_recording": 1, "cli": "claude", "argv": []}\n{"type":"a"', 2, "truncated"),
        (
            b'{"agentkit_recording": 1, "cli": "gemini", "argv": []}\n#end {"exit_code":0}\n',
            1,
            "unknown CLI",
        ),
        (
            b'{"agentkit_recording": 9, "cli": "claude", "argv": []}\n#end {"exit_code":0}\n',
            1,
            "newer",
        ),
        (b'{"agentkit_recording": 1, "cli": "claude", "argv": []}\n\xff\n', 2, "UTF-8"),
        (
            b'{"agentkit_recording": 1, "cli": "claude", "argv": []}\nhello\n#end {"exit_code":0}\n',
            2,
            "JSON line",
        ),
        (b'{"type":"system"}\n', 1, "no recording header"),
        (
            b'{"agentkit_recording": 1, "cli": "claude", "argv": []}\n#bogus "x"\n#end {"exit_code":0}\n',
            2,
            "unknown marker",
        ),
        (
            b'{"agentkit_recording": 1, "cli": "claude", "argv": []}\n#end {"exit_code":0}\n{"a":1}\n',
            3,
            "after the #end",
        ),
    ],
)
def test_bad_files_fail_at_load_naming_file_and_line(
    tmp_path: Path, data: bytes, line: int, fragment: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(data)
    with pytest.raises(RecordingError) as info:
        load_recording(path)
    assert info.value.source == str(path)
    assert info.value.line == line
    assert fragment in str(info.value)
    assert str(info.value).startswith(f"{path}:{line}:")


def test_missing_file_is_a_recording_error(tmp_path: Path) -> None:
    with pytest.raises(RecordingError, match="no such file"):
        load_recording(tmp_path / "nope.jsonl")


def test_constructor_refuses_wrong_input() -> None:
    with pytest.raises(ValueError, match="cli"):
        Recording(cli="gemini", argv=())
    with pytest.raises(TypeError, match="argv"):
        Recording(cli="claude", argv="claude -p")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="run"):
        Recording(cli="claude", argv=(), run=b"x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="stdin"):
        Recording(cli="claude", argv=(), stdin=(b"x",))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="parse_recording"):
        parse_recording("text")  # type: ignore[arg-type]
