"""Pins agentkit.fakes.ctx's public API, and the modules beside it."""

from __future__ import annotations

import importlib

import agentkit.fakes.ctx
import agentkit.fakes.ctx.errors
import agentkit.fakes.ctx.observer


def test_all_is_exactly_the_documented_surface() -> None:
    assert set(importlib.import_module("agentkit.fakes.ctx").__all__) == {
        "FakeCtx",
        "RecordingTracer",
        "RecordingSpan",
        "FakeCompactor",
        "FakeGrounder",
        "make_test_ctx",
    }
    assert len(importlib.import_module("agentkit.fakes.ctx").__all__) == 6
    for name in importlib.import_module("agentkit.fakes.ctx").__all__:
        assert getattr(agentkit.fakes.ctx, name).__name__ == name


def test_side_modules_surface() -> None:
    assert agentkit.fakes.ctx.errors.__all__ == ["SpanAlreadyEnded"]
    assert agentkit.fakes.ctx.observer.__all__ == ["RecordingObserver"]


def test_span_already_ended_is_loud() -> None:
    # BaseException, so no `except Exception` in the code under test can absorb it.
    assert issubclass(agentkit.fakes.ctx.errors.SpanAlreadyEnded, BaseException)
    assert not issubclass(agentkit.fakes.ctx.errors.SpanAlreadyEnded, Exception)
