"""agentkit-fakes-api's top-level name for pytest; it holds no code and nothing imports it.

WHY it ships: pytest marks for assertion rewriting the top-level modules of every
distribution with a ``pytest11`` entry point, found by reading the distribution's file
list. ``agentkit.fakes.api`` lives in a namespace package (no ``__init__.py`` above it), so
without a top-level name of the distribution's own pytest strips leading path parts
until it meets one and marks the modules it finds there (``types``, ``clock``,
``api``, ...): names of the standard library or of the user's project, already
imported, so every run warned ``PytestAssertRewriteWarning`` and a project with
``filterwarnings = ["error"]`` could not start. With this package in the wheel,
pytest marks this name alone. It must stay in the wheel for as long as the
distribution registers a pytest plugin, wherever the plugin module lives; the
release check (``python -m tools.release.check``) runs pytest under ``-W error``
against the built wheels to hold it.
"""
