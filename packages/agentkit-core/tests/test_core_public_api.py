"""Pins agentkit-core's public API: adding or dropping a name is a deliberate act."""

from __future__ import annotations

import importlib

import pytest

PUBLIC_API: dict[str, set[str]] = {
    "agentkit.core.types": {
        "Budget",
        "ChatResponse",
        "Delta",
        "FetchResponse",
        "FrozenDict",
        "MemoryItem",
        "Message",
        "Role",
        "Scope",
        "SearchHit",
        "ToolCall",
        "ToolSchema",
        "TraceContext",
        "Usage",
    },
    "agentkit.core.ports": {
        "Asker",
        "Checkpointer",
        "ClockPort",
        "Compactor",
        "Ctx",
        "DEFAULT_STREAM_LIMIT",
        "FetchPort",
        "Grounder",
        "LLMPort",
        "MemorySource",
        "Meter",
        "ObserverPort",
        "ProcessPort",
        "SearchPort",
        "Span",
        "SpawnOptions",
        "SpawnPort",
        "StreamReaderPort",
        "StreamWriterPort",
        "Tool",
        "TracePort",
        "check_spawn_options",
    },
    "agentkit.core.verification.script": {"ScriptCursor", "ScriptExhausted"},
    "agentkit.core.verification": {
        "REPORT_LIMIT",
        "Verifiable",
        "VerificationError",
        "VerifyingDouble",
        "Violation",
        "collect_doubles",
        "creation_site",
        "verify_all",
    },
    "agentkit.core.verification.process_guard": {
        "RealProcessBlocked",
        "allow_real_processes",
        "block_real_processes",
        "ensure_real_process_allowed",
        "real_processes_blocked",
    },
    "agentkit.core.verification.pytest_plugin": {
        "OPT_IN",
        "allow_real_processes",
        "format_violations",
    },
    "agentkit.core.pricing": {
        "ANTHROPIC_API",
        "OPENAI_API",
        "Mode",
        "ModelPrice",
        "PriceTable",
        "RawUsage",
        "UnknownModelError",
    },
    "agentkit.core.call_runtime": {"CallRuntime", "TransportAdapter", "TransportFacts"},
    "agentkit.core.invoker": {
        "ChatHandler",
        "ChatMiddleware",
        "Invoker",
        "ToolHandler",
        "ToolMiddleware",
    },
    "agentkit.core.middleware": {"BudgetExceeded", "RetryMiddleware", "budget_middleware"},
    "agentkit.core.runtime": {
        "AutonomyLiteral",
        "CancellationToken",
        "Invoker",
        "NoopObserver",
        "NoopSpan",
        "NoopTrace",
        "NullCtx",
        "RunCancelled",
        "RunContext",
        "Services",
        "SystemClock",
    },
    "agentkit.core.cancellation": {"CancellationToken", "RunCancelled"},
    "agentkit.core.noop": {"NoopObserver", "NoopSpan", "NoopTrace", "NullCtx"},
    "agentkit.core.clock": {"FakeClock", "SystemClock"},
    "agentkit.core.meters": {"UsageMeter"},
    "agentkit.core._internal.lazy": {"lazy_exports"},
    "agentkit.core.deltas": {"collect_response"},
    "agentkit.core.estimate": {"estimate_input_tokens", "estimate_tokens"},
    "agentkit.core.request": {"ChatModel", "ChatRequest", "stream_of"},
    "agentkit.core._internal.failures": {"hide_kit_frames", "is_kit_failure", "kit_failure"},
    "agentkit.core.schema": {"schema_errors", "schema_problems"},
}


@pytest.mark.parametrize("module_name", sorted(PUBLIC_API))
def test_public_api_is_pinned(module_name: str) -> None:
    module = importlib.import_module(module_name)
    assert set(module.__all__) == PUBLIC_API[module_name]
    assert len(module.__all__) == len(set(module.__all__)), "duplicate names in __all__"
    for name in module.__all__:
        assert hasattr(module, name), f"{module_name}.__all__ names missing {name}"


def test_runtime_reexports_are_the_same_objects() -> None:
    from agentkit.core import cancellation, invoker, noop, runtime

    assert runtime.Invoker is invoker.Invoker
    assert runtime.CancellationToken is cancellation.CancellationToken
    assert runtime.NullCtx is noop.NullCtx


def test_core_is_a_namespace_package() -> None:
    import agentkit.core

    assert getattr(agentkit.core, "__file__", None) is None
