"""The make_ctx fixture annotated MakeCtx: a misspelled keyword must not type-check."""

from agentkit.core.runtime import RunContext
from agentkit.core.testing import FakeLLM
from agentkit.core.testing.fixtures import MakeCtx

make_ctx: MakeCtx  # as a test's parameter annotation declares it

_ctx: RunContext = make_ctx(lmm=FakeLLM("hi"))
