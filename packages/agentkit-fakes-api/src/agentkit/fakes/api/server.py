"""FakeApi: any LLMPort, served as the Anthropic and OpenAI HTTP APIs on loopback."""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from agentkit.core._internal.arguments import (
    ArgumentValueError,
    check_bool,
    check_callable,
    check_int,
    check_protocol,
    check_str,
)
from agentkit.core.verification import VerifyingDouble
from agentkit.fakes.api._state import ApiState

if TYPE_CHECKING:
    from agentkit.core.ports import LLMPort
    from agentkit.core.request import ChatRequest
    from agentkit.fakes.api._answer import Answerer
    from agentkit.fakes.api._forward import Forwarding, Upstream
    from agentkit.fakes.api._http import HttpServer
    from agentkit.fakes.api.records import ApiRequest, Exchange

__all__ = ["FakeApi"]

FAKE_ANTHROPIC_KEY = "sk-ant-fake-api-key-not-a-secret"
FAKE_OPENAI_KEY = "sk-fake-api-key-not-a-secret"
CODEX_PROVIDER = "agentkit_fake"
CODEX_KEY_VARIABLE = "AGENTKIT_FAKE_API_KEY"
CLOSE_TIMEOUT = 5.0
"""How long close() waits for the server's thread before it reports a blocked brain."""

_QUIET_CLAUDE = {
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_ERROR_REPORTING": "1",
}


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
    the real APIs do -- any non-empty key is accepted, and a made-up one is
    what a test should send: a real-looking one is a violation (above).

    Responses are stored as the OpenAI Responses API stores them (``store``,
    ``previous_response_id``: the earlier input and output go before the new
    input); :meth:`serve` forgets them with the request log.

    Strict (:mod:`agentkit.core.verification`): recorded, and raised by
    :meth:`assert_complete` / the pytest plugin at teardown, are a request
    nothing could answer (``unanswerable_request``: the brain raised a
    ``BaseException`` such as ScriptExhausted or UnmatchedRequest -- the
    client got a 400 naming it), a request to a route the server does not
    serve (``unknown_route``, answered 404), a request the real API refuses
    (``bad_request``: a body that is not the API's request or lacks a field it
    requires, an unknown ``previous_response_id``, answered 400 in the
    provider's shape; a body over the API's size limit, 413; HTTP that does
    not parse, 400/414/431/505), a real-looking provider key in the request's
    headers (``real_credential``: answered, and masked in :attr:`requests`),
    a reply the server cannot send (``bad_reply``: text with a lone surrogate,
    tool-call arguments that are not JSON, a port yielding something other
    than a Delta; answered 500), a brain that blocked the server past
    :meth:`close`'s bound (``blocked_brain``), and a reply calling a tool the
    request did not offer (``unoffered_tool``; left to a brain that verifies
    itself, as FakeLLM does, so it is reported once -- or not at all when the
    FakeLLM was built with ``verify=False`` to call an unknown tool on purpose),
    and a ``side_requests`` predicate that raised (``side_rule_error``). Unused
    scripted turns are the brain's to report: a FakeLLM made in the test is
    verified by the plugin too. ``verify=False`` opts the server out.

    ``upstream`` puts the fake in front of a real provider, to record it:
    ``FakeApi(upstream="https://api.anthropic.com")`` (or
    ``"https://api.openai.com/v1"``) forwards each model request -- same
    method, path and body, the client's credentials replaced by the
    provider key read from ``ANTHROPIC_API_KEY`` / ``OPENAI_API_KEY`` at the
    moment it is sent -- and passes the provider's answer back as it
    arrives. Each call is kept at the model level as an
    :class:`~agentkit.fakes.api.Exchange` (the kit's request beside the
    provider's answer, read as the kit's types) in :attr:`exchanges`, and
    handed to ``on_exchange`` as it completes. The key is kept nowhere: not
    in :attr:`requests`, a violation or an exchange. A missing key
    (``upstream_key_missing``) or an unreachable provider
    (``upstream_unreachable``) is a violation, and the client gets a 401 /
    502. With an upstream, ``llm`` is None -- unless ``forward_when`` (a
    predicate on the kit's ChatRequest) is given too: then a model request is
    forwarded when it says so and answered by ``llm`` otherwise (a recording
    replayed up to the first call it does not hold, the rest recorded).
    """

    def __init__(
        self,
        llm: LLMPort | None = None,
        *,
        side_requests: Callable[[ChatRequest], bool] | None = None,
        side_answer: LLMPort | str = "OK.",
        require_key: bool = True,
        verify: bool = True,
        upstream: str | None = None,
        forward_when: Callable[[ChatRequest], bool] | None = None,
        on_exchange: Callable[[Exchange], object] | None = None,
    ) -> None:
        if llm is not None:
            self._check_llm(llm, "llm")
        provider: Upstream | None = None
        if upstream is not None:
            from agentkit.fakes.api._forward import Upstream

            if llm is not None and forward_when is None:
                raise ArgumentValueError(
                    "FakeApi",
                    "llm",
                    "None when upstream is given (the provider answers, not a brain), "
                    "unless forward_when says which requests the provider answers",
                    llm,
                )
            provider = Upstream(upstream)
        if forward_when is not None:
            check_callable(
                forward_when,
                "FakeApi",
                "forward_when",
                "a predicate on the kit's ChatRequest, given with llm and upstream",
            )
            if llm is None or upstream is None:
                raise ArgumentValueError(
                    "FakeApi",
                    "forward_when",
                    "None unless both llm and upstream are given",
                    forward_when,
                )
        self._forwarding: Forwarding | None = None
        if provider is not None:
            from agentkit.fakes.api._forward import Forwarding

            self._forwarding = Forwarding(provider, forward_when, self._exchanged)
        if on_exchange is not None:
            check_callable(
                on_exchange,
                "FakeApi",
                "on_exchange",
                "a callable taking each Exchange as it completes, or None",
            )
        self._on_exchange = on_exchange
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
        self._side_answer: LLMPort | str = side_answer
        self._state = ApiState(llm, require_key=require_key)
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
        # The wire (the HTTP server, the codecs) loads with the first server, not the import.
        from agentkit.fakes.api._answer import start_server

        self._http = start_server(self._answerer())
        return self

    def close(self) -> None:
        """Stop serving: every connection closed, the thread joined. Idempotent.

        Bounded: a brain that blocks the server's event loop (a sync callable
        sleeping or waiting on a ``threading.Event``) cannot be cancelled, so
        after :data:`CLOSE_TIMEOUT` seconds close() gives up, leaves the
        server's daemon thread to end on its own, and records a
        ``blocked_brain`` violation naming the requests it was answering.
        """
        http, self._http = self._http, None
        if http is None:
            return
        busy = http.busy
        if not http.close(CLOSE_TIMEOUT):
            stuck = ", ".join(busy or http.busy) or "a request"
            self._record_violation(
                "blocked_brain",
                f"close() waited {CLOSE_TIMEOUT:g} s for the brain ({self._state.llm!r:.120}) answering "
                f"{stuck} and gave up: it blocks the server's event loop, which stalled every "
                "other client too; the server's thread is left running",
                "make the brain wait without blocking (await asyncio.sleep(...), an "
                "asyncio.Event) or release what it waits on before the test ends",
            )

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

    def transport(self) -> Any:
        """An HTTP transport answering with this FakeApi in-process: no port, no thread.

        Give it to the SDK's HTTP client of the httpx family, sync or async
        (``openai.OpenAI(http_client=httpx2.Client(transport=api.transport()))``);
        the client's base URL does not matter, nothing leaves the process. The
        requests, the log, the violations and the errors are the loopback
        server's (see :mod:`agentkit.fakes.api._transport`); the FakeApi need
        not be started. Each call makes a new transport; closing it (the
        client does) leaves the FakeApi as it is.

        Typed ``Any`` on purpose: it is an
        :class:`~agentkit.fakes.api._transport.InProcessTransport`, which
        serves ``httpx2`` and ``httpx`` clients alike without importing
        either, so it can subclass neither library's ``BaseTransport`` that
        their ``transport=`` parameters name.
        """
        from agentkit.fakes.api._transport import InProcessTransport

        return InProcessTransport(self._answerer())

    def _answerer(self) -> Answerer:
        """What answers this FakeApi's requests, given all it may touch: the shared state,
        the violation record, the side-request rules, and where to forward (if it records)."""
        from agentkit.fakes.api._answer import Answerer

        return Answerer(
            self._state,
            self._record_violation,
            side_requests=self._side_requests,
            side_answer=self._side_answer,
            forwarding=self._forwarding,
        )

    # --------------------------------------------------------------- brain

    @property
    def llm(self) -> LLMPort | None:
        """The brain answering model requests (None until :meth:`serve` gives one)."""
        return self._state.llm

    @property
    def upstream(self) -> str | None:
        """The provider's base URL this fake forwards to (None: a brain answers)."""
        return None if self._forwarding is None else self._forwarding.upstream.url

    def serve(self, llm: LLMPort) -> None:
        """Answer with ``llm`` from now on, with an empty request log (a shared server, new test)."""
        self._check_llm(llm, "llm")
        if self._forwarding is not None and self._forwarding.forward_when is None:
            raise RuntimeError("this FakeApi forwards to its upstream: it takes no brain")
        self._state.serve(llm)

    @property
    def require_key(self) -> bool:
        """Whether a request without an API key is answered 401 (see the class docstring);
        settable, and read on every request."""
        return self._state.require_key

    @require_key.setter
    def require_key(self, value: bool) -> None:
        self._state.require_key = check_bool(value, "FakeApi", "require_key")

    # ------------------------------------------------------------- records

    @property
    def requests(self) -> list[ApiRequest]:
        """Every HTTP request so far, in the order they were answered (a copy)."""
        return self._state.requests()

    @property
    def exchanges(self) -> list[Exchange]:
        """Every model call forwarded to the upstream so far, at the model level (a copy)."""
        return self._state.exchanges()

    def requests_to(self, route: str) -> list[ApiRequest]:
        """The requests whose path (query string left out) is ``route``."""
        check_str(route, "FakeApi.requests_to", "route")
        return [r for r in self.requests if r.route == route]

    # ------------------------------------------------------ for the answerer

    def _exchanged(self, exchange: Exchange) -> None:
        """A forwarded call is complete: kept, and handed to ``on_exchange``."""
        self._state.exchange(exchange)
        if self._on_exchange is None:
            return
        try:
            self._on_exchange(exchange)
        except Exception as exc:
            self._record_violation(
                "exchange_callback_error",
                f"on_exchange raised {type(exc).__name__}: {exc}; the exchange is still in "
                "api.exchanges",
                "fix the on_exchange callback (it is part of the test)",
            )
