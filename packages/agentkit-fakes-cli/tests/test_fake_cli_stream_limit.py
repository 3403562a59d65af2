"""The fake stdout behaves like a real pipe's asyncio.StreamReader under ``limit``.

Each case runs a tiny python child through the REAL
``asyncio.create_subprocess_exec`` and the same bytes through a
FakeClaudeCli spawn, with the same ``limit``, and compares what every
``readline()`` returned or raised.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import pytest

from agentkit.core.ports import StreamReaderPort
from agentkit.fakes.cli import CliRun, FakeClaudeCli
from agentkit.fakes.cli._streams import FakeStreamReader

LIMIT = 1024

_CHILD = "import sys; sys.stdout.buffer.write(bytes.fromhex(sys.argv[1])); sys.stdout.flush()"


async def _outcomes(reader: StreamReaderPort, calls: int) -> list[Any]:
    out: list[Any] = []
    for _ in range(calls):
        try:
            out.append(await reader.readline())
        except ValueError as exc:
            out.append((type(exc), str(exc)))
    return out


async def _real(data: bytes, calls: int) -> list[Any]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        _CHILD,
        data.hex(),
        stdout=subprocess.PIPE,
        limit=LIMIT,
    )
    assert proc.stdout is not None
    # Every case is one write() under PIPE_BUF (4096 bytes): the pipe delivers it
    # whole, the case the fake models (see agentkit.fakes.cli._streams).
    assert len(data) < 4096
    try:
        return await asyncio.wait_for(_outcomes(proc.stdout, calls), 30)
    finally:
        await asyncio.wait_for(proc.wait(), 30)


async def _fake(data: bytes, calls: int) -> list[Any]:
    cli = FakeClaudeCli([CliRun(stdout=data)])
    proc = await cli("claude", stdout=subprocess.PIPE, limit=LIMIT)
    assert proc.stdout is not None
    return await asyncio.wait_for(_outcomes(proc.stdout, calls), 5)


CASES = {
    "line over the limit, then a short line": b"x" * 3000 + b"\nshort\n",
    "line exactly at the limit": b"z" * LIMIT + b"\nnext\n",
    "one byte over the limit": b"z" * (LIMIT + 1) + b"\nnext\n",
    "unterminated final line over the limit": b"ok\n" + b"y" * 3000,
    "unterminated short final line": b"ok\n" + b"tail",
    "empty output": b"",
}


@pytest.mark.parametrize("name", sorted(CASES))
async def test_readline_matches_a_real_pipe(name: str) -> None:
    data = CASES[name]
    calls = data.count(b"\n") + 3
    real = await _real(data, calls)
    fake = await _fake(data, calls)
    assert fake == real
    assert any(isinstance(o, bytes) and o == b"" for o in fake)  # both reach EOF


async def test_the_over_limit_errors_are_the_real_valueerror_texts() -> None:
    fake = await _fake(b"x" * 3000 + b"\n" + b"y" * 3000, 3)
    assert fake == [
        (ValueError, "Separator is found, but chunk is longer than limit"),
        (ValueError, "Separator is not found, and chunk exceed the limit"),
        b"",
    ]


async def test_read_n_and_read_all_and_at_eof() -> None:
    cli = FakeClaudeCli([CliRun(stdout=b"abc\ndef\n")])
    proc = await cli("claude", stdout=subprocess.PIPE, limit=LIMIT)
    assert proc.stdout is not None
    assert await proc.stdout.read(0) == b""
    assert await proc.stdout.read(2) == b"ab"
    assert not proc.stdout.at_eof()
    assert await proc.stdout.read() == b"c\ndef\n"
    assert proc.stdout.at_eof()
    assert await proc.stdout.read(5) == b""
    assert await proc.stdout.readline() == b""


async def test_async_iteration_yields_lines() -> None:
    cli = FakeClaudeCli([CliRun(stdout=b"a\nb\nc")])
    proc = await cli("claude", stdout=subprocess.PIPE)
    # Beyond the port (as asyncio's own reader is): the fake's reader iterates lines.
    assert isinstance(proc.stdout, FakeStreamReader)
    lines = [line async for line in proc.stdout]
    assert lines == [b"a\n", b"b\n", b"c"]


async def test_limit_must_be_positive() -> None:
    cli = FakeClaudeCli([CliRun(stdout=b"")], verify=False)
    with pytest.raises(ValueError, match="limit"):
        await cli("claude", stdout=subprocess.PIPE, limit=0)
