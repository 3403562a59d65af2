"""Property: whatever stdout a CLI writes, drive() returns a result -- never raises, never hangs.

Driven through the public ``drive()`` with the CLI doubles, for both parsers,
over streams hypothesis builds from the CLI's own events, mutated fields
(wrong types, numbers that overflow, NaN, 400-digit integers), random
objects, arbitrary bytes, truncated lines and a missing final newline, with
any exit code. The documented outcome is a result whose error is None or a
:class:`CliError`, and whose figures are finite and non-negative -- an
``ok`` result above all. Example counts are bounded so the suite stays fast;
``tools/hardening/fuzz_streams.py`` runs the same idea over 15,000 streams.
"""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentkit.agents.cognition import (
    ClaudeCliCognition,
    CliError,
    CliResult,
    CodexCliCognition,
)
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import CliRun, FakeClaudeCli, FakeCodexCli, codex_turn

LIMIT = 2048
SID = "prop"
CLAUDE_EVENTS: list[dict[str, Any]] = [
    {"type": "system", "subtype": "init", "session_id": SID, "model": "m"},
    {
        "type": "assistant",
        "session_id": SID,
        "message": {"id": "1", "content": [{"type": "text", "text": "hi"}]},
    },
    {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "result": "pong",
        "session_id": SID,
        "usage": {"input_tokens": 3, "output_tokens": 1},
        "total_cost_usd": 0.01,
        "api_error_status": None,
        "permission_denials": [],
    },
]
CODEX_EVENTS: list[dict[str, Any]] = list(codex_turn(text="pong", usage=(3, 1, 1)))

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**400), max_value=10**400)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def _encode(obj: Any) -> bytes:
    return (json.dumps(obj, allow_nan=True) + "\n").encode()


@st.composite
def mutated(draw: st.DrawFn, events: list[dict[str, Any]]) -> bytes:
    event = dict(draw(st.sampled_from(events)))
    key = draw(st.sampled_from([*event, "usage", "total_cost_usd", "type", "item", "message"]))
    event[key] = draw(json_values)
    return _encode(event)


@st.composite
def truncated(draw: st.DrawFn, events: list[dict[str, Any]]) -> bytes:
    whole = _encode(draw(st.sampled_from(events)))
    return whole[: draw(st.integers(min_value=1, max_value=len(whole) - 1))]


def lines(events: list[dict[str, Any]]) -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.sampled_from(events).map(_encode),
        mutated(events),
        truncated(events),
        st.dictionaries(st.text(max_size=6), json_values, max_size=4).map(_encode),
        st.binary(max_size=40).map(lambda b: b + b"\n"),
        st.just(b'{"type":"' + b"y" * (2 * LIMIT) + b'"}\n'),
        st.just(b"{" * 3000 + b"\n"),
    )


@st.composite
def runs(draw: st.DrawFn, events: list[dict[str, Any]]) -> CliRun:
    body = draw(st.lists(lines(events), max_size=8))
    if draw(st.booleans()):  # mostly the CLI's own turn, with the fuzz mixed in
        at = draw(st.integers(min_value=0, max_value=len(events)))
        body = [*map(_encode, events[:at]), *body, *map(_encode, events[at:])]
    stdout = b"".join(body)
    if draw(st.booleans()):
        stdout = stdout.rstrip(b"\n")
    return CliRun(
        stdout=stdout,
        stderr=draw(st.binary(max_size=100)),
        returncode=draw(st.sampled_from([0, 0, 1, 2, -9])),
    )


def _drive(cognition: ClaudeCliCognition | CodexCliCognition) -> CliResult[Any]:
    async def go() -> CliResult[Any]:
        return await asyncio.wait_for(cognition.drive(RunContext(), "go"), 10)

    return asyncio.run(go())


def _check(result: CliResult[Any]) -> None:
    assert result.error is None or isinstance(result.error, CliError)
    figures = [result.cost_usd, *(getattr(result.usage, f) for f in result.usage.__slots__)]
    assert all(math.isfinite(v) and v >= 0 for v in figures), result
    if result.error is not None:
        assert result.error.kind  # a member of the typed vocabulary
        assert len(str(result.error)) < 16 * 1024


SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)


@SETTINGS
@given(runs(CLAUDE_EVENTS))
def test_any_claude_stream_ends_as_a_result(run: CliRun) -> None:
    cognition = ClaudeCliCognition(FakeClaudeCli([run]), timeout=5, kill_grace=0.05, limit=LIMIT)
    _check(_drive(cognition))


@SETTINGS
@given(runs(CODEX_EVENTS))
def test_any_codex_stream_ends_as_a_result(run: CliRun) -> None:
    cognition = CodexCliCognition(FakeCodexCli([run]), timeout=5, kill_grace=0.05, limit=LIMIT)
    _check(_drive(cognition))


@SETTINGS
@given(st.sampled_from(["claude", "codex"]), st.booleans(), st.data())
def test_a_bad_line_after_the_terminal_event_counts_the_same_with_or_without_a_newline(
    cli: str, newline: bool, data: st.DataObject
) -> None:
    events = CLAUDE_EVENTS if cli == "claude" else CODEX_EVENTS
    bad = data.draw(st.sampled_from([b'{"type":"res', b"{not json", b'{"a":1']))
    stdout = b"".join(map(_encode, events)) + bad + (b"\n" if newline else b"")
    if cli == "claude":
        result = _drive(ClaudeCliCognition(FakeClaudeCli([CliRun(stdout=stdout)]), timeout=5))
    else:
        result = _drive(CodexCliCognition(FakeCodexCli([CliRun(stdout=stdout)]), timeout=5))
    assert result.error is not None
    assert result.error.code == "invalid_json"
    assert result.text == "pong"
