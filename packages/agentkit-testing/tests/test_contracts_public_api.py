"""Pins agentkit.core.testing.contracts' public API, and keeps it free of pytest."""

from __future__ import annotations

import subprocess
import sys

import agentkit.core.testing.contracts as contracts

PUBLIC = {
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
    assert set(contracts.__all__) == PUBLIC
    assert len(contracts.__all__) == len(PUBLIC)
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
            assert tests == {f"test_{c}" for c in cls.suite.names()}, name
            assert tests


def test_the_errors_are_assertion_and_type_errors() -> None:
    assert issubclass(contracts.ContractViolation, AssertionError)
    assert issubclass(contracts.ContractFactoryError, TypeError)


def test_importing_the_suites_does_not_import_pytest() -> None:
    code = "import sys, agentkit.core.testing.contracts; print('pytest' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
