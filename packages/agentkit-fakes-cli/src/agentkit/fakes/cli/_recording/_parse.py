"""Reading a recording's bytes: header, body and trailer, each checked where it is read.

Every malformed file is a :class:`RecordingError` naming the file and the
line, never a raw exception: a recording is a test fixture, and a fixture
that fails three layers down inside a cognition costs an afternoon.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, NamedTuple

from agentkit.fakes.cli._recording._errors import RecordingError, shown
from agentkit.fakes.cli._recording._format import (
    FORMAT_VERSION,
    KNOWN_CLIS,
    MAGIC,
    Recording,
    decode,
    is_recording,
)
from agentkit.fakes.cli._run import CliRun

__all__ = ["check_plain_stdout", "parse_file", "parse_recording", "replay_recording"]

_EXIT_CODES = (-(2**31), 2**32 - 1)
"""Every exit status a process can report: a signal as a negative number, or a
Windows status (a 32-bit unsigned value); anything past them is a damaged file."""


def _string(value: object, source: str, line: int, what: str) -> str:
    if not isinstance(value, str):
        raise RecordingError(source, line, f"{what} must be a JSON string")
    return value


def _lines(data: bytes, source: str) -> Iterator[tuple[int, str]]:
    """``(number, text)`` of each newline-ended line of ``data``; not UTF-8 is a RecordingError."""
    position = 0
    number = 0
    size = len(data)
    while position < size:
        end = data.index(b"\n", position)
        number += 1
        try:
            text = data[position:end].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordingError(
                source, number, f"not UTF-8 (byte {position + exc.start})"
            ) from None
        yield number, text
        position = end + 1


class _Header(NamedTuple):
    """The header line's fields, each checked."""

    cli: str
    argv: tuple[str, ...]
    env_names: tuple[str, ...]
    cli_version: str | None
    cwd: str | None
    created_at: str | None
    source: str
    notes: tuple[str, ...]


def _strings(header: dict[str, Any], key: str, source: str) -> tuple[str, ...]:
    value = header.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise RecordingError(source, 1, f"{key} must be a list of strings")
    return tuple(value)


def _optional(header: dict[str, Any], key: str, source: str) -> str | None:
    value = header.get(key)
    if value is not None and not isinstance(value, str):
        raise RecordingError(source, 1, f"{key} must be a string or null")
    return value


def _version(header: dict[str, Any], source: str) -> None:
    version = header[MAGIC]
    if isinstance(version, bool) or not isinstance(version, int):
        raise RecordingError(source, 1, f"format version must be an int, got {shown(version)}")
    if version < 1:
        raise RecordingError(source, 1, f"format version {version} does not exist (the first is 1)")
    if version > FORMAT_VERSION:
        raise RecordingError(
            source,
            1,
            f"format version {version} is newer than this agentkit reads ({FORMAT_VERSION}); "
            "upgrade agentkit-fakes-cli",
        )


def read_header(line: str, source: str) -> _Header:
    """The first line: a JSON object holding the format version and the spawn's fields."""
    try:
        header = json.loads(line)
    except (ValueError, RecursionError):
        raise RecordingError(source, 1, "the header is not a JSON object") from None
    if not isinstance(header, dict) or MAGIC not in header:
        raise RecordingError(source, 1, f"no recording header (a JSON object with {MAGIC!r})")
    _version(header, source)
    cli = header.get("cli")
    if cli not in KNOWN_CLIS:
        raise RecordingError(source, 1, f"unknown CLI {cli!r}; known: {', '.join(KNOWN_CLIS)}")
    if "argv" not in header:
        raise RecordingError(source, 1, "argv must be a list of strings")
    argv = _strings(header, "argv", source)
    env_names = _strings(header, "env_names", source)
    cli_version, cwd, created_at = (
        _optional(header, key, source) for key in ("cli_version", "cwd", "created_at")
    )
    text = header.get("source", "")
    if not isinstance(text, str):
        raise RecordingError(source, 1, "source must be a string")
    return _Header(
        cli, argv, env_names, cli_version, cwd, created_at, text, _strings(header, "notes", source)
    )


class _Body:
    """The stream read from the lines between header and trailer."""

    __slots__ = ("interleaved", "stdin", "stdout")

    def __init__(self) -> None:
        self.stdout = bytearray()
        self.interleaved: list[tuple[int, bytes]] = []
        self.stdin: list[tuple[int, bytes]] = []

    def marker(self, marker: str, value: object, source: str, number: int) -> None:
        """A ``#stdout`` / ``#stderr`` / ``#stdin`` line's JSON string, put in its place."""
        data = decode(_string(value, source, number, marker))
        if marker == "#stdout":
            self.stdout += data
        elif marker == "#stderr":
            self.interleaved.append((len(self.stdout), data))
        else:
            self.stdin.append((len(self.stdout), data))

    def line(self, line: str, source: str, number: int) -> None:
        """A plain line: one JSON value the CLI wrote on stdout, kept verbatim."""
        try:
            json.loads(line)
        except (ValueError, RecursionError):
            raise RecordingError(
                source, number, "not a JSON line (raw stdout text belongs in a #stdout marker)"
            ) from None
        self.stdout += line.encode("utf-8")
        self.stdout += b"\n"


_STREAM_MARKERS = frozenset({"#stdout", "#stderr", "#stdin"})


def read_body(lines: Iterator[tuple[int, str]], source: str) -> tuple[_Body, dict[str, Any], int]:
    """The lines after the header up to and including ``#end``: the stream, the trailer, its line."""
    body = _Body()
    trailer: dict[str, Any] | None = None
    end_line = 1
    for number, line in lines:
        end_line = number
        if trailer is not None:
            raise RecordingError(source, number, "content after the #end line")
        if not line.startswith("#"):
            body.line(line, source, number)
            continue
        marker, _, rest = line.partition(" ")
        try:
            value = json.loads(rest)
        except (ValueError, RecursionError):
            raise RecordingError(source, number, f"{marker} needs a JSON value after it") from None
        if marker in _STREAM_MARKERS:
            body.marker(marker, value, source, number)
        elif marker != "#end":
            raise RecordingError(source, number, f"unknown marker {marker!r}")
        elif not isinstance(value, dict):
            raise RecordingError(source, number, "#end needs a JSON object")
        else:
            trailer = value
    if trailer is None:
        raise RecordingError(source, end_line, "truncated: no #end line (the file was cut short)")
    return body, trailer, end_line


def read_trailer(trailer: dict[str, Any], source: str, line: int) -> tuple[int, bytes]:
    """The ``#end`` object's exit code and the stderr written at exit."""
    exit_code = trailer.get("exit_code")
    if (
        isinstance(exit_code, bool)
        or not isinstance(exit_code, int)
        or not _EXIT_CODES[0] <= exit_code <= _EXIT_CODES[1]
    ):
        raise RecordingError(
            source,
            line,
            f"#end exit_code must be an int from {_EXIT_CODES[0]} to {_EXIT_CODES[1]}, "
            f"got {shown(exit_code)}",
        )
    return exit_code, decode(_string(trailer.get("stderr", ""), source, line, "#end stderr"))


def parse_recording(data: bytes, *, source: str = "<recording>") -> Recording:
    """Parse a recording's bytes; ``source`` names the file in errors.

    Line by line over the bytes, never the whole file as text or as a list
    of lines: a million-line file would cost the file several times over.
    """
    if not isinstance(data, bytes):
        raise TypeError(f"parse_recording takes bytes, got {type(data).__name__}")
    if not data:
        raise RecordingError(source, 1, "empty file: no recording header")
    if not data.endswith(b"\n"):
        raise RecordingError(
            source, data.count(b"\n") + 1, "truncated: the last line has no newline"
        )
    lines = _lines(data, source)
    header = read_header(next(lines)[1], source)
    body, trailer, end_line = read_body(lines, source)
    exit_code, stderr = read_trailer(trailer, source, end_line)
    run = CliRun(
        stdout=bytes(body.stdout),
        stderr=stderr,
        returncode=exit_code,
        interleaved_stderr=tuple(body.interleaved),
    )
    return Recording(
        cli=header.cli,
        argv=header.argv,
        run=run,
        cli_version=header.cli_version,
        cwd=header.cwd,
        env_names=header.env_names,
        stdin=tuple(body.stdin),
        created_at=header.created_at,
        source=header.source,
        notes=header.notes,
    )


def parse_file(data: bytes, *, source: str) -> Recording | None:
    """A file's bytes as a :class:`Recording`, or None when it is plain recorded stdout.

    The one place that tells the two kinds of file apart, so the doubles and
    ``show`` accept and refuse the same files: a recording is parsed whole,
    and anything else must pass :func:`check_plain_stdout` to count as stdout.
    """
    if is_recording(data):
        return parse_recording(data, source=source)
    check_plain_stdout(data, source)
    return None


def replay_recording(cli: str, data: bytes, *, source: str) -> tuple[CliRun, Recording | None]:
    """The run a double for ``cli`` replays from a file's bytes, and its recording if any.

    A recording replays whole (exit code, stderr and its positions); any
    other file is taken as plain recorded stdout, as before recordings
    existed, once :func:`check_plain_stdout` agrees it can be one. A
    recording of the other CLI is refused: replaying codex events into a
    claude double would fail deep inside the parser instead of here, where
    the file is named.
    """
    recording = parse_file(data, source=source)
    if recording is None:
        return CliRun(stdout=data), None
    if recording.cli != cli:
        raise RecordingError(
            source, 1, f"a recording of {recording.cli!r} cannot be replayed by a {cli} double"
        )
    return recording.run, recording


def check_plain_stdout(data: bytes, source: str) -> None:
    """Refuse a file that cannot be a CLI's recorded stdout, naming the file and line.

    A plain stdout recording is what ``--output-format stream-json`` /
    ``exec --json`` wrote: UTF-8, one JSON object per line. Accepting
    anything else -- a binary or UTF-16 file, a pretty-printed JSON document,
    an empty file -- would surface as ``incomplete_run`` at drive time, far
    from the file that caused it. Blank lines are allowed (a CLI may print
    one), and so is a final line without its newline that starts an object:
    a process killed mid-write. Raw text on stdout belongs in the recording
    format's ``#stdout`` marker, or in a run built with ``CliRun.of``.
    """
    if not data:
        raise RecordingError(
            source, 1, "empty file: not a recording (for an empty run use CliRun())"
        )
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or data[:2].count(b"\0") == 1:
        raise RecordingError(source, 1, "UTF-16 text: save the recording as UTF-8")
    if data.startswith(b"\xef\xbb\xbf"):
        raise RecordingError(source, 1, "starts with a UTF-8 byte-order mark: save it without one")
    nul = data.find(b"\0")
    if nul != -1:
        at = data.count(b"\n", 0, nul) + 1
        raise RecordingError(source, at, f"binary data (a NUL byte at offset {nul})")
    # Line by line, each line's bytes decoded and parsed on their own: a whole-file
    # decode or split would hold a second and third copy of a recording that may be
    # tens of megabytes.
    for number, start, end in _line_spans(data):
        line = data[start:end]
        if not line.strip():
            continue
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordingError(source, number, f"not UTF-8 (byte {start + exc.start})") from None
        if end == len(data):  # no newline after it: a process killed mid-object
            if text.lstrip().startswith("{"):
                continue
            raise RecordingError(
                source, number, "the last line is neither a JSON object nor the start of one"
            )
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            value = None
        if not isinstance(value, dict):
            hint = (
                " (pretty-printed JSON? a recording is one JSON object per line)"
                if line.strip() in (b"{", b"[")
                else ""
            )
            raise RecordingError(source, number, f"not a JSON object line{hint}")


def _line_spans(data: bytes) -> Iterator[tuple[int, int, int]]:
    """``(line number, start, end)`` of each line of ``data``, the newline left out."""
    start, number = 0, 1
    while start < len(data):
        end = data.find(b"\n", start)
        if end == -1:
            yield number, start, len(data)
            return
        yield number, start, end
        start, number = end + 1, number + 1
