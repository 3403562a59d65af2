"""Real-binary parity for the CLI cognitions: ``python -m tools.parity [--refresh]``.

Fetches the pinned claude and codex releases from the npm registry
(:mod:`.binaries`), serves each scenario's scripted model as the APIs they
call (:class:`agentkit.fakes.api.FakeApi`, on loopback), runs the real cognitions over the real binaries for
every scenario (:mod:`.scenarios`), captures each spawn, replays it through
the doubles and compares the results field by field (:mod:`.runner`,
:mod:`.compare`). ``--refresh`` rewrites the recordings agentkit-fakes-cli
ships. See ``tools/parity/README.md``.
"""
