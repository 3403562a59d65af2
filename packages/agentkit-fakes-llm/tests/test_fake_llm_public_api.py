"""Pins agentkit.fakes.llm's public API, and the identity of its ScriptExhausted."""

from __future__ import annotations

import importlib

import agentkit.core.verification.script
import agentkit.fakes.llm
import agentkit.fakes.llm.errors
from agentkit.fakes.llm import ScriptedAdapterExhausted, ScriptExhausted


def test_all_is_exactly_the_documented_surface() -> None:
    assert set(importlib.import_module("agentkit.fakes.llm").__all__) == {
        "FakeLLM",
        "Turn",
        "ScriptedAdapter",
        "ScriptedAdapterExhausted",
        "scripted_runtime",
        "ScriptExhausted",
    }
    for name in importlib.import_module("agentkit.fakes.llm").__all__:
        assert getattr(agentkit.fakes.llm, name) is not None


def test_errors_module_surface() -> None:
    assert set(agentkit.fakes.llm.errors.__all__) == {
        "FakeLLMError",
        "RefusedRequest",
        "ResponseRuleError",
        "UnmatchedRequest",
    }


def test_script_exhausted_is_the_core_class_object() -> None:
    assert ScriptExhausted is agentkit.core.verification.script.ScriptExhausted
    assert issubclass(ScriptedAdapterExhausted, agentkit.core.verification.script.ScriptExhausted)
    assert issubclass(ScriptedAdapterExhausted, BaseException)
    assert not issubclass(ScriptedAdapterExhausted, Exception)


def test_unmatched_request_is_loud_and_fake_llm_error_is_an_ordinary_fault() -> None:
    assert not issubclass(agentkit.fakes.llm.errors.UnmatchedRequest, Exception)
    assert issubclass(agentkit.fakes.llm.errors.FakeLLMError, Exception)
