"""agentkit.core.testing: test doubles for every Protocol, plus make_test_ctx().

Canonical test utilities for agentkit consumers, in one import:

- :func:`make_test_ctx` builds a REAL :class:`~agentkit.core.runtime.RunContext`
  for tests, wired with a FakeLLM-backed Invoker (``llm=``) and no-op
  trace/observer defaults.
- :mod:`agentkit.core.testing.fakes` holds every double: FakeCtx (a Ctx that
  RECORDS spans, unlike ``NullCtx``), the port doubles (FakeLLM, FakeClock,
  FakeFetch, FakeSearch, FakeMemory, FakeTool), the capability doubles
  (FakeGrounder, FakeCompactor), the subprocess doubles (FakeClaudeCli,
  FakeCodexCli) and FakeApi (a port served as the providers' HTTP APIs, with
  its ApiRequest records). All are re-exported here too.
- the errors a test may catch or assert on, each the very class its owning
  module defines: ScriptExhausted, ScriptedAdapterExhausted,
  UnmatchedRequest, FakeLLMError, RefusedRequest, ResponseRuleError,
  UnknownURLError (the FakeFetch ``KeyError``), VerificationError and Violation (the teardown
  check), RealProcessBlocked, the argument errors, the contract suites'
  ContractViolation and ContractFactoryError, and RecordingError (a CLI
  recording that cannot be read), ApiError and BrokenStream (the failures a
  FakeApi brain raises for the HTTP client to see).
- :class:`ScriptExhausted` is what every scripted double raises when asked
  for more than its script holds -- the same class object as
  ``agentkit.core.script.ScriptExhausted``, so one ``except`` (or
  ``pytest.raises``) catches it whichever double raised it.

Naming convention: ``Fake*`` is the standard for test doubles. ``Null*`` /
``Noop*`` are production-grade null objects; they live in
:mod:`agentkit.core.noop`, NOT here.

The doubles themselves live in the ``agentkit-fakes-*`` packages this one
depends on; nothing is defined here but the pytest plugin
(:mod:`agentkit.core.testing.pytest_plugin`, loaded by pytest through the
``pytest11`` entry point, never imported by this module).
"""

from typing import TYPE_CHECKING

from agentkit.core.arguments import ArgumentError, ArgumentTypeError, ArgumentValueError
from agentkit.core.lazy import lazy_exports
from agentkit.core.process_guard import RealProcessBlocked
from agentkit.core.script import ScriptExhausted
from agentkit.core.verification import VerificationError, Violation

if TYPE_CHECKING:
    from agentkit.core.testing._version import __version__ as __version__
    from agentkit.core.testing.contracts import ContractFactoryError, ContractViolation
    from agentkit.core.testing.fakes import (
        ApiRequest,
        CliInvocation,
        CliRun,
        CliStderr,
        FakeApi,
        FakeClaudeCli,
        FakeClock,
        FakeCodexCli,
        FakeCompactor,
        FakeCtx,
        FakeFetch,
        FakeGrounder,
        FakeLLM,
        FakeMemory,
        FakeSearch,
        FakeTool,
        RecordingSpan,
        RecordingTracer,
        ScriptedAdapter,
        ScriptedAdapterExhausted,
        Turn,
        codex_turn,
        scripted_runtime,
    )
    from agentkit.fakes.api.errors import ApiError, BrokenStream
    from agentkit.fakes.cli import RecordingError
    from agentkit.fakes.ctx import make_test_ctx
    from agentkit.fakes.io.fetch import UnknownURLError
    from agentkit.fakes.llm.errors import (
        FakeLLMError,
        RefusedRequest,
        ResponseRuleError,
        UnmatchedRequest,
    )

from agentkit.core.testing import fakes as _fakes  # cheap: its own names are lazy too

# Errors a test may catch or assert on, by the module that defines them.
_ERRORS = {
    **dict.fromkeys(
        ("FakeLLMError", "RefusedRequest", "ResponseRuleError", "UnmatchedRequest"),
        "agentkit.fakes.llm.errors",
    ),
    "UnknownURLError": "agentkit.fakes.io.fetch",
    "RecordingError": "agentkit.fakes.cli",
    **dict.fromkeys(("ApiError", "BrokenStream"), "agentkit.fakes.api.errors"),
    **dict.fromkeys(
        ("ContractViolation", "ContractFactoryError"), "agentkit.core.testing.contracts"
    ),
}

if not TYPE_CHECKING:
    # Hidden from mypy: a module __getattr__ would make every misspelled name Any.
    # mypy reads the imports under TYPE_CHECKING above instead.
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "make_test_ctx": "agentkit.fakes.ctx",
            **dict.fromkeys(_fakes.__all__, "agentkit.core.testing.fakes"),
            **_ERRORS,
            "__version__": "agentkit.core.testing._version",
        },
        globals(),
    )

# Spelled out, not `__all__ += _fakes.__all__`: mypy only re-exports names from a
# literal __all__, so a consumer's `from agentkit.core.testing import codex_turn`
# would fail type-checking with the shorter form.
__all__ = [
    "make_test_ctx",
    "ScriptExhausted",
    "FakeLLM",
    "Turn",
    "ScriptedAdapter",
    "ScriptedAdapterExhausted",
    "scripted_runtime",
    "FakeClock",
    "FakeFetch",
    "FakeSearch",
    "FakeMemory",
    "FakeTool",
    "CliRun",
    "CliStderr",
    "CliInvocation",
    "FakeClaudeCli",
    "FakeCodexCli",
    "codex_turn",
    "FakeCtx",
    "RecordingTracer",
    "RecordingSpan",
    "FakeCompactor",
    "FakeGrounder",
    "FakeApi",
    "ApiRequest",
    # errors a test may catch or assert on (ScriptExhausted and
    # ScriptedAdapterExhausted are listed above)
    "UnmatchedRequest",
    "FakeLLMError",
    "RefusedRequest",
    "ResponseRuleError",
    "VerificationError",
    "Violation",
    "RealProcessBlocked",
    "UnknownURLError",
    "ArgumentError",
    "ArgumentTypeError",
    "ArgumentValueError",
    "ContractViolation",
    "ContractFactoryError",
    "RecordingError",
    "ApiError",
    "BrokenStream",
]
