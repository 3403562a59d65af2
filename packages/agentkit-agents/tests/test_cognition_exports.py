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
from agentkit.agents.cognition.options import DEFAULT_TIMEOUT

# Each CLI's subpackage exports the events a result carries.
CLAUDE = {
    "ClaudeAssistant",
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

# The package exports the cognitions, their sessions and results, the errors, and the
# real spawn; how a child is run (CliProcess and its figures) is the runner's, internal.
TOP_LEVEL = {
    "ClaudeCliCognition",
    "ClaudeCliResult",
    "ClaudeCliSession",
    "CliError",
    "CliResult",
    "CliSession",
    "CodexCliCognition",
    "CodexCliResult",
    "CodexCliSession",
    "ErrorCode",
    "ErrorKind",
    "EventProblem",
    "SessionStateError",
    "SkipReason",
    "SkippedLine",
    "default_spawn",
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


def test_the_top_level_names_are_their_modules_objects() -> None:
    from agentkit.agents.cognition.claude import cognition as claude_cognition
    from agentkit.agents.cognition.codex import cognition as codex_cognition

    assert cognition.ClaudeCliCognition is claude_cognition.ClaudeCliCognition
    assert cognition.CodexCliCognition is codex_cognition.CodexCliCognition
    assert not set(cognition.__all__) & (set(claude.__all__) | set(codex.__all__))


def test_the_runner_is_not_exported() -> None:
    for name in ("CliProcess", "DEFAULT_KILL_GRACE", "DEFAULT_LINE_LIMIT", "DEFAULT_TIMEOUT"):
        assert name not in cognition.__all__
        assert not hasattr(cognition, name), name


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


def test_each_cli_exports_the_events_a_result_carries() -> None:
    # The cognition, its session and its result are the package's; the fold and the
    # charge rule are internal, the argv and event mapping live in their public modules.
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
    assert issubclass(cognition.ClaudeCliResult, cognition.CliResult)
    assert issubclass(cognition.CodexCliResult, cognition.CliResult)


def test_the_constructors_take_the_same_keywords_in_the_same_order() -> None:
    claude_params = list(inspect.signature(cognition.ClaudeCliCognition).parameters)
    codex_params = list(inspect.signature(cognition.CodexCliCognition).parameters)
    # codex adds one keyword of its own, last: how long it may keep reconnecting.
    assert codex_params == [*claude_params, "reconnect_window"]
    claude_defaults = inspect.signature(cognition.ClaudeCliCognition).parameters
    codex_defaults = inspect.signature(cognition.CodexCliCognition).parameters
    assert claude_defaults["timeout"].default == codex_defaults["timeout"].default
    assert claude_defaults["timeout"].default == DEFAULT_TIMEOUT
