"""Cold import time: each module imported in a fresh interpreter, many times.

Method. Each repetition is a new ``python -c`` process that reads
``time.process_time_ns()`` and ``time.perf_counter_ns()`` immediately before
and after the one ``import`` statement and prints both differences.
Interpreter start-up and ``site`` are outside the window, so nothing has to be
subtracted from anything, and the figure has the noise of one import rather
than the noise of a whole process start (which is several times larger than
the effect on this machine). The figure judged is the import's CPU time: an
import is CPU work (the bytecode is cached, the files are in the page cache),
and on a shared machine the wall time also holds the time the process waited
for a core, which belongs to the other jobs. The import's wall time and the
whole-process wall time are shown in the note column. The ratio to the floor
is the median of per-round ratios (each contender over the floor of the same
round), which cancels slow drift in machine load that a ratio of two medians
would keep.

"Cold" means a fresh interpreter with nothing of the module imported yet; the
bytecode cache is warm. The children run WITHOUT ``PYTHONDONTWRITEBYTECODE``
and each contender is imported twice before the timed rounds, so every
contender is measured from compiled ``.pyc`` files -- the state of every test
run but the very first. (With the variable set, as it is on this machine,
site-packages are recompiled on every import and the figures mostly measure
the compiler.) Contenders are interleaved in a shuffled order per round so
that drift in machine load spreads over all of them instead of landing on one.

When an agentkit module misses its target, ``-X importtime`` is run on it and
the modules it loads that the stdlib floor does not are listed by their own
(self) time: that list names the import that costs the time.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass

from tools.bench.stats import Row, Target, median

__all__ = ["Contender", "ImportDiagnosis", "measure_imports", "CONTENDERS"]

SECTION = "1. cold import"
FLOOR = "asyncio, json, dataclasses, typing"


@dataclass(frozen=True, slots=True)
class Contender:
    """One import statement and the target it is judged against (if any)."""

    label: str
    statement: str
    limit: float | None = None


CONTENDERS: tuple[Contender, ...] = (
    Contender("stdlib floor: import " + FLOOR, "import " + FLOOR),
    Contender("agentkit.fakes.llm", "import agentkit.fakes.llm", 1.3),
    Contender("agentkit.fakes.io", "import agentkit.fakes.io", 1.3),
    Contender("agentkit.fakes.cli", "import agentkit.fakes.cli", 1.3),
    Contender("agentkit.fakes.ctx", "import agentkit.fakes.ctx", 1.3),
    Contender("agentkit.fakes.api", "import agentkit.fakes.api", 1.3),
    # The meta-package re-exports lazily (agentkit.core._internal.lazy), so importing it
    # alone is nearly free; the target is judged on the honest figure, with
    # every double it names loaded.
    Contender("agentkit.core.testing (meta), import only", "import agentkit.core.testing"),
    Contender(
        "agentkit.core.testing (meta), every double loaded",
        "from agentkit.core.testing import *",
        1.6,
    ),
    Contender("pydantic_ai.models.test", "import pydantic_ai.models.test"),
    Contender(
        "langchain_core...fake_chat_models",
        "import langchain_core.language_models.fake_chat_models",
    ),
)

_CHILD = (
    "import time\n"
    "c0 = time.process_time_ns()\n"
    "t0 = time.perf_counter_ns()\n"
    "{statement}\n"
    "t1 = time.perf_counter_ns()\n"
    "c1 = time.process_time_ns()\n"
    "import sys\n"
    "sys.stdout.write(f'{{c1 - c0}} {{t1 - t0}}')\n"
)


@dataclass(frozen=True, slots=True)
class ImportDiagnosis:
    """The modules a missed-target import loads beyond the floor, by self time."""

    label: str
    top: tuple[tuple[str, float], ...]  # (module, median self ms)

    def render(self) -> str:
        parts = ", ".join(f"{mod} {ms:.2f} ms" for mod, ms in self.top)
        return f"{self.label}: beyond the floor, by self time: {parts}"


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _run_once(
    statement: str, cwd: str, env: dict[str, str], python: str = sys.executable
) -> tuple[float, float, float]:
    """(import CPU ms, import wall ms, whole-process wall ms) of one fresh interpreter."""
    start = time.perf_counter_ns()
    proc = subprocess.run(
        [python, "-c", _CHILD.format(statement=statement)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    whole = (time.perf_counter_ns() - start) / 1e6
    if proc.returncode != 0:
        raise ImportError(
            f"`{statement}` failed in a fresh interpreter (exit {proc.returncode}): "
            f"{proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else 'no stderr'}"
        )
    cpu, wall = (int(part) / 1e6 for part in proc.stdout.split())
    return cpu, wall, whole


def _importtime(statement: str, cwd: str, env: dict[str, str]) -> dict[str, float]:
    """Self time in ms of every module ``statement`` loads, from ``-X importtime``."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", statement],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    out: dict[str, float] = {}
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        head, _cumulative, name = line.split("|")
        out[name.strip()] = int(head.split(":")[1]) / 1000
    return out


def diagnose(
    contender: Contender, floor: Contender, *, repeats: int = 5, top: int = 6
) -> ImportDiagnosis:
    """Name the modules that make ``contender`` slower than ``floor``."""
    env = _child_env()
    with tempfile.TemporaryDirectory(prefix="agentkit-bench-") as cwd:
        floor_mods = set(_importtime(floor.statement, cwd, env))
        samples: dict[str, list[float]] = {}
        for _ in range(repeats):
            for mod, ms in _importtime(contender.statement, cwd, env).items():
                if mod not in floor_mods:
                    samples.setdefault(mod, []).append(ms)
    ranked = sorted(((m, median(v)) for m, v in samples.items()), key=lambda kv: -kv[1])
    return ImportDiagnosis(contender.label, tuple(ranked[:top]))


def measure_imports(
    repetitions: int,
    contenders: Sequence[Contender] = CONTENDERS,
    *,
    seed: int = 1,
) -> tuple[list[Row], list[ImportDiagnosis]]:
    """Rows for every contender (the first is the floor), plus diagnoses of missed targets."""
    env = _child_env()
    floor = contenders[0]
    imports: dict[str, list[float]] = {c.label: [] for c in contenders}
    walls: dict[str, list[float]] = {c.label: [] for c in contenders}
    wholes: dict[str, list[float]] = {c.label: [] for c in contenders}
    bare: list[float] = []
    errors: dict[str, str] = {}
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="agentkit-bench-") as cwd:
        live = list(contenders)
        for contender in contenders:  # warm-up: compiles and caches the bytecode
            try:
                _run_once(contender.statement, cwd, env)
                _run_once(contender.statement, cwd, env)
            except ImportError as exc:
                errors[contender.label] = str(exc)
                live.remove(contender)
        for _ in range(repetitions):
            order = [*live, None]
            rng.shuffle(order)
            for item in order:
                if item is None:
                    bare.append(_run_once("pass", cwd, env)[2])
                    continue
                imp, wall, whole = _run_once(item.statement, cwd, env)
                imports[item.label].append(imp)
                walls[item.label].append(wall)
                wholes[item.label].append(whole)
    if floor.label in errors:
        raise RuntimeError(f"the stdlib floor itself failed: {errors[floor.label]}")
    rows = [
        Row(
            SECTION,
            "bare interpreter (python -c pass), whole process",
            median(bare),
            "ms",
            len(bare),
            note="start-up only; not in the import figures",
        )
    ]
    diagnoses: list[ImportDiagnosis] = []
    for contender in contenders:
        if contender.label in errors:
            rows.append(Row(SECTION, contender.label, None, "ms", 0, error=errors[contender.label]))
            continue
        value = median(imports[contender.label])
        # The median of per-round ratios, not the ratio of medians: each round
        # imports every contender back to back, so pairing a contender with the
        # floor of its own round cancels drift in machine load between rounds.
        ratio = median(
            [c / f for c, f in zip(imports[contender.label], imports[floor.label], strict=True)]
        )
        target = (
            None if contender.limit is None else Target("x floor", "<=", contender.limit, ratio)
        )
        rows.append(
            Row(
                SECTION,
                contender.label,
                value,
                "ms",
                len(imports[contender.label]),
                ratio=ratio,
                ratio_of="floor",
                target=target,
                note=(
                    f"CPU time; import wall {median(walls[contender.label]):.1f} ms, "
                    f"whole process {median(wholes[contender.label]):.1f} ms"
                ),
            )
        )
        if target is not None and not target.met:
            diagnoses.append(diagnose(contender, floor))
    return rows, diagnoses
