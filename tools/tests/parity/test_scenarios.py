"""The scenario table: the shipped names, the environment the CLIs get, the recordings' source."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import anthropic
import pytest
from anthropic.types import ToolUseBlock

from agentkit.fakes.api import FakeApi
from tools.parity.binaries import PINNED
from tools.parity.environment import (
    CLAUDE_FAKE_KEY,
    Workdir,
    claude_env,
    codex_env,
    codex_provider_args,
)
from tools.parity.runner import recording_source
from tools.parity.scenarios import SCENARIOS, Scenario, _nothing_left_running, by_name

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
        "json-schema",
        "inherited-env",
        "default-model",
        "mcp-tool-call",
        "mcp-server-down",
        "mcp-denied",
        "mcp-undeclared-tool",
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
        "inherited-env",
        "mcp-tool-call",
        "mcp-server-down",
        "mcp-denied",
        "mcp-undeclared-tool",
    },
}
NOT_REPLAYED = {
    "claude/timeout",
    "codex/connection-refused",
    "claude/mcp-sdk-server",
    "codex/mcp-sdk-server",
    "claude/mcp-stdio-launcher",
    "codex/mcp-stdio-launcher",
}
"""Ended by the cognition's own clock, or naming this checkout's paths in their argv (a user's
MCP server started over stdio): checked on the real run and its reading, not shipped."""


def test_the_scenarios_are_exactly_the_shipped_recordings() -> None:
    keys = [s.key for s in SCENARIOS]
    assert len(keys) == len(set(keys))
    replayed = [s for s in SCENARIOS if s.replay]
    assert {cli: {s.name for s in replayed if s.cli == cli} for cli in SHIPPED} == SHIPPED
    assert {s.key for s in SCENARIOS if not s.replay} == NOT_REPLAYED


def test_a_process_left_running_after_a_timeout_is_named() -> None:
    check = _nothing_left_running("parity-test-marker-left")
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import time; print('ready', flush=True); time.sleep(60)",
            "parity-test-marker-left",
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == b"ready\n"  # exec'd: its command line is its own
        assert any(str(child.pid) in p for p in check(None))  # type: ignore[arg-type]
    finally:
        child.kill()
        child.wait()
        if child.stdout is not None:
            child.stdout.close()
    assert check(None) == []  # type: ignore[arg-type]


def test_by_name_selects_scenarios_and_whole_clis() -> None:
    assert [s.key for s in by_name(["codex/resume", "claude/fork"])] == [
        "codex/resume",
        "claude/fork",
    ]
    assert {s.cli for s in by_name(["codex"])} == {"codex"}
    assert len(by_name(["codex", "codex/resume"])) == sum(s.cli == "codex" for s in SCENARIOS)
    with pytest.raises(KeyError, match="no scenario 'gemini'"):
        by_name(["gemini"])


@pytest.mark.agentkit(verify=False)  # the scripts are built, not all of them run here
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.key)
def test_each_run_gets_a_fresh_model_from_its_beginning(scenario: Scenario) -> None:
    first, again = scenario.script(), scenario.script()
    assert first is not again
    assert first.remaining == again.remaining
    assert first.calls == []


@pytest.mark.agentkit(verify=False)  # built to be read, not run
def test_the_scripts_are_strict_but_where_a_call_is_made_on_purpose() -> None:
    lenient = {s.key for s in SCENARIOS if not s.script().verify_enabled}
    assert lenient == {"codex/command-execution"}


def test_a_claude_tool_scenario_answers_the_tool_round_trip_with_text() -> None:
    llm = by_name(["claude/tool-use"])[0].script()
    bash = {"name": "Bash", "input_schema": {"type": "object"}}
    request: dict[str, Any] = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "tools": [bash],
        "messages": [{"role": "user", "content": "run it"}],
    }
    with FakeApi(llm) as api, anthropic.Anthropic(base_url=api.url, api_key="k") as sdk:
        first = sdk.messages.create(**request)
        (call,) = [b for b in first.content if isinstance(b, ToolUseBlock)]
        request["messages"] += [
            {"role": "assistant", "content": [b.model_dump() for b in first.content]},
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": call.id, "content": "hello-from-tool"}
                ],
            },
        ]
        second = sdk.messages.create(**request)
    assert call.name == "Bash"
    assert first.stop_reason == "tool_use"
    assert [b.type for b in second.content] == ["text"]
    assert second.usage.cache_read_input_tokens == 100
    assert llm.calls[1].messages[-1].content == "hello-from-tool"
    assert api.violations() == []


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
    assert "FakeApi" in source
