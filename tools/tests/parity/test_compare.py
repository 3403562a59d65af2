"""The field-by-field comparison: silent on equal results, names each field that differs."""

from __future__ import annotations

from agentkit.agents.cognition import CliError, CliResult
from agentkit.agents.cognition.claude import ClaudeAssistant, TextBlock, ToolUseBlock
from agentkit.core.types import Usage
from tools.parity.compare import differences, tool_calls


def _result(**changes: object) -> CliResult[object]:
    base: dict[str, object] = {
        "text": "hello",
        "usage": Usage(input_tokens=10, output_tokens=2),
        "cost_usd": 0.5,
        "session_id": "s-1",
        "events": (
            ClaudeAssistant(
                message_id="m1",
                blocks=(TextBlock("hi"), ToolUseBlock(id="t1", name="Bash", input={"c": "ls"})),
            ),
        ),
        "returncode": 0,
    }
    base.update(changes)
    return CliResult(**base)  # type: ignore[arg-type]


def test_equal_observations_have_no_differences() -> None:
    assert differences([("result", _result())], [("result", _result())]) == []


def test_a_scalar_field_that_differs_is_named_with_both_values() -> None:
    found = differences([("result", _result())], [("result", _result(cost_usd=0.25))])
    assert found == ["result.cost_usd: real 0.5 != replay 0.25"]


def test_nested_usage_is_compared_field_by_field() -> None:
    found = differences(
        [("result", _result())],
        [("result", _result(usage=Usage(input_tokens=10, output_tokens=3)))],
    )
    assert found == ["result.usage.output_tokens: real 2 != replay 3"]


def test_errors_compare_by_code_message_and_evidence_not_identity() -> None:
    same = differences(
        [("result", _result(error=CliError("rate_limit", "429", returncode=1)))],
        [("result", _result(error=CliError("rate_limit", "429", returncode=1)))],
    )
    assert same == []
    found = differences(
        [("result", _result(error=CliError("rate_limit", "429")))],
        [("result", _result(error=CliError("api_error", "429")))],
    )
    assert found == ["result.error['code']: real 'rate_limit' != replay 'api_error'"]
    missing = differences([("result", _result(error=CliError("timeout")))], [("result", _result())])
    assert len(missing) == 1
    assert missing[0].startswith("result.error: real ")


def test_the_first_differing_event_is_named_by_index() -> None:
    other = ClaudeAssistant(
        message_id="m1",
        blocks=(TextBlock("hi"), ToolUseBlock(id="t1", name="Bash", input={"c": "pwd"})),
    )
    found = differences([("result", _result())], [("result", _result(events=(other,)))])
    assert found == ["result.events[0].blocks[1].input['c']: real 'ls' != replay 'pwd'"]


def test_a_missing_event_is_counted() -> None:
    found = differences([("result", _result())], [("result", _result(events=()))])
    assert found == ["result.events: 1 items real, 0 replayed"]


def test_different_observation_labels_are_reported() -> None:
    found = differences([("a", 1), ("b", 2)], [("a", 1)])
    assert found == ["observations differ: real ['a', 'b'], replay ['a']"]


def test_tool_calls_lists_the_tool_use_blocks() -> None:
    assert tool_calls(_result()) == ["Bash({'c': 'ls'})"]
    assert tool_calls(_result(events=())) == []
