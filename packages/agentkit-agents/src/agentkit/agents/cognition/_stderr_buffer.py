"""A bounded stderr capture that keeps the head and the tail of what a CLI wrote.

stderr is drained while stdout is read, so a CLI that floods it cannot fill
the pipe and block; but an unbounded capture would turn a flood into memory
growth and a 10 MB error message. The start of stderr usually says what went
wrong first and the end says how the process died, so both are kept and the
middle is counted, not stored.
"""

from __future__ import annotations

__all__ = ["StderrBuffer"]


class StderrBuffer:
    """Keeps the first ``head`` and the last ``tail`` bytes fed; counts the rest."""

    def __init__(self, head: int, tail: int) -> None:
        if isinstance(head, bool) or not isinstance(head, int) or head < 0:
            raise ValueError(f"head must be an int >= 0, got {head!r}")
        if isinstance(tail, bool) or not isinstance(tail, int) or tail < 0:
            raise ValueError(f"tail must be an int >= 0, got {tail!r}")
        self._head_size = head
        self._tail_size = tail
        self._head = bytearray()
        self._tail = bytearray()
        self.total = 0
        """Bytes fed so far, kept or not."""

    @property
    def dropped(self) -> int:
        """Bytes fed but not kept (between the head and the tail)."""
        return self.total - len(self._head) - len(self._tail)

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self._head_size - len(self._head)
        if room > 0:
            self._head += chunk[:room]
            chunk = chunk[room:]
        if not chunk or self._tail_size == 0:
            return
        self._tail += chunk[-self._tail_size :]
        excess = len(self._tail) - self._tail_size
        if excess > 0:
            del self._tail[:excess]

    def getvalue(self) -> bytes:
        """The kept bytes; a marker line stands where bytes were dropped."""
        if not self.dropped:
            return bytes(self._head + self._tail)
        marker = f"\n[... {self.dropped} bytes of stderr dropped ...]\n".encode()
        return bytes(self._head) + marker + bytes(self._tail)
