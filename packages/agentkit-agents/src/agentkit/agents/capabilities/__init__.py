"""Capabilities a loop composes: building each model call's request."""

from agentkit.agents.capabilities.request_builder import PROMPT_VERSION_ATTR as PROMPT_VERSION_ATTR
from agentkit.agents.capabilities.request_builder import RequestBuilder as RequestBuilder

__all__ = [
    "PROMPT_VERSION_ATTR",
    "RequestBuilder",
]
