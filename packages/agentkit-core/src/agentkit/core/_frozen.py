"""``@dataclass(frozen=True, slots=True)``, built with fewer compiles.

On CPython 3.11 and 3.12 ``dataclass`` writes each method it adds as source
text and compiles it with ``exec`` when the class is created: on every import,
since none of it is kept in the ``.pyc``. A frozen, slotted class gets six
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``,
``__delattr__``), about half a millisecond, and the value types are most of
what importing a double costs. This ``dataclass`` leaves to the stdlib's what
depends on the field list as code (the ``__init__`` signature, the frozen
``__setattr__``/``__delattr__``, ``__slots__``, ``__match_args__``, the
fields behind ``dataclasses.fields``/``replace``/``asdict``, pickling) and
adds the three methods that are the same code for every class as closures
over the field names, built without a compile. They behave as the generated
ones: ``__repr__`` is ``Name(field=value!r, ...)`` over the ``repr=True``
fields with the same recursion guard, ``__eq__`` compares the tuples of the
``compare=True`` fields of two objects of the very same class (else
``NotImplemented``), ``__hash__`` hashes that tuple (``hash=`` honoured). A
method the class defines itself is kept, as ``dataclass`` keeps it. The one
trace of the difference is ``__dataclass_params__``, which reads
``repr=False, eq=False``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass as _stdlib_dataclass
from dataclasses import fields
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
    own = vars(cls)
    built: type[T] = _stdlib_dataclass(frozen=True, slots=True, repr=False, eq=False)(cls)
    every = fields(built)  # type: ignore[arg-type]
    methods: dict[str, Callable[..., Any]] = {}
    if "__repr__" not in own:
        methods["__repr__"] = _repr([f.name for f in every if f.repr])
    if "__eq__" not in own:
        methods["__eq__"] = _eq(_key([f.name for f in every if f.compare]))
    # dataclass's rule for eq=True, frozen=True: add __hash__ unless the class wrote
    # one (the None Python puts there for a class defining only __eq__ does not count).
    if own.get("__hash__", None) is None:
        hashed = [f.name for f in every if (f.compare if f.hash is None else f.hash)]
        methods["__hash__"] = _hash(_key(hashed))
    for name, method in methods.items():
        method.__qualname__ = f"{built.__qualname__}.{name}"
        setattr(built, name, method)
    return built


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
