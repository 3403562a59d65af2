"""A real provider's HTTP answer read into the kit's model-level types, as it streams.

The inverse of FakeApi's answer: what :class:`~agentkit.fakes.api.FakeApi`
writes for a :class:`~agentkit.core.types.ChatResponse`, an
:class:`~agentkit.fakes.api.ApiError` or a
:class:`~agentkit.fakes.api.BrokenStream`, an :class:`AnswerReader` reads
back from any server speaking the API -- so a recording made in front of a
real provider replays through FakeApi as the client first saw it:

* a 2xx answer -- an event stream (``text/event-stream``) or one JSON body
  -- is the :class:`~agentkit.core.types.ChatResponse` it holds;
* an error status is an ``ApiError`` with the status, the provider's error
  message and ``type`` (``kind``), the ``retry-after`` it asked for and the
  ``x-should-retry`` it said, which the SDKs obey;
* an error event in a stream is an ``ApiError(in_stream=True)`` whose
  ``partial`` is the reasoning and content the stream had shown before it
  (none when it failed at once), which FakeApi replays as those deltas and
  then that error event -- so the client's SDK raises the provider's error
  again, not a dropped connection;
* a stream that ends without its terminal event (``message_stop``,
  ``data: [DONE]``, ``response.completed``), or a body cut short, is a
  ``BrokenStream`` with the reasoning and content deltas it had streamed.

:meth:`AnswerReader.feed` takes the bytes as they arrive, split anywhere,
and never raises: a reader forwarding the answer to its client keeps
forwarding. :meth:`AnswerReader.finish` gives the outcome, or raises
:class:`~agentkit.fakes.api._reading.UnreadableAnswer` naming the event and
what was wrong when the answer does not read (JSON that does not parse, a
field of the wrong type) -- never an answer with a part silently missing.
Event types and fields the reader does not know are skipped.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_int,
    check_mapping,
    check_str,
)
from agentkit.core.types import ChatResponse
from agentkit.fakes.api import _anthropic, _openai_chat, _openai_responses
from agentkit.fakes.api._read_anthropic import AnthropicFolding, read_message
from agentkit.fakes.api._read_openai_chat import ChatFolding, read_completion
from agentkit.fakes.api._read_openai_responses import ResponsesFolding, read_response
from agentkit.fakes.api._reading import (
    Failure,
    Folding,
    TruncatedJson,
    UnreadableAnswer,
    loads,
)
from agentkit.fakes.api._sse import EventReader
from agentkit.fakes.api.errors import ApiError, BrokenStream

__all__ = ["AnswerReader", "UnreadableAnswer", "Wire", "answer_reader"]

Wire = Literal["anthropic", "openai_chat", "openai_responses"]

Outcome = ChatResponse | ApiError | BrokenStream


@dataclass(frozen=True, slots=True)
class _Api:
    name: str
    folding: Callable[[], Folding]
    body: Callable[[object, str], ChatResponse]


_APIS: dict[str, _Api] = {
    "anthropic": _Api(_anthropic.NAME, AnthropicFolding, read_message),
    "openai_chat": _Api(_openai_chat.NAME, ChatFolding, read_completion),
    "openai_responses": _Api(_openai_responses.NAME, ResponsesFolding, read_response),
}

_KEPT_HEADERS = ("x-should-retry",)
"""Error headers replayed as they came: the SDKs decide whether to retry by them."""


def answer_reader(
    wire: Wire,
    *,
    status: int,
    content_type: str,
    headers: Mapping[str, str] | None = None,
) -> AnswerReader:
    """A reader of one answer of ``wire``'s API: its HTTP ``status``, its ``content_type``
    (``text/event-stream`` on a 2xx is a stream, anything else one body) and its ``headers``
    (an error's ``retry-after``, ``retry-after-ms`` and ``x-should-retry``)."""
    api = _APIS.get(wire) if isinstance(wire, str) else None
    if api is None:
        raise ArgumentValueError("answer_reader", "wire", f"one of {sorted(_APIS)}", wire)
    if check_int(status, "answer_reader", "status", minimum=100) > 599:
        raise ArgumentValueError("answer_reader", "status", "an HTTP status, 100 to 599", status)
    check_str(content_type, "answer_reader", "content_type")
    given = (
        {} if headers is None else check_mapping(headers, "answer_reader", "headers", "a mapping")
    )
    return AnswerReader(api, status, content_type, given)


class AnswerReader:
    """One provider answer, read as its bytes arrive (made by :func:`answer_reader`)."""

    def __init__(
        self, api: _Api, status: int, content_type: str, headers: Mapping[str, str]
    ) -> None:
        self._api = api
        self._status = status
        self._headers = {str(name).lower(): str(value) for name, value in headers.items()}
        streamed = 200 <= status < 300 and "text/event-stream" in content_type.lower()
        self._events: EventReader | None = EventReader() if streamed else None
        self._folding = api.folding()
        self._body = bytearray()
        self._read = 0
        self._error: UnreadableAnswer | None = None
        self._outcome: Outcome | None = None

    def feed(self, chunk: bytes) -> None:
        """The next bytes of the body, split anywhere; never raises on what they hold."""
        if not isinstance(chunk, bytes | bytearray | memoryview):
            raise ArgumentTypeError("AnswerReader.feed", "chunk", "bytes", chunk)
        if self._outcome is not None:
            raise RuntimeError("AnswerReader.feed after finish: the answer was read whole")
        if self._events is None:
            self._body += chunk
        elif self._error is None and not self._folding.done:
            self._stream(bytes(chunk))

    @property
    def answer_id(self) -> str | None:
        """The provider's id of the answer -- the message's, the completion's, the
        response's (a later Responses request names it in ``previous_response_id``) -- as
        soon as a streamed answer's events name it, a whole body's once :meth:`finish` read
        it; None for an error status or an answer that names none."""
        return self._folding.ident

    def finish(self) -> Outcome:
        """The answer, once its last byte was fed (the same value every call).

        Raises :class:`~agentkit.fakes.api._reading.UnreadableAnswer` when it
        does not read as the API's answer.
        """
        if self._outcome is None:
            self._outcome = self._streamed() if self._events is not None else self._whole()
        return self._outcome

    # ------------------------------------------------------------------ stream

    def _stream(self, chunk: bytes) -> None:
        assert self._events is not None
        try:
            for event in self._events.feed(chunk):
                self._read += 1
                where = f"event {self._read}" + (f" ({event.name})" if event.name else "")
                self._folding.take(event.name, event.data, where)
                if self._folding.done:
                    return  # what follows the terminal event is no part of the answer
        except UnreadableAnswer as exc:
            self._error = exc
        except UnicodeDecodeError as exc:
            self._error = UnreadableAnswer(
                self._api.name, f"event {self._read + 1}", f"not UTF-8 text ({exc.reason})"
            )

    def _streamed(self) -> Outcome:
        if self._error is not None:
            raise self._error
        folding = self._folding
        if folding.answer is not None:
            return folding.answer
        if folding.failure is not None:
            return _failed(folding.failure, folding)
        where = "before its first event" if not self._read else f"after event {self._read}"
        return BrokenStream(
            f"the {self._api.name} stream ended {where}, without its terminal event",
            partial=folding.partial,
        )

    # ------------------------------------------------------------------- whole

    def _whole(self) -> Outcome:
        if self._error is not None:
            raise self._error
        if 400 <= self._status <= 599:
            return self._api_error()
        if not 200 <= self._status < 300:
            raise UnreadableAnswer(
                self._api.name, "status", f"{self._status} is neither an answer nor an error"
            )
        try:
            text = bytes(self._body).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UnreadableAnswer(
                self._api.name, "body", f"not UTF-8 text ({exc.reason})"
            ) from None
        if not text.strip():
            return BrokenStream(f"the {self._api.name} answer ended before its body")
        try:
            body = loads(text, self._api.name, "body")
        except TruncatedJson:
            return BrokenStream(f"the {self._api.name} answer's body was cut short")
        self._folding.identify(body)
        try:
            return self._api.body(body, "body")
        except Failure as failure:
            return ApiError(
                failure.status, _said(failure.message, failure.status), kind=failure.kind
            )

    def _api_error(self) -> ApiError:
        text = bytes(self._body).decode("utf-8", "replace")
        try:
            body = json.loads(text)
        except (ValueError, RecursionError):
            body = None
        error = body.get("error") if isinstance(body, dict) else None
        kind: str | None = None
        if isinstance(error, dict):
            message, raw_kind = error.get("message"), error.get("type")
            message = message if isinstance(message, str) else json.dumps(error)
            kind = raw_kind if isinstance(raw_kind, str) and raw_kind else None
        elif isinstance(error, str):
            message = error
        else:  # not the API's error body (a proxy's page): its text is the message
            message = text.strip()[:2000]
        kept = {
            name: value
            for name in _KEPT_HEADERS
            if (value := self._headers.get(name, "").strip().lower()) in ("true", "false")
        }
        return ApiError(
            self._status,
            _said(message, self._status),
            kind=kind,
            retry_after=self._retry_after(),
            headers=kept,
        )

    def _retry_after(self) -> float | None:
        """The wait the answer asked for: ``retry-after-ms``, else ``retry-after`` in seconds
        (an HTTP date there is left out: the wait it meant has passed by replay time)."""
        for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
            try:
                value = float(self._headers.get(name, ""))
            except ValueError:
                continue
            if math.isfinite(value) and value >= 0:
                return value / scale
        return None


def _failed(failure: Failure, folding: Folding) -> ApiError:
    """A stream's error event, after what the stream had shown: the same on replay."""
    return ApiError(
        failure.status,
        _said(failure.message, failure.status),
        kind=failure.kind,
        in_stream=True,
        partial=folding.partial,
    )


def _said(message: str, status: int) -> str:
    """The provider's error message; an empty one says so (ApiError would call it scripted)."""
    return message or f"the provider's error {status} said no message"
