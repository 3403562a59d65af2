"""The failures a brain can script for the wire: a provider error status, a broken stream.

A :class:`~agentkit.core.ports.LLMPort` fails by raising. Behind
:class:`~agentkit.fakes.api.FakeApi` what it raises decides what the HTTP
client sees, so a test scripts a provider fault the way it already scripts
one for an in-process agent -- ``FakeLLM(fail_times=1, fail_exc=ApiError(529))``
-- and the SDK or CLI on the other end takes its own error and retry path:

* :class:`ApiError` becomes the provider's own error response: the status
  and the error body in that provider's shape (the error ``type`` defaults to
  what the provider sends for the status), plus ``retry-after`` when given;
* :class:`ApiError` with ``in_stream=True`` fails a streamed request inside
  its stream, as the providers do once the status 200 went out: the opening
  events, the ``partial`` deltas the client is shown first, then the
  provider's error event;
* :class:`BrokenStream` becomes a stream cut off mid-way: the response starts
  (status 200, the stream's opening events) and the connection then closes
  without the stream's end, which every client reads as a broken connection;
* any other ``Exception`` raised before the first delta is a provider fault
  the test did not describe further: a 500 in the provider's shape. Raised
  after deltas were produced, it breaks the stream there, like BrokenStream.

Anything else a port raises (``ScriptExhausted``, ``UnmatchedRequest``, the
``BaseException`` findings of the kit's doubles) means the request could not
be answered at all: the client gets a 400 naming the cause, and the server
records the violation so the test fails even if the client swallows it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_bool,
    check_int,
    check_mapping,
    check_number,
    check_str,
    check_values,
)
from agentkit.core.types import Delta

__all__ = ["ApiError", "BrokenStream"]

_HEADER_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_HEADER_VALUE = re.compile(r"[\t\x20-\x7e\x80-\xff]*")
"""What HTTP lets a header carry: a token for a name; for a value, Latin-1 text without
control characters -- a CR or LF would end the header and start another."""


_FRAMING = frozenset(
    ("content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "trailer", "te")
)
"""Headers that frame the answer or the connection: the server's to set, never a brain's
(a scripted Content-Length would cut or stall the client's read of the body)."""


def _check_header(name: str, value: str) -> None:
    if not _HEADER_NAME.fullmatch(name):
        raise ArgumentValueError(
            "ApiError",
            "headers",
            "header names that are HTTP tokens (no space, colon, CR/LF)",
            name,
        )
    if name.lower() in _FRAMING:
        raise ArgumentValueError(
            "ApiError",
            "headers",
            f"headers other than the ones the server frames its answer with ({sorted(_FRAMING)})",
            name,
        )
    if not _HEADER_VALUE.fullmatch(value):
        raise ArgumentValueError(
            "ApiError",
            f"headers[{name!r}]",
            "a header value of Latin-1 text with no CR, LF or other control character",
            value,
        )


def _partial(where: str, partial: object) -> tuple[Delta, ...]:
    """The deltas a failing stream shows first: reasoning and content only -- the wire
    writes a stream's tool calls, usage and finish reason at its end, which a failing
    stream never reaches, so a delta carrying them is refused rather than silently not
    sent."""
    deltas = check_values(partial, where, "partial", "an iterable of Delta")
    for index, delta in enumerate(deltas):
        if not isinstance(delta, Delta):
            raise ArgumentTypeError(where, f"partial[{index}]", "a Delta", delta)
        if delta.tool_calls or delta.usage is not None or delta.finish_reason is not None:
            raise ArgumentValueError(
                where,
                f"partial[{index}]",
                "a Delta of content or reasoning only (a stream that fails never gets to its "
                "tool calls, usage or finish reason)",
                delta,
            )
    return deltas


class ApiError(Exception):
    """A provider error response: ``status`` with the provider's error body.

    ``kind`` is the error ``type`` in the body; ``None`` picks what the
    provider itself sends for ``status`` (Anthropic: 400
    ``invalid_request_error``, 401 ``authentication_error``, 429
    ``rate_limit_error``, 500 ``api_error``, 529 ``overloaded_error``...;
    OpenAI: ``invalid_request_error``, ``rate_limit_exceeded``,
    ``server_error``...). ``retry_after`` (seconds) is sent as the
    ``retry-after`` and ``retry-after-ms`` headers, which SDKs and CLIs read
    to time their retry -- ``retry_after=0`` makes a retry test instant.
    ``headers`` are sent as well: names that are HTTP tokens, values of Latin-1
    text without CR, LF or other control characters (what a header can carry;
    anything else is refused here, not found later as a broken answer), and
    none of the headers that frame the answer (``content-length``,
    ``transfer-encoding``, ``connection``...), which are the server's.

    ``in_stream=True`` fails a STREAMED request the other way the providers
    do: status 200, the stream's opening events, then the provider's error
    event -- Anthropic ``error`` (``overloaded_error``...), Responses
    ``response.failed`` (with an error ``code`` such as
    ``rate_limit_exceeded``), Chat Completions a ``data:`` line holding an
    ``error`` object -- and the stream's proper end. Clients handle it on a
    different path from an error status (codex retries a rate limit only
    this way). A plain request gets the status as usual.

    ``partial`` (with ``in_stream=True`` only) is what the stream shows
    before its error event: reasoning and content deltas (tool calls, usage
    and a finish reason are refused, as :class:`BrokenStream` refuses them),
    sent as the provider's events exactly as :class:`BrokenStream` sends its
    own -- an API overloaded after the first words of the answer, which the
    SDK raises as the provider's error (anthropic's ``APIStatusError``,
    openai's ``APIError`` on Chat; a Responses stream yields its
    ``response.failed``) rather than as a dropped connection. A port that
    yields deltas and then raises an ``in_stream`` error is served the same
    way.

    An ``Exception``, so an in-process retry middleware treats it as the
    provider fault it stands for, exactly as the HTTP client on the other
    side of the server does.
    """

    def __init__(
        self,
        status: int,
        message: str = "",
        *,
        kind: str | None = None,
        retry_after: float | None = None,
        headers: Mapping[str, str] | None = None,
        in_stream: bool = False,
        partial: Iterable[Delta] = (),
    ) -> None:
        check_int(status, "ApiError", "status")
        if not 400 <= status <= 599:
            raise ArgumentValueError(
                "ApiError", "status", "an HTTP error status, 400 to 599", status
            )
        check_str(message, "ApiError", "message")
        if kind is not None:
            check_str(kind, "ApiError", "kind", empty=False)
        if retry_after is not None:
            check_number(retry_after, "ApiError", "retry_after")
        check_bool(in_stream, "ApiError", "in_stream")
        shown = _partial("ApiError", partial)
        if shown and not in_stream:
            raise ArgumentValueError(
                "ApiError",
                "partial",
                "empty unless in_stream=True (an error status comes before any content; "
                "content then an error event is a stream's)",
                shown,
            )
        extra: dict[str, str] = {}
        if headers is not None:
            for name, value in check_mapping(
                headers, "ApiError", "headers", "a str mapping"
            ).items():
                if not isinstance(name, str) or not isinstance(value, str):
                    raise ArgumentTypeError(
                        "ApiError", f"headers[{name!r}]", "str names and values", value
                    )
                _check_header(name, value)
                extra[name.lower()] = value
        self.status = status
        self.message = message or f"scripted error {status}"
        self.kind = kind
        self.retry_after = None if retry_after is None else float(retry_after)
        self.headers: Mapping[str, str] = extra
        self.in_stream = in_stream
        self.partial: tuple[Delta, ...] = shown
        super().__init__(f"{status}: {self.message}")

    def response_headers(self) -> dict[str, str]:
        """The headers the error response carries beside its body."""
        out = dict(self.headers)
        if self.retry_after is not None:
            out.setdefault("retry-after", f"{self.retry_after:g}")
            out.setdefault("retry-after-ms", str(round(self.retry_after * 1000)))
        return out


class BrokenStream(Exception):
    """The response starts, then the connection drops before the stream ends.

    For a streamed request the client receives the status line, the headers
    and the stream's opening events (Anthropic ``message_start``; OpenAI
    ``response.created`` or the first chunk), then the socket closes without
    the closing events or the chunked-encoding terminator. For a plain JSON
    request the connection closes before any response. Either way the client
    sees a broken connection, not an error status.

    ``partial`` is what the stream carries before it breaks: deltas (a
    reasoning delta, the first words of the answer) sent as the provider's
    events, exactly as a port that raised after producing them is served --
    so a script item or ``fail_exc`` can break a stream mid-answer, where a
    client may already have shown the user something. A delta carrying tool
    calls, usage or a finish reason is refused: the stream never gets to them.
    """

    def __init__(
        self, message: str = "scripted broken stream", *, partial: Iterable[Delta] = ()
    ) -> None:
        check_str(message, "BrokenStream", "message")
        self.partial: tuple[Delta, ...] = _partial("BrokenStream", partial)
        super().__init__(message)
