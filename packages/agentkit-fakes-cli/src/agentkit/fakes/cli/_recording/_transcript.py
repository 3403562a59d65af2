"""A recording as a transcript a person reads: turns, tool calls, usage, errors, exit code.

A recording is diff-friendly but not reader-friendly: a claude init line is
several kilobytes of tool names, and a failed codex turn's reason sits three
keys deep. ``python -m agentkit.fakes.cli show FILE`` prints what happened,
one line per thing that happened, in stream order -- stdin messages and
stderr chunks at the point where they were written.

This module reads the file's half: the header, the stream's order, stderr,
stdout that is not JSON, the exit code. What each stdout object means is
read by the cognitions' own event types, never a second time here: a reader
per CLI (:class:`EventReader`) is found through the
``agentkit.fakes.cli.transcript`` entry point, which agentkit-agents
registers (the doubles may not import the framework). Without it ``show``
says what to install instead of guessing at the schema.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from agentkit.fakes.cli._recording._format import Recording, stream_parts

__all__ = ["READERS", "EventReader", "TranscriptUnavailable", "event_reader", "transcript"]

READERS = "agentkit.fakes.cli.transcript"
"""The entry-point group naming, per CLI, the class that reads its events into lines."""

_TEXT_CAP = 2000


def _cap(text: str, cap: int = _TEXT_CAP) -> str:
    if len(text) <= cap:
        return text
    return f"{text[:cap]}... ({len(text) - cap} more chars)"


def _indent(text: str) -> str:
    return text.replace("\n", "\n    ")


def _shown(line: str) -> str:
    """A reader's line as printed: capped, the lines of a multi-line text indented."""
    return _indent(_cap(line))


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _loads(data: str | bytes) -> object:
    """A JSON value, or None for anything that is not one -- nesting too deep included.

    ``show`` prints damaged and hostile files too, and a ``#stdout`` marker
    can hold a thousand nested brackets: json's RecursionError must end as
    "not JSON", never as a traceback.
    """
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


class EventReader(Protocol):
    """What reads one CLI's stdout objects into transcript lines (one per transcript)."""

    def event(self, obj: Mapping[str, Any]) -> Iterator[str]:
        """The lines one stdout JSON object stands for."""
        ...

    def stdin(self, data: bytes) -> str:
        """The line for one write to the CLI's stdin."""
        ...

    def flush(self) -> Iterator[str]:
        """What the reader holds back, before a line that is not an event."""
        ...


class TranscriptUnavailable(RuntimeError):
    """No reader of this CLI's events is installed (agentkit-agents provides them)."""


def event_reader(cli: str) -> EventReader:
    """A fresh reader of ``cli``'s events, from the ``agentkit.fakes.cli.transcript`` entry point."""
    from importlib.metadata import entry_points

    found = tuple(entry_points(group=READERS, name=cli))
    if not found:
        raise TranscriptUnavailable(
            f"reading a {cli} stream needs the {cli} cognition's event types, which "
            "agentkit-agents provides: pip install agentkit-agents"
        )
    reader: EventReader = found[0].load()()
    return reader


def _body(recording: Recording) -> Iterator[tuple[str, bytes]]:
    """The stream in order: ("stdout", line), ("stderr", chunk), ("stdin", write)."""
    for kind, data in stream_parts(recording):
        if kind == "stdout":
            yield from (("stdout", line) for line in data.splitlines(True))
        else:
            yield kind, data


def transcript(recording: Recording) -> str:
    """The recording as text, one line per thing that happened."""
    out: list[str] = []
    version = f" {recording.cli_version}" if recording.cli_version else ""
    made = f", recorded {recording.created_at}" if recording.created_at else ""
    out.append(f"{recording.cli}{version}{made}")
    if recording.source:
        out.append(f"source: {recording.source}")
    if recording.argv:
        # Shell-quoted, so the line can be pasted into a shell as the run it was.
        out.append("$ " + shlex.join(_cap(arg, 200) for arg in recording.argv))
    else:
        out.append("(stdout only: no command line, stdin, stderr or exit code was recorded)")
    if recording.cwd:
        out.append(f"cwd: {recording.cwd}")
    if recording.env_names:
        out.append(f"env: {', '.join(recording.env_names)}")
    out.extend(f"note: {note}" for note in recording.notes)
    out.append("")
    events = event_reader(recording.cli)
    for kind, data in _body(recording):
        if kind == "stdin":
            out.extend(map(_shown, events.flush()))
            out.append(_shown(events.stdin(data)))
        elif kind == "stderr":
            out.extend(map(_shown, events.flush()))
            out.append(f"stderr: {_indent(_cap(_decode(data).rstrip()))}")
        else:
            obj = _loads(data)
            if isinstance(obj, dict):
                try:
                    out.extend(map(_shown, events.event(obj)))
                except RecursionError:  # parsed, but too deep to print (str() recurses too)
                    out.append("[event nested too deeply to show]")
            elif data.strip():
                out.extend(map(_shown, events.flush()))
                out.append(f"stdout (not a JSON object): {_cap(_decode(data).rstrip())}")
    out.extend(map(_shown, events.flush()))
    out.append("")
    if recording.run.stderr:
        out.append(f"stderr at exit: {_indent(_cap(_decode(recording.run.stderr).rstrip()))}")
    if recording.argv:
        out.append(f"exit code {recording.run.returncode}")
    return "\n".join(out) + "\n"
