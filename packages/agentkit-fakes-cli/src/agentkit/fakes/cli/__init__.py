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
``agentkit.core.verification.script.ScriptExhausted``.

:class:`CapturingSpawn` wraps the REAL spawn a cognition is given and records
each spawn as a :class:`Recording` (secrets scrubbed); :func:`save_recording`
and :func:`load_recording` write and read the file format (writing refuses,
with :class:`RecordingSecretError`, a file in which :func:`find_secrets`
still finds something shaped like a secret), and
``FakeClaudeCli.replay`` / ``FakeCodexCli.replay`` replay it whole.
"""

from typing import TYPE_CHECKING

from agentkit.core.verification.script import ScriptExhausted as ScriptExhausted
from agentkit.fakes.cli._claude import FakeClaudeCli as FakeClaudeCli
from agentkit.fakes.cli._codex import DEFAULT_THREAD_ID as DEFAULT_THREAD_ID
from agentkit.fakes.cli._codex import FakeCodexCli as FakeCodexCli
from agentkit.fakes.cli._codex import codex_turn as codex_turn
from agentkit.fakes.cli._run import CliInvocation as CliInvocation
from agentkit.fakes.cli._run import CliRun as CliRun
from agentkit.fakes.cli._run import CliStderr as CliStderr

if TYPE_CHECKING:
    from agentkit.fakes.cli._input_check import ReplayMismatch as ReplayMismatch
    from agentkit.fakes.cli._library import recording_names as recording_names
    from agentkit.fakes.cli._library import recording_path as recording_path
    from agentkit.fakes.cli._recording._capture import CapturingSpawn as CapturingSpawn
    from agentkit.fakes.cli._recording._errors import RecordingError as RecordingError
    from agentkit.fakes.cli._recording._files import load_recording as load_recording
    from agentkit.fakes.cli._recording._files import save_recording as save_recording
    from agentkit.fakes.cli._recording._format import Recording as Recording
    from agentkit.fakes.cli._recording._gate import RecordingSecretError as RecordingSecretError
    from agentkit.fakes.cli._recording._gate import SecretFinding as SecretFinding
    from agentkit.fakes.cli._recording._gate import find_secrets as find_secrets
    from agentkit.fakes.cli._version import __version__ as __version__
else:
    # Paid only by code that asks: __version__ reads the installed metadata, and
    # capture/recordings pull in json, re and datetime, which a replaying test
    # built from CliRun never needs.
    from agentkit.core._internal.lazy import lazy_exports

    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "ReplayMismatch": "agentkit.fakes.cli._input_check",
            "recording_names": "agentkit.fakes.cli._library",
            "recording_path": "agentkit.fakes.cli._library",
            "CapturingSpawn": "agentkit.fakes.cli._recording._capture",
            "RecordingError": "agentkit.fakes.cli._recording._errors",
            "load_recording": "agentkit.fakes.cli._recording._files",
            "save_recording": "agentkit.fakes.cli._recording._files",
            "Recording": "agentkit.fakes.cli._recording._format",
            "RecordingSecretError": "agentkit.fakes.cli._recording._gate",
            "SecretFinding": "agentkit.fakes.cli._recording._gate",
            "find_secrets": "agentkit.fakes.cli._recording._gate",
            "__version__": "agentkit.fakes.cli._version",
        },
        globals(),
    )

__all__ = [
    "ScriptExhausted",
    "FakeClaudeCli",
    "DEFAULT_THREAD_ID",
    "FakeCodexCli",
    "codex_turn",
    "CliInvocation",
    "CliRun",
    "CliStderr",
    "ReplayMismatch",
    "recording_names",
    "recording_path",
    "CapturingSpawn",
    "RecordingError",
    "load_recording",
    "save_recording",
    "Recording",
    "RecordingSecretError",
    "SecretFinding",
    "find_secrets",
]
