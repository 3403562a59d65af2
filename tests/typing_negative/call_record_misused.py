"""FakeLLM.calls holds typed records (ChatRequest): a misused field must not type-check."""

from agentkit.core.testing import FakeLLM

_model: int = FakeLLM("x").calls[0].model  # a str, not an int
