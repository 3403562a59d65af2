"""The ownership model, one rule at a time, in both directions.

Each rule of docs/guides/verification.md ("Who owns a double") is a set of
user suites run by pytester: a broken agent the rule must catch, and a
correct suite it must leave green -- under the ways people run tests that
each rule is about (reruns, repeats, other async runners, pytest's own run
options, threads, processes).
"""

from __future__ import annotations

import pytest

from tests.support.plugin_cases import Case, broken, check_case, correct

pytest_plugins = ["pytester"]

HEAD = """
import asyncio
import threading
import time
import pytest
from agentkit.core.verification.script import ScriptExhausted
from agentkit.core.types import Message
from agentkit.fakes.llm import FakeLLM, Turn

Q = [Message.user("q")]

def ask(llm, times=1):
    async def run():
        for _ in range(times):
            await llm.chat(messages=Q, model="m")
    asyncio.run(run())
"""

MODULE_LLM = """
@pytest.fixture(scope="module")
def llm():
    return FakeLLM.script([Turn("ok")] * {turns})
"""

ANYIO_RUNNER = """
@pytest.fixture(scope="module")
def anyio_backend():
    return "asyncio"

@pytest.mark.anyio
async def test_one():
    await FakeLLM.script([Turn("a")]).chat(messages=Q, model="m")

@pytest.mark.anyio
async def test_two():
    llm = FakeLLM.script([Turn("a"), Turn("b")])
    for _ in range({asks}):
        await llm.chat(messages=Q, model="m")
"""

CASES: dict[str, Case] = {
    # --- the owner is what pytest runs, however the code schedules its work -----------------------
    "anyio_runner_task_shared_by_tests_blames_the_right_test": broken(
        ANYIO_RUNNER.format(asks=1),
        needles=("unused_turns", "ERROR at teardown of test_two"),
        absent=("after it had ended",),
        outcomes={"passed": 2, "errors": 1},
    ),
    "anyio_runner_tests_that_use_every_turn": correct(
        ANYIO_RUNNER.format(asks=2),
        outcomes={"passed": 2},
    ),
    "module_loop_task_started_by_a_fixture_serves_each_test": correct(
        """
import pytest_asyncio

@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def runner():
    queue = asyncio.Queue()
    async def serve():
        while True:
            job, done = await queue.get()
            done.set_result(await job())
    task = asyncio.create_task(serve())
    async def run(job):
        done = asyncio.get_running_loop().create_future()
        await queue.put((job, done))
        return await done
    yield run
    task.cancel()

@pytest.mark.asyncio(loop_scope="module")
async def test_one(runner):
    async def job():
        llm = FakeLLM.script([Turn("a")])
        await llm.chat(messages=Q, model="m")
    await runner(job)

@pytest.mark.asyncio(loop_scope="module")
async def test_two(runner):
    async def job():
        llm = FakeLLM.script([Turn("a"), Turn("b")])
        for _ in range(2):
            await llm.chat(messages=Q, model="m")
    await runner(job)
""",
        outcomes={"passed": 2},
    ),
    "thread_pool_started_by_one_test_serves_the_next": broken(
        """
from concurrent.futures import ThreadPoolExecutor
POOL = ThreadPoolExecutor(1)

def test_first():
    POOL.submit(ask, FakeLLM.script([Turn("a")])).result()

def test_second():
    POOL.submit(lambda: ask(FakeLLM.script([Turn("a"), Turn("b")]))).result()
""",
        needles=("unused_turns", "ERROR at teardown of test_second"),
        outcomes={"passed": 2, "errors": 1},
    ),
    # --- certain errors: the test that was running ------------------------------------------------
    "a_miss_on_a_module_fixture_double_fails_the_test_it_happened_in": broken(
        MODULE_LLM.format(turns=1)
        + """
def test_a(llm):
    ask(llm)

def test_b(llm):
    try:
        ask(llm)
    except ScriptExhausted:
        pass

def test_c():
    pass
""",
        needles=("script_exhausted", "ERROR at teardown of test_b"),
        outcomes={"passed": 3, "errors": 1},
    ),
    # --- unused material of a shared double: only when every test that could use it ran ---------
    "collect_only_judges_nothing": correct(
        "LLM = FakeLLM.script([Turn('a'), Turn('b')])\n\ndef test_a():\n    ask(LLM)\n",
        args=("--co",),
    ),
    "setup_only_judges_no_unused_material": correct(
        MODULE_LLM.format(turns=2)
        + """
@pytest.fixture
def site():
    return FakeLLM.script([Turn("never asked in setup-only")])

def test_a(llm, site):
    ask(llm, 2)
    ask(site)
""",
        args=("--setup-only",),
    ),
    "setup_plan_judges_no_unused_material": correct(
        MODULE_LLM.format(turns=2) + "\ndef test_a(llm):\n    ask(llm, 2)\n",
        args=("--setup-plan",),
    ),
    "module_level_double_left_unused_by_every_test": broken(
        "LLM = FakeLLM.script([Turn('a'), Turn('b'), Turn('c')])\n\n"
        "def test_a():\n    ask(LLM)\n\ndef test_b():\n    ask(LLM)\n",
        needles=("unused_turns", "made at import or collection time", "test_inner.py:"),
    ),
    "a_module_skipped_at_collection_never_turns_the_run_red": correct(
        "def test_here():\n    pass\n",
        files={
            "test_optional.py": HEAD
            + "LLM = FakeLLM.script([Turn('a')])\n"
            + "pytest.importorskip('a_module_that_is_not_installed_anywhere')\n\n"
            + "def test_never():\n    ask(LLM)\n"
        },
        outcomes={"passed": 1, "skipped": 1},
    ),
    # --- reruns and repeats -----------------------------------------------------------------------
    "rerun_cannot_wash_out_a_shared_doubles_miss": broken(
        MODULE_LLM.format(turns=2)
        + """
ATTEMPTS = []

def test_a(llm):
    ask(llm)

def test_flaky(llm):
    ATTEMPTS.append(1)
    if len(ATTEMPTS) == 1:
        try:
            ask(llm, 3)
        except ScriptExhausted:
            pass
""",
        args=("--reruns", "2"),
        needles=("script_exhausted", "test_flaky"),
    ),
    "rerun_of_a_flaky_test_with_its_own_double_passes": correct(
        """
ATTEMPTS = []

def test_flaky():
    llm = FakeLLM.script([Turn("a"), Turn("b")])
    ATTEMPTS.append(1)
    ask(llm, 2)
    assert len(ATTEMPTS) > 1, "flaky the first time"
""",
        args=("--reruns", "2"),
        outcomes={"passed": 1},
        needles=("1 passed, 1 rerun",),
    ),
    "rerun_reports_a_shared_verdict_once": broken(
        MODULE_LLM.format(turns=1)
        + """
def test_swallows(llm):
    ask(llm)
    try:
        ask(llm)
    except ScriptExhausted:
        pass
""",
        args=("--reruns", "1"),
        needles=("script_exhausted",),
    ),
    "repeat_each_repetition_uses_a_turn_of_a_module_fixture": correct(
        MODULE_LLM.format(turns=3) + "\ndef test_a(llm):\n    ask(llm)\n",
        args=("--count", "3"),
        outcomes={"passed": 3},
    ),
    "repeat_a_function_double_left_unused_each_time": broken(
        "def test_a():\n    ask(FakeLLM.script([Turn('a'), Turn('b')]))\n",
        args=("--count", "2"),
        needles=("unused_turns",),
        outcomes={"passed": 2, "errors": 2},
    ),
    "repeat_module_scope_double_used_by_every_repetition": broken(
        MODULE_LLM.format(turns=4) + "\ndef test_a(llm):\n    ask(llm)\n",
        args=("--count", "3"),
        needles=("unused_turns", "module-scoped fixture 'llm'"),
    ),
    # --- threads ---------------------------------------------------------------------------------
    "non_daemon_thread_outliving_the_session_is_waited_for": broken(
        """
def test_starts_work():
    def later():
        time.sleep(0.3)
        FakeLLM.script([Turn("never asked")])
    threading.Thread(target=later).start()
""",
        needles=("session-level test-double violations", "test_starts_work", "unused_turns"),
        outcomes={"passed": 1},
        subprocess=True,
    ),
    "a_late_thread_is_not_blamed_on_the_test_running_then": broken(
        """
innocent_running = threading.Event()
made = threading.Event()

def test_starts_work():
    def later():
        innocent_running.wait(60)  # the double is made while the next test runs
        FakeLLM.script([Turn("never asked")])
        made.set()
    threading.Thread(target=later).start()

def test_innocent():
    innocent_running.set()
    assert made.wait(60)
""",
        needles=("made by work started in the test test_inner.py::test_starts_work",),
        absent=("ERROR at teardown of test_innocent",),
        outcomes={"passed": 2},
    ),
    # --- other processes -------------------------------------------------------------------------
    "a_double_pickled_into_a_process_pool_is_never_called_unused": correct(
        """
from concurrent.futures import ProcessPoolExecutor
import multiprocessing

def use(llm):
    ask(llm, 2)
    return llm.remaining

def test_in_a_child():
    llm = FakeLLM.script([Turn("a"), Turn("b")])
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        assert pool.submit(use, llm).result() == 0
""",
        outcomes={"passed": 1},
        subprocess=True,
    ),
    "a_double_a_forked_child_uses_is_never_called_unused": correct(
        """
import multiprocessing

def use(llm):
    ask(llm, 2)

def test_in_a_forked_child():
    llm = FakeLLM.script([Turn("a"), Turn("b")])
    child = multiprocessing.get_context("fork").Process(target=use, args=(llm,))
    child.start()
    child.join()
    assert child.exitcode == 0
""",
        outcomes={"passed": 1},
        subprocess=True,
    ),
    # --- where a fixture's double is reported ------------------------------------------------------
    "a_kit_fixtures_double_is_reported_at_the_users_test": broken(
        """
import urllib.error
import urllib.request

def test_calls_a_route_nobody_serves(fake_api):
    try:
        urllib.request.urlopen(fake_api.url + "/v1/nowhere", data=b"{}")
    except urllib.error.HTTPError:
        pass
""",
        needles=("FakeApi created at ", "test_inner.py:", "fixture 'fake_api'"),
        absent=("_pytest/", "pluggy/"),
    ),
    "a_kit_fixtures_double_says_the_users_test_made_it": correct(
        """
def test_site(fake_api):
    assert "test_inner.py:" in fake_api.created_at
    assert "fixture 'fake_api'" in fake_api.created_at
"""
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_ownership_case(pytester: pytest.Pytester, name: str) -> None:
    check_case(pytester, HEAD, CASES[name], name=name)


def test_every_rule_has_cases_both_ways() -> None:
    assert sum(case.fails for case in CASES.values()) >= 8
    assert sum(not case.fails for case in CASES.values()) >= 8
