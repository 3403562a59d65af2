"""A held-out set of ordinary user test files, run under the plugin in both directions.

Each case is a small test suite a user might write -- plain functions,
fixtures of every scope, parametrize, skip and selection, xdist, xfail,
unittest classes, threads and tasks, hypothesis, pytest-asyncio loop scopes,
the CLI and API doubles -- and the outcome the kit promises for it: a broken
agent must fail the run (naming the violation), a correct test must pass
without a word about doubles. The set is kept apart from the plugin's own
tests of each rule so that it checks the rules as a user meets them, not as
they were written.
"""

from __future__ import annotations

import pytest

from tests.support.inner_session import INNER_INI
from tests.support.plugin_cases import Case, broken, check_case, correct

pytest_plugins = ["pytester"]

HEAD = """
import asyncio
import threading
import time
import pytest
from agentkit.core.verification.script import ScriptExhausted
from agentkit.core.types import FetchResponse, MemoryItem, Message, SearchHit, ToolCall, ToolSchema
from agentkit.fakes.io import FakeFetch, FakeMemory, FakeSearch, FakeTool
from agentkit.fakes.llm import FakeLLM, Turn

Q = [Message.user("q")]
A = "https://example.test/a"
B = "https://example.test/b"

def page(url):
    return FetchResponse(url, body="page")

def ask(llm, times=1):
    async def run():
        for _ in range(times):
            await llm.chat(messages=Q, model="m")
    asyncio.run(run())

def fetch(fake, url):
    return asyncio.run(fake.fetch(url))
"""

# Sources more than one case runs, with what differs between them left open.
MODULE_FIXTURE = """
@pytest.fixture(scope="module")
def llm():
    return FakeLLM.script([Turn("ok")] * {turns})

def test_a(llm):
    ask(llm)

def test_b(llm):
    ask(llm)
"""

SITE_FIXTURE = """
@pytest.fixture(scope="module")
def site():
    return FakeFetch({{A: page(A), B: page(B)}})

{mark}
def test_reads_a(site):
    fetch(site, A)

def test_reads_b(site):
    fetch(site, B)
"""

SESSION_CONFTEST = """
@pytest.fixture(scope="session")
def llm():
    return FakeLLM.script([Turn("ok")] * {turns})
"""


def session_fixture_files(turns: int) -> dict[str, str]:
    """A conftest with a session-scoped fixture, and a second module using it."""
    return {
        "conftest.py": HEAD + SESSION_CONFTEST.format(turns=turns),
        "test_other.py": HEAD + "\ndef test_there(llm):\n    ask(llm)\n",
    }


XFAIL = """
@pytest.mark.xfail({mark})
def test_agent():
    ask(FakeLLM.script([Turn("a")] * {turns}))
"""

THREAD_OUTLIVING_ITS_TEST = """
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
"""
"""A double made by a thread of one test while the next one runs: each test waits for
the other's step (events, not sleeps), so the double is made inside test_innocent."""

ISOLATED_ASYNCIO = """
import unittest

def test_plain_before():
    pass

class TestAgent(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        self.llm = FakeLLM.script([Turn("a"), Turn("b")])

    async def test_asks(self):
        for _ in range({times}):
            await self.llm.chat(messages=Q, model="m")
"""

ASYNC_MODULE_FIXTURE = """
import pytest_asyncio

@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def llm():
    yield FakeLLM.script([Turn("ok")] * {turns})

@pytest.mark.asyncio(loop_scope="module")
async def test_one(llm):
    await llm.chat(messages=Q, model="m")

@pytest.mark.asyncio(loop_scope="module")
async def test_two(llm):
    await llm.chat(messages=Q, model="m")
"""

CLAUDE_SESSION = """
import pytest_asyncio
from agentkit.agents.cognition import ClaudeCliCognition
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import FakeClaudeCli

@pytest_asyncio.fixture(scope="{scope}", loop_scope="{scope}")
async def session():
    cli = FakeClaudeCli.recorded("session-two-turns")
    async with ClaudeCliCognition(cli).session(RunContext()) as session:
        yield session

@pytest.mark.asyncio(loop_scope="{scope}")
async def test_first(session):
    assert (await session.turn("First question?")).error is None
"""

API_CLIENT = """
import json
import urllib.request
from agentkit.fakes.api import FakeApi

def post(api, body):
    request = urllib.request.Request(
        api.url + "/v1/chat/completions", data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "authorization": "Bearer k"})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())

BODY = {"model": "m", "messages": [{"role": "user", "content": "q"}]}
"""


XDIST = ("-p", "xdist", "-n", "2")

SITE_CONFTEST = (
    HEAD
    + """
SITE = FakeFetch({A: page(A)})

@pytest.fixture
def site():
    return SITE
"""
)

USES_LLM = """
def test_here(llm):
    ask(llm)
"""

CASES: dict[str, Case] = {
    # --- plain tests --------------------------------------------------------------------------
    "plain_unused_turns": broken(
        """
def test_agent_stops_early():
    llm = FakeLLM.script([Turn("plan"), Turn("answer")])
    ask(llm)
""",
        needles=("unused_turns", "ERROR at teardown of test_agent_stops_early"),
        outcomes={"passed": 1, "errors": 1},
    ),
    "plain_every_turn_used": correct(
        """
def test_agent():
    llm = FakeLLM.script([Turn("plan"), Turn("answer")])
    ask(llm, 2)
""",
        outcomes={"passed": 1},
    ),
    "swallowed_by_except_base_exception": broken(
        """
def test_agent_swallows_everything():
    llm = FakeLLM.script([Turn("only")])
    try:
        ask(llm, 2)
    except BaseException:
        pass
""",
        needles=("script_exhausted",),
    ),
    "swallowed_by_gather_return_exceptions": broken(
        """
async def test_agent_gathers():
    llm = FakeLLM.script([Turn("one")])
    results = await asyncio.gather(
        llm.chat(messages=Q, model="m"), llm.chat(messages=Q, model="m"),
        return_exceptions=True,
    )
    assert any(not isinstance(r, BaseException) for r in results)
""",
        needles=("script_exhausted",),
    ),
    "pytest_raises_around_exhaustion_is_told_verify_false": broken(
        """
async def test_provokes_exhaustion():
    llm = FakeLLM.script([Turn("one")])
    await llm.chat(messages=Q, model="m")
    with pytest.raises(ScriptExhausted):
        await llm.chat(messages=Q, model="m")
""",
        needles=("script_exhausted", "verify=False"),
    ),
    "pytest_raises_around_exhaustion_opted_out": correct(
        """
async def test_provokes_exhaustion():
    llm = FakeLLM.script([Turn("one")], verify=False)
    await llm.chat(messages=Q, model="m")
    with pytest.raises(ScriptExhausted):
        await llm.chat(messages=Q, model="m")
""",
    ),
    # --- fixtures of every scope ---------------------------------------------------------------
    "yield_fixture_unfetched_page": broken(
        """
@pytest.fixture
def site():
    fake = FakeFetch({A: page(A), B: page(B)})
    yield fake

def test_reads_one_page(site):
    assert fetch(site, A).body == "page"
""",
        needles=("unfetched_fixtures", "ERROR at teardown of test_reads_one_page"),
    ),
    "autouse_fixture_entries_matched": correct(
        """
SEARCH = {}

@pytest.fixture(autouse=True)
def search():
    SEARCH["fake"] = FakeSearch({"python": [SearchHit("Python", "https://python.org")]})
    yield
    SEARCH.clear()

async def test_one():
    assert await SEARCH["fake"].search("learn python")

async def test_two():
    assert await SEARCH["fake"].search("python docs")
""",
        outcomes={"passed": 2},
    ),
    "autouse_fixture_entry_never_matched": broken(
        """
SEARCH = {}

@pytest.fixture(autouse=True)
def search():
    SEARCH["fake"] = FakeSearch({"python": [], "rust": []})
    yield

async def test_only_python():
    await SEARCH["fake"].search("python")
""",
        needles=("unused_entries", "rust"),
    ),
    "module_fixture_shared_unused_turn": broken(
        MODULE_FIXTURE.format(turns=3),
        needles=("unused_turns", "module-scoped fixture 'llm'"),
        outcomes={"passed": 2, "errors": 1},
    ),
    "module_fixture_shared_used_in_random_order": correct(
        """
@pytest.fixture(scope="module")
def llm():
    return FakeLLM.script([Turn("ok"), Turn("ok"), Turn("ok")])

def test_a(llm):
    ask(llm)

def test_b(llm):
    ask(llm)

def test_c(llm):
    ask(llm)

def test_unrelated():
    pass
""",
        randomly=True,
        outcomes={"passed": 4},
    ),
    "class_fixture_per_class": correct(
        """
@pytest.fixture(scope="class")
def llm():
    return FakeLLM.script([Turn("ok"), Turn("ok")])

class TestOne:
    def test_a(self, llm):
        ask(llm)
    def test_b(self, llm):
        ask(llm)

class TestTwo:
    def test_c(self, llm):
        ask(llm, 2)

def test_outside():
    pass
""",
        outcomes={"passed": 4},
    ),
    "session_fixture_in_conftest_used_across_modules": correct(
        USES_LLM,
        files=session_fixture_files(2),
        outcomes={"passed": 2},
    ),
    "session_fixture_in_conftest_left_unused": broken(
        USES_LLM,
        files=session_fixture_files(3),
        needles=("unused_turns", "session-scoped fixture 'llm'"),
    ),
    "package_fixture_used_by_its_package": correct(
        """
def test_top():
    pass
""",
        files={
            "pkg/__init__.py": "",
            "pkg/conftest.py": HEAD
            + """
@pytest.fixture(scope="package")
def site():
    return FakeFetch({A: page(A), B: page(B)})
""",
            "pkg/test_a.py": HEAD + "\ndef test_a(site):\n    fetch(site, A)\n",
            "pkg/test_b.py": HEAD + "\ndef test_b(site):\n    fetch(site, B)\n",
        },
        outcomes={"passed": 3},
    ),
    "fixture_params_each_instance_used": correct(
        """
@pytest.fixture(scope="module", params=["x", "y"])
def llm(request):
    return FakeLLM.script([Turn(request.param), Turn(request.param)])

def test_first(llm):
    ask(llm)

def test_second(llm):
    ask(llm)
""",
        outcomes={"passed": 4},
    ),
    "indirect_parametrize_unfetched_page": broken(
        """
@pytest.fixture
def site(request):
    return FakeFetch({url: page(url) for url in request.param})

@pytest.mark.parametrize("site", [[A], [A, B]], indirect=True)
def test_reads_a(site):
    fetch(site, A)
""",
        needles=("unfetched_fixtures", "ERROR at teardown of test_reads_a[site1]"),
        outcomes={"passed": 2, "errors": 1},
    ),
    # --- parametrize, skip, selection ------------------------------------------------------------
    "parametrize_list_doubles_one_case_broken": broken(
        """
@pytest.mark.parametrize("llm, times", [
    (FakeLLM.script([Turn("a")]), 1),
    (FakeLLM.script([Turn("a"), Turn("b")]), 1),
])
def test_agent(llm, times):
    ask(llm, times)
""",
        needles=("unused_turns", "test_agent[llm1-1]"),
        outcomes={"passed": 2, "errors": 1},
    ),
    "parametrize_list_doubles_selected_with_k": correct(
        """
@pytest.mark.parametrize("llm", [
    pytest.param(FakeLLM.script([Turn("a")]), id="short"),
    pytest.param(FakeLLM.script([Turn("a"), Turn("b")]), id="long"),
])
def test_agent(llm):
    ask(llm, llm.remaining)
""",
        args=("-k", "short"),
        outcomes={"passed": 1, "deselected": 1},
    ),
    "module_double_second_test_skipped_by_skipif": correct(
        """
import sys
LLM = FakeLLM.script([Turn("one"), Turn("two")])

def test_first():
    ask(LLM)

@pytest.mark.skipif(sys.version_info > (3,), reason="not on this python")
def test_second():
    ask(LLM)
""",
        outcomes={"passed": 1, "skipped": 1},
    ),
    "module_double_second_test_importorskip": correct(
        """
LLM = FakeLLM.script([Turn("one"), Turn("two")])

def test_first():
    ask(LLM)

def test_second():
    pytest.importorskip("a_module_that_is_not_installed_anywhere")
    ask(LLM)
""",
        outcomes={"passed": 1, "skipped": 1},
    ),
    "module_fixture_test_deselected_with_k": correct(
        SITE_FIXTURE.format(mark=""),
        args=("-k", "reads_a"),
        outcomes={"passed": 1, "deselected": 1},
    ),
    "module_fixture_test_deselected_with_m": correct(
        SITE_FIXTURE.format(mark="@pytest.mark.slow"),
        files={
            "conftest.py": "def pytest_configure(config):\n"
            "    config.addinivalue_line('markers', 'slow: slow')\n"
        },
        args=("-m", "not slow"),
        outcomes={"passed": 1, "deselected": 1},
    ),
    "selected_test_swallows_a_miss_of_a_module_double": broken(
        """
FETCH = FakeFetch({A: page(A), B: page(B)})

def test_typo():
    try:
        fetch(FETCH, "https://example.test/c")
    except KeyError:
        pass

def test_other():
    fetch(FETCH, A)
""",
        args=("-k", "typo"),
        needles=("unknown_url", "ERROR at teardown of test_typo"),
    ),
    "stop_at_first_failure_x": broken(
        """
LLM = FakeLLM.script([Turn("one")])

def test_swallows():
    try:
        ask(LLM, 2)
    except ScriptExhausted:
        pass

def test_never_runs():
    pass
""",
        args=("-x",),
        needles=("script_exhausted",),
    ),
    # --- xdist ------------------------------------------------------------------------------------
    "xdist_module_fixture_split_across_workers": correct(
        MODULE_FIXTURE.format(turns=2),
        args=XDIST,
        outcomes={"passed": 2},
    ),
    "xdist_function_double_unused": broken(
        """
def test_broken():
    llm = FakeLLM.script([Turn("a"), Turn("b")])
    ask(llm)

def test_fine():
    ask(FakeLLM.script([Turn("a")]))
""",
        args=XDIST,
        needles=("unused_turns",),
        outcomes={"passed": 2, "errors": 1},
    ),
    "xdist_loadscope_module_fixture_unused": broken(
        MODULE_FIXTURE.format(turns=3),
        args=(*XDIST, "--dist", "loadscope"),
        needles=("unused_turns",),
    ),
    "xdist_loadfile_module_doubles_used": correct(
        """
LLM = FakeLLM.script([Turn("a"), Turn("b")])

def test_a():
    ask(LLM)

def test_b():
    ask(LLM)
""",
        files={
            "test_second.py": HEAD
            + "\nSITE = FakeFetch({A: page(A)})\n\ndef test_c():\n    fetch(SITE, A)\n"
        },
        args=(*XDIST, "--dist", "loadfile"),
        outcomes={"passed": 3},
    ),
    "xdist_thread_outliving_its_test": broken(
        THREAD_OUTLIVING_ITS_TEST,
        args=(*XDIST, "--dist", "loadfile"),
        needles=("session-level test-double violations", "test_starts_work", "unused_turns"),
        outcomes={"passed": 2},
    ),
    "module_double_imported_by_another_test_module": correct(
        """
LLM = FakeLLM.script([Turn("a"), Turn("b")])

def test_here():
    ask(LLM)
""",
        files={
            "test_z_other.py": "from test_inner import LLM, ask\n\ndef test_there():\n    ask(LLM)\n"
        },
        outcomes={"passed": 2},
    ),
    "conftest_double_under_xdist_swallowed_miss": broken(
        """
def test_swallows(site):
    try:
        fetch(site, "https://example.test/typo")
    except KeyError:
        pass

def test_other(site):
    fetch(site, A)
""",
        files={"conftest.py": SITE_CONFTEST},
        args=XDIST,
        needles=("unknown_url", "ERROR at teardown of test_swallows"),
        outcomes={"passed": 2, "errors": 1},
    ),
    "fixture_requested_by_name_at_run_time_deselected": correct(
        """
@pytest.fixture(scope="module")
def llm():
    return FakeLLM.script([Turn("a"), Turn("b")])

def test_one(request):
    ask(request.getfixturevalue("llm"))

def test_two(request):
    ask(request.getfixturevalue("llm"))
""",
        args=("-k", "one"),
        outcomes={"passed": 1, "deselected": 1},
    ),
    "setup_module_global_double_unused": broken(
        """
LLM = None

def setup_module(module):
    module.LLM = FakeLLM.script([Turn("a"), Turn("b"), Turn("c")])

def test_a():
    ask(LLM)

def test_b():
    ask(LLM)
""",
        needles=("unused_turns",),
    ),
    "setup_class_double_used": correct(
        """
class TestAgent:
    def setup_class(cls):
        cls.llm = FakeLLM.script([Turn("a"), Turn("b")])

    def test_a(self):
        ask(self.llm)

    def test_b(self):
        ask(self.llm)
""",
        outcomes={"passed": 2},
    ),
    "parametrize_dataclass_cases_one_broken_selected_with_k": broken(
        """
from dataclasses import dataclass

@dataclass
class Scenario:
    llm: object
    questions: int

@pytest.mark.parametrize("case", [
    pytest.param(Scenario(FakeLLM.script([Turn("a")]), 1), id="fine"),
    pytest.param(Scenario(FakeLLM.script([Turn("a"), Turn("b")]), 1), id="broken"),
])
def test_agent(case):
    ask(case.llm, case.questions)
""",
        args=("-k", "broken"),
        needles=("unused_turns", "ERROR at teardown of test_agent[broken]"),
        outcomes={"passed": 1, "errors": 1, "deselected": 1},
    ),
    "fixture_params_made_at_import_time": broken(
        """
@pytest.fixture(params=[FakeLLM.script([Turn("a")]), FakeLLM.script([Turn("a"), Turn("b")])])
def llm(request):
    return request.param

def test_agent(llm):
    ask(llm)
""",
        needles=("unused_turns", "test_agent[llm1]"),
        outcomes={"passed": 2, "errors": 1},
    ),
    "subtests_each_use_their_double": correct(
        """
def test_cases(subtests):
    for n in (1, 2):
        with subtests.test(n=n):
            ask(FakeLLM.script([Turn("x")] * n), n)
""",
    ),
    "xdist_worksteal_conftest_double_every_test_uses": correct(
        """
@pytest.mark.parametrize("n", range(4))
def test_agent(site, n):
    fetch(site, A)
""",
        files={"conftest.py": SITE_CONFTEST},
        args=(*XDIST, "--dist", "worksteal"),
        outcomes={"passed": 4},
    ),
    "fixture_overridden_in_another_module": correct(
        USES_LLM,
        files={
            "conftest.py": HEAD
            + """
@pytest.fixture(scope="module")
def llm():
    return FakeLLM.script([Turn("a")])
""",
            "test_other.py": HEAD
            + """
@pytest.fixture(scope="module")
def llm():
    return FakeLLM.script([Turn("a"), Turn("b")])

def test_one(llm):
    ask(llm)

def test_two(llm):
    ask(llm)
""",
        },
        outcomes={"passed": 3},
    ),
    # --- xfail ------------------------------------------------------------------------------------
    "xfail_strict_violation_is_the_expected_failure": correct(
        XFAIL.format(mark='strict=True, reason="agent stops early: known bug"', turns=2),
        outcomes={"xfailed": 1},
    ),
    "xfail_non_strict_passing_body": correct(
        XFAIL.format(mark='reason="flaky upstream"', turns=1),
        outcomes={"xpassed": 1},
    ),
    "xfail_raises_other_error_but_violation": broken(
        XFAIL.format(mark='raises=ValueError, reason="expects a ValueError"', turns=2),
        needles=("unused_turns",),
    ),
    # --- unittest ---------------------------------------------------------------------------------
    "unittest_setupclass_shared_unused": broken(
        """
import unittest

class TestShared(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.llm = FakeLLM.script([Turn("a"), Turn("b"), Turn("c")])

    def test_a(self):
        ask(self.llm)

    def test_b(self):
        ask(self.llm)
""",
        needles=("unused_turns",),
    ),
    "isolated_asyncio_testcase_used": correct(
        ISOLATED_ASYNCIO.format(times=2),
        outcomes={"passed": 2},
    ),
    "isolated_asyncio_testcase_stops_early": broken(
        ISOLATED_ASYNCIO.format(times=1),
        needles=("unused_turns", "ERROR at teardown of TestAgent.test_asks"),
    ),
    # --- threads and tasks ------------------------------------------------------------------------
    "task_group_uses_every_turn": correct(
        """
async def test_parallel_agents():
    llm = FakeLLM.script([Turn("a"), Turn("b"), Turn("c")])
    async with asyncio.TaskGroup() as group:
        for _ in range(3):
            group.create_task(llm.chat(messages=Q, model="m"))
""",
    ),
    "to_thread_makes_a_broken_double": broken(
        """
async def test_worker_thread():
    def work():
        llm = FakeLLM.script([Turn("a"), Turn("b")])
        ask(llm)
    await asyncio.to_thread(work)

async def test_after():
    pass
""",
        needles=("unused_turns", "ERROR at teardown of test_worker_thread"),
        outcomes={"passed": 2, "errors": 1},
    ),
    "run_in_executor_makes_a_used_double": correct(
        """
async def test_executor():
    def work():
        ask(FakeLLM.script([Turn("a")]))
    await asyncio.get_running_loop().run_in_executor(None, work)
""",
    ),
    "thread_outliving_its_test": broken(
        THREAD_OUTLIVING_ITS_TEST,
        needles=("session-level test-double violations", "test_starts_work"),
        outcomes={"passed": 2},
    ),
    "asyncio_run_in_sync_test_with_wait_for_cancel": correct(
        """
def test_retry_after_timeout():
    llm = FakeLLM.script([Turn("slow"), Turn("fast")], delay=0.05)
    async def run():
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(llm.chat(messages=Q, model="m"), 0.001)
        return await llm.chat(messages=Q, model="m")
    assert asyncio.run(run()).content == "fast"
""",
    ),
    # --- hypothesis -------------------------------------------------------------------------------
    "hypothesis_assume_rejects_examples_with_doubles": correct(
        """
from hypothesis import assume, given, settings, strategies as st

@settings(max_examples=25, deadline=None)
@given(st.integers(1, 3))
def test_agent(n):
    llm = FakeLLM.script([Turn("x")] * n)
    assume(n != 2)
    ask(llm, n)
""",
    ),
    "hypothesis_drawn_double_rejected_inside_the_test": correct(
        """
from hypothesis import assume, given, settings, strategies as st

scripts = st.builds(lambda n: FakeLLM.script([Turn("x")] * n), st.integers(1, 3))

@settings(max_examples=25, deadline=None)
@given(scripts)
def test_agent(llm):
    assume(llm.remaining == 1)
    ask(llm)
""",
    ),
    "hypothesis_example_that_stops_early": broken(
        """
from hypothesis import given, settings, strategies as st

@settings(max_examples=10, deadline=None)
@given(st.integers(1, 3))
def test_agent(n):
    ask(FakeLLM.script([Turn("x")] * n), 1)
""",
        needles=("unused_turns",),
    ),
    "hypothesis_stateful_machine": correct(
        """
from hypothesis import settings
from hypothesis.stateful import RuleBasedStateMachine, rule

class Agent(RuleBasedStateMachine):
    @rule()
    def ask_once(self):
        ask(FakeLLM.script([Turn("x")]))

TestAgent = Agent.TestCase
TestAgent.settings = settings(max_examples=5, stateful_step_count=3, deadline=None)
""",
    ),
    # --- pytest-asyncio loop scopes -----------------------------------------------------------------
    "asyncio_module_loop_async_module_fixture": correct(
        ASYNC_MODULE_FIXTURE.format(turns=2),
        outcomes={"passed": 2},
    ),
    "asyncio_module_loop_async_module_fixture_unused": broken(
        ASYNC_MODULE_FIXTURE.format(turns=3),
        needles=("unused_turns",),
    ),
    # --- the io doubles ---------------------------------------------------------------------------
    "memory_response_never_matched": broken(
        """
async def test_recall():
    memory = FakeMemory(responses={"units": [MemoryItem("metric", source="p")],
                                   "unit": [MemoryItem("typo", source="p")]})
    assert await memory.query("units") != []
""",
        needles=("unused_entries",),
    ),
    "fake_tool_with_a_tool_calls_own_arguments": correct(
        """
from agentkit.agents.react import ReactAgent
from agentkit.core.testing import make_test_ctx

async def test_agent_calls_tool():
    tool = FakeTool(name="add", responder=lambda args: args["a"] + args["b"])
    llm = FakeLLM.script([Turn(tool_calls=[ToolCall("c1", "add", {"a": 1, "b": 2})]),
                          Turn("3")])
    result = await ReactAgent([tool], model="m").run(make_test_ctx(llm=llm), "1+2?")
    assert result.text == "3"
    assert tool.calls == [{"a": 1, "b": 2}]
""",
    ),
    "tool_loop_hides_invalid_tool_arguments": broken(
        """
from agentkit.agents.react import ReactAgent
from agentkit.core.testing import make_test_ctx

async def test_agent_with_a_typo_in_the_script():
    schema = ToolSchema("add", parameters={"type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "required": ["a", "b"]})
    tool = FakeTool(name="add", responder=lambda args: 0, schema=schema)
    llm = FakeLLM.script([Turn(tool_calls=[ToolCall("c1", "add", {"a": 1, "c": 2})]),
                          Turn("done")])
    result = await ReactAgent([tool], model="m").run(make_test_ctx(llm=llm), "1+2?")
    assert result.text == "done"
""",
        needles=("invalid_tool_arguments",),
    ),
    # --- the CLI and API doubles ------------------------------------------------------------------
    "codex_session_asks_one_of_two_recorded_turns": broken(
        """
from agentkit.agents.cognition import CodexCliCognition
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import FakeCodexCli

async def test_codex_session():
    cli = FakeCodexCli.recorded("text-answer", "resume")
    async with CodexCliCognition(cli).session(RunContext()) as session:
        assert (await session.turn("hi")).error is None
""",
        needles=("FakeCodexCli", "unspawned_runs"),
    ),
    "claude_session_in_a_module_fixture_asks_every_turn": correct(
        CLAUDE_SESSION.format(scope="module")
        + """
@pytest.mark.asyncio(loop_scope="module")
async def test_second(session):
    assert (await session.turn("Second question?")).error is None
""",
        outcomes={"passed": 2},
    ),
    "claude_session_in_a_fixture_second_turn_never_asked": broken(
        CLAUDE_SESSION.format(scope="function"),
        needles=("unasked_turns", "ERROR at teardown of test_first"),
    ),
    "fake_api_brain_left_with_turns": broken(
        API_CLIENT
        + """
def test_client_asks_once():
    llm = FakeLLM.script([Turn("one"), Turn("two")])
    with FakeApi(llm) as api:
        reply = post(api, BODY)
    assert reply["choices"][0]["message"]["content"] == "one"
""",
        needles=("unused_turns",),
    ),
    "fake_api_in_a_session_fixture_served_per_test": correct(
        API_CLIENT
        + """
@pytest.fixture(scope="session")
def api():
    with FakeApi() as api:
        yield api

@pytest.mark.parametrize("word", ["one", "two"])
def test_client(api, word):
    api.serve(FakeLLM.script([Turn(word)]))
    reply = post(api, BODY)
    assert reply["choices"][0]["message"]["content"] == word
""",
        outcomes={"passed": 2},
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_heldout_case(pytester: pytest.Pytester, name: str) -> None:
    check_case(pytester, HEAD, CASES[name], name=name)


def test_a_failed_test_rerun_with_last_failed_is_judged_on_what_ran(
    pytester: pytest.Pytester,
) -> None:
    """``--lf`` runs only the failed test: a module-level double is not judged on the rest."""
    source = """
LLM = FakeLLM.script([Turn("one"), Turn("two")])

def test_first():
    ask(LLM)

def test_second():
    ask(LLM)
    assert {fixed}
"""
    pytester.makeini(INNER_INI)
    pytester.makepyfile(test_inner=HEAD + source.format(fixed="False"))
    first = pytester.runpytest("-p", "no:randomly", "-p", "no:hypothesispytest")
    first.assert_outcomes(passed=1, failed=1)
    assert "test-double violation" not in first.stdout.str()
    pytester.makepyfile(test_inner=HEAD + source.format(fixed="True"))
    rerun = pytester.runpytest("-p", "no:randomly", "-p", "no:hypothesispytest", "--lf")
    rerun.assert_outcomes(passed=1)  # --lf drops test_first from the collected list
    assert "test-double violation" not in rerun.stdout.str()
    again = pytester.runpytest("-p", "no:randomly", "-p", "no:hypothesispytest", "--ff")
    again.assert_outcomes(passed=2)
    assert "test-double violation" not in again.stdout.str()


def test_the_held_out_set_is_large_and_two_sided() -> None:
    failing = [name for name, case in CASES.items() if case.fails]
    passing = [name for name, case in CASES.items() if not case.fails]
    assert len(CASES) >= 40
    assert len(failing) >= 15
    assert len(passing) >= 15
