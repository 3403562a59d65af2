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
- every other public name of every ``agentkit.fakes.*`` package, FakeFetch's
  route forms (URLPrefix, URLHost, InTurn) and FetchRouteExhausted among
  them, so one import serves -- except the CLI recording tools (Recording,
  load_recording, save_recording, CapturingSpawn, find_secrets and their
  errors), which make fixtures rather than tests and bring the recording
  machinery a star import of this module must not load: import them from
  :mod:`agentkit.fakes.cli`.
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
  ``agentkit.core.verification.script.ScriptExhausted``, so one ``except`` (or
  ``pytest.raises``) catches it whichever double raised it.

Naming convention: ``Fake*`` is the standard for test doubles. ``Null*`` /
``Noop*`` are production-grade null objects; they live in
:mod:`agentkit.core.noop`, NOT here.

The doubles themselves live in the ``agentkit-fakes-*`` packages this one
depends on; nothing is defined here but the pytest plugin
(:mod:`agentkit.core.testing.pytest_plugin`, loaded by pytest through the
``pytest11`` entry point, never imported by this module).

Every name below is written once, as ``from owner import Name as Name`` under
``TYPE_CHECKING``: mypy reads those imports, and at run time
:func:`agentkit.core.lazy.reexports` derives the lazy table and ``__all__``
from the same lines, importing each owner on first use.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentkit.core.arguments import ArgumentError as ArgumentError
    from agentkit.core.arguments import ArgumentTypeError as ArgumentTypeError
    from agentkit.core.arguments import ArgumentValueError as ArgumentValueError
    from agentkit.core.testing._version import __version__ as __version__
    from agentkit.core.testing.contracts._errors import ContractFactoryError as ContractFactoryError
    from agentkit.core.testing.contracts._errors import ContractViolation as ContractViolation
    from agentkit.core.verification import VerificationError as VerificationError
    from agentkit.core.verification import Violation as Violation
    from agentkit.core.verification.process_guard import RealProcessBlocked as RealProcessBlocked
    from agentkit.core.verification.script import ScriptExhausted as ScriptExhausted
    from agentkit.fakes.api import ApiRequest as ApiRequest
    from agentkit.fakes.api import FakeApi as FakeApi
    from agentkit.fakes.api.errors import ApiError as ApiError
    from agentkit.fakes.api.errors import BrokenStream as BrokenStream
    from agentkit.fakes.cli import DEFAULT_THREAD_ID as DEFAULT_THREAD_ID
    from agentkit.fakes.cli import CliInvocation as CliInvocation
    from agentkit.fakes.cli import CliRun as CliRun
    from agentkit.fakes.cli import CliStderr as CliStderr
    from agentkit.fakes.cli import FakeClaudeCli as FakeClaudeCli
    from agentkit.fakes.cli import FakeCodexCli as FakeCodexCli
    from agentkit.fakes.cli import RecordingError as RecordingError
    from agentkit.fakes.cli import codex_turn as codex_turn
    from agentkit.fakes.ctx import FakeCompactor as FakeCompactor
    from agentkit.fakes.ctx import FakeCtx as FakeCtx
    from agentkit.fakes.ctx import FakeGrounder as FakeGrounder
    from agentkit.fakes.ctx import RecordingSpan as RecordingSpan
    from agentkit.fakes.ctx import RecordingTracer as RecordingTracer
    from agentkit.fakes.ctx import make_test_ctx as make_test_ctx
    from agentkit.fakes.io import FakeClock as FakeClock
    from agentkit.fakes.io import FakeFetch as FakeFetch
    from agentkit.fakes.io import FakeMemory as FakeMemory
    from agentkit.fakes.io import FakeSearch as FakeSearch
    from agentkit.fakes.io import FakeTool as FakeTool
    from agentkit.fakes.io import FetchRouteExhausted as FetchRouteExhausted
    from agentkit.fakes.io import InTurn as InTurn
    from agentkit.fakes.io import URLHost as URLHost
    from agentkit.fakes.io import URLPrefix as URLPrefix
    from agentkit.fakes.io.fetch import UnknownURLError as UnknownURLError
    from agentkit.fakes.llm import FakeLLM as FakeLLM
    from agentkit.fakes.llm import ScriptedAdapter as ScriptedAdapter
    from agentkit.fakes.llm import ScriptedAdapterExhausted as ScriptedAdapterExhausted
    from agentkit.fakes.llm import Turn as Turn
    from agentkit.fakes.llm import scripted_runtime as scripted_runtime
    from agentkit.fakes.llm.errors import FakeLLMError as FakeLLMError
    from agentkit.fakes.llm.errors import RefusedRequest as RefusedRequest
    from agentkit.fakes.llm.errors import ResponseRuleError as ResponseRuleError
    from agentkit.fakes.llm.errors import UnmatchedRequest as UnmatchedRequest
else:
    # Hidden from mypy: a visible module __getattr__ would make every misspelled name Any.
    from agentkit.core.lazy import reexports

    __getattr__, __dir__ = reexports(globals())
