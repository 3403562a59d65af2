"""Each double is separately installable: build the wheels, install ONE in a clean venv.

The workspace installs every member, so a fakes package that quietly relied
on another (or on the meta-package) would pass every other test here and
break for the user who installed just that one. This builds every member
with ``uv build --all-packages`` (once per module), installs only
``agentkit-fakes-llm`` into a fresh venv from those wheels -- offline,
``pip --no-index`` -- and checks from inside it: the double imports and
works, ``agentkit.core.testing`` and the other fakes are absent, and mypy
type-checks a consumer against the installed (not the workspace) packages.

It also reads each wheel's and sdist's file list: no ``__init__.py`` at a
namespace level (that member would own all of ``agentkit`` once installed),
a ``py.typed`` in the owned package, nothing outside it but a plugin's anchor.
And it starts pytest under ``filterwarnings = ["error"]`` with every plugin
installed from the wheels: pytest reads an installed wheel's file list to pick
what to rewrite, which the workspace's editable installs do not list.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tools.release.check import Report, plugin_session
from tools.release.rules import plugin_anchor_problems, read_members

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
MEMBERS = sorted(p.parent.name for p in (ROOT / "packages").glob("*/pyproject.toml"))
NAMESPACE_INITS = (
    "agentkit/__init__.py",
    "agentkit/core/__init__.py",
    "agentkit/fakes/__init__.py",
)
TIMEOUT = 600
DECLARED = {m.name: m for m in read_members(ROOT / "packages")}


def run(command: list[str], *, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    assert done.returncode == 0, (
        f"{command} exited {done.returncode}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    )
    return done.stdout


def uv_command() -> list[str]:
    found = shutil.which("uv")
    if found:
        return [found]
    probe = subprocess.run(
        [sys.executable, "-m", "uv", "--version"], capture_output=True, timeout=60, check=False
    )
    if probe.returncode == 0:
        return [sys.executable, "-m", "uv"]
    pytest.fail("uv is neither on PATH nor importable as `python -m uv`; these tests need it")


def module_path(member: str) -> str:
    return DECLARED[member].module.replace(".", "/")


def dist_name(member: str) -> str:
    return member.replace("-", "_")


def clean_env() -> dict[str, str]:
    """The environment minus what could leak the workspace (or pip config) into the venv."""
    return {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV"}
        and not key.startswith("PIP_")
    }


@pytest.fixture(scope="module")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheelhouse")
    run([*uv_command(), "build", "--all-packages", "--out-dir", str(out)], cwd=ROOT)
    return out


@pytest.fixture(scope="module")
def llm_only_python(wheelhouse: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a fresh venv holding agentkit-fakes-llm and what it depends on, only."""
    where = tmp_path_factory.mktemp("clean")
    venv = where / "venv"
    run([sys.executable, "-m", "venv", str(venv)], cwd=where, env=clean_env())
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--no-index",
            "--find-links",
            str(wheelhouse),
            "--disable-pip-version-check",
            "--no-input",
            "agentkit-fakes-llm",
        ],
        cwd=where,
        env=clean_env(),
    )
    return python


def probe(python: Path, script: str) -> object:
    """Run ``script`` isolated (-I: no cwd, no PYTHON* env) and decode the JSON it prints."""
    out = run([str(python), "-I", "-c", script], cwd=python.parent, env=clean_env())
    return json.loads(out)


def wheel(wheelhouse: Path, member: str) -> Path:
    (found,) = wheelhouse.glob(f"{dist_name(member)}-*.whl")
    return found


# --- the artefacts -----------------------------------------------------------


def test_one_wheel_and_one_sdist_per_member(wheelhouse: Path) -> None:
    wheels = sorted(p.name.split("-")[0] for p in wheelhouse.glob("*.whl"))
    sdists = sorted(p.name.rsplit("-", 1)[0] for p in wheelhouse.glob("*.tar.gz"))
    assert wheels == sorted(dist_name(m) for m in MEMBERS)
    assert sdists == sorted(dist_name(m) for m in MEMBERS)


@pytest.mark.parametrize("member", MEMBERS)
def test_wheel_holds_its_package_only_typed_and_with_no_namespace_init(
    wheelhouse: Path, member: str
) -> None:
    with zipfile.ZipFile(wheel(wheelhouse, member)) as archive:
        names = [n for n in archive.namelist() if not n.endswith("/")]
    package = module_path(member)
    assert [n for n in names if n in NAMESPACE_INITS] == []
    assert f"{package}/py.typed" in names
    if member != "agentkit-core":  # agentkit.core is itself a namespace level
        assert f"{package}/__init__.py" in names
    own = [f"{package}/", *(f"{anchor}/" for anchor in DECLARED[member].extra_modules)]
    outside = [n for n in names if not n.startswith(tuple(own)) and ".dist-info/" not in n]
    assert outside == []


@pytest.mark.parametrize("member", MEMBERS)
def test_a_plugin_wheel_ships_its_anchor_and_nothing_else_at_the_top(
    wheelhouse: Path, member: str
) -> None:
    assert plugin_anchor_problems(wheel(wheelhouse, member), DECLARED[member]) == []


@pytest.mark.parametrize("member", MEMBERS)
def test_sdist_has_no_namespace_init(wheelhouse: Path, member: str) -> None:
    (sdist,) = wheelhouse.glob(f"{dist_name(member)}-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    top = names[0].split("/")[0]
    assert [n for n in names if n.removeprefix(f"{top}/src/") in NAMESPACE_INITS] == []
    assert f"{top}/src/{module_path(member)}/py.typed" in names


@pytest.mark.parametrize(
    ("member", "requires"),
    [
        ("agentkit-core", []),
        ("agentkit-fakes-llm", ["agentkit-core"]),
        ("agentkit-fakes-io", ["agentkit-core"]),
        ("agentkit-fakes-cli", ["agentkit-core"]),
        ("agentkit-fakes-ctx", ["agentkit-core"]),
        ("agentkit-fakes-api", ["agentkit-core"]),
    ],
)
def test_wheel_metadata_declares_only_the_allowed_dependencies(
    wheelhouse: Path, member: str, requires: list[str]
) -> None:
    with zipfile.ZipFile(wheel(wheelhouse, member)) as archive:
        (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        lines = archive.read(metadata).decode().splitlines()
    declared = [
        re.split(r"[\s<>=!~;\[(]", line.removeprefix("Requires-Dist: "), maxsplit=1)[0]
        for line in lines
        if line.startswith("Requires-Dist:")
    ]
    assert declared == requires


@pytest.mark.parametrize(
    ("member", "entry"),
    [
        # Verification comes with core, so any one double installed alone is verified.
        ("agentkit-core", "agentkit = agentkit.core.verification.pytest_plugin"),
        ("agentkit-testing", "agentkit_testing = agentkit.core.testing.pytest_plugin"),
    ],
)
def test_the_wheels_register_the_pytest_plugins(wheelhouse: Path, member: str, entry: str) -> None:
    with zipfile.ZipFile(wheel(wheelhouse, member)) as archive:
        (entry_points,) = [
            n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt")
        ]
        text = archive.read(entry_points).decode()
    assert "[pytest11]" in text
    assert entry in text


# --- the clean venv ----------------------------------------------------------


def test_pytest_starts_under_warnings_as_errors_with_every_plugin_from_the_wheels(
    wheelhouse: Path, tmp_path: Path
) -> None:
    # agentkit-testing requires the other three plugin distributions: all four are there.
    venv = tmp_path / "venv"
    uv = uv_command()
    env = clean_env()
    run(
        [*uv, "venv", "--no-config", "--quiet", "--python", sys.executable, str(venv)],
        cwd=tmp_path,
        env=env,
    )
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    install = [*uv, "pip", "install", "--no-config", "--quiet", "--python", str(python)]
    run(
        [*install, "--no-index", "--find-links", str(wheelhouse), "agentkit-testing"],
        cwd=tmp_path,
        env=env,
    )
    report = Report()
    testing = DECLARED["agentkit-testing"]
    plugin_session(testing, wheel(wheelhouse, "agentkit-testing"), python, tmp_path, report)
    assert report.problems == []


def test_only_the_llm_fakes_and_the_core_are_installed(llm_only_python: Path) -> None:
    names = probe(
        llm_only_python,
        "import json, importlib.metadata as m;"
        "print(json.dumps(sorted({d.metadata['Name'] for d in m.distributions()"
        " if d.metadata['Name'].startswith('agentkit')})))",
    )
    assert names == ["agentkit-core", "agentkit-fakes-llm"]


def test_the_llm_fakes_import_and_work_from_the_installed_wheels(llm_only_python: Path) -> None:
    result = probe(
        llm_only_python,
        """
import asyncio, json
import agentkit.core.verification.script
import agentkit.fakes.llm
from agentkit.core.types import Message
from agentkit.fakes.llm import FakeLLM, ScriptExhausted, Turn

async def main():
    answer = await FakeLLM("hi").chat(messages=[Message.user("q")], model="m")
    script = FakeLLM.script([Turn(content="one")])
    await script.chat(messages=[Message.user("q")], model="m")
    try:
        await script.chat(messages=[Message.user("q")], model="m")
    except ScriptExhausted:
        exhausted = True
    else:
        exhausted = False
    return answer.content, exhausted

content, exhausted = asyncio.run(main())
print(json.dumps({
    "content": content,
    "exhausted": exhausted,
    "same_class": ScriptExhausted is agentkit.core.verification.script.ScriptExhausted,
    "file": agentkit.fakes.llm.__file__,
}))
""",
    )
    assert isinstance(result, dict)
    assert result["content"] == "hi"
    assert result["exhausted"] is True
    assert result["same_class"] is True
    installed = Path(result["file"]).resolve()
    assert (
        llm_only_python.parent.parent.resolve() in installed.parents
    )  # the venv, not the workspace
    assert ROOT not in installed.parents


def test_one_double_alone_brings_the_verifying_pytest_plugin(llm_only_python: Path) -> None:
    # Strict verification comes with agentkit-core, which every double depends on: with
    # agentkit-fakes-llm alone installed, pytest (once there) finds the plugin that fails
    # a test on its doubles' violations -- not only with the whole agentkit-testing.
    script = (
        "import importlib.metadata, importlib.util, json\n"
        "points = importlib.metadata.entry_points(group='pytest11')\n"
        "found = {p.name: p.value for p in points if p.value.startswith('agentkit.')}\n"
        "spec = importlib.util.find_spec('agentkit.core.verification.pytest_plugin')\n"
        "print(json.dumps({'points': found, 'module': spec is not None}))\n"
    )
    result = probe(llm_only_python, script)
    assert result == {
        "points": {"agentkit": "agentkit.core.verification.pytest_plugin"},
        "module": True,
    }


def test_the_kit_and_the_other_fakes_are_not_importable(llm_only_python: Path) -> None:
    absent = probe(
        llm_only_python,
        "import json, importlib.util as u;"
        "names = ['agentkit.core.testing', 'agentkit.fakes.io', 'agentkit.fakes.cli',"
        " 'agentkit.fakes.ctx', 'agentkit.fakes.api', 'agentkit.agents'];"
        "print(json.dumps({n: u.find_spec(n) is None for n in names}))",
    )
    assert absent == {
        "agentkit.core.testing": True,
        "agentkit.fakes.io": True,
        "agentkit.fakes.cli": True,
        "agentkit.fakes.ctx": True,
        "agentkit.fakes.api": True,
        "agentkit.agents": True,
    }


GOOD_CONSUMER = """\
from agentkit.core.ports import LLMPort
from agentkit.core.verification.script import ScriptExhausted as CoreExhausted
from agentkit.fakes.llm import FakeLLM, ScriptExhausted, Turn

llm: LLMPort = FakeLLM("hi")
scripted: LLMPort = FakeLLM.script([Turn(content="done")])
exhausted: type[CoreExhausted] = ScriptExhausted
"""

BAD_CONSUMER = """\
import agentkit.core.testing
from agentkit.fakes.llm import FakeLLM

wrong: int = FakeLLM("hi")
"""


def test_mypy_checks_a_consumer_against_the_installed_wheels(
    llm_only_python: Path, tmp_path: Path
) -> None:
    # The workspace's mypy, told to resolve imports from the clean venv's site-packages and
    # given a config of its own (the root one would put every member's src on mypy_path).
    (tmp_path / "mypy.ini").write_text("[mypy]\nstrict = True\n", encoding="utf-8")
    (tmp_path / "good.py").write_text(GOOD_CONSUMER, encoding="utf-8")
    (tmp_path / "bad.py").write_text(BAD_CONSUMER, encoding="utf-8")
    base = [
        sys.executable,
        "-m",
        "mypy",
        "--config-file",
        str(tmp_path / "mypy.ini"),
        "--cache-dir",
        str(tmp_path / ".mypy_cache"),
        "--python-executable",
        str(llm_only_python),
        "--no-pretty",
        "--no-color-output",
        "--show-error-codes",
    ]
    env = clean_env()
    env.pop("MYPYPATH", None)

    def mypy(name: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*base, name],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )

    good = mypy("good.py")
    assert good.returncode == 0, good.stdout + good.stderr
    bad = mypy("bad.py")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    errors = [line for line in bad.stdout.splitlines() if ": error: " in line]
    assert len(errors) == 2, bad.stdout
    assert errors[0].startswith("bad.py:1: error: ")
    assert 'module named "agentkit.core.testing"' in errors[0]
    assert errors[0].endswith("[import-not-found]")
    # FakeLLM resolved to its real type (not Any): the installed package is typed.
    assert errors[1] == (
        'bad.py:4: error: Incompatible types in assignment (expression has type "FakeLLM", '
        'variable has type "int")  [assignment]'
    )
