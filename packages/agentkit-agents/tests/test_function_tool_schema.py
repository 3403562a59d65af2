"""FunctionTool's schema: derived from type hints and docstring, and refused when it cannot be."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, NotRequired, Optional, TypedDict

import pytest

from agentkit.agents.tools import FunctionTool, ToolDefinitionError, tool
from agentkit.agents.tools._docstring import parse_docstring


class Unit(enum.Enum):
    C = "celsius"
    F = "fahrenheit"


@dataclass
class Point:
    x: float
    y: float = 0.0
    tags: list[str] = field(default_factory=list)


class Filters(TypedDict):
    lang: str
    year: NotRequired[int]


def params(t: FunctionTool[Any, Any]) -> dict[str, Any]:
    return dict(t.schema.parameters)


def test_scalars_required_and_defaults_from_the_signature() -> None:
    def search(query: str, limit: int = 5, exact: bool = False, boost: float = 1.5) -> list[str]:
        """Search the index."""
        return []

    t = FunctionTool(search)
    assert t.name == "search"
    assert t.schema.name == "search"
    assert t.description == "Search the index." == t.schema.description
    assert params(t) == {
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "limit": {"type": "integer", "default": 5},
            "exact": {"type": "boolean", "default": False},
            "boost": {"type": "number", "default": 1.5},
        },
        "required": ["query"],
        "additionalProperties": False,
    }


def test_containers_optional_literal_enum_and_annotated() -> None:
    def f(
        words: list[str],
        pair: tuple[int, str],
        many: tuple[int, ...],
        counts: dict[str, int],
        seq: Sequence[float],
        maybe: str | None,
        old_maybe: Optional[int],  # noqa: UP045 - the old spelling is what is under test
        mode: Literal["fast", "slow"],
        unit: Unit,
        anything: Any,
        note: Annotated[str, "a short note"],
    ) -> None:
        """F."""

    props = params(FunctionTool(f))["properties"]
    assert props["words"] == {"type": "array", "items": {"type": "string"}}
    assert props["pair"] == {
        "type": "array",
        "prefixItems": [{"type": "integer"}, {"type": "string"}],
        "minItems": 2,
        "maxItems": 2,
    }
    assert props["many"] == {"type": "array", "items": {"type": "integer"}}
    assert props["counts"] == {"type": "object", "additionalProperties": {"type": "integer"}}
    assert props["seq"] == {"type": "array", "items": {"type": "number"}}
    assert props["maybe"] == {"type": ["string", "null"]}
    assert props["old_maybe"] == {"type": ["integer", "null"]}
    assert props["mode"] == {"enum": ["fast", "slow"], "type": "string"}
    assert props["unit"] == {"enum": ["celsius", "fahrenheit"], "type": "string"}
    assert props["anything"] == {}
    assert props["note"] == {"type": "string", "description": "a short note"}


def test_dataclass_and_typeddict_become_closed_objects() -> None:
    def plot(at: Point, filters: Filters, points: list[Point] | None = None) -> None:
        """Plot."""

    props = params(FunctionTool(plot))["properties"]
    point = {
        "type": "object",
        "properties": {
            "x": {"type": "number"},
            "y": {"type": "number"},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "additionalProperties": False,
        "required": ["x"],
    }
    assert props["at"] == point
    assert props["filters"] == {
        "type": "object",
        "properties": {"lang": {"type": "string"}, "year": {"type": "integer"}},
        "additionalProperties": False,
        "required": ["lang"],
    }
    assert props["points"] == {
        "anyOf": [{"type": "array", "items": point}, {"type": "null"}],
        "default": None,
    }


def test_google_docstring_gives_description_and_parameter_texts() -> None:
    def weather(city: str, unit: Unit = Unit.C) -> str:
        """Current weather for a city.

        Looks it up in the provider's live feed.

        Args:
            city: The city's name,
                e.g. "Paris".
            unit (Unit): Celsius or Fahrenheit.

        Returns:
            A sentence.
        """
        return ""

    t = FunctionTool(weather)
    assert (
        t.description == "Current weather for a city.\n\nLooks it up in the provider's live feed."
    )
    props = params(t)["properties"]
    assert props["city"]["description"] == 'The city\'s name, e.g. "Paris".'
    assert props["unit"] == {
        "enum": ["celsius", "fahrenheit"],
        "type": "string",
        "description": "Celsius or Fahrenheit.",
        "default": "celsius",
    }


def test_sphinx_and_numpy_docstrings() -> None:
    sphinx = parse_docstring(
        """Do it.

        :param str city: The city.
            Continued.
        :param limit: How many.
        :returns: nothing
        """
    )
    assert sphinx.description == "Do it."
    assert sphinx.params == {"city": "The city. Continued.", "limit": "How many."}
    numpy = parse_docstring(
        """Do it.

        Parameters
        ----------
        city : str
            The city.
        a, b : int
            Two numbers.

        Returns
        -------
        str
        """
    )
    assert numpy.description == "Do it."
    assert numpy.params == {"city": "The city.", "a": "Two numbers.", "b": "Two numbers."}
    assert parse_docstring(None).description == ""
    assert parse_docstring("").params == {}


def test_overrides_and_flags() -> None:
    @tool(
        name="lookup-word", description="Look it up.", side_effecting=True, requires_approval=True
    )
    def lookup(word: str) -> str:
        """Ignored summary."""
        return word

    assert lookup.name == "lookup-word"
    assert lookup.schema.name == "lookup-word"
    assert lookup.description == "Look it up."
    assert lookup.side_effecting
    assert lookup.requires_approval
    assert lookup.output_schema is None
    assert lookup("hi") == "hi"  # still the function
    assert repr(lookup) == "FunctionTool(lookup, name='lookup-word')"


def test_bound_method_drops_self() -> None:
    class Shelf:
        def count(self, genre: str) -> int:
            """Books of a genre."""
            return len(genre)

    t = FunctionTool(Shelf().count)
    assert t.name == "count"
    assert list(params(t)["properties"]) == ["genre"]


# -- refusals ---------------------------------------------------------------


def _refusal(fn: Any, **kw: Any) -> ToolDefinitionError:
    with pytest.raises(ToolDefinitionError) as info:
        FunctionTool(fn, **kw)
    assert isinstance(info.value, TypeError)
    return info.value


def test_a_lambda_without_hints_is_refused_naming_the_parameter() -> None:
    error = _refusal(lambda city: city)
    assert error.parameter == "city"
    assert error.function == "<lambda>"
    assert "parameter 'city' of <lambda>" in str(error)
    assert "no type annotation" in str(error)


def test_star_args_and_kwargs_are_refused() -> None:
    def f(*words: str) -> None: ...

    def g(**options: str) -> None: ...

    assert _refusal(f).parameter == "words"
    assert "*words" in str(_refusal(f))
    assert _refusal(g).parameter == "options"
    assert "**options" in str(_refusal(g))


def test_positional_only_is_refused() -> None:
    def f(x: int, /) -> None: ...

    assert _refusal(f).parameter == "x"


@pytest.mark.parametrize(
    ("annotation", "fragment"),
    [
        (set[int], "no JSON Schema counterpart"),
        (dict[int, str], "keys are strings"),
        (list[complex], "(at [item])"),
        (Literal[1.5j], "values must be"),
    ],
)
def test_unsupported_annotations_are_refused(annotation: Any, fragment: str) -> None:
    def f(value: Any) -> None: ...

    f.__annotations__["value"] = annotation
    error = _refusal(f)
    assert error.parameter == "value"
    assert fragment in str(error)


def test_a_recursive_dataclass_is_refused() -> None:
    error = _refusal(_takes_node)
    assert error.parameter == "node"
    assert "refers to itself" in str(error)


@dataclass
class _Node:
    children: list[_Node]


def _takes_node(node: _Node) -> None: ...


def test_unresolvable_annotation_is_refused() -> None:
    def f(x: Missing) -> None:  # type: ignore[name-defined]  # noqa: F821
        ...

    error = _refusal(f)
    assert error.parameter is None
    assert "do not resolve" in str(error)


def test_a_docstring_describing_a_missing_parameter_is_refused() -> None:
    def f(city: str) -> None:
        """F.

        Args:
            city: The city.
            country: Stale.
        """

    assert _refusal(f).parameter == "country"


def test_bad_name_and_flags_are_refused() -> None:
    def f(x: int) -> None: ...

    assert "tool name 'has space'" in str(_refusal(f, name="has space"))
    assert "side_effecting must be a bool" in str(_refusal(f, side_effecting=1))
    assert "output_schema must be a dict" in str(_refusal(f, output_schema=[]))
    assert "fn must be a callable" in str(_refusal(42))


def test_the_public_api_is_pinned() -> None:
    import agentkit.agents.tools as tools

    assert set(tools.__all__) == {
        "FunctionTool",
        "ToolArgumentsError",
        "ToolDefinitionError",
        "tool",
    }
    assert all(getattr(tools, name) is not None for name in tools.__all__)
