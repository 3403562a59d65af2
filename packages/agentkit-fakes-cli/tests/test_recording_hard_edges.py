"""Hostile recording files: named errors (never a raw traceback), linear matching, bounded capture."""

from __future__ import annotations

import asyncio
import inspect
import json
import random
import re
import sys
from pathlib import Path

import pytest

from agentkit.core.ports import ProcessPort
from agentkit.fakes.cli import (
    CapturingSpawn,
    CliRun,
    FakeClaudeCli,
    Recording,
    RecordingError,
    ReplayMismatch,
    load_recording,
    save_recording,
)
from agentkit.fakes.cli._input_check import redacted_match
from agentkit.fakes.cli._recording._command import main

PIPE = asyncio.subprocess.PIPE
R = "[REDACTED]"
HEADER = '{"agentkit_recording": 1, "cli": "claude", "argv": ["claude"]}'
DEEP = "[" * 5000 + "]" * 5000


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "r.jsonl"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("body", "line", "fragment"),
    [
        (HEADER.replace(": 1,", ": -7,"), 1, "format version -7 does not exist"),
        (HEADER.replace(": 1,", ": 0,"), 1, "format version 0 does not exist"),
        (HEADER + '\n#end {"exit_code": ' + str(10**100) + "}", 2, "exit_code must be an int"),
        (HEADER + '\n#end {"exit_code": -9999999999}', 2, "exit_code must be an int"),
        (HEADER + '\n#end {"exit_code": 0}\n', 0, ""),  # the control: this one loads
        (HEADER + '\n#end {"exit_code": 0, "stderr": 1}', 2, "#end stderr must be"),
        (HEADER.replace("}", ', "notes": "x"}') + '\n#end {"exit_code": 0}', 1, "notes must be"),
        (HEADER + '\n#stdout "x"\n#end {"exit_code": 0}\n{}', 4, "content after the #end"),
        (HEADER + '\n#end {"exit_code": 0}\n#end {"exit_code": 0}', 3, "content after"),
    ],
)
def test_a_damaged_file_is_a_recording_error_naming_file_and_line(
    tmp_path: Path, body: str, line: int, fragment: str
) -> None:
    text = body if body.endswith("\n") else body + "\n"
    path = _file(tmp_path, text)
    if not fragment:
        assert load_recording(path).run.returncode == 0
        return
    with pytest.raises(RecordingError) as caught:
        load_recording(path)
    assert caught.value.source == str(path)
    assert caught.value.line == line
    assert fragment in caught.value.problem
    assert len(str(caught.value)) < 400  # a googol is not printed whole


@pytest.mark.parametrize(
    "text",
    [
        HEADER + "\n#stdout " + json.dumps(DEEP + "\n") + '\n#end {"exit_code": 0}\n',
        HEADER + "\n#stdin " + json.dumps(DEEP + "\n") + '\n#end {"exit_code": 0}\n',
        HEADER + "\n#stdout " + json.dumps('{"a":' + DEEP + "}\n") + '\n#end {"exit_code": 0}\n',
        '{"type":"system"}\n{"type":"x","deep":' + "[" * 5000,  # plain stdout, cut mid-object
        HEADER + "\n" + DEEP + '\n#end {"exit_code": 0}\n',
        HEADER + '\n#end {"exit_code": 0}',  # the last line has no newline
    ],
)
def test_show_never_dies_with_a_traceback(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, text)
    status = main(["show", str(path)])
    out = capsys.readouterr()
    assert status in (0, 1)
    assert "Traceback" not in out.err
    if status == 1:
        assert out.err.startswith(f"show: {path}:")
    else:
        assert "exit code" in out.out


def test_redacted_match_agrees_with_the_regular_expression_it_replaces() -> None:
    rng = random.Random(21)
    for _ in range(3000):
        pieces = ["".join(rng.choice("ab") for _ in range(rng.randint(0, 2))) for _ in range(3)]
        recorded = R.join(pieces[: rng.randint(2, 3)])
        given = "".join(rng.choice("ab") for _ in range(rng.randint(0, 7)))
        pattern = ".+?".join(re.escape(p) for p in recorded.split(R))
        expected = re.fullmatch(pattern, given, re.DOTALL) is not None
        assert redacted_match(recorded.split(R), given) is expected, (recorded, given)


async def _drive(process: ProcessPort, stdin: bytes = b"") -> None:
    assert process.stdout is not None
    if process.stdin is not None:
        process.stdin.write(stdin)
        process.stdin.close()
    while await process.stdout.readline():
        pass
    await process.wait()


async def test_check_input_is_linear_on_runs_of_the_redaction_marker(tmp_path: Path) -> None:
    """A regular expression of .+? gaps took exponential time here; this returns at once."""
    argv = ("claude", "-p", R * 40 + "x", "--token", R * 40)
    message = json.dumps({"type": "user", "text": R * 40}).encode() + b"\n"
    recording = Recording(
        cli="claude",
        argv=argv,
        run=CliRun(stdout=b'{"type":"result"}\n'),
        stdin=((0, message),),
    )
    path = save_recording(recording, tmp_path / "markers.jsonl")
    double = FakeClaudeCli.replay(path, check_input=True, verify=False)
    given = ("claude", "-p", "a" * 60 + "y", "--token", "b" * 60)  # cannot match: ends in y
    with pytest.raises(ReplayMismatch) as caught:
        await double(*given, stdin=PIPE, stdout=PIPE, stderr=PIPE)
    assert caught.value.what == "argv"
    ok = FakeClaudeCli.replay(path, check_input=True)
    process = await ok(*given[:2], "a" * 60 + "x", *given[3:], stdin=PIPE, stdout=PIPE)
    await _drive(process, json.dumps({"type": "user", "text": "s" * 41}).encode() + b"\n")


@pytest.mark.agentkit(real_processes=True)
async def test_capture_keeps_limit_plus_one_bytes_of_a_huge_line_and_says_so() -> None:
    size = 8 * 1024 * 1024
    code = f"import sys; sys.stdout.write('{{\"a\":1}}\\n' + 'z' * {size}); sys.stdout.write('\\n{{}}\\n')"
    capture = CapturingSpawn(asyncio.create_subprocess_exec, cli="claude")
    process = await capture(sys.executable, "-c", code, stdout=PIPE, stderr=PIPE, limit=4096)
    seen: list[bytes] = []
    assert process.stdout is not None
    while True:
        try:
            line = await process.stdout.readline()
        except ValueError as exc:
            seen.append(str(exc).encode())
            continue
        if not line:
            break
        seen.append(line)
    await process.wait()
    assert seen[0] == b'{"a":1}\n'
    assert seen[-1] == b"{}\n"
    # As asyncio's reader does: errors while the line goes on, then its tail as a "line".
    assert all(b"limit" in s or s.rstrip(b"\n").strip(b"z") == b"" for s in seen[1:-1])
    (recording,) = capture.recordings
    # The last 4096 bytes before the cut are masked (the word it went through).
    assert recording.run.stdout == b'{"a":1}\n' + b"z" + b"*" * 4096 + b"\n{}\n"
    assert recording.notes == (
        f"stdout line at byte 8: {size} bytes long, over the reader's limit of 4096; "
        f"the first 4097 kept, {size - 4097} cut",
    )


@pytest.mark.agentkit(real_processes=True)
async def test_capture_keeps_the_start_of_a_stderr_flood_and_counts_the_rest() -> None:
    from agentkit.fakes.cli._recording._capture import STDERR_KEEP

    code = f"import sys; sys.stderr.write('e' * {STDERR_KEEP + 12345}); print('{{}}')"
    capture = CapturingSpawn(asyncio.create_subprocess_exec, cli="claude")
    process = await capture(sys.executable, "-c", code, stdout=PIPE, stderr=PIPE)
    assert process.stderr is not None
    stderr = process.stderr

    async def drain() -> None:
        while await stderr.read(65536):
            pass

    await asyncio.gather(drain(), _drive(process))
    (recording,) = capture.recordings
    kept = b"".join(c for _, c in recording.run.interleaved_stderr) + recording.run.stderr
    assert kept == b"e" * (STDERR_KEEP - 4096) + b"*" * 4096  # the cut word masked
    assert recording.notes == (
        f"stderr: the first {STDERR_KEEP} bytes kept, 12345 more bytes dropped",
    )


def test_notes_survive_save_and_load_and_show_prints_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recording = Recording(cli="codex", argv=("codex",), notes=("stdout line cut",))
    path = save_recording(recording, tmp_path / "n.jsonl")
    assert load_recording(path).notes == ("stdout line cut",)
    assert main(["show", str(path)]) == 0
    assert "note: stdout line cut" in capsys.readouterr().out
    plain = save_recording(Recording(cli="codex", argv=("codex",)), tmp_path / "p.jsonl")
    assert b"notes" not in plain.read_bytes()  # absent when empty: older files stay byte-equal


def test_loading_holds_the_file_about_three_times_at_most(tmp_path: Path) -> None:
    """The loader walks the bytes line by line: no whole-file text, no list of a million lines."""
    import tracemalloc

    stdout = b'{"type":"assistant","i":12345}\n' * 50_000
    path = save_recording(
        Recording(cli="claude", argv=("claude",), run=CliRun(stdout=stdout)), tmp_path / "big.jsonl"
    )
    data = path.read_bytes()
    from agentkit.fakes.cli._recording import parse_recording

    tracemalloc.start()
    try:
        recording = parse_recording(data, source="big.jsonl")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert recording.run.stdout == stdout
    assert peak < 2.5 * len(data)  # the stdout being built, then its final copy


async def test_a_deeply_nested_session_message_is_a_mismatch_not_a_recursion_error(
    tmp_path: Path,
) -> None:
    """Found by tools/hardening/fuzz_recordings: json.loads' RecursionError escaped the check."""
    recording = Recording(
        cli="claude",
        argv=("claude", "-p", "--input-format", "stream-json"),
        run=CliRun(stdout=b'{"type":"result","subtype":"success"}\n'),
        stdin=((0, b'{"type":"user"}\n'),),
    )
    path = save_recording(recording, tmp_path / "session.jsonl")
    double = FakeClaudeCli.replay(path, check_input=True, verify=False)
    process = await double(*recording.argv, stdin=PIPE, stdout=PIPE, stderr=PIPE)
    assert process.stdin is not None
    with pytest.raises(ReplayMismatch) as caught:
        process.stdin.write(b"[" * 100_000 + b"\n")
    assert caught.value.what == "stdin message 1"


def test_a_mismatch_too_deep_to_indent_is_shown_as_written() -> None:
    from agentkit.fakes.cli._input_check import _pretty

    raw = b"[" * 900 + b"]" * 900
    deep = json.loads(raw)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 300)  # parsed above, too deep to indent here
    try:
        shown = _pretty(deep, raw)
    finally:
        sys.setrecursionlimit(limit)
    assert shown == [raw.decode()]
