"""Stopping a real CLI stops its whole process group; nothing is left running, no fd leaks.

The "CLI" in each test is a small Python script written to ``tmp_path`` that
starts a grandchild (``sleep``-like, optionally ignoring SIGTERM) and records
its pid in a file, so the test can tell whether anything outlived the run.
Every await is bounded; none of the asserts is on elapsed time -- a run that
did not come back would fail on its bound instead.

Built to give one answer on a loaded machine: a timeout stops a child only
after its first line was read (it has set up its grandchild and hangs for
good), a child expected to end by SIGTERM gets a grace it cannot use up
(``SIGTERM_GRACE``: it dies at once, so a correct run never waits for it), and
a cancellation is sent once the run is waiting, not after a guessed delay.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from agentkit.agents.cognition import CliError, default_spawn
from agentkit.agents.cognition._runner import CliProcess
from agentkit.core.cancellation import CancellationToken
from agentkit.core.ports import ProcessPort
from agentkit.fakes.cli import CapturingSpawn
from tests.support.cli import ForwardingProcess, read_all, still_running

pytestmark = pytest.mark.agentkit(real_processes=True)

BOUND = 20.0
"""Seconds any one run may take before the test fails instead of hanging."""

SIGTERM_GRACE = BOUND / 2
"""The kill grace of a child that dies of SIGTERM: only a runner that never sent it waits
this long (and is then caught killing, -9, instead of terminating, -15)."""

_CHILD = """\
import json, os, signal, subprocess, sys, time
grandchild = subprocess.Popen(
    [sys.executable, "-c", {grandchild!r}],
    stdout={grandchild_stdout}, stderr=subprocess.DEVNULL, start_new_session={setsid},
)
with open({pids!r}, "w") as f:
    f.write(str(grandchild.pid))
if {ignore_term}:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
print(json.dumps({{"type": "system", "subtype": "init"}}), flush=True)
{then}
"""

_GRANDCHILD = (
    "import signal, time\n"
    "if {ignore_term}: signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "time.sleep(120)\n"
)

HANG = "time.sleep(120)"
ANSWER_AND_EXIT = 'print(json.dumps({"type": "result", "result": "done"}), flush=True)'


def _script(
    tmp_path: Path,
    *,
    then: str,
    ignore_term: bool = False,
    grandchild_ignores_term: bool = False,
    grandchild_holds_stdout: bool = False,
    grandchild_setsid: bool = False,
) -> tuple[tuple[str, ...], Path]:
    pids = tmp_path / "grandchild.pid"
    code = _CHILD.format(
        grandchild=_GRANDCHILD.format(ignore_term=grandchild_ignores_term),
        grandchild_stdout="None" if grandchild_holds_stdout else "subprocess.DEVNULL",
        setsid=grandchild_setsid,
        pids=str(pids),
        ignore_term=ignore_term,
        then=then,
    )
    script = tmp_path / "cli.py"
    script.write_text(code)
    return (sys.executable, str(script)), pids


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


async def _start(argv: tuple[str, ...], **options: Any) -> CliProcess:
    options.setdefault("kill_grace", SIGTERM_GRACE)
    return await CliProcess.start(default_spawn, argv, **options)


async def _first_line_then(
    proc: CliProcess, stop: Callable[[], Awaitable[Any]]
) -> tuple[Any, BaseException | None]:
    """Read the init line (the child and its grandchild are set up), then run ``stop``."""
    async with asyncio.timeout(BOUND):
        assert await proc.next_object() == {"type": "system", "subtype": "init"}
        try:
            return await stop(), None
        except (CliError, asyncio.CancelledError) as exc:
            return None, exc


@pytest.mark.parametrize("grandchild_ignores_term", [False, True])
async def test_a_timeout_kills_the_grandchild_too(
    tmp_path: Path, grandchild_ignores_term: bool
) -> None:
    argv, pids = _script(tmp_path, then=HANG, grandchild_ignores_term=grandchild_ignores_term)
    proc = await _start(argv)
    _, error = await _first_line_then(proc, lambda: proc.guard(read_all(proc), within=0.3))
    assert isinstance(error, CliError)
    assert error.code == "timeout"
    assert proc.terminated
    assert proc.returncode == -15
    assert await still_running([int(pids.read_text())], BOUND) == []
    assert await still_running([proc.process.pid], BOUND) == []


async def test_the_token_kills_the_grandchild_too(tmp_path: Path) -> None:
    argv, pids = _script(tmp_path, then=HANG, ignore_term=True, grandchild_ignores_term=True)
    proc = await _start(argv, kill_grace=0.2)  # it ignores SIGTERM: the grace always runs out
    token = CancellationToken()

    async def cancelled_run() -> Any:
        # The token fires once the guard is waiting on the child (the next loop step).
        asyncio.get_running_loop().call_soon(token.cancel, "stop")
        return await proc.guard(read_all(proc), within=None, cancel=token)

    _, error = await _first_line_then(proc, cancelled_run)
    assert isinstance(error, CliError)
    assert error.code == "cancelled"
    assert (proc.terminated, proc.killed) == (True, True)
    assert proc.returncode == -9
    assert await still_running([int(pids.read_text())], BOUND) == []


async def test_task_cancellation_kills_the_grandchild_too(tmp_path: Path) -> None:
    argv, pids = _script(tmp_path, then=HANG, grandchild_holds_stdout=True)
    proc = await _start(argv)

    async def cancelled_run() -> None:
        task = asyncio.ensure_future(proc.guard(read_all(proc), within=None))
        await asyncio.sleep(0)  # the task's first step: the guard is waiting on the child
        task.cancel()
        await task

    _, error = await _first_line_then(proc, cancelled_run)
    assert isinstance(error, asyncio.CancelledError)
    assert proc.returncode == -15
    assert await still_running([int(pids.read_text())], BOUND) == []


@pytest.mark.parametrize("setsid", [False, True], ids=["in-the-group", "own-session"])
async def test_an_answer_with_a_descendant_holding_stdout_comes_back_ok(
    tmp_path: Path, setsid: bool
) -> None:
    # The CLI answered and exited 0; a background task it started still holds stdout
    # (and sleeps for two minutes). The run is what the CLI made of it: finished, exit 0.
    # A descendant that setsid() took out of the group is reached by no signal to the
    # group, but it holds the pipe made for this child alone: it is found by that.
    argv, pids = _script(
        tmp_path, then=ANSWER_AND_EXIT, grandchild_holds_stdout=True, grandchild_setsid=setsid
    )
    proc = await _start(argv, eof_grace=0.2)
    async with asyncio.timeout(BOUND):
        objects = await proc.guard(read_all(proc), within=BOUND / 2)
    assert [o["type"] for o in objects] == ["system", "result"]
    assert proc.returncode == 0
    assert proc.descendants_killed
    assert (proc.terminated, proc.killed, proc.lingered, proc.abandoned) == (False,) * 4
    assert await still_running([int(pids.read_text())], BOUND) == []


@pytest.mark.parametrize("hang", [False, True], ids=["answer-and-exit", "hang"])
async def test_behind_a_recording_spawn_the_group_is_still_stopped_whole(
    tmp_path: Path, hang: bool
) -> None:
    # CapturingSpawn wraps the real process and forwards only the ProcessPort: the runner
    # finds the real child's group again by its pid.
    capture = CapturingSpawn(default_spawn, cli="claude")
    then = HANG if hang else ANSWER_AND_EXIT
    argv, pids = _script(tmp_path, then=then, grandchild_holds_stdout=True)
    proc = await CliProcess.start(capture, argv, kill_grace=SIGTERM_GRACE, eof_grace=0.2)
    async with asyncio.timeout(BOUND):
        first = await proc.next_object()  # set up: the grandchild runs, its pid is written
        code = await _outcome(proc.guard(read_all(proc), within=0.5 if hang else BOUND / 2))
    assert first == {"type": "system", "subtype": "init"}
    assert code == ("timeout" if hang else None)
    assert proc.returncode == (-15 if hang else 0)
    assert proc.descendants_killed
    assert await still_running([int(pids.read_text())], BOUND) == []
    assert len(capture.recordings) == 1


class _WaitsForEof(ForwardingProcess):
    """asyncio's Process made to keep the SpawnPort rule by hand: wait() also waits for
    stdout's EOF. It offers no group, as a spawn of the caller's own would not."""

    async def wait(self) -> int:
        code = await self.inner.wait()
        assert self.inner.stdout is not None
        for _ in range(10**6):  # until EOF: as long as a holder keeps the pipe
            if self.inner.stdout.at_eof():
                break
            await asyncio.sleep(0.01)
        return code


async def test_a_child_without_a_group_is_stopped_and_its_exit_code_kept(tmp_path: Path) -> None:
    # Only the child can be signalled, and its wait() waits for the pipe the grandchild
    # holds. The run still ends, with the exit code the child had -- not "abandoned".
    raw: list[asyncio.subprocess.Process] = []

    async def own_spawn(program: str, *args: str, **kw: Any) -> ProcessPort:
        raw.append(await asyncio.create_subprocess_exec(program, *args, **kw))
        return _WaitsForEof(raw[0])

    argv, pids = _script(tmp_path, then=HANG, grandchild_holds_stdout=True)
    proc = await CliProcess.start(own_spawn, argv, kill_grace=0.2)
    try:
        async with asyncio.timeout(BOUND):
            assert await proc.next_object() is not None  # set up: the grandchild's pid written
            code = await _outcome(proc.guard(read_all(proc), within=0.5))
        assert code == "timeout"
        assert proc.returncode == -15
        assert not proc.abandoned
    finally:
        os.kill(int(pids.read_text()), signal.SIGKILL)  # no group: the test's own cleanup
        stdout = raw[0].stdout
        assert stdout is not None
        # At its EOF asyncio closes the transport; left open, it would warn in a later test.
        await asyncio.wait_for(stdout.read(), BOUND)


async def test_a_descendant_left_behind_without_the_pipes_is_killed_at_the_end(
    tmp_path: Path,
) -> None:
    argv, pids = _script(tmp_path, then=ANSWER_AND_EXIT)
    proc = await _start(argv)
    async with asyncio.timeout(BOUND):
        await proc.guard(read_all(proc), within=BOUND / 2)
    assert proc.returncode == 0
    assert proc.descendants_killed
    assert await still_running([int(pids.read_text())], BOUND) == []


async def test_stop_after_the_exit_leaves_nothing(tmp_path: Path) -> None:
    argv, pids = _script(tmp_path, then=ANSWER_AND_EXIT, grandchild_holds_stdout=True)
    proc = await _start(argv)
    async with asyncio.timeout(BOUND):
        assert await proc.next_object() is not None
        await proc.stop()
    assert proc.returncode is not None
    assert await still_running([int(pids.read_text())], BOUND) == []


async def test_no_fd_is_left_open_after_runs_ended_every_way(tmp_path: Path) -> None:
    codes: list[str | None] = []

    async def one_of_each(round: str) -> None:
        for n, (then, holds, within) in enumerate(
            [
                (ANSWER_AND_EXIT, False, BOUND),
                (ANSWER_AND_EXIT, True, BOUND),
                (HANG, True, 0.3),
                (HANG, False, 0.3),
            ]
        ):
            folder = tmp_path / f"{round}-{n}"
            folder.mkdir()
            argv, pids = _script(folder, then=then, grandchild_holds_stdout=holds)
            proc = await _start(argv, eof_grace=0.2)
            async with asyncio.timeout(BOUND):
                assert await proc.next_object() is not None  # set up: the grandchild runs
                codes.append(await _outcome(proc.guard(read_all(proc), within=within)))
            assert await still_running([int(pids.read_text())], BOUND) == []

    await one_of_each("warm-up")  # fds the loop creates lazily
    before = open_fds()
    await one_of_each("counted")
    for _ in range(int(BOUND / 0.02)):  # transports close in callbacks the loop runs next
        if open_fds() <= before:
            break
        await asyncio.sleep(0.02)
    assert open_fds() == before
    assert codes == [None, None, "timeout", "timeout"] * 2


async def _outcome(run: Awaitable[Any]) -> str | None:
    """None if ``run`` finished, else the CliError's code."""
    try:
        await run
    except CliError as exc:
        return exc.code
    return None
