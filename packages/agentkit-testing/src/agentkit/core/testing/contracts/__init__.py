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
"""

from agentkit.core.testing.contracts._base import ContractTests
from agentkit.core.testing.contracts._clock import ClockPortContract, check_clock_port
from agentkit.core.testing.contracts._fetch import (
    ContractSite,
    FetchPortContract,
    check_fetch_port,
    serve_contract_site,
)
from agentkit.core.testing.contracts._io import (
    MemorySourceContract,
    SearchPortContract,
    ToolContract,
    check_memory_source,
    check_search_port,
    check_tool,
)
from agentkit.core.testing.contracts._llm import LLMPortContract, check_llm_port
from agentkit.core.testing.contracts._services import (
    AskerContract,
    CheckpointerContract,
    CompactorContract,
    GrounderContract,
    MeterContract,
    check_asker,
    check_checkpointer,
    check_compactor,
    check_grounder,
    check_meter,
)
from agentkit.core.testing.contracts._spawn import (
    SpawnPortContract,
    check_spawn_port,
    program_argv,
)
from agentkit.core.testing.contracts._suite import (
    CheckFailure,
    ContractFactoryError,
    ContractViolation,
)
from agentkit.core.testing.contracts._trace import (
    CtxContract,
    TracePortContract,
    check_ctx,
    check_trace_port,
)

__all__ = [
    "AskerContract",
    "CheckFailure",
    "CheckpointerContract",
    "ClockPortContract",
    "CompactorContract",
    "ContractFactoryError",
    "ContractSite",
    "ContractTests",
    "ContractViolation",
    "CtxContract",
    "FetchPortContract",
    "GrounderContract",
    "LLMPortContract",
    "MemorySourceContract",
    "MeterContract",
    "SearchPortContract",
    "SpawnPortContract",
    "ToolContract",
    "TracePortContract",
    "check_asker",
    "check_checkpointer",
    "check_clock_port",
    "check_compactor",
    "check_ctx",
    "check_fetch_port",
    "check_grounder",
    "check_llm_port",
    "check_memory_source",
    "check_meter",
    "check_search_port",
    "check_spawn_port",
    "check_tool",
    "check_trace_port",
    "program_argv",
    "serve_contract_site",
]
