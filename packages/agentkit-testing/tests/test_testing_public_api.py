"""Pins agentkit.core.testing's and agentkit.core.testing.fakes' public API.

Both are re-export surfaces: every name must be the very object its owning
package defines, never a copy or a wrapper, so that an ``isinstance`` or an
``except`` written against one import path works for the other.
"""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import agentkit.core.testing
import agentkit.core.testing.fakes
import agentkit.core.verification.script
import agentkit.fakes.cli
import agentkit.fakes.llm

OWNERS: dict[str, set[str]] = {
    "agentkit.fakes.llm": {
        "FakeLLM",
        "Turn",
        "ScriptedAdapter",
        "ScriptedAdapterExhausted",
        "scripted_runtime",
    },
    "agentkit.fakes.io": {"FakeClock", "FakeFetch", "FakeSearch", "FakeMemory", "FakeTool"},
    "agentkit.fakes.cli": {
        "CliRun",
        "CliStderr",
        "CliInvocation",
        "FakeClaudeCli",
        "FakeCodexCli",
        "codex_turn",
    },
    "agentkit.fakes.ctx": {
        "FakeCtx",
        "RecordingTracer",
        "RecordingSpan",
        "FakeCompactor",
        "FakeGrounder",
    },
    "agentkit.fakes.api": {"FakeApi", "ApiRequest"},
    "agentkit.fakes.mcp": {"FakeMcpServer", "McpRequest", "McpTool"},
}
DOUBLES = set().union(*OWNERS.values())


def test_fakes_all_is_exactly_every_double() -> None:
    names = importlib.import_module("agentkit.core.testing.fakes").__all__
    assert set(names) == DOUBLES
    assert len(names) == len(DOUBLES) == 26  # no duplicates


ERRORS = {
    "agentkit.core.verification.script": {"ScriptExhausted"},
    "agentkit.fakes.llm.errors": {
        "UnmatchedRequest",
        "FakeLLMError",
        "RefusedRequest",
        "ResponseRuleError",
    },
    "agentkit.core.verification": {"VerificationError", "Violation"},
    "agentkit.core.verification.process_guard": {"RealProcessBlocked"},
    "agentkit.fakes.io.fetch": {"UnknownURLError"},
    "agentkit.core._internal.arguments": {
        "ArgumentError",
        "ArgumentTypeError",
        "ArgumentValueError",
    },
    "agentkit.core.testing.contracts": {"ContractViolation", "ContractFactoryError"},
    "agentkit.fakes.cli": {"RecordingError"},
    "agentkit.fakes.api.errors": {"ApiError", "BrokenStream"},
}

# The list, order included: any change to the facade's __all__ is a change here too, made
# on purpose.
TESTING_ALL = [
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


def test_testing_all_is_pinned() -> None:
    assert importlib.import_module("agentkit.core.testing").__all__ == TESTING_ALL


def _fakes_packages() -> list[str]:
    """Every installed ``agentkit.fakes.*`` package, found rather than listed."""
    import agentkit.fakes

    return sorted(
        f"agentkit.fakes.{info.name}"
        for info in pkgutil.iter_modules(agentkit.fakes.__path__)
        if info.ispkg and not info.name.startswith("_")
    )


# The CLI recording tools make fixtures rather than tests, and load the recording machinery
# (secret scrubbing, difflib, pathlib) that a star import of the facade must not load
# (agentkit-core's test_core_lazy pins that): they are imported from agentkit.fakes.cli.
RECORDING_TOOLS = {
    "CapturingSpawn",
    "Recording",
    "RecordingSecretError",
    "ReplayMismatch",
    "SecretFinding",
    "find_secrets",
    "load_recording",
    "recording_names",
    "recording_path",
    "save_recording",
}


def test_every_public_name_of_every_fakes_package_is_in_the_meta_facade() -> None:
    # One import serves a test whatever double it needs: a name a fakes package adds to its
    # __all__ (a route type, an error, a constant) is a name the facade re-exports, as the
    # very same object, or this fails naming it.
    testing = importlib.import_module("agentkit.core.testing")
    cli = importlib.import_module("agentkit.fakes.cli")
    assert set(cli.__all__) >= RECORDING_TOOLS, "a recording tool was renamed: update the list"
    packages = _fakes_packages()
    assert {"agentkit.fakes.io", "agentkit.fakes.llm", "agentkit.fakes.cli"} <= set(packages)
    for owner in packages:
        module = importlib.import_module(owner)
        public = set(module.__all__) - {"__version__"} - RECORDING_TOOLS
        missing = sorted(public - set(testing.__all__))
        assert missing == [], f"agentkit.core.testing lacks {owner}'s {missing}"
        assert not RECORDING_TOOLS & set(testing.__all__)
        for name in public:
            assert getattr(testing, name) is getattr(module, name), f"{owner}.{name}"


def test_testing_all_is_every_fakes_name_plus_the_errors() -> None:
    names = importlib.import_module("agentkit.core.testing").__all__
    every_fakes_name = (
        set().union(*(importlib.import_module(p).__all__ for p in _fakes_packages()))
        - {"__version__"}
        - RECORDING_TOOLS
    )
    assert set(names) == DOUBLES | every_fakes_name | set().union(*ERRORS.values())
    assert len(names) == len(set(names))


def test_every_error_is_the_defining_modules_object() -> None:
    for owner, names in ERRORS.items():
        module = importlib.import_module(owner)
        for name in names:
            assert getattr(agentkit.core.testing, name) is getattr(module, name), name


def test_every_name_is_the_owning_packages_object() -> None:
    for owner, names in OWNERS.items():
        module = importlib.import_module(owner)
        for name in names:
            assert name in module.__all__, f"{owner} does not export {name}"
            original = getattr(module, name)
            assert getattr(agentkit.core.testing.fakes, name) is original, name
            assert getattr(agentkit.core.testing, name) is original, name
    make_test_ctx = importlib.import_module("agentkit.fakes.ctx").make_test_ctx
    assert agentkit.core.testing.make_test_ctx is make_test_ctx


def test_script_exhausted_is_one_class_object_everywhere() -> None:
    core = agentkit.core.verification.script.ScriptExhausted
    assert agentkit.core.testing.ScriptExhausted is core
    assert agentkit.fakes.llm.ScriptExhausted is core
    assert agentkit.fakes.cli.ScriptExhausted is core
    assert issubclass(core, BaseException)
    assert not issubclass(core, Exception)


def test_importing_the_kit_needs_no_pytest() -> None:
    # The plugin is pytest's to load, through the entry point; the kit itself must not
    # import it (nor pytest), so it works under any runner. A fresh interpreter shows it,
    # since in this one pytest has loaded the plugin already.
    probe = (
        "import sys, agentkit.core.testing; "
        "print('pytest' in sys.modules, 'agentkit.core.testing.pytest_plugin' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False"]
