"""One scenario, twice: the real cognition over the real binary, then over the replay.

1. A fresh :class:`~agentkit.fakes.api.FakeApi` serves the scenario's
   model (a strict FakeLLM script) on loopback as the Anthropic and OpenAI
   APIs; the CLI gets a fresh home and project directory.
2. The REAL cognition (``ClaudeCliCognition`` / ``CodexCliCognition``) runs
   with the real ``default_spawn`` wrapped in the capture wrapper, which
   records every spawn it makes.
3. Each recording is saved to bytes and loaded back (the shipped file's
   round trip), and the same play runs again with the same options, this
   time with ``FakeClaudeCli`` / ``FakeCodexCli`` over those runs as the
   spawn.
4. The two runs' observations -- every field of every result, session
   state, and every charge the run context received -- must be equal, and
   the double must have served exactly the recorded spawns.

The scenario's own checks (the tool really ran, the 401 really failed) run
on the real side, and so does the strict verification of the server and the
script (a turn the CLI never asked for, a request nothing could answer); a
failure means the recording is not what its name says, so it is never
written.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import os
import socket
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentkit.agents.cognition import (
    ClaudeCliCognition,
    CodexCliCognition,
    default_spawn,
)
from agentkit.core.ports import SpawnPort
from agentkit.core.runtime import RunContext
from agentkit.core.types import Usage
from agentkit.fakes.api import FakeApi
from agentkit.fakes.cli import (
    CapturingSpawn,
    CliRun,
    FakeClaudeCli,
    FakeCodexCli,
    Recording,
    load_recording,
    save_recording,
)
from agentkit.fakes.ctx import make_test_ctx
from tools.parity.binaries import PINNED, PinnedBinary
from tools.parity.compare import differences, short, tool_calls
from tools.parity.environment import Workdir, claude_env, codex_env, codex_provider_args
from tools.parity.reading import check_reading
from tools.parity.scenarios import Evidence, Observation, Scenario

__all__ = [
    "COGNITIONS",
    "RECORDINGS_DIR",
    "Outcome",
    "method_keywords",
    "recording_source",
    "run_scenario",
    "unexercised_options",
]

RECORDINGS_DIR = (
    Path(__file__).resolve().parents[2]
    / "packages/agentkit-fakes-cli/src/agentkit/fakes/cli/recordings"
)
"""Where ``--refresh`` writes ``<cli>/<scenario>.jsonl``."""

COGNITIONS: Mapping[str, type[Any]] = {"claude": ClaudeCliCognition, "codex": CodexCliCognition}
ALWAYS_PASSED = frozenset({"spawn", "executable", "env", "cwd"})
"""Constructor keywords the runner passes on every run, whatever the scenario."""

SCENARIO_TIMEOUT = 180.0
"""Seconds a whole scenario (all its spawns) may take before it is abandoned."""


class ChargeLog:
    """A run-context meter: every charge, in order (usage, cost, model)."""

    def __init__(self) -> None:
        self.charges: list[tuple[Usage, float, str]] = []

    def record(self, usage: Usage, cost_usd: float, *, model: str) -> None:
        self.charges.append((usage, cost_usd, model))


@dataclass
class Outcome:
    scenario: Scenario
    problems: list[str] = field(default_factory=list)
    """The real run is not what the scenario claims (never written)."""
    differences: list[str] = field(default_factory=list)
    """Real and replay disagree: a bug in a double, the capture, or the cognition."""
    recordings: list[Recording] = field(default_factory=list)
    real_seconds: float = 0.0
    replay_seconds: float = 0.0
    observations: list[Observation] = field(default_factory=list)
    written: Path | None = None
    keywords: set[str] = field(default_factory=set)
    """``Class.method(keyword=...)`` the real run called the cognition with."""

    @property
    def passed(self) -> bool:
        return not self.problems and not self.differences

    def headline(self) -> str:
        """What the real run produced, in one line for the report."""
        parts: list[str] = []
        for label, value in self.observations:
            if hasattr(value, "error") and hasattr(value, "text"):
                error = getattr(value, "error", None)
                usage = getattr(value, "usage", None)
                bits = [
                    f"text={short(getattr(value, 'text', ''), 44)}",
                    f"error={error.code if error is not None else None}",
                    f"id={str(getattr(value, 'session_id', None))[:13]}",
                    f"cost={getattr(value, 'cost_usd', 0.0):.6f}",
                ]
                if isinstance(usage, Usage):
                    bits.append(f"tokens={usage.input_tokens}/{usage.output_tokens}")
                calls = tool_calls(value)
                if calls:
                    bits.append(f"tools={calls}")
                parts.append(f"{label}: " + " ".join(bits))
        return "; ".join(parts)


def recording_source(scenario: Scenario, pin: PinnedBinary) -> str:
    """The ``source`` a recording carries: what made it, from which binary, against what."""
    api = "Anthropic Messages" if scenario.cli == "claude" else "OpenAI Responses"
    return (
        f"agentkit parity suite (python -m tools.parity --refresh), scenario "
        f"{scenario.key}: {scenario.summary}. Real {pin.cli} {pin.cli_version} "
        f"(npm {pin.spec}, tarball {pin.fingerprint}) run by the real "
        f"{COGNITIONS[scenario.cli].__name__} against agentkit's FakeApi serving the "
        f"{api} API on loopback: the model's text and token counts are scripted "
        f"(a FakeLLM), the ids made up by the server; every stdout line is the CLI's own."
    )


def unexercised_options(scenarios: Sequence[Scenario]) -> list[str]:
    """Constructor keywords of each cognition that no scenario passes."""
    missing: list[str] = []
    for cli, cognition in COGNITIONS.items():
        names = [
            p.name
            for p in inspect.signature(cognition.__init__).parameters.values()
            if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        ]
        used = set(ALWAYS_PASSED)
        if cli == "codex":
            used.add("extra_args")  # the mock provider's -c options, on every run
        for scenario in scenarios:
            if scenario.cli == cli:
                used.update(scenario.options)
        missing += [f"{cognition.__name__}({name}=...)" for name in names if name not in used]
    return missing


WATCHED_METHODS = ("drive", "session")
"""The cognition methods whose keywords must each be used by some scenario."""


def method_keywords() -> set[str]:
    """Every keyword-only parameter of the watched methods, as ``Class.method(name=...)``."""
    names: set[str] = set()
    for cognition in COGNITIONS.values():
        for method in WATCHED_METHODS:
            for p in inspect.signature(getattr(cognition, method)).parameters.values():
                if p.kind is p.KEYWORD_ONLY:
                    names.add(f"{cognition.__name__}.{method}({p.name}=...)")
    return names


class _Watched:
    """A cognition that notes which keywords its ``drive`` / ``session`` were called with."""

    def __init__(self, inner: Any, used: set[str]) -> None:
        self._inner = inner
        self._used = used
        self._name = type(inner).__name__

    def _note(self, method: str, keywords: Mapping[str, object]) -> None:
        self._used.update(f"{self._name}.{method}({k}=...)" for k in keywords)

    def drive(self, ctx: RunContext, prompt: str, **keywords: Any) -> Any:
        self._note("drive", keywords)
        return self._inner.drive(ctx, prompt, **keywords)

    def session(self, ctx: RunContext, **keywords: Any) -> Any:
        self._note("session", keywords)
        return self._inner.session(ctx, **keywords)


def _refusing_url() -> str:
    """A loopback address nothing listens on: a port bound, then released."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def _link_binary(work_root: Path, cli: str, executable: Path) -> Path:
    """A stable path to the binary (recordings name it in argv) outside anyone's home."""
    bin_dir = work_root / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    link = bin_dir / cli
    if link.is_symlink() or link.exists():
        if link.resolve() == executable.resolve():
            return link
        link.unlink()
    link.symlink_to(executable)
    return link


def _factory(
    scenario: Scenario,
    spawn: SpawnPort,
    *,
    executable: Path,
    env: Mapping[str, str],
    cwd: Path,
    base_url: str,
    used: set[str],
) -> Any:
    cognition = COGNITIONS[scenario.cli]

    def make(**overrides: Any) -> Any:
        options = dict(scenario.options)
        extra = tuple(options.pop("extra_args", ()))
        extra += tuple(overrides.pop("extra_args", ()))
        if scenario.cli == "codex":
            skip = () if scenario.git_check else ("--skip-git-repo-check",)
            extra = (*codex_provider_args(base_url), *skip, *extra)
        options.update(overrides)
        built = cognition(
            spawn,
            executable=scenario.cli if scenario.inherit_env else str(executable),
            env=None if scenario.inherit_env else dict(env),
            cwd=str(cwd),
            extra_args=extra,
            **options,
        )
        return _Watched(built, used)

    return make


async def _play(scenario: Scenario, make: Any) -> tuple[list[Observation], float]:
    log = ChargeLog()
    ctx: RunContext = make_test_ctx(meters=[log])
    started = time.monotonic()
    observations = await asyncio.wait_for(scenario.play(make, ctx), SCENARIO_TIMEOUT)
    elapsed = time.monotonic() - started
    ledger = ctx.ledger
    observations = [
        *observations,
        ("charges", tuple(log.charges)),
        ("ledger", (ledger.calls, ledger.usage, ledger.cost_usd)),
    ]
    return observations, elapsed


async def run_scenario(
    scenario: Scenario,
    *,
    binaries: Mapping[str, Path],
    work_root: Path,
    refresh: bool = False,
    recordings_dir: Path = RECORDINGS_DIR,
    pins: Mapping[str, PinnedBinary] = PINNED,
) -> Outcome:
    """Run ``scenario`` real and replayed; with ``refresh``, write its recording if it passed.

    ``pins`` says which release each binary is (the recordings' header). A
    scenario with ``inherit_env`` swaps the process environment for its own
    while it runs (run it alone), and gets the caller's back at the end.
    """
    saved = dict(os.environ)
    try:
        return await _run_scenario(
            scenario,
            binaries=binaries,
            work_root=work_root,
            refresh=refresh,
            recordings_dir=recordings_dir,
            pins=pins,
        )
    finally:
        if scenario.inherit_env:
            os.environ.clear()
            os.environ.update(saved)


async def _run_scenario(
    scenario: Scenario,
    *,
    binaries: Mapping[str, Path],
    work_root: Path,
    refresh: bool,
    recordings_dir: Path,
    pins: Mapping[str, PinnedBinary],
) -> Outcome:
    pin = pins[scenario.cli]
    outcome = Outcome(scenario)
    executable = _link_binary(work_root, scenario.cli, binaries[scenario.cli])
    work = Workdir.fresh(work_root, f"{scenario.cli}-{scenario.name}")
    llm = scenario.script()
    with FakeApi(llm) as api:
        url = _refusing_url() if scenario.api_down else api.url
        env = claude_env(work, url) if scenario.cli == "claude" else codex_env(work)
        for name in scenario.env_without:
            env.pop(name, None)
        env.update(scenario.env_extra)
        if scenario.inherit_env:
            env["PATH"] = f"{executable.parent}{os.pathsep}{env.get('PATH', '')}"
            os.environ.clear()  # the caller restores it (run_scenario)
            os.environ.update(env)
        capture = CapturingSpawn(
            default_spawn,
            cli=scenario.cli,
            source=recording_source(scenario, pin),
            cli_version=pin.cli_version,
        )
        make_real = _factory(
            scenario,
            capture,
            executable=executable,
            env=env,
            cwd=work.project,
            base_url=url,
            used=outcome.keywords,
        )
        try:
            outcome.observations, outcome.real_seconds = await _play(scenario, make_real)
        except Exception as exc:
            outcome.problems.append(f"the real run raised {exc!r}")
            return outcome
        outcome.recordings = list(capture.recordings)
        stdouts = [r.run.stdout for r in outcome.recordings]
        outcome.problems += scenario.check(Evidence(outcome.observations, api, stdouts, llm))
        outcome.problems += [
            f"reading: {p}"
            for p in check_reading(scenario.cli, outcome.observations, outcome.recordings)
        ]
        base_url = url
    outcome.problems += [
        f"model API: {v}"
        for double in (api, llm)
        if double.verify_enabled
        for v in double.violations()
    ]

    if not scenario.replay:
        return outcome  # checked on the real run only; nothing to replay or ship

    # The replay reads what the shipped file holds: each recording saved, then loaded back.
    runs = [
        load_recording(save_recording(r, work.root / f"spawn-{i}.jsonl")).run
        for i, r in enumerate(outcome.recordings)
    ]

    async def replay(
        runs: Sequence[CliRun],
    ) -> tuple[list[Observation], float, FakeClaudeCli | FakeCodexCli]:
        double = FakeClaudeCli(runs) if scenario.cli == "claude" else FakeCodexCli(runs)
        make_replay = _factory(
            scenario,
            double,
            executable=executable,
            env=env,
            cwd=work.project,
            base_url=base_url,
            used=set(),
        )
        observations, seconds = await _play(scenario, make_replay)
        return observations, seconds, double

    try:
        replayed, outcome.replay_seconds, double = await replay(runs)
    except BaseException as exc:  # ScriptExhausted is a BaseException: report it, do not die
        if isinstance(exc, KeyboardInterrupt | asyncio.CancelledError):
            raise
        outcome.differences.append(f"the replay raised {exc!r}")
        return outcome
    outcome.differences += differences(outcome.observations, replayed)
    if double.remaining:
        outcome.differences.append(f"the replay left {double.remaining} recorded spawn(s) unused")
    outcome.differences += _spawn_differences(
        outcome.recordings, double.invocations, inherited=scenario.inherit_env
    )

    # A comparison that cannot fail proves nothing: the same replay with the last
    # spawn's exit code changed must be told apart from the real run.
    if runs:
        last = runs[-1]
        tampered = [*runs[:-1], dataclasses.replace(last, returncode=last.returncode + 7)]
        mutated, _, _ = await replay(tampered)
        if not differences(outcome.observations, mutated):
            outcome.differences.append(
                "the comparison did not notice a changed exit code: it compares nothing"
            )

    if refresh and outcome.passed and outcome.recordings:
        target = recordings_dir / scenario.cli / f"{scenario.name}.jsonl"
        outcome.written = save_recording(outcome.recordings[scenario.shipped], target)
    return outcome


def _spawn_differences(
    recordings: Sequence[Recording], invocations: Sequence[Any], *, inherited: bool = False
) -> list[str]:
    """How the replay's spawns differ from the real ones: argv, cwd, environment names, stdin.

    ``inherited``: the spawns passed ``env=None``, which the double records as ``{}``;
    the environment the replayed child would have had is the process's own. A
    recording names only the variables a run set (not the machine's own), so the
    replay's are counted the same way.
    """
    from agentkit.fakes.cli._recording._capture import set_names

    out: list[str] = []
    if len(recordings) != len(invocations):
        out.append(f"{len(recordings)} real spawn(s), {len(invocations)} replayed")
    for index, (real, replayed) in enumerate(zip(recordings, invocations, strict=False)):
        where = f"spawn {index}"
        if real.argv != tuple(replayed.argv):
            out.append(f"{where}: argv differ: real {real.argv} != replay {tuple(replayed.argv)}")
        if real.cwd != replayed.cwd:
            out.append(f"{where}: cwd differs: real {real.cwd!r} != replay {replayed.cwd!r}")
        names = tuple(sorted(set_names(None if inherited and not replayed.env else replayed.env)))
        if real.env_names != names:
            out.append(
                f"{where}: environment names differ: real {real.env_names} != replay {names}"
            )
        written = b"".join(chunk for _, chunk in real.stdin)
        if written != bytes(replayed.stdin):
            out.append(
                f"{where}: stdin differs: real {short(written)} != replay {short(bytes(replayed.stdin))}"
            )
    return out


def default_work_root() -> Path:
    """Where the CLIs run: fixed names (stable recordings), outside ``/tmp`` and any home."""
    configured = os.environ.get("AGENTKIT_PARITY_WORK")
    return Path(configured) if configured else Path("/var/tmp/agentkit-parity")
