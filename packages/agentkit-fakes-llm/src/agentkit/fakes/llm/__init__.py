"""LLM test doubles for agentkit: FakeLLM, Turn, ScriptedAdapter, scripted_runtime.

``ScriptExhausted`` is re-exported from :mod:`agentkit.core.script` -- the
very same class object, so ``except ScriptExhausted`` catches every scripted
double's exhaustion whichever package it was imported from. The errors
FakeLLM raises of its own accord are in :mod:`agentkit.fakes.llm.errors`, the
call log holds :class:`agentkit.core.request.ChatRequest` objects.

The adapter names are imported lazily at run time (PEP 562), but mypy sees the
plain imports under ``TYPE_CHECKING`` and no module ``__getattr__`` (it is
defined only when not type-checking), so a misspelled name is a type error.
"""

from typing import TYPE_CHECKING

from agentkit.core.lazy import lazy_exports
from agentkit.core.script import ScriptExhausted
from agentkit.fakes.llm.fake_llm import FakeLLM
from agentkit.fakes.llm.turn import Turn

if TYPE_CHECKING:
    from agentkit.fakes.llm._version import __version__ as __version__
    from agentkit.fakes.llm.adapter import (
        ScriptedAdapter,
        ScriptedAdapterExhausted,
        scripted_runtime,
    )

if not TYPE_CHECKING:
    # The adapter needs agentkit.core.pricing; a FakeLLM-only test should not pay for it.
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            **dict.fromkeys(
                ("ScriptedAdapter", "ScriptedAdapterExhausted", "scripted_runtime"),
                "agentkit.fakes.llm.adapter",
            ),
            "__version__": "agentkit.fakes.llm._version",
        },
        globals(),
    )

__all__ = [
    "FakeLLM",
    "ScriptExhausted",
    "ScriptedAdapter",
    "ScriptedAdapterExhausted",
    "Turn",
    "scripted_runtime",
]
