"""Scrubbing secrets out of a captured spawn before it reaches a file.

A recording is meant to be committed next to the tests that replay it, so
whatever the real CLI saw -- the API key in its environment, a token passed
on the command line, the key echoed back in an error, the user's home
directory in every path -- must not survive into it. Scrubbing is on by
default and cannot be turned off, only extended: a capture tool that leaks a
key once is a capture tool nobody can use.

What is replaced by ``[REDACTED]``, in argv, cwd, source, stdin, stdout and
stderr alike:

* the VALUES of environment variables whose names say they hold a secret
  (:func:`~agentkit.core._internal.secrets.is_secret_name`: ``TOKEN``,
  ``SECRET``, ``PASSWORD``, ``AUTH``, ``KEY``, ``PASS``, ``PWD``, ``DSN``,
  ...), from the spawn's ``env`` and from this process's environment (which
  a child inherits), in every form the value takes in output (any mix of
  JSON, URL and HTML escapes, base64, hex;
  :func:`~agentkit.core._internal.secrets.value_pattern`), and the credentials inside
  URLs in ANY variable (``DATABASE_URL``, ``HTTPS_PROXY``). Values under 8
  characters are left alone: ``AUTH_MODE=true`` replaced everywhere would
  corrupt every JSON ``true`` in the output;
* every shape in :data:`~agentkit.core._internal.secrets.SHAPES`: provider key
  prefixes, JSON Web Tokens, private keys, ``Bearer``/``Basic``
  credentials, passwords in URLs, and the value after a secret-named field
  (``"password": "..."``, ``token=...``);
* in argv, the value of a secret-named flag whatever its length
  (``--password VALUE``, ``--token=VALUE``, ``API_KEY=VALUE``);
* the user's home directory, replaced by ``~``;
* the caller's own ``scrub`` patterns (a str is matched literally, an
  ``re.Pattern`` as a regular expression).

Streams are scrubbed assembled, never read by read: a secret the CLI wrote
in two pieces (two stderr reads, two stdin writes) is found across the
seam, and the pieces on each side are replaced. Scrubbing runs over bytes,
so output that is not UTF-8 is scrubbed too, and it reports where it
changed the text so that a stderr chunk or a stdin write placed at a stdout
offset stays at the same point of the stream.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core._internal.secrets import (
    MIN_SECRET,
    REDACTED,
    SHAPES,
    KnownValues,
    Text,
    is_secret_name,
    matches,
    url_passwords,
)

__all__ = ["REDACTED", "Scrubber", "move_offset"]

_REDACTED_TEXT = REDACTED.decode()

Span = tuple[int, int, int]
"""A replacement: old start, old end, new length."""

_FLAG_VALUE = re.compile(r"(-{1,2}[A-Za-z0-9][A-Za-z0-9_.\-]*)=(.+)", re.DOTALL)
_NAME_VALUE = re.compile(r"([A-Za-z_][A-Za-z0-9_.\-]*)=(.+)", re.DOTALL)


def _user_pattern(pattern: object, index: int, where: str) -> re.Pattern[bytes]:
    argument = f"scrub[{index}]"
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


def known_values(environ: Iterable[Mapping[str, str]]) -> KnownValues:
    """Every secret value in ``environ``, to be found in any form it takes, by the name it had."""
    found: dict[str, str] = {}
    for source in environ:
        for name, value in source.items():
            values = list(url_passwords(value))
            if is_secret_name(name):
                values.append(value)
                # A value read from a file or a .env line keeps its newline or its
                # quotes; the CLI prints the key without them.
                values.append(value.strip().strip("\"'").strip())
            for secret in values:
                if len(secret) >= MIN_SECRET:
                    found.setdefault(secret, name)
    return KnownValues(found)


_VARIABLE_NAME = re.compile(r"""(["']?)[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\1""")


def _names_a_variable(value: str) -> bool:
    """``PARITY_API_KEY`` (quoted or not) after ``env_key=`` names where the key is, not the key.

    codex takes its provider's key as the NAME of an environment variable
    (``-c model_providers.x.env_key="X_API_KEY"``); replacing it would make
    every replayed argv differ from the real one for nothing.
    """
    return _VARIABLE_NAME.fullmatch(value) is not None


def _argv_secrets(argv: Sequence[str]) -> Iterator[tuple[str, str]]:
    """``(flag, value)`` for each secret-named flag's value in ``argv``."""
    for arg, following in zip(argv, [*argv[1:], ""], strict=False):
        named = _FLAG_VALUE.fullmatch(arg) or _NAME_VALUE.fullmatch(arg)
        if named is not None:
            if is_secret_name(named.group(1).lstrip("-")) and not _names_a_variable(named.group(2)):
                yield named.group(1), named.group(2)
        elif (
            arg.startswith("-")
            and is_secret_name(arg.lstrip("-"))
            and following
            and not following.startswith("-")
            and not _names_a_variable(following)
        ):
            yield arg, following


def _merge(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def _replace(
    data: bytes, spans: Sequence[tuple[int, int]], replacement: bytes
) -> tuple[bytes, list[Span]]:
    pieces: list[bytes] = []
    done: list[Span] = []
    position = 0
    for start, end in spans:
        pieces.append(data[position:start])
        pieces.append(replacement)
        done.append((start, end, len(replacement)))
        position = end
    pieces.append(data[position:])
    return b"".join(pieces), done


class Scrubber:
    """Replaces every secret the rules above find; built once per spawn."""

    __slots__ = ("_extra", "_home", "_known")

    def __init__(
        self,
        *,
        env: Mapping[str, str] | None,
        argv: Sequence[str] = (),
        extra: Sequence[re.Pattern[bytes]] = (),
    ) -> None:
        homes = {os.path.expanduser("~")}
        for source in (os.environ, env or {}):
            if source.get("HOME"):
                homes.add(source["HOME"])
        # A value passed under a secret-named flag is a known secret wherever it shows.
        self._known = known_values((os.environ, env or {}, dict(_argv_secrets(argv))))
        self._extra = tuple(extra)
        self._home = _home_pattern(homes)

    @staticmethod
    def compile_user_patterns(
        patterns: object, where: str = "CapturingSpawn"
    ) -> tuple[re.Pattern[bytes], ...]:
        """The caller's ``scrub=`` argument, checked and compiled for bytes; errors name ``where``."""
        if isinstance(patterns, str | bytes | re.Pattern) or not isinstance(patterns, Iterable):
            raise ArgumentTypeError(where, "scrub", "a sequence of str or re.Pattern", patterns)
        return tuple(_user_pattern(p, i, where) for i, p in enumerate(patterns))

    def find(self, data: bytes) -> list[tuple[int, int]]:
        """The secrets in ``data``, as sorted, non-overlapping ``(start, end)`` spans."""
        spans: list[tuple[int, int]] = []
        spans.extend(m.span() for m in self._known.finditer(data))
        text = Text(data)
        for shape in SHAPES:
            spans.extend(matches(shape, text))
        for pattern in self._extra:
            spans.extend(m.span() for m in pattern.finditer(data) if m.end() > m.start())
        return _merge(spans)

    def stream(self, data: bytes, offsets: Sequence[int]) -> tuple[bytes, list[int]]:
        """Scrub a stream and move ``offsets`` (positions in it) along with the text.

        An offset inside a replaced secret moves to the end of its replacement:
        the chunk placed there was written after the whole secret was.
        """
        moved = list(offsets)
        data, spans = _replace(data, self.find(data), REDACTED)
        if spans:
            moved = [move_offset(offset, spans) for offset in moved]
        if self._home is not None:
            homes = [m.span() for m in self._home.finditer(data)]
            if homes:
                data, spans = _replace(data, homes, b"~")
                moved = [move_offset(offset, spans) for offset in moved]
        return data, moved

    def data(self, data: bytes) -> bytes:
        """``data`` with every secret replaced."""
        return self.stream(data, ())[0]

    def text(self, value: str) -> str:
        return self.data(value.encode("utf-8", "surrogateescape")).decode(
            "utf-8", "surrogateescape"
        )

    def pieces(self, parts: Sequence[bytes]) -> list[bytes]:
        """``parts`` (reads or writes of one stream) scrubbed as the one stream they make.

        A secret split between two parts is replaced on both sides of the seam;
        each part keeps its place (a part wholly inside a secret becomes empty).
        """
        if not parts:
            return []
        seams: list[int] = []
        total = 0
        for part in parts[:-1]:
            total += len(part)
            seams.append(total)
        whole, moved = self.stream(b"".join(parts), seams)
        bounds = [0, *moved, len(whole)]
        return [whole[bounds[i] : bounds[i + 1]] for i in range(len(parts))]

    def argv(self, argv: Sequence[str]) -> tuple[str, ...]:
        """``argv`` scrubbed, and the value of every secret-named flag replaced whatever it is.

        ``--password hunter2`` is a secret because of its flag, even though
        seven characters are too few to know it by its looks.
        """
        out: list[str] = []
        value_next = False
        for arg in argv:
            if value_next:
                value_next = False
                if not arg.startswith("-") and not _names_a_variable(arg):
                    out.append(_REDACTED_TEXT)
                    continue
            flag = _FLAG_VALUE.fullmatch(arg)
            named = flag or (_NAME_VALUE.fullmatch(arg) if not arg.startswith("-") else None)
            if (
                named is not None
                and is_secret_name(named.group(1).lstrip("-"))
                and not _names_a_variable(named.group(2))
            ):
                out.append(f"{named.group(1)}={_REDACTED_TEXT}")
                continue
            if flag is None and arg.startswith("-") and is_secret_name(arg.lstrip("-")):
                value_next = True
            out.append(self.text(arg))
        return tuple(out)


def move_offset(offset: int, spans: Sequence[Span]) -> int:
    """Where ``offset`` lands once ``spans`` (sorted replacements) are made."""
    shift = 0
    for start, end, size in spans:
        if end <= offset:
            shift += size - (end - start)
        elif start < offset:
            return start + shift + size
        else:
            break
    return offset + shift
