"""The README's install line, run as written in a fresh venv, then the README's first test.

A new user follows the README: build the wheels, ``pip install --find-links
dist <packages>``, copy the first test, run pytest. If the install line leaves
out a package the test imports, every other test here still passes (the
workspace installs every member) and the user meets a ModuleNotFoundError.

So this builds the wheels (with the release check's helpers), reads the
package list from the README's ``pip install --find-links`` line, installs
exactly those with pip into a fresh venv, and runs the README's python block
there with that venv's pytest, in pytest-asyncio's default (strict) mode --
and again under the README's pytest configuration with warnings as errors
(``filterwarnings = ["error"]`` and ``-W error``), where it must pass and print
no warning: pytest reads an installed wheel's file list to choose what to
rewrite, and the workspace's editable installs hide what a user's first
session shows.

Offline: the agentkit packages come from the built folder, and the
third-party ones (pytest, pytest-asyncio and what they need) from wheels
repacked out of this very environment, where they are already installed --
pip runs with ``--isolated --no-index``, so no index and no pip configuration
of the machine takes part.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import os
import re
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tools.release.check import ROOT, TIMEOUT, build, clean_env, run
from tools.release.check import Report as BuildReport

pytestmark = pytest.mark.slow

README = ROOT / "README.md"
INSTALL = re.compile(r"^pip install --find-links (\S+) (.+)$", flags=re.M)
FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```", flags=re.S | re.M)
TOML_FENCE = re.compile(r"^```toml[^\n]*\n(.*?)^```", flags=re.S | re.M)
# Written by an installer, not part of what a wheel ships.
INSTALLER_FILES = {"INSTALLER", "REQUESTED", "RECORD", "direct_url.json", "uv_cache.json"}


def documented_packages() -> list[str]:
    """The packages the README's ``pip install --find-links`` line installs."""
    (line,) = INSTALL.findall(README.read_text(encoding="utf-8"))
    return shlex.split(line[1])


def closure(names: list[str]) -> list[importlib.metadata.Distribution]:
    """The installed third-party distributions ``names`` need here, transitively."""
    found: dict[str, importlib.metadata.Distribution] = {}
    pending = list(names)
    while pending:
        name = canonicalize_name(pending.pop())
        if name in found or name.startswith("agentkit-"):
            continue
        found[name] = importlib.metadata.distribution(name)
        for text in found[name].requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                pending.append(requirement.name)
    return list(found.values())


def repack(distribution: importlib.metadata.Distribution, folder: Path) -> Path:
    """A wheel of an installed pure-Python distribution, from the files its RECORD lists."""
    name = distribution.metadata["Name"].replace("-", "_")
    wheel = folder / f"{name}-{distribution.version}-py3-none-any.whl"
    files = [
        f
        for f in distribution.files or []
        if f.parts[0] != ".."
        and "__pycache__" not in f.parts
        and not (f.parts[0].endswith(".dist-info") and f.name in INSTALLER_FILES)
    ]
    (info,) = {f.parts[0] for f in files if f.parts[0].endswith(".dist-info")}
    record: list[str] = []
    with zipfile.ZipFile(wheel, "w") as archive:
        for file in files:
            data = Path(str(distribution.locate_file(file))).read_bytes()
            archive.writestr(file.as_posix(), data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            record.append(f"{file.as_posix()},sha256={digest.decode()},{len(data)}")
        record.append(f"{info}/RECORD,,")
        archive.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return wheel


def readme_test() -> str:
    (block,) = FENCE.findall(README.read_text(encoding="utf-8"))
    return str(block)


def readme_pytest_configuration() -> str:
    (block,) = TOML_FENCE.findall(README.read_text(encoding="utf-8"))
    return str(block)


def test_the_readme_configures_the_asyncio_loop_scope() -> None:
    # Unset, pytest-asyncio warns in every session (an error under filterwarnings = error).
    lines = readme_pytest_configuration().strip().splitlines()
    assert lines[0] == "[tool.pytest.ini_options]"
    assert 'asyncio_default_fixture_loop_scope = "function"' in lines
    assert len(lines) == 3


def test_the_install_line_names_the_agent_package_the_first_test_imports() -> None:
    # Cheap half of the check below: every distribution the README's test imports from is
    # on the install line.
    imported = set(re.findall(r"^from agentkit\.(\w+)\.", readme_test(), flags=re.M))
    needed = {"agents": "agentkit-agents", "core": "agentkit-testing"}
    assert {needed[top] for top in imported} <= set(documented_packages())


def test_the_documented_install_runs_the_readme_test(tmp_path: Path) -> None:
    dist, thirdparty, project = tmp_path / "dist", tmp_path / "thirdparty", tmp_path / "project"
    thirdparty.mkdir()
    project.mkdir()
    assert build(dist, BuildReport()), "uv build --all-packages failed (output above)"
    packages = documented_packages()
    for distribution in closure([p for p in packages if not p.startswith("agentkit-")]):
        repack(distribution, thirdparty)

    env = clean_env()
    venv = tmp_path / "venv"
    assert run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path, env=env) is not None
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    install = [str(python), "-m", "pip", "--isolated", "install", "--no-index", "--quiet"]
    install += ["--find-links", str(dist), "--find-links", str(thirdparty), *packages]
    assert run(install, cwd=project, env=env) is not None, "the documented install failed"

    def pytest(*options: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", *options],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )

    (project / "test_first.py").write_text(readme_test(), encoding="utf-8")
    done = pytest()
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"\b1 passed\b", done.stdout), done.stdout

    # The README's configuration, and warnings as errors as many projects set them.
    configuration = readme_pytest_configuration() + 'filterwarnings = ["error"]\n'
    (project / "pyproject.toml").write_text(configuration, encoding="utf-8")
    done = pytest("-W", "error")
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"\b1 passed in\b", done.stdout), done.stdout
    assert "warning" not in (done.stdout + done.stderr).lower(), done.stdout + done.stderr
