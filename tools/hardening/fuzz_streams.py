"""Fuzz both CLI parsers through the public drive() and count what escapes.

Usage::

    uv run --frozen python -m tools.hardening.fuzz_streams --n 15000 [--seed 1]

Each stream is one spawn of FakeClaudeCli / FakeCodexCli (alternating) fed a
stdout built from the CLI's own well-formed events, mutated ones (a field
replaced by a wrong type, a number that overflows, NaN, a 400-digit integer,
nesting thousands deep), random objects, corrupt and truncated lines, blank
and plain-text noise, over-limit lines and invalid UTF-8, with a random exit
code and stderr, sometimes without a final newline. The cognition's
documented outcome is a result -- possibly carrying a typed ``CliError``.
Counted as failures:

* ``raw exceptions`` -- anything drive() raised;
* ``hangs`` -- a drive() not back within ``--bound`` seconds;
* ``bad ok`` -- an ``ok`` result whose cost or usage is not a finite,
  non-negative figure, or an error that is not a ``CliError``.

Prints the figures and the first few failures; exits 1 if any were found.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from typing import Any

from agentkit.agents.cognition import ClaudeCliCognition, CliError, CliResult, CodexCliCognition
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import CliRun, FakeClaudeCli, FakeCodexCli, codex_turn

LIMIT = 4096
SID = "fuzz-session"

_CLAUDE_EVENTS: list[dict[str, Any]] = [
    {"type": "system", "subtype": "init", "session_id": SID, "model": "m", "tools": ["Bash"]},
    {"type": "system", "subtype": "api_retry", "attempt": 1, "session_id": SID},
    {
        "type": "assistant",
        "session_id": SID,
        "message": {"id": "1", "model": "m", "content": [{"type": "text", "text": "hi"}]},
    },
    {
        "type": "user",
        "session_id": SID,
        "message": {"content": [{"type": "tool_result", "tool_use_id": "t", "content": "ok"}]},
    },
    {"type": "rate_limit_event", "rate_limit_info": {"status": "rejected"}},
    {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "result": "pong",
        "session_id": SID,
        "usage": {"input_tokens": 10, "output_tokens": 2, "cache_read_input_tokens": 1},
        "total_cost_usd": 0.01,
        "permission_denials": [{"tool_name": "Bash", "tool_use_id": "t", "tool_input": {}}],
        "model_usage_since_last_result": {"m": {"costUSD": 0.01}},
    },
    {
        "type": "result",
        "subtype": "error_max_turns",
        "is_error": True,
        "errors": ["Reached maximum number of turns (1)"],
        "session_id": SID,
    },
]

_CODEX_EVENTS: list[dict[str, Any]] = [
    *codex_turn(text="pong", reasoning="thinking", usage=(10, 2, 3)),
    {"type": "error", "message": "Reconnecting... 2/5"},
    {"type": "item.completed", "item": {"id": "w", "type": "error", "message": "warning"}},
    {
        "type": "item.completed",
        "item": {
            "id": "c",
            "type": "command_execution",
            "command": "ls",
            "aggregated_output": "",
            "exit_code": 0,
            "status": "completed",
        },
    },
    {"type": "item.updated", "item": {"id": "p", "type": "todo_list", "items": [{"text": "a"}]}},
    {"type": "turn.failed", "error": {"message": "unexpected status 401 Unauthorized"}},
]


def _odd_value(rng: random.Random) -> Any:
    choice = rng.randrange(14)
    if choice == 0:
        return None
    if choice == 1:
        return rng.choice([True, False])
    if choice == 2:
        return rng.randint(-(10**6), 10**6)
    if choice == 3:
        return 10 ** rng.randint(15, 400)
    if choice == 4:
        return rng.choice([1e308, -1e308, 1.5, -0.0, 5e-324])
    if choice == 5:
        return "x" * rng.randint(0, 50)
    if choice == 6:
        return [rng.randint(0, 9) for _ in range(rng.randint(0, 4))]
    if choice == 7:
        return {"k": rng.randint(0, 9)}
    if choice == 8:
        return _Raw(rng.choice(["1e400", "-1e400", "NaN", "Infinity", "-Infinity"]))
    if choice == 9:
        depth = rng.choice([10, 500, 1500, 5000])
        return _Raw("[" * depth + "]" * depth)
    if choice == 10:
        return _Raw(str(10 ** rng.randint(19, 4000)))
    if choice == 11:
        return "\ud800 lone surrogate"
    if choice == 12:
        return {"message": rng.choice(["unexpected status 429", "boom", 5])}
    return rng.random() * 10


class _Raw:
    """A JSON token written as is (what json.dumps cannot produce)."""

    def __init__(self, text: str) -> None:
        self.text = text


def _dumps(value: Any) -> str:
    if isinstance(value, _Raw):
        return value.text
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{_dumps(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_dumps(v) for v in value) + "]"
    return json.dumps(value)


def _mutate(rng: random.Random, obj: Any, depth: int = 0) -> Any:
    if isinstance(obj, dict) and obj:
        out = dict(obj)
        key = rng.choice(list(out))
        if depth < 3 and isinstance(out[key], dict | list) and rng.random() < 0.5:
            out[key] = _mutate(rng, out[key], depth + 1)
        elif rng.random() < 0.15:
            del out[key]
        else:
            out[key] = _odd_value(rng)
        return out
    if isinstance(obj, list) and obj:
        out_list = list(obj)
        index = rng.randrange(len(out_list))
        out_list[index] = _mutate(rng, out_list[index], depth + 1)
        return out_list
    return _odd_value(rng)


def _line(rng: random.Random, events: list[dict[str, Any]]) -> bytes:
    kind = rng.randrange(20)
    if kind < 8:
        return (_dumps(rng.choice(events)) + "\n").encode()
    if kind < 13:
        return (_dumps(_mutate(rng, rng.choice(events))) + "\n").encode("utf-8", "surrogatepass")
    if kind == 13:
        return (_dumps({"type": _odd_value(rng), "x": _odd_value(rng)}) + "\n").encode(
            "utf-8", "surrogatepass"
        )
    if kind == 14:
        whole = _dumps(rng.choice(events))
        return (whole[: rng.randrange(1, max(2, len(whole)))] + "\n").encode()
    if kind == 15:
        return rng.choice([b"\n", b"   \n", b"\r\n", b"[SandboxDebug] noise\n", b"[1,2]\n"])
    if kind == 16:
        return b'{"type":"' + b"y" * rng.randint(LIMIT, 3 * LIMIT) + b'"}\n'
    if kind == 17:
        return b'{"type":"assistant","x":"\xff\xfe"}\n'
    if kind == 18:
        return (_dumps(rng.choice(events)) + "\r\n").encode()
    return (_dumps(_mutate(rng, _mutate(rng, rng.choice(events)))) + "\n").encode(
        "utf-8", "surrogatepass"
    )


def _turn(events: list[dict[str, Any]]) -> list[bytes]:
    """The CLI's well-formed turn: its events up to the first successful terminal one."""
    lines: list[bytes] = []
    for event in events:
        lines.append((json.dumps(event) + "\n").encode())
        if event.get("type") in ("result", "turn.completed"):
            break
    return lines


def make_run(rng: random.Random, events: list[dict[str, Any]]) -> CliRun:
    """One fuzzed spawn: stdout lines, maybe no final newline, an exit code, stderr.

    Half the streams are the CLI's well-formed turn with one or two lines
    replaced or added, so the paths of a nearly-good run are walked too.
    """
    if rng.random() < 0.5:
        lines = _turn(events)
        for _ in range(rng.randint(1, 2)):
            index = rng.randrange(len(lines) + 1)
            if index < len(lines) and rng.random() < 0.5:
                lines[index] = _line(rng, events)
            else:
                lines.insert(index, _line(rng, events))
    else:
        lines = [_line(rng, events) for _ in range(rng.randint(0, 12))]
    stdout = b"".join(lines)
    if stdout and rng.random() < 0.2:
        stdout = stdout.rstrip(b"\n")
    stderr = b""
    if rng.random() < 0.3:
        stderr = b"Error: " + b"e" * rng.choice([10, 70_000]) + b"\n"
    returncode = rng.choice([0, 0, 0, 0, 0, 1, 2, -9, -15])
    return CliRun(stdout=stdout, stderr=stderr, returncode=returncode)


Drive = Callable[[CliRun], Any]


async def _claude(run: CliRun) -> CliResult[Any]:
    cognition = ClaudeCliCognition(FakeClaudeCli([run]), timeout=5, kill_grace=0.05, limit=LIMIT)
    return await cognition.drive(RunContext(), "fuzz")


async def _codex(run: CliRun) -> CliResult[Any]:
    cognition = CodexCliCognition(FakeCodexCli([run]), timeout=5, kill_grace=0.05, limit=LIMIT)
    return await cognition.drive(RunContext(), "fuzz")


def _bad_result(result: object) -> str | None:
    if not isinstance(result, CliResult):
        return f"drive() returned {type(result).__name__}"
    error: object = result.error
    if error is not None and not isinstance(error, CliError):
        return f"error is {type(error).__name__}"
    figures = [result.cost_usd, *(getattr(result.usage, f) for f in result.usage.__slots__)]
    if not all(isinstance(v, int | float) and math.isfinite(v) and v >= 0 for v in figures):
        return f"unusable figures on a result (ok={result.ok}): {result!r}"
    return None


async def fuzz(n: int, seed: int, bound: float) -> dict[str, Any]:
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    samples: list[str] = []
    for index in range(n):
        cli, events, drive = (
            ("claude", _CLAUDE_EVENTS, _claude)
            if index % 2 == 0
            else ("codex", _CODEX_EVENTS, _codex)
        )
        run = make_run(rng, events)
        try:
            result = await asyncio.wait_for(drive(run), bound)
        except TimeoutError:
            counts["hangs"] += 1
            samples.append(f"hang ({cli}): {run.stdout[:200]!r}")
            continue
        except Exception:
            counts["raw exceptions"] += 1
            samples.append(f"raw exception ({cli}): {traceback.format_exc(limit=3)}")
            continue
        problem = _bad_result(result)
        if problem is not None:
            counts["bad ok"] += 1
            samples.append(f"{cli}: {problem}")
        error = result.error
        outcome = "ok" if error is None else error.code if error.kind != "reported" else "reported"
        codes[f"{cli}:{outcome}"] += 1
    return {"counts": counts, "codes": codes, "samples": samples}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=15000, help="streams to run (default 15000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bound", type=float, default=10.0, help="seconds before a hang")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    report = asyncio.run(fuzz(args.n, args.seed, args.bound))
    elapsed = time.perf_counter() - started
    counts: Counter[str] = report["counts"]
    print(f"streams: {args.n} (seed {args.seed}), {elapsed:.1f} s")
    for name in ("raw exceptions", "hangs", "bad ok"):
        print(f"{name}: {counts[name]}")
    print("outcomes:", ", ".join(f"{k}={v}" for k, v in sorted(report["codes"].items())))
    for sample in report["samples"][:5]:
        print("---", sample)
    return 1 if sum(counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
