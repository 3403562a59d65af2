"""The SpawnPort contract, and the contract of the process a spawn returns.

A spawn is checked on one program run: what it writes to stdout and
stderr and the code it exits with. The suite's default argv is a Python
child that does exactly that, so a real spawn (one over
``asyncio.create_subprocess_exec``) is checked on a real process; a double
ignores the argv and is built to replay the same bytes. Each check spawns
from a fresh spawn.

Two checks spawn programs of their own: a child that sleeps (to be
terminated or killed while it runs) and a probe that reports its working
directory, environment and session. A double replaying bytes answers them
with its recorded output: it has no child to signal or look at, and the
checks say so rather than fail it.

Why every check is built to give one answer every time: a check whose result
depends on when the event loop happens to see a child's exit is a check a
user learns to rerun. Where asyncio's own process object races (whether
``terminate()`` after ``wait()`` finds the transport closed), the check
first lets the loop settle, so the answer is the same on every run.

A spawn that raises after it started a child leaves a transport nobody
holds; the checks close every transport the loop made during the check, so
the finding is a failed check, not a warning escaping at interpreter exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agentkit.core.ports import ProcessPort, SpawnPort, StreamReaderPort
from agentkit.core.testing.contracts._base import ContractTests
from agentkit.core.testing.contracts._suite import Broken, Factory, Maker, Suite, describe_got

__all__ = ["SPAWN_SUITE", "SpawnPortContract", "check_spawn_port", "program_argv"]

SPAWN_SUITE = Suite(
    "SpawnPort", ("()",), SpawnPort, options=("stdout", "stderr", "returncode", "argv")
)

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


@dataclass(frozen=True, slots=True)
class _Program:
    """The run the suite's options describe: the argv to spawn and what it must give back."""

    stdout: bytes
    stderr: bytes
    returncode: int
    argv: Sequence[str]


def _program(options: Mapping[str, Any]) -> _Program:
    stdout = options.get("stdout")
    stdout = DEFAULT_STDOUT if stdout is None else stdout
    stderr = options.get("stderr")
    stderr = DEFAULT_STDERR if stderr is None else stderr
    code = options.get("returncode") or 0
    argv = options.get("argv") or program_argv(stdout, stderr, code)
    return _Program(stdout, stderr, code, argv)


SLEEPER = (sys.executable, "-c", "import time; time.sleep(60)")
"""A child that is still running when the check signals it."""

PROBE = (
    sys.executable,
    "-c",
    "import json, os, sys;"
    "sys.stdout.write(json.dumps({'cwd': os.getcwd(),"
    " 'env': os.environ.get('AGENTKIT_CONTRACT_ENV'),"
    " 'own_session': os.getsid(0) == os.getpid()}))",
)
"""A child that reports where it runs, what it sees and whether it leads its session."""


def _same_directory(one: str, other: str) -> bool:
    """Whether two paths name one directory (a temporary directory may sit behind a symlink)."""
    return os.path.realpath(one) == os.path.realpath(other)


REAP_TURNS = 500
"""How many 10 ms turns a killed, orphaned child is given to be reaped (5 s)."""


_MADE: contextvars.ContextVar[list[Any] | None] = contextvars.ContextVar(
    "agentkit_contract_transports", default=None
)
"""The subprocess transports the loop made during the running check (None: not tracked)."""


def _started_during_the_check(pid: int) -> bool:
    """Whether ``pid`` is a child the loop started during this check (True where untracked)."""
    made = _MADE.get()
    if made is None:  # a loop without asyncio's subprocess machinery: cannot tell
        return True
    return any(transport.get_pid() == pid for transport in made)


def _kill_behind_its_back(pid: int) -> None:
    """Kill a child the loop started during the check, through its transport."""
    for transport in _MADE.get() or ():
        if transport.get_pid() == pid and not transport.is_closing():
            with contextlib.suppress(ProcessLookupError):
                transport.kill()


@contextlib.asynccontextmanager
async def _transports_closed() -> AsyncIterator[None]:
    """Close, at the end, every subprocess transport the running loop made meanwhile.

    A spawn that raised after starting a child leaves its transport to the
    garbage collector, whose ResourceWarning would surface far from the
    check; closing it here kills that child and ends the story in the check.
    """
    loop: Any = asyncio.get_running_loop()
    make = getattr(loop, "_make_subprocess_transport", None)
    if make is None:  # a loop without asyncio's subprocess machinery: nothing to track
        yield
        return
    made: list[Any] = []
    token = _MADE.set(made)

    async def tracking(*args: Any, **kwargs: Any) -> Any:
        transport = await make(*args, **kwargs)
        made.append(transport)
        return transport

    loop._make_subprocess_transport = tracking
    try:
        yield
    finally:
        del loop._make_subprocess_transport  # the class's method again
        _MADE.reset(token)
        for transport in made:
            if not transport.is_closing():
                transport.close()  # kills a child still running
        for transport in made:
            # Until the loop has seen the child exit: a child reaped after the loop closed
            # leaves a Popen that warns, at interpreter exit, that it is "still running".
            for _ in range(REAP_TURNS):
                if transport.get_returncode() is not None:
                    break
                await asyncio.sleep(0.01)


SpawnCheck = Callable[[Maker[SpawnPort], Mapping[str, Any]], Awaitable[None]]
ProgramCheck = Callable[[ProcessPort, _Program], Awaitable[None]]


def _spawn_check(fn: SpawnCheck) -> SpawnCheck:
    """Register a spawn check, run with its transports closed at the end, whatever it did."""

    async def check(make: Maker[SpawnPort], options: Mapping[str, Any]) -> None:
        async with _transports_closed():
            await fn(make, options)

    check.__name__ = fn.__name__
    SPAWN_SUITE.check()(check)
    return fn


def _program_check(fn: ProgramCheck) -> ProgramCheck:
    """Register a check on one run of the suite's program: spawned for it, reaped after it."""

    async def check(make: Maker[SpawnPort], options: Mapping[str, Any]) -> None:
        program = _program(options)
        async with _spawned(make, program.argv) as process:
            await fn(process, program)

    check.__name__ = fn.__name__
    _spawn_check(check)
    return fn


@contextlib.asynccontextmanager
async def _spawned(
    make: Maker[SpawnPort], argv: Sequence[str], *, kill: bool = False, **extra: Any
) -> AsyncIterator[ProcessPort]:
    """A process of a fresh spawn of ``argv``, reaped (``kill``: killed first) at the end."""
    process = await _spawn(make, argv, **extra)
    try:
        yield process
    finally:
        await _reap(process, kill=kill)


async def _spawn(make: Maker[SpawnPort], argv: Sequence[str], **extra: Any) -> ProcessPort:
    spawn = await make()
    process = await spawn(
        argv[0],
        *argv[1:],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **extra,
    )
    for name in ("stdout", "stderr", "wait", "terminate", "kill", "returncode", "pid"):
        if not hasattr(process, name):
            raise Broken(f"the spawn returned {describe_got(process)}, which has no {name}")
    return process


def _reader(process: ProcessPort, name: str) -> StreamReaderPort:
    reader: StreamReaderPort | None = getattr(process, name)
    if reader is None:
        raise Broken(f"{name}=PIPE gave {name} None")
    return reader


async def _reap(process: ProcessPort, *, kill: bool = False) -> None:
    """Drain and reap, so that a check leaves no child behind.

    A child that is ending anyway is waited for, not killed: signalling a
    child that has just exited makes ``Popen.send_signal`` reap it behind
    asyncio's back, and asyncio then logs it as an unknown child. Only one
    still running after ``REAP_WAIT`` (or a sleeper, ``kill=True``) is killed.
    """
    with contextlib.suppress(Exception):  # the check's own finding is what matters
        if kill and process.returncode is None:
            process.kill()
        try:
            await asyncio.wait_for(_drained(process), REAP_WAIT)
        except TimeoutError:
            process.kill()
            await asyncio.wait_for(_drained(process), REAP_WAIT)


REAP_WAIT = 5.0
"""Seconds a check's child is given to end by itself before it is killed."""


async def _drained(process: ProcessPort) -> None:
    readers = [r for r in (process.stdout, process.stderr) if r is not None]
    await asyncio.gather(*(r.read() for r in readers), process.wait())


@_program_check
async def piped_streams_are_readers_and_an_unpiped_stdin_is_none(
    process: ProcessPort, program: _Program
) -> None:
    if process.stdin is not None:
        raise Broken(f"stdin=DEVNULL gave stdin {describe_got(process.stdin)}")
    for name in ("stdout", "stderr"):
        reader = getattr(process, name)
        if reader is None or not all(hasattr(reader, m) for m in ("read", "readline", "at_eof")):
            raise Broken(f"{name}=PIPE gave {name} {describe_got(reader)}")


@_program_check
async def stdout_gives_the_programs_bytes_then_eof(process: ProcessPort, program: _Program) -> None:
    expected = program.stdout
    stdout = _reader(process, "stdout")
    lines: list[bytes] = []
    while line := await stdout.readline():
        lines.append(line)
    if b"".join(lines) != expected:
        raise Broken(f"stdout read {b''.join(lines)[:200]!r}, expected {expected[:200]!r}")
    if lines != expected.splitlines(keepends=True):
        raise Broken(f"readline() split stdout as {lines[:5]!r}")
    if not stdout.at_eof():
        raise Broken("at_eof() is False after readline() returned b''")


async def _reaches_eof(stream: StreamReaderPort) -> bool:
    """Whether ``stream`` is at EOF once the loop has run what was already scheduled.

    A real process feeds EOF before ``wait()`` returns, but the reader still
    draining the last bytes may run its step after the waiter's on a loaded
    loop; :data:`SETTLE` turns let it, while a ``wait()`` that returns before
    the pipe has closed leaves no EOF to find.
    """
    for _ in range(SETTLE):
        if stream.at_eof():
            return True
        await asyncio.sleep(0)
    return stream.at_eof()


@_program_check
async def stdout_eof_comes_before_the_exit_code(process: ProcessPort, program: _Program) -> None:
    code = program.returncode
    at_exit: list[bool] = []
    stdout = _reader(process, "stdout")

    async def reap() -> int:
        result = await process.wait()
        at_exit.append(await _reaches_eof(stdout))
        return result

    result, data = await asyncio.gather(reap(), stdout.read())
    if at_exit != [True]:
        raise Broken(f"wait() returned {result!r} while stdout had not reached EOF")
    if data != program.stdout:
        raise Broken(f"stdout read {data[:200]!r}")
    if result != code:
        raise Broken(f"wait() returned {result!r}, the program exited {code}")
    if process.returncode != code:
        raise Broken(f"returncode is {process.returncode!r} after wait() returned {result}")


@_program_check
async def stderr_is_readable_after_stdout_eof(process: ProcessPort, program: _Program) -> None:
    expected = program.stderr
    stdout, stderr = _reader(process, "stdout"), _reader(process, "stderr")
    await stdout.read()
    data = await stderr.read()
    await process.wait()
    if data != expected:
        raise Broken(f"stderr read {data[:200]!r}, expected {expected[:200]!r}")


SETTLE = 3
"""Loop turns after wait() in which a real transport finishes closing (its callbacks run)."""


@_program_check
async def terminate_and_kill_after_exit_are_harmless(
    process: ProcessPort, program: _Program
) -> None:
    code = program.returncode
    stdout, stderr = _reader(process, "stdout"), _reader(process, "stderr")
    await stdout.read()
    await stderr.read()
    first = await process.wait()
    for _ in range(SETTLE):  # the same answer every run, however fast the exit was seen
        await asyncio.sleep(0)
    for signal_it in (process.terminate, process.kill):
        try:
            signal_it()
        except Exception as exc:
            raise Broken(f"{signal_it.__name__}() after exit raised {describe_got(exc)}") from None
    again = await process.wait()
    if (first, again, process.returncode) != (code, code, code):
        raise Broken(
            f"exit code {first!r}, then wait() {again!r} and returncode "
            f"{process.returncode!r} after terminate()/kill()"
        )


STATUS_LOST = 255
"""What asyncio reports for a child reaped behind its back: a signal sent just after the
child exited makes ``Popen.send_signal`` collect the exit status before asyncio does."""

SIGNAL_WAIT = 5.0
"""Seconds a signalled sleeper is given to end; one still running then ignored the signal."""


async def _signal_running(
    make: Maker[SpawnPort], options: Mapping[str, Any], how: str, code: int
) -> None:
    """Signal the check's sleeper and require it to end by that signal.

    The sleeper cannot end by itself within the check, so a signal that does
    nothing is caught by the bound on wait(). An implementation that ignores
    argv and runs its own program instead (a double replaying a recording, a
    spawn that substitutes its child) may see that program end before the
    signal reaches it; that is excused only where it cannot be told apart
    from a correct implementation: its whole recorded output and exit code
    came back, and either it is a real child the loop started during the
    check (which may have exited before the signal, unseen by the loop yet)
    or it replays no stdout at all (a double that has exited at spawn).
    """
    async with _spawned(make, SLEEPER, kill=True) as process:
        stdout = _reader(process, "stdout")
        pid = process.pid
        try:
            getattr(process, how)()
        except Exception as exc:
            raise Broken(f"{how}() of a running process raised {describe_got(exc)}") from None
        try:
            result, data = await asyncio.wait_for(
                asyncio.gather(process.wait(), stdout.read()), SIGNAL_WAIT
            )
        except TimeoutError:
            _kill_behind_its_back(pid)  # the check's own cleanup, as the signal did nothing
            raise Broken(
                f"{how}() of a running process, and it was still running {SIGNAL_WAIT:g} s "
                "later (the signal did nothing)"
            ) from None
        if result == code == process.returncode:
            return
        program = _program(options)
        if data == program.stdout and result == process.returncode:
            if not program.stdout and result == program.returncode:
                return  # a double replaying no stdout had exited at spawn
            if result in (program.returncode, STATUS_LOST) and _started_during_the_check(pid):
                return  # its own program ended before the signal reached it: nothing to check
        raise Broken(
            f"{how}() of a running process, then wait() returned {result!r} and "
            f"returncode is {process.returncode!r}; expected {code}"
        )


@_spawn_check
async def terminate_ends_a_running_process(
    make: Maker[SpawnPort], options: Mapping[str, Any]
) -> None:
    await _signal_running(make, options, "terminate", -15)


@_spawn_check
async def kill_ends_a_running_process(make: Maker[SpawnPort], options: Mapping[str, Any]) -> None:
    await _signal_running(make, options, "kill", -9)


@_spawn_check
async def the_line_limit_reaches_the_streams(
    make: Maker[SpawnPort], options: Mapping[str, Any]
) -> None:
    program = _program(options)
    longest = max((len(line) for line in program.stdout.splitlines()), default=0)
    if longest < 2:
        return  # no line a limit of at least 1 byte could be too short for
    limit = longest - 1
    async with _spawned(make, program.argv, limit=limit) as process:
        stdout = _reader(process, "stdout")
        lines: list[bytes] = []
        try:
            while line := await stdout.readline():
                lines.append(line)
        except ValueError:
            return
        raise Broken(
            f"with limit={limit} readline() read a {longest}-byte line without ValueError "
            f"(lines: {[len(x) for x in lines][:8]})"
        )


@_spawn_check
async def cwd_env_and_session_reach_the_child(
    make: Maker[SpawnPort], options: Mapping[str, Any]
) -> None:
    env = {"AGENTKIT_CONTRACT_ENV": "reached", "PATH": os.environ.get("PATH", os.defpath)}
    with tempfile.TemporaryDirectory(prefix="agentkit-contract-") as cwd:
        async with _spawned(make, PROBE, cwd=cwd, env=env, start_new_session=True) as process:
            data, _ = await asyncio.gather(_reader(process, "stdout").read(), process.wait())
        if data == _program(options).stdout:
            return  # a double replaying its bytes: there is no child to look at
        try:
            seen = json.loads(data)
        except ValueError:
            raise Broken(f"the probe child wrote {data[:200]!r}, not its report") from None
        wrong = []
        if not _same_directory(str(seen.get("cwd")), cwd):
            wrong.append(f"it ran in {seen.get('cwd')!r}, not cwd={cwd!r}")
        if seen.get("env") != "reached":
            wrong.append(
                f"its environment lacked env's AGENTKIT_CONTRACT_ENV={env['AGENTKIT_CONTRACT_ENV']!r}"
            )
        if seen.get("own_session") is not True:
            wrong.append("it does not lead a session of its own under start_new_session=True")
        if wrong:
            raise Broken("; ".join(wrong))


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

    _suite = SPAWN_SUITE
