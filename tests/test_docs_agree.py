"""The tables the docs keep about the code, read against the code.

A table in prose goes stale silently: a package added to the workspace, a
fixture added to a plugin, a recording shipped, a violation kind a double
learned to record. Each table here is compared with what the code has, found
the way a user would meet it (a member's pyproject, ``pytest --fixtures``, the
files ``recording_names`` lists) or, for the violation kinds, by reading every
place a double records one.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentkit.core.verification import VerifyingDouble
from agentkit.fakes.api import ApiRequest
from agentkit.fakes.cli import recording_names
from tools.release.rules import read_members

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MEMBERS = {m.name: m for m in read_members(ROOT / "packages")}
IDENTIFIER = re.compile(r"^[A-Za-z_]\w*$")
KIND = re.compile(r"^[a-z]+(?:_[a-z]+)+$")


def table(text: str, heading: str) -> list[list[str]]:
    """The cells of each body row of the first markdown table whose header starts ``heading``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {heading} |"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def code_spans(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


# --- the README's package table -----------------------------------------------------------


def test_the_package_table_has_a_row_per_member_with_its_import() -> None:
    rows = table(README.read_text(encoding="utf-8"), "package")
    shown = {name: code_spans(where)[0].removesuffix(".*") for name, where, _ in rows}
    assert shown == {name: member.module for name, member in MEMBERS.items()}


def test_every_name_the_package_table_lists_is_exported_there() -> None:
    # The names before a colon (what follows is prose); a row for a namespace (`.*`) is prose.
    for name, where, what in table(README.read_text(encoding="utf-8"), "package"):
        (module,) = code_spans(where)
        if module.endswith(".*"):
            continue
        listed = [item.strip() for item in what.split(":")[0].split(",")]
        names = [item for item in listed if IDENTIFIER.match(item)]
        exported = importlib.import_module(module).__all__
        assert [n for n in names if n not in exported] == [], name


# --- every fixture of every plugin ----------------------------------------------------------

FIXTURE_SECTION = re.compile(r"^-+ fixtures defined from (\S+) -+$")
FIXTURE_LINE = re.compile(r"^(\w+)(?: \[[^\]]+\])? -- (\S+):\d+$")


def plugin_fixtures(tmp_path: Path) -> dict[str, str]:
    """fixture -> the distribution whose file defines it, from ``pytest --fixtures``.

    Run in an empty folder, so the fixtures are the installed plugins' only: wherever
    a plugin's module lives, its entry point is what loads it.
    """
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--fixtures",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode in (0, 5), done.stdout + done.stderr  # 5: no tests collected
    found: dict[str, str] = {}
    ours = False
    for line in done.stdout.splitlines():
        if section := FIXTURE_SECTION.match(line):
            ours = section.group(1).startswith("agentkit.")
        elif ours and (fixture := FIXTURE_LINE.match(line)):
            path = (tmp_path / fixture.group(2)).resolve()
            (member,) = [
                name for name in MEMBERS if (ROOT / "packages" / name / "src") in path.parents
            ]
            found[fixture.group(1)] = member
    return found


def test_the_fixture_table_lists_every_fixture_of_every_plugin(tmp_path: Path) -> None:
    rows = table(README.read_text(encoding="utf-8"), "fixture")
    documented = {code_spans(fixture)[0]: package for fixture, package, _ in rows}
    found = plugin_fixtures(tmp_path)
    assert {"fake_api", "fake_api_session", "cli_recording", "make_ctx"} <= set(found)
    assert documented == found


# --- the meta-package: six fakes packages --------------------------------------------------


def test_the_meta_package_docs_name_every_fakes_package() -> None:
    fakes = sorted(
        name
        for requirement in MEMBERS["agentkit-testing"].requires
        if (name := re.split(r"[<>=!~ ]", requirement)[0]).startswith("agentkit-fakes-")
    )
    assert len(fakes) == 6
    readme = (ROOT / "packages/agentkit-testing/README.md").read_text(encoding="utf-8")
    assert [name for name in fakes if f"`{name}`" not in readme] == []
    page = (ROOT / "docs/packages/agentkit-testing.md").read_text(encoding="utf-8")
    (row,) = table(page, "import")
    assert "the six agentkit-fakes-* packages" in row[1]
    assert [name for name in fakes if f"-{name.rsplit('-', 1)[1]}" not in row[1]] == []


# --- the shipped recordings -----------------------------------------------------------------


def test_the_recordings_table_lists_every_shipped_recording() -> None:
    text = (ROOT / "packages/agentkit-fakes-cli/README.md").read_text(encoding="utf-8")
    rows = table(text[text.index("## Shipped recordings") :], "CLI")
    documented = sorted((cli, code_spans(name)[0]) for cli, name, _ in rows)
    shipped = sorted((cli, name) for cli in ("claude", "codex") for name in recording_names(cli))
    assert documented == shipped


# --- every violation kind, per double --------------------------------------------------------


def _src_files(member: str) -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted((ROOT / "packages" / member / "src").rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def _problem_kinds(function: ast.AST) -> set[str]:
    """The kinds a problem function hands back: the first item of each tuple it builds
    (a tuple literal, or a call of a NamedTuple such as ``Problem(kind, ...)``)."""
    firsts = [
        node.elts[0] if isinstance(node, ast.Tuple) else node.args[0]
        for node in ast.walk(function)
        if (isinstance(node, ast.Tuple) and node.elts) or (isinstance(node, ast.Call) and node.args)
    ]
    return {
        first.value
        for first in firsts
        if isinstance(first, ast.Constant)
        and isinstance(first.value, str)
        and KIND.match(first.value)
    }


def recorded_kinds(member: str) -> set[str]:
    """Every kind a member's code records: ``_record_violation(kind, ...)`` (or
    ``record(kind, ...)`` / ``_record(kind, ...)``, the recorder a double hands its
    parts), ``_violation(kind, ...)``, ``Violation(double, site, kind, ...)``, and for
    ``_record_violation(*problem)`` the kinds of the function (every function of that
    name) ``problem`` came from."""
    files = list(_src_files(member))
    functions: dict[str, list[ast.AST]] = {}
    for _, tree in files:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                functions.setdefault(node.name, []).append(node)
    found: set[str] = set()
    positions = {"_record_violation": 0, "record": 0, "_record": 0, "_violation": 0, "Violation": 2}
    for _, tree in files:
        loops = {
            loop.target.id: (
                loop.iter.func.id if isinstance(loop.iter.func, ast.Name) else loop.iter.func.attr
            )
            for loop in ast.walk(tree)
            if isinstance(loop, ast.For | ast.comprehension)
            and isinstance(loop.target, ast.Name)
            and isinstance(loop.iter, ast.Call)
            and isinstance(loop.iter.func, ast.Name | ast.Attribute)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            position = positions.get(name or "")
            if position is None or len(node.args) <= position:
                continue
            argument = node.args[position]
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.add(argument.value)
            elif isinstance(argument, ast.Starred) and isinstance(argument.value, ast.Name):
                for function in functions[loops[argument.value.id]]:
                    found |= _problem_kinds(function)
    return found


DOUBLE_PACKAGES = [
    "agentkit-fakes-llm",
    "agentkit-fakes-io",
    "agentkit-fakes-cli",
    "agentkit-fakes-api",
]


def violation_table() -> list[tuple[list[str], set[str]]]:
    """(the doubles a row names, the kinds it lists) for each row of the guide's table.

    A kind is a code span outside parentheses: inside them is what it means, which
    may name an option (``side_requests``) in the same spelling.
    """
    text = (ROOT / "docs/guides/verification.md").read_text(encoding="utf-8")
    rows = []
    for doubles, kinds in table(text, "double"):
        names = [re.findall(r"\w+", span)[0] for span in code_spans(doubles)]
        bare = kinds
        while (shorter := re.sub(r"\([^()]*\)", "", bare)) != bare:
            bare = shorter
        rows.append((names, {span for span in code_spans(bare) if KIND.match(span)}))
    return rows


def test_the_collector_finds_the_kinds_it_must() -> None:
    # Not vacuous: a literal kind, a kind from a problem function, the plugin's own kind.
    assert {"unused_turns", "invalid_tool_arguments"} <= recorded_kinds("agentkit-fakes-llm")
    assert "unknown_route" in recorded_kinds("agentkit-fakes-api")
    assert "verification_crashed" in recorded_kinds("agentkit-core")


@pytest.mark.parametrize("member", DOUBLE_PACKAGES)
def test_the_guide_lists_every_kind_a_double_records_on_its_row(member: str) -> None:
    module = importlib.import_module(MEMBERS[member].module)
    doubles = {
        name
        for name in module.__all__
        if inspect.isclass(obj := getattr(module, name)) and issubclass(obj, VerifyingDouble)
    }
    listed = {kind for names, kinds in violation_table() if doubles & set(names) for kind in kinds}
    assert sorted(recorded_kinds(member) - listed) == []


def test_every_kind_in_the_guide_is_one_the_code_records() -> None:
    recorded = set().union(*(recorded_kinds(m) for m in [*DOUBLE_PACKAGES, "agentkit-core"]))
    listed = set().union(*(kinds for _, kinds in violation_table()))
    assert sorted(listed - recorded) == []
    assert "verification_crashed" in listed


# --- ApiRequest.json --------------------------------------------------------------------------


def test_api_request_json_is_the_property_the_guide_says() -> None:
    assert isinstance(inspect.getattr_static(ApiRequest, "json"), property)
    guide = (ROOT / "docs/guides/api-server.md").read_text(encoding="utf-8")
    assert "`json` is the body parsed, a property (not a method" in guide
    request = ApiRequest("POST", "/v1/messages", {}, b'{"model": "m"}', 200)
    assert request.json == {"model": "m"}
    assert ApiRequest("POST", "/v1/messages", {}, b"", 200).json is None
