"""FakeCodexCli and codex_turn: the codex CLI, replayed or built turn by turn.

``codex exec`` is one-shot, so for this double a spawn is a TURN: ``drive()``
consumes one run, a three-turn session consumes three. The event shapes
:func:`codex_turn` writes are codex 0.163.0's ``exec --json`` stream
(``ThreadEvent``; see docs/cli/codex.md, checked against the 0.163.0
recordings): ``thread.started{thread_id}``, ``turn.started``,
``item.completed{item{id, type, ...}}``, ``error{message}``,
``turn.completed{usage{input_tokens, cached_input_tokens,
cache_write_input_tokens, output_tokens, reasoning_output_tokens}}`` and
``turn.failed{error{message}}``.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Self

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_int,
    check_str,
)
from agentkit.fakes.cli._fake import FakeCli
from agentkit.fakes.cli._run import CliRun

if TYPE_CHECKING:
    from agentkit.fakes.cli._process import Release


def _plain(value: Mapping[str, Any]) -> dict[str, Any]:
    """A plain dict, nested read-only mappings included (an item may hold a ToolCall's arguments)."""
    return {
        key: _plain(inner) if isinstance(inner, Mapping) else inner for key, inner in value.items()
    }


__all__ = ["DEFAULT_THREAD_ID", "FakeCodexCli", "codex_turn"]

DEFAULT_THREAD_ID = "00000000-0000-7000-8000-000000000000"
"""The thread id :func:`codex_turn` announces unless told otherwise.

Shaped like codex's UUID v7 thread ids, and visibly not a real one.
"""


def _count(value: object, argument: str) -> int:
    return check_int(value, "codex_turn", argument)


def _usage(usage: tuple[int, int, int] | None) -> dict[str, int]:
    if usage is None:
        usage = (0, 0, 0)
    wanted = "(input_tokens, cached_input_tokens, output_tokens)"
    if isinstance(usage, Mapping) or not isinstance(usage, tuple | list):
        raise ArgumentTypeError("codex_turn", "usage", wanted, usage)
    if len(usage) != 3:
        raise ArgumentValueError("codex_turn", "usage", wanted, usage)
    total = _count(usage[0], "usage[0] (input_tokens)")
    cached = _count(usage[1], "usage[1] (cached_input_tokens)")
    output = _count(usage[2], "usage[2] (output_tokens)")
    if cached > total:
        raise ArgumentValueError(
            "codex_turn",
            "usage",
            "cached_input_tokens <= input_tokens",
            usage,
            "codex's input is INCLUSIVE of the cached prefix, so pass "
            "(input incl. cached, cached, output)",
        )
    return {
        "input_tokens": total,
        "cached_input_tokens": cached,
        "cache_write_input_tokens": 0,
        "output_tokens": output,
        "reasoning_output_tokens": 0,
    }


def codex_turn(
    *,
    text: str | None = None,
    reasoning: str | None = None,
    thread_id: str | None = DEFAULT_THREAD_ID,
    usage: tuple[int, int, int] | None = None,
    items: Iterable[Mapping[str, Any]] = (),
    failed: str | None = None,
    error: str | None = None,
    duration_ms: int | None = None,
) -> tuple[dict[str, Any], ...]:
    """One complete, well-formed ``codex exec --json`` turn, as payloads.

    Emits the real event order: ``thread.started`` (unless ``thread_id=None``,
    which is how a test builds the resumed turn of a CLI version that does not
    re-announce the thread), ``turn.started``, one ``item.completed`` per
    item, then exactly one terminal ``turn.completed`` or ``turn.failed``.

    ``usage`` is ``(input_tokens, cached_input_tokens, output_tokens)`` in
    Codex's own convention -- input INCLUSIVE of the cached prefix. Passing it
    that way rather than as agentkit's split is deliberate: the subtraction is
    the cognition's job, and a builder that pre-split it would make the one
    test that exists to pin that subtraction assert against its own
    arithmetic. Omitted, the usage is all zeros (codex always sends one).

    ``reasoning`` and ``text`` are shorthand for the two items nearly every
    test wants (``item_0``, ``item_1``, in that order); ``items`` takes the
    rest (a command_execution, a file_change, an mcp_tool_call) as raw item
    dicts, appended after them verbatim. ``error`` inserts a top-level stream
    ``error`` event before the terminal event -- the shape the CLI uses for a
    broken pipe, as opposed to ``failed``, which is the turn itself going
    wrong (``turn.failed``; it carries no usage, so passing both is an
    error). A failed turn is preceded by an ``error`` event with the same
    message, as real codex prints it (``error`` given too: that message). ``duration_ms``, when given, is added to the terminal event as a
    ``duration_ms`` field (0.163.0 sends no timing; a parser must ignore
    fields it does not know).
    """
    if thread_id is not None:
        check_str(thread_id, "codex_turn", "thread_id", empty=False)
    for argument, value in (("failed", failed), ("error", error)):
        if value is not None:
            check_str(value, "codex_turn", argument)
    if failed is not None and usage is not None:
        raise ArgumentValueError(
            "codex_turn", "usage", "None for a failed turn (turn.failed carries no usage)", usage
        )
    if isinstance(items, str | bytes | Mapping) or not isinstance(items, Iterable):
        raise ArgumentTypeError(
            "codex_turn", "items", "an iterable of item mappings", items, "wrap a single one"
        )
    events: list[dict[str, Any]] = []
    if thread_id is not None:
        events.append({"type": "thread.started", "thread_id": thread_id})
    events.append({"type": "turn.started"})
    number = 0
    for kind, body in (("reasoning", reasoning), ("agent_message", text)):
        if body is None:
            continue
        check_str(body, "codex_turn", "text" if kind == "agent_message" else "reasoning")
        events.append(
            {"type": "item.completed", "item": {"id": f"item_{number}", "type": kind, "text": body}}
        )
        number += 1
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise ArgumentTypeError("codex_turn", f"items[{index}]", "a mapping", item)
        events.append({"type": "item.completed", "item": _plain(item)})
    if error is not None or failed is not None:
        # Real codex prints the failure as a top-level error event first, then turn.failed.
        events.append({"type": "error", "message": error if error is not None else failed})
    terminal: dict[str, Any]
    if failed is not None:
        terminal = {"type": "turn.failed", "error": {"message": failed}}
    else:
        terminal = {"type": "turn.completed", "usage": _usage(usage)}
    if duration_ms is not None:
        terminal["duration_ms"] = _count(duration_ms, "duration_ms")
    events.append(terminal)
    return tuple(events)


class FakeCodexCli(FakeCli):
    """Deterministic offline codex CLI. Pass it as ``spawn=`` to a ``CodexCliCognition``.

    Holds an ordered list of :class:`CliRun` s -- one per spawn, and for
    codex a spawn is a turn. Each spawn consumes the next run; asking for one
    the recording does not have raises
    :class:`~agentkit.core.verification.script.ScriptExhausted`. ``repeat_last=True``
    replays the final run forever, the shape a session test that does not
    care how many turns it takes wants.

    Spawned with ``stdin=PIPE``, it behaves like codex 0.163.0: nothing is
    written to stdout until stdin is closed (codex reads stdin to EOF and
    appends it to the prompt), so a cognition that leaves the pipe open
    hangs here as it would against the real binary.
    """

    _cli_name = "codex"

    def _release(self, run: CliRun, argv: tuple[str, ...], stdin: int | None) -> Release:
        """With a stdin pipe nothing is written until stdin is closed; else everything at once.

        codex 0.163.0 reads stdin to EOF and appends it to the prompt.
        """
        from agentkit.fakes.cli._process import Release, ReleaseMode

        if stdin == subprocess.PIPE:
            return Release(ReleaseMode.ON_STDIN_EOF)
        return super()._release(run, argv, stdin)

    @classmethod
    def answering(
        cls, *texts: str, thread_id: str = DEFAULT_THREAD_ID, verify: bool = True
    ) -> Self:
        """One spawn per text, each a complete well-formed turn saying it.

        The shorthand for a multi-turn session test, where the conversation's
        CONTENT is not what is under test -- the argv, the thread id, the stop
        reason or the metering is. Every turn re-announces the same
        ``thread_id``, which is what a real resumed run does.
        """
        return cls(
            [CliRun.of(codex_turn(text=text, thread_id=thread_id)) for text in texts],
            verify=verify,
        )
