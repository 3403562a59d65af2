"""FakeFetch's routes: what a URL is matched by, and what the match answers.

A route is a matcher (an exact URL, a compiled regex, a :class:`URLPrefix`
or a :class:`URLHost`) and an answer (a FetchResponse, an exception to
raise, answers in turn, or a function of the URL). The fake tries its routes
in the order given and the first match answers, as respx and pytest-httpx
do. Answers in turn walk the one script cursor every scripted double uses
(:class:`agentkit.core.verification.script.ScriptCursor`), so they run out the same loud
way as a FakeLLM script.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeAlias

from agentkit.core._frozen import dataclass
from agentkit.core.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_bool,
    check_str,
    hide_argument_errors,
)
from agentkit.core.failures import kit_failure
from agentkit.core.types import FetchResponse
from agentkit.core.verification.script import ScriptCursor, ScriptExhausted

__all__ = [
    "Answer",
    "FetchRouteExhausted",
    "InTurn",
    "Matcher",
    "Route",
    "URLHost",
    "URLPrefix",
    "check_answer",
    "check_matcher",
    "describe_matcher",
]

__tracebackhide__ = hide_argument_errors  # a wrong argument shows the caller's line


@dataclass(frozen=True, slots=True)
class URLPrefix:
    """Matches every URL that starts with ``prefix`` (``URLPrefix("https://api.test/v1/")``)."""

    prefix: str

    def __post_init__(self) -> None:
        check_str(self.prefix, "URLPrefix", "prefix", empty=False)


@dataclass(frozen=True, slots=True)
class URLHost:
    """Matches every URL on ``host`` (``URLHost("api.test")``), any scheme, port or path."""

    host: str

    def __post_init__(self) -> None:
        check_str(self.host, "URLHost", "host", empty=False)
        if "/" in self.host or ":" in self.host:
            raise ArgumentValueError(
                "URLHost",
                "host",
                "a host name alone",
                self.host,
                "write URLHost('api.test'); for a scheme or a path use URLPrefix",
            )


Matcher: TypeAlias = "str | re.Pattern[str] | URLPrefix | URLHost"
Reply: TypeAlias = "FetchResponse | BaseException"
Answer: TypeAlias = "Reply | InTurn | Sequence[Reply] | Callable[[str], Reply]"


class InTurn:
    """Answers given one per fetch, in order: ``InTurn(down, up)`` is a 503 then a 200.

    Finite, like a script: a fetch past the last answer raises
    :class:`FetchRouteExhausted`, and answers never reached are reported at
    verification. ``repeat_last=True`` answers the last one forever. A plain
    list or tuple as a route's answer means ``InTurn(*answers)``.
    """

    __slots__ = ("answers", "repeat_last")

    def __init__(self, *answers: Reply, repeat_last: bool = False) -> None:
        for index, answer in enumerate(answers):
            _check_reply(answer, "InTurn", f"answers[{index}]")
        self.answers: tuple[Reply, ...] = answers
        self.repeat_last = check_bool(repeat_last, "InTurn", "repeat_last")
        if not answers:
            raise ArgumentValueError(
                "InTurn", "answers", "at least one answer", answers, "give a FetchResponse"
            )

    def __repr__(self) -> str:
        tail = ", repeat_last=True" if self.repeat_last else ""
        return f"InTurn({', '.join(map(repr, self.answers))}{tail})"


@kit_failure
class FetchRouteExhausted(ScriptExhausted):
    """A route's answers in turn ran out: the code under test fetched it more often than scripted."""


def _check_reply(value: object, where: str, argument: str) -> None:
    if not isinstance(value, FetchResponse | BaseException):
        raise ArgumentTypeError(
            where,
            argument,
            "a FetchResponse or an exception instance",
            value,
            "write FetchResponse(url, body=...) or ConnectionError('...')",
        )


def check_matcher(key: object, where: str) -> Matcher:
    """Refuse a route key that is no matcher, naming it."""
    if isinstance(key, str):
        if not key:
            raise ArgumentValueError(where, "fixtures keys", "non-empty URL strs", key)
        return key
    if isinstance(key, re.Pattern | URLPrefix | URLHost):
        if isinstance(key, re.Pattern) and not isinstance(key.pattern, str):
            raise ArgumentTypeError(where, "fixtures keys", "a str regex", key)
        return key
    raise ArgumentTypeError(
        where,
        "fixtures keys",
        "URL strs, compiled regexes, URLPrefix or URLHost",
        key,
        "write re.compile(r'https://api\\.test/items/\\d+') for a pattern",
    )


def check_answer(value: object, where: str, argument: str) -> Answer:
    """Refuse an answer no route can give, naming it; a list becomes :class:`InTurn`."""
    if isinstance(value, FetchResponse | BaseException | InTurn):
        return value
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _check_reply(item, where, f"{argument}[{index}]")
        if not value:
            raise ArgumentValueError(
                where, argument, "at least one answer", value, "an empty list answers nothing"
            )
        return InTurn(*value)
    if callable(value) and not isinstance(value, type | str):
        return value
    url = argument.partition("[")[2].rstrip("]") or "url"
    raise ArgumentTypeError(
        where,
        argument,
        "a FetchResponse, an exception instance, a list of them, or a function of the URL",
        value,
        f"write FetchResponse({url}, body=...)",
    )


def describe_matcher(matcher: Matcher) -> str:
    """How a route reads in a message: the URL itself, or the pattern with its kind."""
    if isinstance(matcher, str):
        return matcher
    if isinstance(matcher, re.Pattern):
        return f"re.compile({matcher.pattern!r})"
    return repr(matcher)


def _matches(matcher: Matcher, url: str) -> bool:
    if isinstance(matcher, str):
        return url == matcher
    if isinstance(matcher, re.Pattern):
        return matcher.fullmatch(url) is not None
    if isinstance(matcher, URLPrefix):
        return url.startswith(matcher.prefix)
    from urllib.parse import urlsplit  # brings ipaddress: paid by a URLHost route only

    return (urlsplit(url).hostname or "") == matcher.host.lower()


class Route:
    """One route: its matcher, its answer, and how often it matched."""

    __slots__ = ("answer", "cursor", "matched", "matcher")

    def __init__(self, matcher: Matcher, answer: Answer) -> None:
        self.matcher = matcher
        self.answer = answer
        self.matched = 0
        self.cursor: ScriptCursor[Reply] | None = None
        if isinstance(answer, InTurn):
            self.cursor = ScriptCursor(
                answer.answers,
                repeat_last=answer.repeat_last,
                what="answer",
                exhausted=FetchRouteExhausted,
                where="FakeFetch",
            )

    def matches(self, url: str) -> bool:
        return _matches(self.matcher, url)

    @property
    def text(self) -> str:
        """The route as a reader finds it in the test: the URL, or the pattern."""
        if isinstance(self.matcher, str):
            return self.matcher
        if isinstance(self.matcher, re.Pattern):
            return self.matcher.pattern
        if isinstance(self.matcher, URLPrefix):
            return self.matcher.prefix
        return self.matcher.host

    def reply(self, url: str) -> Reply:
        """This route's answer to ``url``: the response to return or the exception to raise."""
        self.matched += 1
        if self.cursor is not None:
            try:
                return self.cursor.next()
            except FetchRouteExhausted as exc:
                raise FetchRouteExhausted(
                    f"FakeFetch route {describe_matcher(self.matcher)} for {url!r}: {exc}"
                ) from None
        answer = self.answer
        if isinstance(answer, FetchResponse | BaseException):
            return answer
        got: object = answer(url)  # type: ignore[operator]
        if not isinstance(got, FetchResponse | BaseException):
            raise ArgumentTypeError(
                "FakeFetch",
                f"fixtures[{describe_matcher(self.matcher)!r}]",
                "a function returning a FetchResponse or an exception instance",
                got,
                f"it returned that for {url!r}",
            )
        return got
