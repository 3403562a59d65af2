"""The api_recording fixture end to end: record once from a provider, replay with it gone.

The provider is a FakeApi on loopback whose answers say what they answer
(so a replay is told from a real call by the provider's request log), and
each step runs the user's test file in a fresh pytest session, as a user
runs pytest: record, read the file, edit it, replay, refresh.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentkit.core.request import ChatRequest
from agentkit.fakes.api import ApiError, FakeApi
from agentkit.fakes.llm import FakeLLM
from tests.support.inner_session import run_inner

pytest_plugins = ["pytester"]

UPSTREAM_KEY = "sk-ant-upstream-fake-key-never-written"

TEST = """
import anthropic
from agentkit.core.testing.pytest_plugin import ApiRecorder

PROVIDER = {provider!r}


def test_weather(api_recording: ApiRecorder) -> None:
    api = api_recording(PROVIDER)
    with anthropic.Anthropic(base_url=api.url, api_key="sk-ant-fake", max_retries=0) as client:
        for question in {questions!r}:
            reply = client.messages.create(
                model="claude-sonnet-4-5",
                max_tokens=100,
                messages=[{{"role": "user", "content": question}}],
            )
            text = reply.content[0].text
            assert text == {expect!r} + question or {scrubbed!r} and "[REDACTED]" in text
"""


def answer(request: ChatRequest) -> str:
    return f"Answer to {request.last_user_text}"


@pytest.fixture
def provider(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeApi]:
    monkeypatch.setenv("ANTHROPIC_API_KEY", UPSTREAM_KEY)
    with FakeApi(FakeLLM(answer)) as api:
        yield api


def run(
    pytester: pytest.Pytester,
    provider: FakeApi | str,
    *args: str,
    questions: tuple[str, ...] = ("Paris?",),
    expect: str = "Answer to ",
    scrubbed: bool = False,
) -> pytest.RunResult:
    url = provider if isinstance(provider, str) else provider.url
    source = TEST.format(provider=url, questions=questions, expect=expect, scrubbed=scrubbed)
    return run_inner(pytester, source, *args)


def recording(pytester: pytest.Pytester) -> Path:
    return pytester.path / "recordings" / "test_inner" / "api" / "test_weather.jsonl"


def lines(pytester: pytest.Pytester) -> list[dict[str, object]]:
    return [json.loads(line) for line in recording(pytester).read_text("utf-8").splitlines()]


def test_a_missing_recording_fails_saying_how_to_record_it(
    pytester: pytest.Pytester, provider: FakeApi
) -> None:
    result = run(pytester, provider)
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "no model recording for this test" in text
    assert "pytest --agentkit-api-record=once test_inner.py::test_weather" in text
    assert provider.requests == []


def test_record_once_then_replay_with_the_provider_gone(
    pytester: pytest.Pytester, provider: FakeApi
) -> None:
    run(pytester, provider, "--agentkit-api-record=once").assert_outcomes(passed=1)
    assert len(provider.requests) == 1
    header, turn = lines(pytester)
    assert header["agentkit_model_recording"] == 1
    assert header["wire"] == "anthropic"
    assert header["model"] == "claude-sonnet-4-5"
    assert "pytest --agentkit-api-record=all test_inner.py::test_weather" in str(header["source"])
    assert turn["answer"] == {
        "content": "Answer to Paris?",
        "usage": turn["answer"]["usage"],  # type: ignore[index]
        "finish_reason": "stop",
    }
    assert turn["request"] == {
        "model": "claude-sonnet-4-5",
        "temperature": 1.0,  # the API's default, as the fake reads every request
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "Paris?"}],
    }

    url = provider.url
    provider.close()  # the provider is gone: the replay needs nothing of it
    run(pytester, url).assert_outcomes(passed=1)
    run(pytester, url, "--agentkit-api-record=once").assert_outcomes(passed=1)  # has one
    assert len(provider.requests) == 1


def test_the_answer_is_changed_by_editing_its_line(
    pytester: pytest.Pytester, provider: FakeApi
) -> None:
    run(pytester, provider, "--agentkit-api-record=once").assert_outcomes(passed=1)
    path = recording(pytester)
    path.write_text(
        path.read_text("utf-8").replace(
            '"content": "Answer to Paris?"', '"content": "Edited Paris?"'
        ),
        "utf-8",
    )
    run(pytester, provider, expect="Edited ").assert_outcomes(passed=1)
    assert len(provider.requests) == 1


def test_a_changed_request_fails_with_a_diff_and_the_command(
    pytester: pytest.Pytester, provider: FakeApi
) -> None:
    run(pytester, provider, "--agentkit-api-record=once").assert_outcomes(passed=1)
    result = run(pytester, provider, questions=("Rome?",))
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert '-      "content": "Paris?"' in text
    assert '+      "content": "Rome?"' in text
    assert "RequestMismatch" in text
    assert "pytest --agentkit-api-record=all test_inner.py::test_weather" in text
    assert len(provider.requests) == 1


def test_an_unused_recorded_turn_fails_the_replay(
    pytester: pytest.Pytester, provider: FakeApi
) -> None:
    two = ("Paris?", "Rome?")
    run(pytester, provider, "--agentkit-api-record=once", questions=two).assert_outcomes(passed=1)
    assert len(lines(pytester)) == 3
    run(pytester, provider, questions=two).assert_outcomes(passed=1)
    result = run(pytester, provider, questions=("Paris?",))
    assert "unused_turns" in result.stdout.str()
    assert result.ret != 0


def test_record_all_asks_the_provider_again_and_rewrites(
    pytester: pytest.Pytester, provider: FakeApi
) -> None:
    run(pytester, provider, "--agentkit-api-record=once").assert_outcomes(passed=1)
    run(pytester, provider, "--agentkit-api-record=all", questions=("Oslo?",)).assert_outcomes(
        passed=1
    )
    assert len(provider.requests) == 2
    assert [turn["request"]["messages"] for turn in lines(pytester)[1:]] == [  # type: ignore[index]
        [{"role": "user", "content": "Oslo?"}]
    ]


def test_new_episodes_replays_what_it_has_and_records_what_is_new(
    pytester: pytest.Pytester, provider: FakeApi
) -> None:
    run(pytester, provider, "--agentkit-api-record=once").assert_outcomes(passed=1)
    two = ("Paris?", "Rome?")
    run(pytester, provider, "--agentkit-api-record=new_episodes", questions=two).assert_outcomes(
        passed=1
    )
    assert len(provider.requests) == 2  # Paris was replayed, Rome asked
    assert [t["answer"]["content"] for t in lines(pytester)[1:]] == [  # type: ignore[index]
        "Answer to Paris?",
        "Answer to Rome?",
    ]
    run(pytester, provider, questions=two).assert_outcomes(passed=1)
    assert len(provider.requests) == 2


def test_the_record_option_of_the_cli_recordings_records_models_too(
    pytester: pytest.Pytester, provider: FakeApi
) -> None:
    run(pytester, provider, "--agentkit-record=once").assert_outcomes(passed=1)
    assert recording(pytester).is_file()


def test_a_recorded_provider_error_replays_as_that_error(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", UPSTREAM_KEY)
    source = """
import anthropic
import pytest
from agentkit.core.testing.pytest_plugin import ApiRecorder


def test_weather(api_recording: ApiRecorder) -> None:
    api = api_recording({url!r})
    with anthropic.Anthropic(base_url=api.url, api_key="sk-ant-fake", max_retries=0) as client:
        with pytest.raises(anthropic.APIStatusError) as caught:
            client.messages.create(
                model="m", max_tokens=10, messages=[{{"role": "user", "content": "Hi"}}]
            )
    assert caught.value.status_code == 529
    assert "Overloaded" in str(caught.value)
"""
    with FakeApi(FakeLLM.script([ApiError(529, "Overloaded")])) as provider:
        text = source.format(url=provider.url)
        run_inner(pytester, text, "--agentkit-api-record=once").assert_outcomes(passed=1)
    (_, turn) = lines(pytester)
    assert turn["error"] == {"status": 529, "message": "Overloaded", "kind": "overloaded_error"}
    run_inner(pytester, text).assert_outcomes(passed=1)


def test_no_secret_is_written_and_the_file_passes_scan(
    pytester: pytest.Pytester, provider: FakeApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agentkit.fakes.cli import find_secrets

    planted = "sk-ant-api03-" + "Q7xv9" * 16 + "-AbCdEfAA"
    question = f"My key is {planted}, is it safe?"
    run(pytester, provider, "--agentkit-api-record=once", questions=(question,)).assert_outcomes(
        passed=1
    )
    data = recording(pytester).read_bytes()
    assert planted.encode() not in data
    assert UPSTREAM_KEY.encode() not in data
    assert b"[REDACTED]" in data
    assert find_secrets(data) == []
    # The scrubbed request still matches the one the test makes (the answer that echoed
    # the key replays scrubbed).
    run(pytester, provider, questions=(question,), scrubbed=True).assert_outcomes(passed=1)
    assert len(provider.requests) == 1


def test_a_recording_made_through_anthropic_replays_to_an_openai_client(
    pytester: pytest.Pytester, provider: FakeApi
) -> None:
    run(pytester, provider, "--agentkit-api-record=once").assert_outcomes(passed=1)
    source = """
import openai
from agentkit.core.testing.pytest_plugin import ApiRecorder


def test_weather(api_recording: ApiRecorder) -> None:
    api = api_recording("anthropic")
    with openai.OpenAI(base_url=api.openai_base_url, api_key="sk-fake", max_retries=0) as client:
        reply = client.chat.completions.create(
            model="claude-sonnet-4-5",
            max_tokens=100,
            messages=[{"role": "user", "content": "Paris?"}],
        )
    assert reply.choices[0].message.content == "Answer to Paris?"
"""
    run_inner(pytester, source).assert_outcomes(passed=1)
    assert len(provider.requests) == 1


def test_ask_for_a_provider_by_name_or_url(pytester: pytest.Pytester) -> None:
    source = """
import pytest
from agentkit.core.errors import ArgumentValueError
from agentkit.core.testing.pytest_plugin import ApiRecorder


def test_names(api_recording: ApiRecorder) -> None:
    with pytest.raises(ArgumentValueError, match="upstream"):
        api_recording("not a provider")
    with pytest.raises(ArgumentValueError, match="name"):
        api_recording("anthropic", name="a/b")
"""
    run_inner(pytester, source).assert_outcomes(passed=1)
