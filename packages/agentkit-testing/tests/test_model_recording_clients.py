"""Real clients record a session through a forwarding FakeApi, then replay it with the provider gone.

The provider is a FakeApi on loopback with its own script. Each client --
the official openai SDK (Chat Completions, and Responses carrying a
conversation on by ``previous_response_id``), the anthropic SDK streaming,
and pydantic-ai running a tool loop -- runs the same code twice: once in
front of the provider, recording, and once against the file alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anthropic
import httpx2
import openai
import pytest
from pydantic_ai import Agent
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider

from agentkit.core.testing.model_recording import (
    ModelRecording,
    load_model_recording,
    save_model_recording,
)
from agentkit.core.types import ToolCall
from agentkit.fakes.api import FakeApi
from agentkit.fakes.llm import FakeLLM, Turn

pytestmark = pytest.mark.filterwarnings("ignore:.*ReadOnly. qualifier:UserWarning")


@pytest.fixture(autouse=True)
def provider_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-upstream-fake-openai-key")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-upstream-fake-key")


def record_then_replay(
    script: list[Turn], session: Callable[[FakeApi], Any], path: Path
) -> tuple[Any, Any, FakeLLM]:
    """What ``session`` returns recording through a provider answering ``script``, what it
    returns replaying the file with the provider closed, and the replaying model."""
    with FakeApi(FakeLLM.script(script)) as provider, FakeApi(upstream=provider.url) as api:
        recorded = session(api)
    save_model_recording(ModelRecording.of(api.exchanges), path)
    model = load_model_recording(path).llm()
    with FakeApi(model) as api:
        replayed = session(api)
    assert model.remaining == 0  # every recorded turn was asked for
    assert api.violations() == []
    assert model.violations() == []
    return recorded, replayed, model


def test_openai_chat_completions_tool_loop(tmp_path: Path) -> None:
    script = [
        Turn(tool_calls=[ToolCall("call_1", "get_weather", {"city": "Paris"})]),
        Turn("Sunny in Paris."),
    ]
    tool = {
        "type": "function",
        "function": {"name": "get_weather", "parameters": {"type": "object"}},
    }

    def session(api: FakeApi) -> list[Any]:
        with openai.OpenAI(base_url=api.openai_base_url, api_key="sk-fake", max_retries=0) as c:
            messages: list[Any] = [{"role": "user", "content": "Weather in Paris?"}]
            first = c.chat.completions.create(model="gpt-5", messages=messages, tools=[tool])  # type: ignore[list-item]
            call = first.choices[0].message.tool_calls[0]  # type: ignore[index]
            messages += [
                first.choices[0].message.model_dump(exclude_none=True),
                {"role": "tool", "tool_call_id": call.id, "content": "sunny"},
            ]
            second = c.chat.completions.create(model="gpt-5", messages=messages, tools=[tool])  # type: ignore[list-item]
            return [call.function.name, call.function.arguments, second.choices[0].message.content]  # type: ignore[union-attr]

    recorded, replayed, _ = record_then_replay(script, session, tmp_path / "chat.jsonl")
    assert recorded == replayed == ["get_weather", '{"city":"Paris"}', "Sunny in Paris."]


def test_openai_responses_carried_on_by_previous_response_id(tmp_path: Path) -> None:
    script = [Turn("Paris."), Turn("About two million.")]

    def session(api: FakeApi) -> list[str]:
        with openai.OpenAI(base_url=api.openai_base_url, api_key="sk-fake", max_retries=0) as c:
            first = c.responses.create(model="gpt-5", input="Capital of France?")
            with c.responses.stream(
                model="gpt-5", input="Its population?", previous_response_id=first.id
            ) as stream:
                second = stream.get_final_response()
            return [first.output_text, second.output_text]

    recorded, replayed, model = record_then_replay(script, session, tmp_path / "resp.jsonl")
    assert recorded == replayed == ["Paris.", "About two million."]
    # The second request holds the whole conversation, recorded and replayed alike.
    assert [m.content for m in model.calls[1].messages] == [
        "Capital of France?",
        "Paris.",
        "Its population?",
    ]


def test_anthropic_streaming_with_reasoning(tmp_path: Path) -> None:
    script = [Turn("Forty-two.", reasoning="Let me think.")]

    def session(api: FakeApi) -> list[str]:
        with (
            anthropic.Anthropic(base_url=api.url, api_key="sk-ant-fake", max_retries=0) as c,
            c.messages.stream(
                model="claude-sonnet-4-5",
                max_tokens=200,
                messages=[{"role": "user", "content": "The answer?"}],
            ) as stream,
        ):
            message = stream.get_final_message()
        kinds: list[str] = [block.type for block in message.content]
        return [*kinds, message.content[-1].text]  # type: ignore[union-attr]

    recorded, replayed, _ = record_then_replay(script, session, tmp_path / "claude.jsonl")
    assert recorded == replayed == ["thinking", "text", "Forty-two."]


def test_pydantic_ai_tool_loop_through_the_in_process_transport(tmp_path: Path) -> None:
    script = [
        Turn(tool_calls=[ToolCall("call_1", "get_weather", {"city": "Oslo"})]),
        Turn("Snowing in Oslo."),
    ]

    async def run(api: FakeApi) -> str:
        http = httpx2.AsyncClient(transport=api.transport())
        async with openai.AsyncOpenAI(api_key="sk-fake", max_retries=0, http_client=http) as c:
            agent = Agent(OpenAIChatModel("gpt-5", provider=OpenAIProvider(openai_client=c)))

            @agent.tool_plain
            def get_weather(city: str) -> str:
                return f"snow in {city}"

            return (await agent.run("Weather in Oslo?")).output

    def session(api: FakeApi) -> str:
        return asyncio.run(run(api))  # a loop of its own, closed after

    recorded, replayed, _ = record_then_replay(script, session, tmp_path / "agent.jsonl")
    assert recorded == replayed == "Snowing in Oslo."
