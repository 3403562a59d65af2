"""Test support shared by the CLI cognition tests (not a test module: nothing here is collected).

* :class:`ForwardingProcess` -- a ProcessPort over another, the one place a
  test's process wrapper (a child that lingers, ignores a signal, is watched)
  forwards what it does not change;
* :class:`ForwardingSpawn` -- a SpawnPort that records each spawn (every
  keyword, the port's defaults filled in) and hands it on: the base of a
  wrapping test spawn;
* :class:`ChildSpawn` -- the REAL seam, ``default_spawn``, starting
  ``replay_child.py`` (beside this module) in place of the CLI: the "real"
  side of the spawn contract tests (test_contract_spawn_*.py);
* the kit's own CLI recordings (``recorded/``, in the format users record
  in, read with :func:`~agentkit.fakes.cli.load_recording`) and the
  child's arguments that replay one;
* the comparisons those contract tests make -- the whole result field by
  field, the spawns each side was asked for, what was charged;
* :class:`SideBySide` -- one CLI's cognition over the real child and over
  its double: the drives and checks both contract modules make, each CLI
  supplying only its cognition, its double and its bytes;
* the helpers for stopping a child that hangs;
* codex's recordings and a cognition set up as they were made;
* a claude ``result`` line to build streams from.

Imported as ``tests.support.cli`` (the repository root is on ``sys.path``);
the root conftest.py registers it for assertion rewriting, so its asserts --
the contract tests' comparisons -- report like a test's.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import inspect
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar, Unpack

import pytest

from agentkit.agents.cognition import (
    ClaudeCliCognition,
    CliResult,
    CodexCliCognition,
    default_spawn,
)
from agentkit.agents.cognition._runner import DEFAULT_STDERR_KEEP, CliProcess
from agentkit.agents.cognition._spawn import SpawnedProcess
from agentkit.core.ports import (
    ProcessPort,
    SpawnOptions,
    SpawnPort,
    StreamReaderPort,
    StreamWriterPort,
)
from agentkit.core.runtime import RunContext
from agentkit.core.testing.contracts import check_spawn_port
from agentkit.fakes.cli import CliRun, FakeClaudeCli, FakeCodexCli, Recording, load_recording

RECORDED = Path(__file__).parent / "recorded"
"""The kit's own CLI recordings (``<cli>/<name>.jsonl``, agentkit's recording format): each
header says which CLI version made it, how, and what the capture left out."""
CHILD = Path(__file__).parent / "replay_child.py"
PROMPT = "Reply with: pong"
STEP = 10.0
"""Seconds any one run may take before the test fails instead of hanging."""

SIGTERM_GRACE = STEP / 2
"""The kill grace of a child expected to end on SIGTERM. It dies at once, so a correct
run never waits for the grace; a loaded machine cannot use it up, and a runner that never
terminated the child is still caught within ``STEP`` (it ends killed, -9)."""

FakeT = TypeVar("FakeT", FakeClaudeCli, FakeCodexCli)

Forward = Callable[[tuple[str, ...], dict[str, Any]], Awaitable[ProcessPort]]
"""Where a :class:`ForwardingSpawn` sends a spawn: the argv and every keyword, defaults filled in."""

_SPAWN_DEFAULTS: dict[str, Any] = {
    name: parameter.default
    for name, parameter in inspect.signature(SpawnPort.__call__).parameters.items()
    if parameter.kind is parameter.KEYWORD_ONLY
}
"""Each SpawnPort keyword's default, read from the port itself."""


# ------------------------------------------------ codex as its recordings were made

CODEX_RECORDED = RECORDED / "codex"
CODEX_THREAD = "01a2363e-c45e-7df3-b850-4ea5f38e7c39"
"""The thread the recorded codex exec started and the recorded resumes continue."""
CODEX_MODEL = "gpt-5.6-luna"
CODEX_RECORDED_FLAGS = ("--skip-git-repo-check",)
"""The flags the codex recordings were made with."""
CODEX_EXEC = ("codex", "exec", "--json", "-m", CODEX_MODEL, *CODEX_RECORDED_FLAGS)
"""The argv a :func:`codex_cognition` spawns for a fresh turn, up to the prompt."""


def codex_cognition(cli: Any, **kw: Any) -> CodexCliCognition:
    """A codex cognition spawning on ``cli`` with the recordings' model and flags, so that
    the argv it builds is the recorded one; ``kw`` overrides either."""
    kw.setdefault("model", CODEX_MODEL)
    kw.setdefault("extra_args", CODEX_RECORDED_FLAGS)
    return CodexCliCognition(cli, **kw)


# ------------------------------------------------ claude's stream, piece by piece


def claude_result(**fields: Any) -> dict[str, Any]:
    """A claude ``result`` line (a successful turn, usage and cost set); ``fields`` replace
    or add to it."""
    return {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "result": "ok",
        "session_id": "s",
        "total_cost_usd": 0.01,
        "usage": {"input_tokens": 10, "output_tokens": 5},
        **fields,
    }


# ------------------------------------------------------------------ the process


class ForwardingProcess:
    """A ProcessPort that hands every member on to ``inner``.

    A test's wrapper subclasses it and overrides only what it changes (a
    ``wait()`` that never returns, a ``terminate()`` that does nothing); the
    rest is spelled out once here, typed as the port, so the wrapper is a
    ProcessPort to mypy as it is at run time. A real child behind it keeps its
    group: the runner finds that by ``pid``.
    """

    def __init__(self, inner: ProcessPort) -> None:
        self.inner = inner

    @property
    def stdin(self) -> StreamWriterPort | None:
        return self.inner.stdin

    @property
    def stdout(self) -> StreamReaderPort | None:
        return self.inner.stdout

    @property
    def stderr(self) -> StreamReaderPort | None:
        return self.inner.stderr

    @property
    def returncode(self) -> int | None:
        return self.inner.returncode

    @property
    def pid(self) -> int:
        return self.inner.pid

    async def wait(self) -> int:
        return await self.inner.wait()

    def terminate(self) -> None:
        self.inner.terminate()

    def kill(self) -> None:
        self.inner.kill()


# ------------------------------------------------------------------ the spawn


class ForwardingSpawn:
    """A SpawnPort that records each spawn's argv and keywords, then hands it to ``forward``.

    ``forward`` gets its own copy of the keywords, so it may change them (say,
    an open stdin) without changing the record.
    """

    def __init__(self, forward: Forward) -> None:
        self.forward = forward
        self.argv: list[tuple[str, ...]] = []
        self.kwargs: list[dict[str, Any]] = []

    async def __call__(
        self, program: str, *args: str, **options: Unpack[SpawnOptions]
    ) -> ProcessPort:
        argv = (program, *args)
        kwargs: dict[str, Any] = {**_SPAWN_DEFAULTS, **options}
        self.argv.append(argv)
        self.kwargs.append(kwargs)
        return await self.forward(argv, dict(kwargs))


class ChildSpawn(ForwardingSpawn):
    """The real ``default_spawn``, starting ``replay_child.py`` in place of the CLI.

    One child per spawn, each with its own replay arguments. It records the
    argv the cognition asked for (the ``claude ...`` / ``codex ...`` line) and
    the spawn keywords, so both can be compared with the double's invocation
    record.

    With ``ready`` (the child's ``--ready-file``) a spawn returns only once the
    child has created it: a cognition starts its timeout after the spawn, so
    the timeout then runs against a child that is up (hanging, or reading its
    stdin), not against an interpreter starting on a loaded machine.
    """

    def __init__(self, *children: Sequence[str], ready: Path | None = None) -> None:
        super().__init__(self._start_child)
        self._children = [tuple(c) for c in children]
        self._ready = ready
        self.processes: list[ProcessPort] = []

    @property
    def calls(self) -> list[dict[str, Any]]:
        """The keywords a double's invocation record also has, per spawn."""
        return [
            {
                "cwd": kw["cwd"],
                "env": dict(kw["env"] or {}),
                "start_new_session": kw["start_new_session"],
            }
            for kw in self.kwargs
        ]

    async def _start_child(self, argv: tuple[str, ...], kwargs: dict[str, Any]) -> ProcessPort:
        index = len(self.argv) - 1
        if index >= len(self._children):
            raise AssertionError(f"spawn {index + 1} was not expected: {argv}")
        proc = await default_spawn(
            sys.executable, "-I", "-S", str(CHILD), *self._children[index], **kwargs
        )
        self.processes.append(proc)
        if self._ready is not None:
            await until_exists(self._ready)
        return proc


class Lingering(ForwardingProcess):
    """A child that wrote everything and closed stdout, then does not exit until signalled.

    Its ``wait()`` returns ``-SIGTERM`` once it is terminated (or ``-SIGKILL``
    once killed): the shape of a CLI that finished its turn but lingers (a
    flush, a background task), which the runner stops as cleanup.
    """

    def __init__(self, inner: ProcessPort) -> None:
        super().__init__(inner)
        self._signalled = asyncio.Event()
        self._code: int | None = None

    @property
    def returncode(self) -> int | None:
        return self._code if self._signalled.is_set() else None

    def _signal(self, sig: signal.Signals) -> None:
        if self._code is None:
            self._code = -int(sig)
        self._signalled.set()

    def terminate(self) -> None:
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)

    async def wait(self) -> int:
        await self._signalled.wait()
        await self.inner.wait()
        assert self._code is not None
        return self._code


def lingering(cli: FakeClaudeCli | FakeCodexCli) -> Forward:
    """A :class:`ForwardingSpawn` target: spawn on ``cli``, wrap the child in :class:`Lingering`."""

    async def forward(argv: tuple[str, ...], kwargs: dict[str, Any]) -> ProcessPort:
        return Lingering(await cli(*argv, **kwargs))

    return forward


# ------------------------------------------------------------- recordings


def recorded(cli: Literal["claude", "codex"], name: str) -> Path:
    """The recording file ``name`` of ``cli`` among the kit's own (``recorded/<cli>/<name>.jsonl``)."""
    return RECORDED / cli / f"{name}.jsonl"


def recording(cli: Literal["claude", "codex"], name: str) -> Recording:
    """The recording ``name`` of ``cli``, loaded as a user loads one."""
    return load_recording(recorded(cli, name))


def every_recording(cli: Literal["claude", "codex"]) -> list[Path]:
    """Every recording of ``cli`` the kit's tests hold, by name."""
    return sorted((RECORDED / cli).glob("*.jsonl"))


def _bytes_file(tmp: Path, suffix: str, data: bytes) -> str:
    with tempfile.NamedTemporaryFile(dir=tmp, suffix=suffix, delete=False) as handle:
        handle.write(data)
    return handle.name


def child_args(rec: Recording, tmp: Path, *extra: str) -> list[str]:
    """``replay_child.py`` arguments that replay ``rec``: its stdout and stderr go through
    files of their own in ``tmp`` (the child runs without agentkit, so it is handed the
    bytes, not the recording)."""
    args = ["--exit", str(rec.run.returncode), *extra]
    if rec.run.stdout:
        args += ["--stdout", _bytes_file(tmp, ".stdout", rec.run.stdout)]
    if rec.run.stderr:
        args += ["--stderr", _bytes_file(tmp, ".stderr", rec.run.stderr)]
    return args


# -------------------------------------------------------------- comparing


def snapshot(result: CliResult[Any]) -> dict[str, Any]:
    """Every field of a result, the error spelled out (CliError has no ``__eq__``)."""
    fields = {f.name: getattr(result, f.name) for f in dataclasses.fields(result)}
    error = fields.pop("error")
    fields["error"] = (
        None
        if error is None
        else {
            "code": error.code,
            "message": error.message,
            "stderr": error.stderr,
            "returncode": error.returncode,
            "details": dict(error.details),
        }
    )
    return fields


def kept_stderr(stderr: bytes, keep: int = DEFAULT_STDERR_KEEP) -> str:
    """The stderr a run reports for ``stderr`` written: the first and last ``keep`` bytes,
    and a marker line counting what was dropped between them."""
    if len(stderr) <= 2 * keep:
        return stderr.decode()
    marker = f"\n[... {len(stderr) - 2 * keep} bytes of stderr dropped ...]\n".encode()
    return (stderr[:keep] + marker + stderr[-keep:]).decode()


def assert_same(real: CliResult[Any], fake: CliResult[Any]) -> None:
    a, b = snapshot(real), snapshot(fake)
    assert a.keys() == b.keys()
    for name in a:
        assert a[name] == b[name], f"{name} differs: real child {a[name]!r} != double {b[name]!r}"


def ledger(ctx: RunContext) -> tuple[Any, ...]:
    return (ctx.ledger.usage, ctx.ledger.cost_usd, ctx.ledger.calls, dict(ctx.ledger.by_model))


def assert_same_spawns(spawn: ChildSpawn, fake: FakeClaudeCli | FakeCodexCli) -> None:
    assert spawn.argv == [inv.argv for inv in fake.invocations]
    assert spawn.calls == [
        {"cwd": inv.cwd, "env": dict(inv.env), "start_new_session": inv.start_new_session}
        for inv in fake.invocations
    ]


def assert_real_children(spawn: ChildSpawn, *returncodes: int) -> None:
    """The 'real' side really ran processes, and they exited as told."""
    assert all(isinstance(p, SpawnedProcess) for p in spawn.processes)
    assert [p.returncode for p in spawn.processes] == list(returncodes)


# ------------------------------------------- a double waiting on a turn


async def until_written(cli: FakeClaudeCli | FakeCodexCli, messages: int) -> None:
    """Until the double's first child has read ``messages`` lines on stdin.

    A session turn is waiting on the double from then on, so a test cancels
    it at that point instead of after a guessed delay (which a loaded machine
    can overrun before the turn has started). Counted in loop steps, not
    seconds: the double reads a message as it is written.
    """
    for _ in range(10_000):
        if cli.invocations and cli.invocations[0].stdin.count(b"\n") >= messages:
            return
        await asyncio.sleep(0)
    raise AssertionError(f"the double never read message {messages} on stdin")


# ------------------------------------------- a real child and what it left behind


def running(pid: int) -> bool:
    """Running: not gone, and not a zombie left for a parent that does not reap it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


async def still_running(pids: Sequence[int], bound: float = STEP) -> list[int]:
    """Poll (for ``bound`` seconds at most) until none of ``pids`` runs; the ones that still do.

    A killed process goes soon, not at once, and nothing can be awaited for
    another process's end.
    """
    for _ in range(int(bound / 0.02)):
        if not any(running(pid) for pid in pids):
            return []
        await asyncio.sleep(0.02)
    return [pid for pid in pids if running(pid)]


async def read_all(proc: CliProcess) -> list[dict[str, Any]]:
    """Every JSON object ``proc`` prints, then its finish."""
    objects = []
    while (obj := await proc.next_object()) is not None:
        objects.append(obj)
    await proc.finish()
    return objects


# ------------------------------------------- stopping a child that hangs


def assert_stopped_by(result: CliResult[Any], spawn: ChildSpawn, sig: signal.Signals) -> None:
    """The real child was terminated -- and, for SIGKILL, then killed -- and the result says so."""
    assert result.returncode == -sig
    assert result.error is not None
    assert dict(result.error.details)["terminated"] is True
    assert dict(result.error.details)["killed"] is (sig == signal.SIGKILL)
    assert_real_children(spawn, -sig)


async def cancel_once_hanging(task: asyncio.Future[Any], ready: Path) -> None:
    """Cancel ``task`` once the child says it hangs; the task must end in CancelledError."""
    async with later(task.cancel, ready):
        with pytest.raises(asyncio.CancelledError):
            async with asyncio.timeout(STEP):
                await task


def hang_args(stdout: Path, stderr: Path, hang_after: int, ready: Path, *extra: str) -> list[str]:
    """Child arguments: write ``stderr`` first, then ``hang_after`` bytes of ``stdout``,
    then create ``ready`` and hang."""
    return [
        "--stdout",
        str(stdout),
        "--stderr",
        str(stderr),
        "--stderr-at",
        "start",
        "--hang-after",
        str(hang_after),
        "--ready-file",
        str(ready),
        *extra,
    ]


async def until_exists(path: Path) -> None:
    """Poll for the child's ready file (another process: there is no event to await)."""
    for _ in range(int(STEP / 0.01)):
        if await asyncio.to_thread(path.exists):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the child never created {path}")


@contextlib.asynccontextmanager
async def later(action: Callable[[], object], ready: Path) -> AsyncIterator[None]:
    """Run ``action`` once the child says it is hanging; always reap the helper task."""

    async def fire() -> None:
        await until_exists(ready)
        action()

    task = asyncio.ensure_future(fire())
    try:
        yield
    finally:
        if not task.done():
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


# ------------------------------------------- one CLI, the real child and the double


@dataclasses.dataclass(frozen=True)
class SideBySide(Generic[FakeT]):
    """One CLI's real cognition driven over a real child and over the CLI's double.

    The contract modules (test_contract_spawn_*.py) run the same comparisons on
    each CLI; this is where those comparisons are written once, so that a CLI's
    module supplies only what differs: the cognition class, the double class
    and the bytes.
    """

    cognition: type[ClaudeCliCognition] | type[CodexCliCognition]
    fake: type[FakeT]

    async def drive(
        self, spawn: ChildSpawn, fake: FakeClaudeCli | FakeCodexCli, **options: Any
    ) -> tuple[CliResult[Any], CliResult[Any]]:
        """Drive once through the real child, once through the double; both must have asked
        for the same spawns and charged the run the same."""
        real_ctx, fake_ctx = RunContext(), RunContext()
        async with asyncio.timeout(STEP):
            real = await self.cognition(spawn, **options).drive(real_ctx, PROMPT)
        async with asyncio.timeout(STEP):
            double = await self.cognition(fake, **options).drive(fake_ctx, PROMPT)
        assert_same_spawns(spawn, fake)
        assert ledger(real_ctx) == ledger(fake_ctx)
        return real, double

    async def assert_recording_alike(self, path: Path, tmp_path: Path, **options: Any) -> None:
        """The recording at ``path`` driven once through a real child replaying it and through
        the double replaying the file: the same whole result, the recorded exit code and
        stderr, every run used."""
        rec = load_recording(path)
        spawn = ChildSpawn(child_args(rec, tmp_path))
        fake = self.fake.replay(path)
        real, double = await self.drive(spawn, fake, **options)
        assert_real_children(spawn, rec.run.returncode)
        assert real.returncode == rec.run.returncode
        assert real.stderr == rec.run.stderr.decode()
        assert_same(real, double)
        assert fake.remaining == 0

    async def over_bytes(
        self,
        data: bytes,
        tmp_path: Path,
        *,
        stderr: bytes = b"",
        returncode: int = 0,
        child: Sequence[str] = (),
        **options: Any,
    ) -> tuple[CliResult[Any], CliResult[Any]]:
        """:meth:`drive` over ``data`` on stdout: a child replaying it and a double holding it."""
        path = tmp_path / "stdout.jsonl"
        path.write_bytes(data)
        err = tmp_path / "stderr.txt"
        err.write_bytes(stderr)
        args = ["--stdout", str(path), "--stderr", str(err), "--exit", str(returncode), *child]
        spawn = ChildSpawn(args)
        fake = self.fake([CliRun(stdout=data, stderr=stderr, returncode=returncode)])
        real, double = await self.drive(spawn, fake, **options)
        assert_real_children(spawn, returncode)
        return real, double

    async def assert_truncated_alike(self, whole: bytes, tmp_path: Path) -> CliResult[Any]:
        """``whole`` cut halfway through its last line (a CLI killed mid-write) is the same
        incomplete run through both; the real result, for what a CLI checks beyond that."""
        last = whole.rstrip(b"\n").rfind(b"\n") + 1
        real, double = await self.over_bytes(whole[: last + (len(whole) - last) // 2], tmp_path)
        assert real.error is not None
        assert real.error.code == "incomplete_run"
        assert [s.reason for s in real.skipped] == ["truncated"]
        assert_same(real, double)
        return real

    async def assert_skipped_alike(
        self, data: bytes, tmp_path: Path, reasons: Sequence[str], code: str, **options: Any
    ) -> None:
        """Both skip the same lines of ``data``, for ``reasons``, and fail with ``code``."""
        real, double = await self.over_bytes(data, tmp_path, **options)
        assert [s.reason for s in double.skipped] == list(reasons)
        assert double.error is not None
        assert double.error.code == code
        assert_same(real, double)

    async def stopped_while_hanging(
        self,
        child_args: Sequence[str],
        ready: Path,
        *,
        time_limit: float | None = None,
        kill_grace: float = SIGTERM_GRACE,
        reason: str = "stop",
    ) -> tuple[CliResult[Any], ChildSpawn, RunContext]:
        """Drive a real child that hangs once it has created ``ready``; with a ``time_limit``
        the cognition's own timeout stops it, else the run's cancellation token does, with
        ``reason``."""
        # A timeout runs from the spawn's return: once the child hangs for good.
        spawn = ChildSpawn(child_args, ready=None if time_limit is None else ready)
        ctx = RunContext()
        cognition = self.cognition(spawn, timeout=time_limit, kill_grace=kill_grace)
        if time_limit is None:
            async with asyncio.timeout(STEP), later(lambda: ctx.cancel.cancel(reason), ready):
                result = await cognition.drive(ctx, PROMPT)
        else:
            async with asyncio.timeout(STEP):
                result = await cognition.drive(ctx, PROMPT)
            assert await asyncio.to_thread(ready.exists), (
                "the child never reached its hang point: the timeout came too early"
            )
        return result, spawn, ctx

    async def assert_task_cancellation_stops_the_child(
        self, child_args: Sequence[str], ready: Path
    ) -> RunContext:
        """Cancelling the driving task once the child hangs stops the real child (SIGTERM)
        and ends the task in CancelledError."""
        spawn = ChildSpawn(child_args)
        ctx = RunContext()
        cognition = self.cognition(spawn, timeout=None, kill_grace=SIGTERM_GRACE)
        task = asyncio.ensure_future(cognition.drive(ctx, PROMPT))
        await cancel_once_hanging(task, ready)
        assert_real_children(spawn, -signal.SIGTERM)
        return ctx

    async def assert_spawn_port_holds(self, path: Path, tmp_path: Path) -> None:
        """Every SpawnPort rule holds on a real child replaying the recording at ``path`` and
        on the double replaying the file."""
        rec = load_recording(path)
        out, err, code = rec.run.stdout, rec.run.stderr, rec.run.returncode
        real = await check_spawn_port(
            lambda: ChildSpawn(child_args(rec, tmp_path)), stdout=out, stderr=err, returncode=code
        )
        assert real == []  # every rule holds on the real child too, none skipped
        fake = await check_spawn_port(
            lambda: self.fake.replay(path), stdout=out, stderr=err, returncode=code
        )
        assert fake == []
