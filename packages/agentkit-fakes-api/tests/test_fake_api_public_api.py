"""Pins agentkit.fakes.api's public API."""

from __future__ import annotations

import importlib

import agentkit.fakes.api
import agentkit.fakes.api.errors
import agentkit.fakes.api.records
import agentkit.fakes.api.server


def test_all_is_exactly_the_documented_surface() -> None:
    assert importlib.import_module("agentkit.fakes.api").__all__ == [
        "ApiError",
        "BrokenStream",
        "ApiRequest",
        "Exchange",
        "FakeApi",
    ]
    for name in importlib.import_module("agentkit.fakes.api").__all__:
        assert isinstance(getattr(agentkit.fakes.api, name), type)


def test_each_name_is_its_defining_modules_object() -> None:
    assert agentkit.fakes.api.FakeApi is agentkit.fakes.api.server.FakeApi
    assert agentkit.fakes.api.ApiRequest is agentkit.fakes.api.records.ApiRequest
    assert agentkit.fakes.api.Exchange is agentkit.fakes.api.records.Exchange
    assert agentkit.fakes.api.ApiError is agentkit.fakes.api.errors.ApiError
    assert agentkit.fakes.api.BrokenStream is agentkit.fakes.api.errors.BrokenStream
    assert agentkit.fakes.api.errors.__all__ == ["ApiError", "BrokenStream"]


def test_scripted_failures_are_provider_faults_to_a_retry() -> None:
    # Exceptions, not BaseExceptions: an in-process retry treats them as the client does.
    assert issubclass(agentkit.fakes.api.ApiError, Exception)
    assert issubclass(agentkit.fakes.api.BrokenStream, Exception)
