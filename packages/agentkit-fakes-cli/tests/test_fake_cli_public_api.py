"""agentkit.fakes.cli's public API, pinned exactly."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import agentkit.core.verification.script
import agentkit.fakes.cli as cli

EXPECTED = {
    "CliRun",
    "CliStderr",
    "CliInvocation",
    "FakeClaudeCli",
    "FakeCodexCli",
    "codex_turn",
    "DEFAULT_THREAD_ID",
    "ScriptExhausted",
    "CapturingSpawn",
    "Recording",
    "RecordingError",
    "RecordingSecretError",
    "ReplayMismatch",
    "SecretFinding",
    "find_secrets",
    "load_recording",
    "recording_names",
    "recording_path",
    "save_recording",
}


def test_all_is_exactly_the_documented_names() -> None:
    assert set(importlib.import_module("agentkit.fakes.cli").__all__) == EXPECTED
    assert len(importlib.import_module("agentkit.fakes.cli").__all__) == len(EXPECTED)
    for name in EXPECTED:
        assert getattr(cli, name) is not None


def test_script_exhausted_is_cores_class() -> None:
    assert cli.ScriptExhausted is agentkit.core.verification.script.ScriptExhausted
    assert issubclass(cli.ScriptExhausted, BaseException)
    assert not issubclass(cli.ScriptExhausted, Exception)


def test_fakes_cli_imports_only_core() -> None:
    """A fakes package depends on agentkit-core only (never agents, never another fake)."""
    for info in pkgutil.iter_modules(cli.__path__):
        module = importlib.import_module(f"agentkit.fakes.cli.{info.name}")
        # Read from the file: pytest's assertion rewriter loads the plugin module, and its
        # loader has no get_source.
        assert module.__file__ is not None
        source = Path(module.__file__).read_text(encoding="utf-8")
        for line in source.splitlines():
            stripped = line.strip()
            if stripped.startswith(("import agentkit", "from agentkit")):
                target = stripped.split()[1]
                assert target.startswith(("agentkit.core", "agentkit.fakes.cli")), line


def test_importing_the_package_leaves_capture_and_recordings_unloaded() -> None:
    """A test built from CliRun pays for none of json's recording format, difflib or re."""
    import subprocess
    import sys

    code = (
        "import sys, agentkit.fakes.cli\n"
        "print(sorted(m for m in ('agentkit.fakes.cli._recording', 'agentkit.fakes.cli._recording._capture',"
        " 'agentkit.fakes.cli._input_check', 'agentkit.fakes.cli._recording._scrub', 'difflib')"
        " if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]"


def test_every_public_exception_names_the_module_a_user_imports_it_from() -> None:
    """Tracebacks and reports print ``module.qualname``: a public path, never a private one."""
    import pickle

    exceptions = [
        obj
        for obj in (getattr(cli, name) for name in sorted(EXPECTED))
        if isinstance(obj, type) and issubclass(obj, BaseException)
    ]
    assert {e.__name__ for e in exceptions} >= {
        "RecordingError",
        "RecordingSecretError",
        "ReplayMismatch",
        "ScriptExhausted",
    }
    for exception in exceptions:
        module = exception.__module__
        assert not any(part.startswith("_") for part in module.split(".")), exception
        assert getattr(importlib.import_module(module), exception.__qualname__) is exception
    # What pickle (xdist, multiprocessing) writes is that path, and it loads back.
    mismatch = cli.ReplayMismatch("FakeClaudeCli", 1, "argv", "a", "b", "-a\n+b", "pytest x")
    data = pickle.dumps(mismatch)
    assert b"agentkit.fakes.cli" in data
    assert b"_input_check" not in data
    again = pickle.loads(data)
    assert (again.diff, again.rerecord, str(again)) == ("-a\n+b", "pytest x", str(mismatch))
