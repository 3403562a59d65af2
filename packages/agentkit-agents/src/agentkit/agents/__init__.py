"""agentkit's agents: the tool loop, the CLI cognitions, human-in-the-loop control.

Import from the subpackages (``agentkit.agents.react``,
``agentkit.agents.cognition``, ``agentkit.agents.control``,
``agentkit.agents.capabilities``); this package exports nothing itself, so
importing one part never imports the others.
"""

__all__: list[str] = []
