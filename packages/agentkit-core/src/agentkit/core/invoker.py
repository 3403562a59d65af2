"""The Invoker: the one path every LLMPort call and tool call of a run takes.

It runs a call through the chat (or tool) middleware, then charges the
context for the usage the call's terminal delta reports, priced once. Routing
every such call through one place is what makes retry, budgets and metering
apply to all of them, including the ones a test drives with a double.

Every charge of a run ends in :meth:`RunContext.charge
<agentkit.core.runtime.RunContext.charge>`, the one road to the run's ledger
and meters: the Invoker's, and the CLI cognitions', which run a subprocess
rather than an LLMPort and so charge the turn their CLI reports directly
(after :meth:`~agentkit.core.runtime.RunContext.check_budget`, as
``budget_middleware`` does), not through chat middleware. Nothing below the
Invoker meters: :class:`~agentkit.core.call_runtime.CallRuntime` prices a
reply and reports it, and keeps no totals of its own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from agentkit.core._internal.arguments import (
    check_callable,
    check_protocol,
    check_values,
)
from agentkit.core.deltas import collect_response
from agentkit.core.request import ChatRequest, stream_of
from agentkit.core.types import ChatResponse, Delta, Usage

if TYPE_CHECKING:
    from agentkit.core.ports import LLMPort, Tool
    from agentkit.core.pricing import PriceTable
    from agentkit.core.runtime import RunContext

__all__ = [
    "ChatHandler",
    "ChatMiddleware",
    "Invoker",
    "ToolHandler",
    "ToolMiddleware",
]


ChatHandler = Callable[["RunContext", ChatRequest], AsyncIterator[Delta]]
ToolHandler = Callable[["RunContext", "Tool", dict[str, Any]], Awaitable[Any]]


class ChatMiddleware(Protocol):
    """Wraps a model call: gets the request and the next handler, returns the deltas.

    A middleware that only acts before the call (a budget check) can be a plain
    function returning ``call_next(ctx, request)``; one that watches the stream
    (retry) is an async generator.
    """

    def __call__(
        self, ctx: RunContext, request: ChatRequest, call_next: ChatHandler
    ) -> AsyncIterator[Delta]: ...


class ToolMiddleware(Protocol):
    def __call__(
        self, ctx: RunContext, tool: Tool, args: dict[str, Any], call_next: ToolHandler
    ) -> Awaitable[Any]: ...


def _bind_chat(middleware: ChatMiddleware, call_next: ChatHandler) -> ChatHandler:
    def handler(ctx: RunContext, request: ChatRequest) -> AsyncIterator[Delta]:
        return middleware(ctx, request, call_next)

    return handler


def _bind_tool(middleware: ToolMiddleware, call_next: ToolHandler) -> ToolHandler:
    def handler(ctx: RunContext, tool: Tool, args: dict[str, Any]) -> Awaitable[Any]:
        return middleware(ctx, tool, args, call_next)

    return handler


async def _run_tool(ctx: RunContext, tool: Tool, args: dict[str, Any]) -> Any:
    return await tool.run(args)


class Invoker:
    """Runs model calls through ``chat_middleware`` and tool calls through ``tool_middleware``.

    Middleware run in the order given, the first outermost. After a model
    call's terminal delta the context is charged (``ctx.charge``) with that
    delta's usage, priced by ``pricing`` when one is given.
    """

    def __init__(
        self,
        llm: LLMPort,
        chat_middleware: Sequence[ChatMiddleware] = (),
        tool_middleware: Sequence[ToolMiddleware] = (),
        *,
        pricing: PriceTable | None = None,
    ) -> None:
        check_protocol(
            llm,
            "Invoker",
            "llm",
            "an LLMPort (an object with stream(*, messages, model, ...))",
            ("stream",),
        )
        for name, given in (
            ("chat_middleware", chat_middleware),
            ("tool_middleware", tool_middleware),
        ):
            for index, middleware in enumerate(
                check_values(given, "Invoker", name, "a sequence of middleware callables")
            ):
                check_callable(middleware, "Invoker", f"{name}[{index}]", "a middleware callable")
        if pricing is not None:
            check_protocol(pricing, "Invoker", "pricing", "a PriceTable or None", ("cost",))
        self.llm = llm
        self.chat_middleware = tuple(chat_middleware)
        self.tool_middleware = tuple(tool_middleware)
        self.pricing = pricing
        chat: ChatHandler = self._call_llm
        for chat_mw in reversed(self.chat_middleware):
            chat = _bind_chat(chat_mw, chat)
        self._chat: ChatHandler = chat
        tool: ToolHandler = _run_tool
        for tool_mw in reversed(self.tool_middleware):
            tool = _bind_tool(tool_mw, tool)
        self._tool: ToolHandler = tool

    def price(self, model: str, usage: Usage) -> float:
        """The cost of ``usage`` on ``model``: 0.0 without a price table."""
        return 0.0 if self.pricing is None else self.pricing.cost(model, usage)

    def _call_llm(self, ctx: RunContext, request: ChatRequest) -> AsyncIterator[Delta]:
        return stream_of(self.llm, request)

    async def _charged(
        self, ctx: RunContext, request: ChatRequest, spent: list[float]
    ) -> AsyncIterator[Delta]:
        """The call's deltas, each usage-bearing one priced ONCE and charged as it passes.

        The cost is added to ``spent`` as well, so that :meth:`chat` reports
        what the context was charged instead of pricing the total again.
        """
        ctx.cancel.raise_if_cancelled()
        pricing = self.pricing
        async for delta in self._chat(ctx, request):
            usage = delta.usage
            if usage is not None:
                cost = 0.0 if pricing is None else pricing.cost(request.model, usage)
                spent[0] += cost
                ctx.charge(usage, cost, model=request.model)
            yield delta

    def stream(self, ctx: RunContext, request: ChatRequest) -> AsyncIterator[Delta]:
        """The call's deltas; the context is charged as the terminal one passes."""
        return self._charged(ctx, request, [0.0])

    async def chat(self, ctx: RunContext, request: ChatRequest) -> ChatResponse:
        """The whole reply the call's stream adds up to, with the cost it was charged."""
        spent = [0.0]
        response = await collect_response(self._charged(ctx, request, spent), model=request.model)
        return replace(response, cost_usd=spent[0])

    async def run_tool(self, ctx: RunContext, tool: Tool, args: dict[str, Any]) -> Any:
        """Run ``tool`` through the tool middleware."""
        ctx.cancel.raise_if_cancelled()
        return await self._tool(ctx, tool, args)
