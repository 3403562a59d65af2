"""FakeFetch: fetch answered from fixtures; an unknown URL fails loudly, and is remembered."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from agentkit.core.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_bool,
    check_mapping,
    hide_argument_errors,
)
from agentkit.core.failures import kit_failure
from agentkit.core.types import FetchResponse
from agentkit.core.verification import VerifyingDouble, Violation

__all__ = ["FakeFetch", "UnknownURLError"]

__tracebackhide__ = hide_argument_errors  # a wrong argument shows the caller's line


def _close_matches(url: str, known: Iterable[str]) -> tuple[str, ...]:
    """The known URLs most like ``url`` (at most three, best first): usually the typo's target."""
    import difflib  # only on a miss: not on the import path of every test

    return tuple(difflib.get_close_matches(url, list(known), n=3, cutoff=0.75))


@kit_failure
class UnknownURLError(KeyError):
    """A URL the fixtures do not list was fetched.

    A KeyError whose only argument is the URL (``KeyError(url)``, as the kit
    documents), so ``except KeyError`` and ``exc.args[0] == url`` both work.
    The subclass adds what a reader of the failure needs: ``url`` (what was
    asked), ``known`` (every URL the fixtures list, sorted) and
    ``close_matches`` (the known URLs most like it, best first -- usually the
    typo's target), all in the message too.
    """

    url: str
    known: tuple[str, ...]
    close_matches: tuple[str, ...]

    def __init__(self, url: str, known: Iterable[str]) -> None:
        self.url = url
        self.known = tuple(sorted(known))
        self.close_matches = _close_matches(url, self.known)
        super().__init__(url)

    def __str__(self) -> str:
        text = f"FakeFetch has no fixture for {self.url!r}; the fixtures list {list(self.known)}"
        if self.close_matches:
            text += f"; did you mean {self.close_matches[0]!r}?"
        return text


class FakeFetch(VerifyingDouble):
    """Deterministic offline FetchPort.

    ``fixtures`` is ``{url: FetchResponse}``, matched exactly. An unknown URL
    raises :class:`UnknownURLError` (a ``KeyError(url)``) so a test fails loud
    instead of silently falling back to a stub response that the agent would
    then reason about. Every fetch, the failing ones included, is recorded in
    :attr:`calls` in order. The fixtures are copied, and ``fixtures`` is a
    plain dict a test may add to between steps.

    What it verifies, and why. Raising is not enough: the code under test can
    catch the KeyError -- the tool loop turns every tool failure into a tool
    message on purpose, the next scripted turn answers, and a typo in a URL
    passes its test. So each miss is also recorded (kind ``unknown_url``,
    with the close matches), and :meth:`assert_complete` -- called for you by
    the pytest plugin at teardown -- fails the test on it. A fixture that was
    never fetched is reported too (kind ``unfetched_fixtures``), as
    pytest-httpx reports a response nobody requested: a fixture is a claim
    that the agent fetches that page, and an agent that skipped it -- or
    fetched a different spelling the code then swallowed -- is the bug the
    test exists to find.

    ``FakeFetch({})`` is a fetch that expects no fetch at all: every URL is a
    miss. Anything but a mapping of URL strings to FetchResponse is refused
    at construction (an ArgumentTypeError naming the bad entry).

    Opt-outs, per double: ``require_all_fetched=False`` for a fixture set
    that is a menu the agent picks from (misses are still violations);
    ``verify=False`` to verify nothing at all, as before strict verification.
    Per test, the plugin's ``@pytest.mark.agentkit(verify=False)``.
    """

    def __init__(
        self,
        fixtures: Mapping[str, FetchResponse],
        *,
        require_all_fetched: bool = True,
        verify: bool = True,
    ) -> None:
        check_mapping(
            fixtures,
            "FakeFetch",
            "fixtures",
            "a mapping {url: FetchResponse}",
        )
        self.fixtures: dict[str, FetchResponse] = {}
        for url, response in fixtures.items():
            if not isinstance(url, str):
                raise ArgumentTypeError("FakeFetch", "fixtures keys", "URL strs", url)
            if not url:
                raise ArgumentValueError("FakeFetch", "fixtures keys", "non-empty URL strs", url)
            if not isinstance(response, FetchResponse):
                raise ArgumentTypeError(
                    "FakeFetch",
                    f"fixtures[{url!r}]",
                    "a FetchResponse",
                    response,
                    f"write FetchResponse({url!r}, body=...)",
                )
            self.fixtures[url] = response
        self.require_all_fetched = check_bool(
            require_all_fetched, "FakeFetch", "require_all_fetched"
        )
        self.calls: list[str] = []
        self._init_verification(verify=verify)

    async def fetch(self, url: str) -> FetchResponse:
        self.calls.append(url)
        try:
            return self.fixtures[url]
        except KeyError:
            error = UnknownURLError(url, self.fixtures)
            self._record_miss(error)
            raise error from None

    def _record_miss(self, error: UnknownURLError) -> None:
        if error.close_matches:
            # A near miss is a typo in the code under test (or the fixture): adding the
            # misspelt URL as a fixture would make the test pass on the typo.
            fix = (
                f"did you mean {error.close_matches[0]!r}? fix the URL the code under test "
                "builds (or the fixture's, if that one is misspelt)"
            )
        else:
            fix = (
                "fix the URL the code under test builds, or add a fixture for it: "
                f"FakeFetch({{{error.url!r}: FetchResponse({error.url!r}, ...)}})"
            )
        self._record_violation(
            "unknown_url",
            f"fetched {error.url!r}, which the fixtures do not list "
            f"(they list {list(error.known)}); the UnknownURLError raised for it may have "
            "been caught by the code under test",
            fix,
        )

    def _leftovers(self) -> list[Violation]:
        if not self.require_all_fetched:
            return []
        fetched = set(self.calls)
        unfetched = [url for url in self.fixtures if url not in fetched]
        if not unfetched:
            return []
        return [
            self._violation(
                "unfetched_fixtures",
                f"{len(unfetched)} fixture{'' if len(unfetched) == 1 else 's'} never fetched: "
                f"{unfetched}",
                "make the code under test fetch them, remove the fixtures the test does not "
                "need, or pass require_all_fetched=False if the fixtures are a menu the "
                "agent picks from",
            )
        ]
