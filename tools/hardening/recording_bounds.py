"""The memory a recording costs: capturing a runaway CLI, and loading a huge recording.

Usage::

    uv run --frozen python -m tools.hardening.recording_bounds            # ≈30 s
    uv run --frozen python -m tools.hardening.recording_bounds --gib 0.25 # smaller

Each measurement runs in a child process of its own, so its peak resident
size (``VmHWM``) is its own and not the previous one's:

* ``plain`` -- a real child writing ``--gib`` GiB without a newline, then a
  result line, read through agentkit's ``default_spawn`` the way the
  cognition reads it (64 MiB line limit), no capture: the yardstick;
* ``capture`` -- the same through :class:`CapturingSpawn`: the recording
  must keep ``limit + 1`` bytes of the line and say what it cut, and the
  peak must stay near the yardstick's, not grow with the line;
* ``load`` -- ``load_recording`` of a million-line (31 MB) recording:
  seconds and peak growth over the file's size;
* ``gate`` -- ``find_secrets`` over the same file: seconds.

Exit status 1 when the capture's peak exceeds the yardstick's by more than
four times the line limit (the kept line, the reader's buffer, the copy the
recording is built from, the scrubber's lowercase copy -- a few times the
limit, never the line), or loading peaks above 4 times the file.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LIMIT = 64 * 1024 * 1024

_CHILD = (
    "import sys\n"
    "chunk = b'x' * (1 << 20)\n"
    "for _ in range({mib}): sys.stdout.buffer.write(chunk)\n"
    'sys.stdout.buffer.write(b\'\\n{{"type":"result"}}\\n\')\n'
)


def _peak_mib() -> float:
    """This process's peak resident size (VmHWM).

    Not ``ru_maxrss``: Linux carries it over from the parent across fork and
    exec, so a child would report the parent's peak.
    """
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def _read(capture: bool, mib: int) -> dict[str, object]:
    from agentkit.agents.cognition import default_spawn
    from agentkit.fakes.cli import CapturingSpawn

    spawner = CapturingSpawn(default_spawn, cli="claude") if capture else default_spawn
    started = time.perf_counter()
    process = await spawner(
        sys.executable,
        "-c",
        _CHILD.format(mib=mib),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        limit=LIMIT,
    )
    assert process.stdout is not None
    refused = 0
    while True:
        try:
            line = await process.stdout.readline()
        except ValueError:
            refused += 1
            continue
        if not line:
            break
    await process.wait()
    out: dict[str, object] = {
        "seconds": round(time.perf_counter() - started, 2),
        "peak_mib": round(_peak_mib()),
        "refused": refused,
    }
    if isinstance(spawner, CapturingSpawn):
        (recording,) = spawner.recordings
        out["kept_mib"] = round(len(recording.run.stdout) / 2**20, 1)
        out["notes"] = list(recording.notes)
    return out


def _child(step: str, mib: int, path: str) -> dict[str, object]:
    if step in ("plain", "capture"):
        return asyncio.run(_read(step == "capture", mib))
    from agentkit.fakes.cli import find_secrets, load_recording

    data_size = os.path.getsize(path)
    base = _peak_mib()
    started = time.perf_counter()
    if step == "load":
        load_recording(path)
    else:
        find_secrets(Path(path).read_bytes())
    return {
        "seconds": round(time.perf_counter() - started, 2),
        "peak_growth_mib": round(_peak_mib() - base),
        "file_mib": round(data_size / 2**20, 1),
    }


def _measure(step: str, mib: int, path: str) -> dict[str, object]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tools.hardening.recording_bounds",
            "--child",
            step,
            "--mib",
            str(mib),
            "--path",
            path,
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.hardening.recording_bounds")
    parser.add_argument("--gib", type=float, default=1.0, help="size of the runaway line")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--mib", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--path", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(_child(args.child, args.mib, args.path)))
        return 0
    mib = max(1, int(args.gib * 1024))
    with tempfile.TemporaryDirectory(prefix="agentkit-bounds-") as root:
        from agentkit.fakes.cli import CliRun, Recording, save_recording

        path = Path(root) / "million.jsonl"
        stdout = b'{"type":"assistant","i":12345}\n' * 1_000_000
        save_recording(Recording(cli="claude", argv=("claude",), run=CliRun(stdout=stdout)), path)
        del stdout
        plain = _measure("plain", mib, str(path))
        capture = _measure("capture", mib, str(path))
        load = _measure("load", mib, str(path))
        gate = _measure("gate", mib, str(path))
    print(f"a {mib} MiB line without a newline, read with a {LIMIT >> 20} MiB limit:")
    print(f"  plain:   {plain}")
    print(f"  capture: {capture}")
    print(f"million-line recording: load {load}")
    print(f"                        gate {gate}")
    bad = []
    plain_peak, capture_peak = plain["peak_mib"], capture["peak_mib"]
    assert isinstance(plain_peak, int)
    assert isinstance(capture_peak, int)
    if capture_peak > plain_peak + 4 * (LIMIT >> 20):
        bad.append("the capture's peak grows with the line")
    growth, file_mib = load["peak_growth_mib"], load["file_mib"]
    assert isinstance(growth, int)
    assert isinstance(file_mib, float)
    if growth > 4 * file_mib:
        bad.append("loading peaks above 4 times the file")
    for problem in bad:
        print(f"FAIL: {problem}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
