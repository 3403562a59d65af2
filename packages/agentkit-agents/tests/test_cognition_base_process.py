"""The shared process runner (CliProcess), CliError and CliResult, on their own."""

from __future__ import annotations

import asyncio
import subprocess
from typing import Any

import pytest

from agentkit.agents.cognition import (
    ClaudeCliCognition,
    CliError,
    CliResult,
    CodexCliCognition,
    SkippedLine,
)
from agentkit.agents.cognition._runner import CliProcess
from agentkit.agents.cognition.errors import exit_code_error
from agentkit.core.cancellation import CancellationToken
from agentkit.core.ports import ProcessPort, SpawnPort
from agentkit.fakes.cli import CliRun, CliStderr, FakeClaudeCli, FakeCodexCli
from tests.support.cli import ForwardingProcess

SIGTERM_GRACE = 5.0
"""The kill grace of a double that ends on SIGTERM: it ends at the next loop step, so only a
runner that never terminated it waits this long (and is then caught killing it)."""


async def _start(cli: SpawnPort, *argv: str, **kw: Any) -> CliProcess:
    kw.setdefault("kill_grace", SIGTERM_GRACE)
    return await CliProcess.start(cli, argv or ("claude", "-p", "x"), **kw)


async def test_read_line_gives_raw_lines_with_their_newline() -> None:
    proc = await _start(FakeCodexCli([CliRun(stdout=b'{"a":1}\n\nnoise\n{"b"')]))
    lines = []
    while (line := await proc.read_line()) is not None:
        lines.append(line)
    assert lines == [b'{"a":1}\n', b"\n", b"noise\n", b'{"b"']
    assert proc.lines_read == 4
    assert proc.at_eof()
    assert await proc.read_line() is None
    assert proc.skipped == []  # raw reading decides nothing


async def test_next_object_skips_and_records_noise() -> None:
    data = b'\n{"a":1}\r\n  \nplain text\n{"bad":\n{"b":2}\n{"c":'
    proc = await _start(FakeClaudeCli([CliRun(stdout=data)]))
    objects = []
    while (obj := await proc.next_object()) is not None:
        objects.append(obj)
    assert objects == [{"a": 1}, {"b": 2}]
    assert proc.skipped == [
        SkippedLine(1, "blank", ""),
        SkippedLine(3, "blank", ""),
        SkippedLine(4, "not_json", "plain text"),
        SkippedLine(5, "invalid_json", '{"bad":'),
        SkippedLine(7, "truncated", '{"c":'),
    ]
    assert proc.truncated
    assert proc.lost_data


async def test_finish_reads_stderr_once_and_waits() -> None:
    run = CliRun.of([{"a": 1}, CliStderr(b"mid\n")], stderr=b"end\n", returncode=4)
    cli = FakeClaudeCli([run])
    proc = await _start(cli)
    while await proc.next_object() is not None:
        pass
    assert await proc.finish() == 4
    assert proc.returncode == 4
    assert proc.stderr_text == "mid\nend\n"
    assert await proc.finish() == 4  # idempotent
    assert cli.invocations[0].terminated is False


async def test_start_pipes_stdout_and_stderr_and_closes_stdin_by_default() -> None:
    seen: dict[str, Any] = {}
    cli = FakeClaudeCli([CliRun()], repeat_last=True)

    async def spy(program: str, *args: str, **kw: Any) -> ProcessPort:
        seen.update(kw)
        return await cli(program, *args, **kw)

    proc = await _start(spy, cwd="/tmp", env={"K": "V"})
    assert seen["stdin"] == subprocess.DEVNULL
    assert seen["stdout"] == subprocess.PIPE
    assert seen["stderr"] == subprocess.PIPE
    assert seen["start_new_session"] is True
    assert seen["limit"] == 64 * 1024 * 1024
    assert proc.process.stdin is None
    await _start(spy, stdin=True)
    assert seen["stdin"] == subprocess.PIPE


async def test_start_refuses_empty_argv_and_unpiped_processes() -> None:
    with pytest.raises(ValueError, match="argv"):
        await CliProcess.start(FakeClaudeCli([]), ())

    async def unpiped(program: str, *args: str, **kw: Any) -> ProcessPort:
        return await FakeClaudeCli([CliRun()])(program, *args, stdout=None)

    with pytest.raises(ValueError, match="piped"):
        await CliProcess.start(unpiped, ("claude",))


async def test_write_line_is_compact_json_and_a_closed_stdin_is_session_closed() -> None:
    cli = FakeClaudeCli([CliRun(stdout=b"unread\n")])  # alive until its stdout is read
    proc = await _start(cli, stdin=True)
    await proc.write_line({"type": "user", "text": "é"})
    assert cli.invocations[0].stdin == '{"type":"user","text":"é"}\n'.encode()
    proc.close_stdin()
    with pytest.raises(CliError) as caught:
        await proc.write_line({"type": "user"})
    assert caught.value.code == "session_closed"
    no_stdin = await _start(FakeClaudeCli([CliRun()]))
    with pytest.raises(CliError, match="session_closed"):
        await no_stdin.write_line({})


def _session_run() -> FakeClaudeCli:
    # A stream-json session with no recorded answer: it never writes, never exits.
    return FakeClaudeCli([CliRun.of([{"type": "result"}])], hang_when_unanswered=True)


async def _hung(cli: FakeClaudeCli) -> CliProcess:
    proc = await _start(cli, "claude", "--input-format", "stream-json", stdin=True)
    await proc.write_line({"type": "user"})
    assert await proc.next_object() == {"type": "result"}
    await proc.write_line({"type": "user"})
    return proc


async def test_guard_times_out_stops_the_child_and_raises_timeout() -> None:
    cli = _session_run()
    proc = await _hung(cli)
    with pytest.raises(CliError) as caught:
        await asyncio.wait_for(proc.guard(proc.next_object(), within=0.05), 10)
    assert caught.value.code == "timeout"
    assert caught.value.returncode == -15
    assert (proc.terminated, proc.killed) == (True, False)
    assert cli.invocations[0].terminated
    assert await proc.read_line() is None


async def test_guard_on_the_token_raises_cancelled_with_the_reason() -> None:
    proc = await _hung(_session_run())
    token = CancellationToken()
    asyncio.get_running_loop().call_soon(token.cancel, "operator")  # once the guard waits
    with pytest.raises(CliError) as caught:
        await asyncio.wait_for(proc.guard(proc.next_object(), within=None, cancel=token), 10)
    assert caught.value.code == "cancelled"
    assert "operator" in caught.value.message


async def test_guard_returns_the_result_when_work_finishes_first() -> None:
    proc = await _start(FakeClaudeCli([CliRun(stdout=b'{"x":1}\n')]))
    token = CancellationToken()
    assert await proc.guard(proc.next_object(), within=5, cancel=token) == {"x": 1}
    assert not proc.terminated


async def test_guard_stops_the_child_when_the_work_raises() -> None:
    cli = _session_run()
    proc = await _hung(cli)

    async def broken() -> None:
        raise KeyError("bug in the parser")

    with pytest.raises(KeyError):
        await proc.guard(broken(), within=5)
    assert cli.invocations[0].terminated


async def test_stop_is_idempotent_and_a_no_op_after_a_normal_exit() -> None:
    cli = FakeClaudeCli([CliRun(stdout=b"a\n", returncode=3)])
    proc = await _start(cli)
    while await proc.read_line() is not None:
        pass
    assert await proc.finish() == 3
    assert await proc.stop() == 3
    assert await proc.stop() == 3
    assert cli.invocations[0].terminated is False


class _Stuck(ForwardingProcess):
    """A process whose wait() never returns until killed (or ever, if ``forever``)."""

    def __init__(self, inner: ProcessPort, *, forever: bool) -> None:
        super().__init__(inner)
        self._forever = forever
        self._killed = asyncio.Event()
        self.signals: list[str] = []

    @property
    def returncode(self) -> int | None:
        return None

    def terminate(self) -> None:
        self.signals.append("term")

    def kill(self) -> None:
        self.signals.append("kill")
        if not self._forever:
            self.inner.kill()
            self._killed.set()

    async def wait(self) -> int:
        await self._killed.wait()
        return await self.inner.wait()


async def test_a_child_that_lingers_after_eof_is_stopped_and_marked() -> None:
    cli = FakeClaudeCli([CliRun(stdout=b'{"type":"result"}\n')])
    stuck: list[_Stuck] = []

    async def spawn(program: str, *args: str, **kw: Any) -> ProcessPort:
        proc = _Stuck(await cli(program, *args, **kw), forever=False)
        stuck.append(proc)
        return proc

    proc = await _start(spawn, kill_grace=0.2)  # wait() ends only once killed
    while await proc.read_line() is not None:
        pass
    rc = await asyncio.wait_for(proc.finish(within=0.05), 10)
    assert proc.lingered
    assert stuck[0].signals == ["term", "kill"]
    assert rc == 0  # the fake had already written everything: kill of an exited child
    assert proc.killed


async def test_a_child_that_cannot_be_reaped_is_abandoned_not_waited_on_forever() -> None:
    cli = FakeClaudeCli([CliRun(stdout=b"a\n")])

    async def spawn(program: str, *args: str, **kw: Any) -> ProcessPort:
        return _Stuck(await cli(program, *args, **kw), forever=True)

    proc = await _start(spawn, kill_grace=0.2)  # wait() never ends
    assert await asyncio.wait_for(proc.stop(), 10) is None
    assert proc.abandoned
    assert (proc.terminated, proc.killed) == (True, True)


def test_cli_error_carries_its_evidence() -> None:
    error = CliError.reported("cli_exit_1", "boom", stderr="why\n", returncode=1, details={"a": 1})
    assert str(error) == "cli_exit_1: boom (exit code 1)\nstderr:\nwhy"
    assert "cli_exit_1" in repr(error)
    with pytest.raises(TypeError):
        error.details["b"] = 2  # type: ignore[index]
    filled = CliError("timeout").with_evidence(stderr="late\n", returncode=-15, details={"x": 1})
    assert (filled.stderr, filled.returncode, dict(filled.details)) == ("late\n", -15, {"x": 1})
    kept = error.with_evidence(stderr="other", returncode=9, details={"a": 2})
    assert (kept.stderr, kept.returncode, kept.details["a"]) == ("why\n", 1, 1)
    with pytest.raises(ValueError, match="code"):
        CliError.reported("")


def test_exit_code_error_names_exits_and_signals() -> None:
    assert exit_code_error(2).code == "cli_exit_2"
    killed = exit_code_error(-9, stderr="x")
    assert (killed.code, killed.returncode, killed.stderr) == ("cli_signal_9", -9, "x")


def test_cli_result_ok_thread_id_and_raise_for_error() -> None:
    good: CliResult[object] = CliResult(text="t", session_id="th")
    assert good.ok
    assert good.thread_id == "th"
    assert good.raise_for_error() is good
    bad: CliResult[object] = CliResult(error=CliError("incomplete_run"))
    assert not bad.ok
    with pytest.raises(CliError):
        bad.raise_for_error()


@pytest.mark.agentkit(real_processes=True)
async def test_an_over_limit_line_from_a_real_pipe_is_skipped_whole(tmp_path: Any) -> None:
    """A real pipe delivers a long line in chunks: asyncio drops only what it
    buffered and returns the tail next; read_line must resynchronise."""
    import sys

    from agentkit.agents.cognition import default_spawn

    script = (
        "import sys\n"
        "out = sys.stdout.buffer\n"
        "out.write(b'first\\n'); out.flush()\n"
        "for _ in range(48):\n"
        "    out.write(b'x' * 65536); out.flush()\n"
        "out.write(b'\\nlast\\n'); out.flush()\n"
    )
    proc = await CliProcess.start(
        default_spawn, (sys.executable, "-c", script), limit=1024 * 1024, kill_grace=5
    )

    async def read_all() -> list[bytes]:
        lines = []
        while (line := await proc.read_line()) is not None:
            lines.append(line)
        await proc.finish()
        return lines

    lines = await asyncio.wait_for(read_all(), 60)
    assert lines == [b"first\n", b"last\n"]
    assert [s.reason for s in proc.skipped] == ["too_long"]
    assert proc.returncode == 0


@pytest.mark.parametrize("cognition", [ClaudeCliCognition, CodexCliCognition])
@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"extra_args": "--flag"}, TypeError, "not a string"),
        ({"timeout": 0}, ValueError, "timeout must be > 0"),
        ({"timeout": float("nan")}, ValueError, "timeout must be > 0"),
        ({"kill_grace": -0.5}, ValueError, "kill_grace must be >= 0"),
        ({"limit": 0}, ValueError, "limit must be > 0"),
    ],
)
def test_both_cognitions_refuse_the_same_bad_options_at_construction(
    cognition: type[ClaudeCliCognition | CodexCliCognition],
    kwargs: dict[str, Any],
    error: type[Exception],
    match: str,
) -> None:
    with pytest.raises(error, match=match):
        cognition(FakeCodexCli([]), **kwargs)


@pytest.mark.parametrize("process", [None, object(), "claude"])
def test_a_runner_around_something_that_is_not_a_process_is_refused_naming_it(
    process: Any,
) -> None:
    from agentkit.core._internal.arguments import ArgumentTypeError

    with pytest.raises(ArgumentTypeError, match="process") as raised:
        CliProcess(process, ["claude"])
    assert raised.value.argument == "process"
