"""What a FakeApi shares with the answerers serving it: one lock over what a test reads.

The test reads the request log and swaps the brain from its own thread
while an :class:`~agentkit.fakes.api._answer.Answerer` answers from the
server's thread (or, in-process, from the client's). What both sides touch
lives here, behind one lock, so the FakeApi hands an answerer this object
(and its violation record) instead of its own private members: the
answerer owns no state a test sees, and the FakeApi holds no answering
logic.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentkit.core.ports import LLMPort
    from agentkit.core.types import Message
    from agentkit.fakes.api.records import ApiRequest, Exchange

__all__ = ["ApiState"]


class ApiState:
    """The brain answering now, the request log, the forwarded exchanges, the stored
    Responses and the id count.

    ``require_key`` is here too, read on every request, so that setting
    ``api.require_key`` takes effect on a server already running.
    """

    __slots__ = ("_exchanges", "_lock", "_requests", "_responses", "_served", "llm", "require_key")

    def __init__(self, llm: LLMPort | None, *, require_key: bool) -> None:
        self.llm = llm
        self.require_key = require_key
        self._lock = threading.Lock()
        self._requests: list[ApiRequest] = []
        self._exchanges: list[Exchange] = []
        self._responses: dict[str, tuple[Message, ...]] = {}
        self._served = 0

    def serve(self, llm: LLMPort) -> None:
        """Answer with ``llm`` from now on, the request log and the stored Responses emptied."""
        with self._lock:
            self.llm = llm
            self._requests.clear()
            self._responses.clear()

    def requests(self) -> list[ApiRequest]:
        """Every request kept so far, in the order they were answered (a copy)."""
        with self._lock:
            return list(self._requests)

    def keep(self, record: ApiRequest) -> None:
        with self._lock:
            self._requests.append(record)

    def exchanges(self) -> list[Exchange]:
        """Every model call forwarded so far, at the model level (a copy)."""
        with self._lock:
            return list(self._exchanges)

    def exchange(self, exchange: Exchange) -> None:
        with self._lock:
            self._exchanges.append(exchange)

    def turn(self) -> tuple[LLMPort | None, str]:
        """The brain answering now, and the id of this answer: ``fake_0001``, ``fake_0002``...,
        one count for the server's whole life, as the provider's ids are unique."""
        with self._lock:
            self._served += 1
            return self.llm, f"fake_{self._served:04d}"

    def store(self, ident: str, conversation: tuple[Message, ...]) -> None:
        with self._lock:
            self._responses[ident] = conversation

    def stored(self, ident: str) -> tuple[Message, ...] | None:
        """The conversation of stored response ``ident`` (its input, then its output)."""
        with self._lock:
            return self._responses.get(ident)
