"""ElicitationAsker: ask parks on a future a UI settles by request id."""

from __future__ import annotations

import asyncio

import pytest

from agentkit.agents.control import ApprovalRequest, ElicitationAsker, UnknownApprovalRequest
from agentkit.core.ports import Asker
from agentkit.core.types import ToolCall

_conforms: Asker = ElicitationAsker()

CALL = ToolCall("c1", "delete_file", {"path": "/tmp/x"})


async def test_ask_waits_until_the_ui_answers() -> None:
    asker = ElicitationAsker()
    asking = asyncio.create_task(asker.ask("May I?", tool_call=CALL))
    request = await asyncio.wait_for(asker.next_request(), timeout=5)
    assert request == ApprovalRequest("approval-1", "May I?", CALL)
    assert list(asker.pending) == [request]
    assert not asking.done()
    asker.approve(request.id)
    assert await asyncio.wait_for(asking, timeout=5) is True
    assert asker.pending == ()
    assert asker.answered == [(request, True)]


async def test_deny_answers_false() -> None:
    asker = ElicitationAsker(id_prefix="q")
    asking = asyncio.create_task(asker.ask("May I?", tool_call=CALL))
    request = await asyncio.wait_for(asker.next_request(), timeout=5)
    assert request.id == "q-1"
    asker.deny(request.id)
    assert await asyncio.wait_for(asking, timeout=5) is False


async def test_answering_an_unknown_or_settled_request_is_a_typed_error() -> None:
    asker = ElicitationAsker()
    with pytest.raises(UnknownApprovalRequest, match="none"):
        asker.answer("approval-9", True)
    asking = asyncio.create_task(asker.ask("May I?", tool_call=CALL))
    request = await asyncio.wait_for(asker.next_request(), timeout=5)
    asker.approve(request.id)
    await asyncio.wait_for(asking, timeout=5)
    with pytest.raises(UnknownApprovalRequest):
        asker.deny(request.id)


async def test_a_non_bool_answer_is_refused_and_the_request_stays_pending() -> None:
    asker = ElicitationAsker()
    asking = asyncio.create_task(asker.ask("May I?", tool_call=CALL))
    request = await asyncio.wait_for(asker.next_request(), timeout=5)
    with pytest.raises(TypeError, match="bool"):
        asker.answer(request.id, "yes")  # type: ignore[arg-type]
    assert list(asker.pending) == [request]
    asker.approve(request.id)
    assert await asyncio.wait_for(asking, timeout=5) is True


async def test_a_cancelled_ask_withdraws_its_request() -> None:
    asker = ElicitationAsker()
    first = asyncio.create_task(asker.ask("first?", tool_call=CALL))
    second = asyncio.create_task(asker.ask("second?", tool_call=CALL))
    await asyncio.sleep(0)
    assert [r.question for r in asker.pending] == ["first?", "second?"]
    first.cancel()
    with pytest.raises(asyncio.CancelledError):
        await first
    assert [r.question for r in asker.pending] == ["second?"]
    # the UI skips the withdrawn one
    request = await asyncio.wait_for(asker.next_request(), timeout=5)
    assert request.question == "second?"
    with pytest.raises(UnknownApprovalRequest):
        asker.approve("approval-1")
    asker.approve(request.id)
    assert await asyncio.wait_for(second, timeout=5) is True
