"""The SpawnPort contract, and the contract of the process a spawn returns.

A spawn is checked on one program run: what it writes to stdout and
stderr and the code it exits with. The suite's default argv is a Python
child that does exactly that, so a real spawn (one over
``asyncio.create_subprocess_exec``) is checked on a real process; a double
ignores the argv and is built to replay the same bytes. Each check spawns
once, from a fresh spawn.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from agentkit.core.ports import ProcessPort, SpawnPort
from agentkit.core.testing.contracts._base import ContractTests
from agentkit.core.testing.contracts._suite import Broken, Factory, Maker, Suite, describe

__all__ = ["SPAWN_SUITE", "SpawnPortContract", "check_spawn_port", "program_argv"]

SPAWN_SUITE = Suite("SpawnPort", ("()",))

DEFAULT_STDOUT = b'{"type":"line","n":1}\n{"type":"line","n":2}\nlast line without a newline'
DEFAULT_STDERR = b"a diagnostic on stderr\n"


def program_argv(stdout: bytes, stderr: bytes = b"", returncode: int = 0) -> tuple[str, ...]:
    """An argv of a Python child that writes ``stdout`` and ``stderr`` and exits ``returncode``."""
    code = (
        "import sys;"
        f"sys.stdout.buffer.write({stdout!r});sys.stdout.flush();"
        f"sys.stderr.buffer.write({stderr!r});sys.stderr.flush();"
        f"sys.exit({returncode})"
    )
    return (sys.executable, "-c", code)


def _expected(options: Mapping[str, Any]) -> tuple[bytes, bytes, int, Sequence[str]]:
    stdout = options.get("stdout")
    stdout = DEFAULT_STDOUT if stdout is None else stdout
    stderr = options.get("stderr")
    stderr = DEFAULT_STDERR if stderr is None else stderr
    code = options.get("returncode") or 0
    argv = options.get("argv") or program_argv(stdout, stderr, code)
    return stdout, stderr, code, argv


async def _spawn(make: Maker[SpawnPort], options: Mapping[str, Any]) -> ProcessPort:
    spawn = await make()
    *_, argv = _expected(options)
    process = await spawn(
        argv[0],
        *argv[1:],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    for name in ("stdout", "stderr", "wait", "terminate", "kill", "returncode", "pid"):
        if not hasattr(process, name):
            raise Broken(f"the spawn returned {describe(process)}, which has no {name}")
    return process


async def _reap(process: ProcessPort) -> None:
    """Drain and reap, so that a failed check leaves no child behind."""
    try:
        if process.returncode is None:
            process.kill()
        if process.stdout is not None:
            await process.stdout.read()
        await process.wait()
    except Exception:  # the check's own finding is what matters
        pass


@SPAWN_SUITE.check()
async def piped_streams_are_readers_and_an_unpiped_stdin_is_none(
    make: Maker[SpawnPort], options: Mapping[str, Any]
) -> None:
    """With stdout=PIPE and stderr=PIPE the process has readers for both; stdin that is not
    piped is None."""
    process = await _spawn(make, options)
    try:
        if process.stdin is not None:
            raise Broken(f"stdin=DEVNULL gave stdin {describe(process.stdin)}")
        for name in ("stdout", "stderr"):
            reader = getattr(process, name)
            if reader is None or not all(
                hasattr(reader, m) for m in ("read", "readline", "at_eof")
            ):
                raise Broken(f"{name}=PIPE gave {name} {describe(reader)}")
    finally:
        await _reap(process)


@SPAWN_SUITE.check()
async def stdout_gives_the_programs_bytes_then_eof(
    make: Maker[SpawnPort], options: Mapping[str, Any]
) -> None:
    """readline() gives the program's stdout line by line, then b"" at EOF, and at_eof() is True."""
    expected, *_ = _expected(options)
    process = await _spawn(make, options)
    try:
        assert process.stdout is not None
        lines: list[bytes] = []
        while line := await process.stdout.readline():
            lines.append(line)
        if b"".join(lines) != expected:
            raise Broken(f"stdout read {b''.join(lines)[:200]!r}, expected {expected[:200]!r}")
        if lines != expected.splitlines(keepends=True):
            raise Broken(f"readline() split stdout as {lines[:5]!r}")
        if not process.stdout.at_eof():
            raise Broken("at_eof() is False after readline() returned b''")
    finally:
        await _reap(process)


@SPAWN_SUITE.check()
async def stdout_eof_comes_before_the_exit_code(
    make: Maker[SpawnPort], options: Mapping[str, Any]
) -> None:
    """A process gives stdout EOF before its exit code: with stdout drained meanwhile, wait()
    returns only once stdout is at EOF, with the program's exit code, which returncode then
    reports."""
    expected, _, code, _ = _expected(options)
    process = await _spawn(make, options)
    at_exit: list[bool] = []
    try:
        assert process.stdout is not None
        stdout = process.stdout

        async def reap() -> int:
            result = await process.wait()
            at_exit.append(stdout.at_eof())
            return result

        result, data = await asyncio.gather(reap(), stdout.read())
        if at_exit != [True]:
            raise Broken(f"wait() returned {result!r} while stdout had not reached EOF")
        if data != expected:
            raise Broken(f"stdout read {data[:200]!r}")
        if result != code:
            raise Broken(f"wait() returned {result!r}, the program exited {code}")
        if process.returncode != code:
            raise Broken(f"returncode is {process.returncode!r} after wait() returned {result}")
    finally:
        await _reap(process)


@SPAWN_SUITE.check()
async def stderr_is_readable_after_stdout_eof(
    make: Maker[SpawnPort], options: Mapping[str, Any]
) -> None:
    """After stdout EOF, stderr reads the program's whole stderr (a cognition reads it once, last)."""
    _, expected, _, _ = _expected(options)
    process = await _spawn(make, options)
    try:
        assert process.stdout is not None
        assert process.stderr is not None
        await process.stdout.read()
        data = await process.stderr.read()
        await process.wait()
        if data != expected:
            raise Broken(f"stderr read {data[:200]!r}, expected {expected[:200]!r}")
    finally:
        await _reap(process)


@SPAWN_SUITE.check()
async def terminate_and_kill_after_exit_are_harmless(
    make: Maker[SpawnPort], options: Mapping[str, Any]
) -> None:
    """terminate() and kill() on a process that has exited raise nothing and change nothing:
    returncode and wait() still give the exit code."""
    _, _, code, _ = _expected(options)
    process = await _spawn(make, options)
    try:
        assert process.stdout is not None
        await process.stdout.read()
        first = await process.wait()
        for signal_it in (process.terminate, process.kill):
            try:
                signal_it()
            except Exception as exc:
                raise Broken(f"{signal_it.__name__}() after exit raised {describe(exc)}") from None
        again = await process.wait()
        if (first, again, process.returncode) != (code, code, code):
            raise Broken(
                f"exit code {first!r}, then wait() {again!r} and returncode "
                f"{process.returncode!r} after terminate()/kill()"
            )
    finally:
        await _reap(process)


async def check_spawn_port(
    factory: Factory,
    *,
    stdout: bytes = DEFAULT_STDOUT,
    stderr: bytes = DEFAULT_STDERR,
    returncode: int = 0,
    argv: Sequence[str] | None = None,
    skip: Sequence[str] = (),
) -> list[str]:
    """Run every SpawnPort check on spawns ``factory`` makes.

    Each check spawns ``argv`` once (by default :func:`program_argv` of the
    expected output) and expects ``stdout``, ``stderr`` and ``returncode``;
    a double should be built to replay exactly those.
    """
    options = {"stdout": stdout, "stderr": stderr, "returncode": returncode, "argv": argv}
    return await SPAWN_SUITE.run(factory, options, skip=skip)


class SpawnPortContract(ContractTests):
    """Subclass with a ``make_port`` fixture making a fresh spawn; ``contract_options`` may give
    ``stdout`` / ``stderr`` / ``returncode`` / ``argv``."""

    suite = SPAWN_SUITE
