"""A claude stream-json session: each turn's stdout waits for its user message.

Uses the recorded two-turn session (claude 2.1.332) and the recorded
control-initialize handshake.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from typing import NamedTuple

import pytest

from agentkit.core.ports import ProcessPort, StreamReaderPort, StreamWriterPort
from agentkit.core.verification import VerificationError
from agentkit.fakes.cli import CliRun, FakeClaudeCli, ScriptExhausted
from tests.support.cli import recorded

TWO_TURNS = recorded("claude", "claude-2.1.332-stream-json-input-two-turns")
HANDSHAKE = recorded("claude", "claude-2.1.332-control-initialize-handshake")
SESSION_ARGV = ("claude", "-p", "--output-format", "stream-json", "--verbose")
PIPE = subprocess.PIPE


def _user(text: str) -> bytes:
    return json.dumps({"type": "user", "message": {"role": "user", "content": text}}).encode()


async def _next_type(reader: StreamReaderPort) -> str:
    line = await asyncio.wait_for(reader.readline(), 5)
    return str(json.loads(line)["type"]) if line else ""


async def _read_turn(reader: StreamReaderPort) -> list[str]:
    types: list[str] = []
    while (kind := await _next_type(reader)) not in ("result", ""):
        types.append(kind)
    types.append(kind)
    return types


class _Session(NamedTuple):
    process: ProcessPort
    stdin: StreamWriterPort
    stdout: StreamReaderPort
    stderr: StreamReaderPort


async def _spawn(cli: FakeClaudeCli, *flags: str) -> _Session:
    """A session spawned on ``cli`` with all three pipes, each checked present."""
    proc = await cli(*SESSION_ARGV, *flags, stdin=PIPE, stdout=PIPE, stderr=PIPE)
    assert proc.stdin is not None
    assert proc.stdout is not None
    assert proc.stderr is not None
    return _Session(proc, proc.stdin, proc.stdout, proc.stderr)


async def _still_pending(reader: StreamReaderPort) -> asyncio.Future[bytes]:
    pending = asyncio.ensure_future(reader.readline())
    await asyncio.sleep(0.01)
    assert not pending.done()
    return pending


@pytest.mark.parametrize(
    "flag", [("--input-format", "stream-json"), ("--input-format=stream-json",)]
)
async def test_turn_k_is_released_by_the_kth_user_message(flag: tuple[str, ...]) -> None:
    cli = FakeClaudeCli.replay(TWO_TURNS)
    proc, stdin, stdout, _ = await _spawn(cli, *flag)
    pending = await _still_pending(stdout)  # nothing before the first message
    stdin.write(_user("First question?") + b"\n")
    first = json.loads(await asyncio.wait_for(pending, 5))
    assert (first["type"], first["subtype"]) == ("system", "init")
    assert await _read_turn(stdout) == ["assistant", "result"]
    pending = await _still_pending(stdout)  # turn 2 waits for message 2
    stdin.write(_user("Second question?")[:10])
    await asyncio.sleep(0.01)
    assert not pending.done()  # half a line is not a message
    stdin.write(_user("Second question?")[10:] + b"\n")
    assert json.loads(await asyncio.wait_for(pending, 5))["type"] == "system"
    assert await _read_turn(stdout) == ["assistant", "result"]
    stdin.close()
    assert await asyncio.wait_for(stdout.readline(), 5) == b""
    assert await asyncio.wait_for(proc.wait(), 5) == 0
    assert cli.invocations[0].stdin.count(b"\n") == 2


async def test_a_one_shot_spawn_of_the_same_recording_is_not_held_back() -> None:
    cli = FakeClaudeCli.replay(TWO_TURNS)
    proc = await cli("claude", "-p", "x", stdout=PIPE)
    assert proc.stdout is not None
    kinds = [await _next_type(proc.stdout) for _ in range(7)]
    assert kinds == ["system", "assistant", "result", "system", "assistant", "result", ""]


async def test_closing_stdin_early_ends_the_session_after_the_served_turns() -> None:
    # verify=False: turn 2 is left unasked on purpose (read back as unasked_turns below).
    cli = FakeClaudeCli.replay(TWO_TURNS, verify=False)
    proc, stdin, stdout, _ = await _spawn(cli, "--input-format", "stream-json")
    stdin.write(_user("only one") + b"\n")
    stdin.close()
    assert await _read_turn(stdout) == ["system", "assistant", "result"]
    assert await asyncio.wait_for(stdout.readline(), 5) == b""  # turn 2 was never asked
    assert await asyncio.wait_for(proc.wait(), 5) == 0
    (violation,) = cli.violations()
    assert violation.kind == "unasked_turns"
    assert "1 of its 2 recorded turns never asked for" in violation.detail


async def test_a_turn_the_recording_lacks_raises_at_once_and_is_a_violation() -> None:
    # verify=False: the violation is this test's subject, not a failure of it.
    cli = FakeClaudeCli(
        [CliRun.of([{"type": "system", "subtype": "init"}, {"type": "result"}])], verify=False
    )
    proc, stdin, stdout, _ = await _spawn(cli, "--input-format", "stream-json")
    stdin.write(_user("1") + b"\n")
    assert await _read_turn(stdout) == ["system", "result"]
    with pytest.raises(ScriptExhausted, match="has no answer for"):
        stdin.write(_user("2") + b"\n")
    assert [v.kind for v in cli.violations()] == ["unanswered_message", "session_not_closed"]
    proc.kill()  # the session ends: what is left is the unanswered message
    (violation,) = cli.violations()
    assert violation.kind == "unanswered_message"
    assert "hang_when_unanswered=True" in violation.fix
    with pytest.raises(VerificationError, match="unanswered_message"):
        cli.assert_complete()


async def test_a_turn_the_recording_lacks_never_ends_until_signalled_when_asked() -> None:
    cli = FakeClaudeCli(
        [CliRun.of([{"type": "system", "subtype": "init"}, {"type": "result"}])],
        hang_when_unanswered=True,
    )
    proc, stdin, stdout, _ = await _spawn(cli, "--input-format", "stream-json")
    stdin.write(_user("1") + b"\n")
    assert await _read_turn(stdout) == ["system", "result"]
    stdin.write(_user("2") + b"\n")
    stdin.close()  # the CLI finishes an in-flight turn before honouring EOF
    pending = await _still_pending(stdout)
    waiter = asyncio.ensure_future(proc.wait())
    await asyncio.sleep(0.01)
    assert not waiter.done()
    proc.terminate()
    assert await asyncio.wait_for(pending, 5) == b""
    assert await asyncio.wait_for(waiter, 5) == -15
    assert cli.invocations[0].terminated


async def test_a_control_request_is_answered_by_its_control_response() -> None:
    cli = FakeClaudeCli.replay(HANDSHAKE)
    proc, stdin, stdout, _ = await _spawn(cli, "--input-format", "stream-json")
    request = {"type": "control_request", "request_id": "r1", "request": {"subtype": "initialize"}}
    stdin.write(json.dumps(request).encode() + b"\n")
    assert await _next_type(stdout) == "control_response"
    pending = await _still_pending(stdout)  # the turn itself waits for the user message
    stdin.write(_user("ping") + b"\n")
    assert json.loads(await asyncio.wait_for(pending, 5))["type"] == "system"
    assert await _read_turn(stdout) == ["assistant", "result"]
    stdin.close()
    assert await asyncio.wait_for(proc.wait(), 5) == 0


async def test_a_user_message_alone_gets_the_whole_turn_even_with_a_handshake_recorded() -> None:
    cli = FakeClaudeCli.replay(HANDSHAKE)
    proc, stdin, stdout, _ = await _spawn(cli, "--input-format", "stream-json")
    stdin.write(_user("ping") + b"\n")
    assert await _read_turn(stdout) == ["control_response", "system", "assistant", "result"]
    stdin.close()
    assert await asyncio.wait_for(proc.wait(), 5) == 0


async def test_a_malformed_stdin_line_ends_the_process_as_claude_does() -> None:
    cli = FakeClaudeCli.replay(TWO_TURNS)
    proc, stdin, stdout, stderr = await _spawn(cli, "--input-format", "stream-json")
    stdin.write(b"this is not json\n")
    assert await asyncio.wait_for(stdout.read(), 5) == b""  # no stdout at all
    written = await asyncio.wait_for(stderr.read(), 5)
    assert written == b"Error parsing streaming input line (type=unknown, 16 chars): SyntaxError\n"
    assert await asyncio.wait_for(proc.wait(), 5) == 1


async def test_a_session_without_a_stdin_pipe_serves_no_turn() -> None:
    cli = FakeClaudeCli.replay(TWO_TURNS, verify=False)  # no turn can be asked: all unused
    proc = await cli(*SESSION_ARGV, "--input-format", "stream-json", stdout=PIPE)
    assert proc.stdout is not None
    assert await asyncio.wait_for(proc.stdout.read(), 5) == b""
    assert await asyncio.wait_for(proc.wait(), 5) == 0
    assert [v.kind for v in cli.violations()] == ["unasked_turns"]


async def test_a_turn_the_recording_stops_inside_ends_the_process_as_recorded() -> None:
    truncated = CliRun.of(
        [{"type": "system", "subtype": "init"}, {"type": "result"}, '{"type":"assist'],
        stderr=b"killed\n",
        returncode=1,
    )
    cli = FakeClaudeCli([truncated])
    proc, stdin, stdout, stderr = await _spawn(cli, "--input-format", "stream-json")
    stdin.write(_user("1") + b"\n")
    assert await _read_turn(stdout) == ["system", "result"]
    stdin.write(_user("2") + b"\n")
    assert await asyncio.wait_for(stdout.read(), 5) == b'{"type":"assist'
    assert await asyncio.wait_for(stderr.read(), 5) == b"killed\n"
    assert await asyncio.wait_for(proc.wait(), 5) == 1


async def test_a_failed_startup_recording_answers_the_first_message_with_its_exit() -> None:
    cli = FakeClaudeCli([CliRun(stderr=b"Error: boom\n", returncode=1)])
    proc, stdin, stdout, _ = await _spawn(cli, "--input-format", "stream-json")
    stdin.write(_user("1") + b"\n")
    assert await asyncio.wait_for(stdout.read(), 5) == b""
    assert await asyncio.wait_for(proc.wait(), 5) == 1
