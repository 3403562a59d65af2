"""FakeMemory: per-query responses with a default, or static items; queries and writes recorded."""

from __future__ import annotations

from typing import Any, cast

import pytest

from agentkit.core.types import MemoryItem
from agentkit.fakes.io import FakeMemory

A = MemoryItem("alpha", "notes")
B = MemoryItem("beta", "notes", score=0.5)
C = MemoryItem("gamma", "wiki", metadata={"lang": "en"})


async def test_defaults() -> None:
    memory = FakeMemory()
    assert memory.name == "fake_memory"
    assert await memory.query("anything") == []
    assert (memory.responses, memory.default, memory.items) == ({}, [], None)


async def test_responses_mode_looks_up_the_exact_query() -> None:
    memory = FakeMemory(responses={"alpha": [A], "beta": [B, A]})
    assert await memory.query("alpha") == [A]
    assert await memory.query("beta") == [B, A]
    assert await memory.query("alph") == []  # exact, not substring


async def test_misses_fall_through_to_default() -> None:
    memory = FakeMemory(responses={"alpha": [A]}, default=[C])
    assert await memory.query("unknown") == [C]
    assert await memory.query("alpha") == [A]


async def test_items_mode_ignores_the_query_and_returns_the_first_k() -> None:
    memory = FakeMemory(items=[A, B, C])
    assert await memory.query("alpha", k=2) == [A, B]
    assert await memory.query("whatever") == [A, B, C]
    assert await memory.query("x", k=1) == [A]


async def test_k_bounds_every_mode() -> None:
    memory = FakeMemory(responses={"q": [A, B, C]}, default=[A, B])
    assert await memory.query("q", k=2) == [A, B]
    assert await memory.query("miss", k=1) == [A]
    assert await memory.query("q", k=0) == []


async def test_queries_are_recorded_as_query_k_where() -> None:
    memory = FakeMemory()
    where = {"source": "notes"}
    await memory.query("foo", 3)
    await memory.query("bar", where=where)
    where["source"] = "changed later"
    assert memory.queries == [("foo", 3, None), ("bar", 5, {"source": "notes"})]


async def test_writes_append_each_batch_as_a_list() -> None:
    memory = FakeMemory()
    await memory.write([MemoryItem("a", "src")])
    await memory.write((B, C))
    assert memory.writes == [[MemoryItem("a", "src")], [B, C]]
    assert all(isinstance(batch, list) for batch in memory.writes)


async def test_writes_are_recorded_not_stored() -> None:
    memory = FakeMemory(items=[A])
    await memory.write([B])
    assert await memory.query("q") == [A]


async def test_a_written_batch_is_a_copy() -> None:
    memory = FakeMemory()
    batch = [A]
    await memory.write(batch)
    batch.append(B)
    assert memory.writes == [[A]]


async def test_results_are_a_fresh_list() -> None:
    memory = FakeMemory(items=[A, B])
    (await memory.query("q")).clear()
    assert await memory.query("q") == [A, B]


async def test_bad_input_is_rejected() -> None:
    memory = FakeMemory()
    with pytest.raises(ValueError, match="k must be"):
        await memory.query("q", k=-1)
    with pytest.raises(TypeError, match="MemoryItem"):
        await memory.write(cast(Any, ["plain text"]))
    assert memory.writes == []


def test_instances_are_distinct_and_hashable() -> None:
    one, two = FakeMemory(), FakeMemory()
    assert one != two
    assert len({one, two}) == 2
    assert one.default is not two.default  # no shared mutable default
    cast(list[MemoryItem], one.default).append(A)
    assert two.default == []


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"items": "abc"}, r"items must be a list of MemoryItem, got str"),
        ({"items": ["plain text"]}, r"items\[0\] must be a MemoryItem, got str"),
        ({"default": [A, {"text": "x"}]}, r"default\[1\] must be a MemoryItem, got dict"),
        ({"responses": {"q": A}}, r"responses\['q'\] must be a list of MemoryItem, got MemoryItem"),
        ({"responses": {"q": ["text"]}}, r"responses\['q'\]\[0\] must be a MemoryItem, got str"),
        ({"responses": {1: [A]}}, r"responses keys must be query strs, got int 1"),
        ({"responses": [A]}, r"responses must be a dict \{query: \[MemoryItem, \.\.\.\]\}"),
        ({"name": None}, r"name must be a non-empty str"),
        ({"items": [A], "responses": {"q": [B]}}, r"items= ignores the query"),
    ],
)
def test_bad_fixtures_are_rejected_at_construction(kwargs: dict[str, Any], message: str) -> None:
    # Unchecked, items="abc" answered every query with ['a', 'b', 'c'] -- strings where the
    # agent expects MemoryItems -- and responses={"q": A} failed only at query time, with
    # "'MemoryItem' object is not subscriptable" from inside the double.
    with pytest.raises(TypeError, match=message):
        FakeMemory(**kwargs)
