"""Every agentkit test double, from the packages that own them.

Re-exports only: each double lives (and is tested) in its own package --
``agentkit.fakes.llm``, ``agentkit.fakes.io``, ``agentkit.fakes.cli``,
``agentkit.fakes.ctx``, ``agentkit.fakes.api`` -- so a project that needs one of them can depend on
that package alone. The names here are the very same objects, imported on
first use (:func:`agentkit.core.lazy.lazy_exports`), so ``from
agentkit.core.testing.fakes import FakeClock`` does not import the CLI doubles.

Two doubles are not port doubles, because the CLI cognitions are not behind
a port: :class:`FakeClaudeCli` and :class:`FakeCodexCli` stand in for the
subprocess itself (with the shared :class:`CliRun` / :class:`CliStderr` /
:class:`CliInvocation` value types, and :func:`codex_turn` to build one
well-formed Codex turn), so a test still runs the real parsing, event
mapping and meter charging.

:class:`FakeApi` is not a port double either: it serves a port (usually a
FakeLLM) as the providers' HTTP APIs on loopback, so the official SDKs and
the real CLI binaries can run against scripted model turns.
"""

from typing import TYPE_CHECKING

from agentkit.core.lazy import lazy_exports

if TYPE_CHECKING:
    from agentkit.fakes.api import ApiRequest, FakeApi
    from agentkit.fakes.cli import (
        CliInvocation,
        CliRun,
        CliStderr,
        FakeClaudeCli,
        FakeCodexCli,
        codex_turn,
    )
    from agentkit.fakes.ctx import (
        FakeCompactor,
        FakeCtx,
        FakeGrounder,
        RecordingSpan,
        RecordingTracer,
    )
    from agentkit.fakes.io import FakeClock, FakeFetch, FakeMemory, FakeSearch, FakeTool
    from agentkit.fakes.llm import (
        FakeLLM,
        ScriptedAdapter,
        ScriptedAdapterExhausted,
        Turn,
        scripted_runtime,
    )

_SOURCES = {
    **dict.fromkeys(
        ("FakeLLM", "Turn", "ScriptedAdapter", "ScriptedAdapterExhausted", "scripted_runtime"),
        "agentkit.fakes.llm",
    ),
    **dict.fromkeys(
        ("FakeClock", "FakeFetch", "FakeSearch", "FakeMemory", "FakeTool"), "agentkit.fakes.io"
    ),
    **dict.fromkeys(
        ("CliRun", "CliStderr", "CliInvocation", "FakeClaudeCli", "FakeCodexCli", "codex_turn"),
        "agentkit.fakes.cli",
    ),
    **dict.fromkeys(
        ("FakeCtx", "RecordingTracer", "RecordingSpan", "FakeCompactor", "FakeGrounder"),
        "agentkit.fakes.ctx",
    ),
    **dict.fromkeys(("FakeApi", "ApiRequest"), "agentkit.fakes.api"),
}

if not TYPE_CHECKING:
    # Hidden from mypy, which reads the imports above: a visible module __getattr__
    # would type every misspelled name as Any.
    __getattr__, __dir__ = lazy_exports(__name__, _SOURCES, globals())

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
    # agentkit.fakes.api
    "FakeApi",
    "ApiRequest",
]
