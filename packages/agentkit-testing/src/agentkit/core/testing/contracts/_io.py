"""The SearchPort, MemorySource and Tool contracts."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from agentkit.core.ports import MemorySource, SearchPort, Tool
from agentkit.core.schema import schema_errors, schema_problems
from agentkit.core.testing.contracts._base import ContractTests
from agentkit.core.testing.contracts._suite import (
    Broken,
    Factory,
    Maker,
    Suite,
    describe_got,
    describe_list_of,
)
from agentkit.core.types import MemoryItem, SearchHit, ToolSchema

__all__ = [
    "MEMORY_SUITE",
    "SEARCH_SUITE",
    "TOOL_SUITE",
    "MemorySourceContract",
    "SearchPortContract",
    "ToolContract",
    "check_memory_source",
    "check_search_port",
    "check_tool",
]

# ---------------------------------------------------------------- SearchPort

SEARCH_SUITE = Suite("SearchPort", ("search",), SearchPort, options=("query",))

PAST_THE_END = 1000
"""A limit no contract query has as many hits as."""


def _query(options: Mapping[str, Any]) -> str:
    return options.get("query") or "agentkit"


async def _hits(port: SearchPort, query: str, k: int) -> list[SearchHit]:
    got = await port.search(query, k)
    if not isinstance(got, list) or not all(isinstance(h, SearchHit) for h in got):
        raise Broken(f"search({query!r}, {k}) returned {describe_list_of(got, SearchHit)}")
    return got


@SEARCH_SUITE.check()
async def search_returns_a_list_of_search_hits(
    make: Maker[SearchPort], options: Mapping[str, Any]
) -> None:
    await _hits(await make(), _query(options), 3)


@SEARCH_SUITE.check()
async def search_returns_at_most_k_hits(
    make: Maker[SearchPort], options: Mapping[str, Any]
) -> None:
    port = await make()
    query = _query(options)
    for k in (1, 2):
        got = await _hits(port, query, k)
        if len(got) > k:
            raise Broken(f"search({query!r}, {k}) returned {len(got)} hits")


@SEARCH_SUITE.check()
async def a_limit_of_zero_gives_no_hits(
    make: Maker[SearchPort], options: Mapping[str, Any]
) -> None:
    port = await make()
    query = _query(options)
    got = await _hits(port, query, 0)
    if got:
        raise Broken(f"search({query!r}, 0) returned {len(got)} hit(s): {got[:2]!r}")


@SEARCH_SUITE.check()
async def the_limit_takes_the_first_hits(
    make: Maker[SearchPort], options: Mapping[str, Any]
) -> None:
    port = await make()
    query = _query(options)
    every = await _hits(port, query, PAST_THE_END)
    repeated = [hit for n, hit in enumerate(every) if hit in every[:n]]
    if repeated:
        raise Broken(
            f"search({query!r}, {PAST_THE_END}) gave {len(every)} hits with {repeated[0]!r} "
            "repeated: padded past the end?"
        )
    for k in (1, 2, len(every), len(every) + 1):
        got = await _hits(port, query, k)
        if got != every[:k]:
            raise Broken(
                f"search({query!r}, {k}) gave {len(got)} hit(s) {got[:3]!r}, not the first {k} "
                f"of the {len(every)} search({query!r}, {PAST_THE_END}) gives"
            )


async def check_search_port(
    factory: Factory, *, query: str = "agentkit", skip: Sequence[str] = ()
) -> list[str]:
    """Run every SearchPort check; ``query`` should have at least two hits to be telling."""
    return await SEARCH_SUITE.run(factory, {"query": query}, skip=skip)


class SearchPortContract(ContractTests):
    """Subclass with a ``make_port`` fixture (``contract_options = {"query": ...}`` optional)."""

    _suite = SEARCH_SUITE


# -------------------------------------------------------------- MemorySource

DEFAULT_UNMATCHED = "zqxj-no-item-mentions-this"

MEMORY_SUITE = Suite(
    "MemorySource",
    ("name", "query", "write"),
    MemorySource,
    options=("query", "items", "unmatched_query", "keeps_writes"),
)


def _prepare_memory(options: dict[str, Any]) -> dict[str, Any]:
    keeps = options.get("keeps_writes")
    return {**options, "keeps_writes": True if keeps is None or keeps else None}


MEMORY_SUITE.prepare = _prepare_memory


def _key(item: MemoryItem) -> tuple[str, str]:
    return item.text, item.source


def _written(options: Mapping[str, Any]) -> list[MemoryItem]:
    given = options.get("items")
    if given is not None:
        return list(given)
    return [
        MemoryItem("agentkit contract item one", "contract"),
        MemoryItem("agentkit contract item two", "contract"),
        MemoryItem("agentkit contract item three", "contract"),
    ]


async def _items(memory: MemorySource, query: str, k: int) -> list[MemoryItem]:
    got = await memory.query(query, k)
    if not isinstance(got, list) or not all(isinstance(i, MemoryItem) for i in got):
        raise Broken(f"query({query!r}, {k}) returned {describe_list_of(got, MemoryItem)}")
    return got


def _missing(written: Sequence[MemoryItem], found: Sequence[MemoryItem]) -> list[MemoryItem]:
    have = {_key(i) for i in found}
    return [i for i in written if _key(i) not in have]


@MEMORY_SUITE.check()
async def name_is_a_non_empty_str(make: Maker[MemorySource], options: Mapping[str, Any]) -> None:
    memory = await make()
    if not isinstance(memory.name, str) or not memory.name:
        raise Broken(f"name is {describe_got(memory.name)}")


@MEMORY_SUITE.check()
async def query_returns_at_most_k_memory_items(
    make: Maker[MemorySource], options: Mapping[str, Any]
) -> None:
    memory = await make()
    query = _query(options)
    await memory.write(_written(options))
    for k in (1, 2):
        got = await _items(memory, query, k)
        if len(got) > k:
            raise Broken(f"query({query!r}, {k}) returned {len(got)} items")


@MEMORY_SUITE.check()
async def a_limit_of_zero_gives_no_items(
    make: Maker[MemorySource], options: Mapping[str, Any]
) -> None:
    memory = await make()
    query = _query(options)
    await memory.write(_written(options))
    got = await _items(memory, query, 0)
    if got:
        raise Broken(f"query({query!r}, 0) returned {len(got)} item(s): {got[:2]!r}")


@MEMORY_SUITE.check()
async def query_returns_nothing_it_was_not_given(
    make: Maker[MemorySource], options: Mapping[str, Any]
) -> None:
    memory = await make()
    query = _query(options)
    before = {_key(i) for i in await _items(memory, query, 100)}
    written = _written(options)
    await memory.write(written)
    after = await _items(memory, query, 100)
    allowed = before | {_key(i) for i in written}
    invented = [i for i in after if _key(i) not in allowed]
    if invented:
        raise Broken(f"query returned items it was never given: {invented[:3]!r}")


@MEMORY_SUITE.check()
async def a_query_nothing_matches_returns_nothing_new(
    make: Maker[MemorySource], options: Mapping[str, Any]
) -> None:
    memory = await make()
    unmatched = options.get("unmatched_query") or DEFAULT_UNMATCHED
    before = {_key(i) for i in await _items(memory, unmatched, 100)}
    await memory.write(_written(options))
    after = await _items(memory, unmatched, 100)
    new = [i for i in after if _key(i) not in before]
    if new:
        raise Broken(f"query({unmatched!r}), which no item mentions, returned {new[:3]!r}")


@MEMORY_SUITE.check("keeps_writes")
async def what_is_written_is_read_back(
    make: Maker[MemorySource], options: Mapping[str, Any]
) -> None:
    memory = await make()
    query = _query(options)
    written = _written(options)
    await memory.write(written)
    missing = _missing(written, await _items(memory, query, 100))
    if missing:
        raise Broken(f"after write() query({query!r}, 100) lacks {missing[:3]!r}")


@MEMORY_SUITE.check("keeps_writes")
async def a_second_write_keeps_the_first(
    make: Maker[MemorySource], options: Mapping[str, Any]
) -> None:
    memory = await make()
    query = _query(options)
    written = _written(options)
    half = max(len(written) // 2, 1)
    await memory.write(written[:half])
    await memory.write(written[half:])
    missing = _missing(written, await _items(memory, query, 100))
    if missing:
        raise Broken(f"after two writes query({query!r}, 100) lacks {missing[:3]!r}")


@MEMORY_SUITE.check("keeps_writes")
async def the_store_cannot_be_changed_through_the_callers_copy(
    make: Maker[MemorySource], options: Mapping[str, Any]
) -> None:
    memory = await make()
    query = _query(options)
    written = _written(options)
    given = list(written)
    await memory.write(given)
    given.clear()
    given.append(MemoryItem(f"{query} slipped in through the caller's list", "caller"))
    first = await _items(memory, query, 100)
    if _missing(written, first) or any(i.source == "caller" for i in first):
        raise Broken(f"changing the list given to write() changed the store: now {first[:4]!r}")
    first.clear()
    first.append(MemoryItem(f"{query} slipped in through a result", "caller"))
    second = await _items(memory, query, 100)
    if _missing(written, second) or any(i.source == "caller" for i in second):
        raise Broken(f"changing a query's result changed the store: now {second[:4]!r}")


async def check_memory_source(
    factory: Factory,
    *,
    query: str = "agentkit",
    items: Sequence[MemoryItem] | None = None,
    unmatched_query: str = DEFAULT_UNMATCHED,
    keeps_writes: bool = True,
    skip: Sequence[str] = (),
) -> list[str]:
    """Run every MemorySource check.

    ``items`` are written by the checks (their texts should match ``query``;
    by default three items mentioning "agentkit"); ``unmatched_query`` is a
    query no item mentions. ``keeps_writes=False`` is for a fixture double
    whose answers do not change with writes: the read-back checks are then
    skipped, and returned.
    """
    options = {
        "query": query,
        "items": items,
        "unmatched_query": unmatched_query,
        "keeps_writes": keeps_writes,
    }
    return await MEMORY_SUITE.run(factory, options, skip=skip)


class MemorySourceContract(ContractTests):
    """Subclass with a ``make_port`` fixture making a fresh (empty or fixed) store."""

    _suite = MEMORY_SUITE


# ---------------------------------------------------------------------- Tool

TOOL_SUITE = Suite("Tool", ("name", "description", "schema", "run"), Tool, options=("args",))


@TOOL_SUITE.check()
async def the_properties_have_their_declared_types(
    make: Maker[Tool], options: Mapping[str, Any]
) -> None:
    tool: Any = await make()  # Any: the rule is about what the implementation really holds
    wrong = []
    if not isinstance(tool.name, str) or not tool.name:
        wrong.append(f"name is {describe_got(tool.name)}")
    if not isinstance(tool.description, str):
        wrong.append(f"description is {describe_got(tool.description)}")
    if not isinstance(tool.schema, ToolSchema):
        wrong.append(f"schema is {describe_got(tool.schema)}")
    for flag in ("side_effecting", "requires_approval"):
        value = getattr(tool, flag, None)
        if not isinstance(value, bool):
            wrong.append(f"{flag} is {describe_got(value)}")
    output = getattr(tool, "output_schema", None)
    if output is not None and not isinstance(output, dict):
        wrong.append(f"output_schema is {describe_got(output)}")
    if wrong:
        raise Broken("; ".join(wrong))


@TOOL_SUITE.check()
async def the_schema_is_advertised_under_the_tools_name(
    make: Maker[Tool], options: Mapping[str, Any]
) -> None:
    tool = await make()
    if tool.schema.name != tool.name:
        raise Broken(f"schema.name is {tool.schema.name!r} but name is {tool.name!r}")


def _args(options: Mapping[str, Any]) -> dict[str, Any]:
    return dict(options.get("args") or {})


@TOOL_SUITE.check()
async def the_parameters_are_a_json_schema_object(
    make: Maker[Tool], options: Mapping[str, Any]
) -> None:
    tool = await make()
    parameters = getattr(tool.schema, "parameters", None)
    problems = schema_problems(parameters, "schema.parameters")
    if not problems and isinstance(parameters, Mapping) and parameters.get("type") != "object":
        problems.append(f"schema.parameters has type {parameters.get('type')!r}, not 'object'")
    if not problems and isinstance(parameters, Mapping):
        problems = schema_errors(parameters, _args(options))
        if problems:
            problems.insert(0, "the args given as valid are refused by schema.parameters:")
    if problems:
        raise Broken(" ".join(problems[:3]))


@TOOL_SUITE.check()
async def run_answers_valid_args_without_changing_them(
    make: Maker[Tool], options: Mapping[str, Any]
) -> None:
    tool = await make()
    args = _args(options)
    snapshot = copy.deepcopy(args)
    await tool.run(args)
    if args != snapshot:
        raise Broken(f"run() changed its args from {snapshot!r} to {args!r}")


@TOOL_SUITE.check()
async def run_result_matches_the_output_schema(
    make: Maker[Tool], options: Mapping[str, Any]
) -> None:
    tool = await make()
    schema = getattr(tool, "output_schema", None)
    if schema is None:
        return
    problems = schema_problems(schema, "output_schema")
    if problems:
        raise Broken(" ".join(problems[:3]))
    result = await tool.run(_args(options))
    problems = schema_errors(schema, result)
    if problems:
        raise Broken(
            f"run()'s result {describe_got(result)} does not fit output_schema: "
            + "; ".join(problems[:3])
        )


async def check_tool(
    factory: Factory, *, args: Mapping[str, Any] | None = None, skip: Sequence[str] = ()
) -> list[str]:
    """Run every Tool check; ``args`` must be valid arguments for the tool (default ``{}``)."""
    return await TOOL_SUITE.run(factory, {"args": dict(args or {})}, skip=skip)


class ToolContract(ContractTests):
    """Subclass with a ``make_port`` fixture (``contract_options = {"args": {...}}`` optional)."""

    _suite = TOOL_SUITE
