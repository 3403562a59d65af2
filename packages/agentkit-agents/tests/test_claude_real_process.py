"""The REAL spawn path (asyncio.create_subprocess_exec) is stopped and never hangs.

The "claude" here is a tiny python script that sets itself up (optionally
ignoring SIGTERM), prints a ``system/init`` line and sleeps. The test stops
it only after the cognition has READ that line, so the handler is known to be
in place -- no sleeps, no races. A timeout is put only on a child that has
printed its line and sleeps for good (the spawn returns once it has: a
cognition's timeout runs from there), and a child that ends on SIGTERM gets a
kill grace it cannot use up on a loaded machine.
"""

from __future__ import annotations

import asyncio
import os
import sys
import textwrap
from pathlib import Path

import pytest

from agentkit.agents.cognition import ClaudeCliCognition, default_spawn
from agentkit.agents.cognition.claude import ClaudeInit
from agentkit.core.ports import ProcessPort, StreamReaderPort
from agentkit.core.runtime import RunContext
from agentkit.core.types import Usage
from tests.support.cli import (
    SIGTERM_GRACE,
    ForwardingProcess,
    recording,
    still_running,
    until_exists,
)

# Every test here starts a real child through the real default_spawn.
pytestmark = pytest.mark.agentkit(real_processes=True)

_SCRIPT = """\
import json, signal, sys, time
if {ignore_term}:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
sys.stderr.write("child: started\\n")
sys.stderr.flush()
print(json.dumps({{"type": "system", "subtype": "init", "session_id": "real", "model": "m"}}), flush=True)
open({ready!r}, "w").close()
time.sleep(120)
"""


def _executable(tmp_path: Path, body: str) -> Path:
    """An executable ``claude`` in ``tmp_path``: ``body``, run by this interpreter."""
    script = tmp_path / "claude"
    script.write_text(f"#!{sys.executable}\n{body}")
    script.chmod(0o755)
    return script


_STDOUT = recording("claude", "claude-2.1.332-text-success").run.stdout
_ANSWER = f"sys.stdout.buffer.write({_STDOUT!r})\nsys.stdout.flush()\n"
"""Script lines that print a recorded answer (``pong``)."""


def _holder(pid_file: Path) -> str:
    """Script lines that start a background task holding stdout, its pid in ``pid_file``."""
    return (
        'holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])\n'
        f"open({str(pid_file)!r}, 'w').write(str(holder.pid))\n"
    )


def _child(tmp_path: Path, *, ignore_term: bool) -> Path:
    """A claude that prints its init line, then creates ``tmp_path / "ready"`` and sleeps."""
    ready = str(tmp_path / "ready")
    return _executable(tmp_path, _SCRIPT.format(ignore_term=ignore_term, ready=ready))


class _SeenReader:
    """A real StreamReader that also says when a line has been read."""

    def __init__(self, inner: StreamReaderPort, seen: asyncio.Event) -> None:
        self._inner = inner
        self._seen = seen

    async def readline(self) -> bytes:
        line = await self._inner.readline()
        if line:
            self._seen.set()
        return line

    async def read(self, n: int = -1) -> bytes:
        return await self._inner.read(n)

    def at_eof(self) -> bool:
        return self._inner.at_eof()


class _Watched(ForwardingProcess):
    """A real process whose stdout reports the first line read."""

    def __init__(self, inner: ProcessPort, seen: asyncio.Event) -> None:
        super().__init__(inner)
        assert inner.stdout is not None
        self._stdout = _SeenReader(inner.stdout, seen)

    @property
    def stdout(self) -> StreamReaderPort | None:
        return self._stdout


class _Recorder:
    """default_spawn, keeping the real processes so the test can look at them.

    With ``ready``, a spawn returns only once the child has created that file.
    """

    def __init__(self, ready: Path | None = None) -> None:
        self.procs: list[ProcessPort] = []
        self.line_read = asyncio.Event()
        self._ready = ready

    async def __call__(self, program: str, *args: str, **kw: object) -> ProcessPort:
        proc = await default_spawn(program, *args, **kw)  # type: ignore[arg-type]
        self.procs.append(proc)
        if self._ready is not None:
            await until_exists(self._ready)
        return _Watched(proc, self.line_read)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def test_a_timeout_terminates_the_real_child(tmp_path: Path) -> None:
    script = _child(tmp_path, ignore_term=False)
    spawn = _Recorder(ready=tmp_path / "ready")  # the timeout runs once the child sleeps
    cognition = ClaudeCliCognition(
        spawn, executable=str(script), timeout=0.5, kill_grace=SIGTERM_GRACE
    )
    ctx = RunContext()
    result = await asyncio.wait_for(cognition.drive(ctx, "hi"), 60)
    assert (ctx.ledger.calls, ctx.ledger.usage) == (1, Usage())  # timed out, still counted
    assert result.error is not None
    assert result.error.code == "timeout"
    assert result.error.details["terminated"] is True
    assert result.error.details["killed"] is False
    assert result.returncode == -15
    assert "child: started" in result.stderr
    assert [type(e) for e in result.events] == [ClaudeInit]
    assert _gone(spawn.procs[0].pid)


async def test_a_child_ignoring_sigterm_is_killed_after_the_grace(tmp_path: Path) -> None:
    script = _child(tmp_path, ignore_term=True)
    spawn = _Recorder()
    ctx = RunContext()
    cognition = ClaudeCliCognition(spawn, executable=str(script), timeout=60, kill_grace=0.3)
    run = asyncio.ensure_future(cognition.drive(ctx, "hi"))
    await asyncio.wait_for(spawn.line_read.wait(), 60)
    ctx.cancel.cancel("test stops it")
    result = await asyncio.wait_for(run, 60)
    assert result.error is not None
    assert result.error.code == "cancelled"
    assert result.error.details == {"terminated": True, "killed": True}
    assert result.returncode == -9
    assert _gone(spawn.procs[0].pid)


async def test_task_cancellation_stops_the_real_child_and_propagates(tmp_path: Path) -> None:
    script = _child(tmp_path, ignore_term=False)
    spawn = _Recorder()
    cognition = ClaudeCliCognition(
        spawn, executable=str(script), timeout=60, kill_grace=SIGTERM_GRACE
    )
    ctx = RunContext()
    run = asyncio.ensure_future(cognition.drive(ctx, "hi"))
    await asyncio.wait_for(spawn.line_read.wait(), 60)
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(run, 60)
    proc = spawn.procs[0]
    assert proc.returncode == -15
    assert _gone(proc.pid)
    # The run started, so it counts: one call, charged at zero (codex does the same).
    assert (ctx.ledger.calls, ctx.ledger.usage, ctx.ledger.cost_usd) == (1, Usage(), 0.0)


async def test_a_real_session_turn_that_never_answers_times_out(tmp_path: Path) -> None:
    script = _executable(
        tmp_path,
        textwrap.dedent(
            """\
            import sys, time
            sys.stdin.readline()
            time.sleep(120)
            """
        ),
    )
    spawn = _Recorder()
    cognition = ClaudeCliCognition(
        spawn, executable=str(script), timeout=0.5, kill_grace=SIGTERM_GRACE
    )
    async with cognition.session(RunContext()) as session:
        result = await asyncio.wait_for(session.turn("hello"), 60)
    assert result.error is not None
    assert result.error.code == "timeout"
    assert spawn.procs[0].returncode == -15
    assert _gone(spawn.procs[0].pid)


async def test_a_finished_answer_with_a_descendant_holding_stdout_is_ok(tmp_path: Path) -> None:
    # claude answered and exited 0, but a background task it started inherited stdout
    # and sleeps on. The answer is complete and paid for: it comes back as such, and
    # the descendant does not outlive the run.
    pid_file = tmp_path / "descendant.pid"
    script = _executable(tmp_path, "import subprocess, sys\n" + _holder(pid_file) + _ANSWER)
    cognition = ClaudeCliCognition(_Recorder(), executable=str(script), timeout=30, kill_grace=5)
    result = await asyncio.wait_for(cognition.drive(RunContext(), "hi"), 60)
    assert result.error is None
    assert result.text == "pong"
    assert result.returncode == 0
    assert await still_running([int(pid_file.read_text())]) == []


async def test_closing_a_session_stops_the_whole_group(tmp_path: Path) -> None:
    # The CLI answers one turn, starts a background task, and then ignores stdin's EOF.
    # Closing the session stops it -- and the background task with it.
    pid_file = tmp_path / "descendant.pid"
    script = _executable(
        tmp_path,
        "import subprocess, sys, time\nsys.stdin.readline()\n"
        + _ANSWER
        + _holder(pid_file)
        + "time.sleep(120)\n",
    )
    spawn = _Recorder()
    cognition = ClaudeCliCognition(
        spawn, executable=str(script), timeout=30, kill_grace=SIGTERM_GRACE
    )
    async with asyncio.timeout(60), cognition.session(RunContext()) as session:
        result = await session.turn("hello")
        assert result.error is None
        assert result.text == "pong"
        for _ in range(500):  # the holder is started after the answer
            if pid_file.exists() and pid_file.read_text():
                break
            await asyncio.sleep(0.02)
    assert spawn.procs[0].returncode == -15
    assert await still_running([int(pid_file.read_text())]) == []
