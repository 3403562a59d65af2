"""The last gate: a recording still holding something shaped like a secret is not written."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import agentkit.fakes.cli as cli
from agentkit.core._internal.arguments import ArgumentTypeError
from agentkit.fakes.cli import (
    CliRun,
    Recording,
    RecordingError,
    RecordingSecretError,
    SecretFinding,
    find_secrets,
    save_recording,
)
from agentkit.fakes.cli._recording._command import main

GITHUB = "ghp_" + "G" * 36
AWS = "AKIA" + "W" * 16


def _leaky() -> Recording:
    return Recording(
        cli="claude",
        argv=("claude", "-p", "hi"),
        source=f"made with {GITHUB}",
        run=CliRun(
            stdout=b'{"type":"system"}\n{"type":"result","key":"' + AWS.encode() + b'"}\n',
            stderr=b"token ok\n",
        ),
    )


def test_a_leaky_recording_is_refused_naming_line_place_and_kind_never_the_value(
    tmp_path: Path,
) -> None:
    target = tmp_path / "leaky.jsonl"
    with pytest.raises(RecordingSecretError) as caught:
        save_recording(_leaky(), target)
    error = caught.value
    assert not target.exists()
    assert isinstance(error, RecordingError)
    assert error.findings == (
        SecretFinding(1, "header field 'source'", "GitHub token"),
        SecretFinding(3, "stdout", "AWS access key id"),
    )
    assert error.source == str(target)
    assert error.line == 1
    assert GITHUB not in str(error)
    assert AWS not in str(error)
    assert "line 3 (stdout): AWS access key id" in str(error)
    again = pickle.loads(pickle.dumps(error))
    assert again.findings == error.findings


def test_allow_secrets_writes_anyway(tmp_path: Path) -> None:
    path = save_recording(_leaky(), tmp_path / "allowed.jsonl", allow_secrets=True)
    assert GITHUB.encode() in path.read_bytes()


def test_allow_secrets_must_be_a_bool(tmp_path: Path) -> None:
    with pytest.raises(ArgumentTypeError) as caught:
        save_recording(_leaky(), tmp_path / "x.jsonl", allow_secrets="yes")  # type: ignore[arg-type]
    assert caught.value.argument == "allow_secrets"


def test_the_value_of_a_secret_named_variable_in_this_environment_is_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DEPLOY_PASSWORD", "plain-looking-value")
    findings = find_secrets(b"first\nthe pass is plain-looking-value\n")
    assert findings == [SecretFinding(2, "stdout", "the value of $DEPLOY_PASSWORD")]


def test_markers_are_named_as_the_place() -> None:
    data = b'#stderr "key ' + AWS.encode() + b'"\n'
    assert find_secrets(data, environ={}) == [SecretFinding(1, "#stderr", "AWS access key id")]


def test_scan_exits_1_listing_findings_and_0_on_clean_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    leaky = save_recording(_leaky(), tmp_path / "leaky.jsonl", allow_secrets=True)
    clean = save_recording(
        Recording(cli="codex", argv=("codex",), run=CliRun(stdout=b"{}\n")), tmp_path / "ok.jsonl"
    )
    assert main(["scan", str(clean)]) == 0
    assert main(["scan", str(clean), str(leaky)]) == 1
    out = capsys.readouterr()
    assert f"{leaky}:3: stdout: AWS access key id" in out.out
    assert f"{leaky}:1: header field 'source': GitHub token" in out.out
    assert GITHUB not in out.out + out.err
    assert "2 file(s), 2 finding(s)" in out.err


def test_scan_takes_a_folder_for_the_recordings_under_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save_recording(_leaky(), tmp_path / "deep" / "leaky.jsonl", allow_secrets=True)
    (tmp_path / "notes.txt").write_text(f"not a recording: {GITHUB}")  # not *.jsonl: not scanned
    assert main(["scan", str(tmp_path)]) == 1
    out = capsys.readouterr()
    assert "leaky.jsonl:3: stdout: AWS access key id" in out.out
    assert "notes.txt" not in out.out
    assert "1 file(s), 2 finding(s)" in out.err


def test_scan_refuses_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", str(tmp_path / "nope.jsonl")]) == 1
    assert "no such file" in capsys.readouterr().err


def test_the_shipped_recordings_pass_the_gate() -> None:
    root = Path(cli.__file__).parent / "recordings"
    files = sorted(root.glob("*/*.jsonl"))
    assert files
    assert {str(f): find_secrets(f.read_bytes(), environ={}) for f in files} == {
        str(f): [] for f in files
    }
