"""Static conformance of every double to its port, checked both ways.

Positive: each fakes package has a ``_conformance`` module assigning every
double to the Protocol it stands in for; ``mypy --strict`` with the root
config must accept all of them.

Negative: ``tests/typing_negative/`` holds one deliberately wrong double per
port family (an LLM whose stream is sync, a tool with no run, a clock whose
sleep is sync, a spawn without ``limit=``, ...), each assigned to its port the
same way. mypy must REJECT each one, with the expected complaint and nothing
else -- which is what shows the positive check is able to fail at all. (The
directory is excluded from the root mypy run and from ruff for that reason.)
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NEGATIVE_DIR = ROOT / "tests" / "typing_negative"
MYPY_TIMEOUT = 600

REQUIRED_CONFORMANCE = {
    "packages/agentkit-fakes-llm/src/agentkit/fakes/llm/_conformance.py",
    "packages/agentkit-fakes-io/src/agentkit/fakes/io/_conformance.py",
    "packages/agentkit-fakes-cli/src/agentkit/fakes/cli/_conformance.py",
    "packages/agentkit-fakes-ctx/src/agentkit/fakes/ctx/_conformance.py",
}

# For each negative file: fragments that must all appear in what mypy says about it.
EXPECTED_REJECTIONS: dict[str, tuple[str, ...]] = {
    "llm_stream_wrong_return.py": (
        'Incompatible types in assignment (expression has type "SyncStreamLLM", '
        'variable has type "LLMPort")',
        'Following member(s) of "SyncStreamLLM" have conflicts',
        ") -> AsyncIterator[Delta]",
        ") -> Iterator[Delta]",
    ),
    "tool_missing_run.py": (
        'Incompatible types in assignment (expression has type "NoRunTool", '
        'variable has type "Tool")',
        '"NoRunTool" is missing following "Tool" protocol member',
        "note:     run",
    ),
    "clock_sync_sleep.py": (
        'Incompatible types in assignment (expression has type "SyncSleepClock", '
        'variable has type "ClockPort")',
        "def sleep(self, seconds: float) -> Coroutine[Any, Any, None]",
        "def sleep(self, seconds: float) -> None",
    ),
    "spawn_wrong_signature.py": (
        'variable has type "SpawnPort")',
        '"SpawnPort.__call__" has type',
        "limit: int",
        "start_new_session: bool",
    ),
    "process_sync_wait.py": (
        'Incompatible types in assignment (expression has type "SyncWaitProcess", '
        'variable has type "ProcessPort")',
        '"SyncWaitProcess" is missing following "ProcessPort" protocol member',
        "note:     pid",
        "def wait(self) -> Coroutine[Any, Any, int]",
        "def wait(self) -> int",
    ),
    "trace_span_not_context_manager.py": (
        'Incompatible types in assignment (expression has type "BareSpanTracer", '
        'variable has type "TracePort")',
        "-> AbstractContextManager[Span",
        "**attrs: Any) -> BareSpan",
    ),
    "ctx_missing_observer.py": (
        'Incompatible types in assignment (expression has type "HalfCtx", variable has type "Ctx")',
        '"HalfCtx" is missing following "Ctx" protocol member',
        "note:     observer",
    ),
    "compactor_returns_tuple.py": (
        'Incompatible types in assignment (expression has type "SyncCompactor", '
        'variable has type "Compactor")',
        "-> Coroutine[Any, Any, list[Message]]",
        "-> tuple[Message, ...]",
    ),
    # The typing promises of the kit's own surface (no holes that make a mistake Any).
    "testing_misspelled_name.py": (
        'Module "agentkit.core.testing" has no attribute "FakeLMM"; maybe "FakeLLM"?',
    ),
    "script_misspelled_keyword.py": (
        'Unexpected keyword argument "fail_time" for "script" of "FakeLLM"; '
        'did you mean "fail_times"?',
    ),
    "runtime_misspelled_keyword.py": (
        'Unexpected keyword argument "default_modle" for "scripted_runtime"; '
        'did you mean "default_model"?',
    ),
    "make_ctx_misspelled_keyword.py": (
        'Unexpected keyword argument "lmm" for "__call__" of "MakeCtx"',
    ),
    "call_record_misused.py": (
        'Incompatible types in assignment (expression has type "str", variable has type "int")',
    ),
    "version_is_str.py": (
        'Incompatible types in assignment (expression has type "str", variable has type "int")',
    ),
    "io_misspelled_name.py": (
        'Module "agentkit.fakes.io" has no attribute "FakeClok"; maybe "FakeClock"?',
    ),
}

# The error code each negative file must be rejected with, when not [assignment].
EXPECTED_CODES = {
    "testing_misspelled_name.py": "attr-defined",
    "script_misspelled_keyword.py": "call-arg",
    "runtime_misspelled_keyword.py": "call-arg",
    "make_ctx_misspelled_keyword.py": "call-arg",
    "io_misspelled_name.py": "attr-defined",
}

_LINE = re.compile(r"^(?P<path>[^:\s][^:]*):(?P<line>\d+): (?P<level>error|note): (?P<text>.*)$")


@dataclass(frozen=True)
class MypyRun:
    returncode: int
    stdout: str
    stderr: str

    def lines_for(self, relpath: str) -> list[tuple[int, str, str]]:
        """(line, level, text) of every message mypy printed about ``relpath``."""
        found = []
        for raw in self.stdout.splitlines():
            match = _LINE.match(raw)
            if match and Path(match["path"]).as_posix() == relpath:
                found.append((int(match["line"]), match["level"], match["text"]))
        return found


def run_mypy(files: Sequence[str]) -> MypyRun:
    command = [
        sys.executable,
        "-m",
        "mypy",
        "--strict",
        "--config-file",
        str(ROOT / "pyproject.toml"),
        "--no-pretty",
        "--no-color-output",
        "--show-error-codes",
        *files,
    ]
    done = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=MYPY_TIMEOUT, check=False
    )
    return MypyRun(done.returncode, done.stdout, done.stderr)


def conformance_modules() -> list[str]:
    return sorted(
        p.relative_to(ROOT).as_posix() for p in ROOT.glob("packages/*/src/**/_conformance.py")
    )


def negative_files() -> list[str]:
    return sorted(p.name for p in NEGATIVE_DIR.glob("*.py"))


@pytest.fixture(scope="module")
def positive_run() -> MypyRun:
    return run_mypy(conformance_modules())


@pytest.fixture(scope="module")
def negative_run() -> MypyRun:
    return run_mypy([f"tests/typing_negative/{name}" for name in negative_files()])


def test_every_fakes_package_has_a_conformance_module() -> None:
    assert set(conformance_modules()) >= REQUIRED_CONFORMANCE


@pytest.mark.slow
def test_mypy_accepts_every_conformance_module(positive_run: MypyRun) -> None:
    files = conformance_modules()
    assert positive_run.returncode == 0, positive_run.stdout + positive_run.stderr
    assert f"Success: no issues found in {len(files)} source files" in positive_run.stdout


@pytest.mark.slow
@pytest.mark.parametrize("module", sorted(REQUIRED_CONFORMANCE))
def test_mypy_reports_nothing_about_a_conformance_module(
    positive_run: MypyRun, module: str
) -> None:
    assert positive_run.lines_for(module) == []


def test_every_negative_file_has_an_expected_rejection() -> None:
    assert negative_files() == sorted(EXPECTED_REJECTIONS)


@pytest.mark.slow
def test_mypy_fails_on_the_negative_files(negative_run: MypyRun) -> None:
    assert negative_run.returncode == 1, negative_run.stdout + negative_run.stderr
    count = len(EXPECTED_REJECTIONS)
    assert f"Found {count} errors in {count} files" in negative_run.stdout


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECTED_REJECTIONS))
def test_mypy_rejects_the_wrong_double_for_the_expected_reason(
    negative_run: MypyRun, name: str
) -> None:
    relpath = f"tests/typing_negative/{name}"
    messages = negative_run.lines_for(relpath)
    errors = [(line, text) for line, level, text in messages if level == "error"]
    # Exactly one error, and it is the assignment of the double to its port -- not an import
    # failure or a typo elsewhere in the file, which would "reject" it for the wrong reason.
    assert len(errors) == 1, negative_run.stdout
    line, text = errors[0]
    code = EXPECTED_CODES.get(name, "assignment")
    assert text.endswith(f"[{code}]"), text
    source = (NEGATIVE_DIR / name).read_text(encoding="utf-8").splitlines()
    statement = r"^from \S+ import " if code == "attr-defined" else r"^_\w+: \w+ = "
    assert re.match(statement, source[line - 1]), source[line - 1]
    said = "\n".join(f"{level}: {text}" for _line, level, text in messages)
    for fragment in EXPECTED_REJECTIONS[name]:
        assert fragment in said, f"{fragment!r} not in mypy's output for {name}:\n{said}"
