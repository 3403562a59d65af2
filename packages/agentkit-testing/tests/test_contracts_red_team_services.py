"""Compactor, Grounder, Asker, Checkpointer and Meter, the red team: mistakes seen in real code, and correct ones built otherwise.

The rows and what they must come to: ``tests.support.contract_runs``.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from agentkit.core.types import (
    Message,
    Usage,
)
from tests.support.contract_runs import (
    RedTeamTable,
    Right,
    Wrong,
)

# --------------------------------------------------- compactor, grounder, asker


class KeepLastCompactor:
    """Correct: the system message and the last four, in a new list."""

    async def compact(self, messages: Sequence[Message]) -> list[Message]:
        head = [m for m in messages[:1] if m.role == "system"]
        return [*head, *list(messages)[-4:]]


class SliceCompactor:
    """messages[-4:]: a tuple in, a tuple out."""

    async def compact(self, messages: Sequence[Message]) -> list[Message]:
        return messages[-4:]  # type: ignore[return-value]


class DictMessagesCompactor(KeepLastCompactor):
    """Returns the provider's dict shape instead of Message objects."""

    async def compact(self, messages: Sequence[Message]) -> list[Message]:
        kept = await super().compact(messages)
        return [{"role": m.role, "content": m.content} for m in kept]  # type: ignore[misc]


class DictGrounder:
    """Correct: a dict of known topics; nothing known is the empty string."""

    async def ground(self, ctx: Any, task: str) -> str:
        await asyncio.sleep(0)
        return "agentkit is a test kit" if "agentkit" in task else ""


class ListGrounder:
    """Returns the documents it found, not the block made of them."""

    async def ground(self, ctx: Any, task: str) -> str:
        return ["agentkit is a test kit"] if "agentkit" in task else []  # type: ignore[return-value]


class LastTaskGrounder:
    """Keeps the task on self across an await: two grounds at once answer each other's."""

    async def ground(self, ctx: Any, task: str) -> str:
        self.task = task
        await asyncio.sleep(0.01)
        return "agentkit is a test kit" if "agentkit" in self.task else ""


class QueueAsker:
    """Correct: an asyncio.Queue a UI answers through (the answer option plays the UI)."""

    def __init__(self) -> None:
        self.answers: asyncio.Queue[bool] = asyncio.Queue()

    async def ask(self, question: str, *, tool_call: Any) -> bool:
        return await self.answers.get()


async def _approve(asker: Any) -> None:
    await asker.answers.put(True)


class IntAsker(QueueAsker):
    """Answers 1/0 from a form field."""

    async def ask(self, question: str, *, tool_call: Any) -> bool:
        return int(await self.answers.get())  # type: ignore[return-value]


class TimeoutDenyAsker(QueueAsker):
    """Treats any interruption, a cancel included, as "denied"."""

    async def ask(self, question: str, *, tool_call: Any) -> bool:
        try:
            return await self.answers.get()
        except asyncio.CancelledError:
            return False


# --------------------------------------------------- checkpointer, meter


class SqliteCheckpointer:
    """Correct: JSON text in sqlite, so what is saved and loaded are copies by construction."""

    def __init__(self) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.execute("create table states (key text primary key, state text)")

    async def save(self, key: str, state: Mapping[str, Any]) -> None:
        self.db.execute(
            "insert or replace into states values (?, ?)", (key, json.dumps(dict(state)))
        )

    async def load(self, key: str) -> Mapping[str, Any] | None:
        row = self.db.execute("select state from states where key = ?", (key,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))


class EmptyDictCheckpointer(SqliteCheckpointer):
    """An unsaved key loads as {} ("nothing saved yet")."""

    async def load(self, key: str) -> Mapping[str, Any] | None:
        return await super().load(key) or {}


class ShallowCopyCheckpointer:
    """dict(state): a shallow copy, so the nested messages list is still the caller's."""

    def __init__(self) -> None:
        self.states: dict[str, dict[str, Any]] = {}

    async def save(self, key: str, state: Mapping[str, Any]) -> None:
        self.states[key] = dict(state)

    async def load(self, key: str) -> Mapping[str, Any] | None:
        state = self.states.get(key)
        return None if state is None else dict(state)


class AppendingCheckpointer(SqliteCheckpointer):
    """'insert' without 'or replace' and a read of the first row: the first save wins."""

    def __init__(self) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.execute("create table states (key text, state text)")

    async def save(self, key: str, state: Mapping[str, Any]) -> None:
        self.db.execute("insert into states values (?, ?)", (key, json.dumps(dict(state))))

    async def load(self, key: str) -> Mapping[str, Any] | None:
        row = self.db.execute(
            "select state from states where key = ? order by rowid", (key,)
        ).fetchone()
        return None if row is None else dict(json.loads(row[0]))


class TotalsMeter:
    """Correct: running totals per model."""

    def __init__(self) -> None:
        self.cost: dict[str, float] = {}

    def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        self.cost[model] = self.cost.get(model, 0.0) + cost_usd


class PerTokenMeter(TotalsMeter):
    """Tracks cost per output token: divides by zero on a zero Usage."""

    def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        super().record(usage, cost_usd, model=model)
        self.per_token = cost_usd / usage.output_tokens


class ChainingMeter(TotalsMeter):
    def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        super().record(usage, cost_usd, model=model)
        return True  # type: ignore[return-value]


# ------------------------------------------------------------------ table


ASK = {"answer": _approve}


WRONG = [
    Wrong("compactor", "compact_returns_a_list_of_messages", SliceCompactor, "tuple"),
    Wrong(
        "compactor", "compact_returns_a_list_of_messages", DictMessagesCompactor, "item 0 is dict"
    ),
    Wrong("grounder", "ground_returns_a_str", ListGrounder, "list"),
    Wrong("grounder", "concurrent_grounds_do_not_mix", LastTaskGrounder, "beside"),
    Wrong("asker", "ask_answers_with_a_bool", IntAsker, "int 1", ASK),
    Wrong("asker", "a_cancelled_ask_raises_cancelled_error", TimeoutDenyAsker, "False", ASK),
    Wrong("checkpointer", "load_of_an_unsaved_key_is_none", EmptyDictCheckpointer, "{}"),
    Wrong(
        "checkpointer",
        "the_saved_state_cannot_be_changed_through_a_copy",
        ShallowCopyCheckpointer,
        "changed",
    ),
    Wrong("checkpointer", "a_second_save_replaces_the_first", AppendingCheckpointer, "not"),
    Wrong("meter", "record_takes_any_model_and_zero_charges", PerTokenMeter, "ZeroDivision"),
    Wrong("meter", "record_returns_none", ChainingMeter, "bool True"),
]

RIGHT = [
    Right("compactor", KeepLastCompactor),
    Right("grounder", DictGrounder),
    Right("asker", QueueAsker, ASK),
    Right("checkpointer", SqliteCheckpointer),
    Right("meter", TotalsMeter),
]


class TestRedTeam(RedTeamTable):
    group = "services"
    wrong = WRONG
    right = RIGHT
