"""FakeCompactor and FakeGrounder: the capability doubles."""

from __future__ import annotations

import pytest

from agentkit.core.types import Message
from agentkit.fakes.ctx import FakeCompactor, FakeCtx, FakeGrounder

TRANSCRIPT = [Message.user("q"), Message.assistant("a"), Message.user("q2")]


async def test_compactor_replaces_the_transcript_with_one_sentinel_message() -> None:
    compactor = FakeCompactor()
    assert compactor.inputs == []
    result = await compactor.compact(TRANSCRIPT)
    assert result == [Message.user("[COMPACTED]")]
    assert compactor.called
    assert compactor.inputs == [tuple(TRANSCRIPT)]


async def test_compactor_sentinel_is_configurable_and_empty_transcripts_compact_too() -> None:
    compactor = FakeCompactor(sentinel="[SHORT]")
    assert await compactor.compact([]) == [Message.user("[SHORT]")]
    assert compactor.inputs == [()]


async def test_compactor_records_each_call_as_an_immutable_snapshot() -> None:
    compactor = FakeCompactor()
    transcript = list(TRANSCRIPT)
    await compactor.compact(transcript)
    transcript.append(Message.assistant("later"))
    await compactor.compact(transcript[:1])
    assert compactor.inputs == [tuple(TRANSCRIPT), (TRANSCRIPT[0],)]


async def test_compactor_result_is_a_fresh_list_each_time() -> None:
    compactor = FakeCompactor()
    first = await compactor.compact(TRANSCRIPT)
    first.append(Message.user("mine"))
    assert await compactor.compact(TRANSCRIPT) == [Message.user("[COMPACTED]")]


async def test_compactor_rejects_what_is_not_a_transcript() -> None:
    compactor = FakeCompactor()
    with pytest.raises(TypeError, match="sequence of Message, got str"):
        await compactor.compact("hello")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"messages\[1\] is dict, not a Message"):
        await compactor.compact([Message.user("ok"), {"role": "user"}])  # type: ignore[list-item]
    assert compactor.called is False
    assert compactor.inputs == []
    with pytest.raises(TypeError, match="sentinel must be a str"):
        FakeCompactor(sentinel=None)  # type: ignore[arg-type]


async def test_grounder_returns_its_block_and_records_ctx_and_task() -> None:
    grounder = FakeGrounder(block="France: capital Paris.")
    ctx = FakeCtx()
    assert await grounder.ground(ctx, "capital of France") == "France: capital Paris."
    assert await grounder.ground(None, "again") == "France: capital Paris."
    assert grounder.calls == [(ctx, "capital of France"), (None, "again")]
    assert grounder.calls[0][0] is ctx


async def test_grounder_defaults_to_the_empty_block() -> None:
    grounder = FakeGrounder()
    assert await grounder.ground(FakeCtx(), "t") == ""


def test_grounders_do_not_share_their_call_record() -> None:
    a, b = FakeGrounder(), FakeGrounder()
    a.calls.append((None, "x"))
    assert b.calls == []


async def test_grounder_rejects_bad_input() -> None:
    with pytest.raises(TypeError, match="block must be a str"):
        FakeGrounder(block=["a"])  # type: ignore[arg-type]
    grounder = FakeGrounder()
    with pytest.raises(TypeError, match="task must be a str"):
        await grounder.ground(FakeCtx(), 7)  # type: ignore[arg-type]
    assert grounder.calls == []
