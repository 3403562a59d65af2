"""stderr is drained while stdout is read, into a bounded buffer, and surfaced once at the end.

Real children through the real default_spawn: the deadlock this prevents only
exists on a real pipe (a child blocked writing stderr that nobody reads, while
the parent waits for its stdout).
"""

from __future__ import annotations

import asyncio
import sys

import pytest

from agentkit.agents.cognition import CliError, default_spawn
from agentkit.agents.cognition._runner import CliProcess
from tests.support.cli import kept_stderr, read_all

pytestmark = pytest.mark.agentkit(real_processes=True)

BOUND = 20.0
"""Seconds any one run may take before the test fails instead of hanging."""

MB = 1024 * 1024


def _child(stderr: str, *, then: str = "") -> tuple[str, ...]:
    """A child writing the bytes expression ``stderr`` first, then one stdout line, then ``then``."""
    code = (
        "import sys, time\n"
        f"sys.stderr.buffer.write({stderr}); sys.stderr.flush()\n"
        'sys.stdout.write(\'{"type":"result"}\\n\'); sys.stdout.flush()\n'
        f"{then}\n"
    )
    return (sys.executable, "-c", code)


def _flood(size: int) -> tuple[str, ...]:
    """A child writing ``size`` bytes of stderr (head marked, tail marked) before stdout."""
    code = (
        "import sys\n"
        "err = sys.stderr.buffer\n"
        f"err.write(b'HEAD' + b'x' * ({size} - 8) + b'TAIL'); err.flush()\n"
        'sys.stdout.write(\'{"type":"result"}\\n\'); sys.stdout.flush()\n'
    )
    return (sys.executable, "-c", code)


@pytest.mark.parametrize("limit", [1024, 64 * MB])
async def test_a_megabyte_of_stderr_before_stdout_does_not_deadlock(limit: int) -> None:
    proc = await CliProcess.start(default_spawn, _flood(MB), limit=limit, stderr_keep=4096)
    async with asyncio.timeout(BOUND):
        objects = await proc.guard(read_all(proc), within=BOUND / 2)
    assert objects == [{"type": "result"}]
    assert proc.returncode == 0
    assert proc.stderr_dropped == MB - 2 * 4096
    text = proc.stderr_text
    assert text.startswith("HEAD")
    assert text.endswith("TAIL")
    assert f"[... {MB - 2 * 4096} bytes of stderr dropped ...]" in text
    assert len(text) < 3 * 4096


async def test_the_line_limit_does_not_cap_stderr() -> None:
    # One 200 KB stderr "line" with no newline, a 1 KB stdout line limit: all of it is kept.
    stderr = b"e" * (200 * 1024)
    proc = await CliProcess.start(default_spawn, _child("b'e' * (200 * 1024)"), limit=1024)
    async with asyncio.timeout(BOUND):
        await proc.guard(read_all(proc), within=BOUND / 2)
    assert proc.stderr_text == stderr.decode()
    assert proc.stderr_dropped == 0


async def test_a_timeout_surfaces_the_bounded_stderr_once_on_the_error() -> None:
    stderr = b"why it hangs\n" + b"." * MB + b"\nlast words\n"
    child = _child(
        f"b'why it hangs\\n' + b'.' * {MB} + b'\\nlast words\\n'", then="time.sleep(120)"
    )
    proc = await CliProcess.start(default_spawn, child, kill_grace=0.5)
    async with asyncio.timeout(BOUND):
        # Its stdout line comes after its stderr: all written, it now hangs for good, and
        # only then runs the timeout (a loaded machine may take longer to start it).
        assert await proc.next_object() == {"type": "result"}
        with pytest.raises(CliError) as caught:
            await proc.guard(read_all(proc), within=0.5)
    assert caught.value.code == "timeout"
    assert caught.value.stderr == proc.stderr_text == kept_stderr(stderr)
    assert caught.value.stderr.startswith("why it hangs\n")
    assert caught.value.stderr.endswith("\nlast words\n")


async def test_stderr_written_mid_run_is_all_there_at_the_end() -> None:
    code = (
        "import sys\n"
        "for n in range(50):\n"
        "    sys.stderr.write(f'warning {n}\\n'); sys.stderr.flush()\n"
        "    sys.stdout.write('{\"n\":%d}\\n' % n); sys.stdout.flush()\n"
    )
    proc = await CliProcess.start(default_spawn, (sys.executable, "-c", code))
    async with asyncio.timeout(BOUND):
        objects = await proc.guard(read_all(proc), within=BOUND / 2)
    assert objects == [{"n": n} for n in range(50)]
    assert proc.stderr_text == "".join(f"warning {n}\n" for n in range(50))
