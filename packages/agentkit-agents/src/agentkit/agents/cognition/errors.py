"""The one typed error a CLI cognition reports, whatever went wrong, and its vocabulary.

A CLI run fails in ways that look alike from outside -- exit code 1 -- and
mean different things: the API key is wrong, the turn limit was hit, the
binary is missing, the child was killed on a timeout. ``code`` names which,
as a short stable string a caller can branch on, and the error carries what
an operator needs to see why: the stderr the child wrote (the only channel
that explains a bare ``cli_exit_1``), the exit code, and the CLI's own
details (subtype, ``errors[]``, HTTP status) untouched.

The vocabulary is closed and typed. :data:`ErrorCode` lists every code the
kit itself decides; ``kind`` (:data:`ErrorKind`) is one of those, or one of
three families whose ``code`` carries more: ``cli_exit`` (``cli_exit_<n>``),
``cli_signal`` (``cli_signal_<n>``) and ``reported`` (a code the CLI named
itself that is not in the vocabulary, passed through, e.g. claude's
``error_max_turns``). Both are ``Literal`` types, so mypy refuses a
misspelt code where an error is built and a comparison with a code that
cannot occur. The same fault gives the same code from both CLIs; the table
is ``docs/cli/errors.md``.

It is an ``Exception`` so that ``raise result.error`` works, but the
cognitions RETURN it on their result rather than raising it: a failed run
still has usage to charge and text to show. ``str(error)`` is bounded (a
stderr excerpt of its head and tail, a message cut to one screen); the full
captured stderr stays on :attr:`CliError.stderr`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final, Literal, get_args

from agentkit.core.types import FrozenDict

__all__ = [
    "ERROR_CODES",
    "MESSAGE_LIMIT",
    "STDERR_EXCERPT",
    "CliError",
    "ErrorCode",
    "ErrorKind",
    "exit_code_error",
    "stderr_excerpt",
]

ErrorCode = Literal[
    "timeout",
    "cancelled",
    "spawn_failed",
    "session_closed",
    "session_mismatch",
    "incomplete_run",
    "line_too_long",
    "invalid_json",
    "invalid_event",
    "invalid_usage",
    "unpriced",
    "authentication_failed",
    "billing_error",
    "rate_limit",
    "overloaded",
    "request_too_large",
    "prompt_too_long",
    "max_output_tokens",
    "invalid_request",
    "server_error",
    "connection_failed",
    "api_error",
    "turn_failed",
    "unanswered_request",
    "mcp_server_failed",
]
"""Every code the kit decides itself (meanings: ``docs/cli/errors.md``)."""

ErrorKind = ErrorCode | Literal["cli_exit", "cli_signal", "reported"]
"""What kind of failure an error is: an :data:`ErrorCode`, or a family whose ``code`` says more."""

ERROR_CODES: Final[frozenset[str]] = frozenset(get_args(ErrorCode))
"""The :data:`ErrorCode` values, for a run-time check."""

STDERR_EXCERPT: Final = 2048
"""Characters of stderr ``str(CliError)`` shows from its start, and again from its end."""

MESSAGE_LIMIT: Final = 1024
"""Characters of the message ``str(CliError)`` shows (a CLI's text can be one huge line)."""

_EXIT = re.compile(r"cli_exit_\d+")
_SIGNAL = re.compile(r"cli_signal_\d+")


def _kind_of(code: str) -> ErrorKind:
    if code in ERROR_CODES:
        return code  # type: ignore[return-value]  # checked against the Literal's values
    if _EXIT.fullmatch(code):
        return "cli_exit"
    if _SIGNAL.fullmatch(code):
        return "cli_signal"
    return "reported"


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}[... {len(text) - limit} more characters]"


def stderr_excerpt(stderr: str, keep: int = STDERR_EXCERPT) -> str:
    """The head and the tail of ``stderr`` (``keep`` characters each), the middle counted.

    The start of stderr usually says what went wrong first, the end how the
    process died; a flood in between is noise in an error message.
    """
    text = stderr.strip()
    if len(text) <= 2 * keep:
        return text
    dropped = len(text) - 2 * keep
    return f"{text[:keep]}\n[... {dropped} characters of stderr left out ...]\n{text[-keep:]}"


class CliError(Exception):
    """A CLI run that did not succeed: a ``code``, a message, and the evidence.

    Build one with a code of the vocabulary (``CliError("timeout", ...)``),
    with :func:`exit_code_error` for an exit status, or with
    :meth:`reported` for a code the CLI named itself.
    """

    code: str
    kind: ErrorKind

    def __init__(
        self,
        code: ErrorCode,
        message: str = "",
        *,
        stderr: str = "",
        returncode: int | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        if not isinstance(code, str) or not code:
            raise ValueError(f"CliError needs a non-empty code, got {code!r}")
        self.code = code
        self.kind = _kind_of(code)
        self.message = message
        self.stderr = stderr
        self.returncode = returncode
        self.details: Mapping[str, Any] = FrozenDict(details or {})
        super().__init__(code, message)

    @classmethod
    def reported(
        cls,
        code: str,
        message: str = "",
        *,
        stderr: str = "",
        returncode: int | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> CliError:
        """An error whose code the CLI named itself (``error_max_turns``, ``server_error``).

        A name the vocabulary already has (``authentication_failed``) keeps
        its kind; any other is of kind ``reported``.
        """
        return cls(
            code,  # type: ignore[arg-type]  # the CLI's own name: kind says which family
            message,
            stderr=stderr,
            returncode=returncode,
            details=details,
        )

    def __str__(self) -> str:
        message = _cut(self.message, MESSAGE_LIMIT)
        text = f"{self.code}: {message}" if message else self.code
        if self.returncode is not None:
            text += f" (exit code {self.returncode})"
        stderr = stderr_excerpt(self.stderr)
        if stderr:
            text += f"\nstderr:\n{stderr}"
        return text

    def __repr__(self) -> str:
        return (
            f"CliError(code={self.code!r}, message={_cut(self.message, 200)!r}, "
            f"returncode={self.returncode!r}, stderr=<{len(self.stderr)} characters>)"
        )

    def with_evidence(
        self,
        *,
        stderr: str | None = None,
        returncode: int | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> CliError:
        """A copy with stderr / exit code / extra details filled in where this lacks them.

        Errors are usually decided before the child's stderr is complete (it
        is surfaced once, at the end); this attaches it afterwards without
        losing anything already recorded.
        """
        merged = dict(details or {})
        merged.update(self.details)
        return CliError.reported(
            self.code,
            self.message,
            stderr=self.stderr or (stderr or ""),
            returncode=self.returncode if self.returncode is not None else returncode,
            details=merged,
        )


def exit_code_error(returncode: int, *, stderr: str = "", message: str = "") -> CliError:
    """``cli_exit_<n>`` for an exit code, ``cli_signal_<n>`` for death by signal ``n``."""
    if returncode < 0:
        code = f"cli_signal_{-returncode}"
        text = message or f"the CLI was killed by signal {-returncode}"
    else:
        code = f"cli_exit_{returncode}"
        text = message or f"the CLI exited with code {returncode}"
    return CliError.reported(code, text, stderr=stderr, returncode=returncode)
