"""The machinery every contract suite shares: checks and the runner.

A suite is a list of checks, each an async function over a factory that
makes a fresh implementation. The rule a check enforces is written once, in
its port's Protocol docstring in ``agentkit.core.ports`` (where a user reads
first), as a ``- ``check_name``: rule`` item; a check registers under that
name and takes its rule from there, so the failure a user reads and the rule
the port documents are one text, and a check with no written rule cannot
exist.
A check reports a broken rule by raising :class:`Broken` with what the
implementation did; the runner turns every broken rule into one
:class:`ContractViolation`, so a user sees all of them at once rather than
fixing one to meet the next.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError, describe
from agentkit.core.testing.contracts._bound import run_bounded
from agentkit.core.testing.contracts._errors import (
    CheckFailure,
    ContractFactoryError,
    ContractViolation,
)
from agentkit.core.verification.process_guard import RealProcessBlocked
from agentkit.core.verification.script import ScriptExhausted

__all__ = [
    "Broken",
    "Check",
    "Factory",
    "Maker",
    "Suite",
    "describe_got",
    "describe_list_of",
    "must_raise",
    "rules_of",
]

T = TypeVar("T")

Factory = Callable[[], Any]
"""A callable returning a fresh implementation, or an awaitable of one."""

CHECK_TIMEOUT = 10.0
"""A check that has not finished by then is reported as hanging, not waited for (see _bound)."""


GOT_LIMIT = 200
"""How much of a value's repr a failure's ``got`` shows: enough to see a state or a response."""

describe_got = functools.partial(describe, limit=GOT_LIMIT)
"""Core's ``describe`` (type, repr cut short, a raising ``__repr__`` survived) at the ``got`` length."""


class Broken(Exception):
    """Raised inside a check: the implementation broke the check's rule; ``got`` says how."""

    def __init__(self, got: str) -> None:
        super().__init__(got)
        self.got = got


def describe_list_of(value: object, kind: type) -> str:
    """What a value that must be a list of ``kind`` is: its type, or its first item of another.

    "returned list [...]" alone leaves the reader to spot the dict among the
    brackets; naming the item and its type says what to change.
    """
    if isinstance(value, list):
        for n, item in enumerate(value):
            if not isinstance(item, kind):
                return f"a list whose item {n} is {describe_got(item)}, not a {kind.__name__}"
    return describe_got(value)


async def must_raise(call: Callable[[], Awaitable[object]], what: str) -> None:
    """Make and await ``call()``, which the rule says must raise; a value instead is the finding.

    Any exception will do, raised by the call or by its awaitable: a port's
    rule asks for a failure the caller can catch, not for one class of it.
    """
    try:
        got = await call()
    except Exception:
        return
    raise Broken(f"{what} returned {describe_got(got)} instead of raising")


_RULE = re.compile(r"^- ``(?P<name>\w+)``: (?P<text>.+)$")


def rules_of(protocol: type) -> dict[str, str]:
    """The rules written in a Protocol's docstring: ``{check name: rule text}``.

    A rule is a ``- ``name``: text`` item; its text may go on over lines
    indented under it. Whitespace is collapsed, so the rule reads as one line
    in a failure.
    """
    rules: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in (inspect.getdoc(protocol) or "").splitlines():
        match = _RULE.match(line)
        if match:
            current = rules.setdefault(match["name"], [])
            current.append(match["text"])
        elif current is not None and line.startswith("  ") and line.strip():
            current.append(line.strip())
        else:
            current = None
    return {name: " ".join(" ".join(parts).split()) for name, parts in rules.items()}


class Maker(Generic[T]):
    """Makes fresh implementations for the checks, refusing a factory that makes the wrong kind."""

    def __init__(self, factory: Factory, port: str, required: Sequence[str]) -> None:
        if not callable(factory):
            raise ContractFactoryError(factory, port, factory, ["the factory is not callable"])
        self.factory = factory
        self.port = port
        self.required = tuple(required)

    async def __call__(self) -> T:
        made = self.factory()
        if inspect.isawaitable(made):
            made = await made
        missing = [name for name in self.required if not _has(made, name)]
        if missing:
            raise ContractFactoryError(self.factory, self.port, made, missing)
        return made  # type: ignore[no-any-return]


def _has(obj: object, name: str) -> bool:
    if name.startswith("()"):
        return callable(obj)
    return hasattr(type(obj), name) or hasattr(obj, name)


CheckFn = Callable[[Any, Mapping[str, Any]], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Check:
    """One rule of a port: ``name``, the rule's text (the function's docstring), the function."""

    name: str
    rule: str
    run: CheckFn
    needs: tuple[str, ...] = ()


class Skipped(Exception):
    """A check that needs an option the caller did not give."""


@dataclass
class Suite:
    """A port's checks, run against implementations a factory makes.

    ``protocol`` is the port whose docstring writes the rules; ``options``
    every option name the suite takes, ``required_options`` those it cannot
    run without (the function form's required keywords).
    """

    port: str
    required: tuple[str, ...]
    protocol: type
    options: tuple[str, ...] = ()
    required_options: tuple[str, ...] = ()
    checks: list[Check] = field(default_factory=list)
    prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """Derives options from the given ones (e.g. "a failure was configured")."""
    serve: Callable[[dict[str, Any]], AbstractContextManager[dict[str, Any]]] | None = None
    """Holds what the checks of one run share (a loopback server) around them."""

    def rules(self) -> dict[str, str]:
        """Every rule the port's docstring writes, by check name."""
        return rules_of(self.protocol)

    def check(self, *needs: str) -> Callable[[CheckFn], CheckFn]:
        """Register an async ``fn(make, options)`` under its name; the port's docstring has its rule."""

        def register(fn: CheckFn) -> CheckFn:
            rule = self.rules().get(fn.__name__)
            if rule is None:
                raise ValueError(
                    f"check {fn.__name__} has no rule written in the "
                    f"{self.protocol.__name__} docstring (a '- ``{fn.__name__}``: ...' item)"
                )
            self.checks.append(Check(fn.__name__, rule, fn, needs))
            return fn

        return register

    def validate(self, options: Mapping[str, Any], where: str, argument: str) -> None:
        """Refuse an option the suite does not take, or a required one not given.

        The class form gets the same refusal the function form's signature
        gives, so a misspelt key fails instead of skipping checks silently.
        """
        if not isinstance(options, Mapping):
            raise ArgumentTypeError(where, argument, "a mapping {option: value}", options)
        for key in options:
            if key not in self.options:
                import difflib  # only for a refused option: not on the import path

                close = difflib.get_close_matches(str(key), self.options, n=1)
                hint = f"did you mean {close[0]!r}?" if close else ""
                raise ArgumentValueError(
                    where,
                    f"{argument}[{key!r}]",
                    f"an option the {self.port} suite takes ({', '.join(self.options) or 'none'})",
                    key,
                    hint,
                )
        for key in self.required_options:
            if options.get(key) is None:
                raise ArgumentValueError(
                    where,
                    argument,
                    f"a mapping with the {self.port} suite's required option {key!r}",
                    dict(options),
                    f"add {key!r} to contract_options, or return it from a port_options fixture",
                )

    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.checks)

    def by_name(self, name: str) -> Check:
        for c in self.checks:
            if c.name == name:
                return c
        raise KeyError(f"{self.port} contract has no check {name!r}; it has {self.names()}")

    async def run(
        self,
        factory: Factory,
        options: Mapping[str, Any],
        *,
        only: Sequence[str] | None = None,
        skip: Sequence[str] = (),
        limit: float | None = None,
    ) -> list[str]:
        """Run the checks (``only`` those named); raise one ContractViolation for all failures.

        ``skip`` names checks not to run (a known deviation, said out loud in
        the caller's test). Returns the names of the checks skipped, for that
        or for want of an option. Each check is bounded by ``limit`` seconds
        (default :data:`CHECK_TIMEOUT`), whatever the implementation does.
        """
        for name in skip:
            self.by_name(name)  # a misspelt skip must not silently skip nothing
        options = dict(options)
        if self.prepare is not None:
            options = self.prepare(options)
        maker: Maker[Any] = Maker(factory, self.port, self.required)
        # No trial instance is made up front (a scripted double made and never used is a
        # finding of its own): the first make refuses a factory of the wrong kind, and that
        # error is raised as itself, not reported as a broken rule.
        selected = self.checks if only is None else [self.by_name(n) for n in only]
        failures: list[CheckFailure] = []
        skipped: list[str] = []
        serving = nullcontext(options) if self.serve is None else self.serve(options)
        with serving as served:
            for item in selected:
                if item.name in skip or any(served.get(need) is None for need in item.needs):
                    skipped.append(item.name)
                    continue
                got = await _run_one(item, maker, served, CHECK_TIMEOUT if limit is None else limit)
                if got is not None:
                    failures.append(CheckFailure(item.name, item.rule, got))
        if failures:
            raise ContractViolation(self.port, failures)
        return skipped


async def _run_one(
    item: Check, maker: Maker[Any], options: Mapping[str, Any], limit: float
) -> str | None:
    """Run one check, bounded whatever the implementation does; what went wrong, or None."""
    outcome = await run_bounded(lambda: item.run(maker, options), limit)
    got = outcome.hang or _what_it_raised(outcome.error)
    if outcome.left:
        behind = "it left behind " + "; ".join(outcome.left)
        got = f"{got}; {behind}" if got else behind
    return got


def _what_it_raised(error: BaseException | None) -> str | None:
    """The finding an exception out of a check is: a broken rule, or a crash with its text."""
    if error is None:
        return None
    if isinstance(error, Broken):
        return error.got
    if isinstance(error, ContractFactoryError):
        raise error  # a factory of the wrong kind is refused as itself, not as a broken rule
    if isinstance(error, asyncio.CancelledError):
        return "raised CancelledError though nothing cancelled it"
    if isinstance(error, Exception | ScriptExhausted | RealProcessBlocked):
        # The implementation crashed inside the check: that is the finding, with its text.
        return f"raised {type(error).__name__}: {error}" if str(error) else f"raised {error!r}"
    raise error  # KeyboardInterrupt, SystemExit: not a finding, the run is ending
