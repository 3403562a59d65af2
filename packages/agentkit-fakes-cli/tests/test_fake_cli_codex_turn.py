"""codex_turn builds what codex 0.163.0 prints; FakeCodexCli.answering chains such turns."""

from __future__ import annotations

import json
import subprocess

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.fakes.cli import DEFAULT_THREAD_ID, CliRun, FakeCodexCli, codex_turn
from tests.support.cli import recording


def _recorded(name: str) -> list[dict[str, object]]:
    stdout = recording("codex", name.removesuffix(".jsonl")).run.stdout
    return [json.loads(line) for line in stdout.splitlines() if line]


def test_a_turn_has_the_recorded_shape_field_for_field() -> None:
    recorded = _recorded("codex-0.163.0-message-success.jsonl")
    thread = recorded[0]["thread_id"]
    assert isinstance(thread, str)
    built = codex_turn(
        reasoning="**Answering the user**",
        text="pong",
        thread_id=thread,
        usage=(1200, 200, 30),
    )
    assert len(built) == len(recorded)
    for mine, theirs in zip(built, recorded, strict=True):
        assert mine.keys() == theirs.keys()
        assert mine["type"] == theirs["type"]
    assert built[:4] == tuple(recorded[:4])
    usage = built[4]["usage"]
    assert usage.keys() == recorded[4]["usage"].keys()  # type: ignore[attr-defined]
    assert usage == {
        "input_tokens": 1200,
        "cached_input_tokens": 200,
        "cache_write_input_tokens": 0,
        "output_tokens": 30,
        "reasoning_output_tokens": 0,
    }


def test_a_failed_turn_has_the_recorded_shape() -> None:
    recorded = _recorded("codex-0.163.0-turn-failed-http-401.jsonl")
    message = recorded[-1]["error"]["message"]  # type: ignore[index]
    built = codex_turn(thread_id=recorded[0]["thread_id"], error=message, failed=message)  # type: ignore[arg-type]
    assert list(built) == recorded


def test_event_order_items_and_options() -> None:
    command = {"id": "item_9", "type": "command_execution", "command": "ls", "exit_code": 0}
    built = codex_turn(text="t", reasoning="r", items=[command], error="Reconnecting... 1/5")
    assert [e["type"] for e in built] == [
        "thread.started",
        "turn.started",
        "item.completed",
        "item.completed",
        "item.completed",
        "error",
        "turn.completed",
    ]
    assert built[0]["thread_id"] == DEFAULT_THREAD_ID
    assert built[2]["item"] == {"id": "item_0", "type": "reasoning", "text": "r"}
    assert built[3]["item"] == {"id": "item_1", "type": "agent_message", "text": "t"}
    assert built[4]["item"] == command
    assert built[4]["item"] is not command  # copied: the caller's dict stays theirs


def test_resumed_turn_without_thread_and_duration() -> None:
    built = codex_turn(text="x", thread_id=None, duration_ms=12)
    assert built[0] == {"type": "turn.started"}
    assert built[-1]["duration_ms"] == 12
    assert built[-1]["usage"]["input_tokens"] == 0


@pytest.mark.parametrize(
    ("kwargs", "error", "argument", "match"),
    [
        ({"usage": (10, 20, 1)}, ArgumentValueError, "usage", "INCLUSIVE"),
        ({"usage": (1, 2)}, ArgumentValueError, "usage", "usage must be"),
        ({"usage": {"input_tokens": 1}}, ArgumentTypeError, "usage", "usage must be"),
        ({"usage": (-1, 0, 0)}, ArgumentValueError, "usage[0] (input_tokens)", ">= 0"),
        ({"usage": (1.5, 0, 0)}, ArgumentTypeError, "usage[0] (input_tokens)", "int"),
        ({"failed": "x", "usage": (1, 0, 1)}, ArgumentValueError, "usage", "no usage"),
        ({"failed": 401}, ArgumentTypeError, "failed", "a str"),
        ({"error": b"x"}, ArgumentTypeError, "error", "a str"),
        ({"text": 1}, ArgumentTypeError, "text", "a str"),
        ({"reasoning": ["x"]}, ArgumentTypeError, "reasoning", "a str"),
        ({"items": 3}, ArgumentTypeError, "items", "iterable"),
        ({"thread_id": ""}, ArgumentValueError, "thread_id", "thread_id"),
        ({"duration_ms": -3}, ArgumentValueError, "duration_ms", "duration_ms"),
    ],
)
def test_bad_arguments_are_refused(
    kwargs: dict[str, object], error: type[Exception], argument: str, match: str
) -> None:
    with pytest.raises(error, match=match) as caught:
        codex_turn(**kwargs)  # type: ignore[arg-type]
    assert getattr(caught.value, "argument", None) == argument


def test_bad_items_are_refused() -> None:
    with pytest.raises(TypeError, match="wrap"):
        codex_turn(items={"id": "x"})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match=r"items\[0\]"):
        codex_turn(items=["x"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="str"):
        codex_turn(text=3)  # type: ignore[arg-type]


async def test_answering_is_one_well_formed_turn_per_text_on_one_thread() -> None:
    cli = FakeCodexCli.answering("first", "second", thread_id="t-1")
    assert cli.remaining == 2
    texts = []
    for _ in range(2):
        proc = await cli("codex", "exec", "--json", "q", stdout=subprocess.PIPE)
        assert proc.stdout is not None
        events = [json.loads(line) for line in (await proc.stdout.read()).splitlines()]
        assert events[0] == {"type": "thread.started", "thread_id": "t-1"}
        assert events[-1]["type"] == "turn.completed"
        texts.append(events[-2]["item"]["text"])
    assert texts == ["first", "second"]
    assert cli.runs[0] == CliRun.of(codex_turn(text="first", thread_id="t-1"))
