"""mkdocs hook: one API reference page per package, covering every public module.

The pages are generated at build time from the source tree instead of being
written by hand, so a module added, moved or renamed is documented (or its
stale page dropped) without anyone remembering to: a hand-kept list would go
out of date the first time a package is reorganised. A public module is one
whose dotted path has no part starting with ``_``; each becomes a
mkdocstrings ``::: module`` block. A package that has public submodules shows
its docstring and only those names it takes from a private module
(``agentkit.fakes.cli``'s FakeClaudeCli lives in ``_claude``): a name from a
public module is documented on that module's entry, so nothing appears twice
and nothing is left out. A facade -- a module whose names are re-exports,
some lazy (:func:`agentkit.core._internal.lazy.lazy_exports`) -- is given its names
explicitly, from its literal ``__all__``.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def public_modules(src: Path) -> list[tuple[str, bool]]:
    """``(dotted name, members shown)`` for every public module under ``src``, sorted."""
    found = []
    for path in sorted(src.rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        if not parts or any(part.startswith("_") for part in parts):
            continue
        if not _importable(src, path.parent):
            continue
        public_children = is_package and any(
            not child.name.startswith("_")
            and (child.suffix == ".py" or (child / "__init__.py").is_file())
            for child in path.parent.iterdir()
            if child.name != "__init__.py"
        )
        found.append((".".join(parts), not public_children))
    return found


def _importable(src: Path, folder: Path) -> bool:
    """Below the first regular package on the way down, every folder must be one too.

    The namespace levels above it (``agentkit``, ``agentkit.core``) have no
    ``__init__.py`` by design; a folder of modules without one further down
    is not a package a user can import, so it gets no page.
    """
    regular = False
    for level in [*reversed(folder.relative_to(src).parents), folder.relative_to(src)]:
        here = (src / level / "__init__.py").is_file()
        if regular and not here:
            return False
        regular = regular or here
    return True


def _origins(tree: ast.Module, package: str) -> dict[str, str]:
    """Name -> the module an ``__init__`` takes it from (imports, and lazy_exports' dict)."""
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = f"{base}.{node.module}" if node.level else node.module
            for alias in node.names:
                found[alias.asname or alias.name] = module
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                name = key.value if isinstance(key, ast.Constant) else None
                where = value.value if isinstance(value, ast.Constant) else None
                if isinstance(name, str) and isinstance(where, str):
                    found.setdefault(name, where)
    return found


def literal_all(tree: ast.Module) -> list[str]:
    """The names of a module's literal top-level ``__all__`` (empty without one)."""
    names: list[str] = []
    for node in tree.body:
        value: ast.expr | None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign):
            targets, value = [node.target], node.value
        else:
            continue
        if any(isinstance(target, ast.Name) and target.id == "__all__" for target in targets):
            names = [
                e.value
                for e in getattr(value, "elts", [])
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            ]
    return names


def private_members(src: Path, package: str) -> list[str]:
    """The names ``package`` exports (``__all__``, or a facade's re-exports) from a private module."""
    init = src.joinpath(*package.split("."), "__init__.py")
    tree = ast.parse(init.read_text(encoding="utf-8"))
    names = literal_all(tree)
    origins = _origins(tree, package)
    return [
        name
        for name in names
        if not name.startswith("__")
        and (name not in origins or any(p.startswith("_") for p in origins[name].split(".")))
    ]


def reference_page(distribution: str, src: Path) -> str:
    """The markdown of one distribution's reference page."""
    lines = [
        f"# {distribution}",
        "",
        f"Generated from the docstrings of every public module of `{distribution}`.",
        "",
    ]
    for name, members in public_modules(src):
        lines.append(f"::: {name}")
        if not members:
            shown = private_members(src, name)
            lines += ["    options:", "      members:" + ("" if shown else " false")]
            lines += [f"        - {member}" for member in shown]
        elif exports := facade_exports(src, name):
            lines += ["    options:", f"      members: [{', '.join(exports)}]"]
        lines.append("")
    return "\n".join(lines)


def facade_exports(src: Path, name: str) -> list[str]:
    """The names a facade module re-exports (empty for any other module)."""
    parts = name.split(".")
    path = src.joinpath(*parts, "__init__.py")
    if not path.is_file():
        path = src.joinpath(*parts[:-1], f"{parts[-1]}.py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if not any(
        isinstance(node, ast.Call) and getattr(node.func, "id", None) == "lazy_exports"
        for node in ast.walk(tree)
    ):
        return []
    return [n for n in literal_all(tree) if not n.startswith("__")]


def distributions(root: Path = ROOT) -> dict[str, Path]:
    """Each workspace member's distribution name and ``src`` folder."""
    return {p.parent.name: p.parent / "src" for p in sorted(root.glob("packages/*/pyproject.toml"))}


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for distribution, src in distributions().items():
        files.append(
            File.generated(
                config, f"reference/{distribution}.md", content=reference_page(distribution, src)
            )
        )
    return files
