"""agentkit-fakes-mcp's version, as installed: ``agentkit.fakes.mcp.__version__``.

Read from the installed metadata and exported lazily by the package's
``__init__``; :mod:`agentkit.core.version` says why.
"""

from importlib.metadata import version as _distribution_version

__all__ = ["__version__"]

__version__: str = _distribution_version("agentkit-fakes-mcp")
