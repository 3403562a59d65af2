"""Real-binary parity for the CLI cognitions (work in progress).

So far: :mod:`tools.parity.binaries` fetches the pinned claude and codex
releases from the npm registry with ``npm pack``, checks each tarball's
sha256 against its pin, and caches the unpacked package outside the
repository. The loopback API mock, the scenarios and the runner are not
written yet.
"""
