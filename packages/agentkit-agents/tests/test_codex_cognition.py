"""CodexCliCognition.drive: the real parsing, mapping and charging, over FakeCodexCli.

Every recording a test uses is one of the kit's own codex 0.163.0 recordings
(``tests/support/recorded/codex/``), replayed whole: stdout, stderr and exit code.
"""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path
from typing import Any

import pytest

from agentkit.agents.cognition import (
    CliError,
    CodexCliCognition,
    CodexCliResult,
    CodexCliSession,
)
from agentkit.agents.cognition.codex.events import (
    AgentMessage,
    CommandExecution,
    FileChange,
    Reasoning,
    StreamError,
    ThreadStarted,
    TurnCompleted,
    WarningItem,
)
from agentkit.core.meters import UsageMeter
from agentkit.core.middleware import BudgetExceeded
from agentkit.core.ports import ProcessPort
from agentkit.core.pricing import ModelPrice, PriceTable, RawUsage, UnknownModelError
from agentkit.core.runtime import RunContext
from agentkit.core.types import Budget, Usage
from agentkit.fakes.cli import CliRun, CliStderr, FakeCodexCli, codex_turn
from tests.support.cli import CODEX_EXEC as EXEC
from tests.support.cli import CODEX_MODEL as MODEL
from tests.support.cli import CODEX_RECORDED as FIXTURES
from tests.support.cli import CODEX_THREAD as THREAD
from tests.support.cli import (
    ForwardingSpawn,
    lingering,
    recording,
)
from tests.support.cli import codex_cognition as cognition

GUARD = 10.0  # seconds: an outer bound so that a hang fails the test instead of the suite


def fixture(name: str) -> Path:
    return FIXTURES / name


async def drive(cog: CodexCliCognition, ctx: RunContext, prompt: str) -> CodexCliResult:
    return await asyncio.wait_for(cog.drive(ctx, prompt), GUARD)


# ------------------------------------------------------------------ successes


async def test_message_success_replay() -> None:
    cli = FakeCodexCli.replay(fixture("codex-0.163.0-message-success.jsonl"))
    ctx = RunContext()
    result = await drive(cognition(cli), ctx, "Reply with: pong")

    assert result.ok, result.error
    assert result.text == "pong"
    assert result.thread_id == result.session_id == THREAD
    assert cli.argv(0) == (*EXEC, "Reply with: pong")
    # 1200 input INCLUDING 200 cached -> 1000 fresh; 30 output of which 12 reasoning
    assert result.usage == Usage(1000, 200, 0, 30, 12)
    assert result.cumulative_usage == RawUsage(1200, 200, 0, 30, 12)
    assert result.cost_usd == 0.0
    assert result.model == MODEL
    assert result.returncode == 0
    assert result.items == (
        Reasoning("item_0", "**Answering the user**"),
        AgentMessage("item_1", "pong"),
    )
    assert isinstance(result.events[0], ThreadStarted)
    assert isinstance(result.events[-1], TurnCompleted)
    assert ctx.ledger.calls == 1
    assert ctx.ledger.usage == result.usage
    assert cli.remaining == 0


async def test_the_child_gets_a_closed_stdin_cwd_env_and_its_own_session() -> None:
    cli = FakeCodexCli.replay(fixture("codex-0.163.0-message-success.jsonl"))

    async def to_the_double(argv: tuple[str, ...], kwargs: dict[str, Any]) -> ProcessPort:
        return await cli(*argv, **kwargs)

    spawn = ForwardingSpawn(to_the_double)
    cog = cognition(spawn, cwd="/work/project", env={"CODEX_HOME": "/tmp/ch", "PATH": "/bin"})
    result = await drive(cog, RunContext(), "Reply with: pong")
    assert result.ok
    (seen,) = spawn.kwargs
    assert seen["stdin"] == subprocess.DEVNULL
    assert seen["limit"] >= 16 * 1024 * 1024
    invocation = cli.invocations[0]
    assert invocation.stdin == b""
    assert invocation.cwd == "/work/project"
    assert invocation.env == {"CODEX_HOME": "/tmp/ch", "PATH": "/bin"}
    assert invocation.start_new_session
    assert invocation.returncode == 0


async def test_command_execution_replay_maps_started_and_completed_command() -> None:
    run = recording("codex", "codex-0.163.0-command-execution").run
    result = await drive(cognition(FakeCodexCli([run])), RunContext(), "Run echo hello-from-codex")
    assert result.ok, result.error
    assert result.text == "The command printed hello-from-codex."
    commands = [i for i in result.items if isinstance(i, CommandExecution)]
    assert commands == [
        CommandExecution(
            "item_1",
            "/bin/bash -lc 'echo hello-from-codex'",
            "hello-from-codex\n",
            0,
            "completed",
        )
    ]
    assert result.stderr == "Reading additional input from stdin...\n"
    assert result.usage == Usage(1420, 1280, 0, 65, 16)


async def test_live_capture_with_file_change_and_cache_writes() -> None:
    cli = FakeCodexCli.replay(fixture("codex-exec-json-fullsend-basic-run-v0.152.1.jsonl"))
    result = await drive(cognition(cli), RunContext(), "Run `ls .`, then create hello.txt")
    assert result.ok
    assert result.text == "done"
    assert [i.id for i in result.items if isinstance(i, FileChange)] == ["item_3"]
    # 41320 input = 9 fresh + 27386 cached + 13925 cache-written
    assert result.usage == Usage(9, 27386, 13925, 295, 74)
    # the fullsend README's own normalised figure for this capture
    assert result.usage.total_tokens == 41615


async def test_docs_sample_three_field_usage() -> None:
    cli = FakeCodexCli.replay(fixture("codex-exec-json-docs-exec-md-sample.jsonl"))
    result = await drive(cognition(cli), RunContext(), "any README?")
    assert result.ok
    assert result.usage == Usage(315, 24448, 0, 122, 0)


async def test_usage_split_pinned_against_an_independent_figure() -> None:
    # (input INCLUSIVE of cached, cached, output) in codex's convention
    cli = FakeCodexCli.script(codex_turn(text="ok", usage=(5000, 3072, 210)))
    prices = PriceTable({"gpt-test": ModelPrice(input=2.0, output=8.0, cached_input=0.5)})
    ctx = RunContext()
    result = await drive(cognition(cli, model="gpt-test", pricing=prices), ctx, "go")
    assert result.ok
    assert result.usage.input_tokens == 1928  # 5000 - 3072, done by hand
    assert result.usage.cached_input_tokens == 3072
    assert result.usage.output_tokens == 210
    # 1928 * 2.0 + 3072 * 0.5 + 210 * 8.0 = 7072 per million
    assert result.cost_usd == pytest.approx(0.007072)
    assert ctx.ledger.cost_usd == pytest.approx(0.007072)
    assert ctx.ledger.by_model == {"gpt-test": result.usage}


async def test_ctx_and_every_meter_are_charged_exactly_once_per_turn() -> None:
    meter = UsageMeter()
    ctx = RunContext(meters=[meter])
    cli = FakeCodexCli(
        [
            CliRun.of(codex_turn(text="a", usage=(100, 40, 10))),
            CliRun.of(codex_turn(text="b", usage=(300, 0, 30))),
        ]
    )
    cog = cognition(cli)
    first = await drive(cog, ctx, "one")
    second = await drive(cog, ctx, "two")
    # drive() is a FRESH thread each time: each total is its own, never a running sum
    assert first.usage == Usage(60, 40, 0, 10, 0)
    assert second.usage == Usage(300, 0, 0, 30, 0)
    for counted in (ctx.ledger, meter):
        assert counted.calls == 2
        assert counted.usage == Usage(360, 40, 0, 40, 0)
    assert "resume" not in cli.argv(1)


async def test_a_non_terminal_stream_error_does_not_fail_the_turn() -> None:
    cli = FakeCodexCli.script(codex_turn(text="fine", error="Reconnecting... 2/5 (blip)"))
    result = await drive(cognition(cli), RunContext(), "go")
    assert result.ok
    assert result.text == "fine"
    assert result.stream_errors == ("Reconnecting... 2/5 (blip)",)
    assert StreamError("Reconnecting... 2/5 (blip)") in result.events


async def test_warning_items_are_kept_and_do_not_fail() -> None:
    cli = FakeCodexCli.script(
        codex_turn(
            text="ok", items=[{"id": "item_9", "type": "error", "message": "model rerouted"}]
        )
    )
    result = await drive(cognition(cli), RunContext(), "go")
    assert result.ok
    assert result.warnings == ("model rerouted",)
    assert WarningItem("item_9", "model rerouted") in result.items


async def test_blank_and_non_json_lines_are_skipped_and_recorded() -> None:
    events = codex_turn(text="hi", usage=(10, 0, 2))
    cli = FakeCodexCli.script(
        ["\n", events[0], "warning: plain text on stdout\n", *events[1:3], "   \n", *events[3:]]
    )
    result = await drive(cognition(cli), RunContext(), "go")
    assert result.ok, result.error
    assert result.text == "hi"
    assert [(s.reason, s.text) for s in result.skipped] == [
        ("blank", ""),
        ("not_json", "warning: plain text on stdout"),
        ("blank", ""),
    ]
    assert [s.line_no for s in result.skipped] == [1, 3, 6]


async def test_stderr_written_mid_stream_survives_to_the_result() -> None:
    events = codex_turn(text="hi")
    cli = FakeCodexCli.script([*events[:2], CliStderr(b"WARNING: mid-run\n"), *events[2:]])
    result = await drive(cognition(cli), RunContext(), "go")
    assert result.ok
    assert result.stderr == "WARNING: mid-run\n"


async def test_a_dash_leading_prompt_is_passed_after_double_dash() -> None:
    cli = FakeCodexCli.script(codex_turn(text="ok"))
    await drive(cognition(cli), RunContext(), "--help me")
    assert cli.argv()[-2:] == ("--", "--help me")


# --------------------------------------------------- failures in the recordings


async def test_turn_failed_401_recording() -> None:
    ctx = RunContext()
    run = recording("codex", "codex-0.163.0-turn-failed-http-401").run
    result = await drive(cognition(FakeCodexCli([run])), ctx, "Reply with: pong")
    assert not result.ok
    error = result.error
    assert error is not None
    assert error.code == "authentication_failed"
    assert error.message.startswith("unexpected status 401 Unauthorized: Incorrect API key")
    assert error.details["http_status"] == 401
    assert error.returncode == 1
    assert error.stderr == "Reading additional input from stdin...\n"
    assert result.thread_id == "01a2363e-f9e7-7d20-98ba-8709a141eaaf"
    assert result.stream_errors == (error.message,)
    # the spawn ran: charged once, with the nothing codex reported
    assert result.usage == Usage()
    assert ctx.ledger.calls == 1
    with pytest.raises(CliError, match="authentication_failed"):
        result.raise_for_error()


async def test_turn_failed_response_failed_recording() -> None:
    run = recording("codex", "codex-0.163.0-turn-failed-response-failed").run
    result = await drive(cognition(FakeCodexCli([run])), RunContext(), "Reply with: pong")
    assert result.error is not None
    assert result.error.code == "turn_failed"
    assert (
        result.error.message == "stream disconnected before completion: simulated upstream failure"
    )
    assert "http_status" not in result.error.details
    assert result.error.returncode == 1


async def test_turn_failed_is_a_failure_even_with_exit_code_zero() -> None:
    cli = FakeCodexCli.script(codex_turn(failed="quota exceeded"), returncode=0)
    result = await drive(cognition(cli), RunContext(), "go")
    assert result.error is not None
    assert result.error.code == "turn_failed"
    assert result.error.returncode == 0


async def test_offline_recording_without_terminal_event_is_incomplete() -> None:
    # Its stdout alone, ending with a clean exit: a stream with no terminal event is
    # incomplete whatever the exit code (the recorded 124 is the next test's).
    stdout = recording("codex", "codex-0.163.0-offline-reconnecting-killed").run.stdout
    cli = FakeCodexCli([CliRun(stdout=stdout)])
    result = await drive(cognition(cli), RunContext(), "Reply with: pong")
    assert result.error is not None
    assert result.error.code == "incomplete_run"
    assert "last stream error: Reconnecting... waiting for network" in result.error.message
    assert len(result.stream_errors) == 10
    assert result.warnings[0].startswith("Falling back from WebSockets to HTTPS")
    assert result.thread_id == "01a2363b-7e16-79e1-927a-d428207d3676"


async def test_offline_recording_killed_by_its_timeout_wrapper_keeps_stderr() -> None:
    # exit 124 from `timeout 400`
    run = recording("codex", "codex-0.163.0-offline-reconnecting-killed").run
    result = await drive(cognition(FakeCodexCli([run])), RunContext(), "Reply with: pong")
    assert result.error is not None
    assert result.error.code == "cli_exit_124"
    assert "codex_api::endpoint::responses_websocket" in result.error.stderr
    assert len(result.stream_errors) == 10


async def test_not_a_git_repo_is_a_stderr_only_exit_1() -> None:
    ctx = RunContext()
    run = recording("codex", "codex-0.163.0-not-a-git-repo").run
    cog = CodexCliCognition(spawn=FakeCodexCli([run]))  # no --skip-git-repo-check
    result = await drive(cog, ctx, "Reply with: pong")
    assert result.error is not None
    assert result.error.code == "cli_exit_1"
    assert result.error.message == (
        "Not inside a trusted directory and --skip-git-repo-check was not specified."
    )
    assert "Not inside a trusted directory" in result.error.stderr
    assert result.error.returncode == 1
    assert result.thread_id is None
    assert result.events == ()
    assert ctx.ledger.calls == 1


async def test_resume_rejects_sandbox_flag_recording_is_a_usage_error() -> None:
    run = recording("codex", "codex-0.163.0-resume-rejects-sandbox-flag").run
    result = await drive(cognition(FakeCodexCli([run])), RunContext(), "again")
    assert result.error is not None
    assert result.error.code == "cli_exit_2"
    assert result.error.message == "error: unexpected argument '--sandbox' found"


async def test_open_stdin_blocks_codex_so_the_cognition_never_opens_it() -> None:
    """The pitfall, reproduced: with a stdin pipe left open codex never starts the turn."""
    run = recording("codex", "codex-0.163.0-open-stdin-blocks").run
    assert run.stderr == b"Reading additional input from stdin...\n"
    turn = CliRun.of(codex_turn(text="pong"), stderr=run.stderr)

    # what the cognition does: stdin closed, the turn runs
    ok = await drive(cognition(FakeCodexCli([turn])), RunContext(), "Reply with: pong")
    assert ok.ok
    assert ok.text == "pong"

    # what it must not do: the same CLI with stdin held open waits for EOF forever,
    # and only the cognition's own timeout ends it
    held = FakeCodexCli([turn])
    blocked = await drive(
        cognition(_with_open_stdin(held), timeout=0.05, kill_grace=0.05),
        RunContext(),
        "Reply with: pong",
    )
    assert blocked.error is not None
    assert blocked.error.code == "timeout"
    assert blocked.text == ""
    assert held.invocations[0].terminated or held.invocations[0].killed


# ---------------------------------------------------------- malformed streams


async def test_truncated_last_line_is_an_incomplete_run() -> None:
    events = codex_turn(text="partial answer", usage=(10, 0, 1))
    cli = FakeCodexCli.script([*events[:-1], '{"type":"turn.completed","usage":{"input_tok'])
    ctx = RunContext()
    result = await drive(cognition(cli), ctx, "go")
    assert result.error is not None
    assert result.error.code == "incomplete_run"
    assert "cut off" in result.error.message
    assert result.skipped[-1].reason == "truncated"
    assert result.skipped[-1].text == '{"type":"turn.completed","usage":{"input_tok'
    assert result.text == "partial answer"
    assert result.usage == Usage()
    assert ctx.ledger.calls == 1


async def test_missing_terminal_event_is_an_incomplete_run_even_with_exit_0() -> None:
    cli = FakeCodexCli.script(codex_turn(text="half")[:-1], returncode=0)
    result = await drive(cognition(cli), RunContext(), "go")
    assert result.error is not None
    assert result.error.code == "incomplete_run"
    assert result.error.returncode == 0
    assert result.text == "half"


async def test_a_corrupt_line_mid_stream_is_invalid_json_but_usage_is_still_charged() -> None:
    events = codex_turn(text="x", usage=(50, 10, 5))
    cli = FakeCodexCli.script([*events[:2], '{"type": "item.completed", "item": {\n', *events[2:]])
    ctx = RunContext()
    result = await drive(cognition(cli), ctx, "go")
    assert result.error is not None
    assert result.error.code == "invalid_json"
    assert result.error.details["lines"][0].line_no == 3
    assert result.usage == Usage(40, 10, 0, 5, 0)
    assert ctx.ledger.usage == result.usage


async def test_an_object_breaking_the_schema_is_invalid_event() -> None:
    events = codex_turn(text="x")
    cli = FakeCodexCli.script(
        [*events[:2], {"type": "item.completed", "item": {"type": "x"}}, *events[2:]]
    )
    result = await drive(cognition(cli), RunContext(), "go")
    assert result.error is not None
    assert result.error.code == "invalid_event"
    assert result.problems[0].line_no == 3
    assert "'id'" in result.problems[0].reason


async def test_more_cached_than_input_is_invalid_usage_not_a_clamp() -> None:
    bad = {"type": "turn.completed", "usage": {"input_tokens": 5, "cached_input_tokens": 9}}
    cli = FakeCodexCli.script([*codex_turn(text="x")[:-1], bad])
    ctx = RunContext()
    result = await drive(cognition(cli), ctx, "go")
    assert result.error is not None
    assert result.error.code == "invalid_usage"
    assert result.error.details["usage"] == RawUsage(input_tokens=5, cached_input_tokens=9)
    assert ctx.ledger.usage == Usage()


async def test_non_zero_exit_after_a_completed_turn_is_still_cli_exit() -> None:
    cli = FakeCodexCli.script(codex_turn(text="x", usage=(3, 0, 1)), returncode=3, stderr=b"boom\n")
    result = await drive(cognition(cli), RunContext(), "go")
    assert result.error is not None
    assert result.error.code == "cli_exit_3"
    assert result.error.message == "boom"
    assert result.usage == Usage(3, 0, 0, 1, 0)


# ----------------------------------------------- timeout, cancel, budget, spawn


async def test_a_completed_turn_whose_child_lingers_after_eof_is_not_a_failure() -> None:
    # The turn is complete (turn.completed, stdout at EOF); the child only failed to
    # exit within kill_grace and was stopped. That is cleanup (CliProcess.finish),
    # not a cli_signal_15 for a turn that succeeded.
    cli = FakeCodexCli.script(codex_turn(text="done", usage=(10, 0, 2)))
    spawn = ForwardingSpawn(lingering(cli))
    result = await drive(cognition(spawn, kill_grace=0.05), RunContext(), "go")
    assert result.returncode == -15
    assert result.error is None
    assert result.text == "done"


async def test_timeout_stops_the_child_and_reports_it() -> None:
    held = FakeCodexCli.script(codex_turn(text="never seen"))
    ctx = RunContext()
    result = await drive(
        cognition(_with_open_stdin(held), timeout=0.05, kill_grace=0.05), ctx, "go"
    )
    assert result.error is not None
    assert result.error.code == "timeout"
    assert result.error.details["timeout"] == 0.05
    assert ctx.ledger.calls == 1


async def test_cancelling_the_run_mid_turn_stops_the_child() -> None:
    held = FakeCodexCli.script(codex_turn(text="never seen"))
    spawned = asyncio.Event()
    ctx = RunContext()
    cog = cognition(_with_open_stdin(held, spawned), kill_grace=0.05)
    task = asyncio.ensure_future(cog.drive(ctx, "go"))
    await asyncio.wait_for(spawned.wait(), GUARD)
    ctx.cancel.cancel("user hit stop")
    result = await asyncio.wait_for(task, GUARD)
    assert result.error is not None
    assert result.error.code == "cancelled"
    assert "user hit stop" in result.error.message
    assert held.invocations[0].terminated or held.invocations[0].killed
    assert ctx.ledger.calls == 1


@pytest.mark.agentkit(verify=False)  # never spawns the CLI on purpose
async def test_a_cancelled_run_does_not_spawn() -> None:
    cli = FakeCodexCli.script(codex_turn(text="x"))
    ctx = RunContext()
    ctx.cancel.cancel("stop")
    result = await drive(cognition(cli), ctx, "go")
    assert result.error is not None
    assert result.error.code == "cancelled"
    assert cli.invocations == []
    assert ctx.ledger.calls == 0


@pytest.mark.agentkit(verify=False)  # never spawns the CLI on purpose
async def test_the_budget_is_checked_before_spawning() -> None:
    cli = FakeCodexCli([CliRun.of(codex_turn(text="a")), CliRun.of(codex_turn(text="b"))])
    ctx = RunContext(budget=Budget(max_llm_calls=1))
    cog = cognition(cli)
    await drive(cog, ctx, "one")
    with pytest.raises(BudgetExceeded):
        await drive(cog, ctx, "two")
    assert cli.remaining == 1


async def test_a_program_that_cannot_start_is_spawn_failed_and_not_charged() -> None:
    async def missing(program: str, *args: str, **kw: Any) -> ProcessPort:
        raise FileNotFoundError(2, "No such file or directory", program)

    ctx = RunContext()
    result = await drive(CodexCliCognition(spawn=missing, executable="/nope/codex"), ctx, "go")
    assert result.error is not None
    assert result.error.code == "spawn_failed"
    assert "/nope/codex" in result.error.message
    assert ctx.ledger.calls == 0


async def test_running_out_of_runs_is_loud() -> None:
    from agentkit.core.verification.script import ScriptExhausted

    cli = FakeCodexCli.answering("only")
    cog = cognition(cli)
    await drive(cog, RunContext(), "one")
    with pytest.raises(ScriptExhausted):
        await drive(cog, RunContext(), "two")


# --------------------------------------------------------------- construction


def test_pricing_needs_a_model_and_the_model_must_be_priced() -> None:
    prices = PriceTable({"gpt-test": ModelPrice(input=1.0, output=1.0)})
    with pytest.raises(ValueError, match="needs model="):
        CodexCliCognition(spawn=FakeCodexCli(), pricing=prices)
    with pytest.raises(UnknownModelError):
        CodexCliCognition(spawn=FakeCodexCli(), pricing=prices, model="gpt-other")


@pytest.mark.parametrize("timeout", [0, -1.0])
def test_timeout_must_be_positive(timeout: float) -> None:
    with pytest.raises(ValueError, match="timeout"):
        CodexCliCognition(spawn=FakeCodexCli(), timeout=timeout)


def test_bad_options_fail_at_construction() -> None:
    with pytest.raises(TypeError, match="not a string"):
        CodexCliCognition(spawn=FakeCodexCli(), extra_args="--sandbox read-only")
    with pytest.raises(ValueError, match="model"):
        CodexCliCognition(spawn=FakeCodexCli(), model="")


@pytest.mark.agentkit(verify=False)  # never spawns the CLI on purpose
async def test_an_empty_prompt_is_refused_before_spawning() -> None:
    cli = FakeCodexCli.answering("x")
    with pytest.raises(ValueError, match="non-empty prompt"):
        await cognition(cli).drive(RunContext(), "  ")
    assert cli.invocations == []


def test_session_is_a_codex_cli_session() -> None:
    cog = cognition(FakeCodexCli())
    assert isinstance(cog.session(RunContext()), CodexCliSession)


# -------------------------------------------------------------------- helpers


def _with_open_stdin(cli: FakeCodexCli, spawned: asyncio.Event | None = None) -> Any:
    """A spawn that hands the fake ``stdin=PIPE`` whatever the cognition asked for.

    Codex with an open stdin pipe waits for EOF before writing anything; the
    runner only closes stdin after stdout's EOF, so the child never ends on
    its own -- the shape of a hung CLI (and of the open-stdin pitfall).
    """

    async def spawn(program: str, *args: str, **kw: Any) -> ProcessPort:
        kw["stdin"] = subprocess.PIPE
        process = await cli(program, *args, **kw)
        if spawned is not None:
            spawned.set()
        return process

    return spawn


@pytest.mark.parametrize(
    ("message", "code", "status"),
    [
        ("unexpected status 403 Forbidden: nope, url: http://x", "authentication_failed", 403),
        ("unexpected status 429 Too Many Requests: slow down", "rate_limit", 429),
        ("unexpected status 500 Internal Server Error: oops", "server_error", 500),
        ("unexpected status 529 <unknown status code>: busy", "overloaded", 529),
        ("unexpected status 413 Payload Too Large: big", "request_too_large", 413),
        ('{"error":{"message":"bad request body"}}', "invalid_request", 400),
        (
            '{"error":{"message":"too long","type":"invalid_request_error",'
            '"code":"context_length_exceeded"}}',
            "prompt_too_long",
            400,
        ),
        ("stream disconnected before completion", "turn_failed", None),
        ("{not json at all", "turn_failed", None),
    ],
)
async def test_turn_failed_http_status_picks_the_code(
    message: str, code: str, status: int | None
) -> None:
    cli = FakeCodexCli.script(codex_turn(failed=message), returncode=1)
    result = await drive(cognition(cli), RunContext(), "go")
    assert result.error is not None
    assert result.error.code == code
    assert result.error.message == message
    assert result.error.details.get("http_status") == status
