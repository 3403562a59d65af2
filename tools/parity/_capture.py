"""A minimal spawn wrapper that records each real spawn as a ``Recording``.

Used only when ``agentkit.fakes.cli`` does not (yet) export its own capture
wrapper: the suite prefers the product's wrapper, because the parity suite
is also its test. This one copies what the cognition reads from stdout and
stderr and what it writes to stdin, placing each stderr chunk and stdin
write at the number of stdout bytes read by then, and the exit code.
It scrubs nothing: the suite's environment holds no secret to scrub.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from agentkit.core.ports import ProcessPort, SpawnPort, StreamReaderPort, StreamWriterPort
from agentkit.fakes.cli._recording import Recording
from agentkit.fakes.cli._run import CliRun

__all__ = ["ParityCapture"]


class _Tape:
    def __init__(self) -> None:
        self.stdout = bytearray()
        self.stderr: list[tuple[int, bytes]] = []
        self.stdin: list[tuple[int, bytes]] = []


class _Reader:
    def __init__(self, inner: StreamReaderPort, tape: _Tape, *, is_stdout: bool) -> None:
        self._inner = inner
        self._tape = tape
        self._is_stdout = is_stdout

    def _keep(self, data: bytes) -> bytes:
        if data:
            if self._is_stdout:
                self._tape.stdout += data
            else:
                self._tape.stderr.append((len(self._tape.stdout), bytes(data)))
        return data

    async def readline(self) -> bytes:
        return self._keep(await self._inner.readline())

    async def read(self, n: int = -1) -> bytes:
        return self._keep(await self._inner.read(n))

    def at_eof(self) -> bool:
        return self._inner.at_eof()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _Writer:
    def __init__(self, inner: StreamWriterPort, tape: _Tape) -> None:
        self._inner = inner
        self._tape = tape

    def write(self, data: bytes) -> None:
        self._tape.stdin.append((len(self._tape.stdout), bytes(data)))
        self._inner.write(data)

    async def drain(self) -> None:
        await self._inner.drain()

    def close(self) -> None:
        self._inner.close()

    def is_closing(self) -> bool:
        return self._inner.is_closing()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _Process:
    def __init__(self, inner: ProcessPort, tape: _Tape) -> None:
        self._inner = inner
        self.tape = tape
        self.stdout = _Reader(inner.stdout, tape, is_stdout=True) if inner.stdout else None
        self.stderr = _Reader(inner.stderr, tape, is_stdout=False) if inner.stderr else None
        self.stdin = _Writer(inner.stdin, tape) if inner.stdin else None

    @property
    def returncode(self) -> int | None:
        return self._inner.returncode

    @property
    def pid(self) -> int:
        return self._inner.pid

    async def wait(self) -> int:
        return await self._inner.wait()

    def terminate(self) -> None:
        self._inner.terminate()

    def kill(self) -> None:
        self._inner.kill()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class ParityCapture:
    """Wraps a spawn; :attr:`recordings` holds one ``Recording`` per finished spawn."""

    def __init__(self, spawn: SpawnPort, *, cli: str, source: str, cli_version: str) -> None:
        self._spawn = spawn
        self._cli = cli
        self._source = source
        self._version = cli_version
        self._spawned: list[tuple[tuple[str, ...], str | None, tuple[str, ...], _Process]] = []

    async def __call__(
        self,
        program: str,
        *args: str,
        stdin: int | None = None,
        stdout: int | None = None,
        stderr: int | None = None,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        limit: int = 2**16,
        start_new_session: bool = False,
    ) -> ProcessPort:
        inner = await self._spawn(
            program,
            *args,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            cwd=cwd,
            env=env,
            limit=limit,
            start_new_session=start_new_session,
        )
        process = _Process(inner, _Tape())
        self._spawned.append(((program, *args), cwd, tuple(env or ()), process))
        return process

    @property
    def recordings(self) -> list[Recording]:
        out: list[Recording] = []
        for argv, cwd, env_names, process in self._spawned:
            tape = process.tape
            out.append(
                Recording(
                    cli=self._cli,
                    argv=argv,
                    run=CliRun(
                        stdout=bytes(tape.stdout),
                        returncode=process.returncode if process.returncode is not None else -1,
                        interleaved_stderr=tuple(tape.stderr),
                    ),
                    cli_version=self._version,
                    cwd=cwd,
                    env_names=env_names,
                    stdin=tuple(tape.stdin),
                    created_at=datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                    source=self._source,
                )
            )
        return out
