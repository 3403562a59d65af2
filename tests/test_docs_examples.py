"""Every ```python block of the README and the docs runs (strict AND auto mode) and type-checks.

A user's project may run pytest-asyncio in either mode (strict is its
default), so an example that only passes in this repository's auto mode is
an example that fails for the reader who copies it. Each block is written to
its own test module in a fresh project directory with a pytest.ini of its own
(so this repository's configuration does not leak in) and the directory is run
by a subprocess pytest once per mode. A block with no test still runs: its
module-level code executes at collection, and a collection error fails the
run. The number of tests that passed must equal the number of ``test_``
functions in the blocks, so an example that was silently skipped counts as a
failure.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agentkit.fakes.cli import recording_path

pytestmark = pytest.mark.slow

SUBPROCESS_BOUND = 900
"""Seconds a pytest or mypy run of the examples may take before it counts as hung: a
guard, not a measure (a cold mypy run took over 300 s beside three suites and a CPU hog)."""

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(
    [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "packages").glob("*/README.md")]
)
FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```", flags=re.S | re.M)


def blocks() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for source in SOURCES:
        text = source.read_text(encoding="utf-8")
        for index, match in enumerate(FENCE.finditer(text)):
            found.append((f"{source.relative_to(ROOT)}#{index}", match.group(1)))
    return found


# An example of the cli_recording fixture replays the recording stored beside it; in the
# docs, an HTML comment before the block names the shipped recording that stands in for it.
RECORDING = re.compile(r"<!-- recording (\S+) = (claude|codex)/(\S+) -->\s*\Z")


def placed_recordings() -> dict[int, tuple[str, str, str]]:
    """Block number -> (recording name, cli, shipped recording) for the blocks that need one."""
    placed: dict[int, tuple[str, str, str]] = {}
    number = 0
    for source in SOURCES:
        text = source.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            found = RECORDING.search(text[: match.start()])
            if found:
                placed[number] = (found.group(1), found.group(2), found.group(3))
            number += 1
    return placed


def place_recordings(folder: Path) -> None:
    for number, (name, cli, shipped) in placed_recordings().items():
        target = folder / "recordings" / f"test_example_{number}" / f"{name}.jsonl"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(recording_path(cli, shipped), target)


def count_tests(code: str) -> int:
    tree = ast.parse(code)
    return sum(
        1
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.name.startswith("test_")
    )


def test_there_are_examples_to_run() -> None:
    assert sum(count_tests(code) for _, code in blocks()) >= 1


def test_every_placed_recording_is_for_a_block_that_replays_it() -> None:
    placed = placed_recordings()
    assert placed, "the cli_recording example lost its recording comment"
    for number, (name, _, _) in placed.items():
        code = blocks()[number][1]
        assert "cli_recording(" in code
        assert f"def test_{name.removeprefix('test_')}(" in code


@pytest.mark.parametrize("mode", ["strict", "auto"])
def test_every_example_passes(mode: str, tmp_path: Path) -> None:
    expected = 0
    for number, (_, code) in enumerate(blocks()):
        (tmp_path / f"test_example_{number}.py").write_text(code, encoding="utf-8")
        expected += count_tests(code)
    place_recordings(tmp_path)
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nasyncio_default_fixture_loop_scope = function\nfilterwarnings = error\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "-o",
            f"asyncio_mode={mode}",
            str(tmp_path),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_BOUND,
        check=False,
    )
    names = "\n".join(f"test_example_{n}.py = {where}" for n, (where, _) in enumerate(blocks()))
    assert done.returncode == 0, f"{names}\n{done.stdout}\n{done.stderr}"
    assert re.search(rf"\b{expected} passed\b", done.stdout), done.stdout


def test_every_example_type_checks_under_mypy_strict(tmp_path: Path) -> None:
    # A reader copies an example into a project that runs mypy --strict (as this one does):
    # an unannotated helper or an attribute the declared type does not have is an error
    # there, even though the example passes under pytest. Each block is its own module,
    # checked against the installed packages with a config of its own (strict, nothing
    # else from this repository's).
    for number, (_, code) in enumerate(blocks()):
        (tmp_path / f"example_{number}.py").write_text(code, encoding="utf-8")
    (tmp_path / "mypy.ini").write_text(
        "[mypy]\nstrict = True\nwarn_unreachable = True\n", encoding="utf-8"
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--no-incremental", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_BOUND,
        check=False,
    )
    names = "\n".join(f"example_{n}.py = {where}" for n, (where, _) in enumerate(blocks()))
    assert done.returncode == 0, f"{names}\n{done.stdout}\n{done.stderr}"
    assert f"in {len(blocks())} source files" in done.stdout, done.stdout
