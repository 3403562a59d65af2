"""Every public value type deep-copies, pickles and reads back from its repr.

A value type is a frozen dataclass a public module of any agentkit package
exports (``__all__``). Users snapshot them (inline-snapshot, syrupy), copy
them and send them between processes (pytest-xdist), so each must survive
``copy.deepcopy`` and a pickle round trip equal to itself, and its ``repr``
must be code that builds it again: ``ToolCall(id='c1', name='t',
arguments={'a': 1})``, with the package's names in scope.

The types are found by walking the packages, so a new one is checked
without editing this file. An instance of each is built from its field
annotations with a value in every field (defaults included, so a mapping
or tuple field is not left empty); a type whose constructor refuses the
built values takes its example from ``EXAMPLES`` (and the test says so).
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
import enum
import importlib
import pathlib
import pickle
import pkgutil
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

import agentkit.agents
import agentkit.core
import agentkit.fakes
from agentkit.core._internal.arguments import ArgumentError


def _public_modules() -> list[types.ModuleType]:
    found = []
    for namespace in (agentkit.core, agentkit.fakes, agentkit.agents):
        for info in pkgutil.walk_packages(namespace.__path__, namespace.__name__ + "."):
            parts = info.name.split(".")
            if parts[-1] == "__main__" or any(p.startswith("_") for p in parts):
                continue
            found.append(importlib.import_module(info.name))
    return found


def value_types() -> dict[str, type]:
    """Every frozen dataclass a public module exports: qualified name -> class."""
    found: dict[str, type] = {}
    for module in _public_modules():
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if (
                isinstance(obj, type)
                and dataclasses.is_dataclass(obj)
                and obj.__dataclass_params__.frozen  # type: ignore[attr-defined]
            ):
                found.setdefault(f"{obj.__module__}.{obj.__qualname__}", obj)
    return found


def names_in_scope() -> dict[str, Any]:
    """What a user pasting a repr back has imported: every public name of the kit."""
    scope: dict[str, Any] = {"datetime": datetime, "PosixPath": pathlib.PosixPath}
    for module in _public_modules():
        for name in getattr(module, "__all__", ()):
            scope.setdefault(name, getattr(module, name))
    return scope


def test_every_module_of_the_kit_takes_the_stdlib_dataclass() -> None:
    # One dialect: no module (private ones included) binds a `dataclass` of its own making,
    # as agentkit.core._frozen's re-implementation of the generated methods once was.
    seen = 0
    for namespace in (agentkit.core, agentkit.fakes, agentkit.agents):
        for info in pkgutil.walk_packages(namespace.__path__, namespace.__name__ + "."):
            if info.name.endswith("__main__"):
                continue
            bound = vars(importlib.import_module(info.name)).get("dataclass")
            if bound is not None:
                seen += 1
                assert bound is dataclasses.dataclass, info.name
    assert seen > 30


# --- building an instance from the annotations -------------------------------------------


class CannotBuild(Exception):
    """No value of this annotation can be made up."""


_PLAIN: tuple[tuple[Any, Any], ...] = (
    (Any, "x"),
    (object, "x"),
    (str, "x"),
    (bool, True),
    (int, 1),
    (float, 1.5),
    (bytes, b"x"),
    (datetime.datetime, datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)),
)
"""The made-up value of each plain annotation."""


def sample(annotation: Any, owner: type) -> Any:
    """A plain, non-empty value of ``annotation``."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Literal:
        return args[0]
    if origin in (types.UnionType, typing.Union):
        return _first_option(args, owner)
    for plain, value in _PLAIN:
        if annotation is plain:
            return value
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return next(iter(annotation))
    if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
        return build(annotation)
    if isinstance(annotation, typing.TypeVar):
        bound = annotation.__bound__
        return "x" if bound is None else sample(bound, owner)
    return _collection(annotation, origin, args, owner)


def _first_option(args: tuple[Any, ...], owner: type) -> Any:
    """A value of the first option of a union that can be made (None if none can)."""
    for option in (a for a in args if a is not type(None)):
        try:
            return sample(option, owner)
        except CannotBuild:
            continue
    return None


def _collection(annotation: Any, origin: Any, args: tuple[Any, ...], owner: type) -> Any:
    """A one-item tuple, list, mapping or set of ``annotation``'s kind."""
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return (sample(args[0], owner),)
        return tuple(sample(a, owner) for a in args)
    if origin in (list, Sequence):
        return [sample(args[0], owner)] if args else ["x"]
    if origin in (dict, Mapping) or annotation in (dict, Mapping):
        value = sample(args[1], owner) if args else 1
        return {"key": value}
    if origin in (frozenset, set):
        return frozenset({sample(args[0], owner)})
    raise CannotBuild(annotation)


def _has_default(f: dataclasses.Field[Any]) -> bool:
    return f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING


def build(cls: type) -> Any:
    """An instance of ``cls`` with a made-up value in every field it takes.

    A field whose made-up value cannot be made, or is refused (an
    ``ArgumentError`` naming it), keeps its default when it has one.
    """
    # Names a module imports for its annotations only (under TYPE_CHECKING, to keep its
    # import cheap) are resolved among the kit's public names, as a user's checker does.
    hints = typing.get_type_hints(cls, localns=names_in_scope())
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        try:
            kwargs[f.name] = sample(hints[f.name], cls)
        except CannotBuild:
            if not _has_default(f):
                raise
    defaults = {f.name for f in dataclasses.fields(cls) if _has_default(f)}
    while True:
        try:
            return cls(**kwargs)
        except ArgumentError as exc:
            refused = exc.argument.split("[")[0].split(" ")[0]
            if refused not in defaults or refused not in kwargs:
                raise
            del kwargs[refused]


def example(cls: type) -> Any:
    qualified = f"{cls.__module__}.{cls.__qualname__}"
    if qualified in EXAMPLES:
        return EXAMPLES[qualified]()
    try:
        return build(cls)
    except (CannotBuild, TypeError, ValueError) as exc:
        pytest.fail(
            f"{qualified}: cannot build one from its annotations ({exc!r}); "
            f"add an example to EXAMPLES in {__name__}"
        )


def _recording() -> Any:
    from agentkit.fakes.cli import CliRun, Recording

    return Recording(
        "claude",
        ("claude", "-p", "hi"),
        CliRun(b'{"type":"result"}\n', b"warn\n", 1, ((0, b"late\n"),)),
        cli_version="2.1.0",
        env_names=("HOME",),
        stdin=((0, b"hi"),),
        notes=("made up",),
    )


def _request_builder() -> Any:
    from agentkit.agents.capabilities.request_builder import RequestBuilder

    return RequestBuilder(system_prompt="Be brief.", model="m", prompt_version="v2")


# Types whose constructors check more than their annotations say, or whose
# annotations name what this module cannot resolve.
EXAMPLES: dict[str, Callable[[], Any]] = {
    "agentkit.fakes.cli._recording._format.Recording": _recording,
    "agentkit.agents.capabilities.request_builder.RequestBuilder": _request_builder,
}

# A repr that is not code, on purpose; each is still deep-copied and pickled.
REPR_NOT_CODE = {
    "agentkit.agents.cognition.result.CliResult": (
        "counts its events instead of printing them: asyncio.run() formats its result's "
        "repr, and a long run holds thousands of events"
    ),
    "agentkit.agents.cognition.claude.result.ClaudeCliResult": "a CliResult",
    "agentkit.agents.cognition.codex.result.CodexCliResult": "a CliResult",
    "agentkit.core.middleware.RetryMiddleware": (
        "holds exception classes (retry_on), which print as <class '...'>"
    ),
}


# --- the checks -----------------------------------------------------------------------------

VALUE_TYPES = value_types()


def test_the_walk_finds_the_value_types_users_hold() -> None:
    # Not vacuous: the types named in the issue users hit are among those checked.
    for name in (
        "agentkit.core.types.ToolCall",
        "agentkit.core.types.Message",
        "agentkit.core.request.ChatRequest",
        "agentkit.fakes.llm.turn.Turn",
    ):
        assert name in VALUE_TYPES
    assert len(VALUE_TYPES) > 40


@pytest.mark.parametrize("qualified", sorted(VALUE_TYPES))
def test_a_value_deep_copies_and_pickles_equal_to_itself(qualified: str) -> None:
    value = example(VALUE_TYPES[qualified])
    assert copy.deepcopy(value) == value
    assert copy.copy(value) == value
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        assert pickle.loads(pickle.dumps(value, protocol=protocol)) == value


def test_each_repr_exemption_is_a_value_type_with_a_repr_of_its_own() -> None:
    for qualified in REPR_NOT_CODE:
        cls = VALUE_TYPES[qualified]
        assert "mappingproxy" not in repr(example(cls))


@pytest.mark.parametrize("qualified", sorted(set(VALUE_TYPES) - set(REPR_NOT_CODE)))
def test_a_value_repr_is_code_that_builds_it_again(qualified: str) -> None:
    value = example(VALUE_TYPES[qualified])
    text = repr(value)
    assert "mappingproxy" not in text
    assert eval(text, names_in_scope()) == value


def _replayed(cli: str, name: str) -> Any:
    """The result of a cognition driven over the shipped recording ``name`` of ``cli``."""
    import asyncio

    from agentkit.agents.cognition import ClaudeCliCognition, CodexCliCognition
    from agentkit.core.runtime import RunContext
    from agentkit.fakes.cli import FakeClaudeCli, FakeCodexCli, load_recording, recording_path

    run = load_recording(recording_path(cli, name)).run
    cognition: Any = (
        ClaudeCliCognition(FakeClaudeCli([run]), timeout=10)
        if cli == "claude"
        else CodexCliCognition(FakeCodexCli([run]), timeout=10)
    )
    return asyncio.run(cognition.drive(RunContext(), "Reply with: pong"))


def _shipped() -> list[tuple[str, str]]:
    from agentkit.fakes.cli import recording_names

    return [(cli, name) for cli in ("claude", "codex") for name in recording_names(cli)]


@pytest.mark.parametrize(("cli", "name"), _shipped())
def test_values_the_kit_parses_copy_and_pickle_too(cli: str, name: str) -> None:
    # A value built by a parser, not by the test: the CLI events hold the JSON they were
    # read from, and a result its error's details.
    result = _replayed(cli, name)
    assert result.events or result.error is not None  # a run with no events failed
    for event in result.events:
        assert copy.deepcopy(event) == event
        assert pickle.loads(pickle.dumps(event)) == event
        assert "mappingproxy" not in repr(event)
    again = pickle.loads(pickle.dumps(result))
    assert again.events == result.events
    assert copy.deepcopy(result).events == result.events
    if result.error is not None:
        assert again.error.details == result.error.details
