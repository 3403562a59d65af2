"""Run the benchmarks and print one table of medians and ratios.

    uv run --group bench python -m tools.bench            # the full run
    uv run --group bench python -m tools.bench --quick    # smoke run, well under a minute

Every section runs in this one process invocation, side by side, so the
figures in a table were taken on the same machine in the same minutes.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tools.bench.peers import missing_peers
from tools.bench.stats import Row, format_table

__all__ = ["Plan", "main"]

SECTIONS = ("imports", "scripted", "stream", "replay", "api", "model_recording")


@dataclass(frozen=True, slots=True)
class Plan:
    """How many repetitions each section takes; ``--quick`` is the small one."""

    import_runs: int
    scripted_runs: int
    stream_runs: int
    stream_chunks: int
    replay_runs: int
    replay_bytes: int
    api_rounds: int = 20
    api_batch: int = 50
    model_recording_runs: int = 1000

    @classmethod
    def full(cls) -> Plan:
        return cls(
            import_runs=40,
            scripted_runs=2000,
            stream_runs=30,
            stream_chunks=20_000,
            replay_runs=5,
            replay_bytes=50 * 1000 * 1000,
        )

    @classmethod
    def quick(cls) -> Plan:
        return cls(
            import_runs=10,
            scripted_runs=100,
            stream_runs=5,
            stream_chunks=2_000,
            replay_runs=2,
            replay_bytes=5 * 1000 * 1000,
            api_rounds=3,
            api_batch=20,
            model_recording_runs=100,
        )


def _machine() -> str:
    return (
        f"python {platform.python_version()} ({platform.python_implementation()}) on "
        f"{platform.system()} {platform.machine()}, nproc {os.cpu_count()}, "
        f"executable {sys.executable}"
    )


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tools.bench",
        description="agentkit's test doubles against pydantic-ai and langchain-core.",
    )
    parser.add_argument(
        "--quick", action="store_true", help="few repetitions and a 5 MB recording (smoke run)"
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=SECTIONS,
        help="run only this section (repeatable); default: all",
    )
    parser.add_argument(
        "--strict", action="store_true", help="exit 2 when a target is missed (default: report)"
    )
    parser.add_argument(
        "--output",
        metavar="PATH",
        help="also write the report (machine line, table, notes) to PATH as Markdown",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chosen sections, print the table.

    Exit status: 1 if a peer is not installed (nothing is measured) or a
    contender could not be measured; 2 with ``--strict`` if a target is
    missed; else 0.
    """
    args = _parse(argv)
    plan = Plan.quick() if args.quick else Plan.full()
    chosen = tuple(args.only) if args.only else SECTIONS
    missing = missing_peers()
    if missing:
        for exc in missing:
            print(f"error: {exc}", file=sys.stderr)
        return 1
    headline = f"agentkit bench ({'quick' if args.quick else 'full'}): {_machine()}"
    print(headline, flush=True)
    rows: list[Row] = []
    notes: list[str] = []

    def section(name: str, run: Callable[[], tuple[list[Row], list[str]]]) -> None:
        if name not in chosen:
            return
        start = time.perf_counter()
        print(f"  running {name} ...", end="", flush=True)
        got, extra = run()
        rows.extend(got)
        notes.extend(extra)
        print(f" {time.perf_counter() - start:.1f} s", flush=True)

    section("imports", lambda: _imports(plan))
    section("scripted", lambda: _scripted(plan))
    section("stream", lambda: _stream(plan))
    section("replay", lambda: _replay(plan))
    section("api", lambda: _api(plan))
    section("model_recording", lambda: _model_recording(plan))
    judged = [row for row in rows if row.target is not None]
    missed = [row for row in judged if row.target is not None and not row.target.met]
    errors = [row for row in rows if row.error is not None]
    summary = (
        f"targets: {len(judged) - len(missed)}/{len(judged)} met"
        + (f"; missed: {', '.join(r.name for r in missed)}" if missed else "")
        + (f"; {len(errors)} contender(s) could not be measured" if errors else "")
        + (" (quick run: too few repetitions for the verdicts to mean much)" if args.quick else "")
    )
    body = "\n\n".join(
        part for part in (format_table(rows), "\n".join(f"- {n}" for n in notes), summary) if part
    )
    print()
    print(body)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(f"{headline}\n\n{body}\n")
    if errors:
        return 1
    if missed and args.strict:
        return 2
    return 0


def _imports(plan: Plan) -> tuple[list[Row], list[str]]:
    from tools.bench.imports import measure_imports

    rows, diagnoses = measure_imports(plan.import_runs)
    return rows, [d.render() for d in diagnoses]


def _scripted(plan: Plan) -> tuple[list[Row], list[str]]:
    from tools.bench.scripted import measure_scripted

    return measure_scripted(plan.scripted_runs), []


def _stream(plan: Plan) -> tuple[list[Row], list[str]]:
    from tools.bench.streaming import measure_streaming

    return measure_streaming(plan.stream_runs, plan.stream_chunks), []


def _replay(plan: Plan) -> tuple[list[Row], list[str]]:
    from tools.bench.replay import measure_replay

    return measure_replay(plan.replay_runs, plan.replay_bytes)


def _api(plan: Plan) -> tuple[list[Row], list[str]]:
    from tools.bench.api_peers import measure_api_peers

    return measure_api_peers(plan.api_rounds, plan.api_batch), []


def _model_recording(plan: Plan) -> tuple[list[Row], list[str]]:
    from tools.bench.model_recording import measure_model_recording

    return measure_model_recording(plan.model_recording_runs), []
