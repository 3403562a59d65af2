"""LLM test doubles for agentkit: FakeLLM, Turn, ScriptedAdapter, scripted_runtime.

``ScriptExhausted`` is re-exported from :mod:`agentkit.core.verification.script` -- the
very same class object, so ``except ScriptExhausted`` catches every scripted
double's exhaustion whichever package it was imported from. The errors
FakeLLM raises of its own accord are in :mod:`agentkit.fakes.llm.errors`, the
call log holds :class:`agentkit.core.request.ChatRequest` objects.

Each export is one ``Name as Name`` import below (eager at the top level, lazy
under ``TYPE_CHECKING`` with its owner in the table given to
:func:`agentkit.core._internal.lazy.lazy_exports`) and one entry of ``__all__``; mypy
sees the imports and no module ``__getattr__``, so a misspelled name is a
type error.
"""

from typing import TYPE_CHECKING

from agentkit.core.verification.script import ScriptExhausted as ScriptExhausted
from agentkit.fakes.llm.fake_llm import FakeLLM as FakeLLM
from agentkit.fakes.llm.turn import Turn as Turn

if TYPE_CHECKING:
    from agentkit.fakes.llm._version import __version__ as __version__
    from agentkit.fakes.llm.adapter import ScriptedAdapter as ScriptedAdapter
    from agentkit.fakes.llm.adapter import ScriptedAdapterExhausted as ScriptedAdapterExhausted
    from agentkit.fakes.llm.adapter import scripted_runtime as scripted_runtime
else:
    # The adapter needs agentkit.core.pricing; a FakeLLM-only test should not pay for it.
    from agentkit.core._internal.lazy import lazy_exports

    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "__version__": "agentkit.fakes.llm._version",
            "ScriptedAdapter": "agentkit.fakes.llm.adapter",
            "ScriptedAdapterExhausted": "agentkit.fakes.llm.adapter",
            "scripted_runtime": "agentkit.fakes.llm.adapter",
        },
        globals(),
    )

__all__ = [
    "ScriptExhausted",
    "FakeLLM",
    "Turn",
    "ScriptedAdapter",
    "ScriptedAdapterExhausted",
    "scripted_runtime",
]
