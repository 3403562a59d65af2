"""The dependency rules of the workspace, declared AND obeyed.

Declared: each member's ``pyproject.toml`` lists what docs/design.md allows --
agentkit-core nothing, each fakes package agentkit-core only, the
meta-package the core and the four fakes packages.

Obeyed: the declaration is only a promise, so every src module is parsed
(``ast``, so ``TYPE_CHECKING`` imports count too: a type checker resolves
them) and each import is checked against the same rules. A fakes package
importing another fakes package would work in this workspace, where every
member is installed, and break for the user who installed that one double.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tools.release.rules import read_members

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ROOT / "packages"
FAKES = (
    "agentkit-fakes-llm",
    "agentkit-fakes-io",
    "agentkit-fakes-cli",
    "agentkit-fakes-ctx",
    "agentkit-fakes-api",
    "agentkit-fakes-mcp",
)
STDLIB = frozenset(sys.stdlib_module_names)
NAMESPACE_LEVELS = frozenset({"agentkit", "agentkit.core", "agentkit.fakes"})


def pyproject(member: str) -> dict[str, object]:
    with (PACKAGES / member / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)


def requirement_names(member: str) -> set[str]:
    project = pyproject(member)["project"]
    assert isinstance(project, dict)
    names = set()
    for requirement in project.get("dependencies", []):
        match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
        assert match, f"{member}: unparsable requirement {requirement!r}"
        names.add(re.sub(r"[-_.]+", "-", match[1]).lower())
    return names


# The package each member owns (a member's pytest anchor, if any, imports nothing).
OWNED = {m.name: m.module for m in read_members(PACKAGES)}


def module_name(member: str) -> str:
    return OWNED[member]


# --- declared ----------------------------------------------------------------


def test_agentkit_core_depends_on_nothing() -> None:
    project = pyproject("agentkit-core")["project"]
    assert isinstance(project, dict)
    assert project.get("dependencies", []) == []
    assert project.get("optional-dependencies", {}) == {}


@pytest.mark.parametrize("member", FAKES)
def test_each_fakes_package_depends_on_agentkit_core_only(member: str) -> None:
    assert requirement_names(member) == {"agentkit-core"}


def test_the_meta_package_depends_on_the_core_and_every_fakes_package() -> None:
    assert requirement_names("agentkit-testing") == {"agentkit-core", *FAKES}


def test_the_framework_does_not_depend_on_its_test_doubles() -> None:
    names = requirement_names("agentkit-agents")
    assert "agentkit-core" in names
    assert names.isdisjoint({*FAKES, "agentkit-testing"})


# --- obeyed ------------------------------------------------------------------


def imported_modules(
    source: str, module: str, *, is_package: bool
) -> Iterator[tuple[int, str, bool]]:
    """(line, absolute module, lazy) for every import in ``source``, relative ones resolved.

    ``lazy`` is True for an import inside a function body: it runs only when called.
    """
    package = module if is_package else module.rpartition(".")[0]
    functions: set[ast.AST] = set()
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            functions.update(child for child in ast.walk(node) if child is not node)
    for node in ast.walk(tree):
        lazy = node in functions
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, lazy
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                if node.level - 1:
                    base_parts = base_parts[: -(node.level - 1)]
                base = ".".join([*base_parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            for alias in node.names:
                # `from agentkit import core` imports a module; `from x.y import Name` a name.
                if base in NAMESPACE_LEVELS or not node.module:
                    yield node.lineno, f"{base}.{alias.name}", lazy
                else:
                    yield node.lineno, base, lazy


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def is_stdlib(name: str) -> bool:
    return name.partition(".")[0] in STDLIB


def allowed_for(member: str, name: str, *, relpath: str, lazy: bool = False) -> bool:
    if within(name, "agentkit.core.testing"):
        # Inside agentkit.core's namespace, but the meta-package's: nothing else may import it.
        return member == "agentkit-testing"
    if is_stdlib(name) or within(name, module_name(member)):
        return True
    core = within(name, "agentkit.core")
    if member == "agentkit-agents":
        # The framework does not depend on its doubles; its runnable demo alone may use them,
        # imported inside a function, so `import agentkit.agents.*` never needs them.
        demo = relpath == "agentkit/agents/demo.py"
        return core or (demo and lazy and within(name, "agentkit.fakes"))
    if member == "agentkit-core":
        # Its pytest plugin is loaded by pytest only, so it alone may import pytest.
        plugin = relpath.startswith("agentkit/core/verification/pytest_plugin/")
        return core or (plugin and within(name, "pytest"))
    if member == "agentkit-fakes-cli":
        # Its record-mode pytest plugin is loaded by pytest only, so it alone may import pytest.
        plugin = relpath == "agentkit/fakes/cli/pytest_plugin.py"
        return core or (plugin and within(name, "pytest"))
    if member == "agentkit-fakes-api":
        # Its fixtures' pytest plugin is loaded by pytest only, so it alone may import pytest.
        plugin = relpath == "agentkit/fakes/api/pytest_plugin.py"
        return core or (plugin and within(name, "pytest"))
    if member in FAKES:
        return core
    if member == "agentkit-testing":
        # The pytest plugin is loaded by pytest, so it alone may import pytest.
        plugin = relpath.endswith("agentkit/core/testing/pytest_plugin.py")
        return core or within(name, "agentkit.fakes") or (plugin and within(name, "pytest"))
    raise AssertionError(f"no import rule for member {member!r}")


def module_of(relpath: str) -> tuple[str, bool]:
    """The dotted module a source path under ``src`` holds, and whether it is a package."""
    parts = list(Path(relpath).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    return ".".join(parts[:-1] if is_package else parts), is_package


def violations(member: str, path: Path, source: str | None = None) -> list[str]:
    src = PACKAGES / member / "src"
    relpath = path.relative_to(src).as_posix() if path.is_absolute() else path.as_posix()
    module, is_package = module_of(relpath)
    text = path.read_text(encoding="utf-8") if source is None else source
    return [
        f"{relpath}:{line}: imports {name}"
        for line, name, lazy in imported_modules(text, module, is_package=is_package)
        if not allowed_for(member, name, relpath=relpath, lazy=lazy)
    ]


MEMBERS = sorted(p.parent.name for p in PACKAGES.glob("*/pyproject.toml"))


@pytest.mark.parametrize("member", MEMBERS)
def test_src_imports_obey_the_dependency_rules(member: str) -> None:
    sources = sorted((PACKAGES / member / "src").rglob("*.py"))
    assert sources, member
    found = [v for path in sources for v in violations(member, path)]
    assert found == []


# --- the checker itself can fail ----------------------------------------------


@pytest.mark.parametrize(
    ("member", "path", "source"),
    [
        (
            "agentkit-fakes-llm",
            "agentkit/fakes/llm/x.py",
            "from agentkit.fakes.io import FakeClock",
        ),
        ("agentkit-fakes-llm", "agentkit/fakes/llm/x.py", "import agentkit.agents.react"),
        ("agentkit-fakes-llm", "agentkit/fakes/llm/x.py", "from ..io import clock"),
        (
            "agentkit-fakes-ctx",
            "agentkit/fakes/ctx/x.py",
            "from agentkit.core.testing import FakeLLM",
        ),
        ("agentkit-fakes-io", "agentkit/fakes/io/x.py", "from agentkit import agents"),
        ("agentkit-fakes-cli", "agentkit/fakes/cli/x.py", "import pytest"),
        ("agentkit-core", "agentkit/core/x.py", "import numpy"),
        ("agentkit-core", "agentkit/core/x.py", "import pytest"),
        ("agentkit-core", "agentkit/core/x.py", "from agentkit.fakes.llm import FakeLLM"),
        ("agentkit-core", "agentkit/core/x.py", "from agentkit.core.testing import make_test_ctx"),
        (
            "agentkit-core",
            "agentkit/core/x.py",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import agentkit.agents",
        ),
        ("agentkit-agents", "agentkit/agents/x.py", "from agentkit.fakes.ctx import FakeCtx"),
        ("agentkit-agents", "agentkit/agents/x.py", "def f():\n    import agentkit.core.testing"),
        ("agentkit-agents", "agentkit/agents/x.py", "def f():\n    import agentkit.fakes.llm"),
        ("agentkit-agents", "agentkit/agents/demo.py", "import agentkit.fakes.llm"),
        ("agentkit-fakes-io", "agentkit/fakes/io/x.py", "def f():\n    import agentkit.fakes.llm"),
        ("agentkit-testing", "agentkit/core/testing/__init__.py", "import pytest"),
    ],
)
def test_the_checker_flags_a_forbidden_import(member: str, path: str, source: str) -> None:
    assert violations(member, Path(path), source) != []


@pytest.mark.parametrize(
    ("member", "path", "source"),
    [
        ("agentkit-fakes-llm", "agentkit/fakes/llm/x.py", "from .turn import Turn"),
        ("agentkit-fakes-llm", "agentkit/fakes/llm/sub/__init__.py", "from .. import turn"),
        (
            "agentkit-fakes-llm",
            "agentkit/fakes/llm/x.py",
            "from agentkit.core.verification.script import ScriptCursor",
        ),
        (
            "agentkit-core",
            "agentkit/core/x.py",
            "from __future__ import annotations\nimport asyncio",
        ),
        ("agentkit-testing", "agentkit/core/testing/pytest_plugin.py", "import pytest"),
        ("agentkit-core", "agentkit/core/verification/pytest_plugin/__init__.py", "import pytest"),
        ("agentkit-fakes-cli", "agentkit/fakes/cli/pytest_plugin.py", "import pytest"),
        ("agentkit-fakes-api", "agentkit/fakes/api/pytest_plugin.py", "import pytest"),
        (
            "agentkit-agents",
            "agentkit/agents/demo.py",
            "async def f():\n    from agentkit.fakes import llm",
        ),
        (
            "agentkit-testing",
            "agentkit/core/testing/__init__.py",
            "from agentkit.fakes.cli import CliRun",
        ),
    ],
)
def test_the_checker_allows_a_permitted_import(member: str, path: str, source: str) -> None:
    assert violations(member, Path(path), source) == []


# --- core's three rooms ---------------------------------------------------------
# agentkit-core holds the framework's API (the public modules at the top of agentkit.core,
# agentkit.core.errors among them), the kit's verification machinery
# (agentkit.core.verification) and the plumbing its sibling distributions share
# (agentkit.core._internal). The rooms import downwards only (docs/design.md, "Core's
# three rooms"): the API never needs the verification machinery, and the plumbing, which
# every distribution loads, needs neither the API (but its public errors) nor verification.

CORE_SRC = PACKAGES / "agentkit-core" / "src"
ERRORS = "agentkit.core.errors"


def core_room(name: str) -> str:
    """``verification``, ``internal``, ``public`` or ``outside`` for a module name."""
    if within(name, "agentkit.core.verification"):
        return "verification"
    if within(name, "agentkit.core._internal"):
        return "internal"
    if within(name, "agentkit.core") and not within(name, "agentkit.core.testing"):
        return "public"
    return "outside"


def room_allows(room: str, name: str) -> bool:
    """Whether a module of ``room`` may import ``name`` (the standard library always)."""
    if is_stdlib(name):
        return True
    target = core_room(name)
    if room == "public":
        return target in {"public", "internal"}
    if room == "internal":
        return target == "internal" or within(name, ERRORS)
    # verification may import every room; what it may take from outside core (pytest,
    # for its plugin) is bounded by the member's rule above.
    return room == "verification"


def room_violations(relpath: str, source: str) -> list[str]:
    module, is_package = module_of(relpath)
    room = core_room(module)
    return [
        f"{relpath}:{line}: the {room} room imports {name}"
        for line, name, _lazy in imported_modules(source, module, is_package=is_package)
        if not room_allows(room, name)
    ]


def test_cores_three_rooms_import_downwards_only() -> None:
    sources = sorted((CORE_SRC / "agentkit" / "core").rglob("*.py"))
    rooms = {core_room(module_of(p.relative_to(CORE_SRC).as_posix())[0]) for p in sources}
    assert rooms == {"public", "internal", "verification"}, rooms
    found = [
        v
        for path in sources
        for v in room_violations(path.relative_to(CORE_SRC).as_posix(), path.read_text("utf-8"))
    ]
    assert found == []


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("agentkit/core/x.py", "from agentkit.core.verification.script import ScriptCursor"),
        ("agentkit/core/x.py", "def f():\n    import agentkit.core.verification.registry"),
        ("agentkit/core/x.py", "from agentkit.core import verification"),
        ("agentkit/core/x.py", "from agentkit.core.testing import FakeLLM"),
        ("agentkit/core/x.py", "from agentkit.fakes.llm import FakeLLM"),
        ("agentkit/core/_internal/x.py", "from agentkit.core.types import Usage"),
        ("agentkit/core/_internal/x.py", "from agentkit.core import types"),
        ("agentkit/core/_internal/x.py", "from ...core.request import ChatRequest"),
        ("agentkit/core/_internal/x.py", "from agentkit.core.verification import script"),
    ],
)
def test_the_rooms_checker_flags_an_upward_import(path: str, source: str) -> None:
    assert room_violations(path, source) != []


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("agentkit/core/x.py", "from agentkit.core._internal.arguments import check_str"),
        ("agentkit/core/x.py", "from agentkit.core.types import Usage"),
        ("agentkit/core/_internal/x.py", "from agentkit.core.errors import ArgumentError"),
        ("agentkit/core/_internal/x.py", "from . import describe"),
        ("agentkit/core/verification/x.py", "from agentkit.core._internal import failures"),
        ("agentkit/core/verification/x.py", "from agentkit.core.types import Usage"),
    ],
)
def test_the_rooms_checker_allows_a_downward_import(path: str, source: str) -> None:
    assert room_violations(path, source) == []
