"""agentkit-fakes-ctx's version, as installed: ``agentkit.fakes.ctx.__version__``.

The one source of the number is ``version`` in the distribution's
``pyproject.toml``; this reads it back from the installed metadata rather than
repeating it, so a release changes one line. The package's ``__init__`` exports
it lazily: the metadata lookup imports ``importlib.metadata`` (and with it the
email parser), which a test that never asks for the version should not pay for.
"""

from importlib.metadata import version as _distribution_version

__all__ = ["__version__"]

__version__: str = _distribution_version("agentkit-fakes-ctx")
