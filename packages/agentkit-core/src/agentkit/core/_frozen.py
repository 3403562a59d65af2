"""``@dataclass``, built with one compile instead of up to six.

On CPython 3.11 and 3.12 ``dataclass`` writes each method it adds as source
text and compiles it with ``exec`` when the class is created: on every import,
since none of it is kept in the ``.pyc``. A frozen, slotted class gets six
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``,
``__delattr__``), about half a millisecond, and the value types and doubles
were most of what importing a double cost. Only ``__init__`` has to be source
text (its signature is the fields'); the others are the same code for every
class, so here they are closures over the field names, and the stdlib
``dataclass`` still collects the fields (``dataclasses.fields``/``replace``/
``asdict``), ``__slots__`` and ``__match_args__``. The one compile waits for
the class's first use (``_LazyInit``): importing a module of value types
compiles nothing for the ones a test never builds.

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
the class writes itself is kept, as ``dataclass`` keeps it.

Every agentkit module writes ``from agentkit.core._frozen import dataclass``
and the decorator line it would write for the stdlib. The options built here
are ``init``, ``repr``, ``eq``, ``frozen`` and ``slots``, over plain fields.
Any other option (``order``, ``unsafe_hash``, ``kw_only``, ...), or fields
this module does not write (keyword-only, ``InitVar``, a dataclass base), go
to ``dataclasses.dataclass`` unchanged, so the decorator never refuses what the stdlib accepts and never builds a class
the stdlib would build differently. Type checkers see the stdlib's decorator
itself (re-exported under ``TYPE_CHECKING``), so mypy checks the fields,
``replace`` and frozen assignment as it does for any dataclass.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, MISSING, Field, FrozenInstanceError, InitVar, fields
from dataclasses import dataclass as _stdlib_dataclass
from operator import attrgetter
from reprlib import recursive_repr
from types import MethodType
from typing import TYPE_CHECKING, Any, TypeVar

__all__ = ["dataclass"]

T = TypeVar("T")


def _dataclass(cls: type[T] | None = None, /, **options: Any) -> Any:
    """The run-time ``dataclasses.dataclass`` for agentkit's modules.

    A module imports ``dataclass`` from here; under ``TYPE_CHECKING`` this
    module re-exports the stdlib's own, so type checkers (and the docs reader)
    see ``dataclasses.dataclass`` exactly, and the decorator line stays what
    it would be for the stdlib. At run time a class of plain fields whose
    options are among ``init``, ``repr``, ``eq``, ``frozen`` and ``slots`` is
    built here with one compile; any other option (``order``, ``kw_only``,
    ``unsafe_hash``, ...) or field (``kw_only``, ``InitVar``, a dataclass
    base) goes to the stdlib's ``dataclass`` unchanged, so the
    decorator never refuses what the stdlib accepts.
    """

    def decorate(target: type[T]) -> type[T]:
        if options.keys() <= _OWN_OPTIONS.keys() and _plain(target):
            return _build(target, **{**_OWN_OPTIONS, **options})
        built: type[T] = _stdlib_dataclass(**options)(target)
        return built

    return decorate if cls is None else decorate(cls)


# The options built here, with the stdlib's defaults; any other goes to the stdlib.
_OWN_OPTIONS: dict[str, bool] = {
    "init": True,
    "repr": True,
    "eq": True,
    "frozen": False,
    "slots": False,
}

if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
else:
    dataclass = _dataclass


def _plain(cls: type[Any]) -> bool:
    """True when every field is one ``_build`` writes as the stdlib would.

    Read from the class as written, before anything is built: a dataclass
    base, a field named ``self``, a ``KW_ONLY`` marker, an ``InitVar``, or a
    ``field(kw_only=True)`` needs the stdlib's code.
    """
    if any(hasattr(base, "__dataclass_fields__") for base in cls.__mro__[1:]):
        return False
    annotations = inspect.get_annotations(cls)
    if "self" in annotations:
        return False
    for name, annotation in annotations.items():
        if _is_initvar(annotation) or _is_kw_only_marker(annotation):
            return False
        spec = cls.__dict__.get(name)
        if isinstance(spec, Field) and spec.kw_only is True:
            return False
    return True


def _is_kw_only_marker(annotation: object) -> bool:
    return annotation is KW_ONLY or (isinstance(annotation, str) and "KW_ONLY" in annotation)


def _build(cls: type[T], *, init: bool, repr: bool, eq: bool, frozen: bool, slots: bool) -> type[T]:
    """The class ``dataclass(init=..., repr=..., eq=..., frozen=..., slots=...)`` makes.

    The stdlib collects the fields and makes the slots (it compiles nothing
    with every method switched off); the methods are then set as the stdlib
    sets them: a method the class writes is kept, except ``__setattr__`` /
    ``__delattr__`` of a frozen class, which the stdlib refuses to find.
    """
    own = dict(vars(cls))  # as written: the stdlib below adds to the class
    built: type[T] = _stdlib_dataclass(init=False, repr=False, eq=False, slots=slots)(cls)
    every = fields(built)  # type: ignore[arg-type]
    _refuse_unsupported(built, every)
    # Read back as what the stdlib records: subclasses that are dataclasses check `frozen`.
    params = built.__dataclass_params__  # type: ignore[attr-defined]
    params.init, params.repr, params.eq, params.frozen = init, repr, eq, frozen
    names = tuple(f.name for f in every)
    methods: dict[str, Callable[..., Any] | _LazyInit] = {}
    if init:
        # Built even when the class writes its own: the stdlib's argument-order check runs.
        methods["__init__"] = _init(built, every, frozen=frozen, slots=slots)
    if repr:
        methods["__repr__"] = _repr([f.name for f in every if f.repr])
    if eq:
        methods["__eq__"] = _eq(_key([f.name for f in every if f.compare]))
    if frozen:
        for name in _GENERATED_ONLY:
            if name in own:
                raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
        methods["__setattr__"] = _setattr(built, frozenset(names))
        methods["__delattr__"] = _delattr(built, frozenset(names))
        if slots:  # pickling and copying a frozen slotted object need these
            methods["__getstate__"] = _getstate(names)
            methods["__setstate__"] = _setstate(names)
    for name, method in methods.items():
        if name not in own:
            if not isinstance(method, _LazyInit):
                method.__qualname__ = f"{built.__qualname__}.{name}"
            setattr(built, name, method)
    _set_hash(built, own, every, eq=eq, frozen=frozen)
    if not own.get("__doc__"):
        built.__doc__ = built.__name__ + _signature_text(
            built, every, init and "__init__" not in own
        )
    return built


def _signature_text(cls: type[Any], every: tuple[Field[Any], ...], generated: bool) -> str:
    """The constructor's signature as the stdlib writes it into a class without a docstring.

    For the ``__init__`` built here it is read off the fields, as that
    ``__init__`` will have it, so an undocumented class is not compiled to be
    documented; a constructor the class wrote is asked itself.
    """
    if not generated:
        return str(inspect.signature(cls)).replace(" -> None", "")
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    params = [
        inspect.Parameter(
            f.name,
            kind,
            annotation=f.type,
            default=_FACTORY if f.default_factory is not MISSING else f.default,
        )
        if f.default_factory is not MISSING or f.default is not MISSING
        else inspect.Parameter(f.name, kind, annotation=f.type)
        for f in every
        if f.init
    ]
    return str(inspect.Signature(params))


def _set_hash(
    cls: type[Any], own: dict[str, Any], every: tuple[Field[Any], ...], *, eq: bool, frozen: bool
) -> None:
    """``__hash__`` by the stdlib's rule (without ``unsafe_hash``).

    A hash the class writes is kept; the ``None`` Python puts in a class that
    writes only ``__eq__`` does not count as written. Otherwise ``eq`` and
    ``frozen`` add a hash of the compared fields, ``eq`` alone makes the
    objects unhashable, and no ``eq`` leaves the inherited one.
    """
    written = own.get("__hash__", MISSING)
    if written is not MISSING and not (written is None and "__eq__" in own):
        return
    if eq and frozen:
        hashed = [f.name for f in every if (f.compare if f.hash is None else f.hash)]
        method = _hash(_key(hashed))
        method.__qualname__ = f"{cls.__qualname__}.__hash__"
        cls.__hash__ = method  # type: ignore[assignment]
    elif eq:
        cls.__hash__ = None  # type: ignore[assignment]


# What dataclass(frozen=True) always writes, and refuses to find written by the class.
_GENERATED_ONLY = frozenset({"__setattr__", "__delattr__"})


def _refuse_unsupported(cls: type[Any], every: tuple[Field[Any], ...]) -> None:
    """What ``_plain`` let through must be plain: a field it misread fails here, loudly.

    ``_plain`` reads the class as written (annotations may be strings); the
    fields the stdlib collected are the truth, and a kw-only or ``InitVar``
    field among them would get a wrong ``__init__``.
    """
    plain = {f.name for f in every if not f.kw_only}
    for name, spec in cls.__dataclass_fields__.items():
        if name in plain:
            continue
        if any(f.name == name for f in every) or _is_initvar(spec.type):
            raise TypeError(
                f"{cls.__qualname__}.{name}: agentkit.core._frozen.dataclass takes plain "
                "fields only (no kw_only or InitVar); use dataclasses.dataclass"
            )


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


def _init(cls: type[Any], every: tuple[Field[Any], ...], *, frozen: bool, slots: bool) -> _LazyInit:
    """``__init__``, as dataclass writes it: the one method compiled per class.

    Its signature is the fields' (names, annotations, defaults), so it is
    source text; each field is set with ``object.__setattr__`` in a frozen
    class (its own refuses) and by assignment otherwise, a factory default is
    called per instance, then ``__post_init__``. A field outside the signature
    (``init=False``) is set as the stdlib sets it: from its factory, or from
    its default in a slotted class (elsewhere the class attribute serves).
    The text is written, and the arguments' order checked, when the class is
    created, as the stdlib does; the compile waits for the first use.
    """
    scope: dict[str, Any] = {
        "__dataclass_object__": object,
        "__dataclass_factory__": _FACTORY,
        "__dataclass_return__": None,
    }
    params: list[str] = []
    lines: list[str] = []
    seen_default = False
    for f in every:
        dflt = f"__dataclass_dflt_{f.name}__"
        if not f.init:
            if f.default_factory is not MISSING:
                scope[dflt], value = f.default_factory, f"{dflt}()"
            elif slots and f.default is not MISSING:
                scope[dflt], value = f.default, dflt
            else:
                continue
            lines.append(_assign(f.name, value, frozen=frozen))
            continue
        scope[f"__dataclass_type_{f.name}__"] = f.type
        value = f.name
        if f.default_factory is not MISSING:
            scope[f"__dataclass_dflt_{f.name}__"] = f.default_factory
            default = "=__dataclass_factory__"
            value = (
                f"__dataclass_dflt_{f.name}__() if {f.name} is __dataclass_factory__ else {f.name}"
            )
        elif f.default is not MISSING:
            scope[f"__dataclass_dflt_{f.name}__"] = f.default
            default = f"=__dataclass_dflt_{f.name}__"
        else:
            if seen_default:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
            default = ""
        seen_default = seen_default or bool(default)
        params.append(f"{f.name}:__dataclass_type_{f.name}__{default}")
        lines.append(_assign(f.name, value, frozen=frozen))
    if hasattr(cls, "__post_init__"):
        lines.append("  self.__post_init__()")
    text = (
        f"def __make__({', '.join(scope)}):\n"
        f" def __init__({', '.join(['self', *params])})->__dataclass_return__:\n"
        + ("\n".join(lines) or "  pass")
        + "\n return __init__\n"
    )
    module = sys.modules.get(cls.__module__)
    return _LazyInit(cls, text, scope, vars(module) if module is not None else {})


class _LazyInit:
    """A class's ``__init__`` until it is first looked up: then compiled, and put in its place.

    The compile is most of what creating a dataclass costs, and an import
    creates every class of a module while a test builds a few of them. Every
    way to reach the method -- calling the class, ``cls.__init__``,
    ``inspect.signature``, a subclass's ``super().__init__`` -- looks it up on
    the class, through this descriptor, which compiles the function, sets it
    on the class (so this runs once) and returns it: what anyone sees is the
    compiled function itself.
    """

    __slots__ = ("_globals", "_owner", "_scope", "_text")

    def __init__(
        self, owner: type[Any], text: str, scope: dict[str, Any], globals_: dict[str, Any]
    ):
        self._owner, self._text, self._scope, self._globals = owner, text, scope, globals_

    def __get__(self, instance: object, owner: type[Any] | None = None) -> Callable[..., None]:
        init = self.compiled()
        return init if instance is None else MethodType(init, instance)

    def compiled(self) -> Callable[..., None]:
        namespace: dict[str, Any] = {}
        # dont_inherit: this module's `from __future__ import annotations` would turn the
        # annotations into the strings "__dataclass_type_x__" instead of the fields' own.
        code = compile(self._text, "<string>", "exec", dont_inherit=True)
        exec(code, self._globals, namespace)
        init: Callable[..., None] = namespace["__make__"](**self._scope)
        init.__qualname__ = f"{self._owner.__qualname__}.__init__"
        if self._owner.__dict__.get("__init__") is self:
            self._owner.__init__ = init
        return init


def _assign(name: str, value: str, *, frozen: bool) -> str:
    """The ``__init__`` line setting one field: around a frozen class's own refusal."""
    if frozen:
        return f"  __dataclass_object__.__setattr__(self,{name!r},{value})"
    return f"  self.{name}={value}"


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
