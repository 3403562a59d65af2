"""Field-by-field comparison of what the real run and the replay produced.

Generic over the result types on purpose: a cognition result is a frozen
dataclass, so every field it has -- today's and any a redesign adds -- is
compared, and a field that differs is named with both values. A
:class:`~agentkit.agents.cognition.CliError` compares by its code, message,
exit code, stderr and details (exceptions do not compare by value); events
compare as values, and the first event that differs is named by index.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from agentkit.agents.cognition import CliError

__all__ = ["differences", "short", "tool_calls"]


def short(value: object, width: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _error_view(error: CliError) -> dict[str, Any]:
    return {
        "code": error.code,
        "message": error.message,
        "returncode": error.returncode,
        "stderr": error.stderr,
        "details": dict(error.details),
    }


def _diff(path: str, real: object, replay: object, out: list[str]) -> None:
    if isinstance(real, CliError) and isinstance(replay, CliError):
        _diff(path, _error_view(real), _error_view(replay), out)
        return
    if (
        dataclasses.is_dataclass(real)
        and not isinstance(real, type)
        and type(real) is type(replay)
        and real != replay
    ):
        for f in dataclasses.fields(real):
            _diff(f"{path}.{f.name}", getattr(real, f.name), getattr(replay, f.name), out)
        return
    if isinstance(real, Mapping) and isinstance(replay, Mapping):
        if real == replay:
            return
        for key in sorted(set(real) | set(replay), key=str):
            if key not in real or key not in replay:
                out.append(
                    f"{path}[{key!r}]: only in the {'real' if key in real else 'replay'} run"
                )
            else:
                _diff(f"{path}[{key!r}]", real[key], replay[key], out)
        return
    if (
        isinstance(real, Sequence)
        and isinstance(replay, Sequence)
        and not isinstance(real, str | bytes)
        and not isinstance(replay, str | bytes)
    ):
        if len(real) != len(replay):
            out.append(f"{path}: {len(real)} items real, {len(replay)} replayed")
        for index, (a, b) in enumerate(zip(real, replay, strict=False)):
            before = len(out)
            _diff(f"{path}[{index}]", a, b, out)
            if len(out) > before:
                return  # the first differing item says enough
        return
    if real != replay:
        out.append(f"{path}: real {short(real)} != replay {short(replay)}")


def differences(
    real: Sequence[tuple[str, object]], replay: Sequence[tuple[str, object]]
) -> list[str]:
    """Every way the replayed observations differ from the real ones; empty when equal."""
    out: list[str] = []
    real_labels = [label for label, _ in real]
    replay_labels = [label for label, _ in replay]
    if real_labels != replay_labels:
        out.append(f"observations differ: real {real_labels}, replay {replay_labels}")
    replayed = dict(replay)
    for label, value in real:
        if label in replayed:
            _diff(label, value, replayed[label], out)
    return out


def tool_calls(result: object) -> list[str]:
    """The tool calls a result's events show, as ``name(input)`` strings, for the report."""
    calls: list[str] = []
    for event in getattr(result, "events", ()):
        for block in getattr(event, "blocks", ()):
            name = getattr(block, "name", None)
            if isinstance(name, str):
                calls.append(f"{name}({short(dict(getattr(block, 'input', {})), 60)})")
        item = getattr(event, "item", None)
        command = getattr(item, "command", None)
        if isinstance(command, str) and getattr(event, "phase", None) == "completed":
            calls.append(f"command({command!r})")
    return calls
