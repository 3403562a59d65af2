"""The FetchPort, SearchPort, MemorySource and Tool contracts."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from agentkit.core.ports import FetchPort, MemorySource, SearchPort, Tool
from agentkit.core.testing.contracts._base import ContractTests
from agentkit.core.testing.contracts._suite import Broken, Factory, Maker, Suite, describe
from agentkit.core.types import FetchResponse, MemoryItem, SearchHit, ToolSchema

__all__ = [
    "FETCH_SUITE",
    "MEMORY_SUITE",
    "SEARCH_SUITE",
    "TOOL_SUITE",
    "FetchPortContract",
    "MemorySourceContract",
    "SearchPortContract",
    "ToolContract",
    "check_fetch_port",
    "check_memory_source",
    "check_search_port",
    "check_tool",
]

DEFAULT_UNKNOWN_URL = "http://agentkit-contract.invalid/unknown"
"""``.invalid`` never resolves (RFC 2606), so a real fetcher fails on it at once."""

# ----------------------------------------------------------------- FetchPort

FETCH_SUITE = Suite("FetchPort", ("fetch",))


@FETCH_SUITE.check("known_url")
async def a_known_url_gives_a_fetch_response(
    make: Maker[FetchPort], options: Mapping[str, Any]
) -> None:
    """fetch(url) of a URL that exists returns a FetchResponse."""
    port = await make()
    got = await port.fetch(options["known_url"])
    if not isinstance(got, FetchResponse):
        raise Broken(f"fetch({options['known_url']!r}) returned {describe(got)}")


@FETCH_SUITE.check("known_url")
async def the_port_serves_more_than_one_fetch(
    make: Maker[FetchPort], options: Mapping[str, Any]
) -> None:
    """A FetchPort is reusable: fetching the same known URL twice gives the same status and body."""
    port = await make()
    url = options["known_url"]
    first = await port.fetch(url)
    second = await port.fetch(url)
    if not isinstance(second, FetchResponse):
        raise Broken(f"the second fetch({url!r}) returned {describe(second)}")
    if (first.status, first.body) != (second.status, second.body):
        raise Broken(
            f"status/body changed between fetches: {first.status} {first.body[:60]!r} then "
            f"{second.status} {second.body[:60]!r}"
        )


@FETCH_SUITE.check()
async def an_unknown_url_raises(make: Maker[FetchPort], options: Mapping[str, Any]) -> None:
    """fetch(url) of a URL that cannot be fetched raises an Exception; it never invents a response."""
    port = await make()
    url = options.get("unknown_url") or DEFAULT_UNKNOWN_URL
    try:
        got = await port.fetch(url)
    except Exception:
        return
    raise Broken(f"fetch({url!r}) returned {describe(got)} instead of raising")


async def check_fetch_port(
    factory: Factory,
    *,
    known_url: str,
    unknown_url: str = DEFAULT_UNKNOWN_URL,
    skip: Sequence[str] = (),
) -> list[str]:
    """Run every FetchPort check. ``known_url`` must be fetchable, ``unknown_url`` must not be."""
    return await FETCH_SUITE.run(
        factory, {"known_url": known_url, "unknown_url": unknown_url}, skip=skip
    )


class FetchPortContract(ContractTests):
    """Subclass with a ``make_port`` fixture and ``contract_options = {"known_url": ...}``
    (or a ``port_options`` fixture returning it)."""

    suite = FETCH_SUITE


# ---------------------------------------------------------------- SearchPort

SEARCH_SUITE = Suite("SearchPort", ("search",))


@SEARCH_SUITE.check()
async def search_returns_a_list_of_search_hits(
    make: Maker[SearchPort], options: Mapping[str, Any]
) -> None:
    """search(query, k) returns a list of SearchHit."""
    port = await make()
    got = await port.search(options.get("query") or "agentkit", 3)
    if not isinstance(got, list) or not all(isinstance(h, SearchHit) for h in got):
        raise Broken(f"search() returned {describe(got)}")


@SEARCH_SUITE.check()
async def search_returns_at_most_k_hits(
    make: Maker[SearchPort], options: Mapping[str, Any]
) -> None:
    """search(query, k) returns at most k hits, for k = 1 and k = 2."""
    port = await make()
    query = options.get("query") or "agentkit"
    for k in (1, 2):
        got = await port.search(query, k)
        if len(got) > k:
            raise Broken(f"search({query!r}, {k}) returned {len(got)} hits")


async def check_search_port(
    factory: Factory, *, query: str = "agentkit", skip: Sequence[str] = ()
) -> list[str]:
    """Run every SearchPort check; ``query`` should have at least two hits to be telling."""
    return await SEARCH_SUITE.run(factory, {"query": query}, skip=skip)


class SearchPortContract(ContractTests):
    """Subclass with a ``make_port`` fixture (``contract_options = {"query": ...}`` optional)."""

    suite = SEARCH_SUITE


# -------------------------------------------------------------- MemorySource

MEMORY_SUITE = Suite("MemorySource", ("name", "query", "write"))


def _key(item: MemoryItem) -> tuple[str, str]:
    return item.text, item.source


@MEMORY_SUITE.check()
async def name_is_a_non_empty_str(make: Maker[MemorySource], options: Mapping[str, Any]) -> None:
    """name is a non-empty str: the agent names the store it queries by it."""
    memory = await make()
    if not isinstance(memory.name, str) or not memory.name:
        raise Broken(f"name is {describe(memory.name)}")


@MEMORY_SUITE.check()
async def query_returns_at_most_k_memory_items(
    make: Maker[MemorySource], options: Mapping[str, Any]
) -> None:
    """query(query, k) returns a list of at most k MemoryItem, for k = 1 and k = 2."""
    memory = await make()
    query = options.get("query") or "agentkit"
    await memory.write(_written(options))
    for k in (1, 2):
        got = await memory.query(query, k)
        if not isinstance(got, list) or not all(isinstance(i, MemoryItem) for i in got):
            raise Broken(f"query({query!r}, {k}) returned {describe(got)}")
        if len(got) > k:
            raise Broken(f"query({query!r}, {k}) returned {len(got)} items")


def _written(options: Mapping[str, Any]) -> list[MemoryItem]:
    given = options.get("items")
    if given is not None:
        return list(given)
    return [
        MemoryItem("agentkit contract item one", "contract"),
        MemoryItem("agentkit contract item two", "contract"),
        MemoryItem("agentkit contract item three", "contract"),
    ]


@MEMORY_SUITE.check()
async def query_returns_nothing_it_was_not_given(
    make: Maker[MemorySource], options: Mapping[str, Any]
) -> None:
    """After a write, a query returns only items the store held before or was given: it invents none."""
    memory = await make()
    query = options.get("query") or "agentkit"
    before = {_key(i) for i in await memory.query(query, 100)}
    written = _written(options)
    await memory.write(written)
    after = await memory.query(query, 100)
    allowed = before | {_key(i) for i in written}
    invented = [i for i in after if _key(i) not in allowed]
    if invented:
        raise Broken(f"query returned items it was never given: {invented[:3]!r}")


async def check_memory_source(
    factory: Factory,
    *,
    query: str = "agentkit",
    items: Sequence[MemoryItem] | None = None,
    skip: Sequence[str] = (),
) -> list[str]:
    """Run every MemorySource check. ``items`` are written by the checks (their texts should
    match ``query``); by default three items mentioning "agentkit"."""
    return await MEMORY_SUITE.run(factory, {"query": query, "items": items}, skip=skip)


class MemorySourceContract(ContractTests):
    """Subclass with a ``make_port`` fixture making a fresh (empty or fixed) store."""

    suite = MEMORY_SUITE


# ---------------------------------------------------------------------- Tool

TOOL_SUITE = Suite("Tool", ("name", "description", "schema", "run"))


@TOOL_SUITE.check()
async def the_properties_have_their_declared_types(
    make: Maker[Tool], options: Mapping[str, Any]
) -> None:
    """name is a non-empty str, description a str, schema a ToolSchema, side_effecting and
    requires_approval bools, output_schema a dict or None."""
    tool: Any = await make()  # Any: the rule is about what the implementation really holds
    wrong = []
    if not isinstance(tool.name, str) or not tool.name:
        wrong.append(f"name is {describe(tool.name)}")
    if not isinstance(tool.description, str):
        wrong.append(f"description is {describe(tool.description)}")
    if not isinstance(tool.schema, ToolSchema):
        wrong.append(f"schema is {describe(tool.schema)}")
    for flag in ("side_effecting", "requires_approval"):
        value = getattr(tool, flag, None)
        if not isinstance(value, bool):
            wrong.append(f"{flag} is {describe(value)}")
    output = getattr(tool, "output_schema", None)
    if output is not None and not isinstance(output, dict):
        wrong.append(f"output_schema is {describe(output)}")
    if wrong:
        raise Broken("; ".join(wrong))


@TOOL_SUITE.check()
async def the_schema_is_advertised_under_the_tools_name(
    make: Maker[Tool], options: Mapping[str, Any]
) -> None:
    """schema.name equals name: the model calls the tool by the name its schema advertises."""
    tool = await make()
    if tool.schema.name != tool.name:
        raise Broken(f"schema.name is {tool.schema.name!r} but name is {tool.name!r}")


@TOOL_SUITE.check()
async def run_answers_valid_args_without_changing_them(
    make: Maker[Tool], options: Mapping[str, Any]
) -> None:
    """await run(args) returns for arguments its schema accepts, and leaves the caller's dict unchanged."""
    tool = await make()
    args: dict[str, Any] = dict(options.get("args") or {})
    snapshot = copy.deepcopy(args)
    await tool.run(args)
    if args != snapshot:
        raise Broken(f"run() changed its args from {snapshot!r} to {args!r}")


async def check_tool(
    factory: Factory, *, args: Mapping[str, Any] | None = None, skip: Sequence[str] = ()
) -> list[str]:
    """Run every Tool check; ``args`` must be valid arguments for the tool (default ``{}``)."""
    return await TOOL_SUITE.run(factory, {"args": dict(args or {})}, skip=skip)


class ToolContract(ContractTests):
    """Subclass with a ``make_port`` fixture (``contract_options = {"args": {...}}`` optional)."""

    suite = TOOL_SUITE
