"""agentkit-core's version, as installed.

``agentkit.core`` is a namespace package (no ``__init__.py``: other
distributions own parts of it), so its version cannot live on the package
itself; it lives here. The one source of the number is ``version`` in the
distribution's ``pyproject.toml`` -- the build backend takes no version from
anywhere else -- so this reads it back from the installed metadata rather
than repeating it, and a release changes one line. The metadata lookup costs a
few milliseconds, paid only by code that imports this module.

Every other package does the same in its own ``_version`` module, naming its
own distribution, and its ``__init__`` exports ``__version__`` lazily
(:func:`agentkit.core._internal.lazy.lazy_exports`): the lookup imports
``importlib.metadata`` (and with it the email parser), which a test that never
asks for the version should not pay for. Those modules call
``importlib.metadata.version`` directly rather than a helper here, since
importing this module would also look up agentkit-core's own version.
"""

from importlib.metadata import version as _distribution_version

__all__ = ["__version__"]

__version__: str = _distribution_version("agentkit-core")
