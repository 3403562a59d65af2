"""How a FakeApi answers one HTTP request: the route's API, the key, the brain, the errors.

The wire half of :class:`~agentkit.fakes.api.FakeApi`, imported by its
:meth:`~agentkit.fakes.api.FakeApi.start`: the HTTP server, the three codecs
and what they bring load with the first server a process starts, so
``import agentkit.fakes.api`` (and a star import of the testing facade, which
names FakeApi) costs only the class. The FakeApi keeps the state a test sees
-- its brain and request log (an :class:`~agentkit.fakes.api._state.ApiState`),
its violations -- and hands :class:`Answerer` exactly that: the state, the
violation record and the side-request rules, which it reads and adds to from
the server's thread.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from agentkit.core._internal.arguments import ArgumentError
from agentkit.core._internal.failures import is_kit_failure
from agentkit.core.ports import LLMPort
from agentkit.core.types import Message, ToolSchema
from agentkit.core.verification import Verifiable
from agentkit.fakes.api import _anthropic, _openai_chat, _openai_responses
from agentkit.fakes.api._call import (
    Collected,
    NotADelta,
    PortCall,
    WireError,
    broken_after,
    collect,
    json_text,
)
from agentkit.fakes.api._credentials import screen
from agentkit.fakes.api._http import (
    Answer,
    Dropped,
    HttpServer,
    Incoming,
    Refused,
    Streamed,
    Whole,
)
from agentkit.fakes.api._side import HELLO, TextAnswer
from agentkit.fakes.api.errors import ApiError, BrokenStream
from agentkit.fakes.api.records import ApiRequest

if TYPE_CHECKING:
    from agentkit.core.request import ChatRequest
    from agentkit.fakes.api._forward import Forwarding
    from agentkit.fakes.api._state import ApiState

__all__ = ["Answerer", "start_server"]


class _Codec(Protocol):
    """One API's codec -- a module: how its requests are read and its answers written."""

    NAME: str
    REQUEST_ID: str
    """The response header carrying the request's id."""
    MAX_BODY: int
    """The largest request body the API takes, in bytes (larger is a 413)."""

    def parse(self, body: Any) -> PortCall: ...
    def error_body(self, status: int, kind: str | None, message: str) -> dict[str, Any]: ...
    def opening(self, call: PortCall, ident: str) -> list[bytes]: ...
    def stream(self, call: PortCall, reply: Collected, ident: str) -> list[bytes]: ...
    def reply_body(self, call: PortCall, reply: Collected, ident: str) -> dict[str, Any]: ...
    def failed(
        self,
        call: PortCall,
        ident: str,
        status: int,
        kind: str | None,
        message: str,
        shown: Collected | None = None,
    ) -> list[bytes]: ...


_ROUTES: dict[str, _Codec] = {
    "/v1/messages": _anthropic,
    "/v1/chat/completions": _openai_chat,
    "/v1/responses": _openai_responses,
}
_COUNT_TOKENS = "/v1/messages/count_tokens"


def start_server(answerer: Answerer) -> HttpServer:
    """A started HTTP server on 127.0.0.1 answering with ``answerer``."""
    http = HttpServer(answerer, name="agentkit-fake-api", limit=body_limit)
    http.start()
    return http


def _codec_of(route: str) -> _Codec:
    """The API a path belongs to (an unknown path is answered in the nearest one's shape)."""
    if route in _ROUTES:
        return _ROUTES[route]
    if route.startswith("/v1/chat") or "responses" in route:
        return _openai_chat
    return _anthropic


def body_limit(route: str) -> int:
    """The largest body ``route``'s API takes."""
    return _codec_of(route).MAX_BODY


def _streamed(codec: _Codec, call: PortCall, reply: Collected, ident: str) -> Streamed:
    """A streamed reply: whole; cut after what the port produced when it broke off; or,
    when it failed with an in-stream :class:`~agentkit.fakes.api.ApiError` (raised after
    its deltas, or scripted with ``partial``), those deltas and then the error event."""
    error = reply.broken
    if isinstance(error, ApiError) and error.in_stream:
        return Streamed(codec.failed(call, ident, error.status, error.kind, error.message, reply))
    return Streamed(codec.stream(call, reply, ident), cut=error is not None)


def _json(value: Mapping[str, Any]) -> bytes:
    return json_text(value).encode()


def _error_json(value: Mapping[str, Any]) -> bytes:
    """An error body, whatever its message holds: a lone surrogate (from a brain's exception
    text) is written as its JSON escape instead of failing the answer."""
    return json_text(value).encode("utf-8", "backslashreplace")


@dataclass(frozen=True, slots=True)
class _Routed:
    answer: Answer
    side: bool = False


def _has_key(headers: Mapping[str, str]) -> bool:
    auth = headers.get("authorization", "")
    return bool(headers.get("x-api-key")) or (auth.lower().startswith("bearer ") and auth[7:] != "")


Record = Callable[[str, str, str], None]
"""How a finding is recorded: ``record(kind, detail, fix)``, the FakeApi's violation record."""


class Answerer:
    """Answers a FakeApi's HTTP requests: each is kept in ``state``'s log, each finding
    given to ``record``; ``side_requests`` and ``side_answer`` are the FakeApi's own."""

    def __init__(
        self,
        state: ApiState,
        record: Record,
        *,
        side_requests: Callable[[ChatRequest], bool] | None,
        side_answer: LLMPort | str,
        forwarding: Forwarding | None = None,
    ) -> None:
        self._state = state
        self._forwarding = forwarding
        self._record = record
        self._side_requests = side_requests
        self._side_answer: LLMPort = (
            TextAnswer(side_answer) if isinstance(side_answer, str) else side_answer
        )
        self._verifier: tuple[LLMPort, bool] | None = None

    async def __call__(self, incoming: Incoming) -> Answer:
        credentials, headers, path = screen(incoming.headers, incoming.path)
        if credentials:
            # Masked before anything else reads the request: a log, a violation, an answer.
            incoming = replace(incoming, headers=dict(headers), path=path)
            self._report_credentials(incoming, credentials)
        try:
            routed = await self._route(incoming)
        except Exception as exc:  # a fault of the server itself: said, never a silent drop
            self._record(
                "server_error",
                f"{incoming.method} {incoming.path}: the fake API failed answering it "
                f"({type(exc).__name__}: {exc}); the client was answered 500",
                "report this: the fake API should answer every request",
            )
            codec = _codec_of(incoming.path.split("?", 1)[0])
            routed = _Routed(self._error(codec, 500, f"the fake API failed: {type(exc).__name__}"))
        answer = routed.answer
        status = 0 if isinstance(answer, Dropped) else answer.status
        self._state.keep(
            ApiRequest(
                incoming.method,
                incoming.path,
                dict(incoming.headers),
                incoming.body,
                status,
                routed.side,
            )
        )
        return answer

    def _error(
        self,
        codec: _Codec,
        status: int,
        message: str,
        kind: str | None = None,
        headers: Mapping[str, str] | None = None,
        param: str | None = None,
        code: str | None = None,
    ) -> Whole:
        _, ident = self._state.turn()
        out = {codec.REQUEST_ID: f"req_{ident}", **(headers or {})}
        body = codec.error_body(status, kind, message)
        if codec is not _anthropic and (param is not None or code is not None):
            body["error"].update({"param": param, "code": code})
        return Whole(status, _error_json(body), out)

    def _refuse(self, codec: _Codec, where: str, refused: Refused) -> _Routed:
        """A request the server will not read: answered ``refused.status`` in the API's shape."""
        self._record(
            "bad_request",
            f"{where} was answered {refused.status}: {refused.reason}",
            f"send a valid {codec.NAME} request (or, if a real client sent this, the "
            "fake does not read that shape yet: report it)",
        )
        return _Routed(self._error(codec, refused.status, refused.reason))

    async def _route(self, incoming: Incoming) -> _Routed:
        route = incoming.path.split("?", 1)[0]
        codec = _codec_of(route)
        if incoming.refused is not None:
            where = f"{incoming.method} {route}" if incoming.method else "a request"
            return self._refuse(codec, where, incoming.refused)
        if route == HELLO and incoming.method in ("HEAD", "GET"):
            return _Routed(Whole(200, b"", content_type="text/plain"), side=True)
        if route == _COUNT_TOKENS:
            codec = _anthropic
        elif route not in _ROUTES:
            self._record(
                "unknown_route",
                f"{incoming.method} {incoming.path} was answered 404: the fake API serves "
                f"POST {', '.join(sorted([*_ROUTES, _COUNT_TOKENS]))} and HEAD {HELLO}",
                "point the client at the right base URL (api.anthropic_base_url, or "
                "api.openai_base_url, which includes /v1), or call an endpoint the fake serves",
            )
            return _Routed(self._error(codec, 404, f"no route {incoming.method} {route}"))
        if incoming.method != "POST":
            return _Routed(self._error(codec, 405, f"{route} takes POST, not {incoming.method}"))
        if self._state.require_key and not _has_key(incoming.headers):
            return _Routed(
                self._error(codec, 401, "no API key: send x-api-key or Authorization: Bearer")
            )
        try:
            call = self._read_call(codec, route, incoming)
        except (WireError, ArgumentError) as exc:
            param = exc.param if isinstance(exc, WireError) else None
            code = exc.code if isinstance(exc, WireError) else None
            self._record(
                "bad_request",
                f"POST {route} was answered 400: {exc}",
                f"send a valid {codec.NAME} request body (or, if a real client sent this, the "
                "fake does not read that shape yet: report it)",
            )
            return _Routed(self._error(codec, 400, str(exc), param=param, code=code))
        if route == _COUNT_TOKENS:
            return _Routed(Whole(200, _json(_anthropic.count_tokens(call))), side=True)
        return await self._answer_call(codec, route, incoming, call)

    def _read_call(self, codec: _Codec, route: str, incoming: Incoming) -> PortCall:
        """The request's body read as a model call; a WireError (or a refused argument)
        saying why it cannot be."""
        if incoming.decode_error is not None:
            raise WireError(incoming.decode_error)
        try:
            body = json.loads(incoming.body) if incoming.body else None
        except RecursionError:
            raise WireError("the request body is JSON nested too deep to read") from None
        except ValueError:
            raise WireError("the request body is not JSON") from None
        if route == _COUNT_TOKENS:
            return _anthropic.parse(body, count_only=True)
        if codec is _openai_responses:
            return self._responses_call(body)
        return codec.parse(body)

    async def _answer_call(
        self, codec: _Codec, route: str, incoming: Incoming, call: PortCall
    ) -> _Routed:
        """Who answers a model call: the side answer, the provider (a recording FakeApi's
        upstream), or the brain."""
        if self._is_side(route, call):
            return _Routed(await self._call(codec, route, call, self._side_answer), side=True)
        forwarding = self._forwarding
        if forwarding is not None and forwarding.takes(call.request):
            refuse = functools.partial(self._error, codec)
            return _Routed(
                await forwarding.upstream.forward(
                    route, incoming, call, refuse, forwarding.sink(self._state, self._record)
                )
            )
        return _Routed(await self._call(codec, route, call))

    def _report_credentials(self, incoming: Incoming, found: list[tuple[str, str]]) -> None:
        where = ", ".join(f"{kind} in {name}" for name, kind in found)
        self._record(
            "real_credential",
            f"{incoming.method} {incoming.path}: a real credential reached the fake ({where}): "
            "the SDK read it from your environment; it is masked in api.requests",
            "give the client a made-up key (api_key=... on the client, or the fixture's "
            "api.env), so no real key is ever read by a test",
        )

    def _responses_call(self, body: Any) -> PortCall:
        """A Responses request, with the conversation ``previous_response_id`` names before it."""
        previous = _openai_responses.previous_id(body)
        earlier: tuple[Message, ...] = ()
        if previous is not None:
            found = self._state.stored(previous)
            if found is None:
                raise WireError(
                    f"Previous response with id '{previous}' not found.",
                    param="previous_response_id",
                    code="previous_response_not_found",
                )
            earlier = found
        return _openai_responses.parse(body, earlier)

    def _is_side(self, route: str, call: PortCall) -> bool:
        """Whether ``side_requests`` picks this model call out (a raising predicate is a
        test bug: recorded, and the call goes to the brain)."""
        rule = self._side_requests
        if rule is None:
            return False
        try:
            return bool(rule(call.request))
        except Exception as exc:
            self._record(
                "side_rule_error",
                f"POST {route}: side_requests raised {type(exc).__name__}: {exc}; the "
                "request went to the brain",
                "fix the side_requests predicate (it is part of the test)",
            )
            return False

    async def _call(
        self, codec: _Codec, route: str, call: PortCall, side: LLMPort | None = None
    ) -> Answer:
        brain, ident = self._state.turn()
        llm = brain if side is None else side
        if llm is None:
            self._record(
                "unanswerable_request",
                f"POST {route} arrived before the server had a brain; the client was answered 400",
                "give the server its model first: FakeApi(FakeLLM(...)) or api.serve(FakeLLM(...))",
            )
            return self._error(codec, 400, "the fake API has no model to answer with yet")
        try:
            reply: Collected | Answer = await collect(llm, call)
        except BaseException as exc:
            reply = self._failed(codec, route, call, ident, exc)
        if not isinstance(reply, Collected):
            return reply
        if reply.broken is not None and not isinstance(reply.broken, Exception):
            self._unanswerable(route, reply.broken)
        if side is None:  # a side answer is no turn of the test's model
            self._check_tools(llm, route, call.tools, reply)
        return self._answered(codec, route, call, reply, ident)

    def _failed(
        self, codec: _Codec, route: str, call: PortCall, ident: str, exc: BaseException
    ) -> Collected | Answer:
        """What the client is answered when the brain raised ``exc`` (what it had produced,
        for a stream broken after its first deltas); cancellation and exits propagate."""
        if isinstance(exc, ApiError):
            if not (exc.in_stream and call.stream):
                return self._error(codec, exc.status, exc.message, exc.kind, exc.response_headers())
            return broken_after(exc.partial, exc)  # its partial deltas, then its error event
        if isinstance(exc, BrokenStream):
            if not call.stream:
                return Dropped()
            if not exc.partial:
                return Streamed(codec.opening(call, ident), cut=True)
            return broken_after(exc.partial, exc)
        if isinstance(exc, NotADelta):
            return self._bad_reply(codec, route, str(exc))
        if isinstance(exc, Exception):
            if is_kit_failure(exc):
                # The kit refused the request on purpose as the provider would (FakeLLM's
                # RefusedRequest: a tool call with no result): the provider's 400, which no
                # client retries. The brain has recorded it already.
                return self._error(codec, 400, str(exc))
            return self._error(codec, 500, f"the model failed: {type(exc).__name__}: {exc}")
        if isinstance(exc, asyncio.CancelledError | KeyboardInterrupt | SystemExit):
            raise exc
        self._unanswerable(route, exc)
        return self._error(
            codec, 400, f"the fake API could not answer this request: {type(exc).__name__}: {exc}"
        )

    def _answered(
        self, codec: _Codec, route: str, call: PortCall, reply: Collected, ident: str
    ) -> Answer:
        """The brain's ``reply`` in ``codec``'s shape, a stream or a whole body; a Responses
        answer is stored for a later ``previous_response_id``."""
        if call.stream:
            answer: Answer = self._encoded(
                codec,
                route,
                lambda: _streamed(codec, call, reply, ident),
            )
        elif reply.broken is not None:
            return Dropped()
        else:
            answer = self._encoded(
                codec, route, lambda: Whole(200, _json(codec.reply_body(call, reply, ident)))
            )
        if codec is _openai_responses and reply.broken is None and call.store:
            self._state.store(f"resp_{ident}", call.conversation(reply))
        return answer

    def _encoded(self, codec: _Codec, route: str, build: Callable[[], Answer]) -> Answer:
        """``build()``, or a 500 and a violation when the reply cannot be written as JSON."""
        try:
            return build()
        except (TypeError, ValueError, RecursionError) as exc:  # UnicodeEncodeError included
            return self._bad_reply(codec, route, f"it cannot be written as JSON ({exc})")

    def _bad_reply(self, codec: _Codec, route: str, why: str) -> Whole:
        self._record(
            "bad_reply",
            f"POST {route}: the brain's reply cannot be sent: {why}; the client was answered 500",
            "script text without lone surrogates, tool-call arguments of JSON values (str, "
            "int, float, bool, None, lists and dicts of them), and a port that yields Deltas",
        )
        return self._error(codec, 500, f"the fake API could not send the model's reply: {why}")

    def _verifies(self, llm: LLMPort) -> bool:
        """Whether ``llm`` verifies itself: an isinstance check on a runtime Protocol costs
        about as much as the rest of a small answer, so it is asked once per brain."""
        known = self._verifier
        if known is None or known[0] is not llm:
            known = self._verifier = (llm, isinstance(llm, Verifiable))
        return known[1]

    def _unanswerable(self, route: str, exc: BaseException) -> None:
        self._record(
            "unanswerable_request",
            f"POST {route}: the brain raised {type(exc).__name__}: {exc}; the client was "
            "answered 400",
            "script the turn the client asked for (or fix the code under test if it should "
            "not have asked)",
        )

    def _check_tools(
        self, llm: LLMPort, route: str, tools: list[ToolSchema] | None, reply: Collected
    ) -> None:
        if self._verifies(llm):
            # A verifying brain (a FakeLLM) decides: it reports its own unoffered calls, and
            # one built with verify=False scripts an unoffered tool on purpose.
            return
        offered = {t.name for t in tools or ()}
        unoffered = sorted({c.name for c in reply.tool_calls if c.name not in offered})
        if unoffered:
            self._record(
                "unoffered_tool",
                f"POST {route}: the reply calls {unoffered}, but the request offered "
                + (f"only {sorted(offered)}" if offered else "no tools"),
                "correct the tool name the brain answers with, or offer that tool",
            )
