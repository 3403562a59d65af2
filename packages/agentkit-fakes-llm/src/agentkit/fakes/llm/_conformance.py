"""Static conformance: each double of this package, assigned to the port it stands in for.

Never executed (everything is under ``TYPE_CHECKING``); ``mypy --strict``
checking this module is the test. A double whose signature drifts from its
Protocol -- a renamed keyword, a missing default, a sync method where the port
is async -- fails type-checking here rather than in some consumer's test.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentkit.core.call_runtime import TransportAdapter
    from agentkit.core.ports import LLMPort
    from agentkit.core.pricing import PriceTable
    from agentkit.fakes.llm import FakeLLM, ScriptedAdapter, Turn, scripted_runtime

    _llm: LLMPort = FakeLLM()
    _llm_dict: LLMPort = FakeLLM({"hello": "hi"})
    _llm_rule: LLMPort = FakeLLM(lambda request: "ok")
    _llm_script: LLMPort = FakeLLM.script([Turn(content="done")])
    _llm_exercise: LLMPort = FakeLLM.exercise_tools(call_tools=["search"], output_text="done")
    _adapter: TransportAdapter = ScriptedAdapter([Turn(content="done")])
    _runtime: LLMPort = scripted_runtime([Turn(content="done")], PriceTable())
