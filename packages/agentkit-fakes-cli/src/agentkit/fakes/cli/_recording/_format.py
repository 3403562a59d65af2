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
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.fakes.cli._run import CliRun

__all__ = [
    "FORMAT_VERSION",
    "KNOWN_CLIS",
    "MAGIC",
    "Recording",
    "check_cli",
    "decode",
    "is_recording",
    "stream_parts",
]

FORMAT_VERSION = 1
"""The format version this module writes, and the newest it reads."""

KNOWN_CLIS = ("claude", "codex")
"""The CLIs a recording may be of: the ones agentkit has a cognition and a double for."""

MAGIC = "agentkit_recording"
"""The header's key whose value is the format version: what makes a file a recording."""


def check_cli(cli: object, where: str) -> Literal["claude", "codex"]:
    """``cli`` if it is one of :data:`KNOWN_CLIS`; else a typed error naming the ``cli`` argument."""
    if not isinstance(cli, str):
        raise ArgumentTypeError(where, "cli", f"one of {KNOWN_CLIS}", cli)
    if cli not in KNOWN_CLIS:
        raise ArgumentValueError(where, "cli", f"one of {KNOWN_CLIS}", cli)
    return cast(Literal["claude", "codex"], cli)


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


def decode(text: str) -> bytes:
    """A JSON string of the file back to the bytes it stands for (surrogate escapes included)."""
    return text.encode("utf-8", "surrogateescape")


def _pairs(value: object, what: str) -> tuple[tuple[int, bytes], ...]:
    expected = "a sequence of (int stdout_offset, bytes) pairs"
    if not isinstance(value, tuple | list):
        raise ArgumentTypeError("Recording", what, expected, value)
    out: list[tuple[int, bytes]] = []
    for index, entry in enumerate(value):
        if (
            not isinstance(entry, tuple | list)
            or len(entry) != 2
            or isinstance(entry[0], bool)
            or not isinstance(entry[0], int)
            or not isinstance(entry[1], bytes)
        ):
            raise ArgumentTypeError("Recording", f"{what}[{index}]", "an (int, bytes) pair", entry)
        out.append((entry[0], entry[1]))
    return tuple(out)


def _texts(value: object, what: str) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, tuple | list):
        raise ArgumentTypeError("Recording", what, "a sequence of str", value)
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise ArgumentTypeError("Recording", f"{what}[{index}]", "a str", item)
    return tuple(value)


@dataclass(frozen=True, slots=True)
class Recording:
    """One spawn of a real CLI: what it was asked and everything it did.

    ``run`` is what a double replays (stdout, stderr at exit, exit code,
    stderr chunks placed in the stdout stream). ``stdin`` holds
    ``(stdout_offset, bytes)`` pairs -- what the caller wrote and when,
    measured in stdout bytes the CLI had written by then -- so a replay can
    check a session's messages one by one. ``env_names`` are names only:
    values are never stored, because that is where API keys live; and only
    the names the run set (not those it inherited: they are the recording
    machine's, not the run's).
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
        check_cli(self.cli, "Recording")
        object.__setattr__(self, "argv", _texts(self.argv, "argv"))
        run: object = self.run
        if not isinstance(run, CliRun):
            raise ArgumentTypeError("Recording", "run", "a CliRun", run)
        object.__setattr__(
            self, "env_names", tuple(sorted(set(_texts(self.env_names, "env_names"))))
        )
        stdin = _pairs(self.stdin, "stdin")
        previous = 0
        for offset, _ in stdin:
            if not previous <= offset <= len(self.run.stdout):
                raise ArgumentValueError(
                    "Recording",
                    "stdin",
                    "offsets in order, each within stdout",
                    offset,
                    f"stdout is {len(self.run.stdout)} bytes",
                )
            previous = offset
        object.__setattr__(self, "stdin", stdin)
        for name in ("cli_version", "cwd", "created_at"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise ArgumentTypeError("Recording", name, "a str or None", value)
        if not isinstance(self.source, str):
            raise ArgumentTypeError("Recording", "source", "a str", self.source)
        object.__setattr__(self, "notes", _texts(self.notes, "notes"))

    @property
    def stdin_messages(self) -> tuple[bytes, ...]:
        """What was written to stdin, one entry per write, in order."""
        return tuple(data for _, data in self.stdin)

    def dumps(self) -> bytes:
        """The file's bytes. Deterministic: the same recording gives the same bytes."""
        header: dict[str, Any] = {
            MAGIC: FORMAT_VERSION,
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
    end = data.find(b"\n")
    first = data if end == -1 else data[:end]  # split() would copy the rest as well
    if MAGIC.encode() not in first:
        return False
    try:
        header = json.loads(first.decode("utf-8"))
    except (ValueError, RecursionError):
        return False
    return isinstance(header, dict) and MAGIC in header
