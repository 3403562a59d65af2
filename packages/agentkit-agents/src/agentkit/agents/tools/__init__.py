"""Real tools from plain functions: :class:`FunctionTool` and the ``@tool`` decorator.

The schema a model is shown comes from the function's type hints, its
description and its parameters' descriptions from the docstring. A test
double for a tool is :class:`agentkit.fakes.io.FakeTool`; this is the real
thing a user's agent runs.
"""

from agentkit.agents.tools.errors import ToolArgumentsError as ToolArgumentsError
from agentkit.agents.tools.errors import ToolDefinitionError as ToolDefinitionError
from agentkit.agents.tools.function import FunctionTool as FunctionTool
from agentkit.agents.tools.function import tool as tool

__all__ = [
    "FunctionTool",
    "ToolArgumentsError",
    "ToolDefinitionError",
    "tool",
]
