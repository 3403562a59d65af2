"""CallRuntime: a provider's transport edge made an LLMPort, its usage normalised and priced.

A :class:`TransportAdapter` is the provider-specific part: it sends one
:class:`~agentkit.core.request.ChatRequest` and returns the raw
:class:`TransportFacts`, usage in the provider's own convention. The runtime
normalises that usage for its :class:`~agentkit.core.pricing.Mode` and prices
it -- and charges nothing: charging is the Invoker's, on the run's context.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from dataclasses import dataclass, field, replace
from typing import Protocol

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    check_protocol,
    check_str,
    check_type,
    check_values,
)
from agentkit.core.pricing import OPENAI_API, Mode, ModelPrice, PriceTable, RawUsage
from agentkit.core.request import ChatModel, ChatRequest
from agentkit.core.types import ChatResponse, Delta, ToolCall

__all__ = ["CallRuntime", "TransportAdapter", "TransportFacts"]


@dataclass(frozen=True, slots=True)
class TransportFacts:
    """What one call to a provider returned, before any normalisation."""

    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    usage: RawUsage = field(default_factory=RawUsage)
    finish_reason: str | None = None
    model: str | None = None

    def __post_init__(self) -> None:
        check_str(self.content, "TransportFacts", "content")
        calls = check_values(self.tool_calls, "TransportFacts", "tool_calls", "a tuple of ToolCall")
        for index, call in enumerate(calls):
            check_type(call, ToolCall, "TransportFacts", f"tool_calls[{index}]", "a ToolCall")
        object.__setattr__(self, "tool_calls", calls)
        check_type(self.usage, RawUsage, "TransportFacts", "usage", "a RawUsage")
        for name in ("finish_reason", "model"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise ArgumentTypeError("TransportFacts", name, "a str or None", value)


class TransportAdapter(Protocol):
    """The provider-specific edge: sends a request, returns raw facts."""

    async def send(self, request: ChatRequest) -> TransportFacts: ...


class CallRuntime(ChatModel):
    """Turns a transport adapter's facts into normalised Usage and cost for its mode.

    It is an :class:`~agentkit.core.ports.LLMPort`, so it sits behind an
    Invoker like any model. It keeps no meters and no totals of its own: the
    Invoker charges the run's context (:meth:`RunContext.charge
    <agentkit.core.runtime.RunContext.charge>`, the one road every charge
    takes), so a runtime that metered too would count every call twice.

    ``chat`` prices the reply once, on the model the provider billed (its
    ``model`` fact, else the requested one, else ``default_model``), into
    :attr:`ChatResponse.cost_usd <agentkit.core.types.ChatResponse.cost_usd>`.
    ``stream`` yields the same reply as deltas, which carry no cost, so it
    does not price it; it still refuses a model the table does not list
    (:class:`~agentkit.core.pricing.UnknownModelError`), before the first
    delta, so an unpriced model never runs unnoticed. Behind an Invoker the
    Invoker's own price table prices the call, once.
    """

    def __init__(
        self,
        adapter: TransportAdapter,
        pricing: PriceTable,
        *,
        mode: Mode = OPENAI_API,
        default_model: str | None = None,
    ) -> None:
        check_protocol(
            adapter,
            "CallRuntime",
            "adapter",
            "a TransportAdapter (an object with an async send(request))",
            ("send",),
        )
        check_type(pricing, PriceTable, "CallRuntime", "pricing", "a PriceTable")
        check_type(mode, Mode, "CallRuntime", "mode", "a Mode (OPENAI_API, ANTHROPIC_API)")
        if default_model is not None:
            check_str(default_model, "CallRuntime", "default_model")
        self.adapter = adapter
        self.pricing = pricing
        self.mode = mode
        self.default_model = default_model

    async def _reply(self, request: ChatRequest) -> tuple[ChatResponse, ModelPrice]:
        """The adapter's facts for ``request``, normalised, with the billed model's price."""
        facts = await self.adapter.send(request)
        billed_model = facts.model or request.model or self.default_model or ""
        price = self.pricing.price(billed_model)
        response = ChatResponse(
            content=facts.content,
            tool_calls=facts.tool_calls,
            usage=self.mode.normalise(facts.usage),
            finish_reason=facts.finish_reason or ("tool_calls" if facts.tool_calls else "stop"),
            model=billed_model,
        )
        return response, price

    async def chat_request(self, request: ChatRequest) -> ChatResponse:
        """Send ``request`` through the adapter; the normalised reply, priced once."""
        response, price = await self._reply(request)
        return replace(response, cost_usd=price.cost(response.usage))

    async def stream_request(self, request: ChatRequest) -> AsyncGenerator[Delta, None]:
        """The whole reply as a stream: its content, then the terminal delta."""
        response, _ = await self._reply(request)
        if response.content:
            yield Delta(content=response.content)
        yield Delta(
            tool_calls=response.tool_calls,
            usage=response.usage,
            finish_reason=response.finish_reason,
        )
