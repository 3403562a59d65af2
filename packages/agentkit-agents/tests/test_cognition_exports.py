"""The cognition package's public API, pinned, and the two CLIs' symmetry.

A reader who learned one CLI's subpackage knows the other's: the same
modules, the same names for the same things, the same constructor keywords
in the same order.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import agentkit.agents.cognition as cognition
from agentkit.agents.cognition import claude, codex

CLAUDE = {
    "ClaudeAssistant",
    "ClaudeCliCognition",
    "ClaudeCliResult",
    "ClaudeCliSession",
    "ClaudeEvent",
    "ClaudeInit",
    "ClaudeOther",
    "ClaudeResult",
    "ClaudeSystem",
    "ClaudeUser",
    "ContentBlock",
    "McpServerStatus",
    "PermissionDenial",
    "TextBlock",
    "ThinkingBlock",
    "ToolResultBlock",
    "ToolUseBlock",
    "UnknownBlock",
}

CODEX = {
    "AgentMessage",
    "CodexCliCognition",
    "CodexCliResult",
    "CodexCliSession",
    "CodexEvent",
    "CodexItem",
    "CommandExecution",
    "FileChange",
    "FileChangeEntry",
    "ItemEvent",
    "ItemPhase",
    "McpToolCall",
    "Reasoning",
    "StreamError",
    "ThreadStarted",
    "TodoEntry",
    "TodoList",
    "TurnCompleted",
    "TurnFailed",
    "TurnStarted",
    "UnknownEvent",
    "UnknownItem",
    "WarningItem",
    "WebSearch",
}

# The package re-exports all of claude's names and codex's cognition, session,
# result and event unions (codex's item classes stay in agentkit.agents.cognition.codex).
TOP_LEVEL = {
    "DEFAULT_KILL_GRACE",
    "DEFAULT_LINE_LIMIT",
    "DEFAULT_TIMEOUT",
    "CliError",
    "CliProcess",
    "CliResult",
    "CliSession",
    "ErrorCode",
    "ErrorKind",
    "EventProblem",
    "SessionStateError",
    "SkipReason",
    "SkippedLine",
    "default_spawn",
    *CLAUDE,
    *{"CodexCliCognition", "CodexCliResult", "CodexCliSession", "CodexEvent", "CodexItem"},
}

# Public modules of each CLI, and the internal ones (the fold and the charge rule).
SHAPE = {"argv", "events", "result", "cognition", "_turn", "_usage"}
# The same things under the same names, module for module.
SHARED_NAMES = {"argv": {"build_argv"}, "events": {"map_event", "EventError"}}


def test_the_package_exports_exactly_these_names() -> None:
    assert len(set(cognition.__all__)) == len(cognition.__all__)
    assert set(cognition.__all__) == TOP_LEVEL
    for name in TOP_LEVEL:
        assert hasattr(cognition, name)
    assert importlib.import_module("agentkit.agents").__all__ == []


def test_the_top_level_names_are_the_subpackages_objects() -> None:
    assert cognition.ClaudeCliCognition is claude.ClaudeCliCognition
    assert cognition.ClaudeCliResult is claude.ClaudeCliResult
    assert cognition.CodexCliCognition is codex.CodexCliCognition
    assert cognition.CodexCliResult is codex.CodexCliResult


def _modules(package: object) -> set[str]:
    path = package.__path__  # type: ignore[attr-defined]
    return {info.name for info in pkgutil.iter_modules(path)}


def test_both_clis_have_the_same_module_shape() -> None:
    # claude names its own API failures; the table mapping them is claude's alone.
    assert _modules(claude) == SHAPE | {"api_errors"}
    assert _modules(codex) == SHAPE
    for package in (claude, codex):
        for module in sorted(m for m in SHAPE if not m.startswith("_")):
            loaded = importlib.import_module(f"{package.__name__}.{module}")
            for name in loaded.__all__:
                assert hasattr(loaded, name), f"{loaded.__name__}.__all__ names missing {name}"


def test_each_cli_exports_what_a_caller_handles() -> None:
    # The cognition, its session, its result and the events a result carries; the
    # fold and the charge rule are internal, the argv and event mapping live in
    # their public modules.
    assert set(claude.__all__) == CLAUDE
    assert set(codex.__all__) == CODEX
    for package in (claude, codex):
        assert len(set(package.__all__)) == len(package.__all__), package.__name__
        for name in package.__all__:
            assert hasattr(package, name), f"{package.__name__} misses {name}"


def test_the_same_things_have_the_same_names() -> None:
    for package in (claude, codex):
        for module, names in SHARED_NAMES.items():
            loaded = importlib.import_module(f"{package.__name__}.{module}")
            assert set(loaded.__all__) >= names, loaded.__name__
    from agentkit.agents.cognition.claude.events import EventError as ClaudeEventError
    from agentkit.agents.cognition.codex.events import EventError as CodexEventError

    assert ClaudeEventError is CodexEventError  # one schema error for both


def test_the_results_are_both_subclasses_of_the_shared_result() -> None:
    assert issubclass(claude.ClaudeCliResult, cognition.CliResult)
    assert issubclass(codex.CodexCliResult, cognition.CliResult)


def test_the_constructors_take_the_same_keywords_in_the_same_order() -> None:
    claude_params = list(inspect.signature(claude.ClaudeCliCognition).parameters)
    codex_params = list(inspect.signature(codex.CodexCliCognition).parameters)
    # codex adds one keyword of its own, last: how long it may keep reconnecting.
    assert codex_params == [*claude_params, "reconnect_window"]
    claude_defaults = inspect.signature(claude.ClaudeCliCognition).parameters
    codex_defaults = inspect.signature(codex.CodexCliCognition).parameters
    assert claude_defaults["timeout"].default == codex_defaults["timeout"].default
    assert claude_defaults["timeout"].default == cognition.DEFAULT_TIMEOUT
