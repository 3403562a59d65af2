"""The real default_spawn: refused under the pytest plugin without the opt-in, and on wrong input."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agentkit.agents.cognition import default_spawn
from agentkit.agents.cognition._runner import CliProcess
from agentkit.core._internal.arguments import ArgumentError, ArgumentTypeError, ArgumentValueError
from agentkit.core.verification.process_guard import RealProcessBlocked
from agentkit.fakes.cli import FakeClaudeCli


def _touch(path: Path) -> tuple[str, ...]:
    """An argv whose child leaves ``path`` behind, so a test can tell it ran."""
    return (sys.executable, "-c", f"open({str(path)!r}, 'w').close()")


async def _run(argv: tuple[str, ...]) -> int:
    proc = await default_spawn(
        argv[0], *argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return await asyncio.wait_for(proc.wait(), 30)


async def test_without_the_opt_in_the_plugin_refuses_and_names_the_opt_in(
    tmp_path: Path,
) -> None:
    marker = tmp_path / "ran"
    with pytest.raises(RealProcessBlocked) as caught:
        await _run(_touch(marker))
    message = str(caught.value)
    assert "@pytest.mark.agentkit(real_processes=True)" in message
    assert "allow_real_processes" in message
    assert sys.executable in message  # which process was refused
    assert not marker.exists()


async def test_the_fixture_lets_a_real_process_start(
    tmp_path: Path, allow_real_processes: None
) -> None:
    marker = tmp_path / "ran"
    assert await _run(_touch(marker)) == 0
    assert marker.exists()


@pytest.mark.agentkit(real_processes=True)
async def test_the_marker_lets_a_real_process_start(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    assert await _run(_touch(marker)) == 0
    assert marker.exists()


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "argument"),
    [
        ((None,), {}, ArgumentTypeError, "program"),
        (("",), {}, ArgumentValueError, "program"),
        (("python", 3), {}, ArgumentTypeError, "args[0]"),
        (("python",), {"limit": 1.5}, ArgumentTypeError, "limit"),
        (("python",), {"limit": 0}, ArgumentValueError, "limit"),
        (("python",), {"limit": True}, ArgumentTypeError, "limit"),
        (("python",), {"env": ["A=1"]}, ArgumentTypeError, "env"),
        (("python",), {"env": {"A": 1}}, ArgumentTypeError, "env['A']"),
        (("python",), {"cwd": 3}, ArgumentTypeError, "cwd"),
    ],
)
async def test_wrong_input_is_refused_before_anything_starts(
    args: tuple[Any, ...], kwargs: dict[str, Any], error: type[ArgumentError], argument: str
) -> None:
    # Refused before the guard is asked: the error is the argument's, not RealProcessBlocked.
    with pytest.raises(error) as caught:
        await default_spawn(*args, **kwargs)
    assert (caught.value.where, caught.value.argument) == ("default_spawn", argument)
    assert argument in str(caught.value)


@pytest.mark.parametrize(
    ("kwargs", "error", "argument"),
    [
        ({"kill_grace": float("nan")}, ArgumentValueError, "kill_grace"),
        ({"kill_grace": -1}, ArgumentValueError, "kill_grace"),
        ({"eof_grace": float("inf")}, ArgumentValueError, "eof_grace"),
        ({"eof_grace": "1"}, ArgumentTypeError, "eof_grace"),
        ({"stderr_keep": 1.5}, ArgumentTypeError, "stderr_keep"),
        ({"stderr_keep": -1}, ArgumentValueError, "stderr_keep"),
    ],
)
async def test_the_runner_refuses_wrong_options(
    kwargs: dict[str, Any], error: type[ArgumentError], argument: str
) -> None:
    # kill_grace=nan would otherwise be a wait that never returns while the child lives on.
    # Refused before the spawn: a child started first would be left running.
    cli = FakeClaudeCli([])
    with pytest.raises(error) as caught:
        await CliProcess.start(cli, ("claude",), **kwargs)
    assert (caught.value.where, caught.value.argument) == ("CliProcess", argument)
    assert cli.invocations == []
