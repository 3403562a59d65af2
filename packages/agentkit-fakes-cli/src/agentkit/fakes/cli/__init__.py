"""Subprocess doubles for agentkit's CLI cognitions.

:class:`FakeClaudeCli` and :class:`FakeCodexCli` are not port doubles: the
claude and codex CLIs are not behind a port. Each stands in for the
subprocess itself -- it is called like ``asyncio.create_subprocess_exec``
(:class:`agentkit.core.ports.SpawnPort`) and returns a fake process whose
pipes replay recorded or scripted bytes -- so a test still runs the
cognition's real parsing, event mapping and meter charging.

:class:`CliRun` is one spawn's output (stdout, stderr, exit code, and
:class:`CliStderr` chunks placed in the stdout stream); :class:`CliInvocation`
records what each spawn was asked and what happened to it; :func:`codex_turn`
builds one well-formed codex turn. Running out of runs raises
:class:`ScriptExhausted` -- the same class as
``agentkit.core.script.ScriptExhausted``.
"""

from typing import TYPE_CHECKING

from agentkit.core.lazy import lazy_exports
from agentkit.core.script import ScriptExhausted
from agentkit.fakes.cli._claude import FakeClaudeCli
from agentkit.fakes.cli._codex import DEFAULT_THREAD_ID, FakeCodexCli, codex_turn
from agentkit.fakes.cli._run import CliInvocation, CliRun, CliStderr

if TYPE_CHECKING:
    from agentkit.fakes.cli._version import __version__ as __version__
else:
    # __version__ reads the installed metadata: paid only by code that asks for it.
    __getattr__, __dir__ = lazy_exports(
        __name__, {"__version__": "agentkit.fakes.cli._version"}, globals()
    )

__all__ = [
    "DEFAULT_THREAD_ID",
    "CliInvocation",
    "CliRun",
    "CliStderr",
    "FakeClaudeCli",
    "FakeCodexCli",
    "ScriptExhausted",
    "codex_turn",
]
