"""Turn: a frozen, validated scripted reply."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError
from agentkit.core.types import ToolCall, Usage
from agentkit.fakes.llm import Turn


def test_defaults_are_an_empty_final_answer() -> None:
    turn = Turn()
    assert (turn.content, turn.tool_calls, turn.usage) == ("", (), None)


def test_turn_is_frozen() -> None:
    turn = Turn(content="a")
    with pytest.raises(dataclasses.FrozenInstanceError):
        turn.content = "b"  # type: ignore[misc]


def test_a_list_of_tool_calls_is_stored_as_a_tuple() -> None:
    call = ToolCall("c1", "search", {"q": "x"})
    turn = Turn(tool_calls=cast(Any, [call]))
    assert turn.tool_calls == (call,)
    assert isinstance(turn.tool_calls, tuple)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"content": 3}, "Turn: content must be a str"),
        ({"tool_calls": ("search",)}, r"Turn: tool_calls\[0\] must be a ToolCall"),
        ({"tool_calls": "search"}, "Turn: tool_calls must be an iterable of ToolCall"),
        ({"usage": {"input_tokens": 1}}, "Turn: usage must be a Usage"),
        ({"reasoning": None}, "Turn: reasoning must be a str"),
    ],
)
def test_bad_fields_are_rejected_with_a_typed_error(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ArgumentTypeError, match=match):
        Turn(**kwargs)


def test_equal_turns_compare_equal() -> None:
    usage = Usage(input_tokens=1)
    assert Turn("a", usage=usage) == Turn("a", usage=usage)
