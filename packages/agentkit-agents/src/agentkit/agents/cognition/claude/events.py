"""claude's ``stream-json`` stdout, mapped to typed events -- no processes here.

Pure on purpose: what the claude cognition believes about a turn is decided
from the objects the CLI printed, so every rule below can be tested line by
line. The format (Claude Code 2.1.337, first
written against 2.1.332) is described in ``docs/cli/claude.md``:

* **Forward compatibility.** The CLI adds message types, system subtypes and
  content-block types constantly. Only ``type`` is a discriminator; an
  unknown type is kept as :class:`ClaudeOther`, an unknown system subtype as
  :class:`ClaudeSystem`, an unknown block as :class:`UnknownBlock` -- raw
  payload and all. Every other field is optional; one that is present with
  the wrong type makes the object an event problem (the shared strict field
  rules of both CLIs).
* **Usage comes from ``result`` only** (:mod:`._usage`): ``assistant`` lines
  arrive one per content block, each repeating the message-start usage.
* **Cost is cumulative** (:mod:`._usage`): ``total_cost_usd`` is the
  session's running total.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from agentkit.agents.cognition._fields import (
    EMPTY,
    EventError,
    opt_bool,
    opt_cost,
    opt_int,
    opt_mapping,
    opt_str,
    opt_str_list,
    req_str,
    view,
)
from agentkit.agents.cognition.claude._usage import parse_usage
from agentkit.core.types import Usage

__all__ = [
    "ClaudeAssistant",
    "ClaudeEvent",
    "ClaudeInit",
    "ClaudeOther",
    "ClaudeResult",
    "ClaudeSystem",
    "ClaudeUser",
    "ContentBlock",
    "EventError",
    "McpServerStatus",
    "PermissionDenial",
    "TextBlock",
    "ThinkingBlock",
    "ToolResultBlock",
    "ToolUseBlock",
    "UnknownBlock",
    "map_event",
]

# -------------------------------------------------------------------- blocks


@dataclass(frozen=True, slots=True)
class TextBlock:
    """Text the model wrote.

    The turn's answer is the ``result`` event's text, not these summed: a
    message's blocks arrive one per ``assistant`` line.
    """

    text: str


@dataclass(frozen=True, slots=True)
class ThinkingBlock:
    """Extended thinking, when the model produced it.

    Its tokens are counted inside the result's output tokens, as reasoning.
    """

    thinking: str


@dataclass(frozen=True, slots=True)
class ToolUseBlock:
    """A tool call the model made.

    ``tool_use``, or ``server_tool_use`` for a tool the API runs itself
    (``type`` says which); its answer comes back in a ``user`` line.
    """

    id: str
    name: str
    input: Mapping[str, Any] = field(default_factory=lambda: EMPTY)
    type: str = "tool_use"


@dataclass(frozen=True, slots=True)
class ToolResultBlock:
    """A tool's answer, in a ``user`` line. ``content`` is a str or a block list, as sent."""

    tool_use_id: str
    content: Any = None
    is_error: bool = False


@dataclass(frozen=True, slots=True)
class UnknownBlock:
    """A content block of a type this mapping does not model.

    Kept whole (``raw``), never an error: new block types appear often.
    """

    type: str
    raw: Mapping[str, Any] = field(default_factory=lambda: EMPTY)


ContentBlock = TextBlock | ThinkingBlock | ToolUseBlock | ToolResultBlock | UnknownBlock


def _block(obj: Any) -> ContentBlock:
    """One content block; the same rules as a codex item (type and id required,
    a present field of the wrong type refused, an unknown type kept)."""
    if not isinstance(obj, Mapping):
        raise EventError(f"a content block must be an object, got {type(obj).__name__}")
    kind = req_str(obj, "type", "a content block")
    where = f"content block {kind}"
    if kind == "text":
        return TextBlock(opt_str(obj, "text", where) or "")
    if kind == "thinking":
        return ThinkingBlock(opt_str(obj, "thinking", where) or "")
    if kind in ("tool_use", "server_tool_use"):
        tool_input = opt_mapping(obj, "input", where)
        return ToolUseBlock(
            req_str(obj, "id", where),
            opt_str(obj, "name", where) or "",
            view(tool_input) if tool_input is not None else EMPTY,
            kind,
        )
    if kind == "tool_result":
        return ToolResultBlock(
            req_str(obj, "tool_use_id", where),
            obj.get("content"),
            opt_bool(obj, "is_error", where) is True,
        )
    return UnknownBlock(kind, view(obj))


def _blocks(content: Any, where: str) -> tuple[ContentBlock, ...]:
    """``message.content``: a plain string (one text block) or a list of blocks."""
    if content is None:
        return ()
    if isinstance(content, str):
        return (TextBlock(content),)
    if isinstance(content, list):
        return tuple(_block(b) for b in content)
    raise EventError(f"{where}: 'content' must be a string or a list of blocks")


# -------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class McpServerStatus:
    """One MCP server as ``system``/``init`` reports it: its name and how its connection went.

    ``status`` is the CLI's own word: ``connected``; ``failed`` (it never
    connected -- the run goes on without its tools, exit 0); ``needs-auth``,
    ``pending``, ``disabled``, or a newer word, kept as given.
    """

    name: str
    status: str

    @property
    def failed(self) -> bool:
        """Not connected, and not switched off on purpose: its tools are missing from the run."""
        return self.status not in ("connected", "disabled")


@dataclass(frozen=True, slots=True)
class ClaudeInit:
    """``system``/``init``: emitted at the start of EVERY turn, same session_id.

    ``mcp_servers`` is every MCP server the CLI tried to connect, with its status.
    """

    session_id: str | None
    model: str | None = None
    cwd: str | None = None
    tools: tuple[str, ...] = ()
    version: str | None = None
    mcp_servers: tuple[McpServerStatus, ...] = ()


@dataclass(frozen=True, slots=True)
class ClaudeSystem:
    """Any other ``system`` subtype (api_retry, status, thinking_tokens, ...)."""

    subtype: str
    session_id: str | None = None
    raw: Mapping[str, Any] = field(default_factory=lambda: EMPTY)


@dataclass(frozen=True, slots=True)
class ClaudeAssistant:
    """One ``assistant`` line: usually ONE completed content block of a message.

    ``error`` is the envelope's error kind on the CLI's synthetic messages
    (``authentication_failed``, ``server_error``, ...), with ``api_error``
    (``connection_failed``) when given.
    """

    message_id: str | None
    blocks: tuple[ContentBlock, ...] = ()
    model: str | None = None
    session_id: str | None = None
    parent_tool_use_id: str | None = None
    error: str | None = None
    api_error: str | None = None
    is_api_error: bool = False

    @property
    def text(self) -> str:
        return "".join(b.text for b in self.blocks if isinstance(b, TextBlock))

    @property
    def tool_uses(self) -> tuple[ToolUseBlock, ...]:
        return tuple(b for b in self.blocks if isinstance(b, ToolUseBlock))


@dataclass(frozen=True, slots=True)
class ClaudeUser:
    """A ``user`` line: tool results, or a replayed/injected user message."""

    blocks: tuple[ContentBlock, ...] = ()
    session_id: str | None = None
    parent_tool_use_id: str | None = None
    is_replay: bool = False

    @property
    def tool_results(self) -> tuple[ToolResultBlock, ...]:
        return tuple(b for b in self.blocks if isinstance(b, ToolResultBlock))


@dataclass(frozen=True, slots=True)
class PermissionDenial:
    """A tool call the CLI refused on its own (``result.permission_denials[]``).

    Not an error: in ``-p`` mode a denied tool is reported to the model as a
    failed tool result and the run goes on (exit 0).
    """

    tool_name: str
    tool_use_id: str
    tool_input: Mapping[str, Any] = field(default_factory=lambda: EMPTY)


@dataclass(frozen=True, slots=True)
class ClaudeResult:
    """``result``: the end of one turn, with the turn's usage and the running cost.

    ``result`` (the final text) is absent on error subtypes, which carry
    ``errors`` instead; ``is_error`` can be true with subtype ``success``
    (API, auth and connection failures).
    """

    subtype: str
    is_error: bool = False
    result: str | None = None
    errors: tuple[str, ...] = ()
    usage: Usage = field(default_factory=Usage)
    total_cost_usd: float | None = None
    num_turns: int | None = None
    stop_reason: str | None = None
    terminal_reason: str | None = None
    session_id: str | None = None
    api_error_status: int | None = None
    api_error: str | None = None
    permission_denials: tuple[PermissionDenial, ...] = ()
    raw: Mapping[str, Any] = field(default_factory=lambda: EMPTY)


@dataclass(frozen=True, slots=True)
class ClaudeOther:
    """A line of a type this mapping does not model (stream_event, rate_limit_event,
    control_response, keep_alive, anything new): kept whole, never an error."""

    type: str
    raw: Mapping[str, Any] = field(default_factory=lambda: EMPTY)


ClaudeEvent = ClaudeInit | ClaudeSystem | ClaudeAssistant | ClaudeUser | ClaudeResult | ClaudeOther


# ------------------------------------------------------------------- mapping


def _denials(obj: Mapping[str, Any]) -> tuple[PermissionDenial, ...]:
    value = obj.get("permission_denials")
    if value is None:
        return ()
    if not isinstance(value, list):
        raise EventError(f"result: 'permission_denials' must be a list, got {type(value).__name__}")
    denials = []
    for entry in value:
        if not isinstance(entry, Mapping):
            raise EventError("result: a permission_denials entry must be an object")
        tool_input = opt_mapping(entry, "tool_input", "result.permission_denials[]")
        denials.append(
            PermissionDenial(
                tool_name=opt_str(entry, "tool_name", "result.permission_denials[]") or "",
                tool_use_id=opt_str(entry, "tool_use_id", "result.permission_denials[]") or "",
                tool_input=view(tool_input) if tool_input is not None else EMPTY,
            )
        )
    return tuple(denials)


def _mcp_servers(obj: Mapping[str, Any]) -> tuple[McpServerStatus, ...]:
    value = obj.get("mcp_servers")
    if value is None:
        return ()
    if not isinstance(value, list):
        raise EventError(f"system/init: 'mcp_servers' must be a list, got {type(value).__name__}")
    servers = []
    for entry in value:
        if not isinstance(entry, Mapping):
            raise EventError("system/init: an mcp_servers entry must be an object")
        servers.append(
            McpServerStatus(
                name=opt_str(entry, "name", "system/init.mcp_servers[]") or "",
                status=opt_str(entry, "status", "system/init.mcp_servers[]") or "",
            )
        )
    return tuple(servers)


def _result(obj: Mapping[str, Any]) -> ClaudeResult:
    return ClaudeResult(
        subtype=opt_str(obj, "subtype", "result") or "",
        is_error=opt_bool(obj, "is_error", "result") is True,
        result=opt_str(obj, "result", "result"),
        errors=opt_str_list(obj, "errors", "result"),
        usage=parse_usage(obj.get("usage")),
        total_cost_usd=opt_cost(obj, "total_cost_usd", "result"),
        num_turns=opt_int(obj, "num_turns", "result"),
        stop_reason=opt_str(obj, "stop_reason", "result"),
        terminal_reason=opt_str(obj, "terminal_reason", "result"),
        session_id=opt_str(obj, "session_id", "result"),
        api_error_status=opt_int(obj, "api_error_status", "result"),
        api_error=opt_str(obj, "api_error", "result"),
        permission_denials=_denials(obj),
        raw=view(obj),
    )


def map_event(obj: Mapping[str, Any]) -> ClaudeEvent:
    """One parsed stdout object -> its event; raises :class:`EventError` on bad field types."""
    kind = req_str(obj, "type", "an event")
    session_id = opt_str(obj, "session_id", kind)
    if kind == "system":
        subtype = opt_str(obj, "subtype", "system") or ""
        if subtype == "init":
            return ClaudeInit(
                session_id=session_id,
                model=opt_str(obj, "model", "system/init"),
                cwd=opt_str(obj, "cwd", "system/init"),
                tools=opt_str_list(obj, "tools", "system/init"),
                version=opt_str(obj, "claude_code_version", "system/init"),
                mcp_servers=_mcp_servers(obj),
            )
        return ClaudeSystem(subtype, session_id, view(obj))
    if kind == "assistant":
        message = obj.get("message")
        if not isinstance(message, Mapping):
            raise EventError("assistant: 'message' must be an object")
        return ClaudeAssistant(
            message_id=opt_str(message, "id", "assistant.message"),
            blocks=_blocks(message.get("content"), "assistant.message"),
            model=opt_str(message, "model", "assistant.message"),
            session_id=session_id,
            parent_tool_use_id=opt_str(obj, "parent_tool_use_id", "assistant"),
            error=opt_str(obj, "error", "assistant"),
            api_error=opt_str(obj, "api_error", "assistant"),
            is_api_error=opt_bool(obj, "is_api_error_message", "assistant") is True,
        )
    if kind == "user":
        message = opt_mapping(obj, "message", "user")
        return ClaudeUser(
            blocks=_blocks(message.get("content") if message is not None else None, "user.message"),
            session_id=session_id,
            parent_tool_use_id=opt_str(obj, "parent_tool_use_id", "user"),
            is_replay=opt_bool(obj, "isReplay", "user") is True,
        )
    if kind == "result":
        return _result(obj)
    return ClaudeOther(kind, view(obj))
