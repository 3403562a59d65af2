"""Pins agentkit.fakes.io's public API."""

from __future__ import annotations

import importlib

import agentkit.fakes.io
import agentkit.fakes.io.fetch


def test_all_is_exactly_the_documented_surface() -> None:
    assert set(importlib.import_module("agentkit.fakes.io").__all__) == {
        "FakeClock",
        "FakeFetch",
        "FakeSearch",
        "FakeMemory",
        "FakeTool",
        "UnknownURLError",
        "FetchRoute",
        "FetchRouteError",
        "FetchRouteExhausted",
        "InTurn",
        "URLHost",
        "URLPrefix",
    }
    for name in importlib.import_module("agentkit.fakes.io").__all__:
        assert isinstance(getattr(agentkit.fakes.io, name), type)


def test_a_broken_route_function_is_loud() -> None:
    assert issubclass(agentkit.fakes.io.FetchRouteError, BaseException)
    assert not issubclass(agentkit.fakes.io.FetchRouteError, Exception)


def test_unknown_url_error_is_a_key_error_exported_once() -> None:
    assert issubclass(agentkit.fakes.io.UnknownURLError, KeyError)
    assert agentkit.fakes.io.UnknownURLError is agentkit.fakes.io.fetch.UnknownURLError
