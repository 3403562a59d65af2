"""The one typed error a CLI cognition reports, whatever went wrong.

A CLI run fails in ways that look alike from outside -- exit code 1 -- and
mean different things: the API key is wrong, the turn limit was hit, the
binary is missing, the child was killed on a timeout. ``code`` names which,
as a short stable string a caller can branch on, and the error carries what
an operator needs to see why: the stderr the child wrote (the only channel
that explains a bare ``cli_exit_1``), the exit code, and the CLI's own
details (subtype, ``errors[]``, HTTP status) untouched.

Codes the base and the cognitions use:

* ``cli_exit_<n>`` -- the child exited ``n != 0`` and nothing more specific
  was reported (``cli_signal_<n>`` when it died of signal ``n``);
* ``incomplete_run`` -- stdout ended without the terminal event (a truncated
  last line, a killed child, a CLI that stopped early);
* ``timeout`` / ``cancelled`` -- the cognition stopped the child;
* ``spawn_failed`` -- the program could not be started;
* ``line_too_long`` / ``invalid_json`` -- stdout lost a line;
* ``session_closed`` -- a session turn after its process had gone;
* ``unpriced`` -- the CLI reported no cost and no price table was given;
* anything else is the CLI's own code (``error_max_turns``,
  ``authentication_failed``, ``connection_failed``, ...).

It is an ``Exception`` so that ``raise result.error`` works, but the
cognitions RETURN it on their result rather than raising it: a failed run
still has usage to charge and text to show.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["CliError", "exit_code_error"]


class CliError(Exception):
    """A CLI run that did not succeed: a ``code``, a message, and the evidence."""

    def __init__(
        self,
        code: str,
        message: str = "",
        *,
        stderr: str = "",
        returncode: int | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        if not isinstance(code, str) or not code:
            raise ValueError(f"CliError needs a non-empty code, got {code!r}")
        self.code = code
        self.message = message
        self.stderr = stderr
        self.returncode = returncode
        self.details: Mapping[str, Any] = MappingProxyType(dict(details or {}))
        super().__init__(code, message)

    def __str__(self) -> str:
        text = f"{self.code}: {self.message}" if self.message else self.code
        if self.returncode is not None:
            text += f" (exit code {self.returncode})"
        stderr = self.stderr.strip()
        if stderr:
            text += f"\nstderr:\n{stderr}"
        return text

    def __repr__(self) -> str:
        return (
            f"CliError(code={self.code!r}, message={self.message!r}, "
            f"returncode={self.returncode!r}, stderr={self.stderr!r})"
        )

    def with_evidence(
        self,
        *,
        stderr: str | None = None,
        returncode: int | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> CliError:
        """A copy with stderr / exit code / extra details filled in where this lacks them.

        Errors are usually decided before the child's stderr has been read (it
        is read once, at the end); this attaches it afterwards without losing
        anything already recorded.
        """
        merged = dict(details or {})
        merged.update(self.details)
        return CliError(
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
    return CliError(code, text, stderr=stderr, returncode=returncode)
