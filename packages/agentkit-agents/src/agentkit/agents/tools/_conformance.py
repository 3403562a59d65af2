"""Static conformance: a FunctionTool, from a sync or an async function, is a Tool.

Never imported at run time; mypy --strict checks these assignments, so a
change to FunctionTool or to the Tool protocol that breaks the fit fails the
type check. The calls at the end pin that the tool is still typed as the
function it wraps.
"""

from __future__ import annotations

from agentkit.agents.tools import FunctionTool, tool
from agentkit.core.ports import Tool


def _add(a: int, b: int = 1) -> int:
    """Add two numbers."""
    return a + b


async def _fetch(url: str) -> str:
    """Fetch a page."""
    return url


@tool
def _decorated(text: str) -> str:
    return text


@tool(name="gated", requires_approval=True)
async def _decorated_with_options(text: str) -> str:
    return text


_sync: Tool = FunctionTool(_add)
_async: Tool = FunctionTool(_fetch, name="fetch")
_bare: Tool = _decorated
_configured: Tool = _decorated_with_options

_still_the_function: int = FunctionTool(_add)(2, b=3)
_still_typed: str = _decorated("x")
