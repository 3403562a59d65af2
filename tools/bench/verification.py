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

A third figure holds the whole kit against pytest itself: a 1,000-test user
suite written the ways users write them (plain and async tests, a
module-scoped fixture double, a module-level double, parametrize, a class)
run with every agentkit plugin on, against the same suite with every
agentkit plugin disabled (``-p no:<name>`` for each ``agentkit*`` pytest11
entry point) -- pytest's own floor for that suite. Target: within 1.15x. It
is the CPU time of the pytest process (user + system, from ``os.times`` of
the children) that is compared: on a machine shared with other work, wall
time measures the neighbours as much as the suite.

    uv run python -m tools.bench.verification            # 1,000 tests, 5 whole runs each way
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import os
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

from agentkit.core.types import Message
from agentkit.core.verification import collect_doubles, process_guard, verify_all
from agentkit.fakes.llm import FakeLLM, Turn
from tools.bench.stats import median

__all__ = [
    "measure_direct_cost",
    "measure_user_suite",
    "measure_verification",
    "write_suite",
    "write_user_suite",
]

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


_USER_HEAD = """
import asyncio
import pytest
from agentkit.core.types import Message
from agentkit.fakes.io import FakeFetch, FakeSearch
from agentkit.core.types import FetchResponse, SearchHit
from agentkit.fakes.llm import FakeLLM, Turn

Q = [Message.user("q")]
PAGE = FetchResponse(url="https://example.com", status=200, body="ok")
MODULE_LLM = FakeLLM.script([Turn("m")] * {per_file}, repeat_last=True)


@pytest.fixture(scope="module")
def shared_fetch():
    return FakeFetch({{PAGE.url: PAGE}}, require_all_fetched=False)
"""

# Five shapes, cycled: each builds and uses up its doubles as a passing agent test does.
_USER_TESTS = (
    """
async def test_{n}_async():
    llm = FakeLLM.script([Turn("one"), Turn("two")])
    assert (await llm.chat(messages=Q, model="m")).content == "one"
    assert (await llm.chat(messages=Q, model="m")).content == "two"
""",
    """
def test_{n}_sync_search():
    search = FakeSearch({{"python": [SearchHit("Python", "https://python.org")]}})
    assert asyncio.run(search.search("learn python"))[0].title == "Python"
""",
    """
async def test_{n}_module_fixture(shared_fetch):
    assert (await shared_fetch.fetch(PAGE.url)).body == "ok"
""",
    """
@pytest.mark.parametrize("word", ["a", "b"])
async def test_{n}_param(word):
    llm = FakeLLM({{word: "yes"}})
    assert (await llm.chat(messages=[Message.user(word)], model="m")).content == "yes"
""",
    """
class Test{n}:
    async def test_module_level(self):
        assert (await MODULE_LLM.chat(messages=Q, model="m")).content == "m"
""",
)


def write_user_suite(root: Path, tests: int, per_file: int = 50) -> None:
    """About ``tests`` passing tests in the shapes users write, plus a pytest.ini."""
    (root / "pytest.ini").write_text(_INI, encoding="utf-8")
    made = 0
    index = 0
    while made < tests:
        body = ""
        in_file = 0
        while in_file < per_file and made < tests:
            shape = _USER_TESTS[made % len(_USER_TESTS)]
            body += shape.format(n=made)
            step = 2 if "parametrize" in shape else 1
            made += step
            in_file += step
        head = _USER_HEAD.format(per_file=per_file)
        (root / f"test_user_{index:03d}.py").write_text(head + body, "utf-8")
        index += 1


def _kit_plugins_off() -> list[str]:
    """``-p no:NAME`` for every pytest11 entry point an agentkit package registers."""
    names = sorted(
        point.name
        for point in importlib.metadata.entry_points(group="pytest11")
        if point.value.startswith("agentkit.")
    )
    return [arg for name in names for arg in ("-p", f"no:{name}")]


def _cpu(root: Path, *args: str) -> float:
    """CPU seconds (user + system) one pytest run of ``root`` burns."""
    before = os.times()
    _run(root, *args)
    after = os.times()
    return (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )


def measure_user_suite(tests: int = 1000, runs: int = 5) -> tuple[float, float, float]:
    """``(median CPU s strict on, median CPU s at pytest's floor, ratio)``, user-shaped suite."""
    off = _kit_plugins_off()
    with tempfile.TemporaryDirectory(prefix="agentkit-bench-user-") as tmp:
        root = Path(tmp)
        write_user_suite(root, tests)
        _run(root)  # warm the bytecode caches
        strict: list[float] = []
        floor: list[float] = []
        for _ in range(runs):
            strict.append(_cpu(root))
            floor.append(_cpu(root, *off))
    on, bare = median(strict), median(floor)
    return on, bare, on / bare


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
    strict, floor, ratio = measure_user_suite()
    verdict = "met" if ratio <= 1.15 else "MISSED"
    print(
        f"1,000-test user suite: {strict:.2f} CPU s with every agentkit plugin on (strict), "
        f"{floor:.2f} CPU s with all of them off (pytest's floor): {ratio:.3f}x "
        f"(target <= 1.15x: {verdict})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
