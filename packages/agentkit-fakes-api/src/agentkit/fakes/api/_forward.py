"""A FakeApi in front of the real provider: each model call forwarded, and kept as the kit's types.

``FakeApi(upstream="https://api.anthropic.com")`` answers a model request
by sending it on -- same method, path and body -- to the provider, with the
client's credential headers replaced by the provider key from the
environment (``ANTHROPIC_API_KEY`` for the Messages API, ``OPENAI_API_KEY``
for the OpenAI ones), and passes the provider's answer back as it arrives:
an event stream chunk by chunk, so a streaming client sees the model type
as it would without the fake in between.

Why at the model level, not the bytes: while the answer passes, it is read
(:func:`~agentkit.fakes.api._read_answer.answer_reader`) into what the kit
itself speaks -- a :class:`~agentkit.core.types.ChatResponse`, or the
provider's :class:`~agentkit.fakes.api.ApiError`, or a
:class:`~agentkit.fakes.api.BrokenStream` -- and kept beside the request as
the FakeApi parsed it (a :class:`~agentkit.core.request.ChatRequest`): one
:class:`~agentkit.fakes.api.Exchange`. A recording made of exchanges replays behind any wire,
survives an SDK upgrade (no header, no byte of framing is in it), and reads
like a script.

The key is read when a request is forwarded, never kept: it is in no
request record (``api.requests`` holds what the client sent, its made-up
key), no violation text and no exchange. Only the standard library's
``http.client`` talks to the provider: a fakes package depends on
agentkit-core alone.
"""

from __future__ import annotations

import asyncio
import http.client
import os
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from agentkit.core._internal.arguments import ArgumentValueError, check_str
from agentkit.core.types import ChatResponse
from agentkit.fakes.api._call import Collected, PortCall
from agentkit.fakes.api._http import Answer, Incoming, Relayed, UpstreamCut, Whole
from agentkit.fakes.api.errors import BrokenStream
from agentkit.fakes.api.records import Exchange

if TYPE_CHECKING:
    from agentkit.core.request import ChatRequest
    from agentkit.fakes.api._read_answer import AnswerReader, Wire
    from agentkit.fakes.api._state import ApiState

__all__ = ["KEY_VARIABLES", "WIRES", "Upstream", "check_upstream", "relayed_stream"]

WIRES = {
    "/v1/messages": "anthropic",
    "/v1/chat/completions": "openai_chat",
    "/v1/responses": "openai_responses",
}
"""The wire each model route speaks, by the name :class:`Exchange` and the answer reader use."""

KEY_VARIABLES = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
"""The variable each provider's key is read from: the one its SDK reads."""

TIMEOUT = 600.0
"""How long the provider may stay silent before the forwarded request fails (a long
answer of a slow model takes minutes, not hours)."""

_CHUNK = 64 * 1024

_NOT_FORWARDED = frozenset(
    (
        "host",
        "content-length",
        "transfer-encoding",
        "connection",
        "keep-alive",
        "expect",
        "te",
        "upgrade",
        "accept-encoding",
        "content-encoding",
        "x-api-key",
        "authorization",
        "api-key",
        "cookie",
    )
)
"""Request headers the fake sets itself: the framing, the encoding (the body was decoded
on arrival; the answer is asked for unencoded so it can be read), and every credential
(the provider gets the key from the environment, and nothing else the client sent)."""

_NOT_RELAYED = frozenset(
    ("content-length", "transfer-encoding", "connection", "keep-alive", "content-encoding")
)
"""Answer headers the fake's own framing replaces."""

"""The first response id in a Responses answer (``response.created`` or the body): what
a later ``previous_response_id`` names."""


def check_upstream(url: object) -> tuple[str, str, int, str]:
    """``(scheme, host, port, base path)`` of an upstream base URL, or an ArgumentValueError.

    The path the provider's SDK writes in a base URL (OpenAI's ``/v1``) is
    taken off: the client's own path, which starts ``/v1``, is what is sent.
    """
    text = check_str(url, "FakeApi", "upstream", empty=False)
    parts = urllib.parse.urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
        raise ArgumentValueError(
            "FakeApi",
            "upstream",
            "the provider's base URL, http(s)://host[:port][/path] "
            "(e.g. https://api.anthropic.com or https://api.openai.com/v1)",
            url,
        )
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise ArgumentValueError("FakeApi", "upstream", "a URL with a valid port", url) from None
    base = parts.path.rstrip("/").removesuffix("/v1")
    return parts.scheme, parts.hostname, port, base


def _provider(wire: str) -> str:
    return "anthropic" if wire == "anthropic" else "openai"


def _key_headers(wire: str, key: str) -> dict[str, str]:
    if _provider(wire) == "anthropic":
        return {"x-api-key": key}
    return {"authorization": f"Bearer {key}"}


def _usable_key(value: str | None) -> str | None:
    """The key, if it can be sent at all (a header value: printable ASCII, no CR/LF)."""
    if value is None:
        return None
    key = value.strip()
    if not key or not key.isascii() or not key.isprintable():
        return None
    return key


@dataclass(frozen=True, slots=True)
class Sink:
    """Where a forwarded call's findings and exchange go: the FakeApi's violation record,
    its shared state (a Responses answer stored for ``previous_response_id``), and its
    exchange log -- handed over explicitly, so forwarding touches nothing private."""

    record: Callable[[str, str, str], None]
    state: ApiState
    exchanged: Callable[[Exchange], None]


@dataclass(frozen=True, slots=True)
class Forwarding:
    """What a recording FakeApi gives its answerer: the provider to forward to, which
    calls go there (``forward_when``; None: all), and what keeps each exchange."""

    upstream: Upstream
    forward_when: Callable[[ChatRequest], bool] | None
    exchanged: Callable[[Exchange], None]

    def takes(self, request: ChatRequest) -> bool:
        """Whether this call is the provider's to answer (else the FakeApi's brain's)."""
        return self.forward_when is None or bool(self.forward_when(request))

    def sink(self, state: ApiState, record: Callable[[str, str, str], None]) -> Sink:
        return Sink(record, state, self.exchanged)


class Upstream:
    """Forwards a FakeApi's model requests to the provider at ``url`` (see the module)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._scheme, self._host, self._port, self._base = check_upstream(url)

    def __repr__(self) -> str:
        return f"Upstream({self.url!r})"

    async def forward(
        self,
        route: str,
        incoming: Incoming,
        call: PortCall,
        refuse: Callable[[int, str], Answer],
        sink: Sink,
    ) -> Answer:
        """Send ``incoming`` on; the answer to give the client (relayed as it comes).

        ``refuse(status, message)`` is the error answer in the API's shape, for
        what stops the request before the provider sees it (no key, no
        connection): each is a violation naming the fix, given to ``sink``, which
        also keeps the exchange once the answer is all in.
        """
        wire = WIRES[route]
        variable = KEY_VARIABLES[_provider(wire)]
        key = _usable_key(os.environ.get(variable))
        if key is None:
            sink.record(
                "upstream_key_missing",
                f"{incoming.method} {incoming.path} could not be forwarded to {self.url}: "
                f"${variable} is not set (or is not a key); the client was answered 401",
                f"set {variable} to your provider key in the environment of the run that "
                "records (it is read for forwarding only, and never written anywhere)",
            )
            return refuse(401, f"the fake API has no {variable} to forward with")
        try:
            connection, response = await asyncio.to_thread(self._send, wire, incoming, key)
        except (OSError, http.client.HTTPException) as exc:
            sink.record(
                "upstream_unreachable",
                f"{incoming.method} {incoming.path} could not be forwarded to {self.url}: "
                f"{type(exc).__name__}: {exc}; the client was answered 502",
                "check the upstream URL and the network (or replay: the default record mode)",
            )
            return refuse(502, f"the provider could not be reached: {type(exc).__name__}")
        from agentkit.fakes.api._read_answer import answer_reader

        content_type = response.getheader("content-type", "") or ""
        headers = {
            name.lower(): value
            for name, value in response.getheaders()
            if name.lower() not in _NOT_RELAYED
        }
        reader = answer_reader(
            cast("Wire", wire), status=response.status, content_type=content_type, headers=headers
        )
        finish = _Finish(sink, wire, call, reader)
        if "text/event-stream" in content_type.lower():
            return Relayed(response.status, headers, _relay(connection, response, finish))
        try:
            body = await asyncio.to_thread(response.read)
        except (OSError, http.client.HTTPException):
            body, broken = b"", True
        else:
            broken = False
        finally:
            connection.close()
        finish.feed(body)
        finish(broken)
        headers.pop("content-type", None)
        return Whole(response.status, body, headers, content_type or "application/json")

    def _send(
        self, wire: str, incoming: Incoming, key: str
    ) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        """The request sent, and the provider's answer with its head read (blocking)."""
        headers = {
            name: value for name, value in incoming.headers.items() if name not in _NOT_FORWARDED
        }
        headers.update(_key_headers(wire, key))
        headers["accept-encoding"] = "identity"
        kind = (
            http.client.HTTPSConnection if self._scheme == "https" else http.client.HTTPConnection
        )
        connection = kind(self._host, self._port, timeout=TIMEOUT)
        try:
            connection.request(
                incoming.method, self._base + incoming.path, body=incoming.body, headers=headers
            )
            return connection, connection.getresponse()
        except BaseException:
            connection.close()
            raise


class _Finish:
    """What is done once the provider's answer is all in: read it, keep the exchange."""

    def __init__(self, sink: Sink, wire: str, call: PortCall, reader: AnswerReader) -> None:
        self._sink, self._wire, self._call, self._reader = sink, wire, call, reader
        self._done = False

    def feed(self, data: bytes) -> None:
        self._reader.feed(data)

    def __call__(self, broken: bool) -> None:
        if self._done:
            return
        self._done = True
        from agentkit.fakes.api._reading import UnreadableAnswer

        try:
            answer = self._reader.finish()
        except UnreadableAnswer as exc:
            self._sink.record(
                "unreadable_answer",
                f"the provider's answer to a {self._wire} request was passed to the client "
                f"but cannot be read as the kit's types: {exc}; it is not in api.exchanges",
                "report this with the provider's answer (the fake does not read that shape yet)",
            )
            return
        if broken and isinstance(answer, ChatResponse):
            answer = BrokenStream("the provider's answer broke off")
        call = self._call
        if (
            self._wire == "openai_responses"
            and call.store
            and isinstance(answer, ChatResponse)
            and (ident := self._reader.answer_id) is not None
        ):
            # A later request names this response by the provider's id; the fake reads
            # it as it reads its own stored responses, so the request kept is whole.
            said = Collected(
                pieces=[answer.content], tool_calls=answer.tool_calls, usage=answer.usage
            )
            self._sink.state.store(ident, call.conversation(said))
        self._sink.exchanged(Exchange(self._wire, call.request, answer, call.stream))


def _relay(
    connection: http.client.HTTPConnection, response: http.client.HTTPResponse, finish: _Finish
) -> Iterator[bytes]:
    """The provider's stream, chunk by chunk as it arrives, read along the way."""
    broken = False
    try:
        while True:
            try:
                data = response.read1(_CHUNK)
            except (OSError, http.client.HTTPException):
                broken = True
                break
            if not data:
                break
            finish.feed(data)
            yield data
    finally:
        connection.close()
        finish(broken)
    if broken:
        raise UpstreamCut("the provider's stream broke off")


def relayed_stream(lib: ModuleType, incomplete: str) -> Callable[[Iterator[bytes], Any], Any]:
    """A byte stream class of ``lib`` (``httpx2``/``httpx``, sync and async) over a relayed
    answer's chunks: a cut upstream raises the library's own ``RemoteProtocolError``, as a
    cut socket does on loopback."""
    made: type | None = _STREAMS.get(lib.__name__)
    if made is not None:
        return made

    class RelayStream(lib.SyncByteStream, lib.AsyncByteStream):  # type: ignore[name-defined,misc]
        def __init__(self, chunks: Iterator[bytes], request: Any) -> None:
            self._chunks = chunks
            self._request = request

        def __iter__(self) -> Iterator[bytes]:
            try:
                yield from self._chunks
            except UpstreamCut:
                raise lib.RemoteProtocolError(incomplete, request=self._request) from None

        async def __aiter__(self) -> Any:
            try:
                while data := await asyncio.to_thread(next, self._chunks, b""):
                    yield data
            except UpstreamCut:
                raise lib.RemoteProtocolError(incomplete, request=self._request) from None

        def close(self) -> None:
            close: Callable[[], object] | None = getattr(self._chunks, "close", None)
            if close is not None:
                close()

        async def aclose(self) -> None:
            self.close()

    _STREAMS[lib.__name__] = RelayStream
    return RelayStream


_STREAMS: dict[str, type] = {}
