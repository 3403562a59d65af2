"""Both CLI cognitions refuse wrong input at construction, naming the argument; and
what each adds on top of the shared result (claude's resume and permission
denials, codex's unpriced flag and HTTP status)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from agentkit.agents.cognition import ClaudeCliCognition, CodexCliCognition
from agentkit.agents.cognition.claude import PermissionDenial
from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.core.pricing import ModelPrice, PriceTable, RawUsage
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import CliRun, FakeClaudeCli, FakeCodexCli, codex_turn

COGNITIONS = [ClaudeCliCognition, CodexCliCognition]

WRONG: list[tuple[dict[str, Any], type[Exception], str]] = [
    ({"spawn": None}, ArgumentTypeError, "spawn"),
    ({"spawn": "claude"}, ArgumentTypeError, "spawn"),
    ({"executable": None, "spawn": 3}, ArgumentTypeError, "spawn"),
    ({"executable": ""}, ArgumentValueError, "executable"),
    ({"executable": 5}, ArgumentTypeError, "executable"),
    ({"env": {"A": 1}}, ArgumentTypeError, "env['A']"),
    ({"env": {1: "a"}}, ArgumentTypeError, "env key"),
    ({"env": ["A=1"]}, ArgumentTypeError, "env"),
    ({"limit": 1.5}, ArgumentTypeError, "limit"),
    ({"limit": True}, ArgumentTypeError, "limit"),
    ({"limit": 0}, ArgumentValueError, "limit"),
    ({"kill_grace": float("nan")}, ArgumentValueError, "kill_grace"),
    ({"kill_grace": float("inf")}, ArgumentValueError, "kill_grace"),
    ({"kill_grace": -1}, ArgumentValueError, "kill_grace"),
    ({"kill_grace": "5"}, ArgumentTypeError, "kill_grace"),
    ({"model": 123}, ArgumentTypeError, "model"),
    ({"model": ""}, ArgumentValueError, "model"),
    ({"model": "-m"}, ArgumentValueError, "model"),
    ({"timeout": 0}, ArgumentValueError, "timeout"),
    ({"timeout": -1}, ArgumentValueError, "timeout"),
    ({"timeout": float("nan")}, ArgumentValueError, "timeout"),
    ({"timeout": "60"}, ArgumentTypeError, "timeout"),
    ({"extra_args": "--flag"}, ArgumentTypeError, "extra_args"),
    ({"extra_args": [1]}, ArgumentTypeError, "extra_args[0]"),
    ({"cwd": 3}, ArgumentTypeError, "cwd"),
    ({"pricing": {"m": 1}}, ArgumentTypeError, "pricing"),
]


@pytest.mark.parametrize("cognition", COGNITIONS)
@pytest.mark.parametrize(("kwargs", "error", "argument"), WRONG, ids=lambda v: repr(v)[:40])
@pytest.mark.agentkit(verify=False)  # never spawns the CLI on purpose
def test_wrong_input_is_refused_at_once_naming_the_argument(
    cognition: type[ClaudeCliCognition | CodexCliCognition],
    kwargs: dict[str, Any],
    error: type[Exception],
    argument: str,
) -> None:
    options: dict[str, Any] = {"spawn": FakeClaudeCli([CliRun()])}
    options.update(kwargs)
    with pytest.raises(error) as caught:
        cognition(**options)
    assert isinstance(caught.value, ArgumentTypeError | ArgumentValueError)
    assert caught.value.argument == argument
    assert caught.value.where == cognition.__name__


@pytest.mark.parametrize("cognition", COGNITIONS)
def test_the_default_executable_is_the_clis_own_name(
    cognition: type[ClaudeCliCognition | CodexCliCognition],
) -> None:
    assert cognition(FakeClaudeCli()).executable == cognition.EXECUTABLE
    assert cognition(FakeClaudeCli(), executable="/opt/x").executable == "/opt/x"


# -------------------------------------------------------- claude resume


def _result(total: float, since: float | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "result": "again",
        "session_id": "s-1",
        "usage": {"input_tokens": 5, "output_tokens": 1},
        "total_cost_usd": total,
        "permission_denials": [
            {"tool_name": "Bash", "tool_use_id": "t1", "tool_input": {"command": "rm -rf /"}}
        ],
    }
    if since is not None:
        out["model_usage_since_last_result"] = {"m": {"costUSD": since}}
    return out


def test_a_resume_passes_the_id_and_charges_only_the_new_turn() -> None:
    cli = FakeClaudeCli([CliRun.of([_result(total=0.75)])])
    ctx = RunContext()
    result = asyncio.run(
        ClaudeCliCognition(cli, timeout=5).drive(ctx, "more?", resume="s-1", cost_so_far=0.5)
    )
    assert result.error is None
    assert cli.invocations[0].argv[-4:] == ("--verbose", "--resume=s-1", "--", "more?")
    assert result.cost_usd == pytest.approx(0.25)
    assert ctx.ledger.cost_usd == pytest.approx(0.25)
    assert result.permission_denials == (PermissionDenial("Bash", "t1", {"command": "rm -rf /"}),)


def test_a_forked_resume_adds_fork_session_and_prefers_the_clis_own_figure() -> None:
    cli = FakeClaudeCli([CliRun.of([_result(total=0.75, since=0.05)])])
    result = asyncio.run(
        ClaudeCliCognition(cli, timeout=5).drive(RunContext(), "more?", resume="s-1", fork=True)
    )
    assert "--fork-session" in cli.invocations[0].argv
    assert result.cost_usd == pytest.approx(0.05)


def test_a_session_can_resume_too() -> None:
    cli = FakeClaudeCli([CliRun.of([_result(total=0.75)])])

    async def go() -> Any:
        async with ClaudeCliCognition(cli, timeout=5).session(
            RunContext(), resume="s-1", cost_so_far=0.7
        ) as session:
            assert session.session_id == "s-1"
            return await session.turn("more?")

    result = asyncio.run(go())
    assert "--resume=s-1" in cli.invocations[0].argv
    assert result.cost_usd == pytest.approx(0.05)


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [({"resume": 5}, "resume"), ({"resume": ""}, "resume"), ({"fork": 1}, "fork")],
)
def test_resume_arguments_are_checked(kwargs: dict[str, Any], argument: str) -> None:
    cognition = ClaudeCliCognition(FakeClaudeCli(), timeout=5)
    with pytest.raises((ArgumentTypeError, ArgumentValueError)) as caught:
        asyncio.run(cognition.drive(RunContext(), "x", **kwargs))
    assert getattr(caught.value, "argument", None) == argument


def test_fork_without_resume_is_refused() -> None:
    with pytest.raises(ValueError, match="resume"):
        asyncio.run(
            ClaudeCliCognition(FakeClaudeCli(), timeout=5).drive(RunContext(), "x", fork=True)
        )


# ---------------------------------------------------------- codex extras


def test_codex_without_a_price_table_is_flagged_unpriced_not_failed() -> None:
    cli = FakeCodexCli([CliRun.of(codex_turn(text="x", usage=(3, 0, 1)))])
    result = asyncio.run(CodexCliCognition(cli, timeout=5).drive(RunContext(), "go"))
    assert result.error is None
    assert result.unpriced
    assert result.cost_usd == 0.0


def test_codex_with_a_price_table_is_priced() -> None:
    prices = PriceTable({"gpt-t": ModelPrice(input=1.0, output=1.0)})
    cli = FakeCodexCli([CliRun.of(codex_turn(text="x", usage=(3, 0, 1)))])
    result = asyncio.run(
        CodexCliCognition(cli, model="gpt-t", pricing=prices, timeout=5).drive(RunContext(), "go")
    )
    assert not result.unpriced
    assert result.cost_usd > 0


def test_codex_drive_can_resume_a_thread_from_its_total() -> None:
    cli = FakeCodexCli([CliRun.of(codex_turn(text="x", thread_id="t-1", usage=(30, 0, 3)))])
    result = asyncio.run(
        CodexCliCognition(cli, timeout=5).drive(
            RunContext(),
            "go",
            resume="t-1",
            usage_so_far=RawUsage(input_tokens=20, output_tokens=2),
        )
    )
    assert cli.invocations[0].argv[-3:] == ("resume", "t-1", "go")
    assert (result.usage.input_tokens, result.usage.output_tokens) == (10, 1)


def test_codex_refuses_a_total_without_a_thread() -> None:
    with pytest.raises(ArgumentValueError) as caught:
        asyncio.run(
            CodexCliCognition(FakeCodexCli(), timeout=5).drive(
                RunContext(), "go", usage_so_far=RawUsage(1)
            )
        )
    assert caught.value.argument == "usage_so_far"
