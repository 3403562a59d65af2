"""FakeApi: any LLMPort, served as the Anthropic and OpenAI HTTP APIs on loopback."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Any, Self

from agentkit.core._frozen import dataclass
from agentkit.core.arguments import (
    ArgumentError,
    check_bool,
    check_callable,
    check_int,
    check_protocol,
    check_str,
    hide_argument_errors,
)
from agentkit.core.ports import LLMPort
from agentkit.core.request import ChatRequest
from agentkit.core.types import ToolSchema
from agentkit.core.verification import Verifiable, VerifyingDouble
from agentkit.fakes.api import _anthropic, _openai_chat, _openai_responses
from agentkit.fakes.api._call import Collected, PortCall, WireError, broken_after, collect
from agentkit.fakes.api._http import Answer, Dropped, HttpServer, Incoming, Streamed, Whole
from agentkit.fakes.api._side import HELLO, TextAnswer
from agentkit.fakes.api.errors import ApiError, BrokenStream
from agentkit.fakes.api.records import ApiRequest

__all__ = ["FakeApi"]

__tracebackhide__ = hide_argument_errors  # a wrong argument shows the caller's line

FAKE_ANTHROPIC_KEY = "sk-ant-fake-api-key-not-a-secret"
FAKE_OPENAI_KEY = "sk-fake-api-key-not-a-secret"
CODEX_PROVIDER = "agentkit_fake"
CODEX_KEY_VARIABLE = "AGENTKIT_FAKE_API_KEY"

_QUIET_CLAUDE = {
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_ERROR_REPORTING": "1",
}


class _Wire:
    """One API's codec: how its requests are read and its answers written."""

    def __init__(
        self,
        name: str,
        parse: Callable[[Any], PortCall],
        error_body: Callable[[int, str | None, str], dict[str, Any]],
        opening: Callable[[PortCall, str], list[bytes]],
        stream: Callable[[PortCall, Collected, str], list[bytes]],
        body: Callable[[PortCall, Collected, str], dict[str, Any]],
        failed: Callable[[PortCall, str, int, str | None, str], list[bytes]],
        request_id_header: str,
    ) -> None:
        self.name = name
        self.parse = parse
        self.error_body = error_body
        self.opening = opening
        self.stream = stream
        self.body = body
        self.failed = failed
        self.request_id_header = request_id_header


_ANTHROPIC = _Wire(
    "Anthropic Messages",
    _anthropic.parse,
    _anthropic.error_body,
    lambda call, ident: _anthropic.opening(call, ident),
    _anthropic.stream,
    _anthropic.reply_body,
    _anthropic.failed,
    "request-id",
)
_CHAT = _Wire(
    "OpenAI Chat Completions",
    _openai_chat.parse,
    _openai_chat.error_body,
    _openai_chat.opening,
    _openai_chat.stream,
    _openai_chat.reply_body,
    _openai_chat.failed,
    "x-request-id",
)
_RESPONSES = _Wire(
    "OpenAI Responses",
    _openai_responses.parse,
    _openai_responses.error_body,
    _openai_responses.opening,
    _openai_responses.stream,
    _openai_responses.reply_body,
    _openai_responses.failed,
    "x-request-id",
)
_ROUTES = {
    "/v1/messages": _ANTHROPIC,
    "/v1/chat/completions": _CHAT,
    "/v1/responses": _RESPONSES,
}
_COUNT_TOKENS = "/v1/messages/count_tokens"


def _json(value: Mapping[str, Any]) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


@dataclass(frozen=True, slots=True)
class _Routed:
    answer: Answer
    side: bool = False


def _has_key(headers: Mapping[str, str]) -> bool:
    auth = headers.get("authorization", "")
    return bool(headers.get("x-api-key")) or (auth.lower().startswith("bearer ") and auth[7:] != "")


class FakeApi(VerifyingDouble):
    """Serves ``llm`` -- any :class:`~agentkit.core.ports.LLMPort`, usually a FakeLLM --
    as the model APIs real clients speak, on ``http://127.0.0.1:<ephemeral port>``.

    Routes: ``POST /v1/messages`` (Anthropic Messages, streamed or not),
    ``POST /v1/messages/count_tokens``, ``POST /v1/chat/completions`` (OpenAI
    Chat Completions, streamed or not) and ``POST /v1/responses`` (OpenAI
    Responses, streamed or not). Each wire request becomes ONE call of
    ``llm.stream`` with the kit's own request types (messages with tool calls
    and tool results, tools as ToolSchema, model, max tokens, temperature),
    so a FakeLLM's call log and strict checks see exactly what an in-process
    agent would have sent; the reply's deltas become the provider's events.
    What ``llm`` raises becomes the provider's error answer (see
    :mod:`agentkit.fakes.api.errors`).

    ``llm=None`` starts a server with no brain yet (the pytest fixtures do):
    :meth:`serve` gives it one, and a model request before that is an
    ``unanswerable_request``.

    ``with FakeApi(llm) as api:`` starts it (a few milliseconds: a socket and
    a thread) and closes it again, every connection and the thread with it.
    :attr:`env` is the environment a client needs (base URLs and made-up
    keys), :meth:`codex_args` the options that point codex at it. Every HTTP
    request is kept in :attr:`requests`, with its headers and raw body.

    Side requests -- what a real client asks beside the conversation -- are
    answered apart from ``llm`` and kept out of its script, while
    :attr:`requests` keeps them (``side=True``): claude's reachability probe
    ``HEAD /api/hello`` and the token count are answered by the server
    itself, and a model call for which ``side_requests(request)`` (a
    predicate on the kit's :class:`~agentkit.core.request.ChatRequest`) is
    true is answered by ``side_answer`` -- a fixed text (default ``"OK."``)
    or any LLMPort -- e.g. a CLI's title or summary calls on a smaller model:
    ``FakeApi(llm, side_requests=lambda r: "haiku" in r.model)``.

    ``require_key`` (default True) answers a request that carries no API key
    (``x-api-key`` or ``Authorization: Bearer``) with the provider's 401, as
    the real APIs do -- any non-empty key is accepted.

    Strict (:mod:`agentkit.core.verification`): recorded, and raised by
    :meth:`assert_complete` / the pytest plugin at teardown, are a request
    nothing could answer (``unanswerable_request``: the brain raised a
    ``BaseException`` such as ScriptExhausted or UnmatchedRequest -- the
    client got a 400 naming it), a request to a route the server does not
    serve (``unknown_route``, answered 404), a body that is not the API's
    request (``bad_request``, answered 400), and a reply calling a tool the
    request did not offer (``unoffered_tool``; left to a brain that verifies
    itself, as FakeLLM does, so it is reported once -- or not at all when the
    FakeLLM was built with ``verify=False`` to call an unknown tool on purpose),
    and a ``side_requests`` predicate that raised (``side_rule_error``). Unused
    scripted turns are the brain's to report: a FakeLLM made in the test is
    verified by the plugin too. ``verify=False`` opts the server out.
    """

    def __init__(
        self,
        llm: LLMPort | None = None,
        *,
        side_requests: Callable[[ChatRequest], bool] | None = None,
        side_answer: LLMPort | str = "OK.",
        require_key: bool = True,
        verify: bool = True,
    ) -> None:
        if llm is not None:
            self._check_llm(llm, "llm")
        if side_requests is not None:
            check_callable(
                side_requests,
                "FakeApi",
                "side_requests",
                "a predicate on the kit's ChatRequest (lambda request: ...) or None",
            )
        if not isinstance(side_answer, str):
            self._check_llm(side_answer, "side_answer")
        check_bool(require_key, "FakeApi", "require_key")
        self._side_requests = side_requests
        self._side_answer: LLMPort = (
            TextAnswer(side_answer) if isinstance(side_answer, str) else side_answer
        )
        self._llm = llm
        self.require_key = require_key
        self._requests: list[ApiRequest] = []
        self._lock = threading.Lock()
        self._served = 0
        self._http: HttpServer | None = None
        self._init_verification(verify=verify, name="FakeApi")

    @staticmethod
    def _check_llm(llm: object, argument: str) -> None:
        check_protocol(
            llm,
            "FakeApi",
            argument,
            "an LLMPort (an object with stream(...) and chat(...)), e.g. a FakeLLM",
            ("stream", "chat"),
        )

    # ----------------------------------------------------------- lifecycle

    def start(self) -> Self:
        """Bind 127.0.0.1 on an ephemeral port and serve from a thread of its own."""
        if self._http is not None:
            raise RuntimeError("this FakeApi is already running")
        http = HttpServer(self._answer, name="agentkit-fake-api")
        http.start()
        self._http = http
        return self

    def close(self) -> None:
        """Stop serving: every connection closed, the thread joined. Idempotent."""
        http, self._http = self._http, None
        if http is not None:
            http.close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def running(self) -> bool:
        return self._http is not None

    # --------------------------------------------------------------- where

    @property
    def port(self) -> int:
        if self._http is None:
            raise RuntimeError("FakeApi is not running: use `with FakeApi(llm) as api:`")
        return self._http.port

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``: the Anthropic base URL (the SDK adds ``/v1/...``)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def anthropic_base_url(self) -> str:
        return self.url

    @property
    def openai_base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``: OpenAI base URLs include the version."""
        return f"{self.url}/v1"

    @property
    def env(self) -> dict[str, str]:
        """What a client process needs to reach this server instead of the real APIs.

        ``ANTHROPIC_BASE_URL`` / ``ANTHROPIC_API_KEY`` (claude, the anthropic
        SDK), ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY`` (the openai SDK), the
        key variable :meth:`codex_args` names, and claude's switches for its
        side traffic (telemetry, update checks, error reports), which would
        otherwise try to leave the machine. Merge it into a cognition's
        ``env=`` (which replaces the inherited environment: keep ``PATH`` and
        ``HOME`` there too).
        """
        return {
            "ANTHROPIC_BASE_URL": self.anthropic_base_url,
            "ANTHROPIC_API_KEY": FAKE_ANTHROPIC_KEY,
            "OPENAI_BASE_URL": self.openai_base_url,
            "OPENAI_API_KEY": FAKE_OPENAI_KEY,
            CODEX_KEY_VARIABLE: FAKE_OPENAI_KEY,
            **_QUIET_CLAUDE,
        }

    def codex_args(self, *, retries: int = 0) -> tuple[str, ...]:
        """The ``-c`` options that make this server codex's model provider.

        codex has no base-URL variable for a custom provider, so it is
        configured on the command line: the Responses wire API, no
        websockets, its key read from the variable :attr:`env` sets, and
        ``retries`` request and stream retries (0 by default: a scripted
        failure fails the turn at once instead of retrying with backoff).
        Pass them as the cognition's ``extra_args``.
        """
        check_int(retries, "FakeApi.codex_args", "retries")
        prefix = f"model_providers.{CODEX_PROVIDER}"
        settings = (
            f'model_provider="{CODEX_PROVIDER}"',
            f'{prefix}.name="{CODEX_PROVIDER}"',
            f'{prefix}.base_url="{self.openai_base_url}"',
            f'{prefix}.wire_api="responses"',
            f"{prefix}.supports_websockets=false",
            f'{prefix}.env_key="{CODEX_KEY_VARIABLE}"',
            f"{prefix}.request_max_retries={retries}",
            f"{prefix}.stream_max_retries={retries}",
        )
        args: list[str] = []
        for setting in settings:
            args += ["-c", setting]
        return tuple(args)

    # --------------------------------------------------------------- brain

    @property
    def llm(self) -> LLMPort | None:
        """The brain answering model requests (None until :meth:`serve` gives one)."""
        return self._llm

    def serve(self, llm: LLMPort) -> None:
        """Answer with ``llm`` from now on, with an empty request log (a shared server, new test)."""
        self._check_llm(llm, "llm")
        with self._lock:
            self._llm = llm
            self._requests.clear()

    # ------------------------------------------------------------- records

    @property
    def requests(self) -> list[ApiRequest]:
        """Every HTTP request so far, in the order they were answered (a copy)."""
        with self._lock:
            return list(self._requests)

    def requests_to(self, route: str) -> list[ApiRequest]:
        """The requests whose path (query string left out) is ``route``."""
        check_str(route, "FakeApi.requests_to", "route")
        return [r for r in self.requests if r.route == route]

    def _keep(self, incoming: Incoming, status: int, side: bool) -> None:
        record = ApiRequest(
            incoming.method, incoming.path, dict(incoming.headers), incoming.body, status, side
        )
        with self._lock:
            self._requests.append(record)

    # -------------------------------------------------------------- answer

    async def _answer(self, incoming: Incoming) -> Answer:
        routed = await self._route(incoming)
        answer = routed.answer
        status = 0 if isinstance(answer, Dropped) else answer.status
        self._keep(incoming, status, routed.side)
        return answer

    def _error(
        self,
        wire: _Wire,
        status: int,
        message: str,
        kind: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Whole:
        with self._lock:
            self._served += 1
            ident = f"fake_{self._served:04d}"
        out = {wire.request_id_header: f"req_{ident}", **(headers or {})}
        return Whole(status, _json(wire.error_body(status, kind, message)), out)

    async def _route(self, incoming: Incoming) -> _Routed:
        route = incoming.path.split("?", 1)[0]
        if route == HELLO and incoming.method in ("HEAD", "GET"):
            return _Routed(Whole(200, b"", content_type="text/plain"), side=True)
        if route == _COUNT_TOKENS:
            wire = _ANTHROPIC
        elif route in _ROUTES:
            wire = _ROUTES[route]
        else:
            wire = _CHAT if route.startswith("/v1/chat") or "responses" in route else _ANTHROPIC
            self._record_violation(
                "unknown_route",
                f"{incoming.method} {incoming.path} was answered 404: the fake API serves "
                f"POST {', '.join(sorted([*_ROUTES, _COUNT_TOKENS]))} and HEAD {HELLO}",
                "point the client at the right base URL (api.anthropic_base_url, or "
                "api.openai_base_url, which includes /v1), or call an endpoint the fake serves",
            )
            return _Routed(self._error(wire, 404, f"no route {incoming.method} {route}"))
        if incoming.method != "POST":
            return _Routed(self._error(wire, 405, f"{route} takes POST, not {incoming.method}"))
        if self.require_key and not _has_key(incoming.headers):
            return _Routed(
                self._error(wire, 401, "no API key: send x-api-key or Authorization: Bearer")
            )
        try:
            if incoming.decode_error is not None:
                raise WireError(incoming.decode_error)
            try:
                body = json.loads(incoming.body) if incoming.body else None
            except ValueError:
                raise WireError("the request body is not JSON") from None
            call = (
                _anthropic.parse(body, count_only=True)
                if route == _COUNT_TOKENS
                else wire.parse(body)
            )
        except (WireError, ArgumentError) as exc:
            self._record_violation(
                "bad_request",
                f"POST {route} was answered 400: {exc}",
                f"send a valid {wire.name} request body (or, if a real client sent this, the "
                "fake does not read that shape yet: report it)",
            )
            return _Routed(self._error(wire, 400, str(exc)))
        if route == _COUNT_TOKENS:
            return _Routed(Whole(200, _json(_anthropic.count_tokens(call))), side=True)
        if self._is_side(route, call):
            return _Routed(await self._call(wire, route, call, self._side_answer), side=True)
        return _Routed(await self._call(wire, route, call))

    def _is_side(self, route: str, call: PortCall) -> bool:
        """Whether ``side_requests`` picks this model call out (a raising predicate is a
        test bug: recorded, and the call goes to the brain)."""
        rule = self._side_requests
        if rule is None:
            return False
        try:
            return bool(rule(call.request))
        except Exception as exc:
            self._record_violation(
                "side_rule_error",
                f"POST {route}: side_requests raised {type(exc).__name__}: {exc}; the "
                "request went to the brain",
                "fix the side_requests predicate (it is part of the test)",
            )
            return False

    async def _call(
        self, wire: _Wire, route: str, call: PortCall, side: LLMPort | None = None
    ) -> Answer:
        with self._lock:
            llm = self._llm if side is None else side
            self._served += 1
            ident = f"fake_{self._served:04d}"
        if llm is None:
            self._record_violation(
                "unanswerable_request",
                f"POST {route} arrived before the server had a brain; the client was answered 400",
                "give the server its model first: FakeApi(FakeLLM(...)) or api.serve(FakeLLM(...))",
            )
            return self._error(wire, 400, "the fake API has no model to answer with yet")
        try:
            reply = await collect(llm, call)
        except ApiError as exc:
            if exc.in_stream and call.stream:
                return Streamed(wire.failed(call, ident, exc.status, exc.kind, exc.message))
            return self._error(wire, exc.status, exc.message, exc.kind, exc.response_headers())
        except BrokenStream as exc:
            if not call.stream:
                return Dropped()
            if not exc.partial:
                return Streamed(wire.opening(call, ident), cut=True)
            reply = broken_after(exc.partial, exc)
        except Exception as exc:
            return self._error(wire, 500, f"the model failed: {type(exc).__name__}: {exc}")
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError | KeyboardInterrupt | SystemExit):
                raise
            self._unanswerable(route, exc)
            return self._error(
                wire,
                400,
                f"the fake API could not answer this request: {type(exc).__name__}: {exc}",
            )
        if reply.broken is not None and not isinstance(reply.broken, Exception):
            self._unanswerable(route, reply.broken)
        if side is None:  # a side answer is no turn of the test's model
            self._check_tools(llm, route, call.tools, reply)
        if call.stream:
            return Streamed(wire.stream(call, reply, ident), cut=reply.broken is not None)
        if reply.broken is not None:
            return Dropped()
        return Whole(200, _json(wire.body(call, reply, ident)))

    def _unanswerable(self, route: str, exc: BaseException) -> None:
        self._record_violation(
            "unanswerable_request",
            f"POST {route}: the brain raised {type(exc).__name__}: {exc}; the client was "
            "answered 400",
            "script the turn the client asked for (or fix the code under test if it should "
            "not have asked)",
        )

    def _check_tools(
        self, llm: LLMPort, route: str, tools: list[ToolSchema] | None, reply: Collected
    ) -> None:
        if isinstance(llm, Verifiable):
            # A verifying brain (a FakeLLM) decides: it reports its own unoffered calls, and
            # one built with verify=False scripts an unoffered tool on purpose.
            return
        offered = {t.name for t in tools or ()}
        unoffered = sorted({c.name for c in reply.tool_calls if c.name not in offered})
        if unoffered:
            self._record_violation(
                "unoffered_tool",
                f"POST {route}: the reply calls {unoffered}, but the request offered "
                + (f"only {sorted(offered)}" if offered else "no tools"),
                "correct the tool name the brain answers with, or offer that tool",
            )
