"""The argv of one ``codex exec --json`` spawn, fresh or resumed.

Flag POSITION matters to codex's parser, and getting it wrong is a usage
error on stderr with exit 2 and nothing on stdout (``docs/cli/codex.md``):

* ``codex exec resume`` rejects ``--sandbox``, ``-C/--cd``, ``--add-dir``,
  ``-p/--profile`` and ``--oss`` after the subcommand, yet a resumed thread
  does NOT remember them -- model, sandbox, approval and cwd must be passed
  again on every turn. Both facts are satisfied by one rule: every option
  goes BEFORE ``resume``, where ``codex exec`` accepts them all.
* The prompt is the last positional. One that starts with ``-`` would be read
  as a flag, so it goes after ``--``.

The prompt is passed as an argument, never on stdin: ``codex exec`` with an
open stdin pipe waits for EOF before starting the turn and appends whatever
arrived to the prompt, so the cognition spawns with stdin closed.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["OWNED_FLAGS", "RESUME_REJECTED_FLAGS", "build_argv"]

OWNED_FLAGS = frozenset({"--json", "--experimental-json"})
"""Flags the cognition sets itself (``extra_args`` may repeat them harmlessly)."""

RESUME_REJECTED_FLAGS = frozenset(
    {"--sandbox", "-s", "-C", "--cd", "--add-dir", "-p", "--profile", "--oss"}
)
"""Options ``codex exec resume`` refuses after the subcommand (0.163.0).

Kept for callers that assemble their own argv; :func:`build_argv` never
places anything after ``resume`` but the thread id and the prompt.
"""


def build_argv(
    prompt: str,
    *,
    executable: str = "codex",
    model: str | None = None,
    extra_args: Sequence[str] = (),
    resume: str | None = None,
) -> tuple[str, ...]:
    """``codex exec --json [-m M] [extra...] [resume <id>] [--] <prompt>``.

    Raises ``TypeError`` for ``extra_args`` given as one string (it would be
    split into characters) and ``ValueError`` for an empty prompt (codex would
    fall back to reading stdin, which is closed) and for a thread id that
    could be taken as a flag.
    """
    if not isinstance(prompt, str) or not prompt.strip():
        raise ValueError("a codex turn needs a non-empty prompt")
    argv: list[str] = [executable, "exec", "--json"]
    if model is not None:
        if not isinstance(model, str) or not model or model.startswith("-"):
            raise ValueError(f"model must be a model name, got {model!r}")
        argv += ["-m", model]
    if isinstance(extra_args, str | bytes):
        raise TypeError(f"extra_args must be a sequence of arguments, not a string: {extra_args!r}")
    for arg in extra_args:
        if not isinstance(arg, str):
            raise TypeError(f"every extra argument must be a str, got {arg!r}")
    argv += extra_args
    if resume is not None:
        if not isinstance(resume, str) or not resume or resume.startswith("-"):
            raise ValueError(f"not a codex thread id: {resume!r}")
        argv += ["resume", resume]
    if prompt.startswith("-"):
        argv.append("--")
    argv.append(prompt)
    return tuple(argv)
