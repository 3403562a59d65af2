"""agentkit-testing's top-level name, for pytest alone: no code, and nothing imports it.

pytest rewrites the top-level modules of each plugin distribution; with ``agentkit.core.testing``
below a namespace package, this is the one such module the wheel has (see "Why the
anchor" in docs/releasing.md).
"""
