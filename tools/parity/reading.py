"""Check the reading, not only the replay: each result against the raw lines the CLI printed.

Replay equals real proves the doubles serve what the binary served; it does
not prove the cognition READ it right -- a misreading shared by the real run
and its replay passes that comparison. So every result a scenario observed is
paired with the terminal event the CLI printed for it (claude ``result``,
codex ``turn.completed`` / ``turn.failed``) and checked field by field
against it, read here independently and plainly from the JSON: the text,
the session / thread id, the stop reason, the token counts, the cost, the
HTTP status, whether it failed and how, and the exit code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from agentkit.core.types import Usage
from agentkit.fakes.cli import Recording
from tools.parity.scenarios import Observation

__all__ = ["check_reading"]

_STATUS = re.compile(r"\bunexpected status (\d{3})\b")


@dataclass
class _Turn:
    """One terminal event as printed, with what the spawn printed before it."""

    spawn: int
    returncode: int
    resumed: bool
    terminal: Mapping[str, Any] | None
    first_in_spawn: bool
    before: list[Mapping[str, Any]] = field(default_factory=list)


def _objects(stdout: bytes) -> Iterator[dict[str, Any]]:
    for line in stdout.splitlines():
        text = line.strip()
        if text.startswith(b"{"):
            try:
                obj = json.loads(text)
            except ValueError:
                continue
            if isinstance(obj, dict):
                yield obj


def _turns(cli: str, recordings: Sequence[Recording]) -> list[_Turn]:
    turns: list[_Turn] = []
    for index, recording in enumerate(recordings):
        resumed = "resume" in recording.argv or any(
            a.startswith("--resume") for a in recording.argv
        )
        seen: list[Mapping[str, Any]] = []
        found = 0
        for obj in _objects(recording.run.stdout):
            kind = obj.get("type")
            terminal = (
                kind == "result" if cli == "claude" else kind in ("turn.completed", "turn.failed")
            )
            if terminal:
                turns.append(_Turn(index, recording.run.returncode, resumed, obj, found == 0, seen))
                found += 1
                seen = []
            else:
                seen.append(obj)
        if not found:
            turns.append(_Turn(index, recording.run.returncode, resumed, None, True, seen))
    return turns


def _results(observations: Sequence[Observation]) -> list[tuple[str, Any]]:
    return [
        (label, value)
        for label, value in observations
        if hasattr(value, "error") and hasattr(value, "text") and hasattr(value, "usage")
    ]


def _same(problems: list[str], label: str, what: str, read: object, printed: object) -> None:
    if read != printed:
        problems.append(f"{label}.{what} is {read!r}, the CLI printed {printed!r}")


def _mcp_statuses(before: Sequence[Mapping[str, Any]]) -> dict[str, object]:
    """``{server: status}`` as the turn's ``system``/``init`` printed them."""
    for obj in before:
        if obj.get("type") == "system" and obj.get("subtype") == "init":
            servers = obj.get("mcp_servers")
            if isinstance(servers, list):
                return {str(e.get("name")): e.get("status") for e in servers if isinstance(e, dict)}
    return {}


def _claude(label: str, result: Any, turn: _Turn, problems: list[str]) -> None:
    raw = turn.terminal
    if raw is None:
        if result.error is None:
            problems.append(f"{label} succeeded, but the CLI printed no result")
        return
    _same(problems, label, "session_id", result.session_id, raw.get("session_id"))
    _same(problems, label, "stop_reason", result.stop_reason, raw.get("stop_reason"))
    _claude_verdict(label, result, raw, turn.before, problems)
    _same(problems, label, "http_status", result.http_status, raw.get("api_error_status"))
    if hasattr(result, "structured_output"):
        printed_value = raw.get("structured_output")
        _same(problems, label, "structured_output", result.structured_output, printed_value)
    _claude_usage(label, result, raw, problems)
    _claude_cost(label, result, raw, turn, problems)


def _claude_verdict(
    label: str,
    result: Any,
    raw: Mapping[str, Any],
    before: Sequence[Mapping[str, Any]],
    problems: list[str],
) -> None:
    """The error (or text) read agrees with the result line and the MCP servers printed."""
    is_error = raw.get("is_error") is True
    printed_servers = _mcp_statuses(before)
    failed_servers = {
        n: s for n, s in printed_servers.items() if s not in ("connected", "disabled")
    }
    if hasattr(result, "mcp_servers"):
        read_servers = {s.name: s.status for s in result.mcp_servers}
        _same(problems, label, "mcp_servers", read_servers, printed_servers)
    if not is_error and failed_servers:
        # The CLI called the turn a success without a server it was given: the
        # cognition's own verdict, and the only one it may give.
        code = result.error.code if result.error is not None else None
        _same(problems, label, "error.code", code, "mcp_server_failed")
    elif is_error != (result.error is not None):
        problems.append(
            f"{label}.error is {result.error and result.error.code!r}, "
            f"the CLI printed is_error={is_error}"
        )
    if not is_error and isinstance(raw.get("result"), str):
        _same(problems, label, "text", result.text, raw["result"])
    subtype = raw.get("subtype")
    if is_error and subtype != "success" and result.error is not None:
        _same(problems, label, "error.code", result.error.code, subtype)
    if is_error and raw.get("api_error_status") in (401, 403) and result.error is not None:
        _same(problems, label, "error.code", result.error.code, "authentication_failed")


def _claude_usage(label: str, result: Any, raw: Mapping[str, Any], problems: list[str]) -> None:
    """The usage read is the one the result line printed (where it printed any tokens)."""
    usage = raw.get("usage")
    if isinstance(usage, Mapping) and any(usage.get(k) for k in ("input_tokens", "output_tokens")):
        printed = Usage(
            input_tokens=int(usage.get("input_tokens") or 0),
            cached_input_tokens=int(usage.get("cache_read_input_tokens") or 0),
            cache_write_tokens=int(usage.get("cache_creation_input_tokens") or 0),
            output_tokens=int(usage.get("output_tokens") or 0),
        )
        read = Usage(
            input_tokens=result.usage.input_tokens,
            cached_input_tokens=result.usage.cached_input_tokens,
            cache_write_tokens=result.usage.cache_write_tokens,
            output_tokens=result.usage.output_tokens,
        )
        _same(problems, label, "usage", read, printed)


def _claude_cost(
    label: str, result: Any, raw: Mapping[str, Any], turn: _Turn, problems: list[str]
) -> None:
    """The cost read is the turn's own: its model usage since the last result where printed,
    else the running total of a spawn's first turn, and never over the running total."""
    total = raw.get("total_cost_usd")
    since = raw.get("model_usage_since_last_result")
    if isinstance(since, Mapping) and since:
        own = sum(float(m.get("costUSD") or 0.0) for m in since.values() if isinstance(m, Mapping))
        if abs(result.cost_usd - own) > 1e-9:
            problems.append(f"{label}.cost_usd is {result.cost_usd}, the turn's own cost is {own}")
    elif isinstance(total, int | float) and turn.first_in_spawn and not turn.resumed:
        if abs(result.cost_usd - float(total)) > 1e-9:
            problems.append(f"{label}.cost_usd is {result.cost_usd}, the CLI printed {total}")
    elif isinstance(total, int | float) and result.cost_usd > float(total) + 1e-9:
        problems.append(f"{label}.cost_usd {result.cost_usd} is over the running total {total}")


def _codex(label: str, result: Any, turn: _Turn, problems: list[str]) -> None:
    threads = [o.get("thread_id") for o in turn.before if o.get("type") == "thread.started"]
    if threads:
        _same(problems, label, "session_id", result.session_id, threads[-1])
    said = [
        o["item"].get("text")
        for o in turn.before
        if o.get("type") == "item.completed"
        and isinstance(o.get("item"), Mapping)
        and o["item"].get("type") == "agent_message"
    ]
    _same(problems, label, "text", result.text, said[-1] if said else "")
    raw = turn.terminal
    if raw is None:
        if result.error is None:
            problems.append(f"{label} succeeded, but the CLI printed no terminal event")
        return
    if raw.get("type") == "turn.failed":
        if result.error is None:
            problems.append(f"{label} succeeded, but the CLI printed turn.failed")
        error = raw.get("error")
        message = error.get("message") if isinstance(error, Mapping) else None
        match = _STATUS.search(message) if isinstance(message, str) else None
        if match:
            _same(problems, label, "http_status", result.http_status, int(match.group(1)))
        return
    if result.error is not None:
        problems.append(f"{label}.error is {result.error.code!r}, the CLI printed turn.completed")
    usage = raw.get("usage")
    if isinstance(usage, Mapping) and not turn.resumed:
        cached = int(usage.get("cached_input_tokens") or 0)
        printed = (
            int(usage.get("input_tokens") or 0) - cached,
            cached,
            int(usage.get("output_tokens") or 0),
        )
        read = (
            result.usage.input_tokens,
            result.usage.cached_input_tokens,
            result.usage.output_tokens,
        )
        _same(problems, label, "usage (input, cached, output)", read, printed)


def check_reading(
    cli: str, observations: Sequence[Observation], recordings: Sequence[Recording]
) -> list[str]:
    """Every way the observed results disagree with what the CLI printed; empty when none."""
    results = _results(observations)
    turns = _turns(cli, recordings)
    if len(results) != len(turns):
        return [
            f"{len(results)} result(s) observed but the CLI printed {len(turns)} turn(s): "
            "the reading cannot be paired with the lines"
        ]
    problems: list[str] = []
    for (label, result), turn in zip(results, turns, strict=True):
        if result.returncode is not None:
            _same(problems, label, "returncode", result.returncode, turn.returncode)
        if cli == "claude":
            _claude(label, result, turn, problems)
        else:
            _codex(label, result, turn, problems)
    return problems
