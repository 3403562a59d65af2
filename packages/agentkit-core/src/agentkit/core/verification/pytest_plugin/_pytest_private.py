"""Every pytest attribute the plugin reads that pytest does not document as public.

One module, so that a pytest release that moves one breaks here, loudly, and
in the kit's own test of this module (``test_pytest_private``), not as a
verdict that silently stops being given. Each reader says what the plugin
does without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

__all__ = ["REQUIRED", "RUNNER_MODULES", "parametrized_values", "requested_fixtures"]

RUNNER_MODULES = ("_pytest.", "pluggy.", "pytest.")
"""The modules of pytest's own machinery (``_pytest`` is private): a frame of one is no
user's line, so a double a kit plugin's fixture makes is placed at the running test."""


def parametrized_values(item: pytest.Item) -> Mapping[str, Any]:
    """The values pytest's parametrize handed ``item`` (``Function.callspec.params``).

    Without it a double made in a parametrize list could not be tied to the
    test it was given to, and would be judged as any import-time double: at
    the end of the session, on every test.
    """
    callspec = getattr(item, "callspec", None)
    params = getattr(callspec, "params", None)
    return params if isinstance(params, Mapping) else {}


def requested_fixtures(item: pytest.Item) -> tuple[str, ...]:
    """The fixtures ``item`` requests, its closure included (``Function.fixturenames``, an
    attribute pytest sets on each test but documents only on the request and metafunc).

    Without it a shared fixture's requesters could not be told apart, and its
    unused material would be judged on every test of its scope.
    """
    names = getattr(item, "fixturenames", ())
    return tuple(names) if isinstance(names, list | tuple) else ()


REQUIRED: tuple[tuple[str, str], ...] = (
    ("_pytest.python.CallSpec", "params"),
    ("_pytest.fixtures", "FixtureDef"),  # the module RUNNER_MODULES names pytest's frames by
)
"""(class, attribute) pairs the readers above rely on; the kit's test checks each exists."""
