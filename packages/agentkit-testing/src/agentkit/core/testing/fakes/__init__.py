"""Every agentkit test double, from the packages that own them.

Re-exports only: each double lives (and is tested) in its own package --
``agentkit.fakes.llm``, ``agentkit.fakes.io``, ``agentkit.fakes.cli``,
``agentkit.fakes.ctx``, ``agentkit.fakes.api``, ``agentkit.fakes.mcp`` -- so a project that needs one of them can depend on
that package alone. The names here are the very same objects, imported on
first use (:func:`agentkit.core._internal.lazy.lazy_exports`, from the table below, which
agrees with the ``Name as Name`` imports mypy reads), so ``from agentkit.core.testing.fakes import
FakeClock`` does not import the CLI doubles.

Two doubles are not port doubles, because the CLI cognitions are not behind
a port: :class:`FakeClaudeCli` and :class:`FakeCodexCli` stand in for the
subprocess itself (with the shared :class:`CliRun` / :class:`CliStderr` /
:class:`CliInvocation` value types, and :func:`codex_turn` to build one
well-formed Codex turn), so a test still runs the real parsing, event
mapping and meter charging.

:class:`FakeApi` is not a port double either: it serves a port (usually a
FakeLLM) as the providers' HTTP APIs on loopback, so the official SDKs and
the real CLI binaries can run against scripted model turns.
:class:`FakeMcpServer` stands in for an MCP server, over the protocol's own
HTTP transport on loopback, so an MCP client -- a real agent CLI too -- calls
declared :class:`McpTool` tools.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentkit.fakes.api import ApiRequest as ApiRequest
    from agentkit.fakes.api import FakeApi as FakeApi
    from agentkit.fakes.cli import CliInvocation as CliInvocation
    from agentkit.fakes.cli import CliRun as CliRun
    from agentkit.fakes.cli import CliStderr as CliStderr
    from agentkit.fakes.cli import FakeClaudeCli as FakeClaudeCli
    from agentkit.fakes.cli import FakeCodexCli as FakeCodexCli
    from agentkit.fakes.cli import codex_turn as codex_turn
    from agentkit.fakes.ctx import FakeCompactor as FakeCompactor
    from agentkit.fakes.ctx import FakeCtx as FakeCtx
    from agentkit.fakes.ctx import FakeGrounder as FakeGrounder
    from agentkit.fakes.ctx import RecordingSpan as RecordingSpan
    from agentkit.fakes.ctx import RecordingTracer as RecordingTracer
    from agentkit.fakes.io import FakeClock as FakeClock
    from agentkit.fakes.io import FakeFetch as FakeFetch
    from agentkit.fakes.io import FakeMemory as FakeMemory
    from agentkit.fakes.io import FakeSearch as FakeSearch
    from agentkit.fakes.io import FakeTool as FakeTool
    from agentkit.fakes.llm import FakeLLM as FakeLLM
    from agentkit.fakes.llm import ScriptedAdapter as ScriptedAdapter
    from agentkit.fakes.llm import ScriptedAdapterExhausted as ScriptedAdapterExhausted
    from agentkit.fakes.llm import Turn as Turn
    from agentkit.fakes.llm import scripted_runtime as scripted_runtime
    from agentkit.fakes.mcp import FakeMcpServer as FakeMcpServer
    from agentkit.fakes.mcp import McpRequest as McpRequest
    from agentkit.fakes.mcp import McpTool as McpTool
else:
    # Hidden from mypy, which reads the imports above: a visible module __getattr__
    # would type every misspelled name as Any.
    from agentkit.core._internal.lazy import lazy_exports

    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "ApiRequest": "agentkit.fakes.api",
            "FakeApi": "agentkit.fakes.api",
            "CliInvocation": "agentkit.fakes.cli",
            "CliRun": "agentkit.fakes.cli",
            "CliStderr": "agentkit.fakes.cli",
            "FakeClaudeCli": "agentkit.fakes.cli",
            "FakeCodexCli": "agentkit.fakes.cli",
            "codex_turn": "agentkit.fakes.cli",
            "FakeCompactor": "agentkit.fakes.ctx",
            "FakeCtx": "agentkit.fakes.ctx",
            "FakeGrounder": "agentkit.fakes.ctx",
            "RecordingSpan": "agentkit.fakes.ctx",
            "RecordingTracer": "agentkit.fakes.ctx",
            "FakeClock": "agentkit.fakes.io",
            "FakeFetch": "agentkit.fakes.io",
            "FakeMemory": "agentkit.fakes.io",
            "FakeSearch": "agentkit.fakes.io",
            "FakeTool": "agentkit.fakes.io",
            "FakeLLM": "agentkit.fakes.llm",
            "ScriptedAdapter": "agentkit.fakes.llm",
            "ScriptedAdapterExhausted": "agentkit.fakes.llm",
            "Turn": "agentkit.fakes.llm",
            "scripted_runtime": "agentkit.fakes.llm",
            "FakeMcpServer": "agentkit.fakes.mcp",
            "McpRequest": "agentkit.fakes.mcp",
            "McpTool": "agentkit.fakes.mcp",
        },
        globals(),
    )

__all__ = [
    "ApiRequest",
    "FakeApi",
    "CliInvocation",
    "CliRun",
    "CliStderr",
    "FakeClaudeCli",
    "FakeCodexCli",
    "codex_turn",
    "FakeCompactor",
    "FakeCtx",
    "FakeGrounder",
    "RecordingSpan",
    "RecordingTracer",
    "FakeClock",
    "FakeFetch",
    "FakeMemory",
    "FakeSearch",
    "FakeTool",
    "FakeLLM",
    "ScriptedAdapter",
    "ScriptedAdapterExhausted",
    "Turn",
    "scripted_runtime",
    "FakeMcpServer",
    "McpRequest",
    "McpTool",
]
