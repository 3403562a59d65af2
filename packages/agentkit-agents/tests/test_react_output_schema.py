"""json_output and schema_of_response_format: structured output checked with the core schema subset."""

from __future__ import annotations

import pytest

from agentkit.agents.react.output import json_output, schema_of_response_format


def test_json_output_parses_and_checks_the_schema() -> None:
    validate = json_output({"type": "object", "required": ["answer"]})
    assert validate('{"answer": 42}') == {"answer": 42}
    with pytest.raises(ValueError, match="not valid JSON"):
        validate("the answer is 42")
    with pytest.raises(ValueError, match="missing required argument 'answer'"):
        validate("{}")


def test_the_schema_is_found_in_each_response_format_shape() -> None:
    schema = {"type": "object", "required": ["a"]}
    openai = {"type": "json_schema", "json_schema": {"name": "x", "schema": schema}}
    assert schema_of_response_format(openai) == schema
    assert schema_of_response_format({"schema": schema}) == schema
    assert schema_of_response_format(schema) == schema
    assert schema_of_response_format({"type": "json_object"}) == {"type": "object"}
    assert schema_of_response_format({"type": "text"}) is None
