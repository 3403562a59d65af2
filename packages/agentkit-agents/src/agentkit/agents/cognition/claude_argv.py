"""The argv of one ``claude -p`` spawn: a one-shot run, or a stream-json session.

* ``--output-format stream-json`` needs ``--verbose`` with ``-p``; without it
  the CLI prints a usage error on stderr and nothing on stdout (recorded).
* A one-shot run passes the prompt as the LAST positional argument and is
  spawned with stdin closed (``DEVNULL``): text-mode ``-p`` with an open,
  silent stdin pipe waits 3 s and warns on stderr (recorded). A prompt that
  starts with ``-`` would be read as an option, so it goes after ``--``, the
  end-of-options marker of claude's argument parser. So does the prompt of
  any run with ``extra_args``: several claude options are variadic
  (``--allowedTools <tools...>``, ``--disallowedTools``, ``--tools``,
  ``--add-dir``, ``--mcp-config``...) and would swallow a trailing prompt as
  one more value, leaving the run with no prompt at all
  (anthropics/claude-code#25978).
* A session adds ``--input-format stream-json``; the prompt is not an
  argument there -- every turn is a user message on stdin.

The cognition owns the output/input format flags: an ``extra_args`` that
sets them would make the stream unreadable, so it is refused here rather
than discovered as garbage later.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["OWNED_FLAGS", "claude_argv"]

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


def claude_argv(
    prompt: str | None,
    *,
    executable: str = "claude",
    model: str | None = None,
    extra_args: Sequence[str] = (),
    session: bool = False,
) -> tuple[str, ...]:
    """``claude -p --output-format stream-json --verbose [--input-format stream-json]
    [--model M] [extra...] [[--] prompt]``.

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
    extra = _check_extra(extra_args)
    argv += extra
    if prompt is not None:
        if prompt.startswith("-") or extra:
            argv.append("--")
        argv.append(prompt)
    return tuple(argv)
