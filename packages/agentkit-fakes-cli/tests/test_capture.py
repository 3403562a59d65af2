"""CapturingSpawn records each spawn as a Recording that replays to what the caller saw."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.ports import ProcessPort
from agentkit.fakes.cli import (
    CapturingSpawn,
    CliRun,
    CliStderr,
    FakeClaudeCli,
    FakeCodexCli,
    load_recording,
    save_recording,
)

PIPE = asyncio.subprocess.PIPE


async def _consume(process: ProcessPort, *, writes: tuple[bytes, ...] = ()) -> list[bytes]:
    """Read stdout line by line while stderr is drained beside it, as the cognition does."""
    assert process.stdout is not None
    assert process.stderr is not None
    stderr = process.stderr

    async def drain() -> None:
        while await stderr.read(4096):
            pass

    task = asyncio.ensure_future(drain())
    lines: list[bytes] = []
    if process.stdin is not None:
        for data in writes:
            process.stdin.write(data)
            await process.stdin.drain()
        process.stdin.close()
    while True:
        try:
            line = await process.stdout.readline()
        except ValueError as exc:
            lines.append(f"<{exc}>".encode())
            continue
        if not line:
            break
        lines.append(line)
    await asyncio.wait_for(task, 10)
    await asyncio.wait_for(process.wait(), 10)
    return lines


async def test_a_captured_fake_spawn_replays_the_same_bytes(tmp_path: Path) -> None:
    run = CliRun.of(
        [
            {"type": "system", "subtype": "init"},
            CliStderr(b"warming up\n"),
            {"type": "result", "subtype": "success"},
        ],
        stderr=b"bye\n",
        returncode=2,
    )
    capture = CapturingSpawn(FakeClaudeCli([run]), cli="claude", source="unit test")
    process = await capture("claude", "-p", "hi", stdout=PIPE, stderr=PIPE, cwd="/srv/x")
    await _consume(process)
    (recording,) = capture.recordings
    assert recording.argv == ("claude", "-p", "hi")
    assert recording.cwd == "/srv/x"
    assert recording.run.stdout == run.stdout
    assert recording.run.returncode == 2
    assert recording.source == "unit test"
    # Everything read before stdout's end sits in the stream; what came after is "at exit".
    whole = b"".join(chunk for _, chunk in recording.run.interleaved_stderr) + recording.run.stderr
    assert whole == b"warming up\nbye\n"
    path = save_recording(recording, tmp_path / "r.jsonl")
    replayed = await FakeClaudeCli.replay(path)("claude", stdout=PIPE, stderr=PIPE)
    assert b"".join(await _consume(replayed)) == run.stdout
    assert replayed.returncode == 2


async def test_a_recording_names_only_the_variables_the_run_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The recording machine's own variables: a re-record elsewhere would differ in each.
    monkeypatch.setenv("PS1", "$ ")
    monkeypatch.setenv("OLDPWD", "/somewhere/else")
    passed_on = {k: v for k, v in os.environ.items() if k != "CLAUDECODE"}  # as claude's does
    spawns: list[dict[str, str] | None] = [
        None,
        passed_on,
        {**passed_on, "ANTHROPIC_BASE_URL": "http://127.0.0.1:9", "PS1": "> "},
    ]
    runs = [CliRun(stdout=b"{}\n")] * len(spawns)
    capture = CapturingSpawn(FakeClaudeCli(runs), cli="claude")
    for env in spawns:
        await _consume(await capture("claude", "-p", "hi", stdout=PIPE, stderr=PIPE, env=env))
    names = [recording.env_names for recording in capture.recordings]
    assert names == [(), (), ("ANTHROPIC_BASE_URL", "PS1")]


async def test_stdin_writes_are_recorded_at_their_stdout_offsets() -> None:
    run = CliRun.of([{"type": "thread.started", "thread_id": "t"}, {"type": "turn.completed"}])
    capture = CapturingSpawn(FakeCodexCli([run]), cli="codex")
    process = await capture("codex", "exec", "-", stdin=PIPE, stdout=PIPE, stderr=PIPE)
    await _consume(process, writes=(b"part one ", b"part two"))
    (recording,) = capture.recordings
    assert recording.stdin == ((0, b"part one "), (0, b"part two"))
    assert recording.stdin_messages == (b"part one ", b"part two")


async def test_a_spawn_still_running_is_not_offered_as_a_recording() -> None:
    capture = CapturingSpawn(FakeCodexCli([CliRun(stdout=b"{}\n")]), cli="codex")
    process = await capture("codex", "exec", stdin=PIPE, stdout=PIPE, stderr=PIPE)
    assert capture.running == 1
    assert capture.recordings == []
    await _consume(process)
    assert capture.running == 0
    assert len(capture.recordings) == 1


async def test_a_line_over_the_callers_limit_fails_the_caller_and_its_start_is_recorded(
    tmp_path: Path,
) -> None:
    long_line = b'{"type":"assistant","text":"' + b"x" * 100 + b'"}\n'
    run = CliRun(stdout=b'{"type":"system"}\n' + long_line + b'{"type":"result"}\n')
    capture = CapturingSpawn(FakeClaudeCli([run]), cli="claude")
    process = await capture("claude", "-p", stdout=PIPE, stderr=PIPE, limit=50)
    lines = await _consume(process)
    assert lines == [
        b'{"type":"system"}\n',
        b"<Separator is found, but chunk is longer than limit>",
        b'{"type":"result"}\n',
    ]
    recording = capture.recordings[0]
    # limit + 1 bytes of the long line are kept: enough for a replay to refuse it the same way.
    # The word the cut went through is masked: it may be half a secret.
    assert recording.run.stdout == (
        b'{"type":"system"}\n' + long_line[:28] + b"*" * 23 + b"\n" + b'{"type":"result"}\n'
    )
    (note,) = recording.notes
    assert note == (
        "stdout line at byte 18: 130 bytes long, over the reader's limit of 50; "
        "the first 51 kept, 79 cut"
    )
    replayed = FakeClaudeCli.replay(save_recording(recording, tmp_path / "long.jsonl"))
    again = await _consume(await replayed("claude", "-p", stdout=PIPE, stderr=PIPE, limit=50))
    assert again == lines


async def test_an_unterminated_tail_over_the_limit_fails_as_asyncio_does() -> None:
    capture = CapturingSpawn(FakeClaudeCli([CliRun(stdout=b"y" * 80)]), cli="claude")
    process = await capture("claude", "-p", stdout=PIPE, stderr=PIPE, limit=50)
    lines = await _consume(process)
    assert lines == [b"<Separator is not found, and chunk exceed the limit>"]
    assert capture.recordings[0].run.stdout == b"*" * 51  # one word, cut: masked
    assert capture.recordings[0].notes == (
        "stdout line at byte 0: 80 bytes long, over the reader's limit of 50; "
        "the first 51 kept, 29 cut",
    )


async def test_a_secret_a_cut_goes_through_leaves_no_part_behind() -> None:
    secret = "KnownSecretValue-123456789"
    line = b'{"t":"' + b"x" * 50 + b" " + secret.encode() + b'"}\n'
    run = CliRun(stdout=line + b'{"type":"result"}\n', stderr=b"")
    capture = CapturingSpawn(FakeClaudeCli([run]), cli="claude")
    process = await capture("claude", "-p", stdout=PIPE, stderr=PIPE, limit=64, env={})
    await _consume(process)
    kept = capture.recordings[0].run.stdout
    assert kept == b'{"t":"' + b"x" * 50 + b" " + b"*" * 8 + b'\n{"type":"result"}\n'
    assert b"Known" not in kept


async def test_a_cut_line_the_caller_never_read_to_its_end_is_noted_too() -> None:
    capture = CapturingSpawn(FakeClaudeCli([CliRun(stdout=b"y" * 80)]), cli="claude")
    process = await capture("claude", "-p", stdout=PIPE, stderr=PIPE, limit=50)
    assert process.stdout is not None
    with pytest.raises(ValueError, match="Separator is not found"):
        await process.stdout.readline()
    await process.wait()  # killed, say: stdout's end is never read
    assert capture.recordings[0].notes == (
        "stdout line at byte 0: 80 bytes long, over the reader's limit of 50; "
        "the first 51 kept, 29 cut",
    )


_CHILD = """\
import os, sys
key = os.environ["ANTHROPIC_API_KEY"]
print('{"type":"system","cwd":"%s","key":"%s"}' % (os.getcwd(), key), flush=True)
sys.stderr.write("401 for key %s (account acct_12345, customer-42)\\n" % key)
sys.stderr.flush()
print('{"type":"result","argv":"%s","token":"ghp_%s"}' % (sys.argv[1], "A" * 36), flush=True)
sys.stderr.write("config at %s/.claude\\n" % os.environ["HOME"])
sys.exit(3)
"""


@pytest.mark.agentkit(real_processes=True)
async def test_a_planted_key_never_reaches_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = "sk-ant-api03-" + "Q7" * 20
    home = tmp_path / "home" / "alice"
    project = home / "project"
    project.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    script = tmp_path / "child.py"
    script.write_text(_CHILD)
    env = {"ANTHROPIC_API_KEY": key, "HOME": str(home), "PATH": "/usr/bin:/bin"}
    capture = CapturingSpawn(
        asyncio.create_subprocess_exec,
        cli="claude",
        scrub=("customer-42", re.compile(r"acct_\d+")),
        cli_version="2.1.332",
    )
    process = await capture(
        sys.executable,
        str(script),
        f"--api-key={key}",
        stdout=PIPE,
        stderr=PIPE,
        cwd=str(project),
        env=env,
    )
    lines = await _consume(process)
    assert key.encode() in lines[0]  # the caller saw the real thing; only the file is scrubbed
    path = save_recording(capture.recordings[0], tmp_path / "out" / "r.jsonl")
    data = path.read_bytes()
    for secret in (key, "ghp_", "acct_12345", "customer-42", str(home)):
        assert secret.encode() not in data, secret
    recording = load_recording(path)
    assert recording.argv[2] == "--api-key=[REDACTED]"
    assert recording.cwd == "~/project"
    # HOME holds the test process's own value: inherited, not set by the run, so not named.
    assert recording.env_names == ("ANTHROPIC_API_KEY", "PATH")
    assert recording.cli_version == "2.1.332"
    assert recording.run.returncode == 3
    assert recording.run.stdout.splitlines()[0] == (
        b'{"type":"system","cwd":"~/project","key":"[REDACTED]"}'
    )
    stderr = b"".join(c for _, c in recording.run.interleaved_stderr) + recording.run.stderr
    assert b"401 for key [REDACTED] (account [REDACTED], [REDACTED])\n" in stderr
    assert b"config at ~/.claude\n" in stderr


async def test_a_stderr_chunk_stays_at_its_place_when_a_secret_before_it_shrinks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    secret = "hunter2-very-long-secret-value"
    monkeypatch.setenv("MY_PASSWORD", secret)
    first = f'{{"password":"{secret}"}}\n'
    run = CliRun.of([first, CliStderr(b"after the first line\n"), {"type": "result"}])
    capture = CapturingSpawn(FakeClaudeCli([run]), cli="claude")
    process = await capture("claude", stdout=PIPE, stderr=PIPE)
    assert process.stdout is not None
    assert process.stderr is not None
    assert await process.stdout.readline() == first.encode()
    assert await process.stderr.read(100) == b"after the first line\n"
    await _consume(process)
    recording = capture.recordings[0]
    scrubbed_first = b'{"password":"[REDACTED]"}\n'
    assert recording.run.stdout.startswith(scrubbed_first)
    assert recording.run.interleaved_stderr == ((len(scrubbed_first), b"after the first line\n"),)


async def test_a_short_value_of_a_secret_named_variable_is_not_scrubbed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("USE_AUTH", "true")
    run = CliRun.of([{"type": "result", "is_error": True}])
    capture = CapturingSpawn(FakeClaudeCli([run]), cli="claude")
    await _consume(await capture("claude", stdout=PIPE, stderr=PIPE))
    assert capture.recordings[0].run.stdout == run.stdout


def test_the_home_directory_is_not_matched_inside_a_longer_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agentkit.fakes.cli._recording._scrub import Scrubber

    monkeypatch.setenv("HOME", "/home/al")
    scrubber = Scrubber(env=None)
    assert scrubber.text("/home/al/x /home/alice/y /home/al") == "~/x /home/alice/y ~"


@pytest.mark.parametrize(
    ("kwargs", "error", "argument"),
    [
        ({"spawn": None, "cli": "claude"}, ArgumentTypeError, "spawn"),
        ({"cli": "gemini"}, ArgumentValueError, "cli"),
        ({"cli": 1}, ArgumentTypeError, "cli"),
        ({"cli": "codex", "scrub": "sk-"}, ArgumentTypeError, "scrub"),
        ({"cli": "codex", "scrub": [""]}, ArgumentValueError, "scrub[0]"),
        ({"cli": "codex", "scrub": ["ok", 3]}, ArgumentTypeError, "scrub[1]"),
        ({"cli": "codex", "scrub": [re.compile("x*")]}, ArgumentValueError, "scrub[0]"),
        ({"cli": "codex", "source": None}, ArgumentTypeError, "source"),
        ({"cli": "codex", "cli_version": ""}, ArgumentValueError, "cli_version"),
    ],
)
def test_wrong_arguments_are_refused_naming_them(
    kwargs: dict[str, object], error: type[Exception], argument: str
) -> None:
    spawn = kwargs.pop("spawn", FakeClaudeCli())
    with pytest.raises(error) as caught:
        CapturingSpawn(spawn, **kwargs)  # type: ignore[arg-type]
    assert getattr(caught.value, "argument", None) == argument
