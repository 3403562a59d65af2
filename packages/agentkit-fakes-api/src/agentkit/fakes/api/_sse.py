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

    A line that is not UTF-8 raises :class:`UnicodeDecodeError` (the caller
    names the answer it was reading). An event still open when the stream
    ends is never dispatched, as the standard says: :attr:`open` tells the
    caller the stream stopped inside one.
    """

    __slots__ = ("_buffer", "_data", "_name", "_started")

    def __init__(self) -> None:
        self._buffer = b""
        self._name: str | None = None
        self._data: list[str] = []
        self._started = False

    @property
    def open(self) -> bool:
        """Whether bytes of an event that never ended were read (a cut stream)."""
        return bool(self._buffer or self._data or self._name is not None)

    def feed(self, chunk: bytes) -> list[Event]:
        buffer = self._buffer + chunk
        events: list[Event] = []
        start = 0
        size = len(buffer)
        while start < size:
            cr = buffer.find(b"\r", start)
            lf = buffer.find(b"\n", start)
            if cr < 0 and lf < 0:
                break
            if cr >= 0 and (lf < 0 or cr < lf):
                if cr + 1 == size:
                    break  # a \r last: the \n of a \r\n pair may come in the next chunk
                end, after = cr, cr + (2 if buffer[cr + 1 : cr + 2] == b"\n" else 1)
            else:
                end, after = lf, lf + 1
            event = self._line(buffer[start:end])
            if event is not None:
                events.append(event)
            start = after
        self._buffer = buffer[start:]
        return events

    def finish(self) -> list[Event]:
        """The stream ended: a last line ended by a lone ``\\r`` still counts."""
        if self._buffer.endswith(b"\r"):
            return self.feed(b"\n")
        return []

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
