"""A turn that cannot end well by waiting ends at once, with a typed code, not at its timeout.

Real children (``tests/support/replay_child.py`` through ``default_spawn``) print
what the CLI prints and then hang, as the CLI does: claude waiting for the
answer to its ``control_request``, codex reconnecting forever to an API it
cannot reach. The turn's ``timeout`` is far away (``FAR``), beyond the bound
each drive runs under (``STEP``): a turn that waited for it fails on that
bound, so no elapsed time is compared.
"""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path

import pytest

from agentkit.agents.cognition import ClaudeCliCognition, CodexCliCognition
from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.runtime import RunContext
from tests.support.cli import SIGTERM_GRACE, STEP, ChildSpawn, assert_real_children, hang_args

pytestmark = pytest.mark.agentkit(real_processes=True)

FAR = 60.0  # the turn's timeout: never reached when the turn ends as it should


def _lines(*objects: dict[str, object]) -> bytes:
    return b"".join(json.dumps(obj).encode() + b"\n" for obj in objects)


def _hanging(tmp_path: Path, stdout: bytes) -> ChildSpawn:
    out = tmp_path / "stdout.jsonl"
    out.write_bytes(stdout)
    err = tmp_path / "stderr.txt"
    err.write_text("")
    return ChildSpawn(hang_args(out, err, len(stdout), tmp_path / "ready"))


async def test_a_claude_control_request_fails_the_turn_at_once(tmp_path: Path) -> None:
    stdout = _lines(
        {"type": "system", "subtype": "init", "session_id": "s", "model": "m"},
        {
            "type": "control_request",
            "request_id": "req_1",
            "request": {"subtype": "can_use_tool", "tool_name": "Bash", "input": {}},
        },
    )
    spawn = _hanging(tmp_path, stdout)
    async with asyncio.timeout(STEP):
        result = await ClaudeCliCognition(spawn=spawn, timeout=FAR, kill_grace=SIGTERM_GRACE).drive(
            RunContext(), "go"
        )
    error = result.error
    assert error is not None
    assert error.code == "unanswered_request"
    assert error.details["request"] == "can_use_tool"
    assert error.details["tool_name"] == "Bash"
    assert error.details["request_id"] == "req_1"
    assert_real_children(spawn, -signal.SIGTERM)


def _reconnecting(count: int) -> list[dict[str, object]]:
    return [
        {"type": "error", "message": f"Reconnecting... {n}/5 (Connection refused)"}
        for n in range(1, count + 1)
    ]


async def test_codex_reconnecting_ends_as_connection_failed_after_its_window(
    tmp_path: Path,
) -> None:
    stdout = _lines(
        {"type": "thread.started", "thread_id": "t"},
        {"type": "turn.started"},
        *_reconnecting(2),
    )
    spawn = _hanging(tmp_path, stdout)
    cognition = CodexCliCognition(
        spawn=spawn, timeout=FAR, kill_grace=SIGTERM_GRACE, reconnect_window=0.5
    )
    async with asyncio.timeout(STEP):
        result = await cognition.drive(RunContext(), "go")
    error = result.error
    assert error is not None
    assert error.code == "connection_failed"
    assert error.details["reconnect_window"] == 0.5
    assert error.details["stream_errors"] == tuple(str(e["message"]) for e in _reconnecting(2))
    assert "reconnect_window" in error.message
    assert result.session_id == "t"
    assert_real_children(spawn, -signal.SIGTERM)


async def test_without_a_window_only_the_timeout_ends_it(tmp_path: Path) -> None:
    stdout = _lines({"type": "thread.started", "thread_id": "t"}, *_reconnecting(1))
    spawn = _hanging(tmp_path, stdout)
    cognition = CodexCliCognition(
        spawn=spawn, timeout=0.5, kill_grace=SIGTERM_GRACE, reconnect_window=None
    )
    async with asyncio.timeout(STEP):
        result = await cognition.drive(RunContext(), "go")
    assert result.error is not None
    assert result.error.code == "timeout"


@pytest.mark.parametrize(
    ("window", "error"),
    [
        ("60", ArgumentTypeError),
        (True, ArgumentTypeError),
        (0, ArgumentValueError),
        (-1.0, ArgumentValueError),
        (float("nan"), ArgumentValueError),
        (float("inf"), ArgumentValueError),
    ],
)
def test_a_wrong_reconnect_window_is_refused_naming_it(
    window: object, error: type[Exception]
) -> None:
    with pytest.raises(error, match="reconnect_window"):
        CodexCliCognition(reconnect_window=window)  # type: ignore[arg-type]
