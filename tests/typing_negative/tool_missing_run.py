"""REJECTED by mypy: a Tool double with every property but no ``run``."""

from __future__ import annotations

from typing import Any

from agentkit.core.ports import Tool
from agentkit.core.types import ToolSchema


class NoRunTool:
    name = "no_run"
    description = "forgot to implement run"
    schema = ToolSchema(name="no_run")
    side_effecting = False
    requires_approval = False
    output_schema: dict[str, Any] | None = None


_tool: Tool = NoRunTool()
