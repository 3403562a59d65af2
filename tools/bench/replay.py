"""Replay: a generated claude stream-json recording through the CLI double and cognition.

Throughput. Each repetition starts from the recording's path and ends with
every line handled; the figure is megabytes (10**6 bytes) of recording per
second, from the median repetition (one untimed warm-up first):

- floor: ``path.read_bytes()``, ``split(b"\\n")``, ``json.loads`` of each
  non-empty line, each event dropped once parsed -- the least any replay of
  these bytes can do (see :func:`_floor` for why nothing is kept);
- FakeClaudeCli: ``FakeClaudeCli.replay(path)``, one spawn, its stdout read
  to EOF with ``readline()`` and each line ``json.loads``-ed the same way --
  the floor's work plus the double's own cost;
- ClaudeCliCognition: the real cognition's ``drive`` over
  ``spawn=FakeClaudeCli.replay(path)`` on a ``make_test_ctx`` context --
  framing, parsing, event mapping, metering, and the ``CliResult`` that
  keeps every mapped event, exactly as a test runs it.

Peak memory. Measured with :mod:`tracemalloc` in a separate pass (tracing
slows allocation, so it never overlaps a timed repetition): tracing starts
before the recording is read; the figure is the peak traced size of one
whole replay. The yardstick is "recording + parsed events", read two ways
and the stricter one applied: the recording's bytes plus the floor's list of
raw event dicts, or the recording's bytes plus what the replay's own outcome
still holds at its end. tracemalloc counts every Python allocation (bytes,
str, dict, list, objects), which is all these replays allocate; it is used
rather than ``ru_maxrss`` because a high-water mark of the process would
also carry the earlier sections' and the generator's memory, and it does
not count allocator slack, which would differ between machines.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import json
import subprocess
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tools.bench.recording import RecordingStats, generate_recording
from tools.bench.stats import Row, Target, median

if TYPE_CHECKING:
    from agentkit.agents.cognition import ClaudeCliResult

__all__ = ["measure_replay"]

SECTION = "4. replay"
MB = 1_000_000


@dataclass(frozen=True, slots=True)
class Peak:
    """tracemalloc figures of one pass, in bytes."""

    peak: int
    recording: int = 0
    parsed: int = 0


def _floor(path: Path) -> int:
    """Read, split, ``json.loads`` each line; the events are dropped as they are parsed.

    Dropped, not kept in a list: a list of every event keeps the whole parse
    alive, and the cyclic collector then re-traverses the growing heap on
    each of its passes -- measured here at about a fifth of the floor's time.
    The floor is the least a replay can do, so it does not pay that.
    """
    data = path.read_bytes()
    count = 0
    for line in data.split(b"\n"):
        if line:
            json.loads(line)
            count += 1
    return count


def _floor_traced(path: Path) -> Peak:
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        data = path.read_bytes()
        recording = tracemalloc.get_traced_memory()[0] - base
        events = [json.loads(line) for line in data.split(b"\n") if line]
        parsed = tracemalloc.get_traced_memory()[0] - base - recording
        peak = tracemalloc.get_traced_memory()[1] - base
        del events, data
    finally:
        tracemalloc.stop()
    return Peak(peak, recording, parsed)


def _run(make: Callable[[], Coroutine[Any, Any, object]]) -> object:
    """``asyncio.run`` one replay and hand back its outcome -- from OUTSIDE the loop.

    The main coroutine itself returns None on purpose. On CPython 3.11,
    ``asyncio.run`` restores the SIGINT handler on exit, and ``signal.signal``
    formats a ``ValueError`` message with the repr of the handler it replaces
    -- a partial holding the main task, whose repr includes the FULL repr of
    the task's result. For a CliResult carrying every event of a 50 MB
    recording that is seconds of ``dataclass.__repr__`` charged to the
    replay; a harness must not measure it, and a test would not pay it
    (pytest-asyncio's test coroutines return None).
    """
    box: list[object] = []

    async def main() -> None:
        box.append(await make())

    asyncio.run(main())
    return box.pop()


def _traced(make: Callable[[], Coroutine[Any, Any, object]]) -> Peak:
    """Peak traced bytes of one replay, and what its outcome still holds at the end."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        outcome = _run(make)  # held until the figures are read
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
        del outcome
    finally:
        tracemalloc.stop()
    return Peak(peak - base, parsed=current - base)


def _timed(run: Callable[[], object], repetitions: int) -> list[float]:
    """Seconds each repetition took (one untimed warm-up first)."""
    run()
    out: list[float] = []
    for _ in range(repetitions):
        gc.collect()
        start = time.perf_counter()
        run()
        out.append(time.perf_counter() - start)
    return out


def measure_replay(repetitions: int, size: int) -> tuple[list[Row], list[str]]:
    """Rows for the floor, the double and the cognition; notes on the recording."""
    with tempfile.TemporaryDirectory(prefix="agentkit-bench-") as tmp:
        stats = generate_recording(Path(tmp) / "claude-session.jsonl", size)
        return _measure(stats, repetitions)


def _measure(stats: RecordingStats, repetitions: int) -> tuple[list[Row], list[str]]:
    path = stats.path
    parsed = _floor(path)
    if parsed != stats.lines:
        raise AssertionError(f"floor parsed {parsed} events, generator wrote {stats.lines}")
    floor_s = median(_timed(lambda: _floor(path), repetitions))
    floor_mbs = stats.size / MB / floor_s
    floor_mem = _floor_traced(path)
    yardstick = floor_mem.recording + floor_mem.parsed
    rows = [
        Row(
            SECTION,
            "floor: split lines + json.loads",
            floor_mbs,
            "MB/s",
            repetitions,
            ratio=1.0,
            ratio_of="floor",
        ),
        Row(
            SECTION,
            "floor, events kept in a list: peak memory",
            floor_mem.peak / MB,
            "MB",
            1,
            ratio=floor_mem.peak / yardstick,
            ratio_of="rec+events",
        ),
    ]
    notes = [
        f"recording: {stats.size / MB:.1f} MB, {stats.lines} lines, {stats.rounds} tool rounds; "
        f"recording {floor_mem.recording / MB:.1f} MB + parsed events "
        f"{floor_mem.parsed / MB:.1f} MB = {yardstick / MB:.1f} MB (tracemalloc)"
    ]
    rows.extend(_agentkit_rows(stats, repetitions, floor_mbs, floor_mem.recording, yardstick))
    return rows, notes


async def _fake_cli(path: Path) -> int:
    """The double alone: one spawn, stdout read to EOF, each line parsed (as the floor)."""
    from agentkit.agents.cognition._runner import DEFAULT_LINE_LIMIT
    from agentkit.fakes.cli import FakeClaudeCli

    cli = FakeClaudeCli.replay(path)
    proc = await cli(
        "claude",
        "-p",
        "--output-format",
        "stream-json",
        "--verbose",
        "replay",
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        limit=DEFAULT_LINE_LIMIT,
    )
    stdout = proc.stdout
    if stdout is None:
        raise AssertionError("FakeClaudeCli returned a process without stdout")
    count = 0
    while line := await stdout.readline():
        json.loads(line)
        count += 1
    await proc.wait()
    return count


async def _cognition(path: Path) -> ClaudeCliResult:
    """The real cognition over the double: one ``drive`` of the whole recording."""
    from agentkit.agents.cognition import ClaudeCliCognition
    from agentkit.fakes.cli import FakeClaudeCli
    from agentkit.fakes.ctx import make_test_ctx

    cognition = ClaudeCliCognition(spawn=FakeClaudeCli.replay(path))
    return await cognition.drive(make_test_ctx(), "replay the recording")


def _agentkit_rows(
    stats: RecordingStats, repetitions: int, floor_mbs: float, recording: int, yardstick: int
) -> list[Row]:
    path = stats.path
    rows: list[Row] = []
    contenders: list[tuple[str, Callable[[], Coroutine[Any, Any, object]]]] = [
        ("FakeClaudeCli: readline + json.loads", lambda: _fake_cli(path)),
        ("ClaudeCliCognition.drive on FakeClaudeCli", lambda: _cognition(path)),
    ]
    for label, make in contenders:
        try:
            _check_replay(label, _run(make), stats)
        except ImportError as exc:
            rows.append(Row(SECTION, label, None, "MB/s", 0, error=str(exc)))
            continue
        seconds = median(_timed(functools.partial(_run, make), repetitions))
        mbs = stats.size / MB / seconds
        share = mbs / floor_mbs
        rows.append(
            Row(
                SECTION,
                label,
                mbs,
                "MB/s",
                repetitions,
                ratio=share,
                ratio_of="floor",
                target=Target("x floor", ">=", 0.6, share),
            )
        )
        traced = _traced(make)
        # The yardstick is the stricter of two readings of "recording + parsed
        # events": with the floor's raw event dicts, or with what THIS replay's
        # outcome actually keeps (a cognition maps events into smaller objects,
        # and must not get credit for that as transient headroom).
        own = recording + traced.parsed
        strict = min(yardstick, own)
        rows.append(
            Row(
                SECTION,
                f"{label.split(':')[0].split('.')[0]}: peak memory",
                traced.peak / MB,
                "MB",
                1,
                ratio=traced.peak / strict,
                ratio_of="rec+events",
                target=Target("x rec+events", "<=", 1.2, traced.peak / strict),
                note=f"keeps {traced.parsed / MB:.1f} MB of events; "
                f"{traced.peak / yardstick:.2f}x rec+raw dicts",
            )
        )
    return rows


def _check_replay(label: str, outcome: object, stats: RecordingStats) -> None:
    """Refuse to time a replay that did not read the whole recording correctly."""
    if isinstance(outcome, int):
        if outcome != stats.lines:
            raise AssertionError(f"{label}: read {outcome} events, expected {stats.lines}")
        return
    error = getattr(outcome, "error", None)
    text = getattr(outcome, "text", None)
    if error is not None or text != stats.final_text:
        raise AssertionError(f"{label}: the run failed or lost its answer: error={error!r}")
