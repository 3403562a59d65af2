"""mkdocs hook: one API reference page per package, covering every public module.

The pages are generated at build time from the source tree instead of being
written by hand, so a module added, moved or renamed is documented (or its
stale page dropped) without anyone remembering to: a hand-kept list would go
out of date the first time a package is reorganised. A public module is one
whose dotted path has no part starting with ``_``; each becomes a
mkdocstrings ``::: module`` block. A package that has public submodules shows
only its own docstring (its members are documented where they are defined, so
nothing appears twice). A facade -- a module whose names are all re-exports
(:func:`agentkit.core.lazy.reexports`), with no literal ``__all__`` for the
reference to read -- is given its names explicitly, read from the same
``Name as Name`` imports the run time reads.
"""

from __future__ import annotations

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
            lines += ["    options:", "      members: false"]
        elif exports := facade_exports(src, name):
            lines += ["    options:", f"      members: [{', '.join(exports)}]"]
        lines.append("")
    return "\n".join(lines)


def facade_exports(src: Path, name: str) -> list[str]:
    """The names a facade module re-exports (empty for any other module)."""
    from agentkit.core.lazy import _read_reexports

    parts = name.split(".")
    path = src.joinpath(*parts, "__init__.py")
    if not path.is_file():
        path = src.joinpath(*parts[:-1], f"{parts[-1]}.py")
    source = path.read_text(encoding="utf-8")
    if "reexports(globals())" not in source:
        return []
    return [n for n in _read_reexports(source) if not n.startswith("__")]


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
