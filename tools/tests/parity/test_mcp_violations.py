"""The runner's claim about the doubles' violations: exactly the scenario's expected kinds."""

from __future__ import annotations

import dataclasses

from agentkit.core.verification import Violation
from tools.parity.runner import _violations
from tools.parity.scenarios import by_name


class _Double:
    verify_enabled = True

    def __init__(self, *kinds: str) -> None:
        self._kinds = kinds

    def violations(self) -> list[Violation]:
        return [Violation("D", "here", kind, "detail", "fix") for kind in self._kinds]


def test_a_run_that_leaves_exactly_the_expected_kinds_passes() -> None:
    (scenario,) = by_name(["claude/mcp-denied"])
    assert scenario.expect_violations == ("expectation_unmet",)
    assert _violations(scenario, [_Double(), _Double("expectation_unmet")]) == []


def test_a_missing_or_an_unexpected_kind_is_a_problem() -> None:
    (scenario,) = by_name(["claude/mcp-denied"])
    missing = _violations(scenario, [_Double()])
    assert missing == ["test doubles: no expectation_unmet violation, which this run must leave"]
    extra = _violations(scenario, [_Double("expectation_unmet", "undeclared_tool")])
    assert len(extra) == 1
    assert "undeclared_tool" in extra[0]


def test_a_scenario_expecting_nothing_fails_on_any_violation() -> None:
    (scenario,) = by_name(["codex/mcp-tool-call"])
    assert scenario.expect_violations == ()
    assert _violations(dataclasses.replace(scenario), [_Double("never_connected")]) != []
