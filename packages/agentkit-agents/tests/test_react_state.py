"""A suspended run as plain JSON and back; malformed state is a typed InvalidCheckpoint."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agentkit.agents.react import CHECKPOINT_FORMAT, InvalidCheckpoint, SuspendedRun
from agentkit.core.types import Message, ToolCall

PENDING = ToolCall("c2", "deploy", {"env": "prod", "opts": {"force": [1, 2]}})
RUN = SuspendedRun(
    task="ship it",
    model="m",
    iteration=3,
    messages=(
        Message.user("ship it"),
        Message.assistant("on it", (ToolCall("c1", "build", {}), PENDING)),
        Message.tool("built", tool_call_id="c1", name="build"),
    ),
    pending=PENDING,
    remaining=(ToolCall("c3", "notify", {"to": "ops"}),),
)


def test_the_state_is_plain_json_and_round_trips_exactly() -> None:
    state = RUN.to_state()
    text = json.dumps(state)  # raises if anything is not plain JSON
    assert state["format"] == CHECKPOINT_FORMAT
    assert state["status"] == "suspended"
    assert SuspendedRun.from_state("k", json.loads(text)) == RUN


def test_resumed_status_round_trips() -> None:
    state = SuspendedRun(**{**_fields(RUN), "resumed": True}).to_state()
    assert state["status"] == "resumed"
    assert SuspendedRun.from_state("k", state).resumed is True


def _fields(run: SuspendedRun) -> dict[str, Any]:
    return {name: getattr(run, name) for name in run.__slots__}


@pytest.mark.parametrize(
    ("patch", "problem"),
    [
        ({"format": "other/v9"}, "format"),
        ({"status": "done"}, "status"),
        ({"task": 3}, "'task' and 'model'"),
        ({"iteration": 0}, "'iteration'"),
        ({"iteration": True}, "'iteration'"),
        ({"messages": "nope"}, "'messages' must be a list"),
        ({"messages": [{"role": "robot", "content": ""}]}, "role 'robot'"),
        ({"messages": [{"role": "user", "content": 5}]}, "content must be a string"),
        ({"pending": {"id": 1, "name": "x"}}, "string 'id' and 'name'"),
        ({"pending": {"id": "c", "name": "x", "arguments": [1]}}, "non-object arguments"),
        ({"remaining": [7]}, "a tool call must be an object"),
    ],
)
def test_malformed_state_is_an_invalid_checkpoint(patch: dict[str, Any], problem: str) -> None:
    state = {**RUN.to_state(), **patch}
    with pytest.raises(InvalidCheckpoint, match=problem) as info:
        SuspendedRun.from_state("key-1", state)
    assert info.value.key == "key-1"
    assert isinstance(info.value, ValueError)


def test_a_non_mapping_state_is_an_invalid_checkpoint() -> None:
    with pytest.raises(InvalidCheckpoint, match="not an object"):
        SuspendedRun.from_state("k", [1, 2])  # type: ignore[arg-type]
