"""The scenario table: the shipped names, the environment the CLIs get, the recordings' source."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.parity import anthropic as an
from tools.parity.binaries import PINNED
from tools.parity.environment import (
    CLAUDE_FAKE_KEY,
    Workdir,
    claude_env,
    codex_env,
    codex_provider_args,
)
from tools.parity.mock_api import JsonReply, Request, Sse
from tools.parity.runner import recording_source
from tools.parity.scenarios import SCENARIOS, Scenario, by_name

SHIPPED = {
    "claude": {
        "text-answer",
        "tool-use",
        "partial-messages",
        "thinking",
        "max-turns",
        "auth-401",
        "overloaded-529",
        "permission-denied",
        "session-two-turns",
        "resume",
        "fork",
        "no-credentials",
        "connection-refused",
        "unknown-resume",
        "max-budget",
        "dash-prompt",
    },
    "codex": {
        "text-answer",
        "command-execution",
        "http-400",
        "auth-401",
        "stream-failure",
        "error-item-warning",
        "resume",
        "unknown-resume",
        "no-git-repo",
        "dash-prompt",
    },
}


def test_the_scenarios_are_exactly_the_shipped_recordings() -> None:
    keys = [s.key for s in SCENARIOS]
    assert len(keys) == len(set(keys))
    assert {cli: {s.name for s in SCENARIOS if s.cli == cli} for cli in SHIPPED} == SHIPPED


def test_by_name_selects_scenarios_and_whole_clis() -> None:
    assert [s.key for s in by_name(["codex/resume", "claude/fork"])] == [
        "codex/resume",
        "claude/fork",
    ]
    assert {s.cli for s in by_name(["codex"])} == {"codex"}
    assert len(by_name(["codex", "codex/resume"])) == len(SHIPPED["codex"])
    with pytest.raises(KeyError, match="no scenario 'gemini'"):
        by_name(["gemini"])


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.key)
def test_each_script_answers_the_cli_s_first_call(scenario: Scenario) -> None:
    script = scenario.script()
    if scenario.cli == "claude":
        body = {"model": "claude-sonnet-4-5", "tools": [{"name": "Bash"}], "stream": True}
        body["messages"] = [{"role": "user", "content": "hi"}]
        reply = script(Request("POST", "/v1/messages", {}, body))
        side = script(Request("POST", "/v1/messages", {}, {"model": "claude-haiku-4-5"}))
        assert isinstance(side, Sse)
        count = script(Request("POST", "/v1/messages/count_tokens", {}, {}))
        assert isinstance(count, JsonReply)
        assert count.status == 200
    else:
        reply = script(Request("POST", "/v1/responses", {}, {"input": []}))
    assert isinstance(reply, Sse | JsonReply)
    if isinstance(reply, Sse):
        assert reply.events
    else:
        assert reply.status >= 400


def test_a_claude_tool_scenario_answers_the_tool_round_trip_with_text() -> None:
    script = by_name(["claude/tool-use"])[0].script()
    body = {
        "model": "claude-sonnet-4-5",
        "tools": [{"name": "Bash"}],
        "messages": [
            {"role": "user", "content": "run it"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t"}]},
            {"role": "user", "content": [{"type": "tool_result", "content": "hello-from-tool"}]},
        ],
    }
    first = script(Request("POST", "/v1/messages", {}, {**body, "messages": body["messages"][:1]}))
    second = script(Request("POST", "/v1/messages", {}, body))
    assert isinstance(first, Sse)
    assert isinstance(second, Sse)
    first_blocks = [
        d["content_block"]["type"] for n, d in first.events if n == "content_block_start"
    ]
    second_blocks = [
        d["content_block"]["type"] for n, d in second.events if n == "content_block_start"
    ]
    assert "tool_use" in first_blocks
    assert second_blocks == ["text"]
    assert an.assistant_turns(Request("POST", "/v1/messages", {}, body)) == 1


def test_the_clis_get_no_inherited_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-the-developers-real-key")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-the-developers-real-key")
    work = Workdir.fresh(tmp_path, "scenario")
    claude = claude_env(work, "http://127.0.0.1:9")
    codex = codex_env(work)
    assert claude["ANTHROPIC_API_KEY"] == CLAUDE_FAKE_KEY
    assert claude["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:9"
    assert claude["HOME"] == str(work.home)
    assert claude["CLAUDE_CONFIG_DIR"].startswith(str(work.home))
    assert "OPENAI_API_KEY" not in codex
    assert codex["CODEX_HOME"].startswith(str(work.home))
    assert "real-key" not in repr(claude) + repr(codex)


def test_a_fresh_workdir_forgets_the_previous_run(tmp_path: Path) -> None:
    work = Workdir.fresh(tmp_path, "s")
    (work.project / "left-over").write_text("x")
    again = Workdir.fresh(tmp_path, "s")
    assert list(again.project.iterdir()) == []
    assert again.home.is_dir()


def test_codex_is_given_the_mock_as_a_provider_without_retries() -> None:
    args = codex_provider_args("http://127.0.0.1:9")
    settings = dict(a.split("=", 1) for a in args[1::2])
    assert set(args[::2]) == {"-c"}
    assert settings["model_provider"] == '"parity"'
    assert settings["model_providers.parity.base_url"] == '"http://127.0.0.1:9/v1"'
    assert settings["model_providers.parity.wire_api"] == '"responses"'
    assert settings["model_providers.parity.request_max_retries"] == "0"
    assert settings["model_providers.parity.stream_max_retries"] == "0"


def test_a_recording_says_what_made_it() -> None:
    scenario = by_name(["codex/http-400"])[0]
    source = recording_source(scenario, PINNED["codex"])
    assert "codex/http-400" in source
    assert PINNED["codex"].cli_version in source
    assert PINNED["codex"].sha256 in source
    assert "mock" in source
