"""scripted_runtime spells out the CallRuntime keywords: a misspelled one must not type-check."""

from agentkit.core.pricing import CallRuntime, PriceTable
from agentkit.core.testing import Turn, scripted_runtime

_runtime: CallRuntime = scripted_runtime([Turn("x")], PriceTable(), metres=[])  # meters
