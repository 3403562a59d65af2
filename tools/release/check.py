"""Build every agentkit distribution and check it is fit to publish; exit nonzero if not.

``uv run --frozen python -m tools.release.check [--dist DIR] [--keep]``

1. ``uv build --all-packages`` into a fresh folder: each member's sdist, and a
   wheel built from that sdist (so an sdist missing a file fails here).
2. One wheel and one sdist per member, at the version its pyproject declares;
   the built metadata repeats the pyproject's name, version and requirements.
3. ``twine check --strict`` on every artefact (what PyPI would refuse).
4. LICENSE inside every wheel and sdist, equal to the repository's, named by
   ``License-File`` in the metadata.
5. Versions: every member at one version, and every ``agentkit-*`` requirement
   admitting the workspace's version and nothing outside its series (see
   :mod:`tools.release.rules`).
6. Each wheel ALONE in a fresh venv, with only its ``agentkit-*``
   requirements, from the same folder and offline (``--no-index``): exactly
   those distributions end up installed, every module the wheel ships imports,
   and ``__version__`` is the wheel's version. A module registered as a pytest
   plugin may need pytest, its host, which is not installed there.
7. A wheel that registers a pytest plugin ships one top-level package of its
   own (its anchor, see :func:`tools.release.rules.plugin_anchor`) and nothing
   else at the top; then, in that same venv with pytest added (the version
   running this check), a test session under ``filterwarnings = ["error"]`` and
   ``-W error`` starts, finds each plugin registered under its entry-point name,
   and passes with no warning: what a new project with that setting sees.

Every problem is collected and printed at the end, each naming the artefact
and the fix, instead of stopping at the first.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from packaging.requirements import Requirement

from tools.release.rules import (
    KIT_PREFIX,
    Member,
    artefact_problems,
    constraint_problems,
    entry_point_modules,
    entry_points,
    license_problems,
    metadata_problems,
    plugin_anchor_problems,
    read_members,
    read_metadata,
    same_version_problems,
    sdist_path,
    wheel_modules,
    wheel_path,
)

__all__ = ["main"]

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 600
# Entry-point groups whose modules run inside a host the fresh venv lacks.
HOSTED = {"pytest11": "pytest"}
# uv settings that change where things are cached or whether Python is downloaded, not
# what gets installed; every other UV_* variable (indexes, find-links) is dropped.
UV_KEPT = {"UV_CACHE_DIR", "UV_PYTHON_DOWNLOADS", "UV_OFFLINE", "UV_NATIVE_TLS"}

PROBE = """
import importlib, importlib.metadata, json, sys
modules, hosted = json.loads(sys.argv[1]), json.loads(sys.argv[2])
failed, skipped = {}, []
for name in modules:
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as error:
        if hosted.get(name) == error.name:
            skipped.append(name)
        else:
            failed[name] = f"{type(error).__name__}: {error}"
    except Exception as error:
        failed[name] = f"{type(error).__name__}: {error}"
version = None
for name in modules:
    module = sys.modules.get(name)
    if module is not None and isinstance(getattr(module, "__version__", None), str):
        version = [name, module.__version__]
        break
kit = sorted(
    d.metadata["Name"] for d in importlib.metadata.distributions()
    if d.metadata["Name"].startswith("agentkit-")
)
print(json.dumps({"failed": failed, "skipped": skipped, "version": version, "installed": kit}))
"""


@dataclass
class Report:
    """The outcome of each step, in order, and every problem found."""

    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def step(self, label: str, problems: Sequence[str], detail: str) -> None:
        status = "ok  " if not problems else "FAIL"
        self.lines.append(f"  {status} {label:<38} {detail}")
        self.problems.extend(problems)
        print(self.lines[-1], flush=True)


def run(command: Sequence[str], *, cwd: Path, env: dict[str, str] | None = None) -> str | None:
    """Run ``command``; its output on success, ``None`` (after printing why) on failure."""
    try:
        done = subprocess.run(
            list(command),
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        print(f"    {' '.join(command)}: no answer in {TIMEOUT}s", file=sys.stderr)
        return None
    if done.returncode != 0:
        print(f"    {' '.join(command)} exited {done.returncode}", file=sys.stderr)
        print(_indent(done.stdout + done.stderr), file=sys.stderr)
        return None
    return done.stdout + done.stderr


def _indent(text: str) -> str:
    return "\n".join(f"      {line}" for line in text.strip().splitlines())


def uv() -> str:
    """The uv running us (``uv run`` sets ``UV``), else the one on PATH."""
    found = os.environ.get("UV") or shutil.which("uv")
    if not found:
        raise SystemExit("release check: uv is needed (pip install uv) and was not found")
    return found


def clean_env() -> dict[str, str]:
    """Our environment minus whatever could point an install at the workspace or an index."""
    return {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV"}
        and not key.startswith("PIP_")
        and (not key.startswith("UV_") or key in UV_KEPT)
    }


def build(dist: Path, report: Report) -> bool:
    started = time.perf_counter()
    out = run([uv(), "build", "--all-packages", "--out-dir", str(dist)], cwd=ROOT)
    built = sorted(p.name for p in dist.iterdir()) if dist.is_dir() else []
    report.step(
        "uv build --all-packages",
        [] if out is not None else ["uv build --all-packages failed (output above)"],
        f"{len(built)} files in {time.perf_counter() - started:.1f}s",
    )
    return out is not None


def twine(artefacts: Sequence[Path], report: Report) -> None:
    out = run([sys.executable, "-m", "twine", "check", "--strict", *map(str, artefacts)], cwd=ROOT)
    report.step(
        "twine check --strict",
        [] if out is not None else ["twine check --strict refused an artefact (output above)"],
        f"{len(artefacts)} artefacts",
    )


def closure(member: Member, by_name: dict[str, Member]) -> list[str]:
    """The member and every workspace distribution it requires, transitively."""
    seen: list[str] = []
    pending = [member.name]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.append(name)
        pending += [r.name for r in map(Requirement, by_name[name].requires) if r.name in by_name]
    return sorted(seen)


def install_and_import(
    member: Member, by_name: dict[str, Member], dist: Path, work: Path, report: Report
) -> Path | None:
    """A fresh venv holding the member's wheel and its agentkit requirements; import it all.

    Returns the venv's python, ``None`` if the wheel did not install.
    """
    started = time.perf_counter()
    label = f"installed alone: {member.name}"
    wheel = wheel_path(dist, member)
    venv = work / member.name
    env = clean_env()
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    expected = closure(member, by_name)
    third_party = sorted(
        {
            r.name
            for name in expected
            for r in map(Requirement, by_name[name].requires)
            if not r.name.startswith(KIT_PREFIX)
        }
    )
    install = [uv(), "pip", "install", "--no-config", "--python", str(python), "--quiet"]
    # Our own distributions come from this build only; an index is used only for
    # third-party requirements, and none exist today.
    install += ["--find-links", str(dist)] + ([] if third_party else ["--no-index"])
    created = run(
        [uv(), "venv", "--no-config", "--quiet", "--python", sys.executable, str(venv)],
        cwd=work,
        env=env,
    )
    if (
        created is None
        or run([*install, f"{member.name}=={member.version}"], cwd=work, env=env) is None
    ):
        report.step(label, [f"{member.name}: its wheel does not install alone (output above)"], "")
        return None
    modules = wheel_modules(wheel, member.module)
    hosted = {
        module: host
        for group, host in HOSTED.items()
        for module in entry_point_modules(wheel, group)
    }
    out = run(
        [str(python), "-I", "-c", PROBE, json.dumps(modules), json.dumps(hosted)],
        cwd=work,
        env=env,
    )
    if out is None:
        report.step(label, [f"{member.name}: the import probe crashed (output above)"], "")
        return python
    result = json.loads(out.strip().splitlines()[-1])
    problems = [
        f"{member.name}: `import {name}` fails in a venv holding only "
        f"{', '.join(expected)}: {error}"
        for name, error in sorted(result["failed"].items())
    ]
    if result["installed"] != expected:
        problems.append(
            f"{member.name}: installing its wheel brought {result['installed']}, "
            f"expected {expected}"
        )
    version = result["version"]
    if version is None:
        problems.append(f"{member.name}: no module of {member.module} has a __version__")
    elif version[1] != member.version:
        problems.append(
            f"{member.name}: {version[0]}.__version__ is {version[1]!r}, not {member.version!r}"
        )
    skipped = result["skipped"]
    imported = len(modules) - len(result["failed"]) - len(skipped)
    hosts = "/".join(sorted({hosted[name] for name in skipped}))
    note = f" (+{len(skipped)} needing {hosts}, not installed)" if skipped else ""
    report.step(
        label,
        problems,
        f"{imported}/{len(modules)} modules import{note}; "
        f"__version__ {version[1] if version else '-'}; "
        f"{len(expected)} dists; {time.perf_counter() - started:.1f}s",
    )
    return python


PLUGIN_TEST = """\
EXPECTED = {expected!r}


def test_every_plugin_of_the_wheel_is_registered(pytestconfig):
    manager = pytestconfig.pluginmanager
    found = {{name: getattr(manager.get_plugin(name), "__name__", None) for name in EXPECTED}}
    assert found == EXPECTED
"""


def plugin_session(member: Member, wheel: Path, python: Path, work: Path, report: Report) -> None:
    """pytest added to the member's venv; one test under ``-W error`` sees its plugins.

    The venv holds the built wheels, not editable installs: pytest reads an installed
    wheel's file list to choose what to rewrite, which an editable install does not
    list, so only this shows what a user's first session shows.
    """
    started = time.perf_counter()
    label = f"pytest -W error: {member.name}"
    plugins = entry_points(wheel, "pytest11")
    env = clean_env()
    pytest_version = importlib.metadata.version("pytest")
    install = [uv(), "pip", "install", "--no-config", "--python", str(python), "--quiet"]
    if run([*install, f"pytest=={pytest_version}"], cwd=work, env=env) is None:
        report.step(label, [f"{member.name}: pytest {pytest_version} did not install"], "")
        return
    project = work / f"{member.name}-project"
    project.mkdir()
    (project / "pyproject.toml").write_text(
        '[tool.pytest.ini_options]\nfilterwarnings = ["error"]\n', encoding="utf-8"
    )
    (project / "test_plugins.py").write_text(PLUGIN_TEST.format(expected=plugins), encoding="utf-8")
    session = [str(python), "-I", "-m", "pytest", "-W", "error", "-p", "no:cacheprovider"]
    out = run([*session, "-q"], cwd=project, env=env)
    problems = []
    if out is None:
        problems.append(
            f"{member.name}: a one-test pytest session under -W error fails with its wheel "
            f"installed (output above)"
        )
    elif "warning" in out.lower() or "1 passed" not in out:
        problems.append(
            f"{member.name}: pytest did not pass one test without a warning with its wheel "
            f"installed:\n{_indent(out)}"
        )
    report.step(
        label,
        problems,
        f"pytest {pytest_version}; plugins {', '.join(sorted(plugins))}; "
        f"{time.perf_counter() - started:.1f}s",
    )


def check(dist: Path, work: Path) -> Report:
    report = Report()
    members = read_members(ROOT / "packages")
    by_name = {m.name: m for m in members}
    print(f"release check: {len(members)} packages into {dist}", flush=True)
    if not build(dist, report):
        return report
    report.step(
        "one wheel + sdist per member",
        artefact_problems(dist, members),
        f"{2 * len(members)} expected",
    )
    owned = [(a, m) for m in members for a in (wheel_path(dist, m), sdist_path(dist, m))]
    artefacts = [a for a, _ in owned]
    if not all(a.exists() for a in artefacts):
        return report
    report.step(
        "metadata = pyproject",
        [p for a, m in owned for p in metadata_problems(a, m)],
        "name, version, requirements",
    )
    twine(artefacts, report)
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    report.step(
        "LICENSE in every artefact",
        [p for a in artefacts for p in license_problems(a, license_text)],
        f"{len(artefacts)} artefacts",
    )
    built_requirements = {
        m.name: read_metadata(wheel_path(dist, m)).get_all("Requires-Dist", []) for m in members
    }
    count = sum(
        Requirement(r).name.startswith(KIT_PREFIX) for rs in built_requirements.values() for r in rs
    )
    report.step(
        "versions and constraints",
        same_version_problems(members)
        + constraint_problems({m.name: m.version for m in members}, built_requirements),
        f"{'/'.join(sorted({m.version for m in members}))}; {count} agentkit-* requirements",
    )
    report.step(
        "pytest plugins anchored at the top",
        [p for m in members for p in plugin_anchor_problems(wheel_path(dist, m), m)],
        f"{sum(bool(entry_points(wheel_path(dist, m), 'pytest11')) for m in members)} "
        "wheels register a pytest11 plugin",
    )
    for member in members:
        python = install_and_import(member, by_name, dist, work, report)
        if python is not None and entry_points(wheel_path(dist, member), "pytest11"):
            plugin_session(member, wheel_path(dist, member), python, work, report)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.release.check",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--dist",
        type=Path,
        help="build into this (empty or new) folder "
        "and keep it; default: a temporary folder, removed after",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="agentkit-release-") as scratch:
        dist = args.dist.resolve() if args.dist else Path(scratch) / "dist"
        if dist.exists() and any(dist.iterdir()):
            print(
                f"release check: {dist} is not empty; give a new or empty folder", file=sys.stderr
            )
            return 2
        work = Path(scratch) / "venvs"
        work.mkdir()
        report = check(dist, work)
    elapsed = time.perf_counter() - started
    if report.problems:
        print(f"\nrelease check FAILED: {len(report.problems)} problem(s) in {elapsed:.1f}s")
        for problem in report.problems:
            print(f"  - {problem}")
        return 1
    print(f"\nrelease check passed: {len(report.lines)} checks in {elapsed:.1f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
