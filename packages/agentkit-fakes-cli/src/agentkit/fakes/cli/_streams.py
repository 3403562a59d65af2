"""Pipe ends of a fake child: a reader that behaves like asyncio's, and a stdin writer.

:class:`FakeStreamReader` reads from ONE immutable buffer -- the recording --
with a cursor, so replaying a 50 MB recording copies each line once (the
``bytes`` a ``readline()`` must return) and never the recording. Only a
prefix of the buffer is "written" at any time (``release``), which is how a
session's turns are held back until the cognition asks for them.

The line-limit behaviour is asyncio's (``StreamReader.readline`` in CPython
3.11), modelled for a pipe whose writer delivers each line whole:

* a line whose content (without ``\\n``) is longer than ``limit`` raises
  ``ValueError("Separator is found, but chunk is longer than limit")`` and is
  discarded, newline included -- the next ``readline()`` returns the next line;
* ``limit`` or more bytes without a newline (a huge unterminated final line,
  or a line still being written) raise ``ValueError("Separator is not found,
  and chunk exceed the limit")`` and discard what is buffered.

A real pipe may split a line longer than its read chunk (the kernel hands
asyncio up to 256 KiB at a time), in which case the real reader raises the
second form and returns the line's tail on the next call; both forms are a
``ValueError``, which is what a reader has to handle.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

__all__ = ["LIMIT_FOUND", "LIMIT_NOT_FOUND", "FakeStreamReader", "FakeStreamWriter", "Signal"]

LIMIT_FOUND = "Separator is found, but chunk is longer than limit"
"""asyncio's message when a whole over-limit line (newline included) was discarded."""
LIMIT_NOT_FOUND = "Separator is not found, and chunk exceed the limit"
"""asyncio's message when ``limit`` bytes arrived without a newline."""


class Signal:
    """A reusable wake-up: ``await wait()`` until the next ``notify()``."""

    __slots__ = ("_waiters",)

    def __init__(self) -> None:
        self._waiters: list[asyncio.Future[None]] = []

    async def wait(self) -> None:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)

    def notify(self) -> None:
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)


class FakeStreamReader:
    """The read end of a fake pipe over an immutable buffer.

    ``release(end)`` makes ``data[:end]`` readable; ``feed_eof()`` says
    nothing more will be written; ``abort()`` ends the stream where the reader
    is (unread bytes are gone, as when the writer is killed before writing
    them). ``on_consumed`` is told how many bytes and lines each read took.
    """

    __slots__ = ("_data", "_end", "_eof", "_limit", "_on_consumed", "_pos", "_signal")

    def __init__(
        self,
        data: bytes,
        *,
        limit: int,
        on_consumed: Callable[[int, int], None] | None = None,
    ) -> None:
        if limit <= 0:
            raise ValueError("Limit cannot be <= 0")
        self._data = data
        self._limit = limit
        self._pos = 0
        self._end = 0
        self._eof = False
        self._signal = Signal()
        self._on_consumed = on_consumed

    # -------------------------------------------------------- writer side

    @property
    def released(self) -> int:
        return self._end

    @property
    def position(self) -> int:
        """Bytes the reader has taken: what no longer fills the pipe."""
        return self._pos

    @property
    def size(self) -> int:
        return len(self._data)

    def release(self, end: int) -> None:
        if self._eof:
            return
        end = min(end, len(self._data))
        if end > self._end:
            self._end = end
            self._signal.notify()

    def append(self, extra: bytes) -> None:
        """Add bytes the recording did not have (and release them)."""
        if self._eof or not extra:
            return
        self._data = self._data[: self._end] + extra
        self._end = len(self._data)
        self._signal.notify()

    def feed_eof(self) -> None:
        self._eof = True
        self._signal.notify()

    def abort(self) -> None:
        self._end = self._pos
        self._eof = True
        self._signal.notify()

    # -------------------------------------------------------- reader side

    def _took(self, start: int, out: bytes, lines: int) -> bytes:
        self._pos = start + len(out)
        if self._on_consumed is not None:
            self._on_consumed(len(out), lines)
        return out

    async def readline(self) -> bytes:
        data = self._data
        while True:
            pos, end = self._pos, self._end
            newline = data.find(b"\n", pos, end)
            if newline != -1:
                if newline - pos > self._limit:
                    self._pos = newline + 1
                    self._consumed_nothing()
                    raise ValueError(LIMIT_FOUND)
                return self._took(pos, data[pos : newline + 1], 1)
            if end - pos > self._limit:
                self._pos = end
                self._consumed_nothing()
                raise ValueError(LIMIT_NOT_FOUND)
            if self._eof:
                out = data[pos:end]
                return self._took(pos, out, 1 if out else 0)
            await self._signal.wait()
            data = self._data

    def _consumed_nothing(self) -> None:
        if self._on_consumed is not None:
            self._on_consumed(0, 0)

    async def read(self, n: int = -1) -> bytes:
        if n == 0:
            return b""
        if n < 0:
            # To EOF, taking what is written as it comes: like asyncio's reader, which
            # keeps draining the pipe (so a writer blocked on a full pipe moves on).
            parts: list[bytes] = []
            while True:
                pos, end = self._pos, self._end
                if end > pos:
                    out = self._data[pos:end]
                    parts.append(self._took(pos, out, out.count(b"\n")))
                    continue
                if self._eof:
                    return b"".join(parts)
                await self._signal.wait()
        while self._pos == self._end and not self._eof:
            await self._signal.wait()
        pos = self._pos
        out = self._data[pos : min(pos + n, self._end)]
        return self._took(pos, out, out.count(b"\n"))

    def at_eof(self) -> bool:
        return self._eof and self._pos == self._end

    def __aiter__(self) -> FakeStreamReader:
        return self

    async def __anext__(self) -> bytes:
        line = await self.readline()
        if not line:
            raise StopAsyncIteration
        return line


class FakeStreamWriter:
    """The write end of a fake child's stdin; hands every write to ``on_write``.

    Writing after ``close()`` raises ``RuntimeError`` -- louder than asyncio
    (which drops the bytes with a log line), because a double exists to make
    that bug visible. ``drain()`` raises ``ConnectionResetError`` once the
    child has exited, as a real pipe to a dead process does.
    """

    __slots__ = ("_alive", "_closing", "_on_close", "_on_write")

    def __init__(
        self,
        on_write: Callable[[bytes], None],
        on_close: Callable[[], None],
        alive: Callable[[], bool],
    ) -> None:
        self._on_write = on_write
        self._on_close = on_close
        self._alive = alive
        self._closing = False

    def write(self, data: bytes) -> None:
        if self._closing:
            raise RuntimeError("write to a closed stdin")
        if not isinstance(data, bytes | bytearray | memoryview):
            raise TypeError(
                f"data argument must be a bytes-like object, not {type(data).__name__!r}"
            )
        if self._alive():
            self._on_write(bytes(data))

    async def drain(self) -> None:
        if not self._alive() and not self._closing:
            raise ConnectionResetError("Connection lost")
        await asyncio.sleep(0)

    def close(self) -> None:
        if not self._closing:
            self._closing = True
            self._on_close()

    def is_closing(self) -> bool:
        return self._closing

    async def wait_closed(self) -> None:
        await asyncio.sleep(0)
