"""What a releasable set of agentkit artefacts must satisfy, as pure checks over files.

Each check returns a list of problems (plain sentences naming the artefact
and the fix), empty when it holds, so the runner can report every problem at
once instead of stopping at the first. Nothing here runs a tool: the runner
(:mod:`tools.release.check`) builds, installs and imports; these read what was
built. That split lets the tests feed each check a deliberately broken
artefact without building anything.

The version rule. The packages move together: every member carries the same
version, and every ``agentkit-*`` requirement admits the version the workspace
holds and nothing outside its series -- no release before the series' first
and none from the next breaking series (the next minor while the kit is 0.x,
the next major after). A double installed beside a core from another series
is the break this prevents. Every member spells a sibling's range the same
way, so one edit per release cannot miss a file.
"""

from __future__ import annotations

import email.message
import email.parser
import tarfile
import tomllib
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

__all__ = [
    "KIT_PREFIX",
    "Member",
    "artefact_problems",
    "compatible_range",
    "constraint_problems",
    "entry_point_modules",
    "entry_points",
    "license_problems",
    "metadata_problems",
    "plugin_anchor",
    "plugin_anchor_problems",
    "read_members",
    "read_metadata",
    "same_version_problems",
    "sdist_path",
    "top_level_modules",
    "wheel_modules",
    "wheel_path",
]

KIT_PREFIX = "agentkit-"
"""Distributions whose name starts with this are the workspace's own."""

LICENSE = "LICENSE"


@dataclass(frozen=True, slots=True)
class Member:
    """One workspace member, as its ``pyproject.toml`` declares it."""

    name: str
    version: str
    module: str
    requires: tuple[str, ...]
    extra_modules: tuple[str, ...] = ()
    """The other modules ``module-name`` lists after the package (a plugin's anchor)."""

    @property
    def stem(self) -> str:
        """The file-name form of the distribution name (``agentkit_fakes_llm``)."""
        return self.name.replace("-", "_")


def read_members(packages: Path) -> list[Member]:
    """Every ``packages/*/pyproject.toml``, sorted by distribution name."""
    members = []
    for pyproject in sorted(packages.glob("*/pyproject.toml")):
        with pyproject.open("rb") as handle:
            config = tomllib.load(handle)
        project = config["project"]
        declared = config["tool"]["uv"]["build-backend"]["module-name"]
        modules = [declared] if isinstance(declared, str) else declared
        members.append(
            Member(
                name=str(project["name"]),
                version=str(project["version"]),
                module=str(modules[0]),
                requires=tuple(str(r) for r in project.get("dependencies", [])),
                extra_modules=tuple(str(m) for m in modules[1:]),
            )
        )
    return sorted(members, key=lambda m: m.name)


def wheel_path(dist: Path, member: Member) -> Path:
    """Where ``uv build`` puts the member's (pure-Python) wheel."""
    return dist / f"{member.stem}-{member.version}-py3-none-any.whl"


def sdist_path(dist: Path, member: Member) -> Path:
    """Where ``uv build`` puts the member's sdist."""
    return dist / f"{member.stem}-{member.version}.tar.gz"


def artefact_problems(dist: Path, members: Sequence[Member]) -> list[str]:
    """One wheel and one sdist per member at its declared version, and nothing else."""
    expected = {p for m in members for p in (wheel_path(dist, m), sdist_path(dist, m))}
    present = {p for p in dist.iterdir() if p.suffix == ".whl" or p.name.endswith(".tar.gz")}
    problems = [
        f"{p.name}: not built (expected from packages/{m.name}/pyproject.toml)"
        for m in members
        for p in (wheel_path(dist, m), sdist_path(dist, m))
        if p not in present
    ]
    problems += [
        f"{p.name}: built but no member declares it (a stale file in the dist folder?)"
        for p in sorted(present - expected)
    ]
    return problems


def read_metadata(artefact: Path) -> email.message.Message:
    """The core metadata of a wheel (``METADATA``) or sdist (``PKG-INFO``)."""
    if artefact.suffix == ".whl":
        with zipfile.ZipFile(artefact) as archive:
            (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
            text = archive.read(name).decode("utf-8")
    else:
        with tarfile.open(artefact) as archive:
            member = archive.getmember(f"{_sdist_top(artefact)}/PKG-INFO")
            extracted = archive.extractfile(member)
            assert extracted is not None
            text = extracted.read().decode("utf-8")
    return email.parser.HeaderParser().parsestr(text)


def _sdist_top(sdist: Path) -> str:
    return sdist.name.removesuffix(".tar.gz")


def license_problems(artefact: Path, license_text: str) -> list[str]:
    """LICENSE is inside the artefact, is the repository's, and the metadata names it."""
    if artefact.suffix == ".whl":
        with zipfile.ZipFile(artefact) as archive:
            found = [n for n in archive.namelist() if n.endswith(f".dist-info/licenses/{LICENSE}")]
            texts = [archive.read(n).decode("utf-8") for n in found]
    else:
        with tarfile.open(artefact) as archive:
            path = f"{_sdist_top(artefact)}/{LICENSE}"
            names = archive.getnames()
            texts = []
            if path in names:
                extracted = archive.extractfile(path)
                assert extracted is not None
                texts = [extracted.read().decode("utf-8")]
    if not texts:
        return [f"{artefact.name}: no {LICENSE} inside (list it in license-files)"]
    problems = []
    if texts[0] != license_text:
        problems.append(f"{artefact.name}: its {LICENSE} differs from the repository's")
    if LICENSE not in read_metadata(artefact).get_all("License-File", []):
        problems.append(f"{artefact.name}: the metadata has no License-File: {LICENSE}")
    return problems


def metadata_problems(artefact: Path, member: Member) -> list[str]:
    """The built metadata says what the pyproject says (name, version, requirements)."""
    metadata = read_metadata(artefact)
    problems = []
    if metadata["Name"] != member.name:
        problems.append(f"{artefact.name}: Name is {metadata['Name']!r}, not {member.name!r}")
    if metadata["Version"] != member.version:
        problems.append(
            f"{artefact.name}: Version is {metadata['Version']!r}, "
            f"but packages/{member.name}/pyproject.toml says {member.version!r}"
        )
    built = sorted(_normalized(r) for r in metadata.get_all("Requires-Dist", []))
    declared = sorted(_normalized(r) for r in member.requires)
    if built != declared:
        problems.append(f"{artefact.name}: Requires-Dist {built} is not the declared {declared}")
    return problems


def _normalized(requirement: str) -> str:
    try:
        return str(Requirement(requirement))
    except InvalidRequirement:
        return requirement


def compatible_range(version: str) -> tuple[Version, Version]:
    """The series ``version`` belongs to: ``[first release, next breaking release)``."""
    parsed = Version(version)
    if parsed.major == 0:
        return Version(f"0.{parsed.minor}.0"), Version(f"0.{parsed.minor + 1}")
    return Version(f"{parsed.major}.0.0"), Version(f"{parsed.major + 1}")


def same_version_problems(members: Sequence[Member]) -> list[str]:
    """Every member at one version: a release bumps them together."""
    versions = sorted({m.version for m in members})
    if len(versions) <= 1:
        return []
    listed = ", ".join(f"{m.name} {m.version}" for m in members)
    return [f"the packages move together, but they are at {len(versions)} versions: {listed}"]


def constraint_problems(
    versions: Mapping[str, str], requirements: Mapping[str, Iterable[str]]
) -> list[str]:
    """Each ``agentkit-*`` requirement admits the workspace version's whole series, no more.

    ``versions`` maps each member to its version; ``requirements`` maps each
    member to the requirement strings it declares (third-party ones are not
    judged here).
    """
    problems: list[str] = []
    spellings: dict[str, dict[str, list[str]]] = {}
    for requirer, declared in sorted(requirements.items()):
        for text in declared:
            try:
                requirement = Requirement(text)
            except InvalidRequirement as error:
                problems.append(f"{requirer}: requirement {text!r} does not parse ({error})")
                continue
            if not requirement.name.startswith(KIT_PREFIX):
                continue
            where = f"{requirer} requires {text!r}"
            if requirement.name not in versions:
                problems.append(f"{where}: no workspace member is called {requirement.name}")
                continue
            problems += _range_problems(where, requirement.specifier, versions[requirement.name])
            by_spec = spellings.setdefault(requirement.name, {})
            by_spec.setdefault(str(requirement.specifier), []).append(requirer)
    for name, by_spec in sorted(spellings.items()):
        if len(by_spec) > 1:
            listed = "; ".join(f"{spec!r} by {', '.join(who)}" for spec, who in by_spec.items())
            problems.append(f"{name} is required with different ranges: {listed}")
    return problems


def _range_problems(where: str, specifier: SpecifierSet, version: str) -> list[str]:
    try:
        first, breaking = compatible_range(version)
    except InvalidVersion:
        return [f"{where}: the workspace version {version!r} does not parse"]
    series = f">={first},<{breaking}"
    problems = []
    if not specifier.contains(version, prereleases=True):
        problems.append(f"{where}: excludes the workspace's {version} (use {series!r})")
    if specifier.contains(breaking, prereleases=False) or not str(specifier):
        problems.append(f"{where}: admits {breaking}, the next breaking series (use {series!r})")
    if _admits_below(specifier, first):
        problems.append(f"{where}: admits releases before {first} (use {series!r})")
    return problems


def _admits_below(specifier: SpecifierSet, first: Version) -> bool:
    """Whether some version of an earlier series satisfies ``specifier``."""
    lower_bounds = [
        Version(s.version) for s in specifier if s.operator in {">=", ">", "~=", "==", "==="}
    ]
    if not lower_bounds:
        return True
    return max(lower_bounds) < first


def wheel_modules(wheel: Path, package: str) -> list[str]:
    """Every module the wheel installs under ``package``, dotted, packages before modules."""
    prefix = package.replace(".", "/") + "/"
    with zipfile.ZipFile(wheel) as archive:
        files = [n for n in archive.namelist() if n.startswith(prefix) and n.endswith(".py")]
    modules = []
    for name in files:
        dotted = name.removesuffix(".py").replace("/", ".")
        modules.append(dotted.removesuffix(".__init__"))
    return sorted(modules, key=lambda m: (m.count("."), m))


def entry_points(wheel: Path, group: str) -> dict[str, str]:
    """The wheel's entry points in one group (``pytest11``): name -> module."""
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt")]
        text = archive.read(names[0]).decode("utf-8") if names else ""
    found, current = {}, None
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1]
        elif current == group and "=" in line:
            name, value = (part.strip() for part in line.split("=", 1))
            found[name] = value.split(":", 1)[0].strip()
    return found


def entry_point_modules(wheel: Path, group: str) -> list[str]:
    """The modules the wheel registers under an entry-point group (``pytest11``)."""
    return list(entry_points(wheel, group).values())


# --- a pytest plugin in a namespace package ------------------------------------


def plugin_anchor(member: Member) -> str:
    """The top-level package a member that registers a pytest plugin ships beside it.

    pytest marks for assertion rewriting the top-level modules of each distribution
    with a ``pytest11`` entry point, read from its file list; a distribution whose code
    sits in a namespace package has none, so pytest strips leading path parts until it
    finds some and marks what it finds there (``types``, ``clock``, ``api``): names it
    then warns about as already imported. This package, empty, is the one top-level
    name such a wheel ships, so it is the one pytest marks.
    """
    return f"_{member.stem}_pytest"


def top_level_modules(wheel: Path) -> list[str]:
    """The top-level modules and packages in the wheel's file list, as pytest reads them.

    A module is a ``name.py`` at the top, a package a ``name/__init__.py``; a folder
    with no ``__init__.py`` (a namespace level such as ``agentkit/``) is neither.
    """
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    found = {n.removesuffix(".py") for n in names if "/" not in n and n.endswith(".py")}
    found |= {n.split("/")[0] for n in names if n.count("/") == 1 and n.endswith("/__init__.py")}
    return sorted(found)


def plugin_anchor_problems(wheel: Path, member: Member) -> list[str]:
    """A wheel that registers a pytest plugin ships exactly its anchor at the top level."""
    if not entry_points(wheel, "pytest11"):
        return []
    anchor = plugin_anchor(member)
    top = top_level_modules(wheel)
    if top == [anchor]:
        return []
    if anchor not in top:
        marked = (
            "the modules it finds below the namespace (by their last names)"
            if not top
            else ", ".join(top)
        )
        return [
            f"{wheel.name}: registers a pytest11 plugin but ships no top-level `{anchor}`, "
            f"so pytest marks {marked} for assertion rewriting and warns "
            f"(PytestAssertRewriteWarning) in every session; add `{anchor}` "
            f"(a package holding only an __init__.py) to module-name in "
            f"packages/{member.name}/pyproject.toml"
        ]
    strays = ", ".join(name for name in top if name != anchor)
    return [
        f"{wheel.name}: ships top-level {strays} beside `{anchor}`; pytest marks each "
        f"for assertion rewriting, so keep the wheel's code below its package"
    ]
