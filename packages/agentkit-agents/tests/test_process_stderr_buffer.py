"""StderrBuffer: the first and last bytes kept, the middle counted."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentkit.agents.cognition._stderr_buffer import StderrBuffer


def test_what_fits_is_kept_whole() -> None:
    buf = StderrBuffer(4, 4)
    for chunk in (b"ab", b"cde", b"fgh"):
        buf.feed(chunk)
    assert buf.getvalue() == b"abcdefgh"
    assert (buf.total, buf.dropped) == (8, 0)


def test_a_flood_keeps_head_and_tail_and_counts_the_middle() -> None:
    buf = StderrBuffer(3, 2)
    for chunk in (b"HEA", b"xxxx", b"x", b"yyT", b"L"):
        buf.feed(chunk)
    assert buf.total == 12
    assert buf.dropped == 12 - 3 - 2
    assert buf.getvalue() == b"HEA\n[... 7 bytes of stderr dropped ...]\nTL"


def test_one_chunk_larger_than_both_parts() -> None:
    buf = StderrBuffer(2, 3)
    buf.feed(b"0123456789")
    assert buf.getvalue() == b"01\n[... 5 bytes of stderr dropped ...]\n789"


def test_no_tail_keeps_only_the_head() -> None:
    buf = StderrBuffer(2, 0)
    buf.feed(b"abcdef")
    assert buf.getvalue() == b"ab\n[... 4 bytes of stderr dropped ...]\n"
    assert buf.dropped == 4


@pytest.mark.parametrize(
    ("head", "tail", "name"), [(-1, 1, "head"), (1.5, 1, "head"), (1, True, "tail")]
)
def test_wrong_sizes_are_refused(head: Any, tail: Any, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        StderrBuffer(head, tail)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.binary(max_size=50), max_size=20),
    st.integers(min_value=0, max_value=64),
    st.integers(min_value=0, max_value=64),
)
def test_any_chunking_keeps_exactly_the_head_and_the_tail(
    chunks: list[bytes], head: int, tail: int
) -> None:
    buf = StderrBuffer(head, tail)
    for chunk in chunks:
        buf.feed(chunk)
    data = b"".join(chunks)
    assert buf.total == len(data)
    if len(data) <= head + tail:
        assert buf.getvalue() == data
        assert buf.dropped == 0
    else:
        dropped = len(data) - head - tail
        marker = f"\n[... {dropped} bytes of stderr dropped ...]\n".encode()
        assert buf.dropped == dropped
        assert buf.getvalue() == data[:head] + marker + data[len(data) - tail :]
