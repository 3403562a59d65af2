"""Which file holds a test's recording: one file per test, always, on every file system.

The ``cli_recording`` fixture stores a test's recordings in
``recordings/<module>/`` beside the test module, so the name of a file only
has to tell the tests of one module apart -- but it must tell ALL of them
apart: two tests sharing a file means the second can never be recorded
(``once``) or the last writer wins (``all``, xdist). So the name is built
from the test's id inside its module (its class, its name, its parameter
id) in two parts:

- a readable part, for the person looking at the folder:
  ``TestParis::test_weather[New York]`` reads ``TestParis.test_weather-New-York``;
- where that part alone might not be unique -- the id held anything but
  lowercase letters, digits and ``_`` (``-`` in a parameter id), or was too
  long to use whole -- ``~`` and a short hash of the whole id.

Lowercase only, because a repository is checked out on case-insensitive
file systems too (macOS, Windows), where ``[Paris]`` and ``[paris]`` would
be one file. A readable part kept whole is decoded back to the id exactly
(``.`` separates names, which identifiers never contain; ``-`` starts the
parameter id, which names never contain), so two such names never meet,
and a hashed name never meets an unhashed one: only hashed names hold ``~``.

A test's files are ``STEM.jsonl``, ``STEM.2.jsonl``, ... one per spawn, and
``STEM@NAME.jsonl`` for a recording the test names (one per CLI). The
suffixes cannot be mistaken for a stem: a stem never ends in ``.`` and
digits, and ``@`` is in no stem. Every name stays far below the 255-byte
file-name limit of common file systems.
"""

from __future__ import annotations

import hashlib
import re

__all__ = ["MAX_NAME", "file_name", "legacy_stem", "stem_of", "valid_name"]

_READABLE = 100
"""The longest readable part kept whole; a longer one is cut and hashed."""

_HASH = 12
"""Hex digits of the hash: 48 bits, no collision among any module's tests."""

MAX_NAME = 64
"""The longest ``name=`` a test may give a recording."""

_LOSSLESS = re.compile(r"[a-z_][a-z0-9_]*(?:::[a-z_][a-z0-9_]*)*(?:\[[a-z0-9_-]+\])?")
_NAME = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_NAME}}}")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")
_OTHER = re.compile(r"[^A-Za-z0-9_-]+")


def stem_of(test_id: str) -> str:
    """The stem of the files of the test whose id inside its module is ``test_id``.

    ``test_id`` is the node id past the module: ``TestClass::test_name[param]``.
    """
    if _LOSSLESS.fullmatch(test_id) and len(test_id) <= _READABLE:
        head, bracket, param = test_id.partition("[")
        return head.replace("::", ".") + ("-" + param.removesuffix("]") if bracket else "")
    names = [_OTHER.sub("-", part).strip("-") for part in test_id.split("::")]
    readable = ".".join(name for name in names if name)[:_READABLE].rstrip(".-") or "test"
    digest = hashlib.sha256(test_id.encode("utf-8", "surrogatepass")).hexdigest()[:_HASH]
    return f"{readable}~{digest}"


def valid_name(name: str) -> bool:
    """Whether ``name`` may name a recording of a test (``STEM@NAME.jsonl``)."""
    return _NAME.fullmatch(name) is not None


def file_name(stem: str, name: str | None, spawn: int) -> str:
    """The file of the ``spawn``-th (1-based) spawn recorded under ``name`` in the test ``stem``."""
    named = f"{stem}@{name}" if name else stem
    return f"{named}.jsonl" if spawn == 1 else f"{named}.{spawn}.jsonl"


def legacy_stem(test_name: str, name: str | None) -> str:
    """The stem earlier versions of the fixture used (test name only, module-wide ``name=``).

    Only for the hint that tells a user to move such a file to its new name.
    """
    return name if name else (_UNSAFE.sub("-", test_name).strip("-") or "test")
