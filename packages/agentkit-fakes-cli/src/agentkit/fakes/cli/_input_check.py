"""Replay with verification: the cognition must ask what the recording was asked.

A replay answers whatever it is asked with what the real CLI said to
something else, so a cognition that builds a different argv (a dropped
``--model``, a flag in the wrong place) or writes a different session
message still gets a plausible answer -- and its test passes. With
``check_input=True`` the replayed spawn compares the argv it is given, and
in a session each stdin message, against the recording, and a difference
raises :class:`ReplayMismatch` with a unified diff.

What counts as the same: argv[0] by its file name only (the recording holds
wherever the real binary lived); text the capture scrubbed matches what the
scrubber would have scrubbed (``~`` for the home directory, ``[REDACTED]``
for any secret); stdin messages that are JSON compare as JSON (key order and
spacing do not matter). A claude session is compared message by message
(one line each); any other stdin is compared whole when it is closed.
"""

from __future__ import annotations

import difflib
import functools
import json
import os
from collections.abc import Callable, Sequence

from agentkit.core._internal.failures import kit_failure
from agentkit.fakes.cli._recording import Recording
from agentkit.fakes.cli._recording._scrub import REDACTED, Scrubber

__all__ = ["InputCheck", "ReplayMismatch", "redacted_match"]

_REDACTED = REDACTED.decode()


@kit_failure
class ReplayMismatch(BaseException):
    """A replayed spawn was asked something other than what its recording was asked.

    A BaseException for the reason :class:`~agentkit.core.verification.script.ScriptExhausted`
    is one: it reports a defect in the code that would be catching it (a
    cognition turns every ``Exception`` at spawn or write into an error
    result, and the test would compare that result instead of failing). The
    double also records it as a violation, so the pytest plugin fails the
    test even when something swallowed it.

    ``double`` names the double, ``spawn`` is the 1-based spawn, ``what`` is
    ``"argv"`` or ``"stdin message N"`` / ``"stdin"``, ``expected`` and
    ``actual`` are the two texts and ``diff`` their unified diff;
    ``rerecord`` is the command that records the spawn again (printed when
    known: the ``cli_recording`` fixture knows it), for a change that was
    intended.
    """

    # Reported where it is exported: a traceback names the class a user can import.
    __module__ = "agentkit.fakes.cli"

    def __init__(
        self,
        double: str,
        spawn: int,
        what: str,
        expected: str,
        actual: str,
        diff: str,
        rerecord: str = "",
    ) -> None:
        self.double = double
        self.spawn = spawn
        self.what = what
        self.expected = expected
        self.actual = actual
        self.diff = diff
        self.rerecord = rerecord
        again = f"\nIf the change is intended, record it again:\n    {rerecord}" if rerecord else ""
        super().__init__(
            f"{double}: spawn {spawn}: the {what} differs from the recording "
            f"(- recorded, + given):\n{diff}{again}"
        )

    def __reduce__(
        self,
    ) -> tuple[type[ReplayMismatch], tuple[str, int, str, str, str, str, str]]:
        return (
            type(self),
            (
                self.double,
                self.spawn,
                self.what,
                self.expected,
                self.actual,
                self.diff,
                self.rerecord,
            ),
        )


def redacted_match(pieces: Sequence[str], given: str) -> bool:
    """Does ``given`` read as ``pieces`` joined by runs of at least one character each?

    The recorded text with each ``[REDACTED]`` standing for "some secret".
    Matched left to right, each piece at its first place after the last
    (leftmost is always right when every gap may be any non-empty text), so
    the time is linear in ``given``: a regular expression of ``.+?`` gaps
    backtracks exponentially on a recording with many markers in a row.
    """
    first, last = pieces[0], pieces[-1]
    if not given.startswith(first):
        return False
    position = len(first)
    for piece in pieces[1:-1]:
        found = given.find(piece, position + 1)
        if found == -1:
            return False
        position = found + len(piece)
    tail = len(given) - len(last)
    return tail >= position + 1 and given.endswith(last)


def _diff(expected: Sequence[str], actual: Sequence[str]) -> str:
    lines = difflib.unified_diff(
        list(expected), list(actual), fromfile="recorded", tofile="given", lineterm=""
    )
    return "\n".join(lines)


class InputCheck:
    """Compares one spawn's argv and stdin with its recording; raises on the first difference."""

    def __init__(
        self,
        double: str,
        spawn: int,
        recording: Recording,
        *,
        by_line: bool,
        report: Callable[[ReplayMismatch], None],
        rerecord: str = "",
    ) -> None:
        self._double = double
        self._rerecord = rerecord
        self._spawn = spawn
        self._recording = recording
        self._by_line = by_line
        self._report = report
        recorded = b"".join(recording.stdin_messages)
        self._recorded_lines = [line for line in recorded.split(b"\n") if line.strip()]
        self._recorded = recorded
        self._pending = b""
        self._written = b""
        self._messages = 0
        self._closed = False

    @functools.cached_property
    def _scrubber(self) -> Scrubber:
        """Built on the first text that differs: an unchanged replay never needs it."""
        return Scrubber(env=None)

    def _same(self, recorded: str, given: str) -> bool:
        if recorded == given:
            return True
        given = self._scrubber.text(given)
        if _REDACTED not in recorded:
            return recorded == given
        return redacted_match(recorded.split(_REDACTED), given)

    def _fail(self, what: str, expected: Sequence[str], actual: Sequence[str]) -> None:
        error = ReplayMismatch(
            self._double,
            self._spawn,
            what,
            "\n".join(expected),
            "\n".join(actual),
            _diff(expected, actual),
            self._rerecord,
        )
        self._report(error)
        raise error

    def argv(self, given: Sequence[str]) -> None:
        recorded = list(self._recording.argv)
        live = list(given)
        same = len(recorded) == len(live) and all(
            self._same(r, g) for r, g in zip(recorded[1:], live[1:], strict=True)
        )
        # argv[0] by file name: where the real binary lived is no difference worth a diff line.
        recorded[:1] = [os.path.basename(arg) for arg in recorded[:1]]
        live[:1] = [os.path.basename(arg) for arg in live[:1]]
        if same and recorded[:1] == live[:1]:
            return
        self._fail("argv", recorded, live)

    def _message(self, recorded: bytes | None, given: bytes, what: str) -> None:
        if recorded is None:
            self._fail(what, ["(the recording has no such message)"], _lines(given))
            return
        try:
            ours, theirs = json.loads(recorded), json.loads(given)
            left = json.dumps(ours, sort_keys=True, ensure_ascii=False)
            right = json.dumps(theirs, sort_keys=True, ensure_ascii=False)
        except (ValueError, RecursionError):  # not JSON, or nested too deep: compare as text
            if not self._same(_text(recorded), _text(given)):
                self._fail(what, _lines(recorded), _lines(given))
            return
        if not self._same(left, right):
            self._fail(what, _pretty(ours, recorded), _pretty(theirs, given))

    def write(self, data: bytes) -> None:
        self._written += data
        if not self._by_line:
            return
        self._pending += data
        while (newline := self._pending.find(b"\n")) != -1:
            line, self._pending = self._pending[:newline], self._pending[newline + 1 :]
            if line.strip():
                self._next_message(line)

    def _next_message(self, line: bytes) -> None:
        index = self._messages
        self._messages += 1
        recorded = self._recorded_lines[index] if index < len(self._recorded_lines) else None
        self._message(recorded, line, f"stdin message {index + 1}")

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if not self._by_line:
            if self._written != self._recorded:
                self._message(self._recorded, self._written, "stdin")
            return
        if self._pending.strip():
            line, self._pending = self._pending, b""
            self._next_message(line)
        if self._messages < len(self._recorded_lines):
            missing = self._recorded_lines[self._messages :]
            self._fail(
                f"stdin ({self._messages} of {len(self._recorded_lines)} messages written)",
                [_text(m) for m in missing],
                ["(stdin closed)"],
            )


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _lines(data: bytes) -> list[str]:
    return _text(data).splitlines() or [""]


def _pretty(value: object, raw: bytes) -> list[str]:
    """``value`` indented for the diff; the ``raw`` text when it is too deep to indent."""
    try:
        return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False).splitlines()
    except RecursionError:
        return _lines(raw)
