"""Real CLI-shaped children run through default_spawn + CliProcess: does every run end, cleanly?

The process runner promises three things a unit test with a double cannot
show: every run comes back within ``timeout + kill_grace + 1 s`` however the
child behaves; nothing it started is left running; and no file descriptor is
left open. This tool starts real Python children that misbehave in the ways
CLIs do -- hang, ignore SIGTERM, leave grandchildren holding stdout or
stderr, flood stderr, write huge or partial lines, exit early, get cancelled
mid-read -- and measures, per scenario:

- **outcome**: ``ok``, ``timeout``, ``cancelled`` (the run's token),
  ``task-cancelled`` (``asyncio`` cancellation) or ``stopped`` (an explicit
  ``stop()``, as a session's close does), with the exit code and what the
  runner had to do (terminate, kill, descendants killed, lines skipped); it
  must be the scenario's expected one;
- **elapsed** against the bound ``timeout + kill_grace + 1 s``;
- **left**: processes of the child's group still running once the run
  returned (after a settle of at most 0.5 s for signals to land); a process
  that moved to a session of its own is outside any group the runner can
  signal and is counted apart (``escaped``), then killed by the tool;
- **fds**: descriptors this process holds after the run beyond those it
  held before, counted the moment the run returned (no settle: closing a
  CLI frees its descriptors before ``stop()`` / ``finish()`` / ``aclose()``
  return); the worst of a scenario's repeats.

Scenarios whose end is a race (the kill lands after the grace while an exit
watcher, a pipe-holder scan and the close all run) are repeated
(``Scenario.repeat``, times ``--repeat``), so an intermittent leak shows;
the ``claude-session`` ones close a real ``ClaudeCliSession`` with
``aclose()``, the way a test or a service does.

Each child appends its pid, and the pid of everything it starts, to a file
the tool reads afterwards; zombies count as ended (they run nothing, and
their parent -- init here -- reaps them on its own schedule).

    uv run --frozen python -m tools.hardening.process_scenarios           # the table
    uv run --frozen python -m tools.hardening.process_scenarios -k flood  # a subset
    uv run --frozen python -m tools.hardening.process_scenarios --repeat 10  # racy ones x10

The exit status is 1 when any scenario missed its outcome, its bound, left
a process in its group, or leaked an fd. The whole run takes well under a
minute: the per-scenario timeout is 1 s and kill_grace 0.3 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
import tempfile
import time
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentkit.agents.cognition import ClaudeCliCognition, CliError, default_spawn
from agentkit.agents.cognition._runner import CliProcess
from agentkit.core.cancellation import CancellationToken
from agentkit.core.runtime import RunContext

__all__ = ["SCENARIOS", "Measure", "Scenario", "main", "run_all", "run_scenario"]

TIMEOUT = 1.0
"""The run's timeout in every scenario (seconds)."""
KILL_GRACE = 0.3
"""Seconds a terminated child gets before it is killed."""
EOF_GRACE = 0.2
"""Seconds stdout gets to reach EOF once the child exited (the default, 1 s, scaled down
with the timeout: 600 s by default, 1 s here)."""
BOUND = TIMEOUT + KILL_GRACE + 1.0
"""Every run must be back within this (the target: timeout + kill_grace + 1 s)."""
SETTLE = 0.5
"""At most this long after a run for its killed processes to end and its fds to close."""

_PREAMBLE = """\
import json, os, signal, subprocess, sys, time
_PIDS = os.environ["AK_SCENARIO_PIDS"]
def note(pid):
    with open(_PIDS, "a") as f:
        f.write(f"{pid}\\n")
note(os.getpid())
def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\\n")
    sys.stdout.flush()
def holder(seconds=60, *, stdout=True, stderr=False, stdin=False, ignore_term=False, setsid=False,
           nested=False):
    code = "import os, signal, subprocess, sys, time\\n"
    if ignore_term:
        code += "signal.signal(signal.SIGTERM, signal.SIG_IGN)\\n"
    if nested:
        code += (
            "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(%d)'])\\n"
            "open(os.environ['AK_SCENARIO_PIDS'], 'a').write(f'{p.pid}\\\\n')\\n" % seconds
        )
    code += f"time.sleep({seconds})\\n"
    p = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=None if stdin else subprocess.DEVNULL,
        stdout=None if stdout else subprocess.DEVNULL,
        stderr=None if stderr else subprocess.DEVNULL,
        start_new_session=setsid,
    )
    note(p.pid)
    return p
INIT = {"type": "system", "subtype": "init", "session_id": "s"}
TEXT = {"type": "assistant", "message": {"content": [{"type": "text", "text": "pong"}]}}
RESULT = {"type": "result", "subtype": "success", "result": "pong", "total_cost_usd": 0.001}
"""


@dataclass(frozen=True)
class Scenario:
    """One child program and how the runner drives it.

    ``drive``: ``read`` (read to EOF, then finish, under the timeout), ``token``
    / ``task`` (cancelled 0.1 s after the first object, by the run's token or
    by cancelling the task), ``stop`` (``stop()`` once the result arrived),
    ``session`` (one stdin line answered under the timeout, then closed as a
    session closes: stdin closed, the rest read within kill_grace, else
    stopped) or ``claude-session`` (a real ``ClaudeCliSession``: one turn with
    ``prompt_size`` characters of prompt, then ``aclose()``). ``repeat``: how
    many times the scenario runs (a racy end is run many times).
    """

    name: str
    code: str
    expect: str
    drive: str = "read"
    limit: int = 64 * 1024 * 1024
    note: str = ""
    repeat: int = 1
    prompt_size: int = 2


@dataclass
class Measure:
    """What one scenario did (over ``runs`` repeats: the worst of each figure)."""

    scenario: Scenario
    outcome: str
    detail: str
    elapsed: float
    left: int
    escaped: int
    fds: int
    flags: list[str] = field(default_factory=list)
    runs: int = 1

    @property
    def within(self) -> bool:
        return self.elapsed <= BOUND

    @property
    def passed(self) -> bool:
        return (
            self.outcome == self.scenario.expect
            and self.within
            and self.left == 0
            and self.fds <= 0
        )


def _s(name: str, code: str, expect: str, **kw: Any) -> Scenario:
    return Scenario(name, code, expect, **kw)


_ANSWER = "emit(INIT); emit(TEXT); emit(RESULT)"

SCENARIOS: tuple[Scenario, ...] = (
    _s("well-behaved", _ANSWER, "ok"),
    _s("answer-then-exit-1", _ANSWER + "; sys.exit(1)", "ok"),
    _s(
        "slow-but-in-time",
        "emit(INIT); time.sleep(0.2); emit(TEXT); time.sleep(0.2); emit(RESULT)",
        "ok",
    ),
    _s("hang-after-init", "emit(INIT); time.sleep(60)", "timeout"),
    _s("hang-silent", "time.sleep(60)", "timeout"),
    _s(
        "hang-ignoring-sigterm",
        "signal.signal(signal.SIGTERM, signal.SIG_IGN); emit(INIT); time.sleep(60)",
        "timeout",
    ),
    _s("grandchild-holds-stdout-after-answer", "holder(); " + _ANSWER, "ok"),
    _s(
        "grandchild-holds-stderr-after-answer",
        "holder(stdout=False, stderr=True); " + _ANSWER,
        "ok",
    ),
    _s(
        "grandchild-holds-both-ignoring-sigterm",
        "holder(stderr=True, ignore_term=True); " + _ANSWER,
        "ok",
    ),
    _s("grandchild-detached-after-answer", "holder(stdout=False); " + _ANSWER, "ok"),
    _s(
        "ten-grandchildren-hold-stdout",
        "[holder() for _ in range(10)]; " + _ANSWER,
        "ok",
    ),
    _s("great-grandchild-holds-stdout", "holder(nested=True); " + _ANSWER, "ok"),
    _s(
        "grandchild-holds-stdout-child-hangs",
        "holder(); emit(INIT); time.sleep(60)",
        "timeout",
    ),
    _s(
        "both-ignore-sigterm-and-hang",
        "signal.signal(signal.SIGTERM, signal.SIG_IGN); holder(ignore_term=True);"
        " emit(INIT); time.sleep(60)",
        "timeout",
    ),
    _s(
        "escaped-holder-in-own-session",
        "holder(setsid=True); " + _ANSWER,
        "ok",
        note="setsid: outside the group, found by the pipe it holds",
    ),
    _s(
        "stderr-1mb-before-stdout",
        "sys.stderr.write('e' * 1_000_000); sys.stderr.flush(); " + _ANSWER,
        "ok",
    ),
    _s(
        "stderr-10mb-during-stdout",
        "emit(INIT)\nfor _ in range(10): sys.stderr.write('w' * 1_000_000); sys.stderr.flush()\n"
        "emit(TEXT); emit(RESULT)",
        "ok",
    ),
    _s(
        "stderr-flood-then-hang",
        "sys.stderr.write('e' * 2_000_000); sys.stderr.flush(); emit(INIT); time.sleep(60)",
        "timeout",
    ),
    _s(
        "stderr-flood-small-line-limit",
        "sys.stderr.write('e' * 1_000_000); sys.stderr.flush(); " + _ANSWER,
        "ok",
        limit=1024,
    ),
    _s(
        "huge-line-8mb",
        "emit(INIT); emit({'type': 'assistant', 'blob': 'x' * 8_000_000}); emit(RESULT)",
        "ok",
    ),
    _s(
        "line-over-the-limit",
        "emit(INIT); emit({'type': 'assistant', 'blob': 'x' * 3_000_000}); emit(RESULT)",
        "ok",
        limit=1024 * 1024,
    ),
    _s("early-exit-no-output", "sys.exit(2)", "ok"),
    _s(
        "early-exit-partial-line",
        'emit(INIT); sys.stdout.write(\'{"type": "resu\'); sys.stdout.flush(); sys.exit(1)',
        "ok",
    ),
    _s(
        "partial-line-then-hang",
        "emit(INIT); sys.stdout.write('{\"type\": '); sys.stdout.flush(); time.sleep(60)",
        "timeout",
    ),
    _s(
        "byte-by-byte-drip",
        "line = json.dumps(RESULT) + '\\n'\nemit(INIT)\n"
        "for ch in line:\n    sys.stdout.write(ch); sys.stdout.flush(); time.sleep(0.002)",
        "ok",
    ),
    _s(
        "hostile-json-lines",
        "emit(INIT); print('{\"a\":' * 50000 + '1' + '}' * 50000);"
        " print('{\"cost\": 1e400}'); print('{\"n\": NaN}'); print('{\"n\": ' + '9' * 30 + '}');"
        " sys.stdout.flush(); emit(RESULT)",
        "ok",
    ),
    _s(
        "closes-stdout-then-lingers",
        "emit(INIT); emit(RESULT); os.close(1); time.sleep(60)",
        "ok",
        note="output complete: the runner stops it as cleanup (lingered)",
    ),
    _s(
        "killed-by-a-signal-mid-output",
        "emit(INIT); os.kill(os.getpid(), signal.SIGKILL)",
        "ok",
    ),
    _s("token-cancel-mid-read", "emit(INIT); time.sleep(60)", "cancelled", drive="token"),
    _s(
        "token-cancel-ignoring-sigterm",
        "signal.signal(signal.SIGTERM, signal.SIG_IGN); holder(ignore_term=True);"
        " emit(INIT); time.sleep(60)",
        "cancelled",
        drive="token",
    ),
    _s(
        "task-cancel-mid-read",
        "holder(); emit(INIT); time.sleep(60)",
        "task-cancelled",
        drive="task",
    ),
    _s(
        "stop-after-answer-lingering",
        "signal.signal(signal.SIGTERM, signal.SIG_IGN); holder(ignore_term=True); "
        + _ANSWER
        + "; time.sleep(60)",
        "stopped",
        drive="stop",
    ),
    _s(
        "session-turn-then-close",
        "for line in sys.stdin:\n    emit(INIT); emit(RESULT)\n",
        "ok",
        drive="session",
    ),
    _s(
        "session-child-ignores-stdin-eof",
        "sys.stdin.readline(); emit(INIT); emit(RESULT); holder(); time.sleep(60)",
        "ok",
        drive="session",
        note="stdin closed but it stays: stopped on close, as cleanup",
    ),
    _s(
        "claude-session-aclose-child-ignores-eof-and-sigterm",
        "signal.signal(signal.SIGTERM, signal.SIG_IGN); sys.stdin.readline(); "
        + _ANSWER
        + "; time.sleep(60)",
        "ok",
        drive="claude-session",
        repeat=20,
        note="aclose(): killed after the grace, every time",
    ),
    _s(
        "claude-session-aclose-group-holder-ignores-sigterm",
        "signal.signal(signal.SIGTERM, signal.SIG_IGN); sys.stdin.readline(); "
        "holder(ignore_term=True); " + _ANSWER + "; time.sleep(60)",
        "ok",
        drive="claude-session",
        repeat=20,
    ),
    _s(
        "claude-session-aclose-escaped-holder",
        "signal.signal(signal.SIGTERM, signal.SIG_IGN); sys.stdin.readline(); "
        "holder(setsid=True, ignore_term=True); " + _ANSWER + "; time.sleep(60)",
        "ok",
        drive="claude-session",
        repeat=10,
        note="setsid holder of stdout: proven the CLI's by its environment",
    ),
    _s(
        "claude-session-aclose-unsent-input-stdin-holder",
        "signal.signal(signal.SIGTERM, signal.SIG_IGN); os.read(0, 64); "
        "holder(stdout=False, stdin=True, setsid=True); " + _ANSWER + "; time.sleep(60)",
        "ok",
        drive="claude-session",
        repeat=10,
        prompt_size=100_000,
        note="100 kB prompt, 64 B read; a setsid holder keeps stdin's read end",
    ),
    _s(
        "exit-races-the-kill",
        "signal.signal(signal.SIGTERM, signal.SIG_IGN); holder(); emit(INIT);"
        " time.sleep(1.0 + 0.001 * (os.getpid() % 300))",
        "timeout",
        repeat=20,
        note="after the deadline it exits on its own during the grace, or is killed",
    ),
)


# ------------------------------------------------------------------ measuring


def _alive(pid: int) -> bool:
    """Running: it exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _pgid(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


async def _claude_session(
    scenario: Scenario, script: Path, env: dict[str, str]
) -> tuple[str, str, CliProcess | None]:
    """One turn of a real claude session, then ``aclose()``: the outcome and the process."""

    async def spawn(program: str, *args: str, **kw: Any) -> Any:
        kw["env"] = env
        return await default_spawn(program, *args, **kw)

    cognition = ClaudeCliCognition(
        spawn, executable=str(script), timeout=TIMEOUT, kill_grace=KILL_GRACE
    )
    session = cognition.session(RunContext())
    try:
        async with session:
            result = await session.turn("x" * scenario.prompt_size)
    except CliError as exc:
        return exc.code, "", session._proc
    code = result.error.code if result.error is not None else "ok"
    return code, f"rc={session.returncode} text={result.text!r}", session._proc


async def _drive(scenario: Scenario, proc: CliProcess) -> tuple[str, str]:
    """Run ``proc`` the scenario's way; the outcome and a short detail."""
    objects: list[dict[str, Any]] = []
    first = asyncio.Event()
    if scenario.drive == "session":
        work = _session_turn(proc, objects)
    else:
        work = _read_to_end(proc, objects, first, stop_at_result=scenario.drive == "stop")
    try:
        if scenario.drive == "task":
            return await _cancelled_task(proc, work, first)
        if scenario.drive == "token":
            await _cancelled_by_token(proc, work, first)
        else:
            await proc.guard(work, within=TIMEOUT, cancel=CancellationToken())
    except CliError as exc:
        return exc.code, f"rc={proc.returncode}"
    if scenario.drive == "stop":
        await proc.stop()
        return "stopped", f"rc={proc.returncode} objects={len(objects)}"
    if scenario.drive == "session":
        await _session_close(proc, objects)
    return "ok", f"rc={proc.returncode} objects={len(objects)}"


async def _read_to_end(
    proc: CliProcess, objects: list[dict[str, Any]], first: asyncio.Event, *, stop_at_result: bool
) -> None:
    """Read every object (``stop_at_result``: up to the result, leaving the child running)."""
    while (obj := await proc.next_object()) is not None:
        objects.append(obj)
        first.set()
        if stop_at_result and obj.get("type") == "result":
            return
    await proc.finish()


async def _session_turn(proc: CliProcess, objects: list[dict[str, Any]]) -> None:
    """Write one user message and read up to its result, as a session's turn does."""
    await proc.write_line({"type": "user", "message": {"role": "user", "content": "hi"}})
    while (obj := await proc.next_object()) is not None:
        objects.append(obj)
        if obj.get("type") == "result":
            return


async def _session_close(proc: CliProcess, objects: list[dict[str, Any]]) -> None:
    """As a session's close does: stdin closed, the rest read within kill_grace,
    else the child is stopped -- cleanup, not a failure of the session."""
    proc.close_stdin()

    async def drain() -> None:
        while (obj := await proc.next_object()) is not None:
            objects.append(obj)
        await proc.finish()

    with contextlib.suppress(CliError):
        await proc.guard(drain(), within=KILL_GRACE)


async def _cancelled_task(
    proc: CliProcess, work: Coroutine[Any, Any, None], first: asyncio.Event
) -> tuple[str, str]:
    """Guard ``work`` in a task, and cancel the task once the first object has come."""
    task = asyncio.ensure_future(proc.guard(work, within=TIMEOUT))

    async def cancel_task() -> None:
        await first.wait()
        await asyncio.sleep(0.1)
        task.cancel()

    helper = asyncio.ensure_future(cancel_task())
    try:
        await task
    except asyncio.CancelledError:
        return "task-cancelled", f"rc={proc.returncode}"
    finally:
        helper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await helper
    return "ok", f"rc={proc.returncode}"


async def _cancelled_by_token(
    proc: CliProcess, work: Coroutine[Any, Any, None], first: asyncio.Event
) -> None:
    """Guard ``work`` under a token cancelled once the first object has come."""
    token = CancellationToken()

    async def cancel_soon() -> None:
        await first.wait()
        await asyncio.sleep(0.1)
        token.cancel("the scenario cancels it")

    canceller = asyncio.ensure_future(cancel_soon())
    try:
        await proc.guard(work, within=TIMEOUT, cancel=token)
    finally:
        canceller.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await canceller


def _flags(proc: CliProcess) -> list[str]:
    flags = [
        name
        for name in ("terminated", "killed", "lingered", "abandoned", "descendants_killed")
        if getattr(proc, name)
    ]
    reasons: dict[str, int] = {}
    for skipped in proc.skipped:
        reasons[skipped.reason] = reasons.get(skipped.reason, 0) + 1
    flags += [f"skipped {reason} x{n}" for reason, n in sorted(reasons.items())]
    if proc.stderr_dropped:
        flags.append(f"stderr {proc.stderr_dropped} B dropped")
    return flags


async def run_scenario(scenario: Scenario, folder: Path) -> Measure:
    """Run one scenario once in ``folder`` and measure it (then kill anything it left)."""
    pids_file = folder / f"{scenario.name}.pids"
    pids_file.write_text("")
    env = {**os.environ, "AK_SCENARIO_PIDS": str(pids_file)}
    program = _PREAMBLE + scenario.code
    before = _fds()
    started = time.monotonic()
    proc: CliProcess | None = None
    if scenario.drive == "claude-session":
        script = folder / f"{scenario.name}.claude"
        script.write_text(f"#!{sys.executable}\n{program}")
        script.chmod(0o755)
        try:
            outcome, detail, proc = await asyncio.wait_for(
                _claude_session(scenario, script, env), BOUND * 4
            )
        except TimeoutError:
            outcome, detail = "HUNG", "still running at 4x the bound"
    else:
        proc = await CliProcess.start(
            default_spawn,
            (sys.executable, "-c", program),
            env=env,
            stdin=scenario.drive == "session",
            limit=scenario.limit,
            kill_grace=KILL_GRACE,
            eof_grace=EOF_GRACE,
        )
        try:
            outcome, detail = await asyncio.wait_for(_drive(scenario, proc), BOUND * 4)
        except TimeoutError:
            outcome, detail = "HUNG", "still running at 4x the bound"
            await proc.stop()
    elapsed = time.monotonic() - started
    fds = _fds() - before  # at once: the run's descriptors are freed before it returns
    group = proc.process.pid if proc is not None else None
    pids = [int(p) for p in pids_file.read_text().split()]

    def in_group() -> list[int]:
        return [p for p in pids if _alive(p) and _pgid(p) == group]

    for _ in range(int(SETTLE / 0.02)):  # other processes: nothing to await but time
        if not any(_alive(p) for p in pids):
            break
        await asyncio.sleep(0.02)
    left = in_group()
    escaped = [p for p in pids if _alive(p) and p not in left]
    for pid in left + escaped:  # the next scenario starts clean
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    flags = _flags(proc) if proc is not None else []
    return Measure(scenario, outcome, detail, elapsed, len(left), len(escaped), fds, flags)


def _worst(measures: Sequence[Measure]) -> Measure:
    """One scenario's repeats as one measure: a miss anywhere is the scenario's miss."""
    missed = [m for m in measures if m.outcome != m.scenario.expect]
    first = missed[0] if missed else measures[-1]
    return Measure(
        first.scenario,
        first.outcome,
        first.detail,
        max(m.elapsed for m in measures),
        sum(m.left for m in measures),
        sum(m.escaped for m in measures),
        max(m.fds for m in measures),
        first.flags,
        runs=len(measures),
    )


async def run_all(scenarios: Sequence[Scenario], *, repeat: int = 1) -> list[Measure]:
    """Every scenario in turn, one at a time (the fd count is the process's own).

    A scenario runs ``scenario.repeat`` times (times ``repeat`` when that is
    above 1); its measure is the worst of them.
    """
    with tempfile.TemporaryDirectory(prefix="agentkit-scenarios-") as tmp:
        folder = Path(tmp)
        # Warm-up: fds the loop and its child watcher open once, on first use.
        await run_scenario(SCENARIOS[0], folder)
        measures = []
        for scenario in scenarios:
            times = scenario.repeat * (repeat if scenario.repeat > 1 else 1)
            measures.append(_worst([await run_scenario(scenario, folder) for _ in range(times)]))
        return measures


# ------------------------------------------------------------------ reporting


def _report(measures: Sequence[Measure]) -> str:
    lines = [
        f"{len(measures)} process scenarios through default_spawn + CliProcess "
        f"(timeout {TIMEOUT:g} s, kill_grace {KILL_GRACE:g} s, eof_grace "
        f"{EOF_GRACE:g} s; bound {BOUND:g} s)",
        "",
        f"{'scenario':52} {'runs':>4} {'outcome':15} {'elapsed':>8} {'left':>4} {'esc':>3} "
        f"{'fds':>3}  what the runner did",
    ]
    for m in measures:
        mark = " " if m.passed else "!"
        outcome = m.outcome if m.outcome == m.scenario.expect else f"{m.outcome}?"
        lines.append(
            f"{mark}{m.scenario.name:51} {m.runs:4} {outcome:15} {m.elapsed:7.2f}s {m.left:4} "
            f"{m.escaped:3} {m.fds:3}  {m.detail}; {', '.join(m.flags) or '-'}"
            + (f"  [{m.scenario.note}]" if m.scenario.note else "")
        )
    worst = max(measures, key=lambda m: m.elapsed)
    lines += [
        "",
        f"outcome as expected: {sum(m.outcome == m.scenario.expect for m in measures)}"
        f"/{len(measures)}",
        f"back within the bound: {sum(m.within for m in measures)}/{len(measures)} "
        f"(slowest {worst.elapsed:.2f} s, {worst.scenario.name})",
        f"processes left in the group: {sum(m.left for m in measures)}",
        f"processes outside the group (own session) left: {sum(m.escaped for m in measures)}",
        f"runs: {sum(m.runs for m in measures)}",
        f"fds leaked: {sum(max(m.fds, 0) for m in measures)}",
        f"passed: {sum(m.passed for m in measures)}/{len(measures)}",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("-k", default="", help="run only scenarios whose name contains this")
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run the repeated (racy) scenarios this many times more",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    chosen = [s for s in SCENARIOS if args.k in s.name]
    if not chosen:
        parser.error(f"no scenario matches {args.k!r}")
    started = time.monotonic()
    measures = asyncio.run(run_all(chosen, repeat=args.repeat))
    print(_report(measures))
    print(f"total: {time.monotonic() - started:.1f} s")
    return 0 if all(m.passed for m in measures) else 1


if __name__ == "__main__":
    sys.exit(main())
