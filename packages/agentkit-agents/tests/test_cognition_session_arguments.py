"""Both sessions refuse a wrong cognition, context or resume id at construction, naming it."""

from __future__ import annotations

from typing import Any

import pytest

from agentkit.agents.cognition import (
    ClaudeCliCognition,
    ClaudeCliSession,
    CodexCliCognition,
    CodexCliSession,
)
from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import FakeClaudeCli, FakeCodexCli


def _claude() -> ClaudeCliCognition:
    return ClaudeCliCognition(FakeClaudeCli(), timeout=5)


def _codex() -> CodexCliCognition:
    return CodexCliCognition(FakeCodexCli(), timeout=5)


@pytest.mark.parametrize(
    ("make", "argument"),
    [
        (lambda: ClaudeCliSession(None, RunContext()), "cognition"),  # type: ignore[arg-type]
        (lambda: ClaudeCliSession(_codex(), RunContext()), "cognition"),  # type: ignore[arg-type]
        (lambda: ClaudeCliSession(_claude(), None), "ctx"),  # type: ignore[arg-type]
        (lambda: ClaudeCliSession(_claude(), 1), "ctx"),  # type: ignore[arg-type]
        (lambda: CodexCliSession(None, RunContext()), "cognition"),  # type: ignore[arg-type]
        (lambda: CodexCliSession(_claude(), RunContext()), "cognition"),  # type: ignore[arg-type]
        (lambda: CodexCliSession(_codex(), None), "ctx"),  # type: ignore[arg-type]
        (lambda: _codex().session(RunContext(), resume=1), "resume"),  # type: ignore[arg-type]
        (lambda: _codex().session(RunContext(), resume=""), "resume"),
        (lambda: _claude().session(RunContext(), resume=""), "resume"),
        (lambda: _claude().session(RunContext(), fork="yes"), "fork"),  # type: ignore[arg-type]
        (lambda: _claude().session(RunContext(), cost_so_far=float("nan")), "cost_so_far"),
    ],
)
def test_a_session_refuses_wrong_input_naming_the_argument(make: Any, argument: str) -> None:
    with pytest.raises((ArgumentTypeError, ArgumentValueError)) as caught:
        make()
    assert getattr(caught.value, "argument", None) == argument
