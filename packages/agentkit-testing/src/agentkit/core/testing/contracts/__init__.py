"""Contract suites: prove your own implementation of a port behaves like the port.

mypy checks a port's shape; these check its behaviour, with the same rules
the project's doubles and real implementations are held to -- so a test
written against a double says something about your real adapter too.

Each port has a suite, usable two ways:

- ``await check_<port>(factory, ...)`` runs every check on implementations
  ``factory`` (sync or async, returning a fresh one each call) makes, and
  raises one :class:`ContractViolation` listing each broken rule (its
  ``failures``: check, rule, what the implementation did). No pytest needed.
- ``class TestMine(<Port>Contract)`` with a ``make_port`` fixture returning
  the factory: one test per check. Options go in a ``contract_options`` class
  attribute or a ``port_options`` fixture; an option the suite does not take,
  or a required one missing, is refused as the function's signature refuses it.

Every rule a suite checks is written in its port's docstring in
``agentkit.core.ports``, and the failure quotes it from there.

A factory that makes the wrong kind of object is refused with
:class:`ContractFactoryError` before any check runs.

Each name is one ``Name as Name`` import below, loaded on first use
(:func:`agentkit.core._internal.lazy.lazy_exports`): the suites bring unittest and a
loopback HTTP server, which a test that only catches a ContractViolation, or a
star import of :mod:`agentkit.core.testing`, should not pay for.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentkit.core.testing.contracts._base import ContractTests as ContractTests
    from agentkit.core.testing.contracts._clock import ClockPortContract as ClockPortContract
    from agentkit.core.testing.contracts._clock import check_clock_port as check_clock_port
    from agentkit.core.testing.contracts._errors import CheckFailure as CheckFailure
    from agentkit.core.testing.contracts._errors import ContractFactoryError as ContractFactoryError
    from agentkit.core.testing.contracts._errors import ContractViolation as ContractViolation
    from agentkit.core.testing.contracts._fetch import ContractSite as ContractSite
    from agentkit.core.testing.contracts._fetch import FetchPortContract as FetchPortContract
    from agentkit.core.testing.contracts._fetch import check_fetch_port as check_fetch_port
    from agentkit.core.testing.contracts._fetch import serve_contract_site as serve_contract_site
    from agentkit.core.testing.contracts._io import MemorySourceContract as MemorySourceContract
    from agentkit.core.testing.contracts._io import SearchPortContract as SearchPortContract
    from agentkit.core.testing.contracts._io import ToolContract as ToolContract
    from agentkit.core.testing.contracts._io import check_memory_source as check_memory_source
    from agentkit.core.testing.contracts._io import check_search_port as check_search_port
    from agentkit.core.testing.contracts._io import check_tool as check_tool
    from agentkit.core.testing.contracts._llm import LLMPortContract as LLMPortContract
    from agentkit.core.testing.contracts._llm import check_llm_port as check_llm_port
    from agentkit.core.testing.contracts._services import AskerContract as AskerContract
    from agentkit.core.testing.contracts._services import (
        CheckpointerContract as CheckpointerContract,
    )
    from agentkit.core.testing.contracts._services import CompactorContract as CompactorContract
    from agentkit.core.testing.contracts._services import GrounderContract as GrounderContract
    from agentkit.core.testing.contracts._services import MeterContract as MeterContract
    from agentkit.core.testing.contracts._services import check_asker as check_asker
    from agentkit.core.testing.contracts._services import check_checkpointer as check_checkpointer
    from agentkit.core.testing.contracts._services import check_compactor as check_compactor
    from agentkit.core.testing.contracts._services import check_grounder as check_grounder
    from agentkit.core.testing.contracts._services import check_meter as check_meter
    from agentkit.core.testing.contracts._spawn import SpawnPortContract as SpawnPortContract
    from agentkit.core.testing.contracts._spawn import check_spawn_port as check_spawn_port
    from agentkit.core.testing.contracts._spawn import program_argv as program_argv
    from agentkit.core.testing.contracts._trace import CtxContract as CtxContract
    from agentkit.core.testing.contracts._trace import TracePortContract as TracePortContract
    from agentkit.core.testing.contracts._trace import check_ctx as check_ctx
    from agentkit.core.testing.contracts._trace import check_trace_port as check_trace_port
else:
    # Hidden from mypy, which reads the imports above: a visible module __getattr__
    # would type every misspelled name as Any.
    from agentkit.core._internal.lazy import lazy_exports

    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "ContractTests": "agentkit.core.testing.contracts._base",
            "ClockPortContract": "agentkit.core.testing.contracts._clock",
            "check_clock_port": "agentkit.core.testing.contracts._clock",
            "CheckFailure": "agentkit.core.testing.contracts._errors",
            "ContractFactoryError": "agentkit.core.testing.contracts._errors",
            "ContractViolation": "agentkit.core.testing.contracts._errors",
            "ContractSite": "agentkit.core.testing.contracts._fetch",
            "FetchPortContract": "agentkit.core.testing.contracts._fetch",
            "check_fetch_port": "agentkit.core.testing.contracts._fetch",
            "serve_contract_site": "agentkit.core.testing.contracts._fetch",
            "MemorySourceContract": "agentkit.core.testing.contracts._io",
            "SearchPortContract": "agentkit.core.testing.contracts._io",
            "ToolContract": "agentkit.core.testing.contracts._io",
            "check_memory_source": "agentkit.core.testing.contracts._io",
            "check_search_port": "agentkit.core.testing.contracts._io",
            "check_tool": "agentkit.core.testing.contracts._io",
            "LLMPortContract": "agentkit.core.testing.contracts._llm",
            "check_llm_port": "agentkit.core.testing.contracts._llm",
            "AskerContract": "agentkit.core.testing.contracts._services",
            "CheckpointerContract": "agentkit.core.testing.contracts._services",
            "CompactorContract": "agentkit.core.testing.contracts._services",
            "GrounderContract": "agentkit.core.testing.contracts._services",
            "MeterContract": "agentkit.core.testing.contracts._services",
            "check_asker": "agentkit.core.testing.contracts._services",
            "check_checkpointer": "agentkit.core.testing.contracts._services",
            "check_compactor": "agentkit.core.testing.contracts._services",
            "check_grounder": "agentkit.core.testing.contracts._services",
            "check_meter": "agentkit.core.testing.contracts._services",
            "SpawnPortContract": "agentkit.core.testing.contracts._spawn",
            "check_spawn_port": "agentkit.core.testing.contracts._spawn",
            "program_argv": "agentkit.core.testing.contracts._spawn",
            "CtxContract": "agentkit.core.testing.contracts._trace",
            "TracePortContract": "agentkit.core.testing.contracts._trace",
            "check_ctx": "agentkit.core.testing.contracts._trace",
            "check_trace_port": "agentkit.core.testing.contracts._trace",
        },
        globals(),
    )

__all__ = [
    "ContractTests",
    "ClockPortContract",
    "check_clock_port",
    "CheckFailure",
    "ContractFactoryError",
    "ContractViolation",
    "ContractSite",
    "FetchPortContract",
    "check_fetch_port",
    "serve_contract_site",
    "MemorySourceContract",
    "SearchPortContract",
    "ToolContract",
    "check_memory_source",
    "check_search_port",
    "check_tool",
    "LLMPortContract",
    "check_llm_port",
    "AskerContract",
    "CheckpointerContract",
    "CompactorContract",
    "GrounderContract",
    "MeterContract",
    "check_asker",
    "check_checkpointer",
    "check_compactor",
    "check_grounder",
    "check_meter",
    "SpawnPortContract",
    "check_spawn_port",
    "program_argv",
    "CtxContract",
    "TracePortContract",
    "check_ctx",
    "check_trace_port",
]
