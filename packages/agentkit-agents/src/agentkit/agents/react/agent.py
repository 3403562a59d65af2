"""ReactAgent: the tool-using loop.

Each step asks the model (through the run's Invoker, so middleware, metering
and budgets apply) and then either runs the tools it asked for or checks its
final answer. Everything a model can get wrong comes back to it as a message
-- an unknown tool, arguments that break the tool's schema, a tool that
raised, an empty or invalid final answer -- and the loop goes on; a run ends
only on an accepted answer, ``max_iterations``, the budget, cancellation, or a
gated call waiting for a human.

The catch sites that turn failures into messages are ``except Exception`` on
purpose: right for any fault of a real tool or validator, and exactly the
sites a test double's ``ScriptExhausted`` (a BaseException) must and does pass
through, so that a loop that asks the model more often than a test's script
claims fails the test instead of being answered.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from agentkit.agents.capabilities.request_builder import RequestBuilder
from agentkit.agents.react.errors import (
    ApprovalUnavailable,
    CheckpointAlreadyResumed,
    CheckpointerMissing,
    CheckpointNotFound,
)
from agentkit.agents.react.output import OutputValidator, json_output, schema_of_response_format
from agentkit.agents.react.result import ReactResult, StopReason
from agentkit.agents.react.state import SuspendedRun, plain_data
from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_callable,
    check_int,
    check_mapping,
    check_protocol,
    check_str,
    check_type,
    check_values,
)
from agentkit.core.cancellation import RunCancelled
from agentkit.core.middleware import BudgetExceeded
from agentkit.core.schema import schema_errors
from agentkit.core.types import Message, ToolCall

if TYPE_CHECKING:
    from agentkit.core.ports import Asker, Span, Tool
    from agentkit.core.request import ChatRequest
    from agentkit.core.runtime import RunContext
    from agentkit.core.types import ChatResponse

__all__ = ["ReactAgent"]

_TOOL = "a Tool (an object with name, schema, run, ...), e.g. a FunctionTool"
_TOOL_MEMBERS = ("name", "description", "schema", "side_effecting", "requires_approval", "run")
_BUILDER = "a RequestBuilder or None"


@dataclass(frozen=True, slots=True)
class _Suspended:
    key: str
    call: ToolCall


@dataclass(frozen=True, slots=True)
class _Decision:
    """A human's answer already in hand for one call (the pending call of a resume)."""

    call_id: str
    approved: bool


def _render(value: Any) -> str:
    """A tool's result as the text of its tool message: str verbatim, else JSON, else str()."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(plain_data(value), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return str(value)


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


class ReactAgent:
    """A tool-using loop over the run context's Invoker.

    ``response_format`` is passed to the model and, unless ``output_validator``
    says otherwise, makes the final answer a JSON value checked against the
    schema in it. ``request_builder`` builds every request (system prompt,
    grounding, compaction); without one a plain builder with ``system_prompt``
    is used, so the two are exclusive. Tools whose ``requires_approval`` is set
    are gated under ``ctx.autonomy == "ask"``: with ``ctx.services.asker`` the
    call parks until the human answers; otherwise the run is saved to
    ``ctx.services.checkpointer`` and returns ``stop_reason="awaiting_approval"``,
    to be continued by :meth:`resume`.
    """

    def __init__(
        self,
        tools: Sequence[Tool],
        *,
        model: str,
        system_prompt: str | None = None,
        max_iterations: int = 10,
        request_builder: RequestBuilder | None = None,
        response_format: dict[str, Any] | None = None,
        output_validator: OutputValidator | None = None,
    ) -> None:
        where = "ReactAgent"
        given = check_values(tools, where, "tools", "a list of Tool objects")
        check_str(model, where, "model", empty=False)
        check_int(max_iterations, where, "max_iterations", minimum=1)
        if system_prompt is not None:
            check_str(system_prompt, where, "system_prompt")
        if request_builder is not None:
            check_type(request_builder, RequestBuilder, where, "request_builder", _BUILDER)
        if response_format is not None:
            check_mapping(response_format, where, "response_format", "a response_format dict")
        if output_validator is not None:
            check_callable(
                output_validator, where, "output_validator", "a callable(text) -> output"
            )
        if request_builder is not None and system_prompt is not None:
            raise ArgumentTypeError(
                where,
                "system_prompt",
                "None when request_builder= is given",
                system_prompt,
                "pass the system prompt to the RequestBuilder, not both system_prompt= "
                "and request_builder=",
            )
        if request_builder is not None and request_builder.model != model:
            raise ArgumentValueError(
                where,
                "model",
                f"the model the request_builder builds for ({request_builder.model!r})",
                model,
            )
        by_name: dict[str, Tool] = {}
        for index, tool in enumerate(given):
            check_protocol(tool, where, f"tools[{index}]", _TOOL, _TOOL_MEMBERS)
            check_str(tool.name, where, f"tools[{index}].name", empty=False)
            if tool.name in by_name:
                raise ArgumentValueError(
                    where,
                    "tools",
                    "tools with unique names",
                    [t.name for t in given],
                    f"two tools are named {tool.name!r}; tool names must be unique",
                )
            by_name[tool.name] = tool
        self.model = model
        self.max_iterations = max_iterations
        self.tools: Mapping[str, Tool] = by_name
        self.response_format = response_format
        self.request_builder = request_builder or RequestBuilder(system_prompt or "", model=model)
        if output_validator is None and response_format is not None:
            output_validator = json_output(schema_of_response_format(response_format))
        self.output_validator = output_validator

    # -- public entry points -------------------------------------------------

    async def run(self, ctx: RunContext, task: str) -> ReactResult:
        """Run ``task`` from the start: the transcript begins with it as the user message."""
        if not isinstance(task, str):
            raise TypeError(f"task must be a str, got {type(task).__name__}")
        ctx.require_invoker()
        ctx.observer.emit("react.started", model=self.model, tools=sorted(self.tools))
        return await self._drive(ctx, task, [Message.user(task)], done=0, carry=None)

    async def resume(self, ctx: RunContext, checkpoint_key: str, approved: bool) -> ReactResult:
        """Continue a run suspended for approval, exactly where it stopped.

        The pending call is run (``approved=True``) or answered with a denial,
        the calls after it in the same model reply are handled as they would
        have been, and the loop goes on with the next step. The checkpoint is
        marked resumed before anything runs, so a second resume is refused.
        """
        if not isinstance(approved, bool):
            raise TypeError(f"approved must be a bool, got {approved!r}")
        checkpointer = ctx.services.checkpointer
        if checkpointer is None:
            raise CheckpointerMissing(checkpoint_key)
        ctx.require_invoker()
        state = await checkpointer.load(checkpoint_key)
        if state is None:
            raise CheckpointNotFound(checkpoint_key)
        suspended = SuspendedRun.from_state(checkpoint_key, state)
        if suspended.resumed:
            raise CheckpointAlreadyResumed(checkpoint_key)
        await checkpointer.save(checkpoint_key, replace(suspended, resumed=True).to_state())
        ctx.observer.emit(
            "react.resumed",
            checkpoint_key=checkpoint_key,
            tool=suspended.pending.name,
            call_id=suspended.pending.id,
            approved=approved,
        )
        return await self._drive(
            ctx,
            suspended.task,
            list(suspended.messages),
            done=suspended.iteration,
            carry=(
                (suspended.pending, *suspended.remaining),
                _Decision(suspended.pending.id, approved),
            ),
        )

    # -- the loop ------------------------------------------------------------

    async def _drive(
        self,
        ctx: RunContext,
        task: str,
        transcript: list[Message],
        *,
        done: int,
        carry: tuple[tuple[ToolCall, ...], _Decision] | None,
    ) -> ReactResult:
        iteration = done
        with ctx.trace.span(
            "react.run", kind="internal", model=self.model, resumed=carry is not None
        ) as run_span:
            try:
                if carry is not None:
                    calls, decision = carry
                    with ctx.trace.span(
                        "react.step", kind="internal", iteration=iteration, resumed=True
                    ) as step:
                        step.set("react.outcome", "tool_calls")
                        parked = await self._handle_calls(
                            ctx, task, transcript, iteration, calls, decision
                        )
                        if parked is not None:
                            step.set("react.outcome", "awaiting_approval")
                            return self._suspend(ctx, run_span, transcript, iteration, parked)
                while iteration < self.max_iterations:
                    ctx.cancel.raise_if_cancelled()
                    ctx.check_budget()
                    iteration += 1
                    with ctx.trace.span("react.step", kind="internal", iteration=iteration) as step:
                        response = await self._call_model(ctx, task, transcript, iteration)
                        transcript.append(Message.assistant(response.content, response.tool_calls))
                        if response.tool_calls:
                            step.set("react.outcome", "tool_calls")
                            parked = await self._handle_calls(
                                ctx, task, transcript, iteration, response.tool_calls, None
                            )
                            if parked is not None:
                                step.set("react.outcome", "awaiting_approval")
                                return self._suspend(ctx, run_span, transcript, iteration, parked)
                            continue
                        problem, output = self._accept(response.content)
                        if problem is None:
                            step.set("react.outcome", "final")
                            return self._finish(
                                ctx,
                                run_span,
                                "final",
                                transcript,
                                iteration,
                                text=response.content,
                                output=output,
                            )
                        step.set("react.outcome", "reflected")
                        step.set("react.problem", problem)
                        ctx.observer.emit("react.reflected", iteration=iteration, problem=problem)
                        transcript.append(Message.user(_reflection(problem)))
                return self._finish(
                    ctx,
                    run_span,
                    "max_iterations",
                    transcript,
                    iteration,
                    detail=f"no final answer after {iteration} iterations",
                )
            except RunCancelled as exc:
                return self._finish(
                    ctx, run_span, "cancelled", transcript, iteration, detail=exc.reason
                )
            except BudgetExceeded as exc:
                return self._finish(ctx, run_span, "budget", transcript, iteration, detail=str(exc))

    async def _call_model(
        self, ctx: RunContext, task: str, transcript: list[Message], iteration: int
    ) -> ChatResponse:
        request: ChatRequest = await self.request_builder.build(ctx, transcript, task)
        schemas = [tool.schema for tool in self.tools.values()]
        request = replace(
            request,
            tools=schemas or None,
            response_format=self.response_format,
            metadata={**request.metadata, "react.iteration": iteration},
        )
        with ctx.trace.span(
            "react.model",
            kind="client",
            model=request.model,
            iteration=iteration,
            **{"llm.messages": len(request.messages), "llm.tools": len(schemas)},
        ) as span:
            response = await ctx.require_invoker().chat(ctx, request)
            span.set("llm.finish_reason", response.finish_reason)
            span.set("llm.tool_calls", len(response.tool_calls))
            span.set("llm.input_tokens", response.usage.input_tokens)
            span.set("llm.cached_input_tokens", response.usage.cached_input_tokens)
            span.set("llm.output_tokens", response.usage.output_tokens)
            span.set("llm.cost_usd", response.cost_usd)
        ctx.observer.emit(
            "react.model_replied",
            iteration=iteration,
            tool_calls=[c.name for c in response.tool_calls],
            chars=len(response.content),
            total_tokens=response.usage.total_tokens,
        )
        return response

    def _accept(self, content: str) -> tuple[str | None, Any]:
        """(None, output) for an acceptable final answer; (problem, None) to reflect."""
        if not content.strip():
            return "the reply was empty and called no tool", None
        if self.output_validator is None:
            return None, content
        try:
            return None, self.output_validator(content)
        except Exception as exc:  # a validator's rejection goes back to the model
            return _describe(exc), None

    # -- tool calls ------------------------------------------------------------

    async def _handle_calls(
        self,
        ctx: RunContext,
        task: str,
        transcript: list[Message],
        iteration: int,
        calls: Sequence[ToolCall],
        decision: _Decision | None,
    ) -> _Suspended | None:
        """Answer every call with one tool message, in order; stop at one that must wait."""
        for index, call in enumerate(calls):
            with ctx.trace.span(
                "react.tool",
                kind="internal",
                iteration=iteration,
                **{"tool.name": call.name, "tool.call_id": call.id},
            ) as span:
                checked = self._checked(call)
                if isinstance(checked, tuple):  # refused: (outcome, content)
                    self._answer(ctx, span, transcript, call, *checked)
                    continue
                tool = checked
                # A decision in hand (the pending call of a resume) binds whatever the
                # resuming context's autonomy: a denied call is never run by a resume.
                decided = decision if decision is not None and decision.call_id == call.id else None
                if decided is not None or (tool.requires_approval and ctx.autonomy == "ask"):
                    if decided is not None:
                        approved = decided.approved
                        span.set("tool.approval", "resumed")
                    elif ctx.services.asker is not None:
                        span.set("tool.approval", "parked")
                        approved = await self._ask(ctx, ctx.services.asker, call)
                    elif ctx.services.checkpointer is not None:
                        span.set("tool.outcome", "suspended")
                        key = f"react:{ctx.correlation_id}:{uuid.uuid4().hex}"
                        run = SuspendedRun(
                            task=task,
                            model=self.model,
                            iteration=iteration,
                            messages=tuple(transcript),
                            pending=call,
                            remaining=tuple(calls[index + 1 :]),
                        )
                        await ctx.services.checkpointer.save(key, run.to_state())
                        span.set("react.checkpoint_key", key)
                        return _Suspended(key, call)
                    else:
                        raise ApprovalUnavailable(call, tuple(transcript))
                    span.set("tool.approved", approved)
                    ctx.observer.emit(
                        "react.approval_answered",
                        tool=call.name,
                        call_id=call.id,
                        approved=approved,
                    )
                    if not approved:
                        self._answer(
                            ctx,
                            span,
                            transcript,
                            call,
                            "denied",
                            f"denied: the human did not approve running tool {call.name!r} "
                            "with these arguments; it was not run",
                        )
                        continue
                outcome, content = await self._run_tool(ctx, span, tool, call)
                self._answer(ctx, span, transcript, call, outcome, content)
        return None

    def _checked(self, call: ToolCall) -> Tool | tuple[str, str]:
        """The tool ``call`` names, or the answer refusing the call: no such tool, or
        arguments its schema rejects (as ``(outcome, content)``)."""
        tool = self.tools.get(call.name)
        if tool is None:
            available = ", ".join(sorted(self.tools)) or "none"
            return (
                "unknown_tool",
                f"error: there is no tool named {call.name!r}; available tools: {available}",
            )
        errors = schema_errors(tool.schema.parameters, call.arguments)
        if errors:
            return (
                "invalid_arguments",
                f"error: invalid arguments for tool {call.name!r}: " + "; ".join(errors),
            )
        return tool

    async def _ask(self, ctx: RunContext, asker: Asker, call: ToolCall) -> bool:
        """Park on the asker until it answers, or until the run is cancelled."""
        arguments = _render(call.arguments)
        question = f"Allow tool {call.name!r} to run with arguments {arguments}?"
        ctx.observer.emit("react.approval_requested", tool=call.name, call_id=call.id)
        asking = asyncio.ensure_future(asker.ask(question, tool_call=call))
        cancelled = asyncio.ensure_future(ctx.cancel.wait())
        try:
            await asyncio.wait({asking, cancelled}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (asking, cancelled):
                if not task.done():
                    task.cancel()
            await asyncio.gather(asking, cancelled, return_exceptions=True)
        if asking.cancelled():
            raise RunCancelled(ctx.cancel.reason if ctx.cancel.cancelled else "the asker withdrew")
        answer = asking.result()
        if not isinstance(answer, bool):
            raise TypeError(
                f"{type(asker).__name__}.ask returned {answer!r}; an approval must be a bool"
            )
        return answer

    async def _run_tool(
        self, ctx: RunContext, span: Span, tool: Tool, call: ToolCall
    ) -> tuple[str, str]:
        """Run the tool; its answer to the call as ``(outcome, content)``."""
        try:
            result = await ctx.require_invoker().run_tool(ctx, tool, plain_data(call.arguments))
        except (RunCancelled, BudgetExceeded):
            raise
        except Exception as exc:  # every tool failure becomes a message; BaseException passes
            span.set("tool.error", _describe(exc))
            ctx.observer.emit(
                "react.tool_failed", tool=call.name, call_id=call.id, error=_describe(exc)
            )
            return "error", f"error: tool {call.name!r} raised {_describe(exc)}"
        if tool.output_schema is not None:
            errors = schema_errors(tool.output_schema, plain_data(result))
            if errors:
                return (
                    "invalid_output",
                    f"error: tool {call.name!r} returned output that breaks its output schema: "
                    + "; ".join(errors),
                )
        return "ok", _render(result)

    def _answer(
        self,
        ctx: RunContext,
        span: Span,
        transcript: list[Message],
        call: ToolCall,
        outcome: str,
        content: str,
    ) -> None:
        span.set("tool.outcome", outcome)
        transcript.append(Message.tool(content, tool_call_id=call.id, name=call.name))
        ctx.observer.emit("react.tool_answered", tool=call.name, call_id=call.id, outcome=outcome)

    # -- endings ----------------------------------------------------------------

    def _suspend(
        self,
        ctx: RunContext,
        run_span: Span,
        transcript: list[Message],
        iteration: int,
        parked: _Suspended,
    ) -> ReactResult:
        ctx.observer.emit(
            "react.suspended",
            checkpoint_key=parked.key,
            tool=parked.call.name,
            call_id=parked.call.id,
        )
        run_span.set("react.checkpoint_key", parked.key)
        return self._finish(
            ctx,
            run_span,
            "awaiting_approval",
            transcript,
            iteration,
            checkpoint_key=parked.key,
            pending=parked.call,
            detail=f"tool {parked.call.name!r} is waiting for approval",
        )

    def _finish(
        self,
        ctx: RunContext,
        run_span: Span,
        stop_reason: StopReason,
        transcript: list[Message],
        iteration: int,
        *,
        text: str | None = None,
        output: Any = None,
        checkpoint_key: str | None = None,
        pending: ToolCall | None = None,
        detail: str | None = None,
    ) -> ReactResult:
        ledger = ctx.ledger
        run_span.set("react.stop_reason", stop_reason)
        run_span.set("react.iterations", iteration)
        run_span.set("llm.total_tokens", ledger.usage.total_tokens)
        run_span.set("llm.cost_usd", ledger.cost_usd)
        ctx.observer.emit(
            "react.stopped",
            stop_reason=stop_reason,
            iterations=iteration,
            total_tokens=ledger.usage.total_tokens,
            cost_usd=ledger.cost_usd,
            detail=detail,
        )
        return ReactResult(
            stop_reason=stop_reason,
            text=text,
            output=output,
            messages=tuple(transcript),
            iterations=iteration,
            usage=ledger.usage,
            cost_usd=ledger.cost_usd,
            llm_calls=ledger.calls,
            checkpoint_key=checkpoint_key,
            pending_tool_call=pending,
            detail=detail,
        )


def _reflection(problem: str) -> str:
    return (
        f"Your last reply could not be used: {problem}. "
        "Reply again with a corrected final answer, or call a tool."
    )
