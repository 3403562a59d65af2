"""The last gate before a recording is written: nothing still shaped like a secret.

Scrubbing replaces what it knows; the gate checks what is about to reach
the disk, whoever built it (a capture, a hand-made :class:`Recording`, a
loaded file edited and saved again). It looks for the same things the
scrubber replaces -- every shape in :data:`~agentkit.core._internal.secrets.SHAPES`
and every form of every secret value in this process's environment -- so a
recording the scrubber made passes by construction, and anything else that
does not is refused before it is written.

A finding names the line, the place in it (a header field, a marker) and
the kind of secret, never the value: the error message itself ends up in CI
logs.
"""

from __future__ import annotations

import bisect
import json
import os
from collections.abc import Iterable, Iterator, Mapping
from typing import NamedTuple

from agentkit.core._internal.arguments import ArgumentTypeError
from agentkit.core._internal.secrets import SHAPES, KnownValues, Text, matches
from agentkit.fakes.cli._recording._errors import RecordingError
from agentkit.fakes.cli._recording._scrub import known_values

__all__ = ["RecordingSecretError", "SecretFinding", "check_no_secrets", "find_secrets"]


class SecretFinding(NamedTuple):
    """Something in a file shaped like a secret: where it is and what kind, never the value."""

    line: int
    """1-based line of the file."""
    where: str
    """The place in the line: ``header field 'argv'``, ``#stderr``, ``stdout``."""
    kind: str
    """What it looks like (``GitHub token``) or whose value it is (``the value of $API_KEY``)."""

    def __str__(self) -> str:
        return f"line {self.line} ({self.where}): {self.kind}"


class RecordingSecretError(RecordingError):
    """A recording refused because something in it is still shaped like a secret.

    ``findings`` lists each one (line, place, kind; never the value). Scrub
    it (``CapturingSpawn(scrub=...)``, ``record --scrub``) or, for a value
    that only looks like a secret (a documented example key), pass
    ``allow_secrets=True`` to :func:`~agentkit.fakes.cli.save_recording`.
    """

    __module__ = "agentkit.fakes.cli"  # where it is exported, as for RecordingError

    def __init__(self, source: str, findings: Iterable[SecretFinding]) -> None:
        self.findings = tuple(findings)
        listed = "; ".join(str(f) for f in self.findings[:20])
        more = f"; and {len(self.findings) - 20} more" if len(self.findings) > 20 else ""
        super().__init__(
            source,
            self.findings[0].line if self.findings else 0,
            f"{len(self.findings)} thing(s) shaped like a secret: {listed}{more} "
            "(scrub them, or allow_secrets=True if they are not secrets)",
        )

    def __reduce__(  # type: ignore[override]
        self,
    ) -> tuple[type[RecordingSecretError], tuple[str, tuple[SecretFinding, ...]]]:
        return (type(self), (self.source, self.findings))


def _spans(data: bytes, known: KnownValues) -> Iterator[tuple[int, str]]:
    """``(start, kind)`` of each secret; one kind per secret, the most telling one.

    An AWS key in ``"key": "AKIA..."`` is both a key shape and a secret-named
    field: it is reported once, as the shape (the list's order is the
    preference order, known values first).
    """
    found: list[tuple[int, int, int, str]] = []
    for match in known.finditer(data):
        found.append((match.start(), 0, match.end(), f"the value of ${known.name_of(match)}"))
    text = Text(data)
    for rank, shape in enumerate(SHAPES, start=1):
        for start, end in matches(shape, text):
            found.append((start, rank, end, shape.kind))
    reach = -1
    for start, _, end, kind in sorted(found):
        if start >= reach:
            yield start, kind
        reach = max(reach, end)


def _place(line: bytes) -> str:
    if line.startswith(b"#"):
        return line.split(b" ", 1)[0].decode("utf-8", "replace")[:20]
    return "stdout"


def _header_fields(line: bytes, known: KnownValues) -> Iterator[tuple[str, str]]:
    try:
        header = json.loads(line)
    except (ValueError, RecursionError):
        header = None
    if not isinstance(header, dict):
        for _, kind in _spans(line, known):
            yield "header", kind
        return
    for key, value in header.items():
        try:
            text = json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogateescape")
        except (ValueError, RecursionError):
            text = b""
        for _, kind in _spans(text, known):
            yield f"header field {key!r}", kind


def find_secrets(data: bytes, *, environ: Mapping[str, str] | None = None) -> list[SecretFinding]:
    """Everything in ``data`` (a recording file's bytes, or any text file) shaped like a secret.

    ``environ`` (default: this process's environment) supplies the secret
    values known by name, as the scrubber uses them.
    """
    if not isinstance(data, bytes):
        raise ArgumentTypeError("find_secrets", "data", "bytes (a file's contents)", data)
    if environ is None:
        environ = os.environ
    elif not isinstance(environ, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in environ.items()
    ):
        raise ArgumentTypeError("find_secrets", "environ", "a mapping of str to str", environ)
    known = known_values((environ,))
    starts = [0]
    position = data.find(b"\n")
    while position != -1:
        starts.append(position + 1)
        position = data.find(b"\n", position + 1)
    found: dict[tuple[int, str, str], None] = {}
    header_done = False
    is_recording = (
        data.startswith(b"{")
        and b"agentkit_recording" in data[: starts[1] if len(starts) > 1 else len(data)]
    )
    for start, kind in _spans(data, known):
        number = bisect.bisect_right(starts, start)
        line_start = starts[number - 1]
        line_end = data.find(b"\n", line_start)
        line = data[line_start : line_end if line_end != -1 else len(data)]
        if number == 1 and is_recording:
            if not header_done:
                header_done = True
                for where, field_kind in _header_fields(line, known):
                    found[(1, where, field_kind)] = None
            continue
        found[(number, _place(line), kind)] = None
    return [SecretFinding(*key) for key in found]


def check_no_secrets(data: bytes, source: str) -> None:
    """Raise :class:`RecordingSecretError` naming every finding in ``data``, if there is one."""
    findings = find_secrets(data)
    if findings:
        raise RecordingSecretError(source, findings)
