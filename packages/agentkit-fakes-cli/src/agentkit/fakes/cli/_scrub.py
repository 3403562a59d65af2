"""Scrubbing secrets out of a captured spawn before it reaches a file.

A recording is meant to be committed next to the tests that replay it, so
whatever the real CLI saw -- the API key in its environment, a token passed
on the command line, the key echoed back in an error, the user's home
directory in every path -- must not survive into it. Scrubbing is on by
default and cannot be turned off, only extended: a capture tool that leaks a
key once is a capture tool nobody can use.

What is replaced, in argv, cwd, stdin, stdout and stderr alike:

* the VALUES of environment variables whose names say they hold a secret
  (``KEY``, ``TOKEN``, ``SECRET``, ``PASSWORD``, ``PASSWD``, ``AUTH``,
  ``CREDENTIAL``, ``COOKIE``, ``PRIVATE`` anywhere in the name), from the
  spawn's ``env`` and from this process's environment (which a child
  inherits). Values under 8 characters are left alone: ``AUTH_MODE=true``
  replaced everywhere would corrupt every JSON ``true`` in the output, and
  no real key is that short;
* well-known key shapes: Anthropic (``sk-ant-...``), OpenAI (``sk-...``,
  ``sk-proj-...``), GitHub (``ghp_...``, ``github_pat_...``), AWS access key
  ids (``AKIA...``), Slack (``xox?-...``), Google (``AIza...``), JSON Web
  Tokens, and the credential after ``Bearer`` / ``Basic``;
* the user's home directory, replaced by ``~``;
* the caller's own ``scrub`` patterns (a str is matched literally, an
  ``re.Pattern`` as a regular expression).

Scrubbing runs over bytes, so output that is not UTF-8 is scrubbed too, and
it reports where it changed the text so that a stderr chunk or a stdin write
placed at a stdout offset stays at the same point of the stream.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence

from agentkit.core.arguments import ArgumentTypeError, ArgumentValueError, hide_argument_errors

__all__ = ["REDACTED", "SECRET_NAME_PARTS", "Scrubber"]

__tracebackhide__ = hide_argument_errors

REDACTED = b"[REDACTED]"
"""What a secret is replaced with: plain ASCII, so a scrubbed JSON line stays valid JSON."""

SECRET_NAME_PARTS = (
    "KEY",
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "AUTH",
    "CREDENTIAL",
    "COOKIE",
    "PRIVATE",
)
"""An environment variable whose name contains one of these holds a secret."""

_MIN_SECRET = 8

_KEY_SHAPES: tuple[re.Pattern[bytes], ...] = (
    re.compile(rb"sk-ant-[A-Za-z0-9_\-]{8,}"),
    re.compile(rb"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{16,}"),
    re.compile(rb"gh[pousr]_[A-Za-z0-9]{20,}"),
    re.compile(rb"github_pat_[A-Za-z0-9_]{20,}"),
    re.compile(rb"\bAKIA[0-9A-Z]{16}\b"),
    re.compile(rb"xox[abprs]-[A-Za-z0-9\-]{10,}"),
    re.compile(rb"AIza[0-9A-Za-z_\-]{35}"),
    re.compile(rb"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
    re.compile(rb"(?<=Bearer )[A-Za-z0-9._~+/\-]{12,}=*"),
    re.compile(rb"(?<=Basic )[A-Za-z0-9+/]{12,}=*"),
)

Span = tuple[int, int, int]
"""A replacement: old start, old end, new length."""


def is_secret_name(name: str) -> bool:
    upper = name.upper()
    return any(part in upper for part in SECRET_NAME_PARTS)


def _user_pattern(pattern: object, index: int) -> re.Pattern[bytes]:
    where, argument = "CapturingSpawn", f"scrub[{index}]"
    expected = "a non-empty str or an re.Pattern"
    if isinstance(pattern, str):
        if not pattern:
            raise ArgumentValueError(where, argument, expected, pattern)
        return re.compile(re.escape(pattern.encode("utf-8", "surrogateescape")))
    if isinstance(pattern, re.Pattern):
        source: object = pattern.pattern
        if isinstance(source, bytes):
            compiled: re.Pattern[bytes] = pattern
        else:
            assert isinstance(source, str)
            try:
                compiled = re.compile(
                    source.encode("utf-8", "surrogateescape"), pattern.flags & ~re.UNICODE
                )
            except re.error as exc:
                raise ArgumentValueError(
                    where, argument, "a pattern that also compiles over bytes", pattern, str(exc)
                ) from None
        if compiled.match(b""):
            raise ArgumentValueError(
                where, argument, "a pattern that does not match the empty string", pattern
            )
        return compiled
    raise ArgumentTypeError(where, argument, expected, pattern)


def _home_pattern(homes: Iterable[str]) -> re.Pattern[bytes] | None:
    paths = sorted(
        {os.fsencode(h).rstrip(b"/") for h in homes if h and h.strip("/")},
        key=len,
        reverse=True,
    )
    if not paths:
        return None
    alternatives = b"|".join(re.escape(p) for p in paths)
    # Not a prefix of a longer name: /home/al must not eat /home/alice.
    return re.compile(rb"(?:" + alternatives + rb")(?![A-Za-z0-9_.\-])")


class Scrubber:
    """Replaces every secret the rules above find; built once per spawn."""

    __slots__ = ("_home", "_patterns")

    def __init__(
        self,
        *,
        env: Mapping[str, str] | None,
        extra: Sequence[re.Pattern[bytes]] = (),
    ) -> None:
        secrets: set[bytes] = set()
        homes = {os.path.expanduser("~")}
        for source in (os.environ, env or {}):
            for name, value in source.items():
                if name == "HOME":
                    homes.add(value)
                if is_secret_name(name) and len(value) >= _MIN_SECRET:
                    secrets.add(os.fsencode(value))
        literal: list[re.Pattern[bytes]] = []
        if secrets:
            ordered = sorted(secrets, key=len, reverse=True)
            literal.append(re.compile(b"|".join(re.escape(s) for s in ordered)))
        self._patterns: tuple[re.Pattern[bytes], ...] = (*literal, *_KEY_SHAPES, *extra)
        self._home = _home_pattern(homes)

    @staticmethod
    def compile_user_patterns(patterns: object) -> tuple[re.Pattern[bytes], ...]:
        """The caller's ``scrub=`` argument, checked and compiled for bytes."""
        if isinstance(patterns, str | bytes | re.Pattern) or not isinstance(patterns, Iterable):
            raise ArgumentTypeError(
                "CapturingSpawn", "scrub", "a sequence of str or re.Pattern", patterns
            )
        return tuple(_user_pattern(p, i) for i, p in enumerate(patterns))

    def _passes(self) -> Iterable[tuple[re.Pattern[bytes], bytes]]:
        for pattern in self._patterns:
            yield pattern, REDACTED
        if self._home is not None:
            yield self._home, b"~"

    def data(self, data: bytes) -> bytes:
        """``data`` with every secret replaced."""
        for pattern, replacement in self._passes():
            data = pattern.sub(replacement, data)
        return data

    def text(self, value: str) -> str:
        return self.data(value.encode("utf-8", "surrogateescape")).decode(
            "utf-8", "surrogateescape"
        )

    def stream(self, data: bytes, offsets: Sequence[int]) -> tuple[bytes, list[int]]:
        """Scrub a stream and move ``offsets`` (positions in it) along with the text.

        An offset inside a replaced secret moves to the end of its replacement:
        the chunk placed there was written after the whole secret was.
        """
        moved = list(offsets)
        for pattern, replacement in self._passes():
            spans: list[Span] = []
            pieces: list[bytes] = []
            position = 0
            for match in pattern.finditer(data):
                start, end = match.span()
                if start == end:
                    continue
                pieces.append(data[position:start])
                pieces.append(replacement)
                spans.append((start, end, len(replacement)))
                position = end
            if not spans:
                continue
            pieces.append(data[position:])
            data = b"".join(pieces)
            moved = [_move(offset, spans) for offset in moved]
        return data, moved


def _move(offset: int, spans: Sequence[Span]) -> int:
    shift = 0
    for start, end, size in spans:
        if end <= offset:
            shift += size - (end - start)
        elif start < offset:
            return start + shift + size
        else:
            break
    return offset + shift
