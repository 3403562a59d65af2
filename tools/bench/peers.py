"""Loading the peer libraries, which only the ``bench`` dependency group installs.

The peers are loaded by name through :func:`importlib.import_module` rather
than imported: they are not dependencies of anything in the workspace, so a
plain ``import pydantic_ai`` would make ``uv run mypy`` in the ordinary (dev)
environment fail on a module that is correctly absent there, and the same
line would type-check differently once the group is installed. Everything
taken from a peer is therefore ``Any`` on purpose; what the benchmarks
promise about the peers is checked by running them, not by mypy.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["PEER_MODULES", "PeerMissing", "missing_peers", "peer"]

PEER_MODULES = {
    "pydantic_ai": "pydantic-ai-slim",
    "langchain_core": "langchain-core",
    "pytest_httpx2": "httpx2-pytest",
}


class PeerMissing(ImportError):
    """A peer library is not installed: the bench was run without its group."""

    def __init__(self, module: str, error: ImportError) -> None:
        self.module = module
        top = module.split(".", 1)[0]
        dist = PEER_MODULES.get(top, top)
        super().__init__(
            f"cannot import {module!r} ({error}); {dist} is benchmark-only, in the root "
            "'bench' dependency group: run `uv run --group bench python -m tools.bench`"
        )


def peer(module: str) -> ModuleType:
    """Import a peer module by name, or raise :class:`PeerMissing` saying how to get it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise PeerMissing(module, exc) from exc


def missing_peers() -> list[PeerMissing]:
    """Every peer that cannot be imported, so the run can refuse before measuring anything."""
    missing: list[PeerMissing] = []
    for module in PEER_MODULES:
        try:
            peer(module)
        except PeerMissing as exc:
            missing.append(exc)
    return missing
