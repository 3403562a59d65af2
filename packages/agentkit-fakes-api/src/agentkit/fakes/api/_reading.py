"""What reading every provider's answer shares: the refusal of one that does not read, the
JSON and token counts inside it, and a streamed answer added up event by event.

A real provider's answer is the ground truth a recording keeps, so it is
read tolerantly where the provider may grow (an event type, a field, a
content block the kit has no place for is skipped, as the official SDKs
skip them) and strictly where a wrong reading would be a wrong recording:
JSON that does not parse, a count that is not a number, a tool call with
no name is :class:`UnreadableAnswer`, never an answer with a part missing.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any

from agentkit.core.pricing import Mode, RawUsage
from agentkit.core.types import ChatResponse, Delta, Usage

__all__ = [
    "Failure",
    "Folding",
    "TruncatedJson",
    "UnreadableAnswer",
    "count",
    "field",
    "loads",
    "usage_in",
]


class UnreadableAnswer(ValueError):
    """A provider's answer that cannot be read as one: ``wire`` names its API, ``where``
    the part of it (``event 7``, ``body``), ``reason`` what was wrong."""

    def __init__(self, wire: str, where: str, reason: str) -> None:
        self.wire = wire
        self.where = where
        self.reason = reason
        super().__init__(f"{wire} answer, {where}: {reason}")


class TruncatedJson(Exception):
    """A JSON text that ends before its value does: a cut answer, not a malformed one."""


def loads(text: str, wire: str, where: str) -> Any:
    """``text`` parsed as JSON; :class:`UnreadableAnswer` naming ``where`` when it is not."""
    try:
        return json.loads(text)
    except RecursionError:
        raise UnreadableAnswer(wire, where, "JSON nested too deep to read") from None
    except json.JSONDecodeError as exc:
        if exc.pos >= len(text.rstrip()):
            raise TruncatedJson from None
        reason = f"not JSON ({exc.msg} at {exc.pos}): {text!r:.120}"
        raise UnreadableAnswer(wire, where, reason) from None


def field(value: object, key: str, wire: str, where: str) -> dict[str, Any]:
    """``value[key]`` where it must be an object (absent or null reads as empty)."""
    if not isinstance(value, dict):
        raise UnreadableAnswer(wire, where, f"expected a JSON object, got {value!r:.80}")
    inner = value.get(key)
    if inner is None:
        return {}
    if not isinstance(inner, dict):
        raise UnreadableAnswer(wire, f"{where}.{key}", f"expected an object, got {inner!r:.80}")
    return inner


def count(value: Mapping[str, Any], key: str, wire: str, where: str) -> int:
    """A token count: absent or null is 0; anything but a non-negative integer is refused."""
    number = value.get(key)
    if number is None:
        return 0
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise UnreadableAnswer(wire, f"{where}.{key}", f"not a token count: {number!r:.40}")
    return number


def usage_in(mode: Mode, raw: RawUsage, wire: str, where: str) -> Usage:
    """``raw`` in the kit's split (:meth:`~agentkit.core.pricing.Mode.normalise`)."""
    try:
        return mode.normalise(raw)
    except ValueError as exc:
        raise UnreadableAnswer(wire, where, str(exc)) from None


class Failure(Exception):
    """The provider's error, reported inside a stream that had begun (status 200)."""

    def __init__(self, status: int, kind: str | None, message: str) -> None:
        self.status = status
        self.kind = kind
        self.message = message
        super().__init__(f"{status} {kind}: {message}")


class Folding(ABC):
    """One streamed answer, added up as its events arrive.

    A wire's subclass reads each event (:meth:`take`); it appends the
    reasoning and content deltas to :attr:`partial` as they stream -- what a
    client had been shown when a stream breaks -- and sets :attr:`done` once
    the stream's terminal event arrived: then :attr:`answer` or
    :attr:`failure` holds its outcome. :attr:`ident` is the provider's id of
    the answer, as soon as an event names it.
    """

    WIRE = ""

    def __init__(self) -> None:
        self.partial: list[Delta] = []
        self.done = False
        self.answer: ChatResponse | None = None
        self.failure: Failure | None = None
        self.ident: str | None = None
        """The provider's id of the answer (a message's, a completion's, a response's)."""

    @abstractmethod
    def take(self, name: str | None, data: str, where: str) -> None:
        """Read one event: its ``event:`` name (None when it had none) and its data;
        ``where`` names it in an :class:`UnreadableAnswer`."""

    def loads(self, data: str, where: str) -> Any:
        """An event's JSON data (cut JSON in a dispatched event is malformed, not cut)."""
        try:
            return loads(data, self.WIRE, where)
        except TruncatedJson:
            raise UnreadableAnswer(self.WIRE, where, f"JSON cut short: {data!r:.120}") from None

    def identify(self, value: object) -> None:
        """Keep ``value['id']`` as the answer's id, when it is a string."""
        ident = value.get("id") if isinstance(value, dict) else None
        if isinstance(ident, str) and ident:
            self.ident = ident

    def text(self, content: str = "", reasoning: str = "") -> None:
        """A content or reasoning delta streamed to the client."""
        if content or reasoning:
            self.partial.append(Delta(content=content, reasoning=reasoning))
