"""Every double follows the conventions of docs/guides/conventions.md; a new one must too.

The table below has one entry per double the kit exports: where its call log
is, how to make it answer one request, and whether it holds material it is
held to. The tests walk the table, and the first one fails when a double is
exported without an entry -- a new double cannot drift from the conventions
unnoticed.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

import agentkit.core.testing.fakes as fakes
from agentkit.agents.capabilities import RequestBuilder
from agentkit.agents.react import ReactAgent
from agentkit.core._internal.arguments import ArgumentTypeError
from agentkit.core.invoker import Invoker
from agentkit.core.request import ChatRequest
from agentkit.core.testing import (
    CliRun,
    FakeApi,
    FakeClaudeCli,
    FakeClock,
    FakeCodexCli,
    FakeCompactor,
    FakeCtx,
    FakeFetch,
    FakeGrounder,
    FakeLLM,
    FakeMcpServer,
    FakeMemory,
    FakeSearch,
    FakeTool,
    McpTool,
    RecordingTracer,
    ScriptedAdapter,
    Turn,
    make_test_ctx,
)
from agentkit.core.types import FetchResponse, MemoryItem, Message, SearchHit
from agentkit.core.verification import VerifyingDouble
from agentkit.core.verification.script import ScriptExhausted

# Exported by the doubles' packages but not doubles: values and builders they take or give.
HELPERS = {
    "Turn",
    "scripted_runtime",
    "make_test_ctx",
    "CliRun",
    "CliStderr",
    "CliInvocation",
    "codex_turn",
    "RecordingSpan",
    "ApiRequest",
    # What a FakeApi that forwards to a provider keeps of each call: a record, no double.
    "Exchange",
    # FakeMcpServer's declarations and records, and the settings that connect a CLI to it.
    "McpTool",
    "McpRequest",
    "StdioServer",
    "CliMcpSettings",
    "claude_mcp_settings",
    "codex_mcp_settings",
    "mcp_tool_call",
    "mcp_tool_name",
    # FakeFetch's route forms: keys of its routes, not doubles of their own.
    "FetchRoute",
    "InTurn",
    "URLHost",
    "URLPrefix",
    # The CLI recording tools: CapturingSpawn records a REAL spawn (it stands in for
    # nothing), the rest read, write and vet the files the CLI doubles replay.
    "CapturingSpawn",
    "Recording",
    "SecretFinding",
    "find_secrets",
    "load_recording",
    "save_recording",
    "recording_names",
    "recording_path",
}


def _exported_callables() -> set[str]:
    """Every class or function (errors aside) any ``agentkit.fakes.*`` package exports."""
    import agentkit.fakes

    names: set[str] = set()
    for info in pkgutil.iter_modules(agentkit.fakes.__path__):
        if not info.ispkg or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"agentkit.fakes.{info.name}")
        for name in module.__all__:
            value = getattr(module, name)
            is_error = isinstance(value, type) and issubclass(value, BaseException)
            if callable(value) and not is_error:
                names.add(name)
    return names


Ask = Callable[[Any, int], Awaitable[object]]


@dataclass(frozen=True)
class Convention:
    """How one double is made and asked, and where it records what it was asked."""

    make: Callable[[], Any]
    ask: Ask  # (double, n) -> the n-th request, distinct for each n
    log: str  # the public list every request is appended to, in order
    holds_material: bool  # True: it is held to its material, so it must verify


def _user(n: int) -> list[Message]:
    return [Message.user(f"question {n}")]


async def _llm(double: FakeLLM, n: int) -> object:
    return await double.chat(messages=_user(n), model="m")


async def _adapter(double: ScriptedAdapter, n: int) -> object:
    return await double.send(ChatRequest(messages=tuple(_user(n)), model="m"))


async def _fetch(double: FakeFetch, n: int) -> object:
    return await double.fetch(f"https://example.test/{n}")


async def _search(double: FakeSearch, n: int) -> object:
    return await double.search(f"query {n}", k=3)


async def _memory(double: FakeMemory, n: int) -> object:
    return await double.query(f"query {n}", k=2)


async def _tool(double: FakeTool, n: int) -> object:
    return await double.run({"n": n})


async def _clock(double: FakeClock, n: int) -> object:
    await double.sleep(n)
    return None


async def _compactor(double: FakeCompactor, n: int) -> object:
    return await double.compact(_user(n))


async def _grounder(double: FakeGrounder, n: int) -> object:
    return await double.ground(None, f"task {n}")


async def _span(double: Any, n: int) -> object:
    trace = double.trace if isinstance(double, FakeCtx) else double
    with trace.span(f"span {n}"):
        return None


async def _cli(double: Any, n: int) -> object:
    process = await double("cli", "-p", f"prompt {n}")
    return await process.wait()


async def _mcp(double: FakeMcpServer, n: int) -> object:
    import asyncio
    import json
    import urllib.request

    call = {"name": "t", "arguments": {"n": n}}
    body = {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": call}
    request = urllib.request.Request(
        double.url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )

    def send() -> object:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.read()

    return await asyncio.to_thread(send)


async def _api(double: FakeApi, n: int) -> object:
    import json
    import urllib.request

    body = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": f"q {n}"}]}
    request = urllib.request.Request(
        f"{double.anthropic_base_url}/v1/messages",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "x-api-key": "test"},
    )

    def send() -> object:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.read()

    import asyncio

    return await asyncio.to_thread(send)


URLS = {f"https://example.test/{n}": FetchResponse(f"https://example.test/{n}") for n in (1, 2)}
URL_1 = "https://example.test/1"


async def _fetch_one(double: FakeFetch, n: int) -> object:
    """The same URL every time: a route's sequence gives one answer per fetch."""
    return await double.fetch(URL_1)


CONVENTIONS: dict[str, Convention] = {
    "FakeLLM": Convention(lambda: FakeLLM("hi", verify=False), _llm, "calls", True),
    "ScriptedAdapter": Convention(
        lambda: ScriptedAdapter([Turn("a"), Turn("b")], verify=False), _adapter, "calls", True
    ),
    "FakeFetch": Convention(lambda: FakeFetch(URLS, verify=False), _fetch, "calls", True),
    # One answer for every request (a hit list, an item list, a responder): nothing of it can
    # be left over, so these need not verify (they may, for their per-query forms).
    "FakeSearch": Convention(
        lambda: FakeSearch([SearchHit("t", "https://s", "s")]), _search, "queries", False
    ),
    "FakeMemory": Convention(
        lambda: FakeMemory(items=[MemoryItem("a", "src")]), _memory, "queries", False
    ),
    "FakeTool": Convention(lambda: FakeTool(name="t"), _tool, "calls", False),
    "FakeClaudeCli": Convention(
        lambda: FakeClaudeCli([CliRun(), CliRun()], verify=False), _cli, "invocations", True
    ),
    "FakeCodexCli": Convention(
        lambda: FakeCodexCli([CliRun(), CliRun()], verify=False), _cli, "invocations", True
    ),
    "FakeApi": Convention(
        lambda: FakeApi(FakeLLM("hi", verify=False), verify=False), _api, "requests", True
    ),
    "FakeMcpServer": Convention(
        lambda: FakeMcpServer([McpTool("t", answer="ok")], verify=False), _mcp, "calls", True
    ),
    "FakeClock": Convention(FakeClock, _clock, "sleeps", False),
    "FakeCompactor": Convention(FakeCompactor, _compactor, "inputs", False),
    "FakeGrounder": Convention(lambda: FakeGrounder("block"), _grounder, "calls", False),
    "RecordingTracer": Convention(RecordingTracer, _span, "spans", False),
    "FakeCtx": Convention(FakeCtx, _span, "spans", False),
}


def test_every_exported_double_has_a_convention_entry() -> None:
    # Walked over every fakes package, not one facade's list: a double a package exports
    # and no facade mentions yet is a double all the same.
    doubles = _exported_callables() - HELPERS
    assert doubles == set(CONVENTIONS), (
        "a double was added or removed: give it an entry in CONVENTIONS (and a row on "
        "docs/guides/conventions.md), or list a non-double in HELPERS"
    )


@pytest.mark.parametrize("name", sorted(CONVENTIONS))
async def test_every_request_is_appended_to_the_call_log_in_order(name: str) -> None:
    convention = CONVENTIONS[name]
    double = convention.make()
    if isinstance(double, FakeApi | FakeMcpServer):
        double.start()
    try:
        log = getattr(double, convention.log)
        assert isinstance(log, list), f"{name}.{convention.log} is not a list"
        assert log == []
        await convention.ask(double, 1)
        first = list(getattr(double, convention.log))
        await convention.ask(double, 2)
        second = list(getattr(double, convention.log))
    finally:
        if isinstance(double, FakeApi | FakeMcpServer):
            double.close()
    assert len(first) == 1, first
    assert len(second) == 2, second
    assert second[0] == first[0], "an earlier record changed"
    assert second[1] != second[0], "the second request was not told apart from the first"


@pytest.mark.parametrize("name", sorted(CONVENTIONS))
def test_a_double_held_to_its_material_verifies_and_can_opt_out(name: str) -> None:
    cls = getattr(fakes, name)
    if CONVENTIONS[name].holds_material:
        assert issubclass(cls, VerifyingDouble), f"{name} holds material but never verifies it"
    if not issubclass(cls, VerifyingDouble):
        return
    parameter = inspect.signature(cls).parameters.get("verify")
    assert parameter is not None, f"{name} verifies but takes no verify= to opt out"
    assert parameter.kind in (parameter.KEYWORD_ONLY, parameter.POSITIONAL_OR_KEYWORD)
    assert parameter.default is True, f"{name}: verification must be on by default"


@pytest.mark.parametrize(
    ("double", "ask"),
    [
        (lambda: FakeLLM.script([Turn("a")], verify=False), _llm),
        (lambda: ScriptedAdapter([Turn("a")], verify=False), _adapter),
        (lambda: FakeClaudeCli([CliRun()], verify=False), _cli),
        (lambda: FakeCodexCli([CliRun()], verify=False), _cli),
        (lambda: FakeFetch({URL_1: [URLS[URL_1]]}, verify=False), _fetch_one),
    ],
    ids=["FakeLLM.script", "ScriptedAdapter", "FakeClaudeCli", "FakeCodexCli", "FakeFetch-route"],
)
async def test_exhaustion_is_a_script_exhausted_never_an_exception(
    double: Callable[[], Any], ask: Ask
) -> None:
    made = double()
    await ask(made, 1)
    with pytest.raises(ScriptExhausted) as caught:
        await ask(made, 2)
    assert not isinstance(caught.value, Exception)  # no `except Exception` swallows it
    if not isinstance(made, FakeClaudeCli | FakeCodexCli):  # a CLI spawn past its runs: not yet
        assert [v.kind for v in made.violations()] == ["script_exhausted"]  # one name for it


@pytest.mark.parametrize(
    ("what", "build", "argument"),
    [
        ("FakeLLM(responses, turns=)", lambda: FakeLLM("x", turns=[Turn("y")]), "turns"),
        ("FakeLLM(responses, seed=)", lambda: FakeLLM("x", seed=1), "seed"),
        (
            "FakeMemory(responses=, items=)",
            lambda: FakeMemory(responses={"q": []}, items=[]),
            "items",
        ),
        (
            "make_test_ctx(llm=, invoker=)",
            lambda: make_test_ctx(llm=FakeLLM("x"), invoker=Invoker(FakeLLM("y"))),
            "invoker",
        ),
        (
            "ReactAgent(system_prompt=, request_builder=)",
            lambda: ReactAgent(
                [], model="m", system_prompt="s", request_builder=RequestBuilder("s", model="m")
            ),
            "system_prompt",
        ),
    ],
)
def test_two_arguments_that_exclude_each_other_are_an_argument_type_error(
    what: str, build: Callable[[], object], argument: str
) -> None:
    # Like Python's own "got multiple values for argument": a wrong call, not a wrong value.
    with pytest.raises(ArgumentTypeError, match=argument):
        build()


@pytest.mark.parametrize("double", [FakeClaudeCli, FakeCodexCli])
async def test_the_fake_spawn_refuses_an_argument_as_the_real_spawn_does(double: Any) -> None:
    with pytest.raises(ArgumentTypeError, match=r"args\[1\] must be a str"):
        await double([CliRun()], verify=False)("cli", "-p", 42)


async def test_a_refused_request_is_recorded_too() -> None:
    fetch = FakeFetch(URLS, verify=False)
    with pytest.raises(KeyError):
        await fetch.fetch("https://example.test/missing")
    assert fetch.calls == ["https://example.test/missing"]
    llm = FakeLLM("hi", fail_times=1, verify=False)
    with pytest.raises(Exception, match="injected"):
        await _llm(llm, 1)
    assert len(llm.calls) == 1
