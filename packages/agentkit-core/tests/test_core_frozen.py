"""agentkit.core._frozen.dataclass behaves as dataclasses.dataclass, option set by option set."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from typing import Any

import pytest

from agentkit.core import _frozen, types

FROZEN_SLOTTED: dict[str, bool] = {"frozen": True, "slots": True}


def _twins(
    body: dict[str, Any], options: dict[str, bool] = FROZEN_SLOTTED
) -> tuple[type[Any], type[Any]]:
    """The same class body built by the stdlib and by agentkit.core._frozen."""

    def make(decorate: Any) -> type[Any]:
        namespace = {"__module__": __name__, "__qualname__": "Point", **body}
        return decorate(type("Point", (), namespace))  # type: ignore[no-any-return]

    return (
        make(dataclasses.dataclass(**options)),
        make(_frozen.dataclass(**options)),
    )


BODY: dict[str, Any] = {
    "__doc__": "A point.",
    "__annotations__": {
        "x": "float",
        "y": "float",
        "tags": "tuple[str, ...]",
        "note": "str",
        "weight": "int",
        "label": "str",
    },
    "y": 0.0,
    "tags": dataclasses.field(default_factory=tuple),
    "note": dataclasses.field(default="", repr=False),
    "weight": dataclasses.field(default=1, compare=False),
    "label": dataclasses.field(default="", hash=False),
}


def _same(stdlib: type[Any], ours: type[Any], *args: Any, **kwargs: Any) -> None:
    a, b = stdlib(*args, **kwargs), ours(*args, **kwargs)
    assert repr(a) == repr(b)
    assert hash(a) == hash(b)
    assert dataclasses.astuple(a) == dataclasses.astuple(b)


def test_repr_hash_and_fields_match_the_stdlib() -> None:
    stdlib, ours = _twins(BODY)
    _same(stdlib, ours, 1.5)
    _same(stdlib, ours, 1.5, 2.0, ("a",), "hidden", 3, "l")
    _same(stdlib, ours, float("nan"), y=-0.0)
    assert [f.name for f in dataclasses.fields(ours)] == [
        f.name for f in dataclasses.fields(stdlib)
    ]
    assert str(inspect.signature(ours)) == str(inspect.signature(stdlib))
    assert ours.__match_args__ == stdlib.__match_args__
    assert ours.__slots__ == stdlib.__slots__
    assert ours.__repr__.__qualname__ == "Point.__repr__"


def test_equality_matches_the_stdlib_field_by_field() -> None:
    stdlib, ours = _twins(BODY)
    cases: list[tuple[tuple[Any, ...], tuple[Any, ...]]] = [
        ((1.0,), (1.0,)),
        ((1.0,), (2.0,)),
        ((1.0, 0.0, (), "", 1), (1.0, 0.0, (), "", 2)),  # weight is compare=False
        ((1.0, 0.0, (), "", 1, "a"), (1.0, 0.0, (), "", 1, "b")),  # label compares
        ((float("nan"),), (float("nan"),)),  # two NaN objects: unequal, as in a tuple
    ]
    for left, right in cases:
        assert (ours(*left) == ours(*right)) == (stdlib(*left) == stdlib(*right)), (left, right)
    same = float("nan")
    assert (ours(same) == ours(same)) == (stdlib(same) == stdlib(same))  # identity first
    assert ours(1.0).__eq__(stdlib(1.0)) is NotImplemented
    assert ours(1.0) != (1.0, 0.0, (), "", 1, "")


def test_frozen_pickling_copying_and_replace_match_the_stdlib() -> None:
    _, ours = _twins(BODY)
    globals()["Point"] = ours  # pickle finds the class by module and name
    try:
        point = ours(1.0, 2.0, ("t",))
        with pytest.raises(dataclasses.FrozenInstanceError):
            point.x = 3.0
        with pytest.raises(dataclasses.FrozenInstanceError):
            del point.y
        assert pickle.loads(pickle.dumps(point)) == point
        assert copy.deepcopy(point) == point
        assert dataclasses.replace(point, x=5.0) == ours(5.0, 2.0, ("t",))
        assert not hasattr(point, "__dict__")
    finally:
        del globals()["Point"]


def test_a_recursive_repr_shows_dots_as_the_stdlib_does() -> None:
    stdlib, ours = _twins({"__annotations__": {"items": "list[Any]"}})
    a, b = stdlib([]), ours([])
    a.items.append(a)
    b.items.append(b)
    assert repr(a) == repr(b) == "Point(items=[...])"


def test_methods_the_class_writes_are_kept() -> None:
    def custom_repr(self: object) -> str:
        return "mine"

    def custom_eq(self: object, other: object) -> bool:
        return True

    stdlib, ours = _twins({"__annotations__": {"x": "int"}, "__repr__": custom_repr})
    assert repr(ours(1)) == repr(stdlib(1)) == "mine"
    # A class writing __eq__ alone still gets dataclass's __hash__ (frozen, eq).
    stdlib, ours = _twins({"__annotations__": {"x": "int"}, "__eq__": custom_eq})
    assert ours(1) == ours(2)
    assert hash(ours(1)) == hash(stdlib(1)) == hash((1,))


def test_no_fields_and_one_field() -> None:
    stdlib, ours = _twins({})
    _same(stdlib, ours)
    assert ours() == ours()
    stdlib, ours = _twins({"__annotations__": {"x": "int"}})
    _same(stdlib, ours, 7)
    assert hash(ours(7)) == hash((7,))


def test_other_options_give_the_stdlib_class() -> None:
    for options in ({"frozen": False, "slots": True}, {"frozen": True}, {"eq": False}):
        a, b = _twins({"__annotations__": {"x": "int"}}, options)
        assert repr(a.__dataclass_params__) == repr(b.__dataclass_params__)
        assert ("__slots__" in vars(a)) == ("__slots__" in vars(b))
        assert a.__init__.__code__.co_filename == b.__init__.__code__.co_filename
    # The bare decorator, as `@dataclass` without parentheses, too.
    bare: Any = _frozen.dataclass(
        type("Q", (), {"__module__": __name__, "__annotations__": {"x": "int"}})
    )
    assert bare(1).x == 1
    assert not bare.__dataclass_params__.frozen


def test_the_value_types_are_frozen_slotted_dataclasses() -> None:
    for name in types.__all__:
        cls = getattr(types, name)
        if not isinstance(cls, type):
            continue
        assert dataclasses.is_dataclass(cls), name
        assert cls.__dataclass_params__.frozen, name  # type: ignore[attr-defined]
        assert "__slots__" in vars(cls), name
        assert cls.__hash__ is not None, name


def test_params_doc_and_init_annotations_match_the_stdlib() -> None:
    stdlib, ours = _twins({k: v for k, v in BODY.items() if k != "__doc__"})
    assert repr(ours.__dataclass_params__) == repr(stdlib.__dataclass_params__)
    assert ours.__doc__ == stdlib.__doc__
    assert ours.__init__.__annotations__ == stdlib.__init__.__annotations__
    # The same defaults, the factory marker shown as <factory> as the stdlib's is.
    assert repr(ours.__init__.__defaults__) == repr(stdlib.__init__.__defaults__)


def test_a_factory_default_is_called_per_instance_and_post_init_runs() -> None:
    seen: list[object] = []

    def post_init(self: Any) -> None:
        seen.append(self)

    _, ours = _twins(
        {
            "__annotations__": {"items": "list[int]"},
            "items": dataclasses.field(default_factory=list),
            "__post_init__": post_init,
        }
    )
    first, second = ours(), ours()
    assert first.items == []
    assert first.items is not second.items
    assert seen == [first, second]
    with pytest.raises(TypeError, match=r"takes from 1 to 2 positional arguments"):
        ours(1, 2)


def test_subclasses_behave_as_they_do_on_a_stdlib_dataclass() -> None:
    _, ours = _twins(BODY)
    child: type[Any] = dataclasses.dataclass(frozen=True)(
        type("Child", (ours,), {"__annotations__": {"z": "int"}, "z": 0})
    )
    made = child(1.0, z=2)
    assert (made.x, made.z) == (1.0, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.z = 3
    with pytest.raises(TypeError, match="non-frozen dataclass from a frozen one"):
        dataclasses.dataclass(type("Thawed", (ours,), {}))
    plain = type("Plain", (ours,), {})(1.0)
    plain.extra = 1  # not a field, and the subclass has a __dict__
    with pytest.raises(dataclasses.FrozenInstanceError):
        plain.x = 2.0


def test_fields_it_does_not_write_go_to_the_stdlib_and_match_it() -> None:
    bodies: list[dict[str, Any]] = [
        {"__annotations__": {"x": "int"}, "x": dataclasses.field(kw_only=True)},
        {
            "__annotations__": {"x": "int", "y": "int"},
            "y": dataclasses.field(init=False, default=0),
        },
        {"__annotations__": {"x": "dataclasses.InitVar[int]", "y": "int"}},
        {"__annotations__": {"self": "int"}},
        {"__annotations__": {"x": "int", "_": "dataclasses.KW_ONLY", "y": "int"}},
    ]
    for body in bodies:
        stdlib, ours = _twins(body)
        assert str(inspect.signature(ours)) == str(inspect.signature(stdlib))
        assert ours.__init__.__code__.co_filename == stdlib.__init__.__code__.co_filename
        assert [f.name for f in dataclasses.fields(ours)] == [
            f.name for f in dataclasses.fields(stdlib)
        ]
    stdlib, ours = _twins(bodies[0])
    assert repr(ours(x=1)) == repr(stdlib(x=1))
    with pytest.raises(TypeError):
        ours(1)
    base, _ = _twins(BODY)
    child: Any = _frozen.dataclass(frozen=True, slots=True)(
        type("Child", (base,), {"__module__": __name__, "__annotations__": {"z": "int"}, "z": 0})
    )
    assert repr(child(1.0, z=2)).startswith("Child(x=1.0, y=0.0")


def test_a_non_default_field_after_a_default_is_refused_as_the_stdlib_refuses_it() -> None:
    build = _frozen.dataclass(frozen=True, slots=True)
    with pytest.raises(TypeError, match="non-default argument 'y' follows default argument"):
        build(type("Odd", (), {"__annotations__": {"x": "int", "y": "int"}, "x": 0}))


OPTION_SETS: list[dict[str, bool]] = [
    {},
    {"eq": False},
    {"repr": False},
    {"frozen": True},
    {"slots": True},
    {"frozen": True, "eq": False},
    {"frozen": True, "slots": True, "eq": False},
    {"frozen": False, "slots": True, "repr": False},
]


def _behaviour(cls: type[Any]) -> dict[str, Any]:
    """What a user can see of a dataclass built with ``cls``'s options."""
    a, b = cls(1.5, 2.0, ("t",)), cls(1.5, 2.0, ("t",))
    seen: dict[str, Any] = {
        "repr": repr(a).replace(hex(id(a)), "ID"),
        "eq": (a == b, a != b, a == cls(0.0)),
        "params": repr(cls.__dataclass_params__),
        "signature": str(inspect.signature(cls)),
        "doc": cls.__doc__,
        "slots": "__slots__" in vars(cls),
        "match_args": cls.__match_args__,
        "hashable": cls.__hash__ is not None,
        "fields": [f.name for f in dataclasses.fields(cls)],
        "astuple": dataclasses.astuple(a),
        "copy": dataclasses.astuple(copy.deepcopy(a)),
        "copy_shallow": dataclasses.astuple(copy.copy(a)),
        "pickle_state": a.__reduce_ex__(4)[2],
    }
    if seen["hashable"]:
        try:
            seen["hash_equal"] = hash(a) == hash(b)
        except TypeError as error:  # a hash over a list field fails on both
            seen["hash_equal"] = str(error)
    try:
        a.x = 9.0
        seen["assign"] = a.x
    except dataclasses.FrozenInstanceError:
        seen["assign"] = "frozen"
    try:
        a.unknown = 1
        seen["assign_new"] = "ok"
    except (AttributeError, dataclasses.FrozenInstanceError, TypeError):
        # Refused either way; how differs: CPython 3.11's frozen slotted class
        # raises TypeError here (its __setattr__ names the class before slots).
        seen["assign_new"] = "refused"
    return seen


UNSET: dict[str, Any] = {
    "__annotations__": {"kept": "list[int]", "count": "int"},
    "kept": dataclasses.field(default_factory=list, init=False),
    "count": dataclasses.field(default=0, init=False, repr=False),
}


@pytest.mark.parametrize("options", OPTION_SETS, ids=repr)
@pytest.mark.parametrize("unset", [False, True], ids=["plain", "with-init-false-fields"])
def test_every_option_set_it_builds_behaves_as_the_stdlib(
    options: dict[str, bool], unset: bool
) -> None:
    body = {k: v for k, v in BODY.items() if k != "__doc__"}
    if unset:
        annotations = {**body["__annotations__"], **UNSET["__annotations__"]}
        body = {**body, **UNSET, "__annotations__": annotations}
    stdlib, ours = _twins(body, options)
    assert _behaviour(ours) == _behaviour(stdlib)
    assert set(vars(ours)) == set(vars(stdlib))
    if unset:
        a, b = stdlib(1.0), ours(1.0)
        assert (a.kept, a.count) == (b.kept, b.count) == ([], 0)
        assert ours(1.0).kept is not b.kept
    # A field outside __init__ with no default is left unset by both.
    body = {"__annotations__": {"x": "int", "bare": "int"}, "bare": dataclasses.field(init=False)}
    stdlib, ours = _twins(body, options)
    assert not hasattr(stdlib(1), "bare")
    assert not hasattr(ours(1), "bare")


@pytest.mark.parametrize("options", [{}, FROZEN_SLOTTED, {"eq": False}], ids=repr)
def test_methods_the_class_writes_and_the_hash_rule_match_the_stdlib(
    options: dict[str, bool],
) -> None:
    def own_init(self: Any, x: int) -> None:
        object.__setattr__(self, "x", x * 10)

    def own_eq(self: Any, other: object) -> bool:
        return True

    for body in (
        {"__annotations__": {"x": "int"}, "__init__": own_init},
        {"__annotations__": {"x": "int"}, "__eq__": own_eq},
        {"__annotations__": {"x": "int"}, "__hash__": None},
        {"__annotations__": {"x": "int"}, "__hash__": lambda self: 7},
    ):
        stdlib, ours = _twins(body, options)
        assert (ours.__hash__ is None) == (stdlib.__hash__ is None), body
        assert repr(ours(3)) == repr(stdlib(3)), body
        assert (ours(3) == ours(4)) == (stdlib(3) == stdlib(4)), body
        if ours.__hash__ is not None:
            assert hash(ours(3)) == hash(stdlib(3)) or "__hash__" not in body, body
    with pytest.raises(TypeError, match="Cannot overwrite attribute __setattr__"):
        _frozen.dataclass(frozen=True)(
            type("W", (), {"__annotations__": {"x": "int"}, "__setattr__": object.__setattr__})
        )


def test_init_is_compiled_on_first_use_and_is_then_the_function_itself() -> None:
    stdlib, ours = _twins(BODY)
    # Created but not used: nothing compiled yet.
    assert not inspect.isfunction(vars(ours)["__init__"])
    # Any lookup compiles it once and puts the function itself on the class.
    assert str(inspect.signature(ours)) == str(inspect.signature(stdlib))
    assert inspect.isfunction(vars(ours)["__init__"])
    assert ours.__init__ is vars(ours)["__init__"]
    assert ours.__init__.__qualname__ == "Point.__init__"
    # A class without a docstring is documented from its fields, not compiled for it.
    stdlib, ours = _twins({k: v for k, v in BODY.items() if k != "__doc__"})
    assert not inspect.isfunction(vars(ours)["__init__"])
    assert ours.__doc__ == stdlib.__doc__


def test_a_subclass_built_first_compiles_the_base_init() -> None:
    _, ours = _twins(BODY)
    calls: list[float] = []

    def sub_init(self: Any, x: float) -> None:
        calls.append(x)
        super(sub, self).__init__(x)

    sub: Any = type("Sub", (ours,), {"__init__": sub_init})
    plain: Any = type("Plain", (ours,), {})
    assert repr(plain(2.0)) == repr(ours(2.0)).replace("Point", "Plain")
    assert repr(sub(1.0)) == repr(ours(1.0)).replace("Point", "Sub")
    assert calls == [1.0]
    assert inspect.isfunction(vars(ours)["__init__"])
