"""The drift report: shape and meaning of two recordings of one scenario, compared."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agentkit.fakes.cli import CliRun, Recording, save_recording
from tools.parity import drift


def _rec(cli: str, version: str, *objects: dict[str, Any], returncode: int = 0) -> Recording:
    stdout = b"".join(json.dumps(o).encode() + b"\n" for o in objects)
    return Recording(
        cli=cli,
        argv=(cli, "-p"),
        run=CliRun(stdout=stdout, returncode=returncode),
        cli_version=version,
    )


def _claude_failed(**extra: Any) -> dict[str, Any]:
    return {
        "type": "result",
        "subtype": "success",
        "is_error": True,
        "result": "Not logged in",
        "session_id": "s",
        **extra,
    }


def test_kinds_paths_types_and_exit_codes_are_reported() -> None:
    old = _rec(
        "claude",
        "2.1.332",
        {"type": "system", "subtype": "init", "session_id": "s", "n": 1},
        _claude_failed(api_error_status=None),
        returncode=1,
    )
    new = _rec(
        "claude",
        "2.1.336",
        {"type": "system", "subtype": "status", "session_id": "s"},
        _claude_failed(api_error_status="x", api_error="no_credential"),
        returncode=0,
    )
    report = drift.compare("claude/no-credentials", old, new)
    assert report.kinds_added == ["system:status"]
    assert report.kinds_removed == ["system:init"]
    assert "result:success api_error" in report.paths_added
    assert "result:success api_error_status: null -> str" in report.paths_retyped
    assert report.exit_codes == (1, 0)
    assert report.shape_changed
    assert any(line.startswith("exit_code") for line in report.semantic)
    assert "claude/no-credentials: 2.1.332 -> 2.1.336" in report.lines()[0]


def test_the_same_stream_has_no_drift_and_the_same_meaning() -> None:
    line = {"type": "turn.completed", "usage": {"input_tokens": 3, "output_tokens": 1}}
    one = _rec("codex", "0.163.0", {"type": "thread.started", "thread_id": "t"}, line)
    report = drift.compare("codex/x", one, one)
    assert not report.shape_changed
    assert report.semantic == []
    assert report.lines()[-1] == "  no drift"


def test_semantics_reads_what_the_cognition_reads() -> None:
    rec = _rec(
        "codex",
        "0.171.0",
        {"type": "thread.started", "thread_id": "t"},
        {"type": "error", "message": '{"error":{"type":"invalid_request_error"}}'},
        {"type": "turn.failed", "error": {"message": '{"error":{"type":"invalid_request_error"}}'}},
        returncode=1,
    )
    view = drift.semantics(rec)
    assert view["error"] == "invalid_request"
    assert view["http_status"] == 400
    assert view["exit_code"] == 1


def test_folders_are_compared_by_scenario_and_a_lone_one_is_named(tmp_path: Path) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    line = {"type": "turn.completed", "usage": {"input_tokens": 3, "output_tokens": 1}}
    save_recording(_rec("codex", "0.163.0", line), old / "codex" / "a.jsonl")
    save_recording(_rec("codex", "0.171.0", line), new / "codex" / "a.jsonl")
    save_recording(_rec("codex", "0.163.0", line), old / "codex" / "b.jsonl")
    drifts, alone = drift.compare_folders(old, new)
    assert [d.key for d in drifts] == ["codex/a"]
    assert alone == ["codex/b: only in the old set"]
    assert drift.main([str(old), str(new)]) == 0
    assert drift.main([str(old), str(tmp_path / "missing")]) == 2


def test_the_mock_servers_port_in_a_text_is_no_drift() -> None:
    def overloaded(version: str, port: int) -> Recording:
        text = f"API Error: 529 Overloaded. check your inference gateway (127.0.0.1:{port})."
        return _rec("claude", version, _claude_failed(result=text), returncode=1)

    report = drift.compare("claude/overloaded-529", overloaded("a", 32853), overloaded("b", 37489))
    assert report.semantic == []
    changed = drift.compare("claude/x", overloaded("a", 1), _rec("claude", "b", _claude_failed()))
    assert changed.semantic
    assert changed.semantic[0].startswith("text:")
