"""PEP 420 layout: the shared levels of the ``agentkit`` tree are namespace packages.

``agentkit``, ``agentkit.core`` and ``agentkit.fakes`` are each contributed to
by several distributions (agentkit-core owns ``agentkit.core.ports``, the
meta-package owns ``agentkit.core.testing``). An ``__init__.py`` at one of
those levels in any one member would make that member own the whole level,
and every other member's modules there would vanish from the installed tree.
The package each member does own (``agentkit.fakes.llm``, ...) is a regular
package, with its ``__init__.py`` and ``py.typed``. A member that registers a
pytest plugin also ships one top-level package of its own, its anchor
(``_agentkit_core_pytest``, ...): pytest picks what to rewrite from each plugin
distribution's top-level names, and a namespace package gives it none.
"""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import pytest

from tools.release.rules import Member, plugin_anchor, read_members

ROOT = Path(__file__).resolve().parents[1]
MEMBERS = sorted(p.parent for p in (ROOT / "packages").glob("*/pyproject.toml"))
NAMESPACE_LEVELS = {"agentkit", "agentkit.core", "agentkit.fakes"}
EXPECTED_MODULES = {
    "agentkit-core": "agentkit.core",
    "agentkit-agents": "agentkit.agents",
    "agentkit-fakes-llm": "agentkit.fakes.llm",
    "agentkit-fakes-io": "agentkit.fakes.io",
    "agentkit-fakes-cli": "agentkit.fakes.cli",
    "agentkit-fakes-ctx": "agentkit.fakes.ctx",
    "agentkit-fakes-api": "agentkit.fakes.api",
    "agentkit-testing": "agentkit.core.testing",
}
# The members whose pyproject registers a pytest11 entry point: each ships its anchor.
PLUGIN_MEMBERS = {"agentkit-core", "agentkit-testing", "agentkit-fakes-cli", "agentkit-fakes-api"}
DECLARED = {m.name: m for m in read_members(ROOT / "packages")}


def build_backend(member: Path) -> dict[str, object]:
    with (member / "pyproject.toml").open("rb") as handle:
        config = tomllib.load(handle)
    backend: dict[str, object] = config["tool"]["uv"]["build-backend"]
    return backend


def dotted(src: Path, directory: Path) -> str:
    return ".".join(directory.relative_to(src).parts)


def anchors(member: Member) -> tuple[str, ...]:
    return (plugin_anchor(member),) if member.name in PLUGIN_MEMBERS else ()


def test_every_member_is_known_and_builds_its_module() -> None:
    assert {name: m.module for name, m in DECLARED.items()} == EXPECTED_MODULES
    assert {name: m.extra_modules for name, m in DECLARED.items()} == {
        name: anchors(m) for name, m in DECLARED.items()
    }
    for member in MEMBERS:
        assert build_backend(member)["namespace"] is True, member.name


@pytest.mark.parametrize("member", MEMBERS, ids=[m.name for m in MEMBERS])
def test_a_member_ships_an_anchor_exactly_when_it_registers_a_pytest_plugin(
    member: Path,
) -> None:
    with (member / "pyproject.toml").open("rb") as handle:
        points = tomllib.load(handle)["project"].get("entry-points", {})
    assert ("pytest11" in points) is (member.name in PLUGIN_MEMBERS)
    for anchor in anchors(DECLARED[member.name]):
        files = sorted(p.name for p in (member / "src" / anchor).iterdir() if p.is_file())
        assert files == ["__init__.py"]


@pytest.mark.parametrize("member", MEMBERS, ids=[m.name for m in MEMBERS])
def test_no_init_at_a_namespace_level(member: Path) -> None:
    src = member / "src"
    top = sorted(p.name for p in src.iterdir() if p.name != "__pycache__")
    assert top == sorted(["agentkit", *anchors(DECLARED[member.name])])
    assert not (src / "__init__.py").exists()
    offending = [
        path.relative_to(ROOT).as_posix()
        for path in src.rglob("__init__.py")
        if dotted(src, path.parent) in NAMESPACE_LEVELS
    ]
    assert offending == []


@pytest.mark.parametrize("member", MEMBERS, ids=[m.name for m in MEMBERS])
def test_the_owned_package_is_regular_and_typed(member: Path) -> None:
    src = member / "src"
    module = DECLARED[member.name].module
    root = src.joinpath(*module.split("."))
    assert root.is_dir(), root
    assert (root / "py.typed").is_file()
    # agentkit.core is itself a namespace level (the meta-package adds agentkit.core.testing).
    assert (root / "__init__.py").exists() is (module not in NAMESPACE_LEVELS)
    # Only the path down to the owned package exists above it: no stray modules at a shared level.
    parts = module.split(".")
    for level in range(1, len(parts)):
        above = src.joinpath(*parts[:level])
        strays = [p.name for p in above.iterdir() if p.name not in {"__pycache__", parts[level]}]
        assert strays == [], f"{above.relative_to(ROOT)} holds {strays}"


@pytest.mark.parametrize("member", MEMBERS, ids=[m.name for m in MEMBERS])
def test_every_package_below_the_owned_one_has_an_init(member: Path) -> None:
    src = member / "src"
    root = src.joinpath(*DECLARED[member.name].module.split("."))
    missing = [
        directory.relative_to(ROOT).as_posix()
        for directory in [root, *root.rglob("*")]
        if directory.is_dir()
        and directory.name != "__pycache__"
        and dotted(src, directory) not in NAMESPACE_LEVELS
        and any(directory.glob("*.py"))
        and not (directory / "__init__.py").exists()
    ]
    assert missing == []


@pytest.mark.parametrize("name", sorted(NAMESPACE_LEVELS))
def test_the_installed_levels_are_namespace_packages(name: str) -> None:
    module = importlib.import_module(name)
    assert getattr(module, "__file__", None) is None
    assert not isinstance(module.__path__, list)  # a _NamespacePath, not a regular package's


def test_agentkit_core_spans_the_core_and_the_meta_package() -> None:
    import agentkit.core

    parts = {Path(p).resolve() for p in agentkit.core.__path__}
    assert ROOT / "packages/agentkit-core/src/agentkit/core" in parts
    assert ROOT / "packages/agentkit-testing/src/agentkit/core" in parts
    importlib.import_module("agentkit.core.ports")
    importlib.import_module("agentkit.core.testing")
