"""The cognition package's claude + shared-base API, pinned exactly.

Names defined in the codex modules (``agentkit.agents.cognition.codex*``)
are pinned by the codex tests; every other exported name is listed here.
"""

from __future__ import annotations

import importlib
import pkgutil

import agentkit.agents
import agentkit.agents.cognition as cognition

BASE_AND_CLAUDE = {
    "DEFAULT_KILL_GRACE",
    "DEFAULT_LINE_LIMIT",
    "CliError",
    "CliProcess",
    "CliResult",
    "SkipReason",
    "SkippedLine",
    "default_spawn",
    "ClaudeAssistant",
    "ClaudeCliCognition",
    "ClaudeCliSession",
    "ClaudeEvent",
    "ClaudeInit",
    "ClaudeOther",
    "ClaudeResult",
    "ClaudeSystem",
    "ClaudeUser",
    "ContentBlock",
    "TextBlock",
    "ThinkingBlock",
    "ToolResultBlock",
    "ToolUseBlock",
    "UnknownBlock",
}


def _codex_names() -> set[str]:
    names: set[str] = set()
    for info in pkgutil.iter_modules(cognition.__path__):
        if info.name.startswith("codex"):
            module = importlib.import_module(f"{cognition.__name__}.{info.name}")
            names.update(getattr(module, "__all__", ()))
    return names


def test_cognition_exports_exactly_the_base_and_claude_names() -> None:
    exported = set(cognition.__all__)
    assert len(exported) == len(cognition.__all__)  # no duplicates
    mine = exported - _codex_names()
    assert mine == BASE_AND_CLAUDE
    for name in exported:
        assert hasattr(cognition, name)


def test_the_agents_package_exports_nothing_itself() -> None:
    assert agentkit.agents.__all__ == []
