"""The process default_spawn returns keeps the SpawnPort rules asyncio's own Process breaks.

Each test here starts real children (python or sh scripts) through the real
default_spawn, so the module opts in to real processes.
"""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys

import pytest

from agentkit.agents.cognition import default_spawn
from agentkit.agents.cognition._spawn import GroupControl, SpawnedProcess
from agentkit.core.testing.contracts import check_spawn_port

pytestmark = pytest.mark.agentkit(real_processes=True)

BOUND = 30.0
"""Seconds any await here may take before the test fails instead of hanging."""

# The child exits at once; a grandchild it leaves behind holds stdout a little longer.
_EARLY_EXIT = "(sleep 0.3; echo late) & echo early"


async def _sh(script: str, *, new_session: bool = True) -> SpawnedProcess:
    proc = await default_spawn(
        "/bin/sh",
        "-c",
        script,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=new_session,
    )
    assert isinstance(proc, SpawnedProcess)
    return proc


@pytest.mark.parametrize("code", [0, 3])
async def test_default_spawn_passes_the_whole_spawn_port_contract(code: int) -> None:
    assert await check_spawn_port(lambda: default_spawn, returncode=code) == []


async def test_wait_gives_the_exit_code_only_after_stdout_eof_even_once_exited() -> None:
    proc = await _sh(_EARLY_EXIT)
    assert proc.stdout is not None
    stdout = proc.stdout
    code = await asyncio.wait_for(proc.exited(), BOUND)  # the child alone is gone
    assert code == 0
    at_exit: list[bool] = []

    async def reap() -> int:
        result = await proc.wait()
        at_exit.append(stdout.at_eof())
        return result

    # asyncio's Process.wait() returns at once here, before "late" has arrived.
    result, data = await asyncio.wait_for(asyncio.gather(reap(), stdout.read()), BOUND)
    assert (result, data, at_exit) == (0, b"early\nlate\n", [True])


async def test_signals_after_the_exit_are_harmless() -> None:
    proc = await _sh("exit 5")
    assert await asyncio.wait_for(proc.wait(), BOUND) == 5
    for _ in range(2):
        proc.terminate()
        proc.kill()
        proc.signal_group(signal.SIGKILL)
    assert proc.returncode == 5
    assert await proc.wait() == 5
    assert not proc.group_alive()


async def test_the_group_is_signalled_as_a_whole() -> None:
    # The grandchild runs on after its parent is gone; only the group reaches it.
    proc = await _sh("sleep 60 & echo ready; wait")
    assert proc.stdout is not None
    assert await asyncio.wait_for(proc.stdout.readline(), BOUND) == b"ready\n"
    assert isinstance(proc, GroupControl)
    assert proc.group_alive()
    proc.signal_group(signal.SIGTERM)
    assert await asyncio.wait_for(proc.wait(), BOUND) == -signal.SIGTERM
    for _ in range(int(BOUND / 0.02)):  # the grandchild, reaped by someone else, goes soon
        if not proc.group_alive():
            break
        await asyncio.sleep(0.02)
    assert not proc.group_alive()


async def test_close_pipes_ends_a_wait_a_stray_holder_would_keep_open() -> None:
    proc = await _sh("(sleep 60) & echo done")
    assert proc.stdout is not None
    assert await asyncio.wait_for(proc.stdout.readline(), BOUND) == b"done\n"
    await asyncio.wait_for(proc.exited(), BOUND)
    proc.close_pipes()
    assert await asyncio.wait_for(proc.wait(), BOUND) == 0
    assert await proc.stdout.read() == b""
    proc.signal_group(signal.SIGKILL)  # the sleeper; nothing may outlive the test


async def test_without_a_session_of_its_own_only_the_child_is_signalled() -> None:
    # Sharing the caller's group, signalling "the group" must not reach the caller.
    proc = await _sh("echo ready; exec sleep 60", new_session=False)
    assert proc.stdout is not None
    assert await asyncio.wait_for(proc.stdout.readline(), BOUND) == b"ready\n"
    proc.signal_group(signal.SIGTERM)
    assert await asyncio.wait_for(proc.wait(), BOUND) == -signal.SIGTERM
    assert not proc.group_alive()


async def test_stdin_is_a_writer_when_piped() -> None:
    proc = await default_spawn(
        sys.executable,
        "-c",
        "import sys; sys.stdout.write(sys.stdin.read().upper())",
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    proc.stdin.write(b"hello")
    await proc.stdin.drain()
    proc.stdin.close()
    assert await asyncio.wait_for(proc.stdout.read(), BOUND) == b"HELLO"
    assert await asyncio.wait_for(proc.wait(), BOUND) == 0
    assert "SpawnedProcess" in repr(proc)
