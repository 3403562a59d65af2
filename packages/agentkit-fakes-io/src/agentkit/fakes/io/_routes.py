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

import inspect
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeAlias

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_bool,
    check_str,
)
from agentkit.core._internal.failures import kit_failure
from agentkit.core.types import FetchResponse
from agentkit.core.verification.script import ScriptCursor, ScriptExhausted

__all__ = [
    "Answer",
    "FetchRoute",
    "FetchRouteError",
    "FetchRouteExhausted",
    "InTurn",
    "Matcher",
    "RouteFunction",
    "URLHost",
    "URLPrefix",
    "check_answer",
    "check_matcher",
    "describe_matcher",
]


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
RouteFunction: TypeAlias = "Callable[..., Reply | Awaitable[Reply]]"
"""A function of the URL (and of a regex route's named groups) returning an answer, or an
``async def`` doing so."""
Answer: TypeAlias = "Reply | InTurn | Sequence[Reply] | RouteFunction"


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

    __module__ = "agentkit.fakes.io"  # what a traceback prints: the public path


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


def _same_query(route: str, url: str) -> bool:
    """Whether ``url`` is ``route`` with its query parameters in another order.

    As pytest-httpx compares URLs: the same scheme, host, path and fragment,
    and the same values for each parameter (a repeated parameter's values in
    their order); only the order of the parameters is free.
    """
    if "?" not in route or "?" not in url or route.partition("?")[0] != url.partition("?")[0]:
        return False
    from urllib.parse import parse_qs, urlsplit  # paid by a near-miss with a query only

    want, got = urlsplit(route), urlsplit(url)
    return want.fragment == got.fragment and parse_qs(
        want.query, keep_blank_values=True
    ) == parse_qs(got.query, keep_blank_values=True)


_NO_GROUPS: Mapping[str, str] = MappingProxyType({})


def _groups_taken(
    function: Callable[..., object], groups: Sequence[str], route: str
) -> tuple[str, ...]:
    """The named groups of a regex route that its function takes as keywords, checked now.

    A function takes the URL, then (like a respx side effect) each named group
    of its pattern it declares a parameter for, or every one with
    ``**kwargs``. One that cannot be called so is refused at construction.
    """
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # a builtin without a signature: it will tell at call time
        return ()
    parameters = signature.parameters.values()
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        taken = tuple(groups)
    else:
        names = {p.name for p in parameters if p.kind is not p.POSITIONAL_ONLY}
        taken = tuple(group for group in groups if group in names)
    try:
        signature.bind("url", **dict.fromkeys(taken, ""))
    except TypeError as exc:
        named = f" and the named groups {list(taken)}" if taken else ""
        raise ArgumentTypeError(
            "FakeFetch",
            f"fixtures[{route!r}]",
            f"a function taking the URL{named}",
            function,
            f"it cannot be called so ({exc}); write `def answer(url: str) -> FetchResponse`"
            + (", with a parameter per named group it wants" if groups else ""),
        ) from None
    return taken


@kit_failure
class FetchRouteError(BaseException):
    """A route's function broke: it raised, or returned something else than an answer.

    The function is part of the TEST, so this is a bug in the test, not a
    network failure to simulate (a function RETURNS the exception instance
    for that). A BaseException, so the tool loop's ``except Exception`` cannot
    turn it into a message for the model, and recorded as well (kind
    ``route_error``), so a ``gather(return_exceptions=True)`` cannot hide it.
    The original exception, if any, is ``error`` and ``__cause__``.
    """

    __module__ = "agentkit.fakes.io"  # what a traceback prints: the public path

    def __init__(self, message: str, error: BaseException | None = None) -> None:
        self.error = error
        super().__init__(message)


class FetchRoute:
    """One route of a :class:`~agentkit.fakes.io.FakeFetch`: what it matches, what it
    answers, and what it was asked (``fetch.route(key)`` gives it).

    ``calls`` lists the URLs this route answered, in order (a respx route's
    ``calls``); ``call_count``, ``called`` and ``last_call`` read it.
    ``optional`` is a route the test allows to go unfetched (pytest-httpx's
    ``is_optional``).
    """

    __slots__ = ("_cursor", "_function", "_groups", "answer", "calls", "matcher", "optional")

    def __init__(self, matcher: Matcher, answer: Answer, *, optional: bool = False) -> None:
        self.matcher = matcher
        self.answer = answer
        self.optional = optional
        self.calls: list[str] = []
        self._cursor: ScriptCursor[Reply] | None = None
        self._groups: tuple[str, ...] = ()
        self._function: Callable[..., object] | None = None
        if isinstance(answer, InTurn):
            self._cursor = ScriptCursor(
                answer.answers,
                repeat_last=answer.repeat_last,
                what="answer",
                exhausted=FetchRouteExhausted,
                where="FakeFetch",
            )
        elif callable(answer) and not isinstance(answer, BaseException):
            groups = list(matcher.groupindex) if isinstance(matcher, re.Pattern) else []
            self._groups = _groups_taken(answer, groups, describe_matcher(matcher))
            self._function = answer

    def __repr__(self) -> str:
        return (
            f"<FetchRoute {describe_matcher(self.matcher)} call_count={self.call_count}"
            f"{' optional' if self.optional else ''}>"
        )

    @property
    def call_count(self) -> int:
        """How many fetches this route answered."""
        return len(self.calls)

    @property
    def called(self) -> bool:
        """Whether any fetch matched this route."""
        return bool(self.calls)

    @property
    def last_call(self) -> str | None:
        """The URL of the last fetch this route answered, or None."""
        return self.calls[-1] if self.calls else None

    @property
    def unused_answers(self) -> int:
        """Answers in turn not yet given (0 for the other kinds of answer)."""
        return 0 if self._cursor is None else self._cursor.remaining

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

    def match(self, url: str) -> Mapping[str, str] | None:
        """The named groups ``url`` gives this route (empty for all but a regex), or None."""
        matcher = self.matcher
        if isinstance(matcher, str):
            return _NO_GROUPS if url == matcher or _same_query(matcher, url) else None
        if isinstance(matcher, re.Pattern):
            found = matcher.fullmatch(url)
            return None if found is None else found.groupdict()
        if isinstance(matcher, URLPrefix):
            return _NO_GROUPS if url.startswith(matcher.prefix) else None
        from urllib.parse import urlsplit  # brings ipaddress: paid by a URLHost route only

        return _NO_GROUPS if (urlsplit(url).hostname or "") == matcher.host.lower() else None

    def _as_fetched(self, reply: Reply, url: str) -> Reply:
        """A fixed response reports the URL fetched, as every FetchPort does.

        A pattern's fixture stands for every URL the pattern matches, and an
        exact route's for its URL in any parameter order; only an exact
        route's response naming ANOTHER URL is kept as written: the page a
        redirect led to.
        """
        if not isinstance(reply, FetchResponse) or reply.url == url:
            return reply
        if isinstance(self.matcher, str) and reply.url != self.matcher:
            return reply
        return FetchResponse(url, reply.status, reply.body, reply.headers)

    def reply(self, url: str, groups: Mapping[str, str]) -> Reply | Awaitable[Reply]:
        """This route's answer to ``url``: the response to return or the exception to raise
        -- or, from a function, the awaitable that gives it (a fixed answer costs no await)."""
        self.calls.append(url)
        if self._function is not None:
            return self._call(self._function, url, groups)
        if self._cursor is not None:
            try:
                return self._as_fetched(self._cursor.next(), url)
            except FetchRouteExhausted:
                count = len(self._cursor.items)
                raise FetchRouteExhausted(
                    f"FakeFetch route {describe_matcher(self.matcher)} has {count} "
                    f"answer{'' if count == 1 else 's'} in turn but fetch {self.call_count} "
                    f"({url!r}) asked for another; the code under test fetched it more often "
                    "than its answers claim (InTurn(..., repeat_last=True) repeats the last)"
                ) from None
        answer = self.answer
        assert isinstance(answer, FetchResponse | BaseException)  # check_answer made it so
        return self._as_fetched(answer, url)

    async def _call(
        self, function: Callable[..., object], url: str, groups: Mapping[str, str]
    ) -> Reply:
        where = f"the function of route {describe_matcher(self.matcher)} for {url!r}"
        try:
            got: object = function(url, **{name: groups[name] for name in self._groups})
            if inspect.isawaitable(got):
                got = await got
        except Exception as exc:
            raise FetchRouteError(f"{where} raised {type(exc).__name__}: {exc}", exc) from exc
        if not isinstance(got, FetchResponse | BaseException):
            raise FetchRouteError(
                f"{where} returned {type(got).__name__}; it must return a FetchResponse or an "
                "exception instance (to raise)"
            )
        return got
