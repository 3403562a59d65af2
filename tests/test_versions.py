"""One version source per package, and a ``__version__`` on every package.

``version`` in each member's ``pyproject.toml`` is the only place a number is
written; each package's ``__version__`` reads it back from its own
distribution's installed metadata. These tests pin both halves: the attribute
equals the metadata of the distribution that owns the package (not a sibling's,
which a copy-pasted distribution name would give), the metadata equals the
pyproject, and importing a package does not pay for the metadata lookup until
``__version__`` is asked for.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# (importable module holding __version__, the distribution that owns it)
PACKAGES = [
    ("agentkit.core.version", "agentkit-core"),
    ("agentkit.agents", "agentkit-agents"),
    ("agentkit.fakes.llm", "agentkit-fakes-llm"),
    ("agentkit.fakes.io", "agentkit-fakes-io"),
    ("agentkit.fakes.cli", "agentkit-fakes-cli"),
    ("agentkit.fakes.ctx", "agentkit-fakes-ctx"),
    ("agentkit.fakes.api", "agentkit-fakes-api"),
    ("agentkit.fakes.mcp", "agentkit-fakes-mcp"),
    ("agentkit.core.testing", "agentkit-testing"),
]
LAZY = [module for module, _ in PACKAGES if module != "agentkit.core.version"]


def pyproject(distribution: str) -> dict[str, object]:
    with (ROOT / "packages" / distribution / "pyproject.toml").open("rb") as handle:
        project = tomllib.load(handle)["project"]
    assert isinstance(project, dict)
    return project


def test_every_member_is_listed() -> None:
    members = sorted(p.parent.name for p in (ROOT / "packages").glob("*/pyproject.toml"))
    assert sorted(distribution for _, distribution in PACKAGES) == members


@pytest.mark.parametrize(("module", "distribution"), PACKAGES)
def test_version_is_the_owning_distributions_metadata(module: str, distribution: str) -> None:
    version = importlib.import_module(module).__version__
    assert isinstance(version, str)
    assert version == importlib.metadata.version(distribution)


@pytest.mark.parametrize(("module", "distribution"), PACKAGES)
def test_the_metadata_is_the_pyprojects_version(module: str, distribution: str) -> None:
    project = pyproject(distribution)
    # A dynamic version would be a second source; the backend must take this one.
    dynamic = project.get("dynamic", [])
    assert isinstance(dynamic, list)
    assert "version" not in dynamic
    assert importlib.metadata.version(distribution) == project["version"]


@pytest.mark.parametrize(("module", "distribution"), PACKAGES)
def test_version_reads_its_own_distribution_name(module: str, distribution: str) -> None:
    # Every distribution is at the same version today, so equality alone would not catch
    # a package reading a sibling's metadata; the source names the owner.
    source_module = module if module.endswith(".version") else f"{module}._version"
    spec = importlib.util.find_spec(source_module)
    assert spec is not None
    assert spec.origin is not None
    source = Path(spec.origin).read_text(encoding="utf-8")
    assert f'_distribution_version("{distribution}")' in source


@pytest.mark.parametrize("module", LAZY)
def test_importing_a_package_defers_the_metadata_lookup(module: str) -> None:
    # A fresh interpreter: in this one pytest has long imported importlib.metadata.
    script = (
        "import json, sys\n"
        f"import {module} as package\n"
        "before = 'importlib.metadata' in sys.modules\n"
        "version = package.__version__\n"
        "print(json.dumps([before, version, '__version__' in dir(package)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    before, version, listed = json.loads(done.stdout)
    assert before is False
    assert version == importlib.import_module(module).__version__
    assert listed is True


@pytest.mark.parametrize("module", LAZY)
def test_version_is_not_in_all(module: str) -> None:
    # __all__ is each package's pinned public API of names to import; __version__ is an
    # attribute to read, as in the standard library.
    assert "__version__" not in importlib.import_module(module).__all__
