"""The wrong-inputs catalogue (tools/hardening/wrong_inputs.py), held as a regression test.

The tool tries several hundred clearly wrong inputs across every public
constructor. Outside the CLI side (the cognitions, their sessions and the CLI
doubles, which the tool reports on but this test leaves to their own
packages), every one must be refused at once with a TypeError/ValueError
that names the argument -- or be one of the few judgement calls the tool
lists with its reason.
"""

from __future__ import annotations

from pathlib import Path

from agentkit.core._internal.arguments import ArgumentTypeError
from tools.hardening.wrong_inputs import Case, catalogue, classify, run_case

CLI_SIDE = (
    "ClaudeCli",
    "CodexCli",
    "FakeClaudeCli",
    "FakeCodexCli",
    "CliRun",
    "CliStderr",
    "CliProcess",
    "codex_turn",
)


def test_every_wrong_input_outside_the_cli_side_is_refused_naming_it(tmp_path: Path) -> None:
    cases, files = catalogue(tmp_path)
    try:
        outcomes = [run_case(case, 10.0) for case in cases if not case.where.startswith(CLI_SIDE)]
    finally:
        files.unreadable.chmod(0o600)
    not_refused = [
        f"{outcome.verdict}: {outcome.case.label} {outcome.error}"
        for outcome in outcomes
        if outcome.verdict != "refused" and not outcome.case.judgement
    ]
    assert not_refused == []
    assert len(outcomes) >= 250
    judged = [outcome.case.label for outcome in outcomes if outcome.case.judgement]
    assert len(judged) <= 6  # a handful, each with its reason in the tool


def test_a_refusal_must_name_this_argument_not_another() -> None:
    case = Case("Thing", "size", "0", lambda: None)
    named = ArgumentTypeError("Thing", "size", "an int", "0")
    other = ArgumentTypeError("Thing", "model", "a str", 0)
    assert classify(case, named).verdict == "refused"
    assert classify(case, other).verdict == "unclear"
    assert classify(case, AttributeError("size")).verdict == "unclear"
    assert classify(case, None).verdict == "accepted"
    assert classify(case, None, hung=True).verdict == "hung"
