"""The cost of the plugin's teardown verification on a generated 1,000-test suite.

Method. A suite of ``tests`` tests is written to a temporary directory; each
test builds a two-turn ``FakeLLM.script`` and consumes it (what a typical
agent test does to the double). The suite is run by pytest in a fresh
process, alternately with the agentkit plugin (which wraps every test in
``collect_doubles`` and verifies at teardown) and with ``-p no:agentkit``,
``runs`` times each; the figure is the median whole-run wall time of each,
and the overhead their ratio. Target: under 5% of the suite's time.

Whole runs on a shared machine are noisy (a few percent either way between
two runs of the same command), so the work the plugin adds per test is also
timed directly, in one process: ``tests`` times, build and consume the same
double inside ``collect_doubles(isolate=True)`` + ``block_real_processes`` and
verify it afterwards, against the same loop bare; the difference is the
verification's own cost, reported as a fraction of the suite's time without
the plugin. That second figure is the one to hold against the target.

    uv run python -m tools.bench.verification            # 1,000 tests, 5 whole runs each way
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from agentkit.core import process_guard
from agentkit.core.types import Message
from agentkit.core.verification import collect_doubles, verify_all
from agentkit.fakes.llm import FakeLLM, Turn
from tools.bench.stats import median

__all__ = ["measure_direct_cost", "measure_verification", "write_suite"]

_Q = [Message.user("q")]

_TEST = """
async def test_{n}():
    llm = FakeLLM.script([Turn("one"), Turn("two")])
    assert (await llm.chat(messages=Q, model="m")).content == "one"
    assert (await llm.chat(messages=Q, model="m")).content == "two"
"""

_HEAD = """
from agentkit.core.types import Message
from agentkit.fakes.llm import FakeLLM, Turn

Q = [Message.user("q")]
"""

_INI = """[pytest]
asyncio_mode = auto
asyncio_default_fixture_loop_scope = function
"""


def write_suite(root: Path, tests: int, per_file: int = 50) -> None:
    """``tests`` passing tests, ``per_file`` to a module, plus a pytest.ini."""
    (root / "pytest.ini").write_text(_INI, encoding="utf-8")
    for start in range(0, tests, per_file):
        body = "".join(_TEST.format(n=n) for n in range(start, min(start + per_file, tests)))
        (root / f"test_suite_{start // per_file:03d}.py").write_text(_HEAD + body, "utf-8")


def _run(root: Path, *args: str) -> float:
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider"]
    start = time.perf_counter()
    done = subprocess.run(
        [*command, *args], cwd=root, capture_output=True, text=True, check=False, timeout=600
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"the generated suite failed:\n{done.stdout[-2000:]}")
    return elapsed


def measure_verification(tests: int = 1000, runs: int = 5) -> tuple[float, float, float]:
    """``(median with plugin, median without, overhead as a fraction)`` in seconds."""
    with tempfile.TemporaryDirectory(prefix="agentkit-bench-verify-") as tmp:
        root = Path(tmp)
        write_suite(root, tests)
        _run(root)  # warm the bytecode caches
        with_plugin: list[float] = []
        without: list[float] = []
        for _ in range(runs):
            with_plugin.append(_run(root))
            without.append(_run(root, "-p", "no:agentkit"))
    on, off = median(with_plugin), median(without)
    return on, off, on / off - 1.0


async def _one_test() -> None:
    llm = FakeLLM.script([Turn("one"), Turn("two")])
    assert (await llm.chat(messages=_Q, model="m")).content == "one"
    assert (await llm.chat(messages=_Q, model="m")).content == "two"


async def _tests_bare(tests: int) -> float:
    start = time.perf_counter()
    for _ in range(tests):
        await _one_test()
    return time.perf_counter() - start


async def _tests_verified(tests: int) -> float:
    start = time.perf_counter()
    for _ in range(tests):
        with ExitStack() as stack:  # what the plugin wraps around each test
            doubles = stack.enter_context(collect_doubles(isolate=True))
            stack.enter_context(process_guard.block_real_processes("bench"))
            await _one_test()
        verify_all(doubles)
    return time.perf_counter() - start


def measure_direct_cost(tests: int = 1000, runs: int = 15) -> float:
    """Seconds the verification adds to ``tests`` tests: the median of paired differences.

    Bare and verified loops alternate, so a slow minute on a shared machine
    weighs on both halves of a pair alike.
    """
    asyncio.run(_tests_verified(tests))  # warm both paths once
    asyncio.run(_tests_bare(tests))
    differences = [
        asyncio.run(_tests_verified(tests)) - asyncio.run(_tests_bare(tests)) for _ in range(runs)
    ]
    return max(median(differences), 0.0)


def main() -> int:
    on, off, overhead = measure_verification()
    direct = measure_direct_cost()
    share = direct / off
    verdict = "met" if share < 0.05 else "MISSED"
    print(
        f"1,000-test suite: {on:.2f} s with the agentkit plugin, {off:.2f} s with "
        f"-p no:agentkit (whole runs, noisy: {overhead:+.1%}); the verification's own "
        f"work on 1,000 tests: {direct * 1000:.1f} ms = {share:.2%} of the suite "
        f"(target < 5%: {verdict})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
