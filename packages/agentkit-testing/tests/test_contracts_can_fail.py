"""What every contract suite refuses, whichever port it checks: a factory of the wrong kind
or one that is not callable, a ``port_options`` fixture it cannot use, a required option
left out.

The wrong implementations of each port, one per check, are beside this module
(``test_contracts_can_fail_<group>.py``, the groups of
``tests.support.contract_runs.GROUPS``); that every port has such a module
is checked here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from agentkit.core.testing import contracts
from agentkit.core.testing.contracts import ContractFactoryError
from agentkit.core.testing.contracts._clock import CLOCK_SUITE
from agentkit.core.testing.contracts._suite import Suite
from agentkit.core.types import SearchHit
from agentkit.fakes.ctx import FakeCtx, RecordingTracer
from agentkit.fakes.io import FakeClock, FakeMemory, FakeSearch
from tests.support.contract_runs import GROUPS, PORTS

HITS = [SearchHit(f"t{n}", f"https://example.test/{n}") for n in range(5)]


def test_every_port_has_a_group_of_wrong_implementations() -> None:
    grouped = [port for ports in GROUPS.values() for port in ports]
    assert sorted(grouped) == sorted(PORTS)


@pytest.mark.parametrize(
    ("run", "returned", "port"),
    [
        (lambda f: contracts.check_clock_port(f), FakeSearch(HITS), "ClockPort"),
        (lambda f: contracts.check_llm_port(f), FakeClock(), "LLMPort"),
        (lambda f: contracts.check_fetch_port(f), "https://example.test", "FetchPort"),
        (lambda f: contracts.check_search_port(f), None, "SearchPort"),
        (lambda f: contracts.check_memory_source(f), FakeSearch(HITS), "MemorySource"),
        (lambda f: contracts.check_tool(f), FakeMemory(), "Tool"),
        (lambda f: contracts.check_trace_port(f), FakeCtx(), "TracePort"),
        (lambda f: contracts.check_ctx(f), RecordingTracer(), "Ctx"),
        (lambda f: contracts.check_spawn_port(f), 42, "SpawnPort"),
        (lambda f: contracts.check_compactor(f), FakeClock(), "Compactor"),
        (lambda f: contracts.check_grounder(f), FakeClock(), "Grounder"),
        (lambda f: contracts.check_asker(f), FakeClock(), "Asker"),
        (lambda f: contracts.check_checkpointer(f), FakeClock(), "Checkpointer"),
        (lambda f: contracts.check_meter(f), FakeClock(), "Meter"),
    ],
    ids=lambda v: v if isinstance(v, str) and not v.startswith("http") else None,
)
async def test_a_factory_of_the_wrong_kind_is_refused_with_a_typed_error(
    run: Callable[[Callable[[], Any]], Any], returned: object, port: str
) -> None:
    def wrong_factory() -> object:
        return returned

    with pytest.raises(ContractFactoryError) as caught:
        await run(wrong_factory)
    error = caught.value
    assert (error.port, error.returned, error.factory) == (port, returned, wrong_factory)
    assert "wrong_factory" in str(error)
    assert f"must return a {port}" in str(error)
    assert type(returned).__name__ in str(error)


async def test_an_async_factory_is_awaited_and_a_non_callable_refused() -> None:
    async def make() -> FakeClock:
        return FakeClock()

    assert await contracts.check_clock_port(make) == []
    with pytest.raises(ContractFactoryError, match="not callable"):
        await contracts.check_clock_port(FakeClock())  # type: ignore[arg-type]


# ----------------------------------------- the class form refuses what the function refuses


async def test_a_port_options_fixture_is_checked_too() -> None:
    from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError

    class Request:
        def __init__(self, value: object) -> None:
            self.value = value

        def getfixturevalue(self, name: str) -> object:
            return self.value

    tests: Any = type("TestUsers", (contracts.SearchPortContract,), {})()
    with pytest.raises(ArgumentValueError, match=r"port_options\['qeury'\]"):
        await tests.test_search_returns_at_most_k_hits(
            lambda: FakeSearch(HITS), Request({"qeury": "x"})
        )
    with pytest.raises(ArgumentTypeError, match="port_options"):
        await tests.test_search_returns_at_most_k_hits(lambda: FakeSearch(HITS), Request(["query"]))


def test_a_required_option_missing_is_refused_like_a_missing_keyword() -> None:
    from agentkit.core._internal.arguments import ArgumentValueError

    suite = Suite(
        "Demo", (), CLOCK_SUITE.protocol, options=("needed",), required_options=("needed",)
    )
    with pytest.raises(ArgumentValueError, match="required option 'needed'"):
        suite.validate({}, "TestDemo", "contract_options")
    suite.validate({"needed": 1}, "TestDemo", "contract_options")
