"""Positive typing cases for FakeFetch's typed keys, checked by the root mypy run.

The negative case (a key that is no route) is tests/typing_negative/fetch_key_not_a_route.py.
A ``Mapping``'s key type is invariant, so each shape a test writes is pinned here: a dict
written in the call with mixed route kinds, and dicts built beforehand with one kind of key.
"""

from __future__ import annotations

import re

from agentkit.core.types import FetchResponse
from agentkit.fakes.io import FakeFetch, InTurn, URLHost, URLPrefix

PAGE = FetchResponse("https://a.test/")


async def page(url: str) -> FetchResponse:
    return FetchResponse(url)


def test_every_shape_of_fixtures_type_checks_and_builds() -> None:
    mixed = FakeFetch(
        {
            "https://a.test/": PAGE,
            re.compile(r"https://a\.test/\d+"): page,
            URLPrefix("https://a.test/x"): [PAGE, ConnectionError("reset")],
            URLHost("b.test"): InTurn(PAGE, repeat_last=True),
        },
        optional=[URLHost("b.test")],
        verify=False,
    )
    by_url: dict[str, FetchResponse] = {"https://a.test/": PAGE}
    by_pattern = {re.compile(r"https://a\.test/.*"): PAGE}
    by_prefix = {URLPrefix("https://a.test/"): [PAGE]}
    built = [
        FakeFetch(by_url, verify=False),
        FakeFetch(by_pattern, verify=False),
        FakeFetch(by_prefix, verify=False),
    ]
    assert [len(fetch.routes) for fetch in [mixed, *built]] == [4, 1, 1, 1]
