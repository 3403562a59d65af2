"""``@dataclass(frozen=True, slots=True)``, built with one compile instead of six.

On CPython 3.11 and 3.12 ``dataclass`` writes each method it adds as source
text and compiles it with ``exec`` when the class is created: on every import,
since none of it is kept in the ``.pyc``. A frozen, slotted class gets six
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``,
``__delattr__``), about half a millisecond, and the value types were most of
what importing a double cost. Only ``__init__`` has to be source text (its
signature is the fields'); the other five are the same code for every class,
so here they are closures over the field names, and the stdlib ``dataclass``
still collects the fields (``dataclasses.fields``/``replace``/``asdict``),
``__slots__`` and ``__match_args__``.

What it builds behaves as the stdlib's (``tests/test_core_frozen.py`` holds
the two side by side): the same ``__init__`` signature, annotations, defaults
(a factory called per instance) and ``__post_init__`` call; ``__repr__`` as
``Name(field=value!r, ...)`` over the ``repr=True`` fields with the same
recursion guard; ``__eq__`` comparing the tuples of the ``compare=True``
fields of two objects of the very same class (else ``NotImplemented``);
``__hash__`` of that tuple (``hash=`` honoured); ``FrozenInstanceError`` on
assigning or deleting a field; pickling and copying through
``__getstate__``/``__setstate__``; ``__dataclass_params__`` reading
``frozen=True``, so a dataclass subclass is checked as it would be. A method
the class writes itself is kept, as ``dataclass`` keeps it. What it cannot
build the same way (keyword-only or ``init=False`` fields, ``InitVar``, a
dataclass base) it refuses, naming ``dataclasses.dataclass``.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Sequence
from dataclasses import MISSING, Field, FrozenInstanceError, InitVar, fields
from dataclasses import dataclass as _stdlib_dataclass
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, TypeVar

__all__ = ["dataclass"]

T = TypeVar("T")


def dataclass(*, frozen: bool, slots: bool) -> Callable[[type[T]], type[T]]:
    """The run-time stand-in for ``dataclasses.dataclass(frozen=True, slots=True)``.

    A module imports it in the ``else`` of ``if TYPE_CHECKING:``, with the real
    ``dataclass`` in the ``if``: type checkers see a frozen, slotted dataclass,
    exactly, and the decorator line stays ``@dataclass(frozen=True, slots=True)``.
    Any other options are refused: they would need the stdlib's own code.
    """
    if frozen is not True or slots is not True:
        raise TypeError(
            "agentkit.core._frozen.dataclass builds frozen, slotted dataclasses only: "
            f"got frozen={frozen!r}, slots={slots!r}; use dataclasses.dataclass"
        )
    return _build


def _build(cls: type[T]) -> type[T]:
    own = dict(vars(cls))  # as written: the stdlib below adds to the class
    if any(hasattr(base, "__dataclass_fields__") for base in cls.__mro__[1:]):
        raise TypeError(f"{cls.__qualname__}: a dataclass base needs dataclasses.dataclass")
    built: type[T] = _stdlib_dataclass(init=False, repr=False, eq=False, slots=True)(cls)
    every = fields(built)  # type: ignore[arg-type]
    _refuse_unsupported(built, every)
    # Read back as what dataclass(frozen=True, slots=True) records: subclasses that
    # are dataclasses check `frozen`, and the rest is what this module provides.
    params = built.__dataclass_params__  # type: ignore[attr-defined]
    params.init = params.repr = params.eq = params.frozen = True
    names = tuple(f.name for f in every)
    methods: dict[str, Callable[..., Any]] = {
        "__init__": _init(built, every),
        "__setattr__": _setattr(built, frozenset(names)),
        "__delattr__": _delattr(built, frozenset(names)),
        "__getstate__": _getstate(names),
        "__setstate__": _setstate(names),
    }
    if "__repr__" not in own:
        methods["__repr__"] = _repr([f.name for f in every if f.repr])
    if "__eq__" not in own:
        methods["__eq__"] = _eq(_key([f.name for f in every if f.compare]))
    # dataclass's rule for eq=True, frozen=True: add __hash__ unless the class wrote
    # one (the None Python puts there for a class defining only __eq__ does not count).
    if own.get("__hash__") is None:
        hashed = [f.name for f in every if (f.compare if f.hash is None else f.hash)]
        methods["__hash__"] = _hash(_key(hashed))
    for name, method in methods.items():
        if name in own and name in _GENERATED_ONLY:
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
        method.__qualname__ = f"{built.__qualname__}.{name}"
        setattr(built, name, method)
    if not own.get("__doc__"):
        built.__doc__ = built.__name__ + str(inspect.signature(built)).replace(" -> None", "")
    return built


# What dataclass(frozen=True) always writes, and refuses to find written by the class.
_GENERATED_ONLY = frozenset({"__setattr__", "__delattr__"})


def _refuse_unsupported(cls: type[Any], every: tuple[Field[Any], ...]) -> None:
    """Only plain fields: keyword-only fields, init=False and InitVar need the stdlib's code."""
    plain = {f.name for f in every if f.init and not f.kw_only}
    for name, spec in cls.__dataclass_fields__.items():
        if name in plain:
            continue
        if any(f.name == name for f in every) or _is_initvar(spec.type):
            raise TypeError(
                f"{cls.__qualname__}.{name}: agentkit.core._frozen.dataclass takes plain "
                "fields only (no kw_only, init=False or InitVar); use dataclasses.dataclass"
            )
    if "self" in plain:
        raise TypeError(f"{cls.__qualname__}: a field named 'self' needs dataclasses.dataclass")


def _is_initvar(annotation: object) -> bool:
    return (
        isinstance(annotation, InitVar)
        or annotation is InitVar
        or (isinstance(annotation, str) and "InitVar" in annotation)
    )


class _Factory:
    """The default shown for a field with a default_factory: ``<factory>``, as dataclass shows it."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _init(cls: type[Any], every: tuple[Field[Any], ...]) -> Callable[..., None]:
    """``__init__``, as dataclass(frozen=True) writes it: the one method compiled per class.

    Its signature is the fields' (names, annotations, defaults), so it is
    source text; each field is set with ``object.__setattr__`` (the class's own
    refuses), a factory default is called per instance, then ``__post_init__``.
    """
    scope: dict[str, Any] = {"_object": object, "_FACTORY": _FACTORY, "_return": None}
    params: list[str] = []
    lines: list[str] = []
    seen_default = False
    for f in every:
        scope[f"_type_{f.name}"] = f.type
        value = f.name
        if f.default_factory is not MISSING:
            scope[f"_dflt_{f.name}"] = f.default_factory
            default = "=_FACTORY"
            value = f"_dflt_{f.name}() if {f.name} is _FACTORY else {f.name}"
        elif f.default is not MISSING:
            scope[f"_dflt_{f.name}"] = f.default
            default = f"=_dflt_{f.name}"
        else:
            if seen_default:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
            default = ""
        seen_default = seen_default or bool(default)
        params.append(f"{f.name}:_type_{f.name}{default}")
        lines.append(f"  _object.__setattr__(self,{f.name!r},{value})")
    if hasattr(cls, "__post_init__"):
        lines.append("  self.__post_init__()")
    text = (
        f"def __make__({', '.join(scope)}):\n"
        f" def __init__({', '.join(['self', *params])})->_return:\n"
        + ("\n".join(lines) or "  pass")
        + "\n return __init__\n"
    )
    namespace: dict[str, Any] = {}
    module = sys.modules.get(cls.__module__)
    # dont_inherit: this module's `from __future__ import annotations` would turn the
    # annotations into the strings "_type_x" instead of the fields' own.
    code = compile(text, "<string>", "exec", dont_inherit=True)
    exec(code, vars(module) if module is not None else {}, namespace)
    init: Callable[..., None] = namespace["__make__"](**scope)
    return init


def _setattr(cls: type[Any], names: frozenset[str]) -> Callable[[Any, str, Any], None]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    return __setattr__


def _delattr(cls: type[Any], names: frozenset[str]) -> Callable[[Any, str], None]:
    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __delattr__


def _getstate(names: Sequence[str]) -> Callable[[Any], list[Any]]:
    def __getstate__(self: Any) -> list[Any]:
        return [getattr(self, name) for name in names]

    return __getstate__


def _setstate(names: Sequence[str]) -> Callable[[Any, Sequence[Any]], None]:
    def __setstate__(self: Any, state: Sequence[Any]) -> None:
        for name, value in zip(names, state, strict=False):
            object.__setattr__(self, name, value)

    return __setstate__


def _key(names: Sequence[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of an object's ``names``, as ``dataclass`` builds it: ``(obj.a, obj.b)``."""
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    many: Callable[[Any], tuple[Any, ...]] = attrgetter(*names)
    return many


def _repr(names: Sequence[str]) -> Callable[[Any], str]:
    @recursive_repr()
    def __repr__(self: Any) -> str:
        shown = ", ".join([f"{name}={getattr(self, name)!r}" for name in names])
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _eq(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, object], Any]:
    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _hash(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(key(self))

    return __hash__
