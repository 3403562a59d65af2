"""``show``'s reading of a CLI's events is the cognitions' own (agentkit.agents.cognition._transcript).

The transcript's file half (header, stream order, stderr, exit code) is
agentkit-fakes-cli's and tested there; here, that each stdout object is read
by the cognition's ``map_event`` -- what it refuses is shown refused, what it
models is shown from the typed event -- and that ``show`` finds these
readers through the entry point agentkit-agents registers.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any

import pytest

from agentkit.agents.cognition._transcript import ClaudeLines, CodexLines
from agentkit.fakes.cli import CliRun, Recording
from agentkit.fakes.cli._recording._transcript import READERS, event_reader, transcript


def _events(cli: str, *objects: Any) -> list[str]:
    """The transcript's event lines (between the header's blank line and the closing one)."""
    text = transcript(Recording(cli=cli, argv=(cli,), run=CliRun.of(list(objects))))
    lines = text.splitlines()
    start = lines.index("") + 1
    return lines[start : lines.index("", start)]


@pytest.mark.parametrize(("cli", "reader"), [("claude", ClaudeLines), ("codex", CodexLines)])
def test_show_finds_the_cognitions_reader_through_the_entry_point(cli: str, reader: type) -> None:
    (point,) = entry_points(group=READERS, name=cli)
    assert point.load() is reader
    assert isinstance(event_reader(cli), reader)


def test_an_object_the_claude_cognition_refuses_is_shown_refused_with_the_reason() -> None:
    lines = _events("claude", {"type": "assistant", "message": "not an object"})
    assert lines == [
        "[event the cognition refuses: assistant: 'message' must be an object] "
        '{"type":"assistant","message":"not an object"}'
    ]


def test_an_object_the_codex_cognition_refuses_is_shown_refused_with_the_reason() -> None:
    (line,) = _events("codex", {"type": "thread.started"})
    assert line.startswith("[event the cognition refuses: ")
    assert "thread_id" in line
    assert line.endswith('{"type":"thread.started"}')


def test_claude_events_are_shown_from_what_the_cognition_reads() -> None:
    init = {
        "type": "system",
        "subtype": "init",
        "session_id": "s",
        "model": "m",
        "tools": [],
        "claude_code_version": "2.1.337",
        "mcp_servers": [{"name": "up", "status": "connected"}, {"name": "db", "status": "failed"}],
    }
    replayed = {
        "type": "user",
        "isReplay": True,
        "message": {"role": "user", "content": [{"type": "text", "text": "hi"}]},
    }
    assistant = {
        "type": "assistant",
        "error": "authentication_failed",
        "api_error": "no_credential",
        "message": {"content": [{"type": "text", "text": "Not logged in"}]},
    }
    result = {
        "type": "result",
        "subtype": "success",
        "is_error": True,
        "api_error_status": 401,
        "usage": {"input_tokens": 3, "cache_creation_input_tokens": 2, "output_tokens": 1},
    }
    assert _events("claude", init, replayed, assistant, result) == [
        "[system init] session s, model m, 0 tools, claude 2.1.337",
        "  MCP server db: failed",
        "--- turn 1 ---",
        "user (replayed): hi",
        "assistant: Not logged in",
        "assistant error: authentication_failed (no_credential)",
        "result success (is_error): ? turn(s), cost $?",
        "  usage: input 3, output 1, cache read 0, cache write 2",
        "  api error: 401",
    ]


def test_codex_items_are_shown_from_what_the_cognition_reads() -> None:
    plan = {
        "type": "item.completed",
        "item": {
            "id": "p",
            "type": "todo_list",
            "items": [{"text": "read", "completed": True}, {"text": "write", "completed": False}],
        },
    }
    change = {
        "type": "item.completed",
        "item": {"id": "f", "type": "file_change", "changes": [{"path": "a.py", "kind": "add"}]},
    }
    future = {"type": "item.completed", "item": {"id": "n", "type": "new_kind"}}
    assert _events("codex", plan, change, future) == [
        "plan: [x] read",
        "plan: [ ] write",
        "file change: add a.py",
        'item [new_kind] {"id":"n","type":"new_kind"}',
    ]
