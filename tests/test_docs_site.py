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

import ast
import html
import importlib
import importlib.util
import inspect
import json
import os
import pkgutil
import re
import shutil
import subprocess
import sys
import textwrap
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
    "agentkit-fakes-api": "agentkit.fakes.api",
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


# --- what the reference shows for every public name -------------------------------------
# The checks above say every public module has a ``::: module`` block; these say what the
# built page shows for each name in each module's ``__all__``: a heading, the signature of
# every class and function (a class's constructor merged in), and every public member of
# every class -- methods, properties, Protocol members and dataclass fields, inherited
# ones included. They read the HTML mkdocs built, the one thing a reader sees.

HEADING_ID = re.compile(r'<h\d id="([^"]+)" class="doc doc-heading"')
TAG = re.compile(r"<[^>]+>")
# Members a class gets from Python itself, not from the kit: never expected on the page.
FOREIGN = {"object", "BaseException", "Exception", "Protocol", "Generic", "Enum", "StrEnum"}


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("site")
    build = ["mkdocs", "build", "--strict", "--site-dir", str(site)]
    if importlib.util.find_spec("mkdocs") is not None:
        command = [sys.executable, "-m", *build]
    else:  # mkdocs lives in the docs dependency group
        uv = os.environ.get("UV") or shutil.which("uv") or "uv"
        command = [uv, "run", "--frozen", "--group", "docs", *build]
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return site


def page_sections(site: Path, distribution: str) -> dict[str, str]:
    """Each heading id of a built reference page, with the HTML up to the next heading."""
    text = (site / "reference" / distribution / "index.html").read_text(encoding="utf-8")
    marks = list(HEADING_ID.finditer(text))
    return {
        mark.group(1): text[mark.end() : marks[i + 1].start() if i + 1 < len(marks) else None]
        for i, mark in enumerate(marks)
    }


def signature_text(section: str) -> str:
    """What the entry shows above its docstring: its signature, each overload's too."""
    end = section.find('class="doc doc-contents')
    return html.unescape(TAG.sub("", section[: end if end >= 0 else None]))


def parameter_names(obj: object) -> list[str]:
    """The named parameters a reader must see in ``obj``'s signature (none if not ours)."""
    if isinstance(obj, type):
        init = next((k.__dict__["__init__"] for k in obj.__mro__ if "__init__" in k.__dict__), None)
        if init is None or not getattr(init, "__module__", "").startswith("agentkit"):
            return []
    try:
        signature = inspect.signature(obj)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return []
    return [
        p.name
        for p in signature.parameters.values()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]


def instance_attributes(klass: type) -> set[str]:
    """The ``self.NAME = ...`` assignments of ``klass.__init__`` (where an object's data is)."""
    init = klass.__dict__.get("__init__")
    if not inspect.isfunction(init):
        return set()
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(init)))
    except OSError:
        return set()
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    }


def public_members(cls: type) -> set[str]:
    """Every public attribute, method, property and field ``cls`` has from the kit.

    Defined on the class, annotated on it (Protocol members, dataclass fields),
    named in its ``__slots__`` or set on ``self`` by its ``__init__`` -- its own or
    a base's, private bases included -- and ``__call__`` (how a fake spawn is used). The ``test_*`` methods of a contract suite
    are made from its ``suite`` when the class is created, and the reference
    shows the ``suite`` instead.
    """
    found: set[str] = set()
    for klass in cls.__mro__:
        if klass.__name__ in FOREIGN or not klass.__module__.startswith("agentkit"):
            continue
        slots = klass.__dict__.get("__slots__", ())
        names = (
            set(klass.__dict__)
            | set(inspect.get_annotations(klass))
            | ({slots} if isinstance(slots, str) else set(slots))
            | instance_attributes(klass)
        )
        found |= {n for n in names if not n.startswith(("_", "test_")) or n == "__call__"}
    return found


def reference_expectations(distribution: str) -> list[tuple[str, object, str]]:
    """``(heading id, object, what it is)`` for every name a reference page must show."""
    src = HOOK.distributions()[distribution]
    expected: list[tuple[str, object, str]] = []
    for name, members_shown in HOOK.public_modules(src):
        module = importlib.import_module(name)
        # A package with public submodules shows the names it takes from private ones.
        shown = getattr(module, "__all__", []) if members_shown else HOOK.private_members(src, name)
        for public in shown:
            if public.startswith("__"):
                continue  # __version__: said on each package page, not an API entry
            obj = getattr(module, public)
            if getattr(obj, "__name__", public) != public:
                # An alias (ClaudeResultT = ClaudeCliResult): shown as one, its class's
                # signature and members where the class itself is documented.
                expected.append((f"{name}.{public}", None, f"{name}.{public}"))
                continue
            expected.append((f"{name}.{public}", obj, f"{name}.{public}"))
            if isinstance(obj, type):
                expected += [
                    (f"{name}.{public}.{member}", None, f"{public}.{member}")
                    for member in sorted(public_members(obj))
                ]
    return expected


@pytest.mark.slow
@pytest.mark.parametrize("distribution", sorted(OWNED))
def test_the_reference_shows_every_signature_member_and_field(
    built_site: Path, distribution: str
) -> None:
    sections = page_sections(built_site, distribution)
    missing: list[str] = []
    for heading, obj, label in reference_expectations(distribution):
        if heading not in sections:
            missing.append(f"{label}: no entry")
            continue
        if obj is None or not callable(obj):
            continue
        shown = signature_text(sections[heading])
        absent = [p for p in parameter_names(obj) if not re.search(rf"\b{p}\b", shown)]
        if absent:
            missing.append(f"{label}: signature lacks {absent} (shows {shown!r})")
    assert missing == [], "\n".join(missing)


def test_every_public_class_expects_its_members() -> None:
    # The expectations above are not vacuous: the members a user asked for are among them,
    # on the page of the package that defines them (not only on the testing facade's).
    expected = {heading for d in OWNED for heading, _, _ in reference_expectations(d)}
    for member in ("recorded", "replay", "script", "argv", "invocations", "remaining", "__call__"):
        assert f"agentkit.fakes.cli.FakeClaudeCli.{member}" in expected
    for name in ("ports.Tool.run", "ports.Tool.name", "types.FetchResponse.status"):
        assert f"agentkit.core.{name}" in expected


def test_a_package_shows_the_names_it_takes_from_private_modules(tmp_path: Path) -> None:
    pkg = tmp_path / "ns" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(
        "from ns.pkg._impl import Hidden\n"
        "from ns.pkg.mod import Shown\n"
        "from ._other import Relative\n"
        "CONSTANT = 1\n"
        "__getattr__ = lazy({'Lazy': 'ns.pkg._lazy', 'Public': 'ns.pkg.mod'})\n"
        "__all__ = ['Hidden', 'Shown', 'Relative', 'CONSTANT', 'Lazy', 'Public', '__version__']\n",
        encoding="utf-8",
    )
    for path in ("mod.py", "_impl.py", "_other.py", "_lazy.py"):
        (pkg / path).write_text("", encoding="utf-8")
    assert HOOK.private_members(tmp_path, "ns.pkg") == ["Hidden", "Relative", "CONSTANT", "Lazy"]
    page = HOOK.reference_page("ns-pkg", tmp_path)
    assert "::: ns.pkg\n    options:\n      members:\n        - Hidden\n" in page


# --- Sphinx roles in docstrings become links ---------------------------------------------
# The docstrings name objects the Sphinx way (``:class:`FakeLLM```); the griffe extension
# docs/_hooks/griffe_roles.py rewrites each to a link to its entry before mkdocstrings
# renders markdown, where a role would stay raw text.

RAW_ROLE = re.compile(r":(?:py:)?(?:class|meth|func|mod|attr|data|exc|obj):(?:<code>|`)")


@pytest.mark.slow
def test_the_built_site_shows_no_raw_sphinx_role(built_site: Path) -> None:
    raw = [
        f"{page.relative_to(built_site)}: {match.group(0)}{text[match.end() : match.end() + 60]}"
        for page in sorted(built_site.rglob("*.html"))
        for text in [page.read_text(encoding="utf-8")]
        for match in RAW_ROLE.finditer(text)
    ]
    assert raw == [], f"{len(raw)} raw roles, first: " + "\n".join(raw[:10])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("page", "href", "shown"),
    [
        # `:class:`~agentkit.core.verification.script.ScriptExhausted`` in agentkit.fakes.llm: another page.
        (
            "agentkit-fakes-llm",
            "../agentkit-core/#agentkit.core.verification.script.ScriptExhausted",
            "ScriptExhausted",
        ),
        # A class documented at its package though defined in a private module.
        ("agentkit-fakes-cli", "#agentkit.fakes.cli.CliRun", "CliRun"),
        # A method a double inherits from VerifyingDouble, named in the double's docstring.
        (
            "agentkit-fakes-llm",
            "#agentkit.fakes.llm.fake_llm.FakeLLM.assert_complete",
            "assert_complete",
        ),
    ],
)
def test_a_role_links_to_the_entry_it_names(
    built_site: Path, page: str, href: str, shown: str
) -> None:
    text = (built_site / "reference" / page / "index.html").read_text(encoding="utf-8")
    assert re.search(
        rf'<a class="autorefs autorefs-internal"[^>]* href="{re.escape(href)}"[^>]*><code>{shown}</code></a>',
        text,
    ), href


ROLE_PACKAGE = {
    "agentkit/demo/__init__.py": (
        "from agentkit.demo._impl import Hidden\n"
        "from agentkit.demo.mod import Base, Child\n"
        "__all__ = ['Hidden', 'Base', 'Child']\n"
    ),
    "agentkit/demo/_impl.py": 'class Hidden:\n    """Made by :class:`~agentkit.demo.mod.Child`."""\n',
    "agentkit/demo/mod.py": (
        "import math\n"
        "from agentkit.demo._impl import Hidden\n"
        "class Base:\n"
        "    def done(self) -> None: ...\n"
        "class Child(Base):\n"
        '    """A :class:`Base`; :meth:`done`; :class:`Hidden`; :mod:`math`;\n'
        "    :func:`missing`; :class:`the base <Base>`; :mod:`.mod`; :class:`!Base`;\n"
        "    :meth:`a title wrapped\n"
        "    across lines <Base.done>`.\n"
        "\n"
        "    ```python\n"
        "    :class:`Base`\n"
        "    ```\n"
        '    """\n'
    ),
}

ROLE_PROBE = """
import json, sys
import griffe
sys.path.insert(0, sys.argv[2])
from griffe_roles import SphinxRoles
loader = griffe.GriffeLoader(search_paths=[sys.argv[1]], extensions=griffe.load_extensions(SphinxRoles()))
demo = loader.load("agentkit.demo")
print(json.dumps({
    "child": loader.modules_collection.get_member("agentkit.demo.mod.Child").docstring.value,
    "hidden": loader.modules_collection.get_member("agentkit.demo._impl.Hidden").docstring.value,
}))
"""


def test_the_role_extension_links_what_the_reference_shows(tmp_path: Path) -> None:
    for name, source in ROLE_PACKAGE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(source, encoding="utf-8")
    args = [ROLE_PROBE, str(tmp_path), str(DOCS / "_hooks")]
    if importlib.util.find_spec("griffe") is not None:
        command = [sys.executable, "-c", *args]
    else:  # griffe lives in the docs dependency group
        uv = os.environ.get("UV") or shutil.which("uv") or "uv"
        command = [uv, "run", "--frozen", "--group", "docs", "python", "-c", *args]
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    child = result["child"].splitlines()
    assert child[0] == (
        "A [`Base`][agentkit.demo.mod.Base]; [`done`][agentkit.demo.mod.Child.done]; "
        # Hidden comes from a private module: linked where the package exports it.
        "[`Hidden`][agentkit.demo.Hidden]; `math`;"
    )
    # Unknown: code, not a dead link. A title; a relative module; `!`: no link.
    assert child[1].strip() == (
        "`missing`; [`the base`][agentkit.demo.mod.Base]; [`.mod`][agentkit.demo.mod]; `Base`;"
    )
    assert child[2].strip() == "[`a title wrapped across lines`][agentkit.demo.mod.Base.done]."
    assert ":class:`Base`" in result["child"]  # inside a code fence: left as written
    assert result["hidden"] == "Made by [`Child`][agentkit.demo.mod.Child]."
