"""tools/hardening/process_scenarios: its catalogue, its measures, and that a miss is reported.

A few scenarios run for real here (the whole catalogue is the tool's own
run); a deliberately wrong expectation proves a miss fails.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tools.hardening import process_scenarios as scenarios

pytestmark = pytest.mark.agentkit(real_processes=True)

SAMPLE = (
    "well-behaved",
    "grandchild-holds-stdout-after-answer",
    "stop-after-answer-lingering",
    "stderr-1mb-before-stdout",
    "token-cancel-ignoring-sigterm",
    "escaped-holder-in-own-session",
    "claude-session-aclose-child-ignores-eof-and-sigterm",
    "claude-session-aclose-unsent-input-stdin-holder",
)


def test_the_catalogue_has_the_32_scenarios_it_promises_named_once() -> None:
    names = [s.name for s in scenarios.SCENARIOS]
    assert len(names) >= 32
    assert len(set(names)) == len(names)
    assert {s.drive for s in scenarios.SCENARIOS} == {
        "read",
        "token",
        "task",
        "stop",
        "session",
        "claude-session",
    }
    # the racy ends are repeated, so an intermittent leak shows in one run of the tool
    racy = {s.name for s in scenarios.SCENARIOS if s.repeat > 1}
    assert "claude-session-aclose-child-ignores-eof-and-sigterm" in racy
    assert scenarios.BOUND == scenarios.TIMEOUT + scenarios.KILL_GRACE + 1.0


@pytest.fixture
def roomy(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 5 s timeout instead of the tool's 1 s: a loaded test machine must not turn a
    scenario into a timeout (the bound is the tool's measure, not this test's)."""
    monkeypatch.setattr(scenarios, "TIMEOUT", 5.0)
    monkeypatch.setattr(scenarios, "BOUND", 5.0 + scenarios.KILL_GRACE + 1.0)


@pytest.mark.usefixtures("roomy")
@pytest.mark.parametrize("name", SAMPLE)
async def test_a_scenario_ends_as_expected_leaving_nothing(name: str, tmp_path: Path) -> None:
    (scenario,) = [s for s in scenarios.SCENARIOS if s.name == name]
    await scenarios.run_scenario(scenarios.SCENARIOS[0], tmp_path)  # warm-up: the loop's fds
    measure = await scenarios.run_scenario(scenario, tmp_path)
    assert measure.outcome == scenario.expect, measure.detail
    assert (measure.left, measure.escaped, measure.fds) == (0, 0, 0)


@pytest.mark.usefixtures("roomy")
async def test_a_missed_expectation_fails_the_scenario(tmp_path: Path) -> None:
    wrong = dataclasses.replace(scenarios.SCENARIOS[0], expect="timeout")
    measure = await scenarios.run_scenario(wrong, tmp_path)
    assert measure.outcome == "ok"
    assert not measure.passed


@pytest.mark.usefixtures("roomy")
async def test_repeats_are_measured_as_the_worst_of_them(tmp_path: Path) -> None:
    (scenario,) = [s for s in scenarios.SCENARIOS if s.name == "well-behaved"]
    measures = await scenarios.run_all([dataclasses.replace(scenario, repeat=3)])
    assert [m.runs for m in measures] == [3]
    assert measures[0].passed
