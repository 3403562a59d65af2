"""A generated claude ``-p --output-format stream-json --verbose`` recording, at any size.

Realistic in the ways that decide replay cost (see the project's CLI format
notes, section 1): a full 2.1.x ``system``/``init`` line first; then many
model rounds, each as the CLI writes them -- ``system``/``thinking_tokens``
ticks, ONE ``assistant`` line per content block (thinking, text, tool_use)
sharing one ``message.id`` with ``stop_reason: null`` and message-start
usage, a ``user`` line carrying the ``tool_result`` with multi-KB content
AND the same output again in ``tool_use_result`` (as the Bash tool does),
the occasional ``rate_limit_event``; then a final text block and one
``result``/``success`` line with the turn's usage and ``modelUsage``.
Compact UTF-8 JSON (``ensure_ascii=False``), one object per ``\\n``-ended
line, with text that exercises the decoder's slow paths: escaped quotes,
backslashes, tabs, newlines and non-ASCII. Deterministic for a given seed.

Generated at run time into a temporary directory, never committed: 50 MB of
fixture is not something a repository should carry, and a generator states
what the bytes are in a way a blob cannot.
"""

from __future__ import annotations

import json
import random
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["RecordingStats", "generate_recording"]

MODEL = "claude-sonnet-4-5-20250929"
TOOLS = ("Task", "Bash", "Edit", "Glob", "Grep", "Read", "WebFetch", "WebSearch", "Write")
_WORD_TEXT = (
    "the tool loop reads each line parses it maps the event and charges the meter "
    "def return async await yield import from class self None True False "
    'if else for while try except raise "quoted" \\backslash\\ path/to/file.py '
    "café naïve résumé → ← ✓ 日本語 テスト données über "
    "{ } [ ] ( ) == != <= >= += -> :: ; , . 0 1 2 3 42 1024 0xff"
)
_WORDS = tuple(_WORD_TEXT.split(" "))
_SEPARATORS = (" ",) * 12 + ("\n", "\n    ", "\t", ", ")


@dataclass(frozen=True, slots=True)
class RecordingStats:
    """What was written: its size, how many lines, how many tool rounds."""

    path: Path
    size: int
    lines: int
    rounds: int
    final_text: str


def _text(rng: random.Random, size: int) -> str:
    words = rng.choices(_WORDS, k=max(1, size // 6))
    seps = rng.choices(_SEPARATORS, k=len(words))
    return "".join(w + s for w, s in zip(words, seps, strict=True))[:size]


class _Writer:
    def __init__(self, rng: random.Random, session_id: str, out: Any) -> None:
        self.rng = rng
        self.session_id = session_id
        self.out = out
        self.size = 0
        self.lines = 0
        self.clock_ms = 1_700_000_000_000

    def uuid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def timestamp(self) -> str:
        self.clock_ms += self.rng.randint(1, 400)
        seconds, millis = divmod(self.clock_ms, 1000)
        minutes, sec = divmod(seconds % 86400, 60)
        hours, mins = divmod(minutes, 60)
        return f"2026-12-02T{hours:02d}:{mins:02d}:{sec:02d}.{millis:03d}Z"

    def emit(self, obj: dict[str, Any]) -> None:
        data = (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        self.out.write(data)
        self.size += len(data)
        self.lines += 1


def _init(w: _Writer) -> dict[str, Any]:
    return {
        "type": "system",
        "subtype": "init",
        "cwd": "/home/dev/project",
        "session_id": w.session_id,
        "tools": list(TOOLS),
        "mcp_servers": [{"name": "docs", "status": "connected"}],
        "model": MODEL,
        "permissionMode": "default",
        "slash_commands": ["review", "compact", "context", "cost", "init", "model"],
        "terminal_slash_commands": ["doctor", "color"],
        "apiKeySource": "ANTHROPIC_API_KEY",
        "claude_code_version": "2.1.332",
        "output_style": "default",
        "agents": ["claude", "Explore", "general-purpose", "Plan"],
        "skills": ["code-review", "debug", "verify"],
        "plugins": [{"name": "cc-plugin-privacy", "path": "builtin"}],
        "capabilities": ["interrupt_receipt_v1", "msg_lifecycle_v1"],
        "analytics_disabled": True,
        "uuid": w.uuid(),
        "sandbox_enabled": False,
        "memory_paths": {"auto": "/home/dev/.claude/projects/-home-dev-project/memory/"},
        "original_cwd": "/home/dev/project",
        "additional_directories": [],
        "fast_mode_state": "off",
        "view_mode": "default",
    }


def _assistant(w: _Writer, msg_id: str, block: dict[str, Any], request: int) -> dict[str, Any]:
    return {
        "type": "assistant",
        "message": {
            "id": msg_id,
            "type": "message",
            "role": "assistant",
            "model": MODEL,
            "content": [block],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {
                "input_tokens": 30 + request,
                "cache_creation_input_tokens": 200,
                "cache_read_input_tokens": 1000 * request,
                "output_tokens": 1,
                "service_tier": "standard",
            },
            "context_management": None,
        },
        "parent_tool_use_id": None,
        "session_id": w.session_id,
        "uuid": w.uuid(),
        "timestamp": w.timestamp(),
        "request_id": f"req_{request:06d}",
    }


def _round(w: _Writer, n: int, pool: list[str]) -> None:
    rng = w.rng
    msg_id = f"msg_{n:06d}"
    tool_id = f"toolu_{n:06d}"
    for est in (8, 21):
        w.emit(
            {
                "type": "system",
                "subtype": "thinking_tokens",
                "estimated_tokens": est * (n + 1),
                "estimated_tokens_delta": est,
                "session_id": w.session_id,
                "uuid": w.uuid(),
            }
        )
    thinking = {
        "type": "thinking",
        "thinking": rng.choice(pool)[: rng.randint(800, 4000)],
        "signature": "Eq" + "A" * 120 + "==",
    }
    w.emit(_assistant(w, msg_id, thinking, n))
    text = {"type": "text", "text": rng.choice(pool)[: rng.randint(200, 3000)]}
    w.emit(_assistant(w, msg_id, text, n))
    tool = rng.choice(("Bash", "Read", "Grep", "Edit"))
    args: dict[str, Any]
    if tool == "Bash":
        args = {"command": f"pytest -q tests/test_{n}.py", "description": "Run the tests"}
    elif tool == "Read":
        args = {"file_path": f"/home/dev/project/src/module_{n}.py"}
    elif tool == "Grep":
        args = {"pattern": "def \\w+\\(", "path": "src", "output_mode": "content"}
    else:
        args = {
            "file_path": f"/home/dev/project/src/module_{n}.py",
            "old_string": rng.choice(pool)[: rng.randint(100, 2000)],
            "new_string": rng.choice(pool)[: rng.randint(100, 2000)],
        }
    w.emit(
        _assistant(w, msg_id, {"type": "tool_use", "id": tool_id, "name": tool, "input": args}, n)
    )
    output = rng.choice(pool)[: rng.randint(2000, 16000)]
    w.emit(
        {
            "type": "user",
            "message": {
                "role": "user",
                "content": [
                    {
                        "tool_use_id": tool_id,
                        "type": "tool_result",
                        "content": output,
                        "is_error": False,
                    }
                ],
            },
            "parent_tool_use_id": None,
            "session_id": w.session_id,
            "uuid": w.uuid(),
            "timestamp": w.timestamp(),
            "tool_use_result": {
                "stdout": output,
                "stderr": "",
                "interrupted": False,
                "isImage": False,
                "noOutputExpected": False,
            },
            "tool_result_meta": [
                {
                    "id": tool_id,
                    "permission_decision": {
                        "decision": "accept",
                        "source": "config",
                        "reason_type": "rule",
                    },
                }
            ],
        }
    )
    if n % 50 == 49:
        w.emit(
            {
                "type": "rate_limit_event",
                "rate_limit_info": {"status": "allowed", "rateLimitType": "five_hour"},
                "uuid": w.uuid(),
                "session_id": w.session_id,
            }
        )


def _result(w: _Writer, rounds: int, final_text: str) -> dict[str, Any]:
    usage = {
        "input_tokens": 30 * (rounds + 1),
        "cache_creation_input_tokens": 200 * (rounds + 1),
        "cache_read_input_tokens": 1000 * rounds,
        "output_tokens": 400 * (rounds + 1),
        "output_tokens_details": {"thinking_tokens": 100 * rounds},
        "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
        "service_tier": "standard",
        "cache_creation": {"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0},
    }
    model_usage = {
        MODEL: {
            "inputTokens": usage["input_tokens"],
            "outputTokens": usage["output_tokens"],
            "cacheReadInputTokens": usage["cache_read_input_tokens"],
            "cacheCreationInputTokens": usage["cache_creation_input_tokens"],
            "webSearchRequests": 0,
            "costUSD": 1.25,
            "contextWindow": 200000,
            "maxOutputTokens": 32000,
        }
    }
    return {
        "duration_api_ms": 50 * rounds,
        "stop_reason": "end_turn",
        "session_id": w.session_id,
        "total_cost_usd": 1.25,
        "usage": usage,
        "modelUsage": model_usage,
        "permission_denials": [],
        "terminal_reason": "completed",
        "is_error": False,
        "num_turns": rounds + 1,
        "subtype": "success",
        "api_error_status": None,
        "result": final_text,
        "type": "result",
        "duration_ms": 60 * rounds,
        "uuid": w.uuid(),
        "queued_turn_count": 0,
        "result_index": 0,
    }


def generate_recording(path: Path, target_bytes: int, *, seed: int = 20261202) -> RecordingStats:
    """Write a recording of at least ``target_bytes`` (one round past it) to ``path``."""
    if target_bytes < 1:
        raise ValueError(f"target_bytes must be >= 1, got {target_bytes}")
    rng = random.Random(seed)
    pool = [_text(rng, 16000) for _ in range(64)]
    final_text = "Done: every test passes. " + _text(rng, 600)
    with path.open("wb") as out:
        w = _Writer(rng, str(uuid.UUID(int=rng.getrandbits(128), version=4)), out)
        w.emit(_init(w))
        rounds = 0
        while w.size < target_bytes:
            _round(w, rounds, pool)
            rounds += 1
        w.emit(_assistant(w, f"msg_{rounds:06d}", {"type": "text", "text": final_text}, rounds))
        w.emit(_result(w, rounds, final_text))
    return RecordingStats(path, w.size, w.lines, rounds, final_text)
