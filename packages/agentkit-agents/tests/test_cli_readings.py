"""What the CLIs print on their less common paths, read into the result and the charge.

Each case is a stream of the shape the real CLI prints (claude 2.1.336,
codex 0.171.0), replayed through the doubles into the real cognition.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentkit.agents.cognition import ClaudeCliCognition, CodexCliCognition
from agentkit.agents.cognition.codex.events import ItemEvent, StreamError, WebSearch
from agentkit.core.runtime import RunContext
from agentkit.core.types import Usage
from agentkit.fakes.cli import CliRun, FakeClaudeCli, FakeCodexCli, codex_turn
from tests.support.cli import claude_result

RECORDINGS = (
    Path(__file__).resolve().parents[2]
    / "agentkit-fakes-cli"
    / "src"
    / "agentkit"
    / "fakes"
    / "cli"
    / "recordings"
)
MODEL = "claude-sonnet-4-5-20250929"
FALLBACK = "claude-opus-4-1-20250805"


def _lines(*objects: Mapping[str, Any]) -> bytes:
    return b"".join(json.dumps(obj).encode() + b"\n" for obj in objects)


def _init() -> dict[str, Any]:
    return {"type": "system", "subtype": "init", "session_id": "s", "model": MODEL}


async def _claude(*objects: Mapping[str, Any], returncode: int = 0) -> Any:
    cli = FakeClaudeCli([CliRun(stdout=_lines(*objects), returncode=returncode)])
    ctx = RunContext()
    result = await ClaudeCliCognition(cli, timeout=10).drive(ctx, "go")
    return result, ctx


ZERO_USAGE = {
    "input_tokens": 0,
    "cache_creation_input_tokens": 0,
    "cache_read_input_tokens": 0,
    "output_tokens": 0,
}


async def test_a_budget_stop_charges_the_tokens_the_cli_reports_per_model() -> None:
    stopped = claude_result(
        subtype="error_max_budget_usd",
        is_error=True,
        result=None,
        errors=["Reached maximum budget ($1e-06)"],
        total_cost_usd=0.00123,
        usage=ZERO_USAGE,
        modelUsage={
            MODEL: {
                "inputTokens": 120,
                "outputTokens": 30,
                "cacheReadInputTokens": 40,
                "cacheCreationInputTokens": 0,
                "costUSD": 0.00123,
            }
        },
    )
    result, ctx = await _claude(_init(), stopped, returncode=1)
    assert result.error is not None
    assert result.error.code == "error_max_budget_usd"
    assert result.usage == Usage(input_tokens=120, cached_input_tokens=40, output_tokens=30)
    assert ctx.ledger.cost_usd == 0.00123
    assert ctx.ledger.usage.output_tokens == 30


async def test_the_tokens_since_the_last_result_win_over_the_running_total() -> None:
    stopped = claude_result(
        usage=ZERO_USAGE,
        model_usage_since_last_result={MODEL: {"inputTokens": 7, "outputTokens": 3}},
        modelUsage={MODEL: {"inputTokens": 700, "outputTokens": 300}},
    )
    result, _ = await _claude(_init(), stopped)
    assert result.usage == Usage(input_tokens=7, output_tokens=3)


async def test_a_reported_usage_is_never_replaced() -> None:
    result, _ = await _claude(
        _init(), claude_result(modelUsage={MODEL: {"inputTokens": 700, "outputTokens": 300}})
    )
    assert result.usage == Usage(input_tokens=10, output_tokens=5)


async def test_a_json_schema_run_puts_its_structured_output_on_the_result() -> None:
    value = {"answer": 42, "items": ["a", "b"]}
    result, _ = await _claude(_init(), claude_result(structured_output=value))
    assert result.ok
    assert result.structured_output == value
    plain, _ = await _claude(_init(), claude_result())
    assert plain.structured_output is None


def _fallback(**fields: Any) -> dict[str, Any]:
    return {
        "type": "system",
        "subtype": "model_refusal_fallback",
        "trigger": "refusal",
        "direction": "retry",
        "original_model": MODEL,
        "fallback_model": FALLBACK,
        "session_id": "s",
        **fields,
    }


async def test_after_a_refusal_fallback_the_turn_is_charged_under_the_fallback_model() -> None:
    result, ctx = await _claude(_init(), _fallback(), claude_result())
    assert result.model == FALLBACK
    assert set(ctx.ledger.by_model) == {FALLBACK}


async def test_a_local_or_reverted_fallback_leaves_the_session_model() -> None:
    local, _ = await _claude(_init(), _fallback(scope="local"), claude_result())
    assert local.model == MODEL
    reverted, _ = await _claude(
        _init(), _fallback(), _fallback(direction="revert"), claude_result()
    )
    assert reverted.model == MODEL


def test_codex_turn_failed_prints_the_error_event_first_as_real_codex_does() -> None:
    events = codex_turn(failed="unexpected status 401 Unauthorized")
    assert [e["type"] for e in events[-2:]] == ["error", "turn.failed"]
    assert events[-2]["message"] == events[-1]["error"]["message"]
    explicit = codex_turn(failed="boom", error="Reconnecting... 1/5")
    assert explicit[-2] == {"type": "error", "message": "Reconnecting... 1/5"}


async def test_codex_http_400_recovers_the_status_from_the_raw_body() -> None:
    cli = FakeCodexCli.replay(RECORDINGS / "codex" / "http-400.jsonl")
    result = await CodexCliCognition(cli, timeout=10).drive(RunContext(), "Say hello.")
    error = result.error
    assert error is not None
    assert error.code == "invalid_request"
    assert result.http_status == 400
    assert error.details["api_error_type"] == "invalid_request_error"
    assert error.details["stream_errors"]
    assert any(isinstance(e, StreamError) for e in result.events)


async def test_codex_web_search_keeps_its_action() -> None:
    action = {"type": "open_page", "url": "https://example.com"}
    item = {"id": "ws", "type": "web_search", "query": "q", "action": action}
    cli = FakeCodexCli.script(codex_turn(text="done", items=[item], usage=(5, 0, 1)))
    result = await CodexCliCognition(cli, timeout=10).drive(RunContext(), "go")
    searches = [
        e.item for e in result.events if isinstance(e, ItemEvent) and isinstance(e.item, WebSearch)
    ]
    assert [s.action for s in searches] == [action]
