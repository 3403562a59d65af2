"""stderr behaves like a real pipe: a child whose unread stderr fills the pipe stops there."""

from __future__ import annotations

import asyncio
import subprocess

import pytest

from agentkit.fakes.cli import CliRun, CliStderr, FakeClaudeCli
from agentkit.fakes.cli._process import PIPE_CAPACITY

PIPE = subprocess.PIPE
FLOOD = b"e" * (PIPE_CAPACITY + 10)


async def test_a_flood_on_stderr_before_stdout_ends_blocks_a_reader_of_stdout_alone() -> None:
    run = CliRun.of([{"type": "system"}, CliStderr(FLOOD), {"type": "result"}])
    proc = await FakeClaudeCli([run])("claude", stdout=PIPE, stderr=PIPE)
    assert proc.stdout is not None
    assert proc.stderr is not None
    assert await proc.stdout.readline() == b'{"type":"system"}\n'
    # Reading stdout only (stderr after EOF, the old way) hangs, as with the real CLI.
    blocked = asyncio.ensure_future(proc.stdout.readline())
    await asyncio.sleep(0.01)
    assert not blocked.done()
    # Draining stderr beside it, as the runner does, lets the child write on.
    assert await asyncio.wait_for(proc.stderr.read(), 5) == FLOOD
    assert await asyncio.wait_for(blocked, 5) == b'{"type":"result"}\n'
    assert await asyncio.wait_for(proc.wait(), 5) == 0


async def test_a_flood_at_exit_holds_the_exit_until_stderr_is_read() -> None:
    run = CliRun.of([{"type": "result"}], stderr=FLOOD, returncode=1)
    proc = await FakeClaudeCli([run])("claude", stdout=PIPE, stderr=PIPE)
    assert proc.stdout is not None
    assert proc.stderr is not None
    assert await proc.stdout.readline() == b'{"type":"result"}\n'
    eof = asyncio.ensure_future(proc.stdout.readline())
    waiter = asyncio.ensure_future(proc.wait())
    await asyncio.sleep(0.01)
    assert not eof.done()  # the child is still blocked writing stderr: stdout is open
    assert not waiter.done()
    assert await asyncio.wait_for(proc.stderr.read(), 5) == FLOOD
    assert await asyncio.wait_for(eof, 5) == b""
    assert await asyncio.wait_for(waiter, 5) == 1


@pytest.mark.parametrize("stderr", [None, subprocess.DEVNULL])
async def test_stderr_not_piped_never_fills(stderr: int | None) -> None:
    run = CliRun.of([CliStderr(FLOOD), {"type": "result"}], stderr=FLOOD)
    proc = await FakeClaudeCli([run])("claude", stdout=PIPE, stderr=stderr)
    assert proc.stdout is not None
    assert await asyncio.wait_for(proc.stdout.read(), 5) == b'{"type":"result"}\n'
    assert await asyncio.wait_for(proc.wait(), 5) == 0


async def test_a_blocked_child_still_ends_on_a_signal() -> None:
    run = CliRun.of([{"type": "result"}], stderr=FLOOD)
    proc = await FakeClaudeCli([run])("claude", stdout=PIPE, stderr=PIPE)
    assert proc.stdout is not None
    assert await proc.stdout.readline() == b'{"type":"result"}\n'
    proc.terminate()
    assert await asyncio.wait_for(proc.stdout.readline(), 5) == b""
    assert await asyncio.wait_for(proc.wait(), 5) == -15
