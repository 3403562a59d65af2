"""FakeLLM.script spells out its keywords: a misspelled one must not type-check."""

from agentkit.core.testing import FakeLLM, Turn

_llm: FakeLLM = FakeLLM.script([Turn("x")], fail_time=1)  # fail_times
