"""RequestBuilder against the capability doubles: FakeCtx, FakeGrounder, FakeCompactor."""

from __future__ import annotations

import pytest

from agentkit.agents.capabilities import PROMPT_VERSION_ATTR, RequestBuilder
from agentkit.core.types import Message, ToolCall
from agentkit.fakes.ctx import FakeCompactor, FakeCtx, FakeGrounder

TRANSCRIPT = [
    Message.user("what is the capital of France?"),
    Message.assistant("", (ToolCall("c1", "search", {"q": "capital of France"}),)),
    Message.tool("Paris is the capital of France.", tool_call_id="c1", name="search"),
]


def build_spans(ctx: FakeCtx) -> list[dict[str, object]]:
    return [attrs for name, _kind, attrs in ctx.spans if name == "request_builder.build"]


async def test_the_request_is_system_prompt_then_grounding_then_the_transcript() -> None:
    grounder = FakeGrounder(block="France: capital Paris.")
    ctx = FakeCtx()
    builder = RequestBuilder("You answer geography questions.", model="m", grounder=grounder)

    request = await builder.build(ctx, TRANSCRIPT, "capital of France")

    assert list(request.messages) == [
        Message.system("You answer geography questions."),
        Message.system("France: capital Paris."),
        *TRANSCRIPT,
    ]
    assert request.model == "m"
    assert grounder.calls == [(ctx, "capital of France")]
    assert request.metadata == {PROMPT_VERSION_ATTR: "v1"}


async def test_an_empty_grounding_block_is_skipped() -> None:
    grounder = FakeGrounder(block="")
    ctx = FakeCtx()
    request = await RequestBuilder("sys", model="m", grounder=grounder).build(ctx, TRANSCRIPT, "t")
    assert list(request.messages) == [Message.system("sys"), *TRANSCRIPT]
    assert grounder.calls == [(ctx, "t")]  # it was asked; its empty answer was left out
    (attrs,) = build_spans(ctx)
    assert attrs["agentkit.prompt.grounded"] is False


async def test_no_system_prompt_means_no_system_message() -> None:
    request = await RequestBuilder("", model="m").build(FakeCtx(), TRANSCRIPT, "t")
    assert list(request.messages) == TRANSCRIPT


async def test_every_build_is_a_span_stamped_with_the_prompt_version() -> None:
    ctx = FakeCtx()
    builder = RequestBuilder("sys", model="m", prompt_version="geo-2024-06")
    await builder.build(ctx, TRANSCRIPT, "t")
    await builder.build(ctx, TRANSCRIPT[:1], "t")
    spans = build_spans(ctx)
    assert [attrs[PROMPT_VERSION_ATTR] for attrs in spans] == ["geo-2024-06", "geo-2024-06"]
    assert [attrs["agentkit.prompt.messages"] for attrs in spans] == [4, 2]
    assert all(attrs["agentkit.prompt.compacted"] is False for attrs in spans)
    # the same spans through the tracer itself
    assert [s.name for s in ctx.trace.spans] == [name for name, _kind, _attrs in ctx.spans]


async def test_the_compactor_runs_only_past_the_message_limit() -> None:
    compactor = FakeCompactor()
    builder = RequestBuilder("sys", model="m", compactor=compactor, max_messages=3)
    ctx = FakeCtx()

    under = await builder.build(ctx, TRANSCRIPT, "t")
    assert compactor.inputs == []
    assert list(under.messages) == [Message.system("sys"), *TRANSCRIPT]

    longer = [*TRANSCRIPT, Message.assistant("Paris.")]
    over = await builder.build(ctx, longer, "t")
    assert compactor.inputs == [tuple(longer)]
    assert compactor.called is True
    assert over.messages[0] == Message.system("sys")
    assert [m.content for m in over.messages[1:]] == ["[COMPACTED]"]
    assert longer == [*TRANSCRIPT, Message.assistant("Paris.")]  # the transcript is not touched
    attrs = build_spans(ctx)[-1]
    assert attrs["agentkit.prompt.compacted"] is True
    assert attrs["agentkit.prompt.compacted_from"] == 4


async def test_the_character_limit_triggers_compaction_too() -> None:
    compactor = FakeCompactor(sentinel="[SHORT]")
    builder = RequestBuilder("sys", model="m", compactor=compactor, max_chars=40)
    request = await builder.build(FakeCtx(), TRANSCRIPT, "t")
    assert compactor.called is True
    assert [m.content for m in request.messages] == ["sys", "[SHORT]"]


def test_a_limit_and_a_compactor_come_together_or_not_at_all() -> None:
    with pytest.raises(ValueError, match="need a compactor"):
        RequestBuilder("sys", model="m", max_messages=5)
    with pytest.raises(ValueError, match="needs a limit"):
        RequestBuilder("sys", model="m", compactor=FakeCompactor())
    with pytest.raises(ValueError, match="max_messages"):
        RequestBuilder("sys", model="m", compactor=FakeCompactor(), max_messages=0)
    with pytest.raises(ValueError, match="model"):
        RequestBuilder("sys", model="")
    with pytest.raises(ValueError, match="prompt_version"):
        RequestBuilder("sys", model="m", prompt_version="")
    with pytest.raises(TypeError, match="system_prompt"):
        RequestBuilder(None, model="m")  # type: ignore[arg-type]


async def test_a_grounder_returning_a_non_str_is_a_clear_error() -> None:
    class Wrong:
        async def ground(self, ctx: object, task: str) -> str:
            return ["not", "a", "block"]  # type: ignore[return-value]

    with pytest.raises(TypeError, match="returned list, expected str"):
        await RequestBuilder("s", model="m", grounder=Wrong()).build(FakeCtx(), TRANSCRIPT, "t")
