"""The argv of one ``claude -p`` spawn: a one-shot run, or a stream-json session.

The CLI facts this relies on are in ``docs/cli/claude.md``:

* ``--output-format stream-json`` needs ``--verbose`` with ``-p``; without it
  the CLI prints a usage error on stderr and nothing on stdout.
* A one-shot run passes the prompt as the LAST positional argument and is
  spawned with stdin closed: text-mode ``-p`` with an open, silent stdin
  pipe waits 3 s and warns on stderr. A prompt that starts with ``-`` would
  be read as an option, so it goes after ``--``, the end-of-options marker.
  So does the prompt of any run with ``extra_args`` or a resume: several
  claude options are variadic (``--allowedTools <tools...>``,
  ``--add-dir``, ``--mcp-config``...) and would swallow a trailing prompt as
  one more value, leaving the run with no prompt at all.
* A session adds ``--input-format stream-json``; the prompt is not an
  argument there -- every turn is a user message on stdin.
* A resume is ``--resume=<id>`` (the ``=`` form: an id can never be taken
  for the next option's value), plus ``--fork-session`` to continue in a
  new session id rather than the old one.

The cognition owns the format flags: an ``extra_args`` that sets them would
make the stream unreadable, so it is refused here rather than discovered as
garbage later. (``--resume`` in ``extra_args`` still works; ``resume=``
says the same and lets the cognition know the turn continues a session.)
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["OWNED_FLAGS", "build_argv"]

OWNED_FLAGS = frozenset({"--output-format", "--input-format"})
"""Flags the cognition sets itself and refuses in ``extra_args``."""


def _check_extra(extra_args: Sequence[str]) -> tuple[str, ...]:
    if isinstance(extra_args, str | bytes):
        raise TypeError(f"extra_args must be a sequence of arguments, not a string: {extra_args!r}")
    out = tuple(extra_args)
    for arg in out:
        if not isinstance(arg, str):
            raise TypeError(f"every extra argument must be a str, got {arg!r}")
        if arg.split("=", 1)[0] in OWNED_FLAGS:
            raise ValueError(f"{arg!r}: the claude cognition sets the input/output format itself")
    return out


def build_argv(
    prompt: str | None,
    *,
    executable: str = "claude",
    model: str | None = None,
    extra_args: Sequence[str] = (),
    session: bool = False,
    resume: str | None = None,
    fork: bool = False,
) -> tuple[str, ...]:
    """``claude -p --output-format stream-json --verbose [--input-format stream-json]
    [--model M] [--resume=<id> [--fork-session]] [extra...] [[--] prompt]``.

    ``prompt`` is required (non-empty) for a one-shot run and must be None for
    a session.
    """
    argv: list[str] = [executable, "-p", "--output-format", "stream-json", "--verbose"]
    if session:
        if prompt is not None:
            raise ValueError("a session takes its prompts on stdin, one per turn")
        argv += ["--input-format", "stream-json"]
    elif not isinstance(prompt, str) or not prompt.strip():
        raise ValueError("a claude run needs a non-empty prompt")
    if model is not None:
        if not isinstance(model, str) or not model or model.startswith("-"):
            raise ValueError(f"model must be a model name, got {model!r}")
        argv += ["--model", model]
    if resume is not None:
        if not isinstance(resume, str) or not resume or resume.startswith("-"):
            raise ValueError(f"not a claude session id: {resume!r}")
        argv.append(f"--resume={resume}")
        if fork:
            argv.append("--fork-session")
    elif fork:
        raise ValueError("fork=True forks a resumed session: pass resume= too")
    extra = _check_extra(extra_args)
    argv += extra
    if prompt is not None:
        if prompt.startswith("-") or extra or resume is not None:
            argv.append("--")
        argv.append(prompt)
    return tuple(argv)
