"""The cost of the plugin's teardown verification on a generated 1,000-test suite.

Method. A suite of ``tests`` tests is written to a temporary directory; each
test builds a two-turn ``FakeLLM.script`` and consumes it (what a typical
agent test does to the double). The suite is run by pytest in a fresh
process, alternately with the agentkit plugin (which wraps every test in
``collect_doubles`` and verifies at teardown) and with ``-p no:agentkit``,
``runs`` times each; the figure is the median whole-run wall time of each,
and the overhead their ratio. Target: under 5% of the suite's time.

    uv run python -m tools.bench.verification            # 1,000 tests, 3 runs each
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools.bench.stats import median

__all__ = ["measure_verification", "write_suite"]

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


def measure_verification(tests: int = 1000, runs: int = 3) -> tuple[float, float, float]:
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


def main() -> int:
    on, off, overhead = measure_verification()
    verdict = "met" if overhead < 0.05 else "MISSED"
    print(
        f"1,000-test suite: {on:.2f} s with the agentkit plugin, {off:.2f} s with "
        f"-p no:agentkit; verification overhead {overhead:+.1%} (target < 5%: {verdict})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
