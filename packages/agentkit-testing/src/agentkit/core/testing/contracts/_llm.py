"""The LLMPort contract: the stream's shape, chat() as the collected stream, early failures.

Every check holds for any correct implementation given a prompt, so a real
provider adapter can be run through it: nothing here depends on WHAT the
model answers, only on how the answer is delivered. ``messages`` should be
a prompt the model answers the same way twice (the chat-vs-stream check
calls both), e.g. "Reply with exactly: pong" at temperature 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agentkit.core.deltas import collect_response
from agentkit.core.ports import LLMPort
from agentkit.core.testing.contracts._base import ContractTests
from agentkit.core.testing.contracts._suite import (
    Broken,
    Factory,
    Maker,
    Suite,
    describe_got,
    must_raise,
)
from agentkit.core.types import ChatResponse, Delta, Message

__all__ = ["LLM_SUITE", "LLMPortContract", "check_llm_port"]

LLM_SUITE = Suite(
    "LLMPort",
    ("chat", "stream"),
    LLMPort,
    options=("messages", "model", "failing_factory", "failing_request"),
)

DEFAULT_MESSAGES = (Message("user", "Reply with exactly: pong"),)


def _request(options: Mapping[str, Any], *, failing: bool = False) -> dict[str, Any]:
    request: dict[str, Any] = {
        "messages": list(options.get("messages") or DEFAULT_MESSAGES),
        "model": options.get("model") or "contract-model",
    }
    if failing:
        request.update(options.get("failing_request") or {})
    return request


async def _deltas(port: LLMPort, options: Mapping[str, Any]) -> list[Any]:
    return [delta async for delta in port.stream(**_request(options))]


@LLM_SUITE.check()
async def stream_yields_only_deltas(make: Maker[LLMPort], options: Mapping[str, Any]) -> None:
    port = await make()
    stream = port.stream(**_request(options))
    if not hasattr(stream, "__anext__"):
        raise Broken(f"stream() returned {describe_got(stream)}, not an async iterator")
    items = [item async for item in stream]
    wrong = [describe_got(i) for i in items if not isinstance(i, Delta)]
    if wrong:
        raise Broken(f"stream() yielded {wrong[0]}")


@LLM_SUITE.check()
async def stream_ends_with_exactly_one_terminal_delta(
    make: Maker[LLMPort], options: Mapping[str, Any]
) -> None:
    port = await make()
    deltas = await _deltas(port, options)
    terminal = [n for n, d in enumerate(deltas) if getattr(d, "finish_reason", None) is not None]
    if len(terminal) != 1:
        raise Broken(f"{len(terminal)} of {len(deltas)} deltas carried a finish_reason")
    if terminal[0] != len(deltas) - 1:
        raise Broken(
            f"the terminal delta was item {terminal[0]} of {len(deltas)}: "
            f"{describe_got(deltas[terminal[0] + 1])} followed it"
        )


@LLM_SUITE.check()
async def the_terminal_delta_carries_usage_and_finish_reason(
    make: Maker[LLMPort], options: Mapping[str, Any]
) -> None:
    port = await make()
    deltas = await _deltas(port, options)
    if not deltas:
        raise Broken("stream() yielded nothing")
    last = deltas[-1]
    if getattr(last, "usage", None) is None:
        raise Broken(f"the last delta carries no usage: {describe_got(last)}")
    if not getattr(last, "finish_reason", None):
        raise Broken(f"the last delta carries no finish_reason: {describe_got(last)}")
    early = [n for n, d in enumerate(deltas[:-1]) if getattr(d, "usage", None) is not None]
    if early:
        raise Broken(f"delta {early[0]} of {len(deltas)} carried usage before the terminal one")


@LLM_SUITE.check()
async def chat_equals_the_collected_stream(
    make: Maker[LLMPort], options: Mapping[str, Any]
) -> None:
    port = await make()
    request = _request(options)
    whole = await port.chat(**request)
    if not isinstance(whole, ChatResponse):
        raise Broken(f"chat() returned {describe_got(whole)}")
    collected = await collect_response(port.stream(**request), model=request["model"])
    fields = ("content", "tool_calls", "usage", "finish_reason")
    differ = [
        f"{f}: chat {getattr(whole, f)!r} vs stream {getattr(collected, f)!r}"
        for f in fields
        if getattr(whole, f) != getattr(collected, f)
    ]
    if differ:
        raise Broken("; ".join(differ))


async def _failing(make: Maker[LLMPort], options: Mapping[str, Any]) -> LLMPort:
    factory = options.get("failing_factory")
    if factory is not None:
        return await Maker[LLMPort](factory, "LLMPort", LLM_SUITE.required)()
    return await make()


def _prepare(options: dict[str, Any]) -> dict[str, Any]:
    configured = options.get("failing_factory") is not None or options.get("failing_request")
    return {**options, "failure": True if configured else None}


LLM_SUITE.prepare = _prepare


@LLM_SUITE.check("failure")
async def a_failure_before_the_first_delta_is_raised_before_any_delta(
    make: Maker[LLMPort], options: Mapping[str, Any]
) -> None:
    port = await _failing(make, options)
    got: list[Any] = []
    try:
        async for delta in port.stream(**_request(options, failing=True)):
            got.append(delta)
    except Exception:
        if got:
            raise Broken(
                f"it raised only after {len(got)} delta(s): {describe_got(got[0])}"
            ) from None
        return
    raise Broken(f"the failing call did not raise; it yielded {len(got)} delta(s)")


@LLM_SUITE.check("failure")
async def chat_raises_a_failure_before_the_first_delta(
    make: Maker[LLMPort], options: Mapping[str, Any]
) -> None:
    port = await _failing(make, options)
    await must_raise(lambda: port.chat(**_request(options, failing=True)), "chat()")


async def check_llm_port(
    factory: Factory,
    *,
    messages: Sequence[Message] | None = None,
    model: str = "contract-model",
    failing_factory: Factory | None = None,
    failing_request: Mapping[str, Any] | None = None,
    skip: Sequence[str] = (),
) -> list[str]:
    """Run every LLMPort check on ports ``factory`` makes, each call with ``messages``/``model``.

    The two failure checks need a call that fails before the model answers:
    ``failing_factory`` makes a port whose first call fails (a double told
    to), and/or ``failing_request`` overrides the request so that it fails
    (a real adapter given ``{"model": "no-such-model"}``). Without either they
    are skipped, and their names returned.
    """
    options: dict[str, Any] = {
        "messages": messages,
        "model": model,
        "failing_factory": failing_factory,
        "failing_request": failing_request,
    }
    return await LLM_SUITE.run(factory, options, skip=skip)


class LLMPortContract(ContractTests):
    """Subclass with a ``make_port`` fixture; give ``contract_options`` (or a ``port_options`` fixture)
    with ``failing_factory`` / ``failing_request`` to run the failure checks."""

    _suite = LLM_SUITE
