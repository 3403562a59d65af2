"""A one-member .tgz, laid out as an npm package tarball, for the parity tool's fetch tests."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

__all__ = ["npm_tarball"]


def npm_tarball(path: Path, member: str, payload: bytes) -> Path:
    """Write ``payload`` as ``member`` of a gzipped tarball at ``path``; return ``path``."""
    with tarfile.open(path, "w:gz") as archive:
        info = tarfile.TarInfo(member)
        info.size = len(payload)
        archive.addfile(info, io.BytesIO(payload))
    return path
