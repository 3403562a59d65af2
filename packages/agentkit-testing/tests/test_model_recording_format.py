"""The model recording file: what it holds, how it reads back, what it refuses, what it replays."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agentkit.core.request import ChatRequest
from agentkit.core.testing.model_recording import (
    ModelRecording,
    RecordedCall,
    RequestMismatch,
    load_model_recording,
    save_model_recording,
)
from agentkit.core.types import Delta, Message, ToolCall, ToolSchema, Usage
from agentkit.fakes.api import ApiError, BrokenStream
from agentkit.fakes.cli import RecordingError, find_secrets
from agentkit.fakes.llm import FakeLLM, Turn

TOOL = ToolSchema("get_weather", "The weather.", {"type": "object", "properties": {}})
CALL = ToolCall("call_1", "get_weather", {"city": "Paris"})
ASK = ChatRequest([Message.system("Be brief."), Message.user("Weather?")], "m", [TOOL])
THEN = ChatRequest(
    [
        Message.system("Be brief."),
        Message.user("Weather?"),
        Message.assistant("", (CALL,)),
        Message.tool("sunny", tool_call_id="call_1", name="get_weather"),
    ],
    "m",
    [TOOL],
    {"type": "json_object"},
    0.5,
    100,
)


def session() -> ModelRecording:
    return ModelRecording(
        (
            RecordedCall(ASK, Turn(tool_calls=[CALL], usage=Usage(10, 2, 0, 5)), "anthropic"),
            RecordedCall(
                THEN, Turn("Sunny.", reasoning="Easy.", finish_reason="stop"), "openai_chat"
            ),
            RecordedCall(ASK, ApiError(529, "Overloaded", kind="overloaded_error", in_stream=True)),
            RecordedCall(ASK, BrokenStream("cut", partial=[Delta(content="Sun")])),
            RecordedCall(
                ASK,
                ApiError(529, "Overloaded", in_stream=True, partial=[Delta(content="It is")]),
            ),
        ),
        "made by hand",
    )


def test_every_kind_of_call_reads_back_as_written() -> None:
    data = session().dumps()
    again = ModelRecording.loads(data)
    assert again.dumps() == data
    assert [c.request for c in again.calls] == [ASK, THEN, ASK, ASK, ASK]
    first, second, error, broken, late = (c.answer for c in again.calls)
    assert isinstance(late, ApiError)
    assert late.partial == (Delta(content="It is"),)
    assert first == Turn(tool_calls=[CALL], usage=Usage(10, 2, 0, 5))
    assert second == Turn("Sunny.", reasoning="Easy.", finish_reason="stop")
    assert isinstance(error, ApiError)
    assert (error.status, error.message, error.kind, error.in_stream) == (
        529,
        "Overloaded",
        "overloaded_error",
        True,
    )
    assert isinstance(broken, BrokenStream)
    assert broken.partial == (Delta(content="Sun"),)
    assert again.source == "made by hand"
    assert again.wires == ("anthropic", "openai_chat")


def test_one_line_a_call_the_answer_first() -> None:
    header, *turns = session().dumps().decode().splitlines()
    assert json.loads(header) == {
        "agentkit_model_recording": 1,
        "wire": "anthropic+openai_chat",
        "model": "m",
        "turns": 5,
        "source": "made by hand",
    }
    assert len(turns) == 5
    assert [list(json.loads(t))[:2] for t in turns] == [
        ["turn", "answer"],
        ["turn", "answer"],
        ["turn", "error"],
        ["turn", "broken"],
        ["turn", "error"],
    ]
    assert turns[1].index('"answer"') < turns[1].index('"request"')


@pytest.mark.parametrize(
    ("lines", "says"),
    [
        ([], "empty: no header line"),
        (['{"agentkit_recording": 1}'], "not a model recording"),
        (["not json"], "<recording>:1: not a JSON line"),
        (['{"agentkit_model_recording": 1}', "[1]"], "<recording>:2: a line must be a JSON object"),
        (
            ['{"agentkit_model_recording": 1}', '{"answer": {}, "error": {}, "request": {}}'],
            "exactly one of answer, error, broken",
        ),
        (['{"agentkit_model_recording": 1}', '{"answer": {}}'], "turn 1: no request"),
        (
            [
                '{"agentkit_model_recording": 1}',
                '{"answer": {}, "request": {"model": "m", "messages": [{"role": "robot"}]}}',
            ],
            "turn 1.request.messages[0].role",
        ),
        (
            [
                '{"agentkit_model_recording": 1}',
                '{"answer": {"content": 3}, "request": {"model": "m", "messages": []}}',
            ],
            "turn 1.answer.content: expected a string, got 3",
        ),
        (
            [
                '{"agentkit_model_recording": 1}',
                '{"error": {"status": 200}, "request": {"model": "m", "messages": []}}',
            ],
            "turn 1.error.status: an HTTP error status",
        ),
        (
            [
                '{"agentkit_model_recording": 1}',
                '{"answer": {"usage": {"tokens": 1}}, "request": {"model": "m", "messages": []}}',
            ],
            "unknown field(s) ['tokens']",
        ),
    ],
)
def test_a_bad_file_is_refused_naming_the_line_and_field(lines: list[str], says: str) -> None:
    with pytest.raises(RecordingError, match=None) as refused:
        ModelRecording.loads("\n".join(lines).encode())
    assert says in str(refused.value)


def test_a_missing_file_names_where_it_was_looked_for(tmp_path: Path) -> None:
    with pytest.raises(RecordingError, match="no such file"):
        load_model_recording(tmp_path / "nothing.jsonl")


def test_secrets_are_scrubbed_before_the_gate_and_scan_finds_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_SERVICE_TOKEN", "tok-" + "Zq8w" * 8)
    planted = "sk-ant-api03-" + "Q7xv9" * 16 + "-AbCdEfAA"
    request = ChatRequest(
        [Message.user(f"key {planted}, token tok-{'Zq8w' * 8}, code 4711-internal")], "m"
    )
    recording = ModelRecording((RecordedCall(request, Turn(f"echo {planted}")),))
    path = save_model_recording(recording, tmp_path / "r" / "t.jsonl", scrub=["4711-internal"])
    data = path.read_bytes()
    assert planted.encode() not in data
    assert b"Zq8w" not in data
    assert b"4711-internal" not in data
    assert find_secrets(data) == []
    scan = subprocess.run(
        [sys.executable, "-m", "agentkit.fakes.cli", "scan", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert scan.returncode == 0, scan.stdout + scan.stderr
    assert "1 file(s), 0 finding(s)" in scan.stderr


async def test_a_replay_answers_in_order_and_checks_each_request() -> None:
    model = ModelRecording.loads(session().dumps()).llm(rerecord="pytest --again")
    first = await model.chat(**ASK.keywords())
    assert first.tool_calls == (CALL,)
    second = await model.chat(**THEN.keywords())
    assert second.content == "Sunny."
    with pytest.raises(ApiError):
        await model.chat(**ASK.keywords())
    with pytest.raises(BrokenStream):
        await model.chat(**ASK.keywords())
    with pytest.raises(ApiError):
        await model.chat(**ASK.keywords())
    assert model.remaining == 0
    assert model.violations() == []


async def test_a_changed_request_raises_a_diff_and_is_a_violation() -> None:
    model = ModelRecording.loads(session().dumps()).llm(rerecord="pytest --again", verify=False)
    changed = ChatRequest(
        [Message.system("Be brief."), Message.user("Weather in Rome?")], "m", [TOOL]
    )
    with pytest.raises(RequestMismatch) as raised:
        await model.chat(**changed.keywords())
    text = str(raised.value)
    assert '-      "content": "Weather?"' in text
    assert '+      "content": "Weather in Rome?"' in text
    assert text.endswith("If the change is intended, record it again:\n    pytest --again")
    assert raised.value.turn == 1
    assert [v.kind for v in model.violations()] == ["request_mismatch", "unused_turns"]


async def test_an_unused_turn_is_a_violation_and_check_requests_false_skips_the_check() -> None:
    model = ModelRecording.loads(session().dumps()).llm(check_requests=False, verify=False)
    other = ChatRequest([Message.user("anything")], "other-model", [TOOL])
    assert (await model.chat(**other.keywords())).tool_calls == (CALL,)
    assert [v.kind for v in model.violations()] == ["unused_turns"]


def test_a_replay_is_a_fake_llm_script() -> None:
    model = ModelRecording.loads(session().dumps()).llm(verify=False)
    assert isinstance(model, FakeLLM)
    assert len(model.turns) == 5


def test_the_recorded_answer_is_changed_by_editing_one_line() -> None:
    data = session().dumps().replace(b'"content": "Sunny."', b'"content": "Rainy."')
    (_, edited, *_) = ModelRecording.loads(data).calls
    assert edited.answer == Turn("Rainy.", reasoning="Easy.", finish_reason="stop")


def test_the_public_api_is_pinned() -> None:
    import agentkit.core.testing.model_recording as public
    from agentkit.core.testing import pytest_plugin

    assert public.__all__ == [
        "FORMAT",
        "ModelRecording",
        "RecordedCall",
        "RecordedModel",
        "RequestMismatch",
        "load_model_recording",
        "save_model_recording",
    ]
    assert RequestMismatch.__module__ == "agentkit.core.testing.model_recording"
    assert issubclass(RequestMismatch, BaseException)
    assert not issubclass(RequestMismatch, Exception)
    assert pytest_plugin.MODES == ("none", "once", "new_episodes", "all")
    assert {"ApiRecorder", "api_recording"} <= set(pytest_plugin.__all__)


async def test_a_line_continuing_an_earlier_call_holds_only_what_is_new() -> None:
    answer = Turn(tool_calls=[CALL])
    follow = ChatRequest(
        [
            *ASK.messages,
            Message.assistant("", (CALL,)),
            Message.tool("sunny", tool_call_id="call_1"),
        ],
        "m",
        [TOOL],
    )
    recording = ModelRecording((RecordedCall(ASK, answer), RecordedCall(follow, Turn("Sunny."))))
    _, _, second = recording.dumps().decode().splitlines()
    request = json.loads(second)["request"]
    assert request["continues"] == 1
    assert request["tools"] == "as in turn 1"
    assert request["messages"] == [{"role": "tool", "content": "sunny", "tool_call_id": "call_1"}]
    assert [c.request for c in ModelRecording.loads(recording.dumps()).calls] == [ASK, follow]


async def test_an_edited_answer_is_what_the_next_call_is_checked_against() -> None:
    recording = ModelRecording(
        (
            RecordedCall(ASK, Turn("Paris, you said?")),
            RecordedCall(
                ChatRequest(
                    [*ASK.messages, Message.assistant("Paris, you said?"), Message.user("Yes.")],
                    "m",
                    [TOOL],
                ),
                Turn("Sunny."),
            ),
        )
    )
    edited = recording.dumps().replace(b"Paris, you said?", b"Which city?")
    model = ModelRecording.loads(edited).llm()
    first = await model.chat(**ASK.keywords())
    assert first.content == "Which city?"
    # The client sends the answer it got back: the edited one, and the check follows it.
    then = [*ASK.messages, Message.assistant("Which city?"), Message.user("Yes.")]
    assert (await model.chat(messages=then, model="m", tools=[TOOL])).content == "Sunny."
    assert model.violations() == []


async def test_an_agent_changing_its_history_is_caught_on_the_fast_path_too() -> None:
    follow = [*ASK.messages, Message.assistant("Paris."), Message.user("And Rome?")]
    recording = ModelRecording(
        (
            RecordedCall(ASK, Turn("Paris.")),
            RecordedCall(ChatRequest(follow, "m", [TOOL]), Turn("Rome.")),
        )
    )
    model = ModelRecording.loads(recording.dumps()).llm(verify=False)
    transcript = list(ASK.messages)
    await model.chat(messages=transcript, model="m", tools=[TOOL])
    # The same objects, but the system prompt of the history swapped for another.
    changed = [
        Message.system("Be verbose."),
        transcript[1],
        Message.assistant("Paris."),
        follow[-1],
    ]
    with pytest.raises(RequestMismatch, match="Be verbose"):
        await model.chat(messages=changed, model="m", tools=[TOOL])
