"""The runner's and the real spawn's names, pinned: both modules are internal, named so.

What a cognition's caller needs of them is exported by the package
(``agentkit.agents.cognition.default_spawn``); the runner and its figures are
for the cognitions and the kit's own tests and tools.
"""

from __future__ import annotations

import agentkit.agents.cognition as cognition
from agentkit.agents.cognition import _runner, _spawn


def test_the_runner_module_holds_the_runner_and_its_figures() -> None:
    assert sorted(_runner.__all__) == [
        "CliProcess",
        "DEFAULT_EOF_GRACE",
        "DEFAULT_KILL_GRACE",
        "DEFAULT_LINE_LIMIT",
        "DEFAULT_STDERR_KEEP",
    ]
    assert all(hasattr(_runner, name) for name in _runner.__all__)


def test_the_spawn_module_holds_the_real_spawn_and_its_process() -> None:
    assert sorted(_spawn.__all__) == [
        "GroupControl",
        "RUN_MARK",
        "SpawnedProcess",
        "default_spawn",
        "descends_from",
        "group_control",
    ]
    assert all(hasattr(_spawn, name) for name in _spawn.__all__)
    assert cognition.default_spawn is _spawn.default_spawn


def test_the_defaults_are_the_documented_figures() -> None:
    assert _runner.DEFAULT_LINE_LIMIT == 64 * 1024 * 1024
    assert _runner.DEFAULT_KILL_GRACE == 5.0
    assert _runner.DEFAULT_EOF_GRACE == 1.0
    assert _runner.DEFAULT_STDERR_KEEP == 256 * 1024
