"""``python -m tools.parity [--claude V] [--codex V | --latest] [--refresh | --record-to DIR] [--only KEY ...]``.

The real-binary parity suite. By default it runs the pinned releases;
``--claude`` / ``--codex`` name other ones and ``--latest`` asks the npm
registry for the newest (each unpinned tarball is checked against the
registry's own integrity hash). ``--record-to DIR`` writes every passing
scenario's recording under ``DIR`` (for a drift report against the shipped
ones: ``python -m tools.parity.drift``) instead of the shipped folder.

Exit status: 0 every scenario passed; 1 a scenario failed (its check, or
real != replay); 2 the suite could not be set up (a tarball that does not
match its pinned sha256, a constructor option no scenario exercises, a bad
argument); :data:`EXIT_SKIPPED` (77) the pinned binaries could not be
fetched from the npm registry -- the one line printed says so, and CI
reports the suite as skipped, never as passed. 77 also when scenarios were
left out because no loopback-only network namespace was available and their
CLI reaches past loopback (and nothing that did run failed).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from tools.parity import binaries, isolation
from tools.parity.record_modes import run_record_modes
from tools.parity.runner import (
    RECORDINGS_DIR,
    Outcome,
    default_work_root,
    method_keywords,
    run_scenario,
    unexercised_options,
)
from tools.parity.scenarios import SCENARIOS, Scenario, by_name

RECORD_MODES = "record-modes"
"""``--only record-modes``: the ``cli_recording`` workflow check (:mod:`.record_modes`)."""

EXIT_SKIPPED = 77
"""The registry (or npm) was unreachable: the suite did not run (automake's "skipped")."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.parity",
        description="Run the claude and codex cognitions against the pinned real CLIs "
        "and against their replayed recordings, and compare.",
    )
    parser.add_argument(
        "--refresh",
        action="store_true",
        help=f"write each passing scenario's recording under {RECORDINGS_DIR}",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="KEY",
        help="run only these scenarios (claude/tool-use, codex, ...; record-modes: the "
        "cli_recording workflow check)",
    )
    parser.add_argument("--jobs", type=int, default=4, help="scenarios run at once (default 4)")
    parser.add_argument(
        "--claude", metavar="VERSION", help="run this claude release (default: the pin)"
    )
    parser.add_argument(
        "--codex", metavar="VERSION", help="run this codex release (default: the pin)"
    )
    parser.add_argument(
        "--latest",
        action="store_true",
        help="run the newest releases on the npm registry (a version given explicitly wins)",
    )
    parser.add_argument(
        "--record-to",
        metavar="DIR",
        type=Path,
        help="write each passing scenario's recording under DIR/<cli>/ (not the shipped folder)",
    )
    parser.add_argument(
        "--no-isolation",
        action="store_true",
        help="do not enter a loopback-only network namespace",
    )
    parser.add_argument(
        "--allow-network",
        action="store_true",
        help="outside a namespace, run the scenarios of CLIs that reach past loopback too",
    )
    return parser


def _releases(args: argparse.Namespace) -> dict[str, binaries.PinnedBinary] | int:
    chosen: dict[str, binaries.PinnedBinary] = {}
    for cli in binaries.PINNED:
        version: str | None = getattr(args, cli)
        if version is None and not args.latest:
            chosen[cli] = binaries.PINNED[cli]
            continue
        try:
            chosen[cli] = binaries.release(cli, version)
        except binaries.RegistryUnreachable as exc:
            print(f"parity: SKIPPED -- the CLI releases cannot be looked up on npm: {exc}")
            return EXIT_SKIPPED
        except ValueError as exc:
            print(f"parity: ERROR -- {exc}", file=sys.stderr)
            return 2
    return chosen


def _pinned_argv(argv: Sequence[str] | None, pins: dict[str, binaries.PinnedBinary]) -> list[str]:
    """The arguments again, with the releases resolved here named exactly (no registry
    look-up is possible inside the loopback-only namespace)."""
    given = [a for a in (argv if argv is not None else sys.argv[1:]) if a != "--latest"]
    for cli, pin in pins.items():
        if not pin.pinned and f"--{cli}" not in given:
            given += [f"--{cli}", pin.cli_version]
    return given


def _fetch(pins: dict[str, binaries.PinnedBinary]) -> dict[str, Path] | int:
    found: dict[str, Path] = {}
    for cli, pin in pins.items():
        try:
            found[cli] = binaries.fetch(pin)
        except binaries.RegistryUnreachable as exc:
            print(f"parity: SKIPPED -- the pinned CLIs cannot be fetched from npm: {exc}")
            return EXIT_SKIPPED
        except ValueError as exc:
            print(f"parity: ERROR -- {exc}", file=sys.stderr)
            return 2
    return found


def _report(outcome: Outcome) -> None:
    status = "PASS" if outcome.passed else "FAIL"
    spawns = len(outcome.recordings)
    print(
        f"{status} {outcome.scenario.key:<28} real {outcome.real_seconds:5.1f}s  "
        f"replay {outcome.replay_seconds:5.2f}s  spawns {spawns}"
    )
    print(f"     {outcome.headline()}")
    for problem in outcome.problems:
        print(f"     check: {problem}")
    for difference in outcome.differences:
        print(f"     real != replay: {difference}")
    if outcome.written is not None:
        print(f"     wrote {outcome.written}")


async def _run_all(
    scenarios: Sequence[Scenario],
    found: dict[str, Path],
    *,
    refresh: bool,
    jobs: int,
    pins: dict[str, binaries.PinnedBinary],
    record_to: Path | None,
) -> list[Outcome]:
    gate = asyncio.Semaphore(max(1, jobs))
    work_root = default_work_root()

    async def one(scenario: Scenario) -> Outcome:
        async with gate:
            outcome = await run_scenario(
                scenario,
                binaries=found,
                work_root=work_root,
                refresh=refresh or record_to is not None,
                recordings_dir=record_to if record_to is not None else RECORDINGS_DIR,
                pins=pins,
            )
            _report(outcome)
            return outcome

    # A scenario that runs on the process environment has it to itself: after the others.
    outcomes = list(await asyncio.gather(*(one(s) for s in scenarios if not s.inherit_env)))
    for scenario in scenarios:
        if scenario.inherit_env:
            outcomes.append(await one(scenario))
    return outcomes


def _chosen(args: argparse.Namespace) -> tuple[Scenario, ...] | int:
    """The scenarios the arguments name, or the exit code of arguments that do not add up."""
    keys = [k for k in args.only or () if k != RECORD_MODES]
    try:
        scenarios = by_name(keys) if args.only else SCENARIOS
    except KeyError as exc:
        print(f"parity: {exc.args[0]}", file=sys.stderr)
        return 2
    if not args.only:
        missing = unexercised_options(scenarios)
        if missing:
            print(
                "parity: ERROR -- constructor options no scenario exercises against the real "
                f"binary: {', '.join(missing)}; add them to a scenario in tools/parity/scenarios.py",
                file=sys.stderr,
            )
            return 2
    if args.refresh and args.record_to is not None:
        print("parity: --refresh and --record-to exclude each other", file=sys.stderr)
        return 2
    return scenarios


def _reachable(
    scenarios: tuple[Scenario, ...], args: argparse.Namespace
) -> tuple[tuple[Scenario, ...], list[Scenario]]:
    """The scenarios that may run here, and those skipped: outside a namespace, a CLI that
    reaches the network by itself runs only under --allow-network."""
    if isolation.isolated():
        return scenarios, []
    clis, reason = isolation.outside_namespace(
        {s.cli for s in scenarios}, allow_network=args.allow_network
    )
    skipped = [s for s in scenarios if s.cli in clis]
    if skipped:
        print(
            f"parity: SKIPPED {len(skipped)} scenario(s) of {', '.join(sorted(clis))} -- "
            f"no loopback-only namespace and {reason}; --allow-network runs them anyway"
        )
    return tuple(s for s in scenarios if s not in skipped), skipped


def _record_modes_failed(found: dict[str, Path], args: argparse.Namespace) -> bool:
    """Run cli_recording's record-once-then-replay check (where codex may run) and report it."""
    if not (isolation.isolated() or args.allow_network):
        print(f"parity: SKIPPED {RECORD_MODES} -- it runs codex, and there is no namespace")
        return False
    modes = run_record_modes(found, default_work_root())
    print(
        f"{'PASS' if modes.passed else 'FAIL'} {RECORD_MODES:<28} "
        f"real {modes.seconds:5.1f}s  cli_recording: record once, replay, "
        "a changed prompt, a missing recording"
    )
    for problem in modes.problems:
        print(f"     check: {problem}")
    return not modes.passed


def _unused_keywords(outcomes: list[Outcome]) -> list[str]:
    """The method keywords no scenario used against the real binary (reported as a failure)."""
    used = set().union(*(o.keywords for o in outcomes))
    unused = sorted(method_keywords() - used)
    if unused:
        print(f"parity: FAIL -- keywords no scenario used against the real binary: {unused}")
    return unused


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    record_modes = not args.only or RECORD_MODES in args.only
    scenarios = _chosen(args)
    if isinstance(scenarios, int):
        return scenarios
    started = time.monotonic()
    pins = _releases(args)
    if isinstance(pins, int):
        return pins
    found = _fetch(pins)
    if isinstance(found, int):
        return found
    print(
        "parity: releases "
        + ", ".join(
            f"{cli} {pin.cli_version}{'' if pin.pinned else ' (unpinned)'}"
            for cli, pin in pins.items()
        )
    )
    fetched = time.monotonic() - started

    if not isolation.isolated() and not args.no_isolation:
        prefix, why = isolation.namespace_prefix()
        if prefix is not None:
            print(f"parity: binaries ready in {fetched:.1f}s; entering a loopback-only namespace")
            return isolation.reexec_isolated(prefix, _pinned_argv(argv, pins))
        print(f"parity: NOTE network namespace unavailable ({why}); environment isolation only")
    scenarios, skipped = _reachable(scenarios, args)

    print(f"parity: the CLIs run under {default_work_root()}")
    outcomes = asyncio.run(
        _run_all(
            scenarios,
            found,
            refresh=args.refresh,
            jobs=args.jobs,
            pins=pins,
            record_to=args.record_to,
        )
    )
    failed = [o for o in outcomes if not o.passed]
    modes_failed = _record_modes_failed(found, args) if record_modes else False
    took = time.monotonic() - started
    unused = _unused_keywords(outcomes) if not args.only and not skipped else []
    print(
        f"parity: {len(outcomes) - len(failed)}/{len(outcomes)} scenarios passed in {took:.1f}s"
        + (f"; FAILED: {', '.join(o.scenario.key for o in failed)}" if failed else "")
    )
    if failed or unused or modes_failed:
        return 1
    return EXIT_SKIPPED if skipped else 0


if __name__ == "__main__":
    sys.exit(main())
