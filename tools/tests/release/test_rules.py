"""The release check's rules (tools/release/rules.py), each shown to pass and to fail.

The runner (``python -m tools.release.check``) builds and installs for real in
.ci/run; here every rule is fed small hand-made artefacts, one broken thing
at a time, so each problem it can report is seen once -- and the workspace's
own declarations are checked without building anything.
"""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from tools.release.rules import (
    Member,
    artefact_problems,
    compatible_range,
    constraint_problems,
    entry_point_modules,
    entry_points,
    license_problems,
    metadata_problems,
    plugin_anchor,
    plugin_anchor_problems,
    read_members,
    same_version_problems,
    sdist_path,
    top_level_modules,
    wheel_modules,
    wheel_path,
)

ROOT = Path(__file__).resolve().parents[3]
LICENSE_TEXT = "MIT License\n\nCopyright (c) the authors\n"
CORE = Member("agentkit-core", "0.1.0", "agentkit.core", ())
LLM = Member("agentkit-fakes-llm", "0.1.0", "agentkit.fakes.llm", ("agentkit-core>=0.1.0,<0.2",))


def metadata_text(member: Member, *, license_file: bool = True) -> str:
    lines = ["Metadata-Version: 2.4", f"Name: {member.name}", f"Version: {member.version}"]
    lines += [f"Requires-Dist: {r}" for r in member.requires]
    if license_file:
        lines.append("License-File: LICENSE")
    return "\n".join(lines) + "\n\n"


def make_wheel(
    dist: Path,
    member: Member,
    *,
    license_text: str | None = LICENSE_TEXT,
    license_file: bool = True,
    files: dict[str, str] | None = None,
) -> Path:
    path = wheel_path(dist, member)
    info = f"{member.stem}-{member.version}.dist-info"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{info}/METADATA", metadata_text(member, license_file=license_file))
        if license_text is not None:
            archive.writestr(f"{info}/licenses/LICENSE", license_text)
        for name, text in (files or {}).items():
            archive.writestr(name.replace("{info}", info), text)
    return path


def make_sdist(dist: Path, member: Member, *, license_text: str | None = LICENSE_TEXT) -> Path:
    path = sdist_path(dist, member)
    top = f"{member.stem}-{member.version}"
    with tarfile.open(path, "w:gz") as archive:
        entries = {f"{top}/PKG-INFO": metadata_text(member)}
        if license_text is not None:
            entries[f"{top}/LICENSE"] = license_text
        for name, text in entries.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


# --- the workspace as declared ----------------------------------------------


def test_every_member_is_read_with_its_module() -> None:
    members = read_members(ROOT / "packages")
    assert [m.name for m in members] == sorted(
        p.parent.name for p in (ROOT / "packages").glob("*/pyproject.toml")
    )
    modules = {m.name: m.module for m in members}
    assert modules["agentkit-core"] == "agentkit.core"
    assert modules["agentkit-testing"] == "agentkit.core.testing"
    extra = {m.name: m.extra_modules for m in members}
    assert extra["agentkit-core"] == ("_agentkit_core_pytest",)
    assert extra["agentkit-fakes-llm"] == ()


def test_module_name_is_read_as_a_string_or_a_list(tmp_path: Path) -> None:
    for name, declared in [("a", '"agentkit.a"'), ("b", '["agentkit.b", "_b_pytest"]')]:
        (tmp_path / name).mkdir()
        (tmp_path / name / "pyproject.toml").write_text(
            f'[project]\nname = "agentkit-{name}"\nversion = "0.1.0"\n'
            f"[tool.uv.build-backend]\nmodule-name = {declared}\n",
            encoding="utf-8",
        )
    assert read_members(tmp_path) == [
        Member("agentkit-a", "0.1.0", "agentkit.a", ()),
        Member("agentkit-b", "0.1.0", "agentkit.b", (), ("_b_pytest",)),
    ]


def test_the_workspace_declarations_satisfy_the_version_rules() -> None:
    members = read_members(ROOT / "packages")
    assert same_version_problems(members) == []
    versions = {m.name: m.version for m in members}
    assert constraint_problems(versions, {m.name: m.requires for m in members}) == []


# --- versions and constraints ------------------------------------------------


@pytest.mark.parametrize(
    ("version", "first", "breaking"),
    [
        ("0.1.0", "0.1.0", "0.2"),
        ("0.3.7", "0.3.0", "0.4"),
        ("1.4.2", "1.0.0", "2"),
        ("2.0.0", "2.0.0", "3"),
    ],
)
def test_compatible_range_is_the_series(version: str, first: str, breaking: str) -> None:
    low, high = compatible_range(version)
    assert (str(low), str(high)) == (first, breaking)


def test_members_at_two_versions_are_named() -> None:
    (problem,) = same_version_problems([CORE, Member("agentkit-fakes-io", "0.2.0", "x", ())])
    assert "agentkit-core 0.1.0" in problem
    assert "agentkit-fakes-io 0.2.0" in problem


@pytest.mark.parametrize(
    "requirement",
    [
        "agentkit-core>=0.1.0,<0.2",
        "agentkit-core>=0.1,<0.2",
        "agentkit-core~=0.1.0",
        "agentkit-core==0.1.0",
        "httpx>=0.1",  # third-party: not judged here
    ],
)
def test_a_range_inside_the_series_passes(requirement: str) -> None:
    assert constraint_problems({"agentkit-core": "0.1.0"}, {"x": [requirement]}) == []


@pytest.mark.parametrize(
    ("requirement", "says"),
    [
        ("agentkit-core", "admits 0.2, the next breaking series"),
        ("agentkit-core>=0.1.0", "admits 0.2, the next breaking series"),
        ("agentkit-core<0.2", "admits releases before 0.1.0"),
        ("agentkit-core>=0.0.5,<0.2", "admits releases before 0.1.0"),
        ("agentkit-core>=0.2,<0.3", "excludes the workspace's 0.1.0"),
        ("agentkit-core>=0.1.0,<1", "admits 0.2, the next breaking series"),
    ],
)
def test_a_range_outside_the_series_is_named_with_the_fix(requirement: str, says: str) -> None:
    problems = constraint_problems({"agentkit-core": "0.1.0"}, {"agentkit-fakes-io": [requirement]})
    matching = [p for p in problems if says in p]
    assert matching, problems
    assert matching[0].startswith(f"agentkit-fakes-io requires {requirement!r}")
    assert matching[0].endswith("(use '>=0.1.0,<0.2')")


def test_after_1_0_the_next_major_is_the_breaking_series() -> None:
    versions = {"agentkit-core": "1.2.0"}
    assert constraint_problems(versions, {"x": ["agentkit-core>=1.2,<2"]}) == []
    (problem,) = constraint_problems(versions, {"x": ["agentkit-core>=1.2,<3"]})
    assert "admits 2, the next breaking series" in problem


def test_an_unknown_sibling_is_named() -> None:
    (problem,) = constraint_problems({"agentkit-core": "0.1.0"}, {"x": ["agentkit-kore>=0.1,<0.2"]})
    assert "no workspace member is called agentkit-kore" in problem


def test_an_unparsable_requirement_is_named() -> None:
    (problem,) = constraint_problems({"agentkit-core": "0.1.0"}, {"x": ["agentkit-core >>> 1"]})
    assert problem.startswith("x: requirement 'agentkit-core >>> 1' does not parse")


def test_siblings_spelling_one_range_two_ways_are_named() -> None:
    problems = constraint_problems(
        {"agentkit-core": "0.1.0"},
        {"a": ["agentkit-core>=0.1.0,<0.2"], "b": ["agentkit-core~=0.1.0"]},
    )
    (problem,) = problems
    assert problem.startswith("agentkit-core is required with different ranges")
    assert "by a" in problem
    assert "by b" in problem


# --- artefacts ---------------------------------------------------------------


def test_a_missing_and_a_stray_artefact_are_named(tmp_path: Path) -> None:
    make_wheel(tmp_path, CORE)
    make_sdist(tmp_path, CORE)
    make_wheel(tmp_path, LLM)
    (tmp_path / "agentkit_old-0.0.1.tar.gz").write_bytes(b"")
    (tmp_path / ".gitignore").write_text("*", encoding="utf-8")
    assert artefact_problems(tmp_path, [CORE, LLM]) == [
        "agentkit_fakes_llm-0.1.0.tar.gz: not built (expected from "
        "packages/agentkit-fakes-llm/pyproject.toml)",
        "agentkit_old-0.0.1.tar.gz: built but no member declares it (a stale file in the "
        "dist folder?)",
    ]


def test_complete_artefacts_pass(tmp_path: Path) -> None:
    for member in (CORE, LLM):
        make_wheel(tmp_path, member)
        make_sdist(tmp_path, member)
    assert artefact_problems(tmp_path, [CORE, LLM]) == []
    assert metadata_problems(wheel_path(tmp_path, LLM), LLM) == []
    assert metadata_problems(sdist_path(tmp_path, LLM), LLM) == []


def test_metadata_that_is_not_the_pyprojects_is_named(tmp_path: Path) -> None:
    built = make_wheel(tmp_path, LLM)
    declared = Member(LLM.name, LLM.version, LLM.module, ("agentkit-core>=0.1.0,<0.3",))
    (problem,) = metadata_problems(built, declared)
    assert "Requires-Dist ['agentkit-core<0.2,>=0.1.0']" in problem
    newer = Member(LLM.name, "0.1.1", LLM.module, LLM.requires)
    (problem,) = metadata_problems(built, newer)
    assert "Version is '0.1.0', but packages/agentkit-fakes-llm/pyproject.toml says '0.1.1'" in (
        problem
    )


# --- LICENSE -----------------------------------------------------------------


def test_a_licensed_wheel_and_sdist_pass(tmp_path: Path) -> None:
    assert license_problems(make_wheel(tmp_path, CORE), LICENSE_TEXT) == []
    assert license_problems(make_sdist(tmp_path, CORE), LICENSE_TEXT) == []


def test_an_artefact_without_license_is_named(tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path, CORE, license_text=None)
    sdist = make_sdist(tmp_path, CORE, license_text=None)
    assert license_problems(wheel, LICENSE_TEXT) == [
        "agentkit_core-0.1.0-py3-none-any.whl: no LICENSE inside (list it in license-files)"
    ]
    assert license_problems(sdist, LICENSE_TEXT) == [
        "agentkit_core-0.1.0.tar.gz: no LICENSE inside (list it in license-files)"
    ]


def test_a_different_license_and_an_unnamed_one_are_named(tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path, CORE, license_text="Apache-2.0\n", license_file=False)
    assert license_problems(wheel, LICENSE_TEXT) == [
        "agentkit_core-0.1.0-py3-none-any.whl: its LICENSE differs from the repository's",
        "agentkit_core-0.1.0-py3-none-any.whl: the metadata has no License-File: LICENSE",
    ]


# --- what the install step imports --------------------------------------------


def test_wheel_modules_lists_packages_before_their_modules(tmp_path: Path) -> None:
    wheel = make_wheel(
        tmp_path,
        LLM,
        files={
            "agentkit/fakes/llm/__init__.py": "",
            "agentkit/fakes/llm/turn.py": "",
            "agentkit/fakes/llm/sub/__init__.py": "",
            "agentkit/fakes/llm/sub/deep.py": "",
            "agentkit/fakes/llm/py.typed": "",
        },
    )
    assert wheel_modules(wheel, "agentkit.fakes.llm") == [
        "agentkit.fakes.llm",
        "agentkit.fakes.llm.sub",
        "agentkit.fakes.llm.turn",
        "agentkit.fakes.llm.sub.deep",
    ]


def test_entry_point_modules_reads_one_group(tmp_path: Path) -> None:
    wheel = make_wheel(
        tmp_path,
        CORE,
        files={
            "{info}/entry_points.txt": (
                "[console_scripts]\nrun = agentkit.core.cli:main\n\n"
                "[pytest11]\nagentkit = agentkit.core.testing.pytest_plugin\n"
            )
        },
    )
    assert entry_point_modules(wheel, "pytest11") == ["agentkit.core.testing.pytest_plugin"]
    assert entry_points(wheel, "pytest11") == {"agentkit": "agentkit.core.testing.pytest_plugin"}
    assert entry_point_modules(wheel, "console_scripts") == ["agentkit.core.cli"]
    assert entry_point_modules(make_wheel(tmp_path / "..", LLM), "pytest11") == []


# --- a pytest plugin in a namespace package --------------------------------------

PLUGIN_ENTRY = {
    "{info}/entry_points.txt": "[pytest11]\nagentkit = agentkit.core.verification.pytest_plugin\n"
}
CORE_FILES = {
    "agentkit/core/types.py": "",
    "agentkit/core/verification/pytest_plugin/__init__.py": "",
}


def test_top_level_modules_are_modules_and_packages_not_namespace_folders(tmp_path: Path) -> None:
    wheel = make_wheel(
        tmp_path,
        CORE,
        files={**CORE_FILES, "_anchor/__init__.py": "", "loose.py": "", "_anchor/deep/x.py": ""},
    )
    assert top_level_modules(wheel) == ["_anchor", "loose"]
    assert top_level_modules(make_wheel(tmp_path / "..", LLM, files=CORE_FILES)) == []


def test_a_plugin_wheel_with_its_anchor_alone_at_the_top_passes(tmp_path: Path) -> None:
    anchor = plugin_anchor(CORE)
    assert anchor == "_agentkit_core_pytest"
    wheel = make_wheel(
        tmp_path, CORE, files={**PLUGIN_ENTRY, **CORE_FILES, f"{anchor}/__init__.py": ""}
    )
    assert plugin_anchor_problems(wheel, CORE) == []


def test_a_plugin_wheel_in_a_namespace_without_its_anchor_is_named_with_the_fix(
    tmp_path: Path,
) -> None:
    wheel = make_wheel(tmp_path, CORE, files={**PLUGIN_ENTRY, **CORE_FILES})
    (problem,) = plugin_anchor_problems(wheel, CORE)
    assert problem.startswith("agentkit_core-0.1.0-py3-none-any.whl: registers a pytest11 plugin")
    assert "PytestAssertRewriteWarning" in problem
    assert "add `_agentkit_core_pytest`" in problem
    assert "packages/agentkit-core/pyproject.toml" in problem


def test_a_plugin_wheel_with_another_top_level_name_is_named(tmp_path: Path) -> None:
    files = {**PLUGIN_ENTRY, **CORE_FILES, "types.py": ""}
    (problem,) = plugin_anchor_problems(make_wheel(tmp_path, CORE, files=files), CORE)
    assert "pytest marks types for assertion rewriting" in problem
    files["_agentkit_core_pytest/__init__.py"] = ""
    (problem,) = plugin_anchor_problems(make_wheel(tmp_path, CORE, files=files), CORE)
    assert "ships top-level types beside `_agentkit_core_pytest`" in problem


def test_a_wheel_without_a_plugin_needs_no_anchor(tmp_path: Path) -> None:
    assert plugin_anchor_problems(make_wheel(tmp_path, LLM, files=CORE_FILES), LLM) == []
