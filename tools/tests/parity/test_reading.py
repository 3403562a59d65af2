"""The reading check: a result that misreads the printed lines is named, a right one passes."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from agentkit.agents.cognition import ClaudeCliResult, CliError, CodexCliResult
from agentkit.core.types import Usage
from agentkit.fakes.cli import CliRun, Recording
from tools.parity.reading import check_reading


def _rec(cli: str, argv: tuple[str, ...], *objects: dict[str, Any], rc: int = 0) -> Recording:
    stdout = b"".join(json.dumps(o).encode() + b"\n" for o in objects)
    return Recording(cli=cli, argv=argv, run=CliRun(stdout=stdout, returncode=rc))


CLAUDE_RESULT = {
    "type": "result",
    "subtype": "success",
    "is_error": False,
    "result": "Hello.",
    "session_id": "s1",
    "stop_reason": "end_turn",
    "total_cost_usd": 0.5,
    "usage": {"input_tokens": 10, "cache_read_input_tokens": 2, "output_tokens": 3},
}
RIGHT = ClaudeCliResult(
    text="Hello.",
    usage=Usage(input_tokens=10, cached_input_tokens=2, output_tokens=3),
    cost_usd=0.5,
    stop_reason="end_turn",
    session_id="s1",
    returncode=0,
)


def test_a_right_claude_reading_passes_and_each_misreading_is_named() -> None:
    rec = _rec("claude", ("claude", "-p"), CLAUDE_RESULT)
    assert check_reading("claude", [("result", RIGHT)], [rec]) == []
    wrong: dict[str, Any] = {
        "text": "Hello",
        "session_id": "s2",
        "stop_reason": None,
        "cost_usd": 0.0,
        "usage": Usage(input_tokens=10, output_tokens=3),
        "returncode": 1,
        "error": CliError("api_error"),
        "http_status": 401,
    }
    for name, value in wrong.items():
        misread = dataclasses.replace(RIGHT, **{name: value})
        problems = check_reading("claude", [("result", misread)], [rec])
        assert problems, f"a wrong {name} went unnoticed"
        assert any(name.split("_")[0] in p for p in problems), problems


def test_a_structured_output_is_read_as_printed() -> None:
    printed = {**CLAUDE_RESULT, "result": '{"answer":42}', "structured_output": {"answer": 42}}
    rec = _rec("claude", ("claude", "-p", "--json-schema", "{}"), printed)
    right = dataclasses.replace(RIGHT, text='{"answer":42}', structured_output={"answer": 42})
    assert check_reading("claude", [("result", right)], [rec]) == []
    lost = dataclasses.replace(right, structured_output=None)
    problems = check_reading("claude", [("result", lost)], [rec])
    assert any("structured_output" in p for p in problems), problems


def test_results_that_cannot_be_paired_with_the_printed_turns_are_a_problem() -> None:
    rec = _rec("claude", ("claude", "-p"), CLAUDE_RESULT)
    assert "cannot be paired" in check_reading("claude", [("a", RIGHT), ("b", RIGHT)], [rec])[0]


def test_codex_text_thread_usage_and_failure_are_checked() -> None:
    rec = _rec(
        "codex",
        ("codex", "exec"),
        {"type": "thread.started", "thread_id": "t"},
        {"type": "item.completed", "item": {"id": "i", "type": "agent_message", "text": "Hi."}},
        {
            "type": "turn.completed",
            "usage": {"input_tokens": 100, "cached_input_tokens": 40, "output_tokens": 5},
        },
    )
    right = CodexCliResult(
        text="Hi.",
        usage=Usage(input_tokens=60, cached_input_tokens=40, output_tokens=5),
        session_id="t",
        returncode=0,
    )
    assert check_reading("codex", [("result", right)], [rec]) == []
    assert check_reading("codex", [("result", dataclasses.replace(right, text="x"))], [rec])
    uncached = dataclasses.replace(right, usage=Usage(input_tokens=100, output_tokens=5))
    assert check_reading("codex", [("result", uncached)], [rec])
    failed = _rec(
        "codex",
        ("codex", "exec"),
        {"type": "thread.started", "thread_id": "t"},
        {"type": "turn.failed", "error": {"message": "unexpected status 401 Unauthorized"}},
        rc=1,
    )
    ok_but_failed = dataclasses.replace(right, text="", usage=Usage(), returncode=1)
    problems = check_reading("codex", [("result", ok_but_failed)], [failed])
    assert any("turn.failed" in p for p in problems)
    assert any("http_status" in p for p in problems)
