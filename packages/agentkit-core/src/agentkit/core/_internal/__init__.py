"""Plumbing shared by agentkit's distributions: for agentkit's sibling distributions only.

Not API. Every agentkit distribution (the fakes, the testing kit, the agents)
needs the same few helpers -- the argument checks its constructors run
(:mod:`.arguments`), the lazy re-exports of its export modules (:mod:`.lazy`),
the marking and frame hiding of its deliberate failures (:mod:`.failures`) and
the one list of what a secret looks like (:mod:`.secrets`) -- and each may
depend on agentkit-core alone, so they live here. Their names, signatures and
behaviour may change in any release, without notice or deprecation; code
outside agentkit must not import them (the same promise as OpenTelemetry's
``_internal`` packages). What a user of the kit catches or calls is public
elsewhere: the argument errors in :mod:`agentkit.core.errors`.

This package imports no public core module but :mod:`agentkit.core.errors`,
and nothing of :mod:`agentkit.core.verification` (``tests/test_dependency_rules.py``).
"""
