"""SpawnPort: each check fails, in both forms, on a realistic wrong implementation.

The rows and what they must come to: ``tests.support.contract_runs``.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from collections.abc import Callable
from typing import Any

import pytest

from agentkit.core.testing import contracts
from agentkit.core.testing.contracts import ContractViolation
from agentkit.core.testing.contracts._spawn import SPAWN_SUITE
from agentkit.fakes.cli import CliRun, FakeCodexCli
from tests.support.contract_runs import (
    WrongTable,
    cases,
)

OUT = b"one\ntwo\n"

# ------------------------------------------------------------------- spawn


def codex(stdout: bytes = OUT, stderr: bytes = b"", code: int = 0) -> Callable[[], FakeCodexCli]:
    return lambda: FakeCodexCli([CliRun(stdout=stdout, stderr=stderr, returncode=code)])


class RaisingKillCli(FakeCodexCli):
    async def __call__(self, *args: Any, **kw: Any) -> Any:
        process = await super().__call__(*args, **kw)

        def kill() -> None:
            raise ProcessLookupError("no such process")

        process.kill = kill  # type: ignore[method-assign]
        return process


class DeafCli(FakeCodexCli):
    """terminate() and kill() do nothing: the 'process' runs to its recorded end."""

    async def __call__(self, *args: Any, **kw: Any) -> Any:
        process = await super().__call__(*args, **kw)
        process.terminate = process.kill = lambda: None  # type: ignore[method-assign]
        return process


class PipedStdinCli(FakeCodexCli):
    async def __call__(self, program: str, *args: str, **kw: Any) -> Any:
        kw["stdin"] = subprocess.PIPE
        process = await super().__call__(program, *args, **kw)
        if process.stdin is not None:
            process.stdin.close()
        return process


class EarlyExitCli(FakeCodexCli):
    """wait() returns the code before stdout has reached EOF."""

    async def __call__(self, *args: Any, **kw: Any) -> Any:
        process = await super().__call__(*args, **kw)

        async def wait() -> int:
            return 0

        process.wait = wait  # type: ignore[method-assign]
        return process


async def raw_asyncio_spawn(program: str, *args: str, **kw: Any) -> Any:
    """asyncio.create_subprocess_exec itself, used as a spawn."""
    return await asyncio.create_subprocess_exec(program, *args, **kw)


async def deaf_asyncio_spawn(program: str, *args: str, **kw: Any) -> Any:
    """A real spawn whose process's kill() forgets to signal (a wrapper that drops the call)."""
    process = await asyncio.create_subprocess_exec(program, *args, **kw)
    process.kill = lambda: None  # type: ignore[method-assign]
    return process


async def forwards_only_the_pipes_spawn(
    program: str,
    *args: str,
    stdin: int | None = None,
    stdout: int | None = None,
    stderr: int | None = None,
    **ignored: Any,
) -> Any:
    """A wrapper that forwards the pipes and drops cwd, env, limit and start_new_session."""
    return await asyncio.create_subprocess_exec(
        program, *args, stdin=stdin, stdout=stdout, stderr=stderr
    )


# ------------------------------------------------------------------- table


SPAWN_OUT = {"stdout": OUT, "stderr": b"", "returncode": 0}


CASES = [
    *cases(
        "spawn",
        (
            "piped_streams_are_readers_and_an_unpiped_stdin_is_none",
            lambda: PipedStdinCli([CliRun(stdout=OUT)]),
            "stdin=DEVNULL gave stdin",
        ),
        ("stdout_gives_the_programs_bytes_then_eof", codex(b"other\n"), "other"),
        (
            "stdout_eof_comes_before_the_exit_code",
            lambda: EarlyExitCli([CliRun(stdout=OUT)]),
            "while stdout had not reached EOF",
        ),
        ("stderr_is_readable_after_stdout_eof", codex(stderr=b"oops\n"), "oops"),
        (
            "terminate_and_kill_after_exit_are_harmless",
            lambda: RaisingKillCli([CliRun(stdout=OUT)]),
            "ProcessLookupError",
        ),
        (
            "terminate_and_kill_after_exit_are_harmless",
            lambda: raw_asyncio_spawn,
            "ProcessLookupError",
            {},
        ),
        ("terminate_ends_a_running_process", lambda: DeafCli([CliRun(stdout=OUT)]), "expected -15"),
        ("kill_ends_a_running_process", lambda: DeafCli([CliRun(stdout=OUT)]), "expected -9"),
        ("kill_ends_a_running_process", lambda: deaf_asyncio_spawn, "still running 5 s later", {}),
        (
            "the_line_limit_reaches_the_streams",
            lambda: forwards_only_the_pipes_spawn,
            "without ValueError",
            {},
        ),
        (
            "cwd_env_and_session_reach_the_child",
            lambda: forwards_only_the_pipes_spawn,
            "not cwd=",
            {},
        ),
        options=SPAWN_OUT,
    ),
]


class TestTable(WrongTable):
    group = "spawn"
    wrong = CASES


# ------------------------------------------- a child that ended before the signal


@pytest.mark.agentkit(real_processes=True)
async def test_asyncios_own_process_gets_the_same_answer_every_run() -> None:
    # Its terminate() after wait() races the transport's closing; the check lets the loop
    # settle first, so the answer does not depend on when the exit was seen.
    answers = set()
    for _ in range(10):
        with pytest.raises(ContractViolation) as caught:
            await contracts.check_spawn_port(lambda: raw_asyncio_spawn)
        answers.add(tuple(f.check for f in caught.value.failures))
    assert answers == {("terminate_and_kill_after_exit_are_harmless",)}


def _block_until_exited(pid: int) -> None:
    """Block the loop's thread until the child has exited (up to 10 s)."""
    for _ in range(1000):
        try:
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT):
                return
        except ChildProcessError:  # already reaped by asyncio's watcher thread
            return
        time.sleep(0.01)


def substituting_spawn_exited_before_the_signal() -> Callable[..., Any]:
    """A correct spawn that runs its own program in place of argv (as a recording replay does).

    It hands the process back only once the child has exited, before the
    loop has seen that: the race a busy machine makes now and then, made
    every time. A signal then finds nothing to end, which is no fault of the
    spawn's.
    """

    async def spawn(program: str, *args: str, **kw: Any) -> Any:
        process = await asyncio.create_subprocess_exec(*contracts.program_argv(OUT), **kw)
        _block_until_exited(process.pid)  # no await: the loop must not see the exit first
        assert process.returncode is None  # the loop has not seen the exit yet
        return process

    return spawn


@pytest.mark.agentkit(real_processes=True)
async def test_a_child_that_ended_before_the_signal_fails_no_check() -> None:
    only = ["terminate_ends_a_running_process", "kill_ends_a_running_process"]
    for _ in range(3):
        assert (
            await SPAWN_SUITE.run(substituting_spawn_exited_before_the_signal, SPAWN_OUT, only=only)
            == []
        )


@pytest.mark.agentkit(verify=False)
async def test_a_double_that_ignores_the_signal_is_not_excused_as_having_ended() -> None:
    # Its whole recording comes back after kill(), as from a child that ended first; but it
    # is no child the loop started, so the excuse a real child gets does not cover it.
    with pytest.raises(ContractViolation) as caught:
        await SPAWN_SUITE.run(
            lambda: DeafCli([CliRun(stdout=OUT)]), SPAWN_OUT, only=["kill_ends_a_running_process"]
        )
    assert "expected -9" in caught.value.got
