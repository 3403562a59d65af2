"""One table of the port suites and one way to run a check as a user's subclass would.

The contract tests that feed wrong and correct implementations to every
suite (the one-mistake-per-check table and the red team) drive each suite
through both of its forms: the ``check_*`` function, and one generated
test of ``class TestMine(<Port>Contract)``. Both tables run the same
forms, so the runner lives here once, with the row of a wrong one.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from agentkit.core.testing import contracts
from agentkit.core.testing.contracts._base import ContractTests
from agentkit.core.testing.contracts._suite import Suite

__all__ = ["PORTS", "NoPortOptions", "Port", "Wrong", "run_class_form"]


@dataclass(frozen=True)
class Port:
    """A port's suite in both forms: the function and the pytest base class."""

    function: Callable[..., Any]
    contract: type[ContractTests]

    @property
    def suite(self) -> Suite:
        return self.contract._suite


PORTS = {
    "clock": Port(contracts.check_clock_port, contracts.ClockPortContract),
    "llm": Port(contracts.check_llm_port, contracts.LLMPortContract),
    "fetch": Port(contracts.check_fetch_port, contracts.FetchPortContract),
    "search": Port(contracts.check_search_port, contracts.SearchPortContract),
    "memory": Port(contracts.check_memory_source, contracts.MemorySourceContract),
    "tool": Port(contracts.check_tool, contracts.ToolContract),
    "trace": Port(contracts.check_trace_port, contracts.TracePortContract),
    "ctx": Port(contracts.check_ctx, contracts.CtxContract),
    "spawn": Port(contracts.check_spawn_port, contracts.SpawnPortContract),
    "compactor": Port(contracts.check_compactor, contracts.CompactorContract),
    "grounder": Port(contracts.check_grounder, contracts.GrounderContract),
    "asker": Port(contracts.check_asker, contracts.AskerContract),
    "checkpointer": Port(contracts.check_checkpointer, contracts.CheckpointerContract),
    "meter": Port(contracts.check_meter, contracts.MeterContract),
}


@dataclass(frozen=True)
class Wrong:
    """A wrong implementation: the check it must fail and text of what the failure says it did."""

    port: str
    check: str
    make: Callable[[], Any]
    got: str
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.port}-{self.check}-{getattr(self.make, '__name__', 'lambda')}"


class NoPortOptions:
    """The ``request`` of a class-form test whose user defined no port_options fixture."""

    def getfixturevalue(self, name: str) -> object:
        raise type("FixtureLookupError", (Exception,), {})(name)


async def run_class_form(
    contract: type[ContractTests], check: str, make: Callable[[], Any], options: Mapping[str, Any]
) -> None:
    """Run one generated test of a user's subclass, as pytest would call it."""
    user_class = type(
        "TestUsers", (contract,), {"contract_options": dict(options)}
    )  # what ``class TestUsers(Contract): contract_options = ...`` makes
    method = getattr(user_class(), f"test_{check}")
    if inspect.iscoroutinefunction(method):
        await method(make, NoPortOptions())
    else:  # the plain form runs its own event loop: off this one
        await asyncio.to_thread(method, make, NoPortOptions())
