"""A codex turn's charge: the difference of the thread's running total, then the split."""

from __future__ import annotations

import pytest

from agentkit.agents.cognition.codex._usage import CODEX_MODE, turn_usage
from agentkit.core.pricing import OPENAI_API, RawUsage
from agentkit.core.types import Usage


def test_codex_reports_in_the_openai_convention() -> None:
    assert CODEX_MODE is OPENAI_API
    assert CODEX_MODE.input_includes_cached


def test_first_turn_is_its_own_total_split_exclusive_of_cached() -> None:
    # message-success recording: 1200 input of which 200 cached, 30 output of which 12 reasoning
    got = turn_usage(RawUsage(1200, 200, 0, 30, 12))
    assert got.usage == Usage(1000, 200, 0, 30, 12)
    assert got.raw == got.cumulative == RawUsage(1200, 200, 0, 30, 12)
    assert not got.reset


def test_cache_write_is_also_inside_input() -> None:
    # fullsend live capture: 41320 input = 9 fresh + 27386 cached + 13925 written
    got = turn_usage(RawUsage(41320, 27386, 13925, 295, 74))
    assert got.usage.input_tokens == 9
    assert got.usage.prompt_tokens == 41320


def test_resumed_turns_are_charged_the_difference_not_the_running_total() -> None:
    # message-success -> exec-resume -> exec-resume-second (one thread, three spawns)
    first = RawUsage(1200, 200, 0, 30, 12)
    second = RawUsage(2700, 1400, 0, 50, 12)
    third = RawUsage(4200, 2600, 0, 70, 12)
    two = turn_usage(second, first)
    three = turn_usage(third, second)
    assert two.raw == RawUsage(1500, 1200, 0, 20, 0)
    assert two.usage == Usage(300, 1200, 0, 20, 0)
    assert three.usage == Usage(300, 1200, 0, 20, 0)
    assert two.cumulative == second
    # the three charges add back up to the thread's total, split once
    total = turn_usage(first).usage + two.usage + three.usage
    assert total == OPENAI_API.normalise(third)


def test_a_total_that_went_down_is_a_restarted_baseline_charged_whole() -> None:
    got = turn_usage(RawUsage(100, 10, 0, 5, 0), RawUsage(4200, 2600, 0, 70, 12))
    assert got.reset
    assert got.usage == Usage(90, 10, 0, 5, 0)


def test_more_cached_than_input_is_a_broken_report() -> None:
    with pytest.raises(ValueError, match="inclusive of cached"):
        turn_usage(RawUsage(10, 20, 0, 1, 0))
    with pytest.raises(ValueError, match="inclusive of cached"):
        turn_usage(RawUsage(110, 100, 0, 1, 0), RawUsage(100, 80, 0, 1, 0))
