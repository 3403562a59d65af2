"""The recording file format: one spawn of a real CLI, whole, in a file a person can diff.

Why not plain stdout ``.jsonl``: a stdout-only file drops the exit code and
stderr, so a recorded HTTP 529 failure replays as exit 0 with nothing on
stderr -- the opposite of what happened. Why not one JSON document: a CLI's
output is a stream of JSON lines, and a reviewer reading a ``--refresh`` diff
wants to see exactly which event changed, line by line.

Layout (UTF-8, ``\\n``-separated)::

    {"agentkit_recording": 1, "cli": "claude", "argv": [...], ...}   <- header
    {"type":"system",...}                                            <- stdout line, verbatim
    #stderr "warning: ...\\n"                                        <- stderr chunk, here in the stream
    #stdin "{\\"type\\":\\"user\\",...}\\n"                              <- what was written to stdin, here
    #stdout "not json\\n"                                            <- stdout bytes that are not a JSON line
    #end {"exit_code": 1, "stderr": "..."}                          <- trailer: exit code, stderr at exit

A stdout line that is itself a JSON value (and does not start with ``#``) is
written as it came; anything else -- plain-text warnings, a blank line, an
unterminated tail, bytes that are not UTF-8 -- goes in a ``#stdout`` marker
as a JSON string (non-UTF-8 bytes survive as surrogate escapes), so
``save -> load`` gives back the very bytes. The ``#end`` trailer is written
last, so a file cut short is detected rather than replayed as a clean run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

from agentkit.core.arguments import ArgumentTypeError, ArgumentValueError, hide_argument_errors
from agentkit.core.failures import kit_failure
from agentkit.fakes.cli._run import CliRun

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "FORMAT_VERSION",
    "KNOWN_CLIS",
    "Recording",
    "RecordingError",
    "check_cli",
    "check_plain_stdout",
    "is_recording",
    "load_recording",
    "parse_file",
    "parse_recording",
    "replay_recording",
    "save_recording",
    "stream_parts",
]

FORMAT_VERSION = 1
"""The format version this module writes, and the newest it reads."""

KNOWN_CLIS = ("claude", "codex")
"""The CLIs a recording may be of: the ones agentkit has a cognition and a double for."""

__tracebackhide__ = hide_argument_errors


def check_cli(cli: object, where: str) -> Literal["claude", "codex"]:
    """``cli`` if it is one of :data:`KNOWN_CLIS`; else a typed error naming the ``cli`` argument."""
    if not isinstance(cli, str):
        raise ArgumentTypeError(where, "cli", f"one of {KNOWN_CLIS}", cli)
    if cli not in KNOWN_CLIS:
        raise ArgumentValueError(where, "cli", f"one of {KNOWN_CLIS}", cli)
    return cast(Literal["claude", "codex"], cli)


_MAGIC = "agentkit_recording"


@kit_failure
class RecordingError(ValueError):
    """A recording file that cannot be loaded: names the file and the 1-based line.

    Raised at load, not at replay, so a bad fixture fails where it is named
    rather than three layers down inside a cognition's error handling.
    """

    def __init__(self, source: str, line: int, problem: str) -> None:
        self.source = source
        self.line = line
        """1-based; 0 when the problem is the file as a whole (missing, a FIFO, ...)."""
        self.problem = problem
        super().__init__(f"{source}:{line}: {problem}" if line else f"{source}: {problem}")

    def __reduce__(self) -> tuple[type[RecordingError], tuple[str, int, str]]:
        return (type(self), (self.source, self.line, self.problem))


_EXIT_CODES = (-(2**31), 2**32 - 1)
"""Every exit status a process can report: a signal as a negative number, or a
Windows status (a 32-bit unsigned value); anything past them is a damaged file."""


def _shown(value: object) -> str:
    """``value`` for an error message, cut short: a damaged file may hold a megabyte there."""
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:60]}... ({len(text)} chars)"


def _enc(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def _quote(data: bytes) -> str:
    """``data`` as a JSON string: readable UTF-8, or ``\\udcXX`` escapes for bytes that are not."""
    text = _enc(data)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(text, ensure_ascii=True)
    return json.dumps(text, ensure_ascii=False)


def _dec(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _pairs(value: object, what: str) -> tuple[tuple[int, bytes], ...]:
    out: list[tuple[int, bytes]] = []
    if not isinstance(value, tuple | list):
        raise TypeError(f"Recording.{what} must be a sequence of (stdout_offset, bytes)")
    for entry in value:
        if (
            not isinstance(entry, tuple | list)
            or len(entry) != 2
            or isinstance(entry[0], bool)
            or not isinstance(entry[0], int)
            or not isinstance(entry[1], bytes)
        ):
            raise TypeError(
                f"Recording.{what} entries are (int stdout_offset, bytes), got {entry!r}"
            )
        out.append((entry[0], entry[1]))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Recording:
    """One spawn of a real CLI: what it was asked and everything it did.

    ``run`` is what a double replays (stdout, stderr at exit, exit code,
    stderr chunks placed in the stdout stream). ``stdin`` holds
    ``(stdout_offset, bytes)`` pairs -- what the caller wrote and when,
    measured in stdout bytes the CLI had written by then -- so a replay can
    check a session's messages one by one. ``env_names`` are names only:
    values are never stored, because that is where API keys live.
    ``source`` says how the recording was made (the command, the mock
    scenario, or where converted data came from), because a fixture whose
    origin nobody can tell is a fixture nobody dares to refresh. ``notes``
    say what the capture left out (the cut part of a line over the reader's
    limit, stderr past what a recording keeps), so a replay that differs
    from the real run says why.
    """

    cli: str
    argv: tuple[str, ...]
    run: CliRun = field(default_factory=CliRun)
    cli_version: str | None = None
    cwd: str | None = None
    env_names: tuple[str, ...] = ()
    stdin: tuple[tuple[int, bytes], ...] = ()
    created_at: str | None = None
    source: str = ""
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.cli not in KNOWN_CLIS:
            raise ValueError(f"Recording.cli must be one of {KNOWN_CLIS}, got {self.cli!r}")
        argv: object = self.argv
        if isinstance(argv, str) or not all(isinstance(a, str) for a in self.argv):
            raise TypeError("Recording.argv must be a sequence of str")
        object.__setattr__(self, "argv", tuple(self.argv))
        run: object = self.run
        if not isinstance(run, CliRun):
            raise TypeError(f"Recording.run must be a CliRun, got {type(self.run).__name__}")
        env_names: object = self.env_names
        if isinstance(env_names, str) or not all(isinstance(n, str) for n in self.env_names):
            raise TypeError("Recording.env_names must be a sequence of str")
        object.__setattr__(self, "env_names", tuple(sorted(set(self.env_names))))
        stdin = _pairs(self.stdin, "stdin")
        previous = 0
        for offset, _ in stdin:
            if not previous <= offset <= len(self.run.stdout):
                raise ValueError(
                    f"Recording.stdin offset {offset} is out of order or outside stdout"
                )
            previous = offset
        object.__setattr__(self, "stdin", stdin)
        for name in ("cli_version", "cwd", "created_at"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise TypeError(f"Recording.{name} must be a str or None")
        if not isinstance(self.source, str):
            raise TypeError("Recording.source must be a str")
        notes: object = self.notes
        if isinstance(notes, str) or not all(isinstance(n, str) for n in self.notes):
            raise TypeError("Recording.notes must be a sequence of str")
        object.__setattr__(self, "notes", tuple(self.notes))

    @property
    def stdin_messages(self) -> tuple[bytes, ...]:
        """What was written to stdin, one entry per write, in order."""
        return tuple(data for _, data in self.stdin)

    def dumps(self) -> bytes:
        """The file's bytes. Deterministic: the same recording gives the same bytes."""
        header: dict[str, Any] = {
            _MAGIC: FORMAT_VERSION,
            "cli": self.cli,
            "cli_version": self.cli_version,
            "created_at": self.created_at,
            "source": self.source,
            "argv": list(self.argv),
            "cwd": self.cwd,
            "env_names": list(self.env_names),
        }
        if self.notes:
            header["notes"] = list(self.notes)
        lines = [json.dumps(header, ensure_ascii=False)]
        lines.extend(_body_lines(self))
        lines.append(
            f'#end {{"exit_code": {self.run.returncode}, "stderr": {_quote(self.run.stderr)}}}'
        )
        return ("\n".join(lines) + "\n").encode("utf-8")


def _stdout_lines(segment: bytes) -> Iterator[str]:
    for piece in segment.splitlines(keepends=True):
        if piece.endswith(b"\n") and not piece.startswith(b"#"):
            text = piece[:-1]
            if b"\r" not in text and text.strip() == text and text:
                try:
                    json.loads(text.decode("utf-8"))
                except (ValueError, RecursionError):
                    pass
                else:
                    yield text.decode("utf-8")
                    continue
        yield "#stdout " + _quote(piece)


def stream_parts(rec: Recording) -> Iterator[tuple[str, bytes]]:
    """The spawn's stream in the order it happened, as ``(kind, bytes)``.

    ``kind`` is ``"stdout"`` for the stdout bytes between two marks, or
    ``"stdin"`` / ``"stderr"`` for one write or chunk at its stdout offset.
    At one offset the stdin writes come first, then the stderr chunks, each
    kind in its own order. The file format and ``show`` both walk the
    stream this way, so they cannot disagree on where a mark sits.
    """
    stdout = rec.run.stdout
    marks = [(offset, 0, "stdin", data) for offset, data in rec.stdin]
    marks.extend((offset, 1, "stderr", data) for offset, data in rec.run.interleaved_stderr)
    marks.sort(key=lambda m: (m[0], m[1]))  # stable: each kind keeps its order
    position = 0
    for offset, _, kind, data in marks:
        if offset > position:
            yield "stdout", stdout[position:offset]
            position = offset
        yield kind, data
    if position < len(stdout):
        yield "stdout", stdout[position:]


def _body_lines(rec: Recording) -> Iterator[str]:
    for kind, data in stream_parts(rec):
        if kind == "stdout":
            yield from _stdout_lines(data)
        else:
            yield f"#{kind} " + _quote(data)


def is_recording(data: bytes) -> bool:
    """True when ``data`` starts with a recording header (else it is plain stdout)."""
    first = data.split(b"\n", 1)[0]
    if _MAGIC.encode() not in first:
        return False
    try:
        header = json.loads(first.decode("utf-8"))
    except (ValueError, RecursionError):
        return False
    return isinstance(header, dict) and _MAGIC in header


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


def parse_recording(data: bytes, *, source: str = "<recording>") -> Recording:
    """Parse a recording's bytes; ``source`` names the file in errors."""
    if not isinstance(data, bytes):
        raise TypeError(f"parse_recording takes bytes, got {type(data).__name__}")
    if not data:
        raise RecordingError(source, 1, "empty file: no recording header")
    if not data.endswith(b"\n"):
        raise RecordingError(
            source, data.count(b"\n") + 1, "truncated: the last line has no newline"
        )
    # Line by line over the bytes, never the whole file as text or as a list of
    # lines: a million-line file would cost the file several times over.
    lines = _lines(data, source)
    _, first = next(lines)
    try:
        header = json.loads(first)
    except (ValueError, RecursionError):
        raise RecordingError(source, 1, "the header is not a JSON object") from None
    if not isinstance(header, dict) or _MAGIC not in header:
        raise RecordingError(source, 1, f"no recording header (a JSON object with {_MAGIC!r})")
    version = header[_MAGIC]
    if isinstance(version, bool) or not isinstance(version, int):
        raise RecordingError(source, 1, f"format version must be an int, got {_shown(version)}")
    if version < 1:
        raise RecordingError(source, 1, f"format version {version} does not exist (the first is 1)")
    if version > FORMAT_VERSION:
        raise RecordingError(
            source,
            1,
            f"format version {version} is newer than this agentkit reads ({FORMAT_VERSION}); "
            "upgrade agentkit-fakes-cli",
        )
    cli = header.get("cli")
    if cli not in KNOWN_CLIS:
        raise RecordingError(source, 1, f"unknown CLI {cli!r}; known: {', '.join(KNOWN_CLIS)}")
    argv = header.get("argv")
    if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
        raise RecordingError(source, 1, "argv must be a list of strings")
    env_names = header.get("env_names", [])
    if not isinstance(env_names, list) or not all(isinstance(n, str) for n in env_names):
        raise RecordingError(source, 1, "env_names must be a list of strings")
    optional: dict[str, str | None] = {}
    for key in ("cli_version", "cwd", "created_at"):
        value = header.get(key)
        if value is not None and not isinstance(value, str):
            raise RecordingError(source, 1, f"{key} must be a string or null")
        optional[key] = value
    source_text = header.get("source", "")
    if not isinstance(source_text, str):
        raise RecordingError(source, 1, "source must be a string")
    notes = header.get("notes", [])
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        raise RecordingError(source, 1, "notes must be a list of strings")

    stdout = bytearray()
    interleaved: list[tuple[int, bytes]] = []
    stdin: list[tuple[int, bytes]] = []
    trailer: dict[str, Any] | None = None
    end_line = 1
    for number, line in lines:
        end_line = number
        if trailer is not None:
            raise RecordingError(source, number, "content after the #end line")
        if line.startswith("#"):
            marker, _, rest = line.partition(" ")
            try:
                value = json.loads(rest)
            except (ValueError, RecursionError):
                raise RecordingError(
                    source, number, f"{marker} needs a JSON value after it"
                ) from None
            if marker == "#stdout":
                stdout += _dec(_string(value, source, number, marker))
            elif marker == "#stderr":
                interleaved.append((len(stdout), _dec(_string(value, source, number, marker))))
            elif marker == "#stdin":
                stdin.append((len(stdout), _dec(_string(value, source, number, marker))))
            elif marker == "#end":
                if not isinstance(value, dict):
                    raise RecordingError(source, number, "#end needs a JSON object")
                trailer = value
            else:
                raise RecordingError(source, number, f"unknown marker {marker!r}")
            continue
        try:
            json.loads(line)
        except (ValueError, RecursionError):
            raise RecordingError(
                source, number, "not a JSON line (raw stdout text belongs in a #stdout marker)"
            ) from None
        stdout += line.encode("utf-8")
        stdout += b"\n"
    if trailer is None:
        raise RecordingError(source, end_line, "truncated: no #end line (the file was cut short)")
    exit_code = trailer.get("exit_code")
    if (
        isinstance(exit_code, bool)
        or not isinstance(exit_code, int)
        or not _EXIT_CODES[0] <= exit_code <= _EXIT_CODES[1]
    ):
        raise RecordingError(
            source,
            end_line,
            f"#end exit_code must be an int from {_EXIT_CODES[0]} to {_EXIT_CODES[1]}, "
            f"got {_shown(exit_code)}",
        )
    stderr = _dec(_string(trailer.get("stderr", ""), source, end_line, "#end stderr"))
    run = CliRun(
        stdout=bytes(stdout),
        stderr=stderr,
        returncode=exit_code,
        interleaved_stderr=tuple(interleaved),
    )
    return Recording(
        cli=cli,
        argv=tuple(argv),
        run=run,
        cli_version=optional["cli_version"],
        cwd=optional["cwd"],
        env_names=tuple(env_names),
        stdin=tuple(stdin),
        created_at=optional["created_at"],
        source=source_text,
        notes=tuple(notes),
    )


def load_recording(path: Path | str) -> Recording:
    """Read and parse a recording file; errors name the path and line."""
    from agentkit.fakes.cli._files import read_recording_file

    if not isinstance(path, str | os.PathLike):
        raise ArgumentTypeError("load_recording", "path", "a file path (str or PathLike)", path)
    return parse_recording(read_recording_file("load_recording", path), source=os.fspath(path))


def save_recording(recording: Recording, path: Path | str, *, allow_secrets: bool = False) -> Path:
    """Write ``recording`` to ``path`` (parents created); returns the path.

    The last gate first: if anything in the file about to be written is
    still shaped like a secret (a key shape, the value of a secret-named
    variable in this environment), nothing is written and
    :class:`~agentkit.fakes.cli.RecordingSecretError` lists each finding --
    line, place and kind, never the value. ``allow_secrets=True`` writes
    anyway, for a value that only looks like a secret (a documented example
    key in a fixture).
    """
    if not isinstance(recording, Recording):
        raise TypeError(f"save_recording takes a Recording, got {type(recording).__name__}")
    if not isinstance(allow_secrets, bool):
        raise ArgumentTypeError("save_recording", "allow_secrets", "a bool", allow_secrets)
    from pathlib import Path  # pathlib brings urllib.parse and ipaddress: paid on save only

    target = Path(path)
    data = recording.dumps()
    if not allow_secrets:
        from agentkit.fakes.cli._gate import check_no_secrets

        check_no_secrets(data, os.fspath(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return target


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
    an empty file -- used to surface as ``incomplete_run`` at drive time, far
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
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        at = data.count(b"\n", 0, exc.start) + 1
        raise RecordingError(source, at, f"not UTF-8 (byte {exc.start})") from None
    lines = data.split(b"\n")
    last = len(lines) - 1
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if number - 1 == last:  # no newline after it: a process killed mid-object
            if line.lstrip().startswith(b"{"):
                continue
            raise RecordingError(
                source, number, "the last line is neither a JSON object nor the start of one"
            )
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):
            value = None
        if not isinstance(value, dict):
            hint = (
                " (pretty-printed JSON? a recording is one JSON object per line)"
                if line.strip() in (b"{", b"[")
                else ""
            )
            raise RecordingError(source, number, f"not a JSON object line{hint}")
