"""REJECTED by mypy: a Ctx double with a scope and a trace but no observer."""

from __future__ import annotations

from agentkit.core.noop import NoopTrace
from agentkit.core.ports import Ctx
from agentkit.core.types import Scope


class HalfCtx:
    scope = Scope()
    trace = NoopTrace()


_ctx: Ctx = HalfCtx()
