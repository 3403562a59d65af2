"""CliProcess.next_object: no line, however hostile, raises; each bad one is recorded."""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentkit.agents.cognition import SkippedLine, default_spawn
from agentkit.agents.cognition._process_json import INT_BOUND, loads_line
from agentkit.agents.cognition._runner import DEFAULT_LINE_LIMIT, CliProcess
from agentkit.fakes.cli import CliRun, FakeClaudeCli
from tests.support.cli import read_all

GOOD = b'{"type":"result","n":1}\n'

HOSTILE = {
    "nested-objects-100k-deep": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    "nested-arrays-5k-deep": b'{"a":' + b"[" * 5_000 + b"]" * 5_000 + b"}",
    "float-overflowing-to-inf": b'{"total_cost_usd":1e400}',
    "negative-float-overflowing": b'{"total_cost_usd":-1.5e309}',
    "NaN": b'{"total_cost_usd":NaN}',
    "Infinity": b'{"usage":{"input_tokens":Infinity}}',
    "-Infinity": b'{"x":-Infinity}',
    "int-just-over-2**63": b'{"input_tokens":%d}' % (INT_BOUND + 1),
    "negative-int-beyond-2**63": b'{"input_tokens":%d}' % -(INT_BOUND + 1),
    "int-of-5000-digits": b'{"input_tokens":' + b"9" * 5000 + b"}",
    "int-of-100k-digits": b'{"input_tokens":' + b"9" * 100_000 + b"}",
}


async def _read_all(
    stdout: bytes, *, limit: int = DEFAULT_LINE_LIMIT
) -> tuple[list[dict[str, Any]], CliProcess]:
    cli = FakeClaudeCli([CliRun(stdout=stdout)])
    proc = await CliProcess.start(cli, ("claude",), limit=limit)
    async with asyncio.timeout(30):
        return await read_all(proc), proc


@pytest.mark.parametrize("line", HOSTILE.values(), ids=HOSTILE.keys())
async def test_a_hostile_line_is_skipped_as_invalid_json_with_its_line_number(
    line: bytes,
) -> None:
    objects, proc = await _read_all(GOOD + line + b"\n" + GOOD)
    assert objects == [json.loads(GOOD)] * 2
    assert [(s.line_no, s.reason) for s in proc.skipped] == [(2, "invalid_json")]
    assert proc.skipped[0].text == line.decode()


@pytest.mark.parametrize("line", HOSTILE.values(), ids=HOSTILE.keys())
async def test_a_hostile_last_line_without_its_newline_is_truncated(line: bytes) -> None:
    objects, proc = await _read_all(GOOD + line)
    assert objects == [json.loads(GOOD)]
    assert [(s.line_no, s.reason) for s in proc.skipped] == [(2, "truncated")]


@pytest.mark.parametrize(
    ("line", "value"),
    [
        (b'{"n":%d}' % INT_BOUND, INT_BOUND),
        (b'{"n":%d}' % -INT_BOUND, -INT_BOUND),
        (b'{"n":1.7e308}', 1.7e308),
        (b'{"n":-1e-400}', -0.0),
        (b'{"n":"NaN"}', "NaN"),
    ],
)
async def test_the_bounds_themselves_are_accepted(line: bytes, value: object) -> None:
    objects, proc = await _read_all(line + b"\n")
    assert objects == [{"n": value}]
    assert proc.skipped == []


@pytest.mark.parametrize("line", HOSTILE.values(), ids=HOSTILE.keys())
def test_loads_line_refuses_with_a_value_error_only(line: bytes) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 -- the type IS the contract here
        loads_line(line)


_LINE_PARTS = st.sampled_from(
    [b"{", b"}", b"[", b"]", b'"', b":", b",", b"\\", b"1e999", b"NaN", b"-", b"9" * 30, b" "]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.one_of(st.binary(max_size=40), st.lists(_LINE_PARTS, max_size=30).map(b"".join)),
        max_size=8,
    ).map(b"\n".join)
)
def test_any_stdout_reads_to_eof_without_raising(stdout: bytes) -> None:
    objects, proc = asyncio.run(_read_all(stdout))
    assert all(isinstance(o, dict) for o in objects)
    numbers = [s.line_no for s in proc.skipped]
    assert numbers == sorted(set(numbers))
    assert len(objects) + len(proc.skipped) == proc.lines_read
    assert all(isinstance(s, SkippedLine) for s in proc.skipped)


async def _read_all_real(stdout: bytes, chunk: int) -> tuple[list[dict[str, Any]], CliProcess]:
    """The same stdout from a real child, written in ``chunk``-byte flushed writes."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "stdout"
        path.write_bytes(stdout)
        code = (
            "import sys\n"
            f"data = open({str(path)!r}, 'rb').read()\n"
            f"for i in range(0, len(data), {chunk}):\n"
            f"    sys.stdout.buffer.write(data[i:i + {chunk}]); sys.stdout.buffer.flush()\n"
        )
        proc = await CliProcess.start(
            default_spawn, (sys.executable, "-c", code), limit=256, kill_grace=5
        )
        async with asyncio.timeout(30):
            return await read_all(proc), proc


@pytest.mark.agentkit(real_processes=True)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.one_of(st.binary(max_size=600), st.lists(_LINE_PARTS, max_size=30).map(b"".join)),
        max_size=6,
    ).map(b"\n".join),
    st.integers(min_value=1, max_value=300),
)
def test_a_real_pipe_reads_the_same_objects_as_the_double(stdout: bytes, chunk: int) -> None:
    # A 256-byte line limit, so over-limit lines (and their tails, split across
    # chunks) are part of what is generated; the real pipe and the double agree.
    real, real_proc = asyncio.run(_read_all_real(stdout, chunk))
    double, double_proc = asyncio.run(_read_all(stdout, limit=256))
    assert real == double
    assert real_proc.skipped == double_proc.skipped
    assert real_proc.returncode == 0
    numbers = [s.line_no for s in real_proc.skipped]
    assert numbers == sorted(set(numbers))
    assert len(real) + len(real_proc.skipped) == real_proc.lines_read
    assert all(isinstance(o, dict) for o in real)
