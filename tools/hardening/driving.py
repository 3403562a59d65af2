"""Drive a spawned process as a cognition would: write stdin, read every line, drain stderr, wait.

One reader for the hardening tools and the tests built on them, so each
attack reads its child the way the cognitions do: stdout line by line
(a line over the limit skipped, as the cognition reports and goes on),
stderr drained alongside so the child never blocks on a full pipe.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from agentkit.core.ports import ProcessPort

__all__ = ["drive"]


_BOUND = 60.0
"""Seconds to wait for stderr's end and the exit once stdout ended: a hang fails loudly."""


async def drive(process: ProcessPort, writes: Sequence[bytes] = (), *, pause: float = 0.0) -> int:
    """Write ``writes`` to stdin (``pause`` seconds apart), close it, read to the end; the exit code.

    A pause between writes makes each its own read on the other side, which
    is what an attack splitting a secret across writes needs.
    """
    assert process.stdout is not None
    assert process.stdin is not None
    stderr = process.stderr

    async def drain() -> None:
        if stderr is not None:
            while await stderr.read(4096):
                pass

    errors = asyncio.ensure_future(drain())
    try:
        for data in writes:
            process.stdin.write(data)
            await process.stdin.drain()
            if pause:
                await asyncio.sleep(pause)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the child stopped reading: what it wrote says why, as a cognition reads it
    process.stdin.close()
    while True:
        try:
            if not await process.stdout.readline():
                break
        except ValueError:
            continue
    await asyncio.wait_for(errors, _BOUND)
    return await asyncio.wait_for(process.wait(), _BOUND)
