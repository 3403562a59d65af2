"""From a type annotation to the JSON Schema a model is shown, and back to the Python value.

One walk over the annotation gives both halves of a :class:`Shape`, so the
schema the model is told and the conversion its JSON arguments get can never
disagree: ``Literal`` and enums become ``enum``, ``int``/``float`` the JSON
number types (a model's ``3.0`` for an ``int`` arrives as ``3``), lists,
tuples and string-keyed dicts become arrays and objects, ``X | None`` a
nullable type, and a dataclass or TypedDict a closed object whose fields are
walked the same way (a dataclass parameter receives an instance, built from
the model's object). Anything else -- a class the model could not construct
from JSON, a set, a callable, a recursive dataclass -- is refused by naming
where it was met, because a schema that only approximates the function's
real parameters would let the model send values the function cannot take.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping, MutableMapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NotRequired, Required, Union, get_args, get_origin

from agentkit.core.schema import schema_errors

__all__ = ["Shape", "UnsupportedAnnotation", "shape_of"]

_SIMPLE: dict[Any, str] = {str: "string", bool: "boolean", int: "integer", float: "number"}
_LIST_ORIGINS = (list, Sequence, MutableSequence)
_DICT_ORIGINS = (dict, Mapping, MutableMapping)


class UnsupportedAnnotation(Exception):
    """An annotation with no JSON Schema counterpart; ``where`` names the part at fault."""

    def __init__(self, where: str, reason: str) -> None:
        self.where = where
        self.reason = reason
        super().__init__(f"{where}: {reason}" if where else reason)


def _identity(value: Any) -> Any:
    return value


@dataclass(frozen=True, slots=True)
class Shape:
    """The schema of one annotation and the conversion of a schema-valid value to its type."""

    schema: dict[str, Any]
    convert: Callable[[Any], Any] = _identity

    def accepts(self, value: Any) -> bool:
        return not schema_errors(self.schema, value)


def _json_type(value: Any) -> str | None:
    if value is None:
        return "null"
    for kind, name in _SIMPLE.items():
        if type(value) is kind:
            return name
    return None


def _enum_schema(values: Sequence[Any], where: str) -> dict[str, Any]:
    kinds = {_json_type(v) for v in values}
    if None in kinds:
        raise UnsupportedAnnotation(
            where, f"values must be str, int, float, bool or None, got {list(values)!r}"
        )
    schema: dict[str, Any] = {"enum": list(values)}
    if len(kinds) == 1:
        schema["type"] = kinds.pop()
    return schema


def shape_of(annotation: Any, where: str = "", _seen: frozenset[type] = frozenset()) -> Shape:
    """The :class:`Shape` of ``annotation``; :class:`UnsupportedAnnotation` when it has none."""
    origin, args = get_origin(annotation), get_args(annotation)
    shape = _single_shape(annotation, origin, args, where, _seen)
    if shape is None:
        shape = _composite_shape(annotation, origin, args, where, _seen)
    if shape is None:
        raise UnsupportedAnnotation(
            where,
            f"{annotation!r} has no JSON Schema counterpart (use str, int, float, bool, None, "
            "list, tuple, dict[str, ...], Literal, an Enum, a dataclass, a TypedDict, "
            "X | None or Any)",
        )
    return shape


def _single_shape(
    annotation: Any, origin: Any, args: tuple[Any, ...], where: str, seen: frozenset[type]
) -> Shape | None:
    """The shape of a value of one kind (a scalar, an Enum, a Literal, an annotated type)."""
    if origin is Annotated:
        inner = shape_of(args[0], where, seen)
        notes = [a for a in args[1:] if isinstance(a, str)]
        if not notes:
            return inner
        return Shape({**inner.schema, "description": " ".join(notes)}, inner.convert)
    if origin is Required or origin is NotRequired:  # a TypedDict key's marker, not a type
        return shape_of(args[0], where, seen)
    if annotation is Any:
        return Shape({})
    if annotation is None or annotation is type(None):
        return Shape({"type": "null"})
    if annotation in _SIMPLE:
        return _simple(annotation)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        members = list(annotation)
        return Shape(_enum_schema([m.value for m in members], where), annotation)
    if origin is Literal:
        return Shape(_enum_schema(list(args), where))
    return None


def _composite_shape(
    annotation: Any, origin: Any, args: tuple[Any, ...], where: str, seen: frozenset[type]
) -> Shape | None:
    """The shape of a union, a container or a record (a TypedDict, a dataclass)."""
    if origin is Union or origin is types.UnionType:
        return _union(args, where, seen)
    if annotation in _LIST_ORIGINS or origin in _LIST_ORIGINS:
        item = shape_of(args[0], f"{where}[item]", seen) if args else Shape({})
        return Shape({"type": "array", "items": item.schema}, _list_of(item))
    if annotation is tuple or origin is tuple:
        return _tuple(args, where, seen)
    if annotation in _DICT_ORIGINS or origin in _DICT_ORIGINS:
        return _dict(args, where, seen)
    if isinstance(annotation, type) and typing.is_typeddict(annotation):
        return _record(annotation, where, seen, typeddict=True)
    if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
        return _record(annotation, where, seen, typeddict=False)
    return None


def _simple(kind: type) -> Shape:
    if kind is int:
        return Shape({"type": "integer"}, int)
    if kind is float:
        return Shape({"type": "number"}, float)
    return Shape({"type": _SIMPLE[kind]})


def _union(members: tuple[Any, ...], where: str, seen: frozenset[type]) -> Shape:
    shapes = [shape_of(member, where, seen) for member in members]
    plain = [s.schema.get("type") for s in shapes if set(s.schema) == {"type"}]
    if len(plain) == len(shapes) and all(isinstance(t, str) for t in plain):
        schema: dict[str, Any] = {"type": list(dict.fromkeys(plain))}
    else:
        schema = {"anyOf": [s.schema for s in shapes]}

    def convert(value: Any) -> Any:
        for shape in shapes:  # the first member the value fits, as a type checker reads it
            if shape.accepts(value):
                return shape.convert(value)
        return value

    return Shape(schema, convert)


def _list_of(item: Shape) -> Callable[[Any], Any]:
    def convert(value: Any) -> list[Any]:
        return [item.convert(v) for v in value]

    return convert


def _tuple(args: tuple[Any, ...], where: str, seen: frozenset[type]) -> Shape:
    if not args or args == ((),):
        return Shape({"type": "array"}, tuple)
    if len(args) == 2 and args[1] is Ellipsis:
        item = shape_of(args[0], f"{where}[item]", seen)

        def convert_all(value: Any) -> tuple[Any, ...]:
            return tuple(item.convert(v) for v in value)

        return Shape({"type": "array", "items": item.schema}, convert_all)
    shapes = [shape_of(arg, f"{where}[{i}]", seen) for i, arg in enumerate(args)]

    def convert_each(value: Any) -> tuple[Any, ...]:
        return tuple(shape.convert(v) for shape, v in zip(shapes, value, strict=True))

    schema = {
        "type": "array",
        "prefixItems": [s.schema for s in shapes],
        "minItems": len(shapes),
        "maxItems": len(shapes),
    }
    return Shape(schema, convert_each)


def _dict(args: tuple[Any, ...], where: str, seen: frozenset[type]) -> Shape:
    if not args:
        return Shape({"type": "object"}, dict)
    if args[0] is not str:
        raise UnsupportedAnnotation(where, f"JSON object keys are strings, not {args[0]!r}")
    value_shape = shape_of(args[1], f"{where}[value]", seen)

    def convert(value: Any) -> dict[str, Any]:
        return {key: value_shape.convert(v) for key, v in value.items()}

    return Shape({"type": "object", "additionalProperties": value_shape.schema}, convert)


def _typeddict_required(hint: Any, declared: bool) -> bool:
    """Whether a TypedDict key is required: its own marker first, then the class's ``total``.

    The marker is read from the resolved hint because a module with postponed
    annotations hides it from ``__required_keys__`` on Python 3.11.
    """
    origin = get_origin(get_args(hint)[0] if get_origin(hint) is Annotated else hint)
    if origin is NotRequired:
        return False
    if origin is Required:
        return True
    return declared


def _record(cls: type, where: str, seen: frozenset[type], *, typeddict: bool) -> Shape:
    if cls in seen:
        raise UnsupportedAnnotation(where, f"{cls.__name__} refers to itself; JSON has no cycles")
    seen = seen | {cls}
    try:
        hints = typing.get_type_hints(cls, include_extras=True)
    except (NameError, TypeError) as exc:
        raise UnsupportedAnnotation(
            where, f"cannot resolve the annotations of {cls.__name__}: {exc}"
        ) from None
    if typeddict:
        names = list(hints)
        declared = getattr(cls, "__required_keys__", frozenset(names))
        required = [n for n in names if _typeddict_required(hints[n], n in declared)]
    else:
        fields = [f for f in dataclasses.fields(cls) if f.init]
        names = [f.name for f in fields]
        required = [
            f.name
            for f in fields
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        ]
    shapes = {
        name: shape_of(hints[name], f"{where}.{name}" if where else name, seen) for name in names
    }
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {name: shape.schema for name, shape in shapes.items()},
        "additionalProperties": False,
    }
    if required:
        schema["required"] = required
    if cls.__doc__ and not (not typeddict and cls.__doc__.startswith(f"{cls.__name__}(")):
        schema["description"] = " ".join(cls.__doc__.split())

    def convert(value: Any) -> Any:
        converted = {k: shapes[k].convert(v) for k, v in value.items() if k in shapes}
        return converted if typeddict else cls(**converted)

    return Shape(schema, convert)
