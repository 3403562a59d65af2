"""The codex cognition's public names, pinned."""

from __future__ import annotations

import agentkit.agents.cognition as cognition
from agentkit.agents.cognition import codex, codex_argv, codex_events, codex_result, codex_usage

CODEX_IN_PACKAGE = {
    "CodexCliCognition",
    "CodexCliResult",
    "CodexCliSession",
    "CodexEvent",
    "CodexItem",
}


def test_the_package_exports_exactly_these_codex_names() -> None:
    assert {name for name in cognition.__all__ if "codex" in name.lower()} == CODEX_IN_PACKAGE
    assert cognition.CodexCliCognition is codex.CodexCliCognition
    assert cognition.CodexCliSession is codex.CodexCliSession
    assert cognition.CodexCliResult is codex_result.CodexCliResult
    assert cognition.CodexEvent is codex_events.CodexEvent
    assert cognition.CodexItem is codex_events.CodexItem


def test_module_all_is_pinned() -> None:
    assert set(codex.__all__) == {
        "CODEX_BILLING_MODEL",
        "DEFAULT_CODEX_TIMEOUT",
        "CodexCliCognition",
        "CodexCliSession",
    }
    assert set(codex_result.__all__) == {"CodexCliResult"}
    assert set(codex_usage.__all__) == {"CODEX_MODE", "TurnUsage", "turn_usage"}
    assert set(codex_argv.__all__) == {"RESUME_REJECTED_FLAGS", "codex_exec_argv"}
    assert set(codex_events.__all__) == {
        "AgentMessage",
        "CodexEvent",
        "CodexEventError",
        "CodexItem",
        "CodexLineProblem",
        "CodexTurn",
        "CodexTurnFold",
        "CommandExecution",
        "FileChange",
        "FileChangeEntry",
        "ItemEvent",
        "ItemPhase",
        "McpToolCall",
        "Reasoning",
        "StreamError",
        "TodoEntry",
        "TodoList",
        "TurnCompleted",
        "TurnFailed",
        "TurnStarted",
        "ThreadStarted",
        "UnknownEvent",
        "UnknownItem",
        "WarningItem",
        "WebSearch",
        "map_event",
        "parse_usage",
    }
    for module in (codex, codex_result, codex_usage, codex_argv, codex_events):
        for name in module.__all__:
            assert hasattr(module, name), f"{module.__name__}.__all__ names missing {name}"
