"""Real credentials at the fake's door: a provider key the client read from the environment.

A test that talks to FakeApi needs no real key; one that sends a real-looking
key got it from somewhere the test did not mean -- most often the SDK read
``ANTHROPIC_API_KEY`` / ``OPENAI_API_KEY`` from the developer's environment
because the test gave it none. That key would reach the real provider the
day the base URL is wrong, and it now sits in ``api.requests`` where a test
may print it. So the server reports it (a violation of the test) and keeps
the request with the key masked.

What looks real is what the kit's secret scan knows
(:data:`agentkit.core._internal.secrets.SHAPES`: ``sk-ant-...``, ``sk-proj-...``,
and the other providers' fixed-prefix shapes), run over the value of each header
whose name says it holds a secret (:func:`agentkit.core._internal.secrets.is_secret_name`).
A value that says it is made up (``fake``, ``test``, ``dummy``, ``example``...,
as in the keys :attr:`~agentkit.fakes.api.FakeApi.env` hands out) is not a
real one.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from agentkit.core._internal.secrets import REDACTED, SHAPES, is_secret_name, matches

__all__ = ["screen"]

_KEY_SHAPES = tuple(s for s in SHAPES if not s.pattern.groupindex)
"""The shapes a key has by its looks alone (a fixed prefix), not by a name beside it: a
header's value is the key itself, so the named forms (``password=...``) do not apply."""

_ANY = re.compile(b"|".join(b"(?:" + shape.pattern.pattern + b")" for shape in _KEY_SHAPES))
"""Every key shape in one pattern: one pass over a request's headers finds whether any
is there at all (almost never), before the shapes are run one by one to say which."""

_MADE_UP = re.compile(
    rb"fake|test|dummy|mock|example|placeholder|not-a-secret|not_a_secret|xxxx", re.IGNORECASE
)


def _found(value: str) -> list[tuple[str, int, int]]:
    """``(kind, start, end)`` of each real-looking key in ``value``, in order.

    Where two shapes match one key (an ``sk-ant-`` key also fits the older
    ``sk-`` shape), the first shape of the list names it.
    """
    data = value.encode("latin-1", "replace")
    hits = [
        (start, index, end, shape.kind)
        for index, shape in enumerate(_KEY_SHAPES)
        for start, end in matches(shape, data)
        if _MADE_UP.search(data, start, end) is None
    ]
    out: list[tuple[str, int, int]] = []
    for start, _, end, kind in sorted(hits):
        if out and start < out[-1][2]:
            continue  # inside a key already found
        out.append((kind, start, end))
    return out


@functools.lru_cache(maxsize=256)
def _may_hold_key(name: str) -> bool:
    """Whether header ``name`` says it holds a secret (``x-api-key``, ``authorization``,
    ``cookie``...): the scan's own test, cached, since a client sends the same names
    on every request."""
    return is_secret_name(name)


def _masked(value: str) -> tuple[list[str], str]:
    """The kinds of real-looking key in ``value``, and ``value`` with each one replaced."""
    if _ANY.search(value.encode("latin-1", "replace")) is None:
        return [], value
    spans = _found(value)
    for _, start, end in reversed(spans):
        value = value[:start] + REDACTED.decode() + value[end:]
    return [kind for kind, _, _ in spans], value


def screen(
    headers: Mapping[str, str], path: str
) -> tuple[list[tuple[str, str]], Mapping[str, str], str]:
    """``(where, kind of key)`` for each real-looking key a request carries, and its
    headers and path to keep -- as they came when there is none, else with every such key
    replaced by ``[REDACTED]``.

    Searched: the headers whose name says they hold a secret (the rest,
    ``user-agent``, ``x-stainless-*``..., carry none, and a request is screened
    on every call, so this stays a few microseconds), and the query string (a
    ``?key=`` some clients use).
    """
    found: list[tuple[str, str]] = []
    kept: dict[str, str] | None = None
    for name, value in headers.items():
        if not _may_hold_key(name):
            continue
        kinds, masked = _masked(value)
        if kinds:
            found += [(name, kind) for kind in kinds]
            kept = dict(headers) if kept is None else kept
            kept[name] = masked
    route, mark, query = path.partition("?")
    if mark:
        kinds, query = _masked(query)
        found += [("the query string", kind) for kind in kinds]
    return found, headers if kept is None else kept, route + mark + query
