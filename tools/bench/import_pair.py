"""Cold imports of two environments, side by side in the same rounds: before and after.

A change that moves import time is judged against the code before it, and
two runs of ``python -m tools.bench --only imports`` taken minutes apart on a
shared machine differ by more than the change (the floor itself moved from
37 to 73 ms of CPU between quiet and busy hours). This runs the same
contenders (:data:`tools.bench.imports.CONTENDERS`, the peers left out) in
two interpreters -- ``--before``, a virtual environment holding the old
checkout, and this one -- interleaved in one shuffled order per round, and
gives each side's median of per-round ratios to its own floor.

    uv run python -m tools.bench.import_pair --before /tmp/old-venv/bin/python

Build the old environment from a checkout of the old commit outside this
repository (``git archive <commit> | tar -x -C /tmp/old`` and ``uv sync``
there with ``UV_PROJECT_ENVIRONMENT=/tmp/old-venv``).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile

from tools.bench.imports import CONTENDERS, Contender, _child_env, _run_once
from tools.bench.stats import median

__all__ = ["main", "paired_ratios"]


def paired_ratios(
    before: str, after: str, contenders: tuple[Contender, ...], rounds: int, seed: int = 1
) -> dict[str, tuple[float, float]]:
    """``{label: (before ratio, after ratio)}``, each the median of per-round ratios to its floor."""
    env = _child_env()
    floor = contenders[0]
    sides = {"before": before, "after": after}
    cpu: dict[tuple[str, str], list[float]] = {
        (side, c.label): [] for side in sides for c in contenders
    }
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="agentkit-bench-") as cwd:
        for python in sides.values():  # warm-up: compile and cache the bytecode
            for contender in contenders:
                _run_once(contender.statement, cwd, env, python)
        for _ in range(rounds):
            order = [(side, c) for side in sides for c in contenders]
            rng.shuffle(order)
            for side, contender in order:
                cpu[side, contender.label].append(
                    _run_once(contender.statement, cwd, env, sides[side])[0]
                )

    def ratio(side: str, label: str) -> float:
        paired = zip(cpu[side, label], cpu[side, floor.label], strict=True)
        return median([x / f for x, f in paired])

    return {c.label: (ratio("before", c.label), ratio("after", c.label)) for c in contenders}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.import_pair")
    parser.add_argument("--before", required=True, help="the python of the old environment")
    parser.add_argument("--after", default=sys.executable, help="default: this interpreter")
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args(argv)
    ours = tuple(c for c in CONTENDERS if c.label.startswith(("stdlib", "agentkit")))
    ratios = paired_ratios(args.before, args.after, ours, args.rounds)
    print(f"cold import, CPU time, median of {args.rounds} paired rounds (ratio to the floor)\n")
    print("| contender | before | after | target | after meets it |")
    print("| --- | --- | --- | --- | --- |")
    for contender in ours:
        old, new = ratios[contender.label]
        limit = "" if contender.limit is None else f"<= {contender.limit:g}x"
        verdict = "" if contender.limit is None else ("yes" if new <= contender.limit else "NO")
        print(f"| {contender.label} | {old:.2f}x | {new:.2f}x | {limit} | {verdict} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
