"""Every double, and every real implementation in the core, passes its port's contract suite.

The suites are the doubles' promise to the user: a test written against a
double says something about the real thing only if both pass the same rules.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any, ClassVar

import pytest

from agentkit.core.clock import SystemClock
from agentkit.core.invoker import Invoker
from agentkit.core.meters import UsageMeter
from agentkit.core.noop import NoopTrace, NullCtx
from agentkit.core.pricing import ModelPrice, PriceTable
from agentkit.core.request import ChatRequest
from agentkit.core.runtime import RunContext
from agentkit.core.testing.contracts import (
    ClockPortContract,
    ContractSite,
    CtxContract,
    FetchPortContract,
    LLMPortContract,
    MeterContract,
    SpawnPortContract,
    check_asker,
    check_clock_port,
    check_compactor,
    check_ctx,
    check_fetch_port,
    check_grounder,
    check_llm_port,
    check_memory_source,
    check_meter,
    check_search_port,
    check_spawn_port,
    check_tool,
    check_trace_port,
)
from agentkit.core.types import (
    ChatResponse,
    Delta,
    FetchResponse,
    MemoryItem,
    SearchHit,
    ToolCall,
    Usage,
)
from agentkit.fakes.cli import CliRun, FakeClaudeCli, FakeCodexCli
from agentkit.fakes.ctx import FakeCompactor, FakeCtx, FakeGrounder, RecordingTracer, make_test_ctx
from agentkit.fakes.io import FakeClock, FakeFetch, FakeMemory, FakeSearch, FakeTool, URLPrefix
from agentkit.fakes.llm import FakeLLM, Turn, scripted_runtime


class InvokerAsLLMPort:
    """The Invoker seen from a caller that speaks LLMPort: each call runs through it, in a run."""

    def __init__(self, invoker: Invoker) -> None:
        self.invoker = invoker
        self.ctx = RunContext()

    async def chat(self, **request: Any) -> ChatResponse:
        return await self.invoker.chat(self.ctx, ChatRequest(**request))

    def stream(self, **request: Any) -> AsyncIterator[Delta]:
        return self.invoker.stream(self.ctx, ChatRequest(**request))


@pytest.mark.parametrize(
    "factory", [FakeClock, lambda: FakeClock(start=1e9), SystemClock], ids=["fake", "1e9", "system"]
)
async def test_clocks_pass(factory: Callable[[], Any]) -> None:
    assert await check_clock_port(factory) == []


@pytest.mark.parametrize(
    "factory",
    [
        lambda: FakeLLM("pong"),
        lambda: FakeLLM({"pong": "pong"}, usage=Usage(input_tokens=3, output_tokens=1)),
        lambda: FakeLLM(lambda request: "a longer answer that streams in several chunks"),
        lambda: FakeLLM.script([Turn("pong")], repeat_last=True),
        lambda: InvokerAsLLMPort(Invoker(FakeLLM("pong"))),
    ],
    ids=["str", "dict", "callable", "script", "Invoker"],
)
async def test_llm_ports_pass(factory: Callable[[], Any]) -> None:
    skipped = await check_llm_port(factory, failing_factory=lambda: FakeLLM("pong", fail_times=1))
    assert skipped == []


async def test_call_runtime_passes_with_an_unpriced_model_as_its_failure() -> None:
    # The real CallRuntime's own pre-stream failure: a model its price table does not list.
    def make() -> object:
        table = PriceTable({"contract-model": ModelPrice(input=1.0, output=2.0)})
        return scripted_runtime(
            [Turn("pong", usage=Usage(input_tokens=3, output_tokens=1))], table, repeat_last=True
        )

    assert await check_llm_port(make, failing_request={"model": "unpriced-model"}) == []


async def test_an_llm_port_without_a_failure_setup_skips_only_the_failure_checks() -> None:
    skipped = await check_llm_port(lambda: FakeLLM("pong"))
    assert skipped == [
        "a_failure_before_the_first_delta_is_raised_before_any_delta",
        "chat_raises_a_failure_before_the_first_delta",
    ]


async def test_fake_fetch_with_routes_passes_on_the_sites_pages() -> None:
    site = ContractSite()
    pages = site.responses()

    def page(url: str) -> FetchResponse:
        return pages[url]

    def make() -> FakeFetch:
        return FakeFetch({URLPrefix(site.base_url): page}, verify=False)

    assert await check_fetch_port(make, site=site) == ["a_known_url_gives_a_fetch_response"]


async def test_fake_fetch_passes_on_the_sites_pages() -> None:
    site = ContractSite()

    def make() -> FakeFetch:
        # verify=False: the suite's unknown-URL check is a deliberate miss, and each check
        # fetches only some of the pages.
        return FakeFetch(site.responses(), verify=False)

    assert await check_fetch_port(make, site=site, known_url=site.url("/page")) == []


async def test_fake_search_passes() -> None:
    hits = [SearchHit(f"t{n}", f"https://example.test/{n}") for n in range(3)]
    assert await check_search_port(lambda: FakeSearch(hits)) == []
    assert await check_search_port(lambda: FakeSearch({"agent": hits})) == []


READ_BACK = [
    "what_is_written_is_read_back",
    "a_second_write_keeps_the_first",
    "the_store_cannot_be_changed_through_the_callers_copy",
]


async def test_fake_memory_passes_as_a_fixture_double() -> None:
    # FakeMemory records writes and answers from its fixtures: no read-back to check.
    items = [MemoryItem(f"item {n}", "src") for n in range(4)]
    assert await check_memory_source(FakeMemory, keeps_writes=False) == READ_BACK
    made = await check_memory_source(
        lambda: FakeMemory(items=items), items=items, keeps_writes=False
    )
    assert made == READ_BACK


async def test_fake_tool_passes() -> None:
    assert await check_tool(FakeTool) == []
    assert (
        await check_tool(
            lambda: FakeTool(name="adder", responder=lambda a: a["x"] + 1), args={"x": 1}
        )
        == []
    )


async def test_correct_search_ports_pass() -> None:
    hits = [SearchHit(f"t{n}", f"https://example.test/{n}") for n in range(3)]
    assert await check_search_port(lambda: FakeSearch(hits)) == []
    assert await check_search_port(lambda: FakeSearch([])) == []


async def test_the_kits_services_pass() -> None:
    assert await check_compactor(FakeCompactor) == []
    assert await check_grounder(FakeGrounder) == []
    assert await check_grounder(lambda: FakeGrounder("facts")) == []
    assert await check_meter(UsageMeter) == []


async def test_an_asker_that_decides_alone_passes() -> None:
    class ApproveReads:
        async def ask(self, question: str, *, tool_call: ToolCall) -> bool:
            return not tool_call.name.startswith("delete")

    assert await check_asker(ApproveReads) == []


@pytest.mark.parametrize("factory", [NoopTrace, RecordingTracer], ids=["noop", "recording"])
async def test_tracers_pass(factory: Callable[[], Any]) -> None:
    assert await check_trace_port(factory) == []


@pytest.mark.parametrize(
    "factory",
    [NullCtx, FakeCtx, make_test_ctx, lambda: make_test_ctx(trace=RecordingTracer())],
    ids=["NullCtx", "FakeCtx", "make_test_ctx", "make_test_ctx-recording"],
)
async def test_ctxs_pass(factory: Callable[[], Any]) -> None:
    assert await check_ctx(factory) == []


OUT = b'{"n":1}\n{"n":2}\npartial'
ERR = b"warning\n"


@pytest.mark.parametrize("cli", [FakeClaudeCli, FakeCodexCli])
@pytest.mark.parametrize("code", [0, 3])
async def test_cli_doubles_pass_the_spawn_suite(cli: type[FakeClaudeCli], code: int) -> None:
    def make() -> FakeClaudeCli:
        return cli([CliRun(stdout=OUT, stderr=ERR, returncode=code)])

    assert await check_spawn_port(make, stdout=OUT, stderr=ERR, returncode=code) == []


# ----------------------------------------------- the pytest base classes


class TestFakeClockAsAContractSubclass(ClockPortContract):
    @pytest.fixture
    def make_port(self) -> object:
        return FakeClock


class TestFakeCtxAsAContractSubclass(CtxContract):
    @pytest.fixture
    def make_port(self) -> object:
        return FakeCtx


class TestFakeCodexCliAsAContractSubclass(SpawnPortContract):
    contract_options: ClassVar[Mapping[str, Any]] = {"stdout": OUT, "stderr": b"", "returncode": 1}

    @pytest.fixture
    def make_port(self) -> object:
        return lambda: FakeCodexCli([CliRun(stdout=OUT, returncode=1)])


class TestFakeFetchWithOptionsFromAFixture(FetchPortContract):
    @pytest.fixture
    def make_port(self) -> Callable[[], Any]:
        site = ContractSite()
        return lambda: FakeFetch(site.responses(), verify=False)

    @pytest.fixture
    def port_options(self) -> Mapping[str, Any]:
        site = ContractSite()
        return {"known_url": site.url("/page"), "site": site}


class TestUsageMeterAsAContractSubclass(MeterContract):
    @pytest.fixture
    def make_port(self) -> object:
        return UsageMeter


class TestFakeLLMWithOptionsFromTheClass(LLMPortContract):
    contract_options: ClassVar[Mapping[str, Any]] = {
        "failing_factory": lambda: FakeLLM("pong", fail_times=1)
    }

    @pytest.fixture
    def make_port(self) -> Callable[[], Any]:
        return lambda: FakeLLM("pong")


async def test_a_contract_test_whose_option_is_missing_is_a_skip() -> None:
    class Bare(LLMPortContract):
        pass

    tests = Bare()

    class NoFixture:
        def getfixturevalue(self, name: str) -> object:
            raise type("FixtureLookupError", (Exception,), {})(name)

    method = Bare.test_chat_raises_a_failure_before_the_first_delta  # type: ignore[attr-defined]
    with pytest.raises(pytest.skip.Exception, match="needs the option"):
        await method(tests, lambda: FakeLLM("pong"), NoFixture())
