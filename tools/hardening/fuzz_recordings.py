"""Fuzz the recording file format: every damaged file is a named RecordingError, never a crash.

Usage::

    uv run --frozen python -m tools.hardening.fuzz_recordings --n 3000 [--seed 1]

Each case takes one of the recordings agentkit-fakes-cli ships and damages
it: a byte flipped or dropped, a line deleted, duplicated or cut short, the
file truncated, a marker renamed or its JSON broken, deep nesting put in a
``#stdout``/``#stdin`` marker or a stdout line, a header field or the exit
code replaced by a wrong type, a negative or enormous number, runs of the
redaction marker put in argv and stdin. The file then goes through what a
user runs on it: ``load_recording``, the transcript ``show`` prints, the
secret scan (``find_secrets``), and a replay with ``check_input=True`` fed
the recording's own argv and stdin. Counted as failures:

* ``escapes`` -- any exception but a ``RecordingError`` (or the double's
  own refusals, which are its job: a ``ReplayMismatch`` from the input
  check, ``ScriptExhausted`` for a session message a damaged recording has
  no answer for);
* ``hangs`` -- a case not back within ``--bound`` seconds.

Prints the figures and the first few failures; exits 1 if any were found.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import agentkit.fakes.cli as cli
from agentkit.fakes.cli import (
    FakeClaudeCli,
    FakeCodexCli,
    RecordingError,
    ReplayMismatch,
    ScriptExhausted,
    find_secrets,
    load_recording,
)
from agentkit.fakes.cli._recording._transcript import transcript
from tools.hardening.driving import drive

PIPE = asyncio.subprocess.PIPE


def _shipped() -> list[bytes]:
    root = Path(cli.__file__).parent / "recordings"
    return [path.read_bytes() for path in sorted(root.glob("*/*.jsonl"))]


def _mutations(rng: random.Random) -> dict[str, Callable[[list[bytes]], list[bytes]]]:
    deep = rng.choice([b"[" * 5000, b'{"a":' * 3000, b"[" * 200_000])

    def header_field(lines: list[bytes]) -> list[bytes]:
        header = json.loads(lines[0])
        key = rng.choice(
            ["agentkit_recording", "cli", "argv", "cwd", "env_names", "source", "notes"]
        )
        header[key] = rng.choice([-7, 0, 10**100, None, "x", [1], {"a": 1}, True, 1.5])
        return [json.dumps(header).encode(), *lines[1:]]

    def exit_code(lines: list[bytes]) -> list[bytes]:
        value = rng.choice(["10" * 60, "-1e400", "NaN", "true", '"0"', "1.0", "[]", "-9999999999"])
        return [*lines[:-1], b'#end {"exit_code": ' + value.encode() + b"}"]

    def markers(lines: list[bytes]) -> list[bytes]:
        runs = json.dumps("[REDACTED]" * rng.randint(20, 200) + "x")
        header = json.loads(lines[0])
        header["argv"] = [*header.get("argv", []), json.loads(runs)]
        return [json.dumps(header).encode(), b"#stdin " + runs.encode(), *lines[1:]]

    def at(lines: list[bytes]) -> int:
        return rng.randrange(len(lines))

    return {
        "flip a byte": lambda ls: _flip(ls, rng),
        "drop a line": lambda ls: [line for i, line in enumerate(ls) if i != at(ls)],
        "duplicate a line": lambda ls: [*ls[: (i := at(ls))], ls[i], *ls[i:]],
        "cut a line": lambda ls: [*ls[: (i := at(ls))], ls[i][: len(ls[i]) // 2], *ls[i + 1 :]],
        "rename a marker": lambda ls: [
            line.replace(b"#stderr", rng.choice([b"#stdrr", b"#", b"#end"]), 1) for line in ls
        ],
        "deep #stdout": lambda ls: [
            *ls[:1],
            b"#stdout " + json.dumps(deep.decode()).encode(),
            *ls[1:],
        ],
        "deep #stdin": lambda ls: [
            *ls[:1],
            b"#stdin " + json.dumps(deep.decode()).encode(),
            *ls[1:],
        ],
        "deep stdout line": lambda ls: [*ls[:1], deep, *ls[1:]],
        "header field": header_field,
        "exit code": exit_code,
        "redaction markers": markers,
    }


def _flip(lines: list[bytes], rng: random.Random) -> list[bytes]:
    i = rng.randrange(len(lines))
    line = bytearray(lines[i])
    if line:
        line[rng.randrange(len(line))] = rng.randrange(256)
    return [*lines[:i], bytes(line), *lines[i + 1 :]]


async def _replay(path: Path) -> None:
    recording = load_recording(path)
    double = (FakeClaudeCli if recording.cli == "claude" else FakeCodexCli).replay(
        path, check_input=True, verify=False
    )
    process = await double(*recording.argv, stdin=PIPE, stdout=PIPE, stderr=PIPE)
    await drive(process, recording.stdin_messages)


def _one(path: Path) -> None:
    try:
        load_recording(path)
    except RecordingError:
        return
    transcript(load_recording(path))
    find_secrets(path.read_bytes())
    # The double's own refusals are its job: a mismatched input, or a session
    # message the damaged recording has no answer for.
    with contextlib.suppress(RecordingError, ReplayMismatch, ScriptExhausted):
        asyncio.run(_replay(path))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.hardening.fuzz_recordings")
    parser.add_argument("--n", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bound", type=float, default=20.0, help="seconds per case")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    sources = _shipped()
    kinds: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    failures: list[str] = []
    started = time.perf_counter()
    slowest = 0.0
    with tempfile.TemporaryDirectory() as root:
        for number in range(args.n):
            mutations = _mutations(rng)
            kind = rng.choice(sorted(mutations))
            kinds[kind] += 1
            lines = rng.choice(sources).rstrip(b"\n").split(b"\n")
            try:
                damaged = mutations[kind](lines)
            except (ValueError, KeyError, IndexError):
                continue
            data = b"\n".join(damaged) + (b"\n" if rng.random() < 0.9 else b"")
            path = Path(root) / f"case-{number}.jsonl"
            path.write_bytes(data)
            box: list[BaseException | None] = []

            def target(path: Path = path, box: list[BaseException | None] = box) -> None:
                try:
                    _one(path)
                except BaseException as error:  # counted: anything but a named refusal
                    box.append(error)
                else:
                    box.append(None)

            began = time.perf_counter()
            worker = threading.Thread(target=target, daemon=True)
            worker.start()
            worker.join(args.bound)
            slowest = max(slowest, time.perf_counter() - began)
            if worker.is_alive():
                outcomes["hangs"] += 1
                failures.append(f"hang: {kind} (case {number})")
            elif box[0] is not None:
                outcomes["escapes"] += 1
                exc = box[0]
                lines_out = traceback.format_exception_only(type(exc), exc)
                failures.append(
                    f"escape: {kind} (case {number}): {''.join(lines_out).strip()[:300]}"
                )
            else:
                outcomes["ok"] += 1
            path.unlink()
    elapsed = time.perf_counter() - started
    print(
        f"{args.n} damaged recordings (seed {args.seed}) in {elapsed:.1f} s, slowest {slowest:.2f} s"
    )
    print("  by mutation: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    print(f"  escapes (not a RecordingError): {outcomes['escapes']}")
    print(f"  hangs (over {args.bound:g} s): {outcomes['hangs']}")
    for failure in failures[:10]:
        print("  " + failure)
    return 1 if outcomes["escapes"] or outcomes["hangs"] else 0


if __name__ == "__main__":
    sys.exit(main())
