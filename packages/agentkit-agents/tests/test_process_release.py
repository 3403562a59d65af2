"""Closing a real CLI frees every descriptor, kills only its own, and survives its parent.

The loop test is the one that matters for a long test session or a service:
sessions are opened and closed by the hundred, several at a time and beside a
CPU-bound process (load), while the "claude" ignores stdin's EOF and SIGTERM
so every close ends in the runner's kill after the grace. Right after each
round of ``aclose()`` calls -- with no settle -- the process's descriptors must
be exactly the ones it had at the start.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from agentkit.agents.cognition import ClaudeCliCognition, CliError, default_spawn
from agentkit.agents.cognition._runner import CliProcess
from agentkit.agents.cognition._spawn import descends_from
from agentkit.core.runtime import RunContext
from tests.support.cli import recording, running, still_running

pytestmark = pytest.mark.agentkit(real_processes=True)

BOUND = 60.0
"""Seconds any one step may take before the test fails instead of hanging."""

STDOUT = recording("claude", "claude-2.1.332-text-success").run.stdout

ROUNDS = 25
WIDTH = 8
"""Sessions closed at once in a round: ROUNDS * WIDTH = 200 closes per run."""

_HOLDERS = {
    # the CLI alone, ignoring stdin's EOF and SIGTERM
    "alone": "",
    # a background task in the CLI's group that ignores SIGTERM too and holds stdout
    "group": "spawn(ignore_term=True)",
    # a background task in a session of its own holding stdin only (input left unsent)
    "stdin": "spawn(start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)",
}


def _cli(folder: Path, holder: str) -> Path:
    script = folder / f"claude-{holder}"
    script.write_text(
        textwrap.dedent(
            f"""\
            #!{sys.executable}
            import os, signal, subprocess, sys, time
            PIDS = {str(folder / "pids")!r}
            def note(pid):
                with open(PIDS, "a") as f:
                    f.write(f"{{pid}}\\n")
            def spawn(ignore_term=False, **kw):
                code = "import signal, time\\n"
                if ignore_term:
                    code += "signal.signal(signal.SIGTERM, signal.SIG_IGN)\\n"
                code += "time.sleep(120)\\n"
                note(subprocess.Popen([sys.executable, "-c", code], **kw).pid)
            note(os.getpid())
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            os.read(0, 64)  # the start of the first message; the rest stays unread
            {_HOLDERS[holder]}
            sys.stdout.buffer.write({STDOUT!r})
            sys.stdout.flush()
            time.sleep(120)
            """
        )
    )
    script.chmod(0o755)
    return script


def _fds() -> dict[str, str]:
    found = {}
    for name in os.listdir("/proc/self/fd"):
        try:
            found[name] = os.readlink(f"/proc/self/fd/{name}")
        except OSError:  # the listing's own descriptor, closed by now
            continue
    return found


@pytest.fixture
def load() -> Iterator[None]:
    """A CPU-bound process beside the test for its whole length (the machine is busy)."""
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        burner.kill()
        burner.wait()


async def test_hundreds_of_sessions_closed_after_the_grace_leave_no_descriptor(
    tmp_path: Path, load: None
) -> None:
    clis = {name: _cli(tmp_path, name) for name in _HOLDERS}
    # A prompt bigger than the pipe holds: the CLI reads 64 bytes of it, the rest
    # is still buffered when the session closes.
    prompt = "x" * 100_000

    async def one(n: int) -> CliProcess:
        cli = clis[list(_HOLDERS)[n % len(_HOLDERS)]]
        cognition = ClaudeCliCognition(
            default_spawn, executable=str(cli), timeout=BOUND, kill_grace=0.02
        )
        async with cognition.session(RunContext()) as session:
            result = await session.turn(prompt)
            assert result.error is None, result.error
            assert result.text == "pong"
        assert session._proc is not None
        return session._proc

    async with asyncio.timeout(BOUND):
        await asyncio.gather(*(one(n) for n in range(WIDTH)))  # the loop's lazy fds
    start = _fds()
    closed = 0
    for round_no in range(ROUNDS):
        async with asyncio.timeout(BOUND):
            procs = await asyncio.gather(*(one(n) for n in range(WIDTH)))
        now = _fds()
        assert now == start, f"round {round_no}: {set(now.items()) ^ set(start.items())}"
        for proc in procs:  # every close ended in the runner's kill after the grace
            assert (proc.terminated, proc.killed, proc.returncode) == (True, True, -9)
        closed += len(procs)
    assert closed == ROUNDS * WIDTH
    pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
    assert await still_running(pids, BOUND) == []


async def test_unsent_input_held_by_an_escaped_descendant_is_dropped_and_its_fd_freed(
    tmp_path: Path,
) -> None:
    cli = _cli(tmp_path, "stdin")
    cognition = ClaudeCliCognition(
        default_spawn, executable=str(cli), timeout=BOUND, kill_grace=0.1
    )
    start = _fds()
    async with asyncio.timeout(BOUND), cognition.session(RunContext()) as session:
        result = await session.turn("x" * 100_000)
        assert result.error is None
    assert _fds() == start
    assert session._proc is not None
    assert session._proc.descendants_killed
    pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
    assert await still_running(pids, BOUND) == []


# ----------------------------------------------------------- who may be killed


def _sleep_worker() -> None:  # pragma: no cover - runs in the forked worker
    time.sleep(120)


async def test_a_fork_of_the_caller_holding_the_pipes_is_not_killed(tmp_path: Path) -> None:
    # The CLI answers and exits, leaving a descendant in a session of its own that
    # holds stdout. Meanwhile the test process forks a worker -- which inherits the
    # same pipes. The scan finds both; only the CLI's descendant may be killed.
    pid_file = tmp_path / "holder.pid"
    code = textwrap.dedent(
        f"""\
        import json, subprocess, sys
        holder = subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(120)"], start_new_session=True
        )
        open({str(pid_file)!r}, "w").write(str(holder.pid))
        print(json.dumps({{"type": "result"}}), flush=True)
        """
    )
    proc = await CliProcess.start(
        default_spawn, (sys.executable, "-c", code), kill_grace=0.3, eof_grace=0.2
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork() beside loop threads
        worker = multiprocessing.get_context("fork").Process(target=_sleep_worker)
        worker.start()
    try:
        async with asyncio.timeout(BOUND):
            assert await proc.next_object() == {"type": "result"}
            await proc.guard(proc.finish(), within=BOUND)
        assert proc.descendants_killed
        assert await still_running([int(pid_file.read_text())], BOUND) == []
        assert worker.pid is not None
        assert running(worker.pid), "the runner killed a process that is not the CLI's"
    finally:
        worker.kill()
        worker.join(BOUND)


def test_descent_is_proven_by_the_parent_chain_the_session_or_the_mark() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        me = os.getpid()
        assert descends_from(child.pid, me, session=None, mark=None)
        assert not descends_from(me, child.pid, session=None, mark=None)
        assert not descends_from(child.pid, child.pid + 1, session=None, mark=None)
        assert descends_from(child.pid, -1, session=os.getsid(0), mark=None)
        assert not descends_from(child.pid, -1, session=None, mark="not-its-token")
    finally:
        child.kill()
        child.wait()


# ------------------------------------------------------- the parent's death


_PARENT = """\
import asyncio, signal, sys
# A suite run under nohup hands SIGHUP down ignored: this parent dies of it, as a shell's would.
signal.signal(signal.SIGHUP, signal.SIG_DFL)
from agentkit.agents.cognition import default_spawn
from agentkit.agents.cognition._runner import CliProcess
CHILD = "import os, signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); " \\
    "print(os.getpid(), flush=True); time.sleep(120)"
async def main():
    proc = await CliProcess.start(default_spawn, (sys.executable, "-c", CHILD))
    line = await proc.read_line()
    open(sys.argv[1], "w").write(line.decode())
    await asyncio.sleep(120)
asyncio.run(main())
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
def test_the_cli_does_not_outlive_the_process_that_started_it(tmp_path: Path, signum: int) -> None:
    # The CLI runs in a session of its own and ignores SIGTERM; its parent -- a real
    # process running the runner -- is killed without any chance to clean up.
    pid_file = tmp_path / "cli.pid"
    parent = subprocess.Popen([sys.executable, "-c", _PARENT, str(pid_file)])
    try:
        for _ in range(int(BOUND / 0.02)):
            if pid_file.exists() and pid_file.read_text().endswith("\n"):
                break
            time.sleep(0.02)
        cli = int(pid_file.read_text())
        assert running(cli)
        assert os.getsid(cli) == cli  # its own session: no signal to the parent reaches it
        parent.send_signal(signum)
        parent.wait(BOUND)
        for _ in range(int(BOUND / 0.02)):
            if not running(cli):
                break
            time.sleep(0.02)
        assert not running(cli), "the CLI outlived the process that started it"
    finally:
        parent.kill()
        parent.wait()


# ------------------------------------------- a deadline shorter than eof_grace


_ANSWER_AND_HOLDER = textwrap.dedent(
    """\
    import json, subprocess, sys
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    print(json.dumps({"type": "result", "result": "done"}), flush=True)
    """
)


@pytest.mark.parametrize(("within", "eof_grace"), [(0.05, 5.0), (0.5, 0.5), (1.0, 0.2)])
async def test_a_finished_answer_is_not_a_timeout_whatever_timeout_and_eof_grace_are(
    within: float, eof_grace: float
) -> None:
    proc = await CliProcess.start(
        default_spawn, (sys.executable, "-c", _ANSWER_AND_HOLDER), eof_grace=eof_grace
    )
    async with asyncio.timeout(BOUND):
        assert await proc.next_object() == {"type": "result", "result": "done"}
        assert proc._group is not None
        await proc._group.exited()  # the answer is complete; a descendant holds stdout
        for _ in range(100):  # the exit watcher sees the exit in its next step
            if proc._exit_seen:
                break
            await asyncio.sleep(0)

        async def rest() -> Any:
            remaining = await proc.next_object()
            await proc.finish()
            return remaining

        assert await proc.guard(rest(), within=within) is None  # EOF, not CliError
    assert proc.returncode == 0
    assert proc.descendants_killed


async def test_a_cli_stopped_for_lingering_reads_as_the_runners_stop(tmp_path: Path) -> None:
    # No result, stdout closed, SIGTERM ignored: the runner kills it after the grace.
    # That is not "killed by signal 9" from outside.
    script = tmp_path / "claude"
    script.write_text(
        textwrap.dedent(
            f"""\
            #!{sys.executable}
            import json, os, signal, time
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            print(json.dumps({{"type": "system", "subtype": "init", "session_id": "s"}}),
                  flush=True)
            os.close(1)
            time.sleep(120)
            """
        )
    )
    script.chmod(0o755)
    cognition = ClaudeCliCognition(
        default_spawn, executable=str(script), timeout=BOUND, kill_grace=0.2
    )
    result = await asyncio.wait_for(cognition.drive(RunContext(), "hi"), BOUND)
    assert isinstance(result.error, CliError)
    assert result.error.code == "incomplete_run"
    assert "the runner stopped it (exit code -9)" in result.error.message
    assert result.returncode == -9
