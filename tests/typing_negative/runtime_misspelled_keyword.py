"""scripted_runtime spells out the CallRuntime keywords: a misspelled one must not type-check."""

from agentkit.core.call_runtime import CallRuntime
from agentkit.core.pricing import PriceTable
from agentkit.core.testing import Turn, scripted_runtime

_runtime: CallRuntime = scripted_runtime([Turn("x")], PriceTable(), default_modle="m")
