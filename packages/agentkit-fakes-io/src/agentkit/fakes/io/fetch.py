"""FakeFetch: fetch answered by routes; an unknown URL fails loudly, and is remembered."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar, overload

from agentkit.core._internal.arguments import (
    ArgumentValueError,
    check_bool,
    check_mapping,
    check_values,
)
from agentkit.core._internal.failures import kit_failure
from agentkit.core.types import FetchResponse
from agentkit.core.verification import VerifyingDouble, Violation
from agentkit.fakes.io._routes import (
    Answer,
    FetchRoute,
    FetchRouteError,
    FetchRouteExhausted,
    InTurn,
    Matcher,
    URLHost,
    URLPrefix,
    check_answer,
    check_matcher,
    describe_matcher,
)

__all__ = [
    "FakeFetch",
    "FetchRoute",
    "FetchRouteError",
    "FetchRouteExhausted",
    "InTurn",
    "URLHost",
    "URLPrefix",
    "UnknownURLError",
]

_M = TypeVar("_M", bound="Matcher")


def _optional_routes(optional: object, fixtures: Mapping[Any, Any]) -> list[object]:
    """``optional`` as a list of route keys, each one a key of ``fixtures``."""
    keys = check_values(optional, "FakeFetch", "optional", "an iterable of routes (fixtures keys)")
    for index, key in enumerate(keys):
        if key not in fixtures:
            raise ArgumentValueError(
                "FakeFetch",
                f"optional[{index}]",
                "a route of fixtures",
                key,
                "write each optional route exactly as its key in fixtures",
            )
    return list(keys)


def _close_matches(url: str, known: Iterable[str]) -> tuple[str, ...]:
    """The known routes most like ``url`` (at most three, best first): usually the typo's target."""
    import difflib  # only on a miss: not on the import path of every test

    return tuple(difflib.get_close_matches(url, list(known), n=3, cutoff=0.75))


def _nearest(url: str, known: Iterable[str]) -> str | None:
    """The route most like ``url``, however unlike: the one a reader compares the URL with."""
    import difflib

    scored = [(difflib.SequenceMatcher(None, url, text).ratio(), text) for text in known]
    return max(scored, key=lambda pair: pair[0])[1] if scored else None


@kit_failure
class UnknownURLError(KeyError):
    """A URL no route matches was fetched.

    A KeyError whose only argument is the URL (``KeyError(url)``, as the kit
    documents), so ``except KeyError`` and ``exc.args[0] == url`` both work.
    The subclass adds what a reader of the failure needs: ``url`` (what was
    asked), ``known`` (every route, sorted: the URLs, and the patterns as
    written), ``close_matches`` (the routes most like it, best first --
    usually the typo's target) and ``nearest`` (the one route most like it,
    however unlike, or None with no routes), all in the message too.
    """

    url: str
    known: tuple[str, ...]
    close_matches: tuple[str, ...]
    nearest: str | None

    def __init__(self, url: str, known: Iterable[str]) -> None:
        self.url = url
        self.known = tuple(sorted(known))
        self.close_matches = _close_matches(url, self.known)
        self.nearest = self.close_matches[0] if self.close_matches else _nearest(url, self.known)
        super().__init__(url)

    def __str__(self) -> str:
        text = f"FakeFetch has no route for {self.url!r}; the routes are {list(self.known)}"
        if self.close_matches:
            text += f"; did you mean {self.close_matches[0]!r}?"
        elif self.nearest is not None:
            text += f"; the nearest route is {self.nearest!r}"
        return text


class FakeFetch(VerifyingDouble):
    """Deterministic offline FetchPort, answering by routes.

    ``fixtures`` maps each route to its answer, tried in the order given; the
    first route that matches answers. A route is

    - an exact URL (a ``str``), as most tests want; its query parameters
      match in any order, as pytest-httpx matches them;
    - a compiled regex (``re.compile(r"https://api\\.test/items/\\d+")``),
      matched against the whole URL;
    - :class:`URLPrefix` (every URL starting so) or :class:`URLHost` (every
      URL on that host).

    An answer is

    - a :class:`FetchResponse`, returned at every match -- reporting the URL
      fetched, as a real fetcher does (only an exact route's response naming
      another URL keeps it: the page a redirect led to);
    - an exception instance (``ConnectionError("reset")``), raised at every
      match: the network failing, as a real fetcher's caller sees it;
    - a list or tuple of those, or :class:`InTurn` -- one per fetch, in
      order (a 503 then a 200). Finite: one fetch too many raises
      :class:`FetchRouteExhausted`, a ``ScriptExhausted`` like every run-out
      script in the kit; ``InTurn(..., repeat_last=True)`` repeats the last;
    - a function of the URL returning either (or an ``async def`` doing so),
      for answers built from it; a regex route's function also gets each
      named group it declares a parameter for, as respx passes them. A
      function that raises, or returns anything else, is a bug in the test:
      :class:`FetchRouteError`, a BaseException, recorded as ``route_error``.

    A URL no route matches raises :class:`UnknownURLError` (a
    ``KeyError(url)``) naming the nearest route, so a test fails loud
    instead of silently falling back to a stub response that the agent would
    then reason about. Every fetch, the failing ones included, is recorded in
    :attr:`calls` in order, and each route keeps its own
    (:meth:`route` gives it: ``call_count``, ``called``, ``last_call``).
    The routes are copied; ``fixtures`` is a plain dict of the exact-URL
    routes that a test may add to between steps (an added URL is tried after
    the routes given).

    What it verifies, and why. Raising is not enough: the code under test can
    catch the KeyError -- the tool loop turns every tool failure into a tool
    message on purpose, the next scripted turn answers, and a typo in a URL
    passes its test. So each miss is also recorded (``unknown_url``, naming
    the nearest route), and :meth:`assert_complete` -- called for you by the
    pytest plugin at teardown -- fails the test on it; so is a fetch past a
    route's answers in turn (``script_exhausted``, as FakeLLM names it) and a
    broken route function (``route_error``). A route that never matched is
    reported too (``unfetched_fixtures``), as pytest-httpx reports a
    response nobody requested: a route is a claim that the agent fetches that
    page. So are answers in turn never reached (``unused_answers``): three
    answers are a claim of three fetches.

    ``FakeFetch({})`` is a fetch that expects no fetch at all: every URL is a
    miss. A route or an answer of any other kind is refused at construction
    (an ArgumentTypeError naming the bad entry).

    Opt-outs: ``optional=[route, ...]`` for the routes a test allows to go
    unfetched (pytest-httpx's ``is_optional``); ``require_all_fetched=False``
    for all of them, when the routes are a menu the agent picks from (misses
    and unreached answers of a route that did match are still violations);
    ``verify=False`` to verify nothing at all. Per test, the plugin's
    ``@pytest.mark.agentkit(verify=False)``.
    """

    @overload
    def __init__(
        self,
        fixtures: Mapping[Matcher, Answer],
        *,
        optional: Iterable[Matcher] = (),
        require_all_fetched: bool = True,
        verify: bool = True,
    ) -> None: ...

    @overload
    def __init__(
        self,
        fixtures: Mapping[_M, Answer],
        *,
        optional: Iterable[Matcher] = (),
        require_all_fetched: bool = True,
        verify: bool = True,
    ) -> None: ...

    def __init__(
        self,
        fixtures: Mapping[Any, Answer],
        *,
        optional: Iterable[Matcher] = (),
        require_all_fetched: bool = True,
        verify: bool = True,
    ) -> None:
        # Two overloads because a Mapping's key type is invariant: the first types a dict
        # written in the call (str and pattern keys mixed), the second a dict built before
        # with one kind of key (dict[str, FetchResponse]); mypy checks the keys either way.
        check_mapping(
            fixtures,
            "FakeFetch",
            "fixtures",
            "a mapping {url: FetchResponse} (or {route: answer})",
        )
        optional_keys = _optional_routes(optional, fixtures)
        self.fixtures: dict[str, Answer] = {}
        self._routes: list[FetchRoute] = []
        # What each exact route was built from, to see the test replace it in `fixtures`.
        self._given: dict[str, object] = {}
        for key, answer in fixtures.items():
            matcher = check_matcher(key, "FakeFetch")
            checked = check_answer(answer, "FakeFetch", f"fixtures[{key!r}]")
            if isinstance(matcher, str):
                self.fixtures[matcher] = self._given[matcher] = checked
            self._routes.append(FetchRoute(matcher, checked, optional=matcher in optional_keys))
        self.require_all_fetched = check_bool(
            require_all_fetched, "FakeFetch", "require_all_fetched"
        )
        self.calls: list[str] = []
        self._init_verification(verify=verify)

    @property
    def routes(self) -> tuple[FetchRoute, ...]:
        """Every route, in the order tried (the exact URLs as ``fixtures`` holds them now)."""
        return tuple(self._current_routes())

    def route(self, key: Matcher) -> FetchRoute:
        """The route written ``key`` in the fixtures: its ``calls``, ``call_count``,
        ``called`` and ``last_call`` (``fetch.route(URLPrefix("https://api.test/"))``)."""
        for route in self._current_routes():
            if route.matcher == key:
                return route
        known = [describe_matcher(route.matcher) for route in self._routes]
        raise ArgumentValueError(
            "FakeFetch.route", "key", f"one of the routes {known}", key, "pass a key of fixtures"
        )

    def _current_routes(self) -> list[FetchRoute]:
        """The routes in order, with the exact-URL ones as ``fixtures`` holds them now."""
        routes: list[FetchRoute] = []
        seen: set[str] = set()
        for index, route in enumerate(self._routes):
            if isinstance(route.matcher, str):
                if route.matcher not in self.fixtures:
                    continue  # removed by the test
                seen.add(route.matcher)
                answer = self.fixtures[route.matcher]
                if answer is not self._given[route.matcher]:  # replaced: a new claim, same stats
                    self._given[route.matcher] = answer
                    replaced = FetchRoute(
                        route.matcher,
                        check_answer(answer, "FakeFetch", "fixtures"),
                        optional=route.optional,
                    )
                    replaced.calls = route.calls
                    self._routes[index] = route = replaced
            routes.append(route)
        for url, answer in list(self.fixtures.items()):
            if url not in seen:  # added by the test: tried after the routes given
                self._given[url] = answer
                added = FetchRoute(url, check_answer(answer, "FakeFetch", f"fixtures[{url!r}]"))
                self._routes.append(added)
                routes.append(added)
        return routes

    async def fetch(self, url: str) -> FetchResponse:
        self.calls.append(url)
        routes = self._current_routes()
        for route in routes:
            groups = route.match(url)
            if groups is None:
                continue
            try:
                reply = route.reply(url, groups)
                if not isinstance(reply, FetchResponse | BaseException):
                    reply = await reply  # a route function's answer
            except FetchRouteExhausted as exhausted:
                self._record_violation(
                    "script_exhausted",
                    str(exhausted),
                    "the code under test fetched this route more often than its answers "
                    "claim: fix the loop, add an answer, or end the answers with "
                    "InTurn(..., repeat_last=True)",
                )
                raise
            except FetchRouteError as broken:
                self._record_violation(
                    "route_error",
                    str(broken),
                    "fix the route's function (it is part of the test): return a "
                    "FetchResponse, or RETURN an exception instance to simulate a network "
                    "failure",
                )
                raise
            if isinstance(reply, BaseException):
                raise reply
            return reply
        error = UnknownURLError(url, [route.text for route in routes])
        self._record_miss(error)
        raise error from None

    def _record_miss(self, error: UnknownURLError) -> None:
        if error.close_matches:
            # A near miss is a typo in the code under test (or the route): adding the
            # misspelt URL as a route would make the test pass on the typo.
            fix = (
                f"did you mean {error.close_matches[0]!r}? the URL looks like a typo of that "
                "route: fix the URL the code under test builds (or the route's, if that one "
                "is misspelt)"
            )
        elif error.nearest is not None:
            fix = (
                f"no route is close (the nearest is {error.nearest!r}): if the code under test "
                "should fetch this URL, give it a route -- an exact URL, a re.compile pattern, "
                "URLPrefix or URLHost"
            )
        else:
            fix = (
                "the double has no routes: give it one for the URL the code under test should "
                f"fetch, e.g. FakeFetch({{{error.url!r}: FetchResponse({error.url!r}, ...)}})"
            )
        self._record_violation(
            "unknown_url",
            f"fetched {error.url!r}, which no route matches (the routes are "
            f"{list(error.known)}); the UnknownURLError raised for it may have been caught by "
            "the code under test",
            fix,
        )

    def _leftovers(self) -> list[Violation]:
        routes = self._current_routes()
        found: list[Violation] = []
        unmatched = [route.text for route in routes if not route.called and not route.optional]
        if unmatched and self.require_all_fetched:
            found.append(
                self._violation(
                    "unfetched_fixtures",
                    f"{len(unmatched)} route{'' if len(unmatched) == 1 else 's'} never "
                    f"matched: {', '.join(unmatched)}",
                    "make the code under test fetch them, remove the routes the test does not "
                    "need, list the ones it may skip in optional=[...], or pass "
                    "require_all_fetched=False if the routes are a menu the agent picks from",
                )
            )
        for route in routes:
            unused = route.unused_answers
            if route.called and unused:
                found.append(
                    self._violation(
                        "unused_answers",
                        f"route {route.text!r} was fetched {route.call_count} time(s) but has "
                        f"{route.call_count + unused} answers: {unused} never given",
                        "make the code under test fetch it as often as the answers claim, or "
                        "drop the answers it does not reach",
                    )
                )
        return found
