"""What ClaudeCliCognition asks to spawn: argv, stdin mode, cwd, env."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

from agentkit.agents.cognition import ClaudeCliCognition
from agentkit.agents.cognition.claude.argv import build_argv
from agentkit.core.ports import ProcessPort
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import CliRun, FakeClaudeCli

RESULT = {"type": "result", "subtype": "success", "result": "ok", "total_cost_usd": 0.0}
BASE = ("claude", "-p", "--output-format", "stream-json", "--verbose")


class _Spy:
    """Records the keyword arguments of each spawn, then delegates to a fake."""

    def __init__(self, cli: FakeClaudeCli) -> None:
        self.cli = cli
        self.kwargs: list[dict[str, Any]] = []

    async def __call__(self, program: str, *args: str, **kw: Any) -> ProcessPort:
        self.kwargs.append(kw)
        return await self.cli(program, *args, **kw)


async def test_drive_passes_the_prompt_last_with_stdin_closed() -> None:
    spy = _Spy(FakeClaudeCli.script([RESULT]))
    cognition = ClaudeCliCognition(
        spy, model="claude-x", extra_args=("--max-turns", "3"), cwd="/work/repo"
    )
    result = await cognition.drive(RunContext(), "Reply with: pong")
    assert result.error is None
    inv = spy.cli.invocations[0]
    assert inv.argv == (
        *BASE,
        "--model",
        "claude-x",
        "--max-turns",
        "3",
        "--",
        "Reply with: pong",
    )
    assert inv.cwd == "/work/repo"
    assert inv.start_new_session is True
    assert inv.stdin == b""
    assert spy.kwargs[0]["stdin"] == subprocess.DEVNULL  # no open, silent stdin pipe
    assert spy.kwargs[0]["limit"] == 64 * 1024 * 1024


async def test_a_dash_leading_prompt_goes_after_end_of_options() -> None:
    cli = FakeClaudeCli.script([RESULT])
    await ClaudeCliCognition(cli).drive(RunContext(), "-rf is not a flag")
    assert cli.invocations[0].argv[-2:] == ("--", "-rf is not a flag")


async def test_a_prompt_after_a_variadic_extra_option_is_not_swallowed_by_it() -> None:
    # --allowedTools <tools...> is variadic: "claude -p --allowedTools Bash hi" reads
    # "hi" as a second tool and runs without a prompt (anthropics/claude-code#25978).
    cli = FakeClaudeCli.script([RESULT])
    await ClaudeCliCognition(cli, extra_args=("--allowedTools", "Bash")).drive(
        RunContext(), "say hi"
    )
    assert cli.invocations[0].argv[-4:] == ("--allowedTools", "Bash", "--", "say hi")
    assert "--" not in build_argv("say hi")  # nothing to end without extra options


async def test_a_session_uses_stream_json_input_and_a_stdin_pipe() -> None:
    spy = _Spy(FakeClaudeCli.script([RESULT]))
    async with ClaudeCliCognition(spy, model="m", extra_args=("--resume=abc",)).session(
        RunContext()
    ) as session:
        await session.turn("hi")
    inv = spy.cli.invocations[0]
    assert inv.argv == (*BASE, "--input-format", "stream-json", "--model", "m", "--resume=abc")
    assert spy.kwargs[0]["stdin"] == subprocess.PIPE
    assert json.loads(inv.stdin)["message"] == {"role": "user", "content": "hi"}


async def test_the_environment_is_inherited_minus_claudecode(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CLAUDECODE", "1")
    monkeypatch.setenv("AGENTKIT_TEST_MARKER", "kept")
    cli = FakeClaudeCli.script([RESULT])
    await ClaudeCliCognition(cli).drive(RunContext(), "hi")
    env = cli.invocations[0].env
    assert "CLAUDECODE" not in env
    assert env["AGENTKIT_TEST_MARKER"] == "kept"


async def test_an_explicit_environment_is_passed_as_given() -> None:
    cli = FakeClaudeCli.script([RESULT])
    await ClaudeCliCognition(cli, env={"CLAUDECODE": "1", "HOME": "/h"}).drive(RunContext(), "x")
    assert dict(cli.invocations[0].env) == {"CLAUDECODE": "1", "HOME": "/h"}


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"extra_args": "--max-turns 3"}, TypeError, "not a string"),
        ({"extra_args": ("--output-format", "json")}, ValueError, "format"),
        ({"extra_args": ("--input-format=text",)}, ValueError, "format"),
        ({"extra_args": (3,)}, TypeError, "str"),
        ({"model": "-x"}, ValueError, "model"),
        ({"timeout": 0}, ValueError, "timeout"),
        ({"kill_grace": -1}, ValueError, "kill_grace"),
        ({"limit": 0}, ValueError, "limit"),
    ],
)
@pytest.mark.agentkit(verify=False)  # never spawns the CLI on purpose
def test_bad_configuration_fails_at_construction(
    kwargs: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        ClaudeCliCognition(FakeClaudeCli([CliRun()]), **kwargs)


@pytest.mark.agentkit(verify=False)  # never spawns the CLI on purpose
async def test_an_empty_prompt_is_refused_before_spawning() -> None:
    cli = FakeClaudeCli([CliRun()])
    with pytest.raises(ValueError, match="non-empty prompt"):
        await ClaudeCliCognition(cli).drive(RunContext(), "   ")
    assert cli.invocations == []


def test_claude_argv_shapes() -> None:
    assert build_argv("q") == (*BASE, "q")
    assert build_argv(None, session=True) == (*BASE, "--input-format", "stream-json")
    with pytest.raises(ValueError, match="stdin"):
        build_argv("q", session=True)
    assert build_argv("q", executable="/opt/claude")[0] == "/opt/claude"
