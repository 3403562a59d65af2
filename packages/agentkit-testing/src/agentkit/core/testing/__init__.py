"""agentkit.core.testing: test doubles for every Protocol, plus make_test_ctx().

Canonical test utilities for agentkit consumers, in one import:

- :func:`make_test_ctx` builds a REAL :class:`~agentkit.core.runtime.RunContext`
  for tests, wired with a FakeLLM-backed Invoker (``llm=``) and no-op
  trace/observer defaults.
- :mod:`agentkit.core.testing.fakes` holds every double: FakeCtx (a Ctx that
  RECORDS spans, unlike ``NullCtx``), the port doubles (FakeLLM, FakeClock,
  FakeFetch, FakeSearch, FakeMemory, FakeTool), the capability doubles
  (FakeGrounder, FakeCompactor), the subprocess doubles (FakeClaudeCli,
  FakeCodexCli), FakeApi (a port served as the providers' HTTP APIs, with
  its ApiRequest records) and FakeMcpServer (a strict MCP server, with its
  McpTool declarations and McpRequest records). All are re-exported here too.
- every other public name of every ``agentkit.fakes.*`` package, FakeFetch's
  route forms (URLPrefix, URLHost, InTurn, FetchRoute), FetchRouteError and
  FetchRouteExhausted among them, so one import serves -- except the CLI recording tools (Recording,
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

Every name below is a ``from owner import Name as Name`` under
``TYPE_CHECKING``, which mypy reads, and an entry of the table given to
:func:`agentkit.core._internal.lazy.lazy_exports`, which imports each owner on first
use at run time; agentkit-core's ``test_core_lazy`` checks that the imports,
the table and ``__all__`` agree.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentkit.core.errors import ArgumentError as ArgumentError
    from agentkit.core.errors import ArgumentTypeError as ArgumentTypeError
    from agentkit.core.errors import ArgumentValueError as ArgumentValueError
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
    from agentkit.fakes.io import FetchRoute as FetchRoute
    from agentkit.fakes.io import FetchRouteError as FetchRouteError
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
    from agentkit.fakes.mcp import CliMcpSettings as CliMcpSettings
    from agentkit.fakes.mcp import FakeMcpServer as FakeMcpServer
    from agentkit.fakes.mcp import McpRequest as McpRequest
    from agentkit.fakes.mcp import McpTool as McpTool
    from agentkit.fakes.mcp import McpToolError as McpToolError
    from agentkit.fakes.mcp import StdioServer as StdioServer
    from agentkit.fakes.mcp import claude_mcp_settings as claude_mcp_settings
    from agentkit.fakes.mcp import codex_mcp_settings as codex_mcp_settings
    from agentkit.fakes.mcp import mcp_tool_call as mcp_tool_call
    from agentkit.fakes.mcp import mcp_tool_name as mcp_tool_name
else:
    # Hidden from mypy: a visible module __getattr__ would make every misspelled name Any.
    from agentkit.core._internal.lazy import lazy_exports

    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "ArgumentError": "agentkit.core.errors",
            "ArgumentTypeError": "agentkit.core.errors",
            "ArgumentValueError": "agentkit.core.errors",
            "RealProcessBlocked": "agentkit.core.verification.process_guard",
            "ScriptExhausted": "agentkit.core.verification.script",
            "__version__": "agentkit.core.testing._version",
            "ContractFactoryError": "agentkit.core.testing.contracts._errors",
            "ContractViolation": "agentkit.core.testing.contracts._errors",
            "VerificationError": "agentkit.core.verification",
            "Violation": "agentkit.core.verification",
            "ApiRequest": "agentkit.fakes.api",
            "FakeApi": "agentkit.fakes.api",
            "ApiError": "agentkit.fakes.api.errors",
            "BrokenStream": "agentkit.fakes.api.errors",
            "DEFAULT_THREAD_ID": "agentkit.fakes.cli",
            "CliInvocation": "agentkit.fakes.cli",
            "CliRun": "agentkit.fakes.cli",
            "CliStderr": "agentkit.fakes.cli",
            "FakeClaudeCli": "agentkit.fakes.cli",
            "FakeCodexCli": "agentkit.fakes.cli",
            "RecordingError": "agentkit.fakes.cli",
            "codex_turn": "agentkit.fakes.cli",
            "FakeCompactor": "agentkit.fakes.ctx",
            "FakeCtx": "agentkit.fakes.ctx",
            "FakeGrounder": "agentkit.fakes.ctx",
            "RecordingSpan": "agentkit.fakes.ctx",
            "RecordingTracer": "agentkit.fakes.ctx",
            "make_test_ctx": "agentkit.fakes.ctx",
            "FakeClock": "agentkit.fakes.io",
            "FakeFetch": "agentkit.fakes.io",
            "FakeMemory": "agentkit.fakes.io",
            "FakeSearch": "agentkit.fakes.io",
            "FakeTool": "agentkit.fakes.io",
            "FetchRoute": "agentkit.fakes.io",
            "FetchRouteError": "agentkit.fakes.io",
            "FetchRouteExhausted": "agentkit.fakes.io",
            "InTurn": "agentkit.fakes.io",
            "URLHost": "agentkit.fakes.io",
            "URLPrefix": "agentkit.fakes.io",
            "UnknownURLError": "agentkit.fakes.io.fetch",
            "FakeLLM": "agentkit.fakes.llm",
            "ScriptedAdapter": "agentkit.fakes.llm",
            "ScriptedAdapterExhausted": "agentkit.fakes.llm",
            "Turn": "agentkit.fakes.llm",
            "scripted_runtime": "agentkit.fakes.llm",
            "FakeLLMError": "agentkit.fakes.llm.errors",
            "RefusedRequest": "agentkit.fakes.llm.errors",
            "ResponseRuleError": "agentkit.fakes.llm.errors",
            "UnmatchedRequest": "agentkit.fakes.llm.errors",
            "CliMcpSettings": "agentkit.fakes.mcp",
            "FakeMcpServer": "agentkit.fakes.mcp",
            "McpRequest": "agentkit.fakes.mcp",
            "McpTool": "agentkit.fakes.mcp",
            "McpToolError": "agentkit.fakes.mcp",
            "StdioServer": "agentkit.fakes.mcp",
            "claude_mcp_settings": "agentkit.fakes.mcp",
            "codex_mcp_settings": "agentkit.fakes.mcp",
            "mcp_tool_call": "agentkit.fakes.mcp",
            "mcp_tool_name": "agentkit.fakes.mcp",
        },
        globals(),
    )

__all__ = [
    "ArgumentError",
    "ArgumentTypeError",
    "ArgumentValueError",
    "RealProcessBlocked",
    "ScriptExhausted",
    "ContractFactoryError",
    "ContractViolation",
    "VerificationError",
    "Violation",
    "ApiRequest",
    "FakeApi",
    "ApiError",
    "BrokenStream",
    "DEFAULT_THREAD_ID",
    "CliInvocation",
    "CliRun",
    "CliStderr",
    "FakeClaudeCli",
    "FakeCodexCli",
    "RecordingError",
    "codex_turn",
    "FakeCompactor",
    "FakeCtx",
    "FakeGrounder",
    "RecordingSpan",
    "RecordingTracer",
    "make_test_ctx",
    "FakeClock",
    "FakeFetch",
    "FakeMemory",
    "FakeSearch",
    "FakeTool",
    "FetchRoute",
    "FetchRouteError",
    "FetchRouteExhausted",
    "InTurn",
    "URLHost",
    "URLPrefix",
    "UnknownURLError",
    "FakeLLM",
    "ScriptedAdapter",
    "ScriptedAdapterExhausted",
    "Turn",
    "scripted_runtime",
    "FakeLLMError",
    "RefusedRequest",
    "ResponseRuleError",
    "UnmatchedRequest",
    "CliMcpSettings",
    "FakeMcpServer",
    "McpRequest",
    "McpTool",
    "McpToolError",
    "StdioServer",
    "claude_mcp_settings",
    "codex_mcp_settings",
    "mcp_tool_call",
    "mcp_tool_name",
]
