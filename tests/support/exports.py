"""The one export convention, checked: what mypy reads is what the run time exports.

Every package ``__init__`` of the workspace exports each name once: one
``from owner import Name as Name`` (eager at the top level, or under
``TYPE_CHECKING`` with its owner in the literal table handed to
:func:`agentkit.core._internal.lazy.lazy_exports`) and one entry of a literal
``__all__``. A plain ``from owner import Name`` in a facade is not an export
(mypy would not treat it as one), so :func:`assert_exports_agree` refuses an
``__all__`` name that no ``Name as Name`` import gives.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

__all__ = ["ROOT", "aliases", "assert_exports_agree", "lazy_table", "package_inits"]

ROOT = Path(__file__).resolve().parents[2]


def _is_type_checking(test: ast.expr) -> bool:
    return (getattr(test, "attr", None) or getattr(test, "id", None)) == "TYPE_CHECKING"


def aliases(statements: list[ast.stmt]) -> dict[str, str]:
    """Each ``from owner import Name as Name`` among ``statements``: name -> owner."""
    return {
        alias.name: str(node.module)
        for node in statements
        if isinstance(node, ast.ImportFrom) and node.level == 0
        for alias in node.names
        if alias.asname == alias.name
    }


def lazy_table(tree: ast.Module) -> dict[str, str]:
    """The literal table handed to ``lazy_exports`` (empty if the module calls none)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "lazy_exports":
            table = node.args[1]
            assert isinstance(table, ast.Dict)
            return {
                ast.literal_eval(key): ast.literal_eval(value)
                for key, value in zip(table.keys, table.values, strict=True)
                if key is not None
            }
    return {}


def package_inits(pattern: str) -> dict[str, Path]:
    """Every package ``__init__`` matching ``pattern`` (a glob from the root): name -> file."""
    found: dict[str, Path] = {}
    for path in sorted(ROOT.glob(pattern)):
        parts = path.parent.relative_to(ROOT).parts
        src = parts.index("src")
        found[".".join(parts[src + 1 :])] = path
    return found


def assert_exports_agree(name: str, path: Path) -> None:
    """The ``Name as Name`` imports, the lazy table and ``__all__`` of ``name`` agree.

    The lazy table names each ``TYPE_CHECKING`` import with its owner,
    ``__all__`` is every public name of the imports, once, and each export is
    its owner's very object.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    eager = aliases(tree.body)
    typed = aliases(
        [
            statement
            for node in tree.body
            if isinstance(node, ast.If) and _is_type_checking(node.test)
            for statement in node.body
        ]
    )
    assert lazy_table(tree) == typed
    module = importlib.import_module(name)
    assert sorted(module.__all__) == sorted(n for n in {*eager, *typed} if not n.startswith("__"))
    assert len(module.__all__) == len(set(module.__all__))
    assert set(module.__all__) <= set(dir(module))
    for export, owner in {**eager, **typed}.items():
        assert getattr(module, export) is getattr(importlib.import_module(owner), export), export
