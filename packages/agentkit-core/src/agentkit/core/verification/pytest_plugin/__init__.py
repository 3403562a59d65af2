"""The agentkit pytest plugin: strict verification of every double, and no real processes.

Registered by agentkit-core itself through the ``pytest11`` entry point (name
``agentkit``), so it is active wherever any agentkit double is installed --
``agentkit-fakes-llm`` alone as much as the whole ``agentkit-testing`` --
and ``-p no:agentkit`` disables it. pytest is imported by this package
only, and only pytest loads it: agentkit-core stays standard-library only
for everything else.

**Verification by ownership** (docs/guides/verification.md has the rules
with examples). Every double has an owner: what pytest was running when it
was made -- a test (its function-scoped fixtures included), a fixture of a
broader scope, the collection of a module -- and it is judged when that
owner ends, reported where it was made:

- a test's doubles at its teardown: a violation fails the test as an error
  at teardown naming the double, where it was made, what went wrong and the
  fix. A test that already failed or was skipped gets nothing on top; one
  whose body never ran (``--setup-only``) is not judged on unused material.
- a module-, class-, package- or session-scoped fixture's doubles when
  pytest finalizes it; a module-level or parametrize-time double when the
  tests it was handed to have run, else at the end of the session. Their
  unused material is judged only if every test that could use them ran its
  body here and passed.
- a certain error (a miss, a swallowed exhaustion, a tool never offered)
  fails the test that was running when it happened, whoever owns the double.
- work that outlives its test (a thread) and makes a double: judged at the
  end of the session, naming the test that started the work; non-daemon
  threads are waited for first.

Opt out per test with ``@pytest.mark.agentkit(verify=False)`` (it reaches
the shared doubles the test uses), per double with ``verify=False``.

**No real processes.** The test runs inside
:func:`~agentkit.core.verification.process_guard.block_real_processes`, so the
real ``default_spawn`` raises ``RealProcessBlocked`` instead of starting the
claude or codex binary, unless the test carries
``@pytest.mark.agentkit(real_processes=True)`` or requests the
``allow_real_processes`` fixture.

The plugin never takes the run down: whatever a double's own ``violations()``
raises is reported as that double's ``verification_crashed``; a report lists
at most :data:`~agentkit.core.verification.REPORT_LIMIT` violations, each cut
to a readable length. A failure the kit raises on purpose is reported without
the kit's frames.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

import pytest

from agentkit.core.verification import process_guard
from agentkit.core.verification._ownership import running
from agentkit.core.verification.pytest_plugin._owners import CollectOwner
from agentkit.core.verification.pytest_plugin._plugin import OPT_IN, VerificationPlugin
from agentkit.core.verification.pytest_plugin._reports import format_violations

__all__ = ["OPT_IN", "allow_real_processes", "format_violations"]

_PLUGIN = pytest.StashKey[VerificationPlugin]()
_NAME = "agentkit-verification"


def _plugin(config: pytest.Config) -> VerificationPlugin:
    plugin = config.stash.get(_PLUGIN, None)
    if plugin is None:
        plugin = config.stash[_PLUGIN] = VerificationPlugin(config)
        config.pluginmanager.register(plugin, _NAME)
    return plugin


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config) -> Generator[None, None, None]:
    # As early as a plugin can: a double at the top of a conftest.py has an owner too.
    plugin = _plugin(early_config)
    owner = CollectOwner("the conftest.py files loaded before collection", plugin.session)
    with running(owner):
        result = yield
    owner.ended = True
    plugin.adopt_collected(owner)
    return result


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "agentkit(verify=True, real_processes=False): per-test switches of the agentkit plugin -- "
        "verify=False skips the teardown check of the doubles this test uses; "
        "real_processes=True lets the real default_spawn start processes in this test.",
    )
    _plugin(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    plugin = config.stash.get(_PLUGIN, None)
    if plugin is not None:
        del config.stash[_PLUGIN]
        plugin.close()
        if config.pluginmanager.is_registered(plugin):
            config.pluginmanager.unregister(plugin)


@pytest.fixture
def allow_real_processes() -> Iterator[None]:
    """Let the real ``default_spawn`` start processes in this test (the plugin blocks them)."""
    with process_guard.allow_real_processes():
        yield
