"""One table of the port suites and one way to run a check as a user's subclass would.

The contract tests that feed wrong and correct implementations to every
suite (the one-mistake-per-check tables, ``test_contracts_can_fail_*``, and
the red team, ``test_contracts_red_team_*``) drive each suite through both
of its forms: the ``check_*`` function, and one generated test of ``class
TestMine(<Port>Contract)``. Both kinds of table run the same forms, so the
runner lives here once, with the rows of a wrong and a correct one and what
each row must come to.

The one-mistake-per-check tables hold, for every check, a wrong
implementation a user really makes (a fetcher that raises on 404, a store
that keeps the caller's list, an ``async def record``); every port has two
at least. The red team holds more mistakes seen in real code (a fetcher that
trusts UTF-8, a store whose ``k=0`` means "all", a tracer with a class-level
stack) and correct implementations built on other libraries or designs than
the kit's own (urllib, http.client, raw asyncio streams, requests, sqlite,
anyio, ``asyncio.create_subprocess_exec``). A wrong one must fail the check
named through the suite function AND the pytest base class, each report
naming the check, its rule and what the implementation did; a correct one
must pass both, skipping nothing it was not told to skip.

The tables are split by port, one module per group of :data:`GROUPS`; the
group a module covers is named there, so a port added to :data:`PORTS`
without a group (and so without wrong implementations) fails a test.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from agentkit.core.testing import contracts
from agentkit.core.testing.contracts import ContractViolation
from agentkit.core.testing.contracts._base import ContractTests
from agentkit.core.testing.contracts._suite import Suite

__all__ = [
    "GROUPS",
    "PORTS",
    "NoPortOptions",
    "Port",
    "Right",
    "Wrong",
    "RedTeamTable",
    "WrongTable",
    "cases",
    "run_class_form",
]


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


GROUPS = {
    "clock_llm": ("clock", "llm"),
    "data": ("fetch", "search", "memory"),
    "tool_trace": ("tool", "trace", "ctx"),
    "spawn": ("spawn",),
    "services": ("compactor", "grounder", "asker", "checkpointer", "meter"),
}
"""The ports each split table module covers (``test_contracts_can_fail_<group>.py``,
``test_contracts_red_team_<group>.py``)."""


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


def cases(
    port: str, *rows: tuple[Any, ...], options: Mapping[str, Any] | None = None
) -> list[Wrong]:
    """A port's rows ``(check, make, got)``, with ``options`` unless a row ends with its own."""
    return [
        Wrong(port, check, make, got, own[0] if own else options or {})
        for check, make, got, *own in rows
    ]


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


@dataclass(frozen=True)
class Right:
    """A correct implementation: it passes every check but the ``skipped`` ones."""

    port: str
    make: Callable[[], Any]
    options: Mapping[str, Any] = field(default_factory=dict)
    skipped: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"{self.port}-{getattr(self.make, '__name__', 'lambda')}"


async def _fails_in_both_forms(wrong: Wrong) -> None:
    """``wrong`` fails its check through the function and through a user's subclass; each
    report names the check, its rule (as the port's suite words it) and what it did."""
    port = PORTS[wrong.port]
    rule = port.suite.by_name(wrong.check).rule
    with pytest.raises(ContractViolation) as caught:
        await port.function(wrong.make, **wrong.options)
    failures = {f.check: f for f in caught.value.failures}
    assert wrong.check in failures, f"{wrong.check} passed; failures: {list(failures)}"
    failure = failures[wrong.check]
    assert failure.rule == rule
    assert wrong.got in failure.got, failure.got
    message = str(caught.value)
    assert wrong.check in message
    assert rule in message
    assert failure.got in message
    with pytest.raises(pytest.fail.Exception) as failed:
        await run_class_form(port.contract, wrong.check, wrong.make, wrong.options)
    message = str(failed.value)
    assert wrong.check in message
    assert rule in message
    assert wrong.got in message
    assert failed.value.pytrace is False  # the message is the report: no runner frames


class WrongTable:
    """The tests of one group's one-mistake-per-check table.

    A table module subclasses it as ``class TestTable(WrongTable)`` with its
    ``group`` and ``wrong`` rows; pytest runs the tests below on them (the
    rows parametrize them through :meth:`pytest_generate_tests`).
    """

    group: ClassVar[str]
    wrong: ClassVar[Sequence[Wrong]]
    every_check: ClassVar[bool] = True
    """Every check of the group's ports has a wrong implementation (the red team: some)."""

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        for name in ("wrong", "right"):
            if name in metafunc.fixturenames:
                rows = getattr(self, name)
                metafunc.parametrize(name, rows, ids=[row.id for row in rows])

    @pytest.mark.agentkit(verify=False, real_processes=True)  # wrong on purpose; real children
    async def test_a_wrong_implementation_fails_its_check_in_both_forms(self, wrong: Wrong) -> None:
        await _fails_in_both_forms(wrong)

    def test_the_wrong_ones_cover_the_group(self) -> None:
        """The group's ports, each with two wrong implementations at least (and, with
        ``every_check``, every check of theirs with one), and no row of another port."""
        ports = GROUPS[self.group]
        assert {w.port for w in self.wrong} == set(ports)
        if self.every_check:
            covered = {(w.port, w.check) for w in self.wrong}
            every = {(key, name) for key in ports for name in PORTS[key].suite.names()}
            assert every - covered == set()
        per_port = {key: len({w.make for w in self.wrong if w.port == key}) for key in ports}
        assert min(per_port.values()) >= 2, per_port


class RedTeamTable(WrongTable):
    """The tests of one group's red team: its wrong rows, as :class:`WrongTable`'s, and its
    ``right`` rows, each passing both forms; every port has one, every mistake is its own."""

    right: ClassVar[Sequence[Right]]
    every_check = False

    @pytest.mark.agentkit(real_processes=True)
    async def test_a_correct_implementation_passes_both_forms(self, right: Right) -> None:
        port = PORTS[right.port]
        assert await port.function(right.make, **right.options) == list(right.skipped)
        for check in port.suite.names():
            if check not in right.skipped:
                await run_class_form(port.contract, check, right.make, right.options)

    def test_every_port_has_a_correct_one_and_each_mistake_is_its_own(self) -> None:
        assert {r.port for r in self.right} == set(GROUPS[self.group])
        assert len({w.make for w in self.wrong}) == len(self.wrong)
