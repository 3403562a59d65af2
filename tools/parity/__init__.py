"""Real-binary parity for the CLI cognitions: ``python -m tools.parity [--refresh]``.

Fetches the pinned claude and codex releases from the npm registry
(:mod:`.binaries`), serves a scripted loopback mock of the model APIs they
call (:mod:`.mock_api`), runs the real cognitions over the real binaries for
every scenario (:mod:`.scenarios`), captures each spawn, replays it through
the doubles and compares the results field by field (:mod:`.runner`,
:mod:`.compare`). ``--refresh`` rewrites the recordings agentkit-fakes-cli
ships. See ``tools/parity/README.md``.
"""
