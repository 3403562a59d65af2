"""agentkit's agents: the tool loop, the CLI cognitions, human-in-the-loop control.

Import from the subpackages (``agentkit.agents.react``,
``agentkit.agents.cognition``, ``agentkit.agents.control``,
``agentkit.agents.capabilities``, ``agentkit.agents.tools``); this package
exports nothing itself, so importing one part never imports the others.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentkit.agents._version import __version__ as __version__
else:
    # __version__ reads the installed metadata: paid only by code that asks for it.
    from agentkit.core._internal.lazy import lazy_exports

    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "__version__": "agentkit.agents._version",
        },
        globals(),
    )

__all__: list[str] = []
