"""Every ``__slots__`` in src does what it says: instances of the class have no ``__dict__``.

Slots keep an instance to its declared attributes only when every class above
it declares slots too; under one base without them the instance gets a
``__dict__`` anyway, and the ``__slots__`` line promises what it does not do.
So every class a src module defines with ``__slots__`` is imported and
checked (``__dictoffset__`` is 0 when the instances have no ``__dict__``).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator

import agentkit.agents
import agentkit.core
import agentkit.fakes


def classes_with_slots() -> Iterator[type]:
    for namespace in (agentkit.core, agentkit.fakes, agentkit.agents):
        for info in pkgutil.walk_packages(namespace.__path__, namespace.__name__ + "."):
            if info.name.endswith("__main__"):
                continue
            module = importlib.import_module(info.name)
            for value in vars(module).values():
                if (
                    inspect.isclass(value)
                    and value.__module__ == module.__name__
                    and "__slots__" in value.__dict__
                ):
                    yield value


def has_a_dict(cls: type) -> bool:
    return cls.__dictoffset__ != 0 and "__dict__" not in cls.__slots__  # type: ignore[attr-defined]


def test_no_class_in_src_declares_slots_under_a_base_without_them() -> None:
    found = list(classes_with_slots())
    assert len(found) > 5
    assert [f"{cls.__module__}.{cls.__qualname__}" for cls in found if has_a_dict(cls)] == []


def test_the_check_sees_a_base_without_slots() -> None:
    class Base:
        pass

    class Slotted(Base):
        __slots__ = ("x",)

    class AllSlotted:
        __slots__ = ("x",)

    assert has_a_dict(Slotted)
    assert not has_a_dict(AllSlotted)
