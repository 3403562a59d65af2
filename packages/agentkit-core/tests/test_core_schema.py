"""The stdlib schema subset the loop checks tool arguments and structured output with."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import pytest

from agentkit.core.schema import schema_errors, schema_problems

WEATHER: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "days": {"type": "integer"},
        "units": {"type": "string", "enum": ["c", "f"]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "where": {
            "type": "object",
            "properties": {"lat": {"type": "number"}},
            "required": ["lat"],
        },
    },
    "required": ["city"],
    "additionalProperties": False,
}


def test_a_fitting_value_has_no_errors() -> None:
    args = {"city": "Paris", "days": 3, "units": "c", "tags": ["a"], "where": {"lat": 1}}
    assert schema_errors(WEATHER, args) == []


def test_missing_required_key_is_named() -> None:
    assert schema_errors(WEATHER, {"days": 2}) == ["missing required argument 'city'"]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ({"city": 7}, "city: expected string, got integer"),
        ({"city": "x", "days": 2.5}, "days: expected integer, got number"),
        ({"city": "x", "days": True}, "days: expected integer, got boolean"),
        ({"city": "x", "units": "k"}, "units: 'k' is not one of ['c', 'f']"),
        ({"city": "x", "tags": ["a", 1]}, "tags[1]: expected string, got integer"),
        ({"city": "x", "where": {}}, "missing required argument 'where.lat'"),
        ({"city": "x", "where": {"lat": "n"}}, "where.lat: expected number, got string"),
    ],
)
def test_each_kind_of_mistake_is_reported(args: dict[str, Any], error: str) -> None:
    assert schema_errors(WEATHER, args) == [error]


def test_a_closed_object_rejects_unknown_keys_and_lists_the_allowed() -> None:
    (error,) = schema_errors(WEATHER, {"city": "x", "colour": "red"})
    assert error.startswith("unexpected argument 'colour'")
    assert "'city'" in error


def test_an_open_object_accepts_unknown_keys_and_a_whole_number_float_is_an_integer() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    assert schema_errors(schema, {"n": 2.0, "other": 1}) == []


def test_a_non_object_where_an_object_is_expected() -> None:
    assert schema_errors({"type": "object"}, ["x"]) == ["arguments: expected object, got array"]


def test_union_types_accept_either() -> None:
    schema = {"type": ["string", "null"]}
    assert schema_errors(schema, None) == []
    assert schema_errors(schema, 1) == ["arguments: expected string or null, got integer"]


# ---------------------------------------------------------------- schema_problems


def test_a_schema_of_the_subset_has_no_problems() -> None:
    assert schema_problems(WEATHER) == []
    assert schema_problems(MappingProxyType({"type": "object"}), "parameters") == []


@pytest.mark.parametrize(
    ("schema", "problem"),
    [
        (["object"], "schema is list, not a JSON object"),
        ({"type": "dict"}, "schema has type 'dict', not one of"),
        ({"type": ["string", "str"]}, "schema has type ['string', 'str'], not one of"),
        ({"type": [["string"]]}, "schema has type [['string']], not one of"),
        ({"properties": []}, "schema.properties is list, not an object"),
        ({"properties": {"a": {"type": "int"}}}, "schema.properties.a has type 'int'"),
        ({"properties": {"a": {}}, "required": "a"}, "schema.required is 'a', not a list"),
        ({"properties": {"a": {}}, "required": ["A"]}, "names 'A', which is no property"),
        ({"items": {"type": "float"}}, "schema.items has type 'float'"),
        ({"default": {1, 2}}, "schema is not JSON-serialisable"),
    ],
)
def test_each_kind_of_schema_problem_is_named(schema: Any, problem: str) -> None:
    problems = schema_problems(schema)
    assert len(problems) == 1, problems
    assert problem in problems[0]


def test_the_two_checks_agree_that_a_whole_number_float_is_an_integer() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    assert schema_problems(schema) == []
    assert schema_errors(schema, {"n": 1.0}) == []
    assert schema_errors(schema, {"n": 1.5}) == ["n: expected integer, got number"]
