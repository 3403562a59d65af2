"""No module of the kit shows mypy a module-level ``__getattr__``.

A module ``__getattr__`` (PEP 562) is how the packages keep their imports
lazy, but mypy types every attribute such a module does not define as the
``__getattr__``'s return type -- ``Any`` -- so ``from agentkit.core.testing
import FakeLMM`` would type-check. The packages therefore define it only
where mypy does not look (under ``if not TYPE_CHECKING:`` or in the ``else``
of ``if TYPE_CHECKING:``) and import the real names under ``TYPE_CHECKING``.
tests/typing_negative shows mypy rejecting a misspelled name for two of them;
this reads every module of every package, so a new lazy module cannot forget.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(ROOT.glob("packages/*/src/**/*.py"))


def _is_type_checking(test: ast.expr) -> bool:
    name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", None)
    return name == "TYPE_CHECKING"


def _binds_getattr(statement: ast.stmt) -> bool:
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
        return statement.name == "__getattr__"
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets = statement.targets
    elif isinstance(statement, ast.AnnAssign | ast.AugAssign):
        targets = [statement.target]
    names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    return "__getattr__" in names


def visible_getattr_lines(tree: ast.Module) -> list[int]:
    """Lines binding a module-level ``__getattr__`` on a branch mypy analyses."""
    found: list[int] = []

    def visit(body: list[ast.stmt]) -> None:
        for statement in body:
            if isinstance(statement, ast.If):
                test = statement.test
                if _is_type_checking(test):  # if TYPE_CHECKING: <seen> else: <hidden>
                    visit(statement.body)
                    continue
                if (
                    isinstance(test, ast.UnaryOp)
                    and isinstance(test.op, ast.Not)
                    and _is_type_checking(test.operand)
                ):  # if not TYPE_CHECKING: <hidden> else: <seen>
                    visit(statement.orelse)
                    continue
                visit(statement.body)
                visit(statement.orelse)
            elif isinstance(statement, ast.Try):
                for block in (statement.body, statement.orelse, statement.finalbody):
                    visit(block)
                for handler in statement.handlers:
                    visit(handler.body)
            elif _binds_getattr(statement):
                found.append(statement.lineno)

    visit(tree.body)
    return found


def test_there_are_modules_to_read() -> None:
    assert len(MODULES) > 50


@pytest.mark.parametrize("path", MODULES, ids=[p.relative_to(ROOT).as_posix() for p in MODULES])
def test_no_module_getattr_is_visible_to_mypy(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert visible_getattr_lines(tree) == [], (
        f"{path.relative_to(ROOT)} defines a module __getattr__ mypy can see: every misspelled "
        "name imported from it would be Any. Define it under `if not TYPE_CHECKING:` and import "
        "the names under `if TYPE_CHECKING:`."
    )


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        ("def __getattr__(name): ...\n", [1]),
        ("__getattr__, __dir__ = make()\n", [1]),
        ("if TYPE_CHECKING:\n    def __getattr__(name): ...\n", [2]),
        ("if not TYPE_CHECKING:\n    __getattr__ = make()\n", []),
        ("if TYPE_CHECKING:\n    import x\nelse:\n    __getattr__ = make()\n", []),
        ("if not TYPE_CHECKING:\n    pass\nelse:\n    __getattr__ = make()\n", [4]),
        ("if typing.TYPE_CHECKING:\n    pass\nelse:\n    __getattr__ = make()\n", []),
        ("if sys.version_info >= (3, 12):\n    __getattr__ = make()\n", [2]),
        ("try:\n    __getattr__ = make()\nexcept ImportError:\n    pass\n", [2]),
        ("class C:\n    def __getattr__(self, name): ...\n", []),  # a class's: fine
    ],
)
def test_the_reader_tells_seen_from_hidden(source: str, lines: list[int]) -> None:
    assert visible_getattr_lines(ast.parse(source)) == lines
