"""Asking a human, in place: the Asker a UI answers.

Under ``autonomy="ask"`` a gated tool call needs a yes or no. With an asker on
the context (``ctx.services.asker``) the loop PARKS: it awaits ``ask`` where it
is, with its transcript and its place in the step intact, and goes on the
moment the answer comes. :class:`ElicitationAsker` is that transport for a UI
in the same process: ``ask`` publishes an :class:`ApprovalRequest` and waits;
the UI takes requests with :meth:`ElicitationAsker.next_request` (or reads
:attr:`ElicitationAsker.pending`) and answers with :meth:`ElicitationAsker.answer`.

Without an asker the loop checkpoints and unwinds instead (see
``agentkit.agents.control.checkpoint``), which is the path for a human who
answers later, from another process.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass

from agentkit.core._internal.arguments import check_str, check_type
from agentkit.core.ports import Asker
from agentkit.core.types import ToolCall

__all__ = ["ApprovalRequest", "Asker", "ElicitationAsker", "UnknownApprovalRequest"]

# ``Asker`` (the port, from agentkit.core.ports) is re-exported here because this
# is where the test kit's docs point for it: ``agents.control.elicitation.Asker``.


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    """One question waiting for a human: its id (to answer by), the question, the call."""

    id: str
    question: str
    tool_call: ToolCall

    def __post_init__(self) -> None:
        check_str(self.id, "ApprovalRequest", "id", empty=False)
        check_str(self.question, "ApprovalRequest", "question")
        check_type(self.tool_call, ToolCall, "ApprovalRequest", "tool_call", "a ToolCall")


class UnknownApprovalRequest(LookupError):
    """``answer`` was given an id that is not waiting (never asked, answered, or abandoned)."""

    def __init__(self, request_id: str, pending: tuple[str, ...]) -> None:
        self.request_id = request_id
        self.pending = pending
        super().__init__(
            f"no approval request {request_id!r} is waiting; pending: {list(pending) or 'none'}"
        )


class ElicitationAsker:
    """An Asker (``agentkit.core.ports.Asker``) whose questions a UI answers.

    Each ``ask`` waits on its own future until :meth:`answer` settles it.
    Requests are also put on a queue in the order asked, so a UI loop can
    ``await asker.next_request()`` without polling. A caller that gives up on
    an ``ask`` (its task is cancelled, e.g. the run was cancelled while parked)
    withdraws the request: it leaves :attr:`pending`, and answering it later is
    an :class:`UnknownApprovalRequest`, not a silent no-op.
    """

    def __init__(self, *, id_prefix: str = "approval") -> None:
        self._id_prefix = check_str(id_prefix, "ElicitationAsker", "id_prefix", empty=False)
        self._ids = itertools.count(1)
        self._waiting: dict[str, tuple[ApprovalRequest, asyncio.Future[bool]]] = {}
        self._queue: asyncio.Queue[ApprovalRequest] = asyncio.Queue()
        self.answered: list[tuple[ApprovalRequest, bool]] = []

    async def ask(self, question: str, *, tool_call: ToolCall) -> bool:
        request = ApprovalRequest(f"{self._id_prefix}-{next(self._ids)}", question, tool_call)
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting[request.id] = (request, future)
        self._queue.put_nowait(request)
        try:
            return await future
        finally:
            self._waiting.pop(request.id, None)

    @property
    def pending(self) -> tuple[ApprovalRequest, ...]:
        """Requests still waiting for an answer, oldest first."""
        return tuple(request for request, _ in self._waiting.values())

    async def next_request(self) -> ApprovalRequest:
        """The next request still waiting, in the order asked (awaits one if there is none).

        Requests withdrawn before the UI got to them are skipped.
        """
        while True:
            request = await self._queue.get()
            if request.id in self._waiting:
                return request

    def answer(self, request_id: str, approved: bool) -> None:
        """Settle one waiting request: True lets the call run, False denies it."""
        entry = self._waiting.get(request_id)
        if entry is None or entry[1].done():
            raise UnknownApprovalRequest(request_id, tuple(self._waiting))
        if not isinstance(approved, bool):
            raise TypeError(f"an approval answer must be a bool, got {approved!r}")
        request, future = entry
        self.answered.append((request, approved))
        future.set_result(approved)

    def approve(self, request_id: str) -> None:
        self.answer(request_id, True)

    def deny(self, request_id: str) -> None:
        self.answer(request_id, False)
