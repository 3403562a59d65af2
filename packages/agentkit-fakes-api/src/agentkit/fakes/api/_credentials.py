"""Real credentials at the fake's door: a provider key the client read from the environment.

A test that talks to FakeApi needs no real key; one that sends a real-looking
key got it from somewhere the test did not mean -- most often the SDK read
``ANTHROPIC_API_KEY`` / ``OPENAI_API_KEY`` from the developer's environment
because the test gave it none. That key would reach the real provider the
day the base URL is wrong, and it now sits in ``api.requests`` where a test
may print it. So the server reports it (a violation of the test) and keeps
the request with the key masked.

What looks real is what the kit's secret scan knows
(:data:`agentkit.core._secrets.SHAPES`: ``sk-ant-...``, ``sk-proj-...``,
and the other providers' fixed-prefix shapes), run over each header's value.
A value that says it is made up (``fake``, ``test``, ``dummy``, ``example``...,
as in the keys :attr:`~agentkit.fakes.api.FakeApi.env` hands out) is not a
real one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from agentkit.core._secrets import REDACTED, SHAPES, matches

__all__ = ["masked", "real_credentials"]

_KEY_SHAPES = tuple(s for s in SHAPES if not s.pattern.groupindex)
"""The shapes a key has by its looks alone (a fixed prefix), not by a name beside it: a
header's value is the key itself, so the named forms (``password=...``) do not apply."""

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


def real_credentials(headers: Mapping[str, str]) -> list[tuple[str, str]]:
    """``(header name, kind of key)`` for each real-looking key in ``headers``."""
    return [(name, kind) for name, value in headers.items() for kind, _, _ in _found(value)]


def masked(headers: Mapping[str, str]) -> dict[str, str]:
    """``headers`` with every real-looking key replaced by ``[REDACTED]``."""
    out = dict(headers)
    for name, value in headers.items():
        for _, start, end in reversed(_found(value)):
            value = value[:start] + REDACTED.decode() + value[end:]
        out[name] = value
    return out
