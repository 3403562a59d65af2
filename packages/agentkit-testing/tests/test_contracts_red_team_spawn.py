"""SpawnPort: implementations written the way users write them, run through both forms.

The red team of these ports (the others' are beside this module,
``test_contracts_red_team_*.py``): each wrong one is a mistake seen in real code, each correct
one is built on a different library or design than the kit's own. Every wrong one must fail the
check named, with that check's rule and what it did, through the suite function AND the pytest
base class; every correct one must pass both, skipping nothing it was not told to skip.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
from collections.abc import Callable
from typing import Any

import pytest

from tests.support.contract_runs import (
    GROUPS,
    Right,
    Wrong,
    assert_fails_in_both_forms,
    assert_passes_both_forms,
    assert_wrong_ones_cover,
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


# ---------------------------------------------------------------- the runs


@pytest.mark.agentkit(verify=False, real_processes=True)  # wrong on purpose; real children
@pytest.mark.parametrize("wrong", WRONG, ids=[w.id for w in WRONG])
async def test_a_wrong_implementation_fails_its_check_in_both_forms(wrong: Wrong) -> None:
    await assert_fails_in_both_forms(wrong)


@pytest.mark.agentkit(real_processes=True)
@pytest.mark.parametrize("right", RIGHT, ids=[r.id for r in RIGHT])
async def test_a_correct_implementation_passes_both_forms(right: Right) -> None:
    await assert_passes_both_forms(right)


def test_every_port_has_a_correct_one_and_at_least_two_mistakes() -> None:
    assert_wrong_ones_cover("spawn", WRONG, every_check=False)
    assert {r.port for r in RIGHT} == set(GROUPS["spawn"])
    assert len({w.make for w in WRONG}) == len(WRONG)  # each a mistake of its own
