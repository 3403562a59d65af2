"""Secrets split across streamed deltas: found in the text they make, replaced in each piece.

With partial messages on, a CLI streams an answer as many small JSON lines,
each carrying the next few characters (``{"delta": {"text": "sk-an"}}``,
then ``{"delta": {"text": "t-api03-..."}}``). No single line holds the key,
so a scrubber that reads line by line keeps both halves, and anyone reading
the file can join them. Here each stream of deltas (the same field of the
same content block) is joined back into the text the CLI meant, the secrets
are found in that text, and every piece of a secret that straddles a seam is
replaced in the line that carried it.

A changed line is written back as compact JSON (its bytes change anyway);
the caller gets the replacement spans so offsets into stdout (stderr chunks,
stdin writes) move with the text.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable, Iterator
from typing import Any

from agentkit.core._internal.secrets import REDACTED

__all__ = ["scrub_split_deltas"]

_MAX_DEPTH = 6
"""How deep a ``delta`` object may sit in an event (claude's is at depth 2)."""

Span = tuple[int, int, int]
_Piece = tuple[int, dict[str, Any], str]
"""The line it came from, the delta object holding it, and its key there."""


def _deltas(value: object, path: tuple[str, ...], index: object, depth: int) -> Iterator[Any]:
    if depth > _MAX_DEPTH or not isinstance(value, dict):
        return
    index = value.get("index", index)
    for key, inner in value.items():
        if key == "delta" and isinstance(inner, dict):
            for field, text in inner.items():
                if isinstance(text, str) and field != "type":
                    yield (*path, field, repr(index)), inner, field
        elif isinstance(inner, dict):
            yield from _deltas(inner, (*path, key), index, depth + 1)


def _redact(text: str, ranges: list[tuple[int, int]]) -> str:
    data = text.encode("utf-8", "surrogateescape")
    for start, end in sorted(ranges, reverse=True):
        data = data[:start] + REDACTED + data[end:]
    return data.decode("utf-8", "surrogateescape")


def scrub_split_deltas(
    stdout: bytes, find: Callable[[bytes], list[tuple[int, int]]]
) -> tuple[bytes, list[Span]]:
    """``stdout`` with every secret that spans two or more deltas replaced piece by piece.

    ``find`` gives the secrets' spans in a text (the scrubber's own rules).
    Returns the new stdout and the ``(start, end, new length)`` of each line
    rewritten.
    """
    if b'"delta"' not in stdout:
        return stdout, []
    lines = stdout.splitlines(keepends=True)
    events, streams = _streams(lines)
    changed: dict[int, None] = {}
    for pieces in streams.values():
        changed.update(dict.fromkeys(_scrub_stream(pieces, find)))
    if not changed:
        return stdout, []
    return _rewritten(lines, events, changed)


def _streams(
    lines: list[bytes],
) -> tuple[dict[int, Any], dict[tuple[str, ...], list[_Piece]]]:
    """The events of the lines holding a delta (by line number), and their deltas by stream."""
    events: dict[int, Any] = {}
    streams: dict[tuple[str, ...], list[_Piece]] = {}
    for number, line in enumerate(lines):
        if b'"delta"' not in line:
            continue
        try:
            event = json.loads(line)
        except (ValueError, RecursionError):
            continue
        events[number] = event
        for key, holder, field in _deltas(event, (), None, 0):
            streams.setdefault(key, []).append((number, holder, field))
    return events, streams


def _scrub_stream(
    pieces: list[_Piece], find: Callable[[bytes], list[tuple[int, int]]]
) -> list[int]:
    """Redact, in place, each piece of a secret that straddles a seam of one stream.

    Returns the numbers of the lines whose delta changed.
    """
    if len(pieces) < 2:
        return []
    encoded = [holder[field].encode("utf-8", "surrogateescape") for _, holder, field in pieces]
    bounds = [0]
    for data in encoded:
        bounds.append(bounds[-1] + len(data))
    todo: dict[int, list[tuple[int, int]]] = {}
    for start, end in find(b"".join(encoded)):
        first = bisect.bisect_right(bounds, start) - 1  # the piece the secret starts in
        last = bisect.bisect_left(bounds, end) - 1  # and the one it ends in
        if first == last:
            continue  # inside one line: the scrubber's own pass finds it there
        for i in range(first, last + 1):
            todo.setdefault(i, []).append(
                (max(start, bounds[i]) - bounds[i], min(end, bounds[i + 1]) - bounds[i])
            )
    changed: list[int] = []
    for i, ranges in todo.items():
        number, holder, field = pieces[i]
        holder[field] = _redact(holder[field], ranges)
        changed.append(number)
    return changed


def _rewritten(
    lines: list[bytes], events: dict[int, Any], changed: dict[int, None]
) -> tuple[bytes, list[Span]]:
    """The lines joined, each changed one written back as compact JSON, and the spans moved."""
    spans: list[Span] = []
    position = 0
    out: list[bytes] = []
    for number, line in enumerate(lines):
        if number in changed:
            ending = line[len(line.rstrip(b"\r\n")) :]
            new = (
                json.dumps(events[number], ensure_ascii=False, separators=(",", ":")).encode(
                    "utf-8", "surrogateescape"
                )
                + ending
            )
            spans.append((position, position + len(line), len(new)))
            line = new
        out.append(line)
        position += len(lines[number])
    return b"".join(out), spans
