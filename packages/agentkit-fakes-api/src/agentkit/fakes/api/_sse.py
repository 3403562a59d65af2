"""Server-Sent Events framing, as the providers write it and their SDKs and CLIs parse it.

One event is an optional ``event:`` line, one ``data:`` line of compact
JSON, and a blank line. Anthropic and the OpenAI Responses API name every
event (the name repeats the payload's ``type``); Chat Completions sends
``data:`` lines only and ends with ``data: [DONE]``.

:func:`frame` writes one event; :class:`EventReader` reads a stream back
the way the SSE standard says a client must, since a real provider's bytes
are not FakeApi's: lines may end in ``\\r\\n``, ``\\n`` or ``\\r``, a line
starting with ``:`` is a comment (a keep-alive), ``data:`` lines of one
event are joined with ``\\n``, and the bytes may be split anywhere --
inside a line, a UTF-8 character or a ``\\r\\n`` pair.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agentkit.fakes.api._call import json_text

__all__ = ["DONE", "Event", "EventReader", "frame"]

DONE = b"data: [DONE]\n\n"


def frame(data: Mapping[str, Any], event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event is not None else ""
    return f"{head}data: {json_text(data)}\n\n".encode()


@dataclass(frozen=True, slots=True)
class Event:
    """One dispatched event: its ``event:`` name (None when it had none) and its data."""

    name: str | None
    data: str


class EventReader:
    """Reads an event stream fed in arbitrary pieces; :meth:`feed` returns the events completed.

    Each byte is looked at once, however the stream is split (a line cut
    across pieces waits in :attr:`_pending`). A line that is not UTF-8
    raises :class:`UnicodeDecodeError` (the caller names the answer it was
    reading). An event still open when the stream ends is never dispatched,
    as the standard says.
    """

    __slots__ = ("_after_cr", "_data", "_name", "_pending", "_started")

    def __init__(self) -> None:
        self._pending: list[bytes] = []
        self._after_cr = False
        self._name: str | None = None
        self._data: list[str] = []
        self._started = False

    def feed(self, chunk: bytes) -> list[Event]:
        events: list[Event] = []
        size = len(chunk)
        start = 1 if self._after_cr and chunk[:1] == b"\n" else 0  # the \n of a split \r\n
        self._after_cr = False
        cr = lf = -1
        while start < size:
            if cr < start:
                cr = chunk.find(b"\r", start)
                cr = size if cr < 0 else cr
            if lf < start:
                lf = chunk.find(b"\n", start)
                lf = size if lf < 0 else lf
            end = min(cr, lf)
            if end == size:
                self._pending.append(chunk[start:])
                break
            piece = chunk[start:end]
            if self._pending:
                piece = b"".join([*self._pending, piece])
                self._pending.clear()
            event = self._line(piece)
            if event is not None:
                events.append(event)
            start = end + 1
            if end == cr:
                if start == size:
                    self._after_cr = True
                elif chunk[start] == 0x0A:
                    start += 1
        return events

    def _line(self, raw: bytes) -> Event | None:
        line = raw.decode("utf-8")
        if not self._started:
            self._started = True
            line = line.removeprefix("\ufeff")
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None  # a comment: a keep-alive
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            self._name = value
        elif field == "data":
            self._data.append(value)
        return None  # id, retry and unknown fields carry nothing an answer holds

    def _dispatch(self) -> Event | None:
        name, data = self._name, self._data
        self._name, self._data = None, []
        if not data:
            return None
        return Event(name, "\n".join(data))
