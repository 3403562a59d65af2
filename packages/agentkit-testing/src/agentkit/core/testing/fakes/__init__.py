"""Every agentkit test double, from the packages that own them.

Re-exports only: each double lives (and is tested) in its own package --
``agentkit.fakes.llm``, ``agentkit.fakes.io``, ``agentkit.fakes.cli``,
``agentkit.fakes.ctx`` -- so a project that needs one of them can depend on
that package alone. The names here are the very same objects.

Two doubles are not port doubles, because the CLI cognitions are not behind
a port: :class:`FakeClaudeCli` and :class:`FakeCodexCli` stand in for the
subprocess itself (with the shared :class:`CliRun` / :class:`CliStderr` /
:class:`CliInvocation` value types, and :func:`codex_turn` to build one
well-formed Codex turn), so a test still runs the real parsing, event
mapping and meter charging.
"""

from agentkit.fakes.cli import (
    CliInvocation,
    CliRun,
    CliStderr,
    FakeClaudeCli,
    FakeCodexCli,
    codex_turn,
)
from agentkit.fakes.ctx import FakeCompactor, FakeCtx, FakeGrounder, RecordingSpan, RecordingTracer
from agentkit.fakes.io import FakeClock, FakeFetch, FakeMemory, FakeSearch, FakeTool
from agentkit.fakes.llm import (
    FakeLLM,
    ScriptedAdapter,
    ScriptedAdapterExhausted,
    Turn,
    scripted_runtime,
)

__all__ = [
    # agentkit.fakes.llm
    "FakeLLM",
    "Turn",
    "ScriptedAdapter",
    "ScriptedAdapterExhausted",
    "scripted_runtime",
    # agentkit.fakes.io
    "FakeClock",
    "FakeFetch",
    "FakeSearch",
    "FakeMemory",
    "FakeTool",
    # agentkit.fakes.cli
    "CliRun",
    "CliStderr",
    "CliInvocation",
    "FakeClaudeCli",
    "FakeCodexCli",
    "codex_turn",
    # agentkit.fakes.ctx
    "FakeCtx",
    "RecordingTracer",
    "RecordingSpan",
    "FakeCompactor",
    "FakeGrounder",
]
