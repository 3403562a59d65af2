"""The documentation site's structure: every page reachable, every public module referenced.

``mkdocs build --strict`` (run by .ci/run) fails on a broken link or a nav
entry without a page, but only logs a page that is missing from the nav, and
knows nothing about modules nobody wrote a page for. These fill both gaps:
every markdown page under ``docs/`` is in the nav, and the API reference the
build hook generates covers every public module of every package -- checked
against the modules Python itself finds in the installed packages, not
against the hook's own walk of the source tree.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
NAV_ENTRY = re.compile(r"^\s*-\s+[^:]+:\s+(\S+\.md)\s*$")
OWNED = {
    "agentkit-core": "agentkit.core",
    "agentkit-agents": "agentkit.agents",
    "agentkit-fakes-llm": "agentkit.fakes.llm",
    "agentkit-fakes-io": "agentkit.fakes.io",
    "agentkit-fakes-cli": "agentkit.fakes.cli",
    "agentkit-fakes-ctx": "agentkit.fakes.ctx",
    "agentkit-testing": "agentkit.core.testing",
}


def load_hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "docs_reference_hook", DOCS / "_hooks" / "reference.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOOK = load_hook()


def nav_pages() -> list[str]:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:") :]
    return [m.group(1) for line in nav.splitlines() if (m := NAV_ENTRY.match(line))]


def generated_pages() -> set[str]:
    return {f"reference/{name}.md" for name in HOOK.distributions()}


def test_every_page_is_in_the_nav() -> None:
    written = {
        p.relative_to(DOCS).as_posix()
        for p in DOCS.rglob("*.md")
        if not p.relative_to(DOCS).as_posix().startswith("_hooks/")
    }
    assert sorted(written | generated_pages()) == sorted(set(nav_pages()))


def test_every_nav_entry_appears_once() -> None:
    pages = nav_pages()
    assert len(pages) == len(set(pages))


def test_a_page_per_package_and_a_reference_per_package() -> None:
    pages = set(nav_pages())
    for distribution in OWNED:
        assert f"packages/{distribution}.md" in pages
        assert f"reference/{distribution}.md" in pages
    assert set(HOOK.distributions()) == set(OWNED)


def python_public_modules(package: str) -> set[str]:
    """The public modules Python finds importable under ``package`` (and itself)."""
    root = importlib.import_module(package)
    found = {package} if getattr(root, "__file__", None) else set()
    broken: list[str] = []
    for info in pkgutil.walk_packages(root.__path__, f"{package}.", broken.append):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        if info.name.startswith("agentkit.core.testing") and not package.endswith("testing"):
            continue  # another distribution's part of the agentkit.core namespace
        found.add(info.name)
    assert broken == [], (
        f"these packages do not import, so their modules cannot be listed: {broken}"
    )
    return found


@pytest.mark.parametrize(("distribution", "package"), sorted(OWNED.items()))
def test_the_reference_covers_every_public_module(distribution: str, package: str) -> None:
    src = HOOK.distributions()[distribution]
    documented = {name for name, _ in HOOK.public_modules(src)}
    assert documented == python_public_modules(package)
    page = HOOK.reference_page(distribution, src)
    for name in documented:
        assert f"\n::: {name}\n" in page


def test_a_package_with_public_submodules_shows_only_its_docstring(tmp_path: Path) -> None:
    pkg = tmp_path / "ns" / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "leaf").mkdir()
    (pkg / "unfinished").mkdir()
    for path in ("__init__.py", "mod.py", "_private.py", "sub/__init__.py", "sub/_impl.py"):
        (pkg / path).write_text("", encoding="utf-8")
    (pkg / "unfinished" / "half.py").write_text("", encoding="utf-8")  # no __init__.py yet
    assert HOOK.public_modules(tmp_path) == [
        ("ns.pkg", False),  # has public submodules: they document the members
        ("ns.pkg.mod", True),
        ("ns.pkg.sub", True),  # only private submodules: it is where the names are shown
    ]
    page = HOOK.reference_page("ns-pkg", tmp_path)
    assert "::: ns.pkg\n    options:\n      members: false\n" in page
    assert "::: ns.pkg.sub\n" in page
    assert "::: ns.pkg.sub\n    options" not in page
    assert "_private" not in page
    assert "half" not in page
