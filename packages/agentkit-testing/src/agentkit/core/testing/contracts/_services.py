"""The Compactor, Grounder, Asker, Checkpointer and Meter contracts.

The run's services: smaller ports than the model or the network, each with
one or two promises the code that calls it leans on without checking.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from agentkit.core.noop import NullCtx
from agentkit.core.ports import Asker, Checkpointer, Compactor, Grounder, Meter
from agentkit.core.testing.contracts._base import ContractTests
from agentkit.core.testing.contracts._suite import (
    Broken,
    Factory,
    Maker,
    Suite,
    describe_got,
    describe_list_of,
)
from agentkit.core.types import Message, ToolCall, Usage

__all__ = [
    "ASKER_SUITE",
    "CHECKPOINTER_SUITE",
    "COMPACTOR_SUITE",
    "GROUNDER_SUITE",
    "METER_SUITE",
    "AskerContract",
    "CheckpointerContract",
    "CompactorContract",
    "GrounderContract",
    "MeterContract",
    "check_asker",
    "check_checkpointer",
    "check_compactor",
    "check_grounder",
    "check_meter",
]

# ----------------------------------------------------------------- Compactor

COMPACTOR_SUITE = Suite("Compactor", ("compact",), Compactor, options=("messages",))


def _transcript(options: Mapping[str, Any]) -> list[Message]:
    given = options.get("messages")
    if given is not None:
        return list(given)
    messages = [Message.system("You are a careful assistant.")]
    for n in range(6):
        messages.append(Message.user(f"question {n}: what happened at step {n}?"))
        messages.append(Message.assistant(f"answer {n}: step {n} went as planned."))
    return messages


async def _compacted(compactor: Compactor, given: Sequence[Message]) -> list[Message]:
    got = await compactor.compact(given)
    if not isinstance(got, list) or not all(isinstance(m, Message) for m in got):
        raise Broken(
            f"compact() of a {type(given).__name__} returned {describe_list_of(got, Message)}"
        )
    return got


@COMPACTOR_SUITE.check()
async def compact_returns_a_list_of_messages(
    make: Maker[Compactor], options: Mapping[str, Any]
) -> None:
    await _compacted(await make(), _transcript(options))
    await _compacted(await make(), tuple(_transcript(options)))


@COMPACTOR_SUITE.check()
async def compact_leaves_the_callers_transcript_unchanged(
    make: Maker[Compactor], options: Mapping[str, Any]
) -> None:
    given = _transcript(options)
    snapshot = list(given)
    await (await make()).compact(given)
    if given != snapshot:
        raise Broken(
            f"the caller's transcript went from {len(snapshot)} to {len(given)} messages: "
            f"{given[:2]!r}..."
        )


@COMPACTOR_SUITE.check()
async def compact_returns_a_new_list(make: Maker[Compactor], options: Mapping[str, Any]) -> None:
    given = _transcript(options)
    got = await _compacted(await make(), given)
    if got is given:
        raise Broken("compact() returned the very list it was given")


async def check_compactor(
    factory: Factory, *, messages: Sequence[Message] | None = None, skip: Sequence[str] = ()
) -> list[str]:
    """Run every Compactor check; ``messages`` is the transcript compacted (a default one
    of thirteen messages otherwise)."""
    return await COMPACTOR_SUITE.run(factory, {"messages": messages}, skip=skip)


class CompactorContract(ContractTests):
    """Subclass with a ``make_port`` fixture making a fresh compactor."""

    _suite = COMPACTOR_SUITE


# ------------------------------------------------------------------ Grounder

GROUNDER_SUITE = Suite("Grounder", ("ground",), Grounder, options=("tasks", "ctx"))

DEFAULT_TASKS = ("what is agentkit?", "a task nothing is known about: zqxj")


def _tasks(options: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(options.get("tasks") or DEFAULT_TASKS)


def _ctx(options: Mapping[str, Any]) -> Any:
    ctx = options.get("ctx")
    return NullCtx() if ctx is None else ctx


async def _block(grounder: Grounder, ctx: Any, task: str) -> str:
    got = await grounder.ground(ctx, task)
    if not isinstance(got, str):
        raise Broken(f"ground(ctx, {task!r}) returned {describe_got(got)}")
    return got


@GROUNDER_SUITE.check()
async def ground_returns_a_str(make: Maker[Grounder], options: Mapping[str, Any]) -> None:
    grounder = await make()
    for task in _tasks(options):
        await _block(grounder, _ctx(options), task)


@GROUNDER_SUITE.check()
async def concurrent_grounds_do_not_mix(make: Maker[Grounder], options: Mapping[str, Any]) -> None:
    tasks = _tasks(options)
    alone = [await _block(await make(), _ctx(options), task) for task in tasks]
    grounder = await make()
    together = await asyncio.gather(*(_block(grounder, _ctx(options), t) for t in tasks))
    for task, one, other in zip(tasks, alone, together, strict=True):
        if one != other:
            raise Broken(
                f"ground(ctx, {task!r}) gave {one[:80]!r} alone but {other[:80]!r} beside "
                "another call"
            )


async def check_grounder(
    factory: Factory,
    *,
    tasks: Sequence[str] = DEFAULT_TASKS,
    ctx: Any = None,
    skip: Sequence[str] = (),
) -> list[str]:
    """Run every Grounder check over ``tasks`` (one with something to find, one without, by
    default), each grounded with ``ctx`` (a NullCtx by default)."""
    return await GROUNDER_SUITE.run(factory, {"tasks": tuple(tasks), "ctx": ctx}, skip=skip)


class GrounderContract(ContractTests):
    """Subclass with a ``make_port`` fixture making a fresh grounder."""

    _suite = GROUNDER_SUITE


# --------------------------------------------------------------------- Asker

ASKER_SUITE = Suite("Asker", ("ask",), Asker, options=("answer",))

_CALL = ToolCall("call-1", "delete_file", {"path": "/tmp/agentkit-contract.txt"})
Answer = Callable[[Any], Awaitable[None]]


async def _asked(asker: Asker, answer: Answer | None) -> object:
    asking = asyncio.ensure_future(asker.ask("May delete_file run?", tool_call=_CALL))
    if answer is None:
        return await asking
    answering = asyncio.ensure_future(answer(asker))
    try:
        got: object = await asking
    finally:
        if not answering.done():
            answering.cancel()
        await asyncio.gather(answering, return_exceptions=True)
    return got


@ASKER_SUITE.check()
async def ask_answers_with_a_bool(make: Maker[Asker], options: Mapping[str, Any]) -> None:
    got = await _asked(await make(), options.get("answer"))
    if not isinstance(got, bool):
        raise Broken(f"ask() returned {describe_got(got)}, not True or False")


@ASKER_SUITE.check()
async def a_cancelled_ask_raises_cancelled_error(
    make: Maker[Asker], options: Mapping[str, Any]
) -> None:
    asker = await make()
    asking = asyncio.ensure_future(asker.ask("May delete_file run?", tool_call=_CALL))
    await asyncio.sleep(0)
    if not asking.cancel():
        await asking  # answered at once: nothing was waiting to cancel
        return
    try:
        got = await asking
    except asyncio.CancelledError:
        return
    raise Broken(f"the cancelled ask() returned {describe_got(got)}")


async def check_asker(
    factory: Factory, *, answer: Answer | None = None, skip: Sequence[str] = ()
) -> list[str]:
    """Run every Asker check. ``answer(asker)`` is awaited beside each ask, to answer it as a
    person would (for an asker a UI answers); an asker that decides alone needs none."""
    return await ASKER_SUITE.run(factory, {"answer": answer}, skip=skip)


class AskerContract(ContractTests):
    """Subclass with a ``make_port`` fixture (``contract_options = {"answer": ...}`` for an
    asker a person answers)."""

    _suite = ASKER_SUITE


# -------------------------------------------------------------- Checkpointer

CHECKPOINTER_SUITE = Suite("Checkpointer", ("save", "load"), Checkpointer, options=("state",))


def _state(options: Mapping[str, Any]) -> dict[str, Any]:
    given = options.get("state")
    if given is not None:
        return copy.deepcopy(dict(given))
    return {
        "step": 3,
        "messages": [{"role": "user", "content": "hello"}],
        "pending": {"call": "call-1", "args": {"path": "/tmp/x"}},
    }


async def _load(checkpointer: Checkpointer, key: str) -> Mapping[str, Any] | None:
    got = await checkpointer.load(key)
    if got is not None and not isinstance(got, Mapping):
        raise Broken(f"load({key!r}) returned {describe_got(got)}, not a mapping or None")
    return got


def _plain(value: object) -> object:
    """``value`` as JSON holds it (every mapping a dict, every sequence a list), for comparing.

    A checkpointer may hand back a read-only mapping or tuples where it was
    given dicts and lists; what matters is that JSON would read both the same.
    """
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _same(got: Mapping[str, Any] | None, want: Mapping[str, Any], what: str) -> None:
    if got is None or _plain(got) != _plain(want):
        raise Broken(f"{what} gave {describe_got(got)}, not {want!r}")


@CHECKPOINTER_SUITE.check()
async def load_of_an_unsaved_key_is_none(
    make: Maker[Checkpointer], options: Mapping[str, Any]
) -> None:
    checkpointer = await make()
    try:
        got = await _load(checkpointer, "never-saved")
    except Broken:
        raise
    except Exception as exc:
        raise Broken(f"load('never-saved') raised {describe_got(exc)}") from None
    if got is not None:
        raise Broken(f"load('never-saved') returned {describe_got(got)}")


@CHECKPOINTER_SUITE.check()
async def a_saved_state_loads_back_equal(
    make: Maker[Checkpointer], options: Mapping[str, Any]
) -> None:
    checkpointer = await make()
    state = _state(options)
    await checkpointer.save("run-1", state)
    _same(await _load(checkpointer, "run-1"), state, "load('run-1') after save")


@CHECKPOINTER_SUITE.check()
async def a_second_save_replaces_the_first(
    make: Maker[Checkpointer], options: Mapping[str, Any]
) -> None:
    checkpointer = await make()
    await checkpointer.save("run-1", {**_state(options), "first_only": True})
    second = {"step": 4, "messages": []}
    await checkpointer.save("run-1", second)
    _same(await _load(checkpointer, "run-1"), second, "load('run-1') after a second save")


@CHECKPOINTER_SUITE.check()
async def the_saved_state_cannot_be_changed_through_a_copy(
    make: Maker[Checkpointer], options: Mapping[str, Any]
) -> None:
    checkpointer = await make()
    state = _state(options)
    given = copy.deepcopy(state)
    await checkpointer.save("run-1", given)
    given["step"] = "changed by the caller"
    for value in given.values():
        if isinstance(value, list):
            value.append("appended by the caller")
    _same(await _load(checkpointer, "run-1"), state, "load() after the saved mapping changed")
    loaded = await _load(checkpointer, "run-1")
    if isinstance(loaded, dict):
        loaded["step"] = "changed through a load"
        for value in loaded.values():
            if isinstance(value, list):
                value.append("appended through a load")
    _same(await _load(checkpointer, "run-1"), state, "load() after a loaded mapping changed")


@CHECKPOINTER_SUITE.check()
async def keys_are_independent(make: Maker[Checkpointer], options: Mapping[str, Any]) -> None:
    checkpointer = await make()
    state = _state(options)
    await checkpointer.save("run-1", state)
    await checkpointer.save("run-2", {"step": 99})
    _same(await _load(checkpointer, "run-1"), state, "load('run-1') after saving 'run-2'")


async def check_checkpointer(
    factory: Factory, *, state: Mapping[str, Any] | None = None, skip: Sequence[str] = ()
) -> list[str]:
    """Run every Checkpointer check, saving ``state`` (plain JSON; a small run state by
    default)."""
    return await CHECKPOINTER_SUITE.run(factory, {"state": state}, skip=skip)


class CheckpointerContract(ContractTests):
    """Subclass with a ``make_port`` fixture making a fresh, empty checkpointer."""

    _suite = CHECKPOINTER_SUITE


# --------------------------------------------------------------------- Meter

METER_SUITE = Suite("Meter", ("record",), Meter)


@METER_SUITE.check()
async def record_returns_none(make: Maker[Meter], options: Mapping[str, Any]) -> None:
    meter: Any = await make()  # Any: the rule is about what an untyped record really returns
    got: object = meter.record(Usage(input_tokens=3, output_tokens=1), 0.25, model="m")
    if inspect.isawaitable(got):
        if inspect.iscoroutine(got):
            got.close()  # never run: that is the finding, not a second warning
        raise Broken(f"record() returned {describe_got(got)}: an awaitable nobody awaits")
    if got is not None:
        raise Broken(f"record() returned {describe_got(got)}")


@METER_SUITE.check()
async def record_takes_any_model_and_zero_charges(
    make: Maker[Meter], options: Mapping[str, Any]
) -> None:
    meter: Any = await make()
    for usage, cost, model in (
        (Usage(), 0.0, "a-model-never-seen"),
        (Usage(input_tokens=5, output_tokens=2), 0.0, "another/model:v2"),
        (Usage(), 0, "a-model-never-seen"),
    ):
        try:
            got: object = meter.record(usage, cost, model=model)
        except Exception as exc:
            raise Broken(
                f"record({usage!r}, {cost!r}, model={model!r}) raised {describe_got(exc)}"
            ) from None
        if inspect.iscoroutine(got):
            got.close()


async def check_meter(factory: Factory, *, skip: Sequence[str] = ()) -> list[str]:
    """Run every Meter check on meters ``factory`` makes."""
    return await METER_SUITE.run(factory, {}, skip=skip)


class MeterContract(ContractTests):
    """Subclass with a ``make_port`` fixture making a fresh meter."""

    _suite = METER_SUITE
