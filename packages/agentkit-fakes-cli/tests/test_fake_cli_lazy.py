"""What importing the CLI doubles costs: the process model and the recording format load on use.

A test that only builds doubles and runs (or a star import of
agentkit.core.testing, which binds the names below) must not pay for the
fake child, its stream doubles or the recording parser; the first spawn and
the first replay load them.
"""

from __future__ import annotations

from pathlib import Path

from agentkit.fakes.cli import CliRun
from tests.support.fresh_python import fresh_python

DEFERRED = (
    "agentkit.fakes.cli._process",
    "agentkit.fakes.cli._streams",
    "agentkit.fakes.cli._recording._format",
    "agentkit.fakes.cli._recording._parse",
)

BIND = (
    "import sys\n"
    "from agentkit.fakes.cli import (CliInvocation, CliRun, CliStderr, DEFAULT_THREAD_ID,"
    " FakeClaudeCli, FakeCodexCli, RecordingError, ScriptExhausted, codex_turn)\n"
    f"deferred = {DEFERRED!r}\n"
    "loaded = lambda: [m for m in deferred if m in sys.modules]\n"
)


def _run(code: str) -> str:
    return fresh_python(BIND + code)


def test_binding_the_names_and_building_doubles_loads_neither_process_nor_format() -> None:
    out = _run(
        "run = CliRun.of(codex_turn(text='hi'))\n"
        "FakeClaudeCli([run]); FakeCodexCli.answering('a'); FakeClaudeCli.script([{}])\n"
        "CliInvocation(argv=('x',)); CliStderr(b'e')\n"
        "print(loaded())"
    )
    assert out == "[]"


def test_the_first_spawn_loads_the_process_model() -> None:
    out = _run(
        "import asyncio\n"
        "asyncio.run(FakeCodexCli([CliRun()], verify=False)('codex'))\n"
        "print(loaded())"
    )
    assert out == str(list(DEFERRED[:2]))


def test_a_replay_loads_the_recording_format(tmp_path: Path) -> None:
    path = tmp_path / "stdout.jsonl"
    path.write_bytes(CliRun.of([{"type": "result"}]).stdout)
    out = _run(f"FakeClaudeCli.replay({str(path)!r}, verify=False)\nprint(loaded())")
    assert out == str(list(DEFERRED[2:]))
