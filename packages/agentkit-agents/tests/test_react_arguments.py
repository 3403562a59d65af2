"""Wrong input to the agent-side constructors is refused at once, naming the argument.

ReactAgent, RequestBuilder, json_output and the approval types are built in a
test's setup and used much later, inside a run; a wrong argument accepted at
construction would surface as an AttributeError deep in the loop (``ReactAgent([object()])``)
or as a request a provider rejects (``temperature=nan``). Each case here is
one clearly wrong input, refused with an ArgumentTypeError/ArgumentValueError
whose ``argument`` names it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

import pytest

from agentkit.agents.capabilities import RequestBuilder
from agentkit.agents.control import ApprovalRequest, ElicitationAsker
from agentkit.agents.react import ReactAgent, SuspendedRun, json_output, schema_errors
from agentkit.agents.tools import FunctionTool, tool
from agentkit.core._internal.arguments import ArgumentError, ArgumentTypeError, ArgumentValueError
from agentkit.core.types import ToolCall
from agentkit.fakes.ctx import FakeCompactor
from agentkit.fakes.io import FakeTool


def _agent(*args: Any, **kwargs: Any) -> Callable[[], object]:
    kwargs.setdefault("model", "m")
    return lambda: ReactAgent(*args, **kwargs)


def _builder(**kwargs: Any) -> Callable[[], object]:
    kwargs.setdefault("model", "m")
    return lambda: RequestBuilder("system", **kwargs)


CASES: list[tuple[str, Callable[[], object], type[ArgumentError], str]] = [
    ("tools=[object()]", _agent([object()]), ArgumentTypeError, "tools[0]"),
    ("tools=None", _agent(None), ArgumentTypeError, "tools"),
    ("tools=FakeTool()", _agent(FakeTool()), ArgumentTypeError, "tools"),
    ("tools='abc'", _agent("abc"), ArgumentTypeError, "tools"),
    ("tools={name: tool}", _agent({"t": FakeTool()}), ArgumentTypeError, "tools"),
    (
        "tools with one name twice",
        _agent([FakeTool("t"), FakeTool("t")]),
        ArgumentValueError,
        "tools",
    ),
    ("model=1", _agent([], model=1), ArgumentTypeError, "model"),
    ("model=''", _agent([], model=""), ArgumentValueError, "model"),
    ("max_iterations=0", _agent([], max_iterations=0), ArgumentValueError, "max_iterations"),
    ("max_iterations=2.5", _agent([], max_iterations=2.5), ArgumentTypeError, "max_iterations"),
    (
        "max_iterations=nan",
        _agent([], max_iterations=math.nan),
        ArgumentTypeError,
        "max_iterations",
    ),
    ("max_iterations=True", _agent([], max_iterations=True), ArgumentTypeError, "max_iterations"),
    ("system_prompt=1", _agent([], system_prompt=1), ArgumentTypeError, "system_prompt"),
    ("request_builder=1", _agent([], request_builder=1), ArgumentTypeError, "request_builder"),
    (
        "system_prompt and request_builder",
        _agent([], system_prompt="s", request_builder=RequestBuilder("s", model="m")),
        ArgumentTypeError,
        "system_prompt",
    ),
    (
        "a builder for another model",
        _agent([], request_builder=RequestBuilder("s", model="other")),
        ArgumentValueError,
        "model",
    ),
    ("response_format=[]", _agent([], response_format=[]), ArgumentTypeError, "response_format"),
    ("output_validator=1", _agent([], output_validator=1), ArgumentTypeError, "output_validator"),
    ("RequestBuilder(grounder=1)", _builder(grounder=1), ArgumentTypeError, "grounder"),
    ("RequestBuilder(compactor='x')", _builder(compactor="x"), ArgumentTypeError, "compactor"),
    (
        "RequestBuilder(max_messages=1.5)",
        _builder(max_messages=1.5, compactor=FakeCompactor()),
        ArgumentTypeError,
        "max_messages",
    ),
    (
        "RequestBuilder(max_chars=0)",
        _builder(max_chars=0, compactor=FakeCompactor()),
        ArgumentValueError,
        "max_chars",
    ),
    (
        "RequestBuilder(temperature=nan)",
        _builder(temperature=math.nan),
        ArgumentValueError,
        "temperature",
    ),
    ("RequestBuilder(temperature=-1)", _builder(temperature=-1), ArgumentValueError, "temperature"),
    (
        "RequestBuilder(temperature='0')",
        _builder(temperature="0"),
        ArgumentTypeError,
        "temperature",
    ),
    ("RequestBuilder(max_tokens=0)", _builder(max_tokens=0), ArgumentValueError, "max_tokens"),
    ("RequestBuilder(max_tokens=1.5)", _builder(max_tokens=1.5), ArgumentTypeError, "max_tokens"),
    ("RequestBuilder(model=1)", _builder(model=1), ArgumentTypeError, "model"),
    ("json_output([])", lambda: json_output(cast(Any, [])), ArgumentTypeError, "schema"),
    ("json_output('x')", lambda: json_output(cast(Any, "x")), ArgumentTypeError, "schema"),
    (
        "ElicitationAsker(id_prefix=1)",
        lambda: ElicitationAsker(id_prefix=cast(Any, 1)),
        ArgumentTypeError,
        "id_prefix",
    ),
    (
        "ElicitationAsker(id_prefix='')",
        lambda: ElicitationAsker(id_prefix=""),
        ArgumentValueError,
        "id_prefix",
    ),
    (
        "schema_errors([], 1)",
        lambda: schema_errors(cast(Any, []), 1),
        ArgumentTypeError,
        "schema",
    ),
    (
        "SuspendedRun(iteration=0)",
        lambda: SuspendedRun("q", "m", 0, (), ToolCall("c", "t")),
        ArgumentValueError,
        "iteration",
    ),
    (
        "SuspendedRun(pending=None)",
        lambda: SuspendedRun("q", "m", 1, (), cast(Any, None)),
        ArgumentTypeError,
        "pending",
    ),
    (
        "SuspendedRun(messages=[...])",
        lambda: SuspendedRun("q", "m", 1, cast(Any, ("hi",)), ToolCall("c", "t")),
        ArgumentTypeError,
        "messages[0]",
    ),
    (
        "ApprovalRequest(id=1)",
        lambda: ApprovalRequest(cast(Any, 1), "q", ToolCall("c", "t")),
        ArgumentTypeError,
        "id",
    ),
    (
        "ApprovalRequest(question=None)",
        lambda: ApprovalRequest("a", cast(Any, None), ToolCall("c", "t")),
        ArgumentTypeError,
        "question",
    ),
    (
        "ApprovalRequest(tool_call={})",
        lambda: ApprovalRequest("a", "q", cast(Any, {})),
        ArgumentTypeError,
        "tool_call",
    ),
]


@pytest.mark.parametrize(
    ("make", "error", "argument"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_wrong_input_is_refused_naming_the_argument(
    make: Callable[[], object], error: type[ArgumentError], argument: str
) -> None:
    with pytest.raises(error) as info:
        make()
    assert info.value.argument == argument
    assert f"{argument} must be " in str(info.value)


def test_tool_called_with_a_function_and_options_keeps_the_options() -> None:
    def lookup(term: str) -> str:
        """Look a term up."""
        return term

    made = tool(lookup, name="find")  # type: ignore[call-overload]
    assert isinstance(made, FunctionTool)
    assert made.name == "find"
    assert made.schema.name == "find"
