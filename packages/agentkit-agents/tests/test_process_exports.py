"""The process runner module's public names, pinned (the rest of it is internal)."""

from __future__ import annotations

import agentkit.agents.cognition.process as process


def test_the_runner_module_exports_exactly_these_names() -> None:
    assert sorted(process.__all__) == [
        "CliProcess",
        "DEFAULT_EOF_GRACE",
        "DEFAULT_KILL_GRACE",
        "DEFAULT_LINE_LIMIT",
        "DEFAULT_STDERR_KEEP",
        "default_spawn",
    ]
    assert all(hasattr(process, name) for name in process.__all__)


def test_the_defaults_are_the_documented_figures() -> None:
    assert process.DEFAULT_LINE_LIMIT == 64 * 1024 * 1024
    assert process.DEFAULT_KILL_GRACE == 5.0
    assert process.DEFAULT_EOF_GRACE == 1.0
    assert process.DEFAULT_STDERR_KEEP == 256 * 1024
