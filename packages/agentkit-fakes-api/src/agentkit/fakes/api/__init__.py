"""A scripted model behind the real model APIs: FakeApi.

:class:`FakeApi` serves any :class:`~agentkit.core.ports.LLMPort` -- usually a
:class:`~agentkit.fakes.llm.FakeLLM`, in any of its forms -- as the Anthropic
Messages API and the OpenAI Responses and Chat Completions APIs, on
loopback. The official SDKs, and the real claude and codex binaries, talk to
it as they would to the provider, while the test scripts the model's turns
and asserts on what the client sent. :class:`ApiError` and
:class:`BrokenStream` are the failures a brain raises to make the client see
a provider error status or a stream cut off mid-way; :class:`ApiRequest` is
the record kept of every HTTP request.
"""

from typing import TYPE_CHECKING

from agentkit.fakes.api.errors import ApiError as ApiError
from agentkit.fakes.api.errors import BrokenStream as BrokenStream
from agentkit.fakes.api.records import ApiRequest as ApiRequest
from agentkit.fakes.api.server import FakeApi as FakeApi

if TYPE_CHECKING:
    from agentkit.fakes.api._version import __version__ as __version__
else:
    # __version__ reads the installed metadata: paid only by code that asks for it.
    from agentkit.core._internal.lazy import lazy_exports

    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "__version__": "agentkit.fakes.api._version",
        },
        globals(),
    )

__all__ = [
    "ApiError",
    "BrokenStream",
    "ApiRequest",
    "FakeApi",
]
