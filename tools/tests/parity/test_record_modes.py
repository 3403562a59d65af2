"""The cli_recording workflow check: the user's test module it runs, and how it judges pytest."""

from __future__ import annotations

import ast
import subprocess

from tools.parity import record_modes


def test_the_users_test_module_is_python_using_public_names_only() -> None:
    tree = ast.parse(record_modes.test_module())
    modules = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert "agentkit.fakes.cli.pytest_plugin" in modules
    assert all(not part.startswith("_") for m in modules for part in m.split("."))
    tests = [n.name for n in tree.body if isinstance(n, ast.AsyncFunctionDef)]
    assert tests == ["test_claude", "test_codex"]


def _done(returncode: int, stdout: str) -> subprocess.CompletedProcess[str]:
    return subprocess.CompletedProcess(["pytest"], returncode, stdout, "")


def test_a_pytest_run_is_judged_by_its_exit_status_and_what_it_says() -> None:
    right = record_modes.RecordModes()
    record_modes._expect(right, "replay", _done(0, "2 passed in 1.0s"), 0, ["2 passed"])
    assert right.passed
    assert right.steps == ["replay: ok"]
    outcome = record_modes.RecordModes()
    record_modes._expect(outcome, "changed", _done(0, "2 passed"), 1, ["ReplayMismatch"])
    record_modes._expect(outcome, "missing", _done(1, "1 failed"), 1, ["--agentkit-record=once"])
    assert not outcome.passed
    assert outcome.problems[0].startswith("changed: pytest exited 0 (expected 1)")
    assert "lacks ['--agentkit-record=once']" in outcome.problems[1]
