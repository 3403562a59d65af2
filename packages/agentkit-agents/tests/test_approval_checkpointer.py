"""InMemoryCheckpointer stores JSON text: non-JSON state fails at save, loads are copies."""

from __future__ import annotations

from typing import Any

import pytest

from agentkit.agents.control import CheckpointNotSerialisable, InMemoryCheckpointer
from agentkit.core.ports import Checkpointer
from agentkit.core.types import ToolCall

_conforms: Checkpointer = InMemoryCheckpointer()


async def test_save_then_load_round_trips() -> None:
    store = InMemoryCheckpointer()
    await store.save("k", {"a": [1, 2], "b": {"c": None}})
    assert await store.load("k") == {"a": [1, 2], "b": {"c": None}}
    assert store.keys == ("k",)
    assert "k" in store
    assert len(store) == 1


async def test_missing_key_loads_none() -> None:
    assert await InMemoryCheckpointer().load("nope") is None


async def test_a_loaded_state_is_a_copy_mutations_do_not_reach_the_store() -> None:
    store = InMemoryCheckpointer()
    state: dict[str, Any] = {"items": [1]}
    await store.save("k", state)
    state["items"].append(2)
    loaded = await store.load("k")
    assert loaded is not None
    loaded["items"].append(3)
    assert await store.load("k") == {"items": [1]}


@pytest.mark.parametrize(
    "bad",
    [
        {"call": ToolCall("c1", "t")},
        {"s": {1, 2}},
        {"x": float("nan")},
    ],
)
async def test_state_that_is_not_plain_json_is_refused_at_save(bad: dict[str, Any]) -> None:
    store = InMemoryCheckpointer()
    with pytest.raises(CheckpointNotSerialisable) as info:
        await store.save("run-1", bad)
    assert info.value.key == "run-1"
    assert "run-1" in str(info.value)
    assert await store.load("run-1") is None


async def test_an_empty_key_is_refused() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        await InMemoryCheckpointer().save("", {})


async def test_a_later_save_replaces_the_state() -> None:
    store = InMemoryCheckpointer()
    await store.save("k", {"v": 1})
    await store.save("k", {"v": 2})
    assert await store.load("k") == {"v": 2}
    assert store.keys == ("k",)
