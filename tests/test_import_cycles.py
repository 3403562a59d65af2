"""No import circle among the src modules of the workspace, outside ``TYPE_CHECKING``.

A circle of module-level imports works only in the order a test happened to
import things: enter it from another module and a name is read from a module
that has not finished running (``ImportError: cannot import name``, or a
half-built module). An import moved into a function to get round that still
leaves two modules that each need the other: neither is the lower one, and
neither can be read, tested or split alone. So every src module of every
member is parsed (``ast``, nothing imported) and the graph of its imports is
checked for cycles. Only imports under ``if TYPE_CHECKING:`` are left out:
they never run, a type checker alone follows them.

An edge goes to the module named: ``from pkg import name`` to ``pkg`` (its
``__init__`` must run to give the name), ``from pkg import sub`` to
``pkg.sub`` when that is a module. The parent packages that Python also runs
first are left out: they have started loading by the time their own modules
import each other.
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that can run: all of them but those under ``if TYPE_CHECKING:``."""
    skipped: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            skipped.update(inner for child in node.body for inner in ast.walk(child))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom) and node not in skipped:
            yield node


def edges(module: str, source: str, *, is_package: bool, known: set[str]) -> set[str]:
    """The modules of ``known`` that ``module`` imports, at load or later."""
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_imports(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
            continue
        base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            found.add(sub if sub in known else base)
    return {name for name in found if name in known and name != module}


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Each group of modules that reach one another (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group: list[str] = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def graph_of(sources: Mapping[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """``{module: (source, is_package)}`` to ``{module: modules it imports at load}``."""
    known = set(sources)
    return {
        module: edges(module, source, is_package=is_package, known=known)
        for module, (source, is_package) in sources.items()
    }


def workspace_sources() -> dict[str, tuple[str, bool]]:
    sources: dict[str, tuple[str, bool]] = {}
    for src in sorted(ROOT.glob("packages/*/src")):
        for path in sorted(src.rglob("*.py")):
            parts = path.relative_to(src).with_suffix("").parts
            is_package = parts[-1] == "__init__"
            module = ".".join(parts[:-1] if is_package else parts)
            sources[module] = (path.read_text(encoding="utf-8"), is_package)
    return sources


def test_no_src_module_imports_itself_round_a_circle() -> None:
    sources = workspace_sources()
    assert "agentkit.core.ports" in sources
    found = cycles(graph_of(sources))
    assert found == []


# --- the checker itself can fail ----------------------------------------------------


def test_a_circle_through_a_package_init_is_found() -> None:
    sources = {
        "p": ("from p.a import A\n", True),
        "p.a": ("from p.b import helper\nA = 1\n", False),
        "p.b": ("from p import A\n\ndef helper(): ...\n", False),
    }
    assert cycles(graph_of(sources)) == [["p", "p.a", "p.b"]]


def test_relative_imports_and_submodules_are_resolved() -> None:
    sources = {
        "p": ("", True),
        "p.a": ("from . import b\n", False),
        "p.b": ("try:\n    from .a import x\nexcept ImportError:\n    pass\n", False),
    }
    assert cycles(graph_of(sources)) == [["p.a", "p.b"]]


def test_an_import_inside_a_function_still_closes_a_circle() -> None:
    sources = {
        "p": ("", True),
        "p.a": ("from p.b import B\n", False),
        "p.b": ("class B:\n    def f(self):\n        from p import a\n", False),
    }
    assert cycles(graph_of(sources)) == [["p.a", "p.b"]]


def test_imports_under_type_checking_are_not_a_circle() -> None:
    sources = {
        "p": ("", True),
        "p.a": ("from p.b import B\n", False),
        "p.b": (
            "import typing\n"
            "if typing.TYPE_CHECKING:\n    from p.a import A\nelse:\n    import json\n"
            "class B: ...\n",
            False,
        ),
    }
    assert graph_of(sources)["p.b"] == set()
    assert cycles(graph_of(sources)) == []
