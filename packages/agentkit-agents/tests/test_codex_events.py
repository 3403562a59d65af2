"""The pure codex event parser/mapper, against the recordings and hand-built lines."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agentkit.agents.cognition.codex._turn import CodexTurn
from agentkit.agents.cognition.codex._usage import parse_usage
from agentkit.agents.cognition.codex.events import (
    AgentMessage,
    CommandExecution,
    EventError,
    FileChange,
    FileChangeEntry,
    ItemEvent,
    McpToolCall,
    Reasoning,
    StreamError,
    ThreadStarted,
    TodoEntry,
    TodoList,
    TurnCompleted,
    TurnFailed,
    TurnStarted,
    UnknownEvent,
    UnknownItem,
    WarningItem,
    WebSearch,
    map_event,
)
from agentkit.core.pricing import RawUsage
from tests.support.cli import recording


def _objects(data: bytes) -> list[dict[str, Any]]:
    # Test-side decoding of a recording that is known to be clean JSONL; the real
    # framing (noise, truncation) is the runner's and is tested through the cognition.
    return [json.loads(line) for line in data.split(b"\n") if line.strip()]


def _fold(objects: list[dict[str, Any]]) -> CodexTurn:
    turn = CodexTurn()
    for line_no, obj in enumerate(objects, 1):
        turn.feed(obj, line_no)
    return turn


def parse_codex_stream(data: bytes) -> CodexTurn:
    return _fold(_objects(data))


def _recording(name: str) -> bytes:
    return recording("codex", name.removesuffix(".jsonl")).run.stdout


# ------------------------------------------------------------ recordings


def test_message_success_recording_folds_to_the_answer_and_raw_usage() -> None:
    turn = parse_codex_stream(_recording("codex-0.163.0-message-success.jsonl"))
    assert turn.thread_id == "01a2363e-c45e-7df3-b850-4ea5f38e7c39"
    assert turn.completed
    assert turn.failed is None
    assert turn.text == "pong"
    assert turn.items == (
        Reasoning("item_0", "**Answering the user**"),
        AgentMessage("item_1", "pong"),
    )
    assert turn.usage == RawUsage(1200, 200, 0, 30, 12)
    assert turn.problems == []
    assert isinstance(turn.events[0], ThreadStarted)
    assert isinstance(turn.events[1], TurnStarted)
    assert isinstance(turn.events[-1], TurnCompleted)


def test_command_execution_recording_keeps_started_and_completed_snapshots() -> None:
    turn = parse_codex_stream(_recording("codex-0.163.0-command-execution.jsonl"))
    commands = [
        e for e in turn.events if isinstance(e, ItemEvent) and isinstance(e.item, CommandExecution)
    ]
    assert [c.phase for c in commands] == ["started", "completed"]
    assert commands[0].item == CommandExecution(
        "item_1", "/bin/bash -lc 'echo hello-from-codex'", "", None, "in_progress"
    )
    assert commands[1].item == CommandExecution(
        "item_1",
        "/bin/bash -lc 'echo hello-from-codex'",
        "hello-from-codex\n",
        0,
        "completed",
    )
    assert turn.text == "The command printed hello-from-codex."
    assert turn.usage is not None
    assert turn.usage.input_tokens == 2700


def test_fullsend_live_capture_maps_file_change_and_picks_the_last_message() -> None:
    turn = parse_codex_stream(_recording("codex-exec-json-fullsend-basic-run-v0.152.1.jsonl"))
    assert turn.messages == (
        "I\u2019ll list the workspace, then create `hello.txt` with `hi`.",
        "done",
    )
    assert turn.text == "done"
    changes = [i for i in turn.items if isinstance(i, FileChange)]
    assert changes == [
        FileChange(
            "item_3", (FileChangeEntry("/sandbox/workspace/repo/hello.txt", "add"),), "completed"
        )
    ]
    assert turn.usage == RawUsage(41320, 27386, 13925, 295, 74)


def test_docs_sample_older_shape_three_field_usage_and_missing_exit_code() -> None:
    turn = parse_codex_stream(_recording("codex-exec-json-docs-exec-md-sample.jsonl"))
    started = [e for e in turn.events if isinstance(e, ItemEvent) and e.phase == "started"]
    assert isinstance(started[0].item, CommandExecution)
    assert started[0].item.exit_code is None
    assert turn.usage == RawUsage(24763, 24448, 0, 122, 0)
    assert turn.text.startswith("Yep")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "codex-0.163.0-turn-failed-http-401.jsonl",
            "unexpected status 401 Unauthorized: Incorrect API key provided: sk-mock.",
        ),
        (
            "codex-0.163.0-turn-failed-response-failed.jsonl",
            "stream disconnected before completion: simulated upstream failure",
        ),
    ],
)
def test_turn_failed_recordings_are_terminal_failures(name: str, message: str) -> None:
    turn = parse_codex_stream(_recording(name))
    assert not turn.completed
    assert turn.failed is not None
    assert turn.failed.message.startswith(message)
    # the top-level error that precedes turn.failed is kept, and is not the terminal
    assert len(turn.stream_errors) == 1
    assert turn.stream_errors[0] == turn.failed.message
    assert turn.usage is None


def test_offline_recording_has_retry_notices_a_warning_item_and_no_terminal() -> None:
    turn = parse_codex_stream(_recording("codex-0.163.0-offline-reconnecting-killed.jsonl"))
    assert turn.terminal_event is None
    assert len(turn.stream_errors) == 10
    assert turn.stream_errors[0].startswith("Reconnecting... 2/5")
    assert turn.stream_errors[-1].startswith("Reconnecting... waiting for network")
    assert tuple(turn.warnings) == (
        "Falling back from WebSockets to HTTPS transport. stream disconnected before "
        "completion: failed to lookup address information: Try again",
    )
    assert turn.problems == []


def test_resumed_recordings_repeat_the_thread_id_and_grow_cumulative_usage() -> None:
    first = parse_codex_stream(_recording("codex-0.163.0-message-success.jsonl"))
    second = parse_codex_stream(_recording("codex-0.163.0-exec-resume.jsonl"))
    third = parse_codex_stream(_recording("codex-0.163.0-exec-resume-second.jsonl"))
    assert first.thread_id == second.thread_id == third.thread_id
    assert [t.usage.input_tokens for t in (first, second, third) if t.usage] == [1200, 2700, 4200]
    # item ids restart per process
    assert second.items[0] == AgentMessage("item_0", "pong again")


# ------------------------------------------------------------ schema rules


@pytest.mark.parametrize(
    ("obj", "reason"),
    [
        ({"no_type": 1}, "'type'"),
        ({"type": 7}, "'type'"),
        ({"type": ""}, "'type'"),
        ({"type": "thread.started"}, "thread_id"),
        ({"type": "item.completed", "item": {"type": "agent_message"}}, "'id'"),
        ({"type": "item.completed", "item": {"id": "i"}}, "'type'"),
        ({"type": "item.completed", "item": "x"}, "'item' must be an object"),
        (
            {"type": "item.completed", "item": {"id": "i", "type": "agent_message", "text": 3}},
            "'text'",
        ),
        (
            {
                "type": "item.completed",
                "item": {"id": "i", "type": "command_execution", "exit_code": "0"},
            },
            "exit_code",
        ),
        (
            {"type": "item.completed", "item": {"id": "i", "type": "file_change", "changes": "a"}},
            "changes",
        ),
        (
            {"type": "item.completed", "item": {"id": "i", "type": "todo_list", "items": [1]}},
            "'items' entry",
        ),
        ({"type": "turn.completed", "usage": {"input_tokens": "12"}}, "input_tokens"),
        ({"type": "turn.completed", "usage": {"output_tokens": -1}}, "output_tokens"),
        ({"type": "turn.completed", "usage": {"output_tokens": True}}, "output_tokens"),
        ({"type": "turn.completed", "usage": [1]}, "'usage' must be an object"),
    ],
)
def test_schema_violations_become_problems_not_silence(obj: dict[str, Any], reason: str) -> None:
    turn = CodexTurn()
    turn.feed({"type": "turn.started"}, 1)
    assert turn.feed(obj, 7) is None
    assert len(turn.problems) == 1
    problem = turn.problems[0]
    assert reason in problem.reason
    assert problem.line_no == 7
    assert json.loads(problem.text) == obj
    assert turn.terminal_event is None
    assert turn.events == [TurnStarted()]


def test_problems_carry_the_line_number_they_were_fed_with() -> None:
    turn = _fold([{"type": "turn.started"}, {"type": "thread.started"}])
    assert [p.line_no for p in turn.problems] == [2]


def test_usage_fields_may_be_missing_or_null() -> None:
    turn = _fold([{"type": "turn.completed"}])
    assert turn.usage == RawUsage()
    turn = _fold(
        [{"type": "turn.completed", "usage": {"input_tokens": 4, "cached_input_tokens": None}}]
    )
    assert turn.usage == RawUsage(input_tokens=4)


def test_second_terminal_and_foreign_thread_id_are_problems() -> None:
    objects: list[dict[str, Any]] = [
        {"type": "thread.started", "thread_id": "a"},
        {"type": "thread.started", "thread_id": "a"},
        {"type": "thread.started", "thread_id": "b"},
        {"type": "turn.completed", "usage": {"input_tokens": 1}},
        {"type": "turn.failed", "error": {"message": "late"}},
    ]
    turn = _fold(objects)
    assert turn.thread_id == "a"
    assert turn.terminal_event == TurnCompleted(RawUsage(input_tokens=1))
    assert [p.line_no for p in turn.problems] == [3, 5]
    assert "'b' after 'a'" in turn.problems[0].reason
    assert len(turn.events) == 3


def test_text_is_the_last_completed_message_not_a_started_snapshot() -> None:
    turn = _fold(
        [
            {
                "type": "item.completed",
                "item": {"id": "0", "type": "agent_message", "text": "a"},
            },
            {
                "type": "item.completed",
                "item": {"id": "1", "type": "agent_message", "text": "b"},
            },
            {"type": "item.started", "item": {"id": "2", "type": "agent_message", "text": "c"}},
        ]
    )
    assert turn.messages == ("a", "b")
    assert turn.text == "b"
    assert CodexTurn().text == ""


# ------------------------------------------------------------ item mapping


def test_every_known_item_type_maps_to_its_own_event() -> None:
    cases: list[tuple[dict[str, object], object]] = [
        ({"id": "1", "type": "reasoning", "text": "r"}, Reasoning("1", "r")),
        (
            {
                "id": "2",
                "type": "mcp_tool_call",
                "server": "s",
                "tool": "t",
                "arguments": {"a": 1},
                "result": {"content": []},
                "error": None,
                "status": "completed",
            },
            McpToolCall("2", "s", "t", {"a": 1}, {"content": []}, None, "completed"),
        ),
        (
            {
                "id": "3",
                "type": "mcp_tool_call",
                "server": "s",
                "tool": "t",
                "error": {"message": "boom"},
                "status": "failed",
            },
            McpToolCall("3", "s", "t", None, None, "boom", "failed"),
        ),
        (
            {"id": "4", "type": "web_search", "query": "q", "action": {"type": "search"}},
            WebSearch("4", "q", {"type": "search"}),
        ),
        (
            {
                "id": "5",
                "type": "todo_list",
                "items": [{"text": "a", "completed": True}, {"text": "b"}],
            },
            TodoList("5", (TodoEntry("a", True), TodoEntry("b", False))),
        ),
        (
            {"id": "6", "type": "error", "message": "model rerouted"},
            WarningItem("6", "model rerouted"),
        ),
    ]
    for item, expected in cases:
        event = map_event({"type": "item.completed", "item": item})
        assert event == ItemEvent("completed", expected)  # type: ignore[arg-type]


def test_unknown_item_and_event_types_are_kept_whole() -> None:
    item = map_event(
        {"type": "item.updated", "item": {"id": "9", "type": "collab_tool_call", "tool": "wait"}}
    )
    assert isinstance(item, ItemEvent)
    assert item.phase == "updated"
    assert isinstance(item.item, UnknownItem)
    assert item.item.type == "collab_tool_call"
    assert item.item.raw["tool"] == "wait"
    event = map_event({"type": "item.plan.delta", "item_id": "x", "delta": "d"})
    assert event == UnknownEvent(
        "item.plan.delta", {"type": "item.plan.delta", "item_id": "x", "delta": "d"}
    )


def test_stream_error_and_turn_failed_shapes() -> None:
    assert map_event({"type": "error", "message": "Reconnecting... 2/5"}) == StreamError(
        "Reconnecting... 2/5"
    )
    assert map_event({"type": "turn.failed", "error": {"message": "m"}}) == TurnFailed("m")
    assert map_event({"type": "turn.failed"}) == TurnFailed("")


def test_parse_usage_defaults_missing_fields_and_reads_all_five() -> None:
    assert parse_usage(None) == RawUsage()
    assert parse_usage(
        {"input_tokens": 3, "cached_input_tokens": 1, "output_tokens": 2}
    ) == RawUsage(3, 1, 0, 2, 0)
    assert parse_usage(
        {
            "input_tokens": 10,
            "cached_input_tokens": 4,
            "cache_write_input_tokens": 3,
            "output_tokens": 6,
            "reasoning_output_tokens": 2,
        }
    ) == RawUsage(10, 4, 3, 6, 2)
    with pytest.raises(EventError, match="cached_input_tokens"):
        parse_usage({"cached_input_tokens": 1.5})


def test_mapped_payloads_are_read_only() -> None:
    event = map_event({"type": "something.new", "x": 1})
    assert isinstance(event, UnknownEvent)
    with pytest.raises(TypeError):
        event.raw["x"] = 2  # type: ignore[index]
