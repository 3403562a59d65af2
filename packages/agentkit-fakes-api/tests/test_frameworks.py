"""The agent frameworks on FakeApi, where a test goes wrong: what reaches the framework.

The happy tool loops of pydantic-ai, openai-agents, LangChain and LiteLLM
are the docs pages' examples (docs/guides/frameworks, run by the docs
suite). These pin what the pages promise beyond them: a request the script
cannot answer and a scripted provider error reach each framework as the
provider's own status, raised at once, and are recorded on the FakeApi.
"""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import Iterator

import httpx2
import openai
import pytest
from agents import Agent, OpenAIResponsesModel, RunConfig, Runner
from langchain_openai import ChatOpenAI
from pydantic import SecretStr
from pydantic_ai import Agent as PydanticAgent
from pydantic_ai.exceptions import ModelHTTPError
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider

from agentkit.core.types import ToolCall
from agentkit.fakes.api import ApiError, FakeApi
from agentkit.fakes.llm import FakeLLM, Turn

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no download on import
import litellm

pytestmark = pytest.mark.filterwarnings("ignore:.*ReadOnly. qualifier:UserWarning")


def async_openai(api: FakeApi) -> openai.AsyncOpenAI:
    http = httpx2.AsyncClient(transport=api.transport())
    return openai.AsyncOpenAI(api_key="sk-fake", max_retries=0, http_client=http)


async def test_pydantic_ai_asking_past_the_script_is_a_400_at_once() -> None:
    # One tool turn scripted, but the agent needs a second request after the tool ran.
    turn = Turn(tool_calls=[ToolCall("c1", "get_weather", {"city": "Oslo"})])
    # Both doubles' findings are what this test asserts: neither fails its teardown.
    api = FakeApi(FakeLLM.script([turn], verify=False), verify=False)
    model = OpenAIChatModel("gpt-5", provider=OpenAIProvider(openai_client=async_openai(api)))
    agent = PydanticAgent(model)

    @agent.tool_plain
    def get_weather(city: str) -> str:
        return f"sunny in {city}"

    with pytest.raises(ModelHTTPError) as raised:
        await agent.run("Weather in Oslo?")

    assert raised.value.status_code == 400
    assert [r.status for r in api.requests] == [200, 400]  # no retry of the 400
    assert [v.kind for v in api.violations()] == ["unanswerable_request"]


async def test_openai_agents_a_scripted_500_is_the_sdks_error() -> None:
    api = FakeApi(FakeLLM("never", fail_times=1, fail_exc=ApiError(500, "model down")))
    agent = Agent(
        name="a", model=OpenAIResponsesModel(model="gpt-5", openai_client=async_openai(api))
    )

    with pytest.raises(openai.InternalServerError, match="model down"):
        await Runner.run(agent, "Hi", run_config=RunConfig(tracing_disabled=True))

    assert [(r.route, r.status) for r in api.requests] == [("/v1/responses", 500)]


def test_langchain_a_scripted_429_is_a_rate_limit_error() -> None:
    api = FakeApi(FakeLLM("never", fail_times=1, fail_exc=ApiError(429, "slow down")))
    model = ChatOpenAI(
        model="gpt-5",
        api_key=SecretStr("sk-fake"),
        max_retries=0,
        http_client=httpx2.Client(transport=api.transport()),
    )

    with pytest.raises(openai.RateLimitError, match="slow down"):
        model.invoke("Hi")

    assert [r.status for r in api.requests] == [429]


def test_litellm_a_scripted_429_is_litellms_rate_limit_error() -> None:
    api = FakeApi(FakeLLM("never", fail_times=1, fail_exc=ApiError(429, "slow down")))
    client = openai.OpenAI(
        api_key="sk-fake", max_retries=0, http_client=httpx2.Client(transport=api.transport())
    )

    with pytest.raises(litellm.exceptions.RateLimitError):
        litellm.completion(
            model="openai/gpt-5",
            messages=[{"role": "user", "content": "Hi"}],
            client=client,
            num_retries=0,
            max_retries=0,
        )

    assert [r.status for r in api.requests] == [429]


@pytest.fixture(autouse=True, scope="module")
def close_litellms_event_loops() -> Iterator[None]:
    """LiteLLM's synchronous completion leaves an event loop of its own open; closed here,
    or the ResourceWarning its collection raises fails a later test."""
    yield
    for thing in gc.get_objects():
        loop = thing if isinstance(thing, asyncio.AbstractEventLoop) else None
        if loop is not None and not (loop.is_running() or loop.is_closed()):
            loop.close()
