"""Compactor, Grounder, Asker, Checkpointer and Meter: each check fails, in both forms, on a realistic wrong implementation.

The rows and what they must come to: ``tests.support.contract_runs``.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Mapping, Sequence
from typing import Any

from agentkit.core.testing import contracts
from agentkit.core.types import (
    Message,
    ToolCall,
    Usage,
)
from tests.support.contract_runs import (
    WrongTable,
    cases,
)

# ---------------------------------------------------------------- services


class InPlaceCompactor:
    async def compact(self, messages: Sequence[Message]) -> list[Message]:
        kept = messages if isinstance(messages, list) else list(messages)
        del kept[1:-2]  # trims the caller's own transcript
        return kept


class SummaryTextCompactor:
    async def compact(self, messages: Sequence[Message]) -> list[Message]:
        return f"summary of {len(messages)} messages"  # type: ignore[return-value]


class IdentityCompactor:
    async def compact(self, messages: Sequence[Message]) -> list[Message]:
        return messages if isinstance(messages, list) else list(messages)


class NoneWhenNothingGrounder:
    async def ground(self, ctx: Any, task: str) -> str:
        return "agentkit is a test kit" if "agentkit" in task else None  # type: ignore[return-value]


class SharedStateGrounder:
    async def ground(self, ctx: Any, task: str) -> str:
        self.task = task
        await asyncio.sleep(0)  # the lookup
        return f"facts about: {self.task}"


class WordAsker:
    async def ask(self, question: str, *, tool_call: ToolCall) -> bool:
        return "yes"  # type: ignore[return-value]


class DenyOnCancelAsker:
    """Parks on a future, and answers 'no' when the wait is cancelled."""

    async def ask(self, question: str, *, tool_call: ToolCall) -> bool:
        try:
            parked: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
            return await parked
        except asyncio.CancelledError:
            return False


class DictCheckpointer:
    """A correct checkpointer: a deep copy in and a deep copy out."""

    def __init__(self) -> None:
        self.states: dict[str, Any] = {}

    async def save(self, key: str, state: Mapping[str, Any]) -> None:
        self.states[key] = copy.deepcopy(dict(state))

    async def load(self, key: str) -> Mapping[str, Any] | None:
        return copy.deepcopy(self.states.get(key))


class KeyErrorCheckpointer(DictCheckpointer):
    async def load(self, key: str) -> Mapping[str, Any] | None:
        return dict(self.states[key])


class ReferenceCheckpointer(DictCheckpointer):
    async def save(self, key: str, state: Mapping[str, Any]) -> None:
        self.states[key] = state

    async def load(self, key: str) -> Mapping[str, Any] | None:
        return self.states.get(key)


class MergingCheckpointer(DictCheckpointer):
    async def save(self, key: str, state: Mapping[str, Any]) -> None:
        self.states.setdefault(key, {}).update(state)


class OneSlotCheckpointer(DictCheckpointer):
    async def save(self, key: str, state: Mapping[str, Any]) -> None:
        await super().save("only", state)

    async def load(self, key: str) -> Mapping[str, Any] | None:
        return await super().load("only")


class ReprCheckpointer(DictCheckpointer):
    async def load(self, key: str) -> Mapping[str, Any] | None:
        state = self.states.get(key)
        return None if state is None else {"state": repr(state)}


class AsyncMeter:
    async def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        self.last = (usage, cost_usd, model)


class FluentMeter:
    def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        return self  # type: ignore[return-value]


class KnownModelsMeter:
    def __init__(self) -> None:
        self.by_model: dict[str, float] = {"m": 0.0}

    def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        self.by_model[model] += cost_usd  # KeyError for a model not set up front


class PositiveCostMeter:
    def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        if not cost_usd > 0:
            raise ValueError(f"cost must be positive, got {cost_usd}")


# ------------------------------------------------------------------- table


CASES = [
    *cases(
        "compactor",
        ("compact_returns_a_list_of_messages", SummaryTextCompactor, "str 'summary"),
        ("compact_leaves_the_callers_transcript_unchanged", InPlaceCompactor, "went from 13 to 3"),
        ("compact_returns_a_new_list", IdentityCompactor, "very list"),
        ("compact_returns_a_new_list", InPlaceCompactor, "very list"),
    ),
    *cases(
        "grounder",
        ("ground_returns_a_str", NoneWhenNothingGrounder, "NoneType"),
        ("concurrent_grounds_do_not_mix", SharedStateGrounder, "beside"),
    ),
    *cases(
        "asker",
        ("ask_answers_with_a_bool", WordAsker, "str 'yes'"),
        ("a_cancelled_ask_raises_cancelled_error", DenyOnCancelAsker, "bool False"),
    ),
    *cases(
        "checkpointer",
        ("load_of_an_unsaved_key_is_none", KeyErrorCheckpointer, "KeyError"),
        ("a_saved_state_loads_back_equal", ReprCheckpointer, "'state'"),
        ("a_second_save_replaces_the_first", MergingCheckpointer, "first_only"),
        (
            "the_saved_state_cannot_be_changed_through_a_copy",
            ReferenceCheckpointer,
            "changed by the caller",
        ),
        ("keys_are_independent", OneSlotCheckpointer, "99"),
    ),
    *cases(
        "meter",
        ("record_returns_none", AsyncMeter, "coroutine"),
        ("record_returns_none", FluentMeter, "FluentMeter"),
        ("record_takes_any_model_and_zero_charges", KnownModelsMeter, "KeyError"),
        ("record_takes_any_model_and_zero_charges", PositiveCostMeter, "must be positive"),
    ),
]


class TestTable(WrongTable):
    group = "services"
    wrong = CASES


# --------------------------------------- the correct bases of the wrong ones pass


async def test_a_checkpointer_that_copies_in_and_out_passes() -> None:
    assert await contracts.check_checkpointer(DictCheckpointer) == []
