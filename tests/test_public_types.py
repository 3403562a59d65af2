"""Nothing public is typed by a private class.

A user reads a public name's signature to learn what to pass and what comes
back. A class named there that lives in a ``_private`` module, or whose own
name is private (``_NotGiven``), and that no public module exports, is one
the user can neither import to annotate their own code nor find in the API
reference (which covers public names of public modules). So
every name in the ``__all__`` of every public module is read: a function's
parameters and return, a class's constructor, its public and dunder
methods, properties and annotated attributes. Each class an annotation
names (``TYPE_CHECKING`` imports resolved from the source) must be public:
defined in a public module, or exported by one.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
import inspect
import pkgutil
import sys
import textwrap
import types
import typing
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import agentkit.agents
import agentkit.core
import agentkit.fakes

_SKIPPED_DUNDERS = frozenset({"__init__", "__new__", "__init_subclass__", "__class_getitem__"})


def is_private(module: str) -> bool:
    return any(part.startswith("_") for part in module.split("."))


def is_private_class(cls: type) -> bool:
    """Defined in a private module, or named privately (itself or a class it is nested in)."""
    return is_private(cls.__module__) or is_private(cls.__qualname__.replace(".<locals>", ""))


def kit_modules() -> list[str]:
    names = []
    for namespace in (agentkit.core, agentkit.fakes, agentkit.agents):
        for info in pkgutil.walk_packages(namespace.__path__, namespace.__name__ + "."):
            if not info.name.endswith("__main__"):
                importlib.import_module(info.name)
                names.append(info.name)
    return names


@functools.cache
def _imported_names(module: types.ModuleType) -> dict[str, tuple[str, str]]:
    """``{local name: (module, attribute)}`` for every ``from ... import``, TYPE_CHECKING too."""
    package = module.__name__ if hasattr(module, "__path__") else module.__name__.rpartition(".")[0]
    table: dict[str, tuple[str, str]] = {}
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.ImportFrom):
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            for alias in node.names:
                table[alias.asname or alias.name] = (base, alias.name)
    return table


def _resolve(name: str, module: types.ModuleType) -> object:
    if name in vars(module):
        return vars(module)[name]
    origin = _imported_names(module).get(name)
    if origin is None:
        return None  # a builtin, or a name the annotation's module does not import
    owner = importlib.import_module(origin[0])
    return getattr(owner, origin[1], None)


def classes_in(annotation: object, module: types.ModuleType) -> Iterator[type]:
    """Every class ``annotation`` names, a string one read as the module reads it."""
    if isinstance(annotation, str):
        for node in ast.walk(ast.parse(annotation, mode="eval")):
            if isinstance(node, ast.Name):
                yield from classes_in(_resolve(node.id, module), module)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                owner = _resolve(node.value.id, module)
                if isinstance(owner, types.ModuleType):
                    yield from classes_in(getattr(owner, node.attr, None), module)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield from classes_in(node.value, module)
        return
    if inspect.isclass(annotation):
        yield annotation
    for argument in typing.get_args(annotation):
        yield from classes_in(argument, module)


def _signature(function: Callable[..., object], where: str) -> Iterator[tuple[str, object]]:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # a builtin without one
        return
    for parameter in signature.parameters.values():
        if not parameter.name.startswith("_"):
            yield f"{where}({parameter.name})", parameter.annotation
    yield f"{where} ->", signature.return_annotation


def annotations_of(value: object) -> Iterator[tuple[str, object, types.ModuleType]]:
    """(where, annotation, the module it is read in) for each public annotation of ``value``."""
    if not inspect.isclass(value):
        if inspect.isfunction(value):
            module = sys.modules[value.__module__]
            for where, annotation in _signature(value, value.__qualname__):
                yield where, annotation, module
        return
    for where, annotation in _signature(value, value.__qualname__):
        init_module = getattr(value.__init__, "__module__", None) or value.__module__
        yield where, annotation, sys.modules[init_module]
    for klass in value.__mro__:
        if klass is object or klass.__module__ not in sys.modules:
            continue
        module = sys.modules[klass.__module__]
        for where, annotation in _members(klass, value.__qualname__):
            yield where, annotation, module


def _members(klass: type, owner: str) -> Iterator[tuple[str, object]]:
    """(where, annotation) for the public fields and methods ``klass`` itself defines."""
    for name, annotation in vars(klass).get("__annotations__", {}).items():
        if not name.startswith("_"):
            yield f"{owner}.{name}", annotation
    for name, member in vars(klass).items():
        dunder = name.startswith("__") and name.endswith("__")
        if (name.startswith("_") and not dunder) or name in _SKIPPED_DUNDERS:
            continue
        function = _function_of(member)
        if function is not None:
            yield from _signature(function, f"{owner}.{name}")


def _function_of(member: object) -> Callable[..., object] | None:
    """The function behind a class member (a property's getter, a static or class method)."""
    if isinstance(member, property):
        return member.fget
    if isinstance(member, staticmethod | classmethod):
        function: Callable[..., object] = member.__func__
        return function
    return member if inspect.isfunction(member) else None


def problems(modules: list[str], prefix: str) -> list[str]:
    """``public.Name where: private.Class`` for each private class a public name shows."""
    public = [name for name in modules if not is_private(name)]
    exported = {
        id(getattr(sys.modules[name], export))
        for name in public
        for export in getattr(sys.modules[name], "__all__", ())
    }
    found = set()
    for name in public:
        module = sys.modules[name]
        for export in getattr(module, "__all__", ()):
            for where, annotation, home in annotations_of(getattr(module, export)):
                for cls in classes_in(annotation, home):
                    owner = f"{cls.__module__}.{cls.__qualname__}"
                    if (
                        cls.__module__.startswith(prefix)
                        and is_private_class(cls)
                        and id(cls) not in exported
                    ):
                        found.add(f"{name}.{where}: {owner}")
    return sorted(found)


@pytest.fixture(scope="module")
def shown() -> list[str]:
    modules = kit_modules()
    assert "agentkit.fakes.cli" in modules
    return problems(modules, "agentkit.")


def test_no_public_name_is_typed_by_a_private_class(shown: list[str]) -> None:
    assert shown == []


# --- the checker itself can fail ----------------------------------------------------

_PROBE = {
    "__init__.py": "",
    "_hidden.py": """
        class Hidden: ...
        class Shown: ...
        class Base:
            def inherited(self) -> Hidden: ...
    """,
    "api.py": """
        from __future__ import annotations
        from typing import TYPE_CHECKING
        from akprobe._hidden import Base, Shown
        if TYPE_CHECKING:
            from akprobe._hidden import Hidden
        __all__ = ["Base", "Public", "Shown", "make", "clean", "default"]
        class _Marker: ...
        def default(value: int | _Marker = _Marker()) -> None: ...
        def make(count: int) -> list[Hidden]: ...
        def clean(shown: Shown | None = None) -> Shown: ...
        class Public(Base):
            @property
            def value(self) -> dict[str, Hidden]: ...
            def _private(self) -> Hidden: ...
            async def __aenter__(self) -> Hidden: ...
    """,
}


def test_the_checker_finds_a_private_class_in_a_public_signature(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "akprobe"
    package.mkdir()
    for name, source in _PROBE.items():
        (package / name).write_text(textwrap.dedent(source))
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        for name in ("akprobe", "akprobe._hidden", "akprobe.api"):
            importlib.import_module(name)
        assert problems(["akprobe", "akprobe._hidden", "akprobe.api"], "akprobe.") == [
            "akprobe.api.Base.inherited ->: akprobe._hidden.Hidden",
            "akprobe.api.Public.__aenter__ ->: akprobe._hidden.Hidden",
            "akprobe.api.Public.inherited ->: akprobe._hidden.Hidden",
            "akprobe.api.Public.value ->: akprobe._hidden.Hidden",
            "akprobe.api.default(value): akprobe.api._Marker",
            "akprobe.api.make ->: akprobe._hidden.Hidden",
        ]
    finally:
        for name in [name for name in sys.modules if name.split(".")[0] == "akprobe"]:
            del sys.modules[name]


def test_every_exported_exception_names_a_public_module() -> None:
    """A traceback prints an exception's ``__module__``: the path a user can import it from.

    ``agentkit.fakes.cli.ReplayMismatch:`` is something to search for and catch;
    ``agentkit.fakes.cli._input_check.ReplayMismatch`` is a file the user never
    imports. Each exception exported by a public module names a public one.
    """
    found = []
    for name in kit_modules():
        if is_private(name):
            continue
        module = sys.modules[name]
        for attribute in getattr(module, "__all__", ()):
            value = getattr(module, attribute, None)
            exception = isinstance(value, type) and issubclass(value, BaseException)
            if exception and is_private(value.__module__):
                found.append(f"{name}.{attribute}: {value.__module__}")
    assert sorted(set(found)) == []
