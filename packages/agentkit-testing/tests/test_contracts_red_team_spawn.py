"""SpawnPort, the red team: mistakes seen in real code, and correct ones built otherwise.

The rows and what they must come to: ``tests.support.contract_runs``.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
from collections.abc import Callable
from typing import Any

from tests.support.contract_runs import (
    RedTeamTable,
    Right,
    Wrong,
)

# ------------------------------------------------------------------ spawn


async def exec_spawn(program: str, *args: str, **kw: Any) -> Any:
    """Correct: asyncio.create_subprocess_exec, signals after exit made harmless."""
    process = await asyncio.create_subprocess_exec(program, *args, **kw)
    return _Harmless(process)


class _Harmless:
    """asyncio's Process with terminate()/kill() after exit raising nothing."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self._process = process

    def __getattr__(self, name: str) -> Any:
        return getattr(self._process, name)

    def terminate(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self._process.terminate()

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self._process.kill()


async def merged_stderr_spawn(program: str, *args: str, **kw: Any) -> Any:
    """stderr=STDOUT 'so nothing is lost': the diagnostics land in the JSON stream."""
    kw["stderr"] = subprocess.STDOUT
    return await exec_spawn(program, *args, **kw)


async def terminate_is_kill_spawn(program: str, *args: str, **kw: Any) -> Any:
    """terminate() sends SIGKILL: the child never gets to clean up."""
    process = await exec_spawn(program, *args, **kw)
    process.terminate = process.kill
    return process


async def inherited_env_spawn(program: str, *args: str, **kw: Any) -> Any:
    """Drops the env it was given: the child inherits this process's environment."""
    kw.pop("env", None)
    return await exec_spawn(program, *args, **kw)


async def no_session_spawn(program: str, *args: str, **kw: Any) -> Any:
    """Forgets start_new_session, so a signal to the group reaches the caller too."""
    kw.pop("start_new_session", None)
    return await exec_spawn(program, *args, **kw)


# ------------------------------------------------------------------ table


def fn(spawn: Callable[..., Any]) -> Callable[[], Any]:
    """A factory of a function-form implementation, named after it."""

    def make() -> Any:
        return spawn

    make.__name__ = spawn.__name__
    return make


WRONG = [
    Wrong("spawn", "stderr_is_readable_after_stdout_eof", fn(merged_stderr_spawn), "None"),
    Wrong("spawn", "terminate_ends_a_running_process", fn(terminate_is_kill_spawn), "-9"),
    Wrong("spawn", "cwd_env_and_session_reach_the_child", fn(inherited_env_spawn), "lacked"),
    Wrong("spawn", "cwd_env_and_session_reach_the_child", fn(no_session_spawn), "session"),
]

RIGHT = [
    Right("spawn", fn(exec_spawn)),
]


class TestRedTeam(RedTeamTable):
    group = "spawn"
    wrong = WRONG
    right = RIGHT
