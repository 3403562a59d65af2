"""Pins agentkit.core.testing.contracts' public API, and keeps it free of pytest."""

from __future__ import annotations

import importlib

import pytest

import agentkit.core.testing.contracts as contracts
from agentkit.core import ports
from agentkit.core.testing.contracts._suite import Suite, rules_of
from tests.support.fresh_python import fresh_python

PUBLIC = {
    "AskerContract",
    "CheckpointerContract",
    "CompactorContract",
    "ContractSite",
    "GrounderContract",
    "MeterContract",
    "check_asker",
    "check_checkpointer",
    "check_compactor",
    "check_grounder",
    "check_meter",
    "serve_contract_site",
    "CheckFailure",
    "ClockPortContract",
    "ContractFactoryError",
    "ContractTests",
    "ContractViolation",
    "CtxContract",
    "FetchPortContract",
    "LLMPortContract",
    "MemorySourceContract",
    "SearchPortContract",
    "SpawnPortContract",
    "ToolContract",
    "TracePortContract",
    "check_clock_port",
    "check_ctx",
    "check_fetch_port",
    "check_llm_port",
    "check_memory_source",
    "check_search_port",
    "check_spawn_port",
    "check_tool",
    "check_trace_port",
    "program_argv",
}


def test_all_lists_exactly_the_public_names() -> None:
    exported = importlib.import_module("agentkit.core.testing.contracts").__all__
    assert set(exported) == PUBLIC
    assert len(exported) == len(PUBLIC)
    for name in PUBLIC:
        assert getattr(contracts, name) is not None


def test_every_contract_class_has_one_test_per_check() -> None:
    for name in PUBLIC:
        cls = getattr(contracts, name)
        if (
            isinstance(cls, type)
            and issubclass(cls, contracts.ContractTests)
            and name != "ContractTests"
        ):
            tests = {n for n in vars(cls) if n.startswith("test_")}
            assert tests == {f"test_{c}" for c in cls._suite.names()}, name
            assert tests


def test_the_errors_are_assertion_and_type_errors() -> None:
    assert issubclass(contracts.ContractViolation, AssertionError)
    assert issubclass(contracts.ContractFactoryError, TypeError)


def test_importing_the_suites_does_not_import_pytest() -> None:
    code = "import sys, agentkit.core.testing.contracts; print('pytest' in sys.modules)"
    assert fresh_python(code) == "False"


def test_a_star_import_of_the_meta_package_loads_the_contract_errors_and_no_suite() -> None:
    # The star import binds ContractViolation and ContractFactoryError: it pays for the
    # module of errors, not for the runner (_suite), its dataclasses or any port's suite.
    code = (
        "import sys\n"
        "from agentkit.core.testing import *\n"
        "print(sorted(m for m in sys.modules if m.startswith('agentkit.core.testing.contracts')))"
    )
    assert fresh_python(code) == str(
        ["agentkit.core.testing.contracts", "agentkit.core.testing.contracts._errors"]
    )


def test_the_errors_are_one_class_on_every_path() -> None:
    import agentkit.core.testing as testing
    from agentkit.core.testing.contracts import _errors

    for name in ("CheckFailure", "ContractFactoryError", "ContractViolation"):
        assert getattr(contracts, name) is getattr(_errors, name), name
    for name in ("ContractFactoryError", "ContractViolation"):
        assert getattr(testing, name) is getattr(contracts, name), name


def _suites() -> list[Suite]:
    found = []
    for name in dir(contracts):
        cls = getattr(contracts, name)
        if (
            isinstance(cls, type)
            and issubclass(cls, contracts.ContractTests)
            and cls.__dict__.get("_suite")
        ):
            found.append(cls._suite)
    return found


def test_every_rule_written_in_a_port_docstring_has_a_check_and_every_check_a_rule() -> None:
    suites = _suites()
    assert len(suites) == 14
    for suite in suites:
        written = rules_of(suite.protocol)
        assert set(written) == set(suite.names()), suite.port
        for check in suite.checks:
            assert check.rule == written[check.name]  # the failure quotes the docstring


def test_every_port_with_written_rules_has_a_suite() -> None:
    checked = {suite.protocol for suite in _suites()}
    for name in ports.__all__:
        protocol = getattr(ports, name)
        if rules_of(protocol):
            assert protocol in checked, name
    for protocol in checked:
        assert "Rules" in (protocol.__doc__ or ""), protocol


def test_a_check_without_a_written_rule_cannot_be_registered() -> None:
    suite = Suite("ClockPort", ("now",), ports.ClockPort)
    with pytest.raises(ValueError, match="no rule written in the ClockPort docstring"):

        @suite.check()
        async def an_unwritten_rule(make: object, options: object) -> None:
            return None


def test_rules_are_read_from_dash_items_over_indented_lines() -> None:
    class Port:
        """A port.

        Rules:

        - ``first``: one line.
        - ``second``: goes on
          over two lines.

        - not a rule
        """

    assert rules_of(Port) == {"first": "one line.", "second": "goes on over two lines."}


def test_no_check_states_a_rule_with_a_bare_assert() -> None:
    # A bare assert in a check fails as an empty AssertionError, or not at all under -O:
    # a check reports a broken rule by raising Broken with what happened.
    import ast
    from pathlib import Path

    folder = Path(contracts.__file__).parent
    asserts = [
        f"{path.name}:{node.lineno}"
        for path in sorted(folder.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Assert)
    ]
    assert asserts == []


async def test_an_implementation_failing_its_own_bare_assert_is_reported_with_the_rule() -> None:
    class AssertingClock:
        def now(self) -> float:
            raise AssertionError  # a bare ``assert`` inside the implementation

        async def sleep(self, seconds: float) -> None:
            return None

    with pytest.raises(contracts.ContractViolation) as caught:
        await contracts.check_clock_port(AssertingClock, skip=["sleep_zero_yields_to_the_loop"])
    failure = caught.value.failures[0]
    assert failure.check == "now_is_a_float"
    assert failure.got == "raised AssertionError()"
    assert "now() returns the current time as a float" in str(caught.value)
