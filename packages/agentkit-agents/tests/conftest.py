"""Makes this folder's shared test support importable: ``import cli_test_support``.

Tests run with ``--import-mode=importlib``, which puts no test folder on
``sys.path``, so a sibling helper module cannot be imported by name. pytest
loads this conftest before any test module in the folder; it imports
``cli_test_support.py`` once, with the folder on ``sys.path`` only for that
import, after registering it for assertion rewriting (its asserts are the
contract tests' comparisons and should report like a test's). Test modules
then ``import cli_test_support`` as usual -- mypy, which checks these files as
top-level modules, resolves the same file.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

_SUPPORT = "cli_test_support"

pytest.register_assert_rewrite(_SUPPORT)
if _SUPPORT not in sys.modules:
    _here = str(Path(__file__).parent)
    sys.path.insert(0, _here)
    try:
        importlib.import_module(_SUPPORT)
    finally:
        sys.path.remove(_here)
