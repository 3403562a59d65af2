"""Where every piece of a codex argv goes, fresh and resumed."""

from __future__ import annotations

import pytest

from agentkit.agents.cognition.codex_argv import RESUME_REJECTED_FLAGS, codex_exec_argv


def test_fresh_turn_matches_the_recorded_command_shape() -> None:
    argv = codex_exec_argv(
        "Reply with: pong", model="gpt-5.6-luna", extra_args=("--skip-git-repo-check",)
    )
    assert argv == (
        "codex",
        "exec",
        "--json",
        "-m",
        "gpt-5.6-luna",
        "--skip-git-repo-check",
        "Reply with: pong",
    )


def test_resumed_turn_puts_every_option_before_resume() -> None:
    extra = ("--sandbox", "workspace-write", "-C", "/w", "--add-dir", "/x", "-c", "k=v")
    argv = codex_exec_argv("again", model="m", extra_args=extra, resume_thread_id="tid-1")
    assert argv[-3:] == ("resume", "tid-1", "again")
    before = argv[: argv.index("resume")]
    assert before == ("codex", "exec", "--json", "-m", "m", *extra)
    assert not RESUME_REJECTED_FLAGS & set(argv[argv.index("resume") :])


def test_a_dash_leading_prompt_goes_after_double_dash() -> None:
    assert codex_exec_argv("--sandbox is a flag")[-2:] == ("--", "--sandbox is a flag")
    assert codex_exec_argv("-x", resume_thread_id="t")[-4:] == ("resume", "t", "--", "-x")
    assert "--" not in codex_exec_argv("plain")


def test_executable_and_defaults() -> None:
    assert codex_exec_argv("p", executable="/opt/codex") == ("/opt/codex", "exec", "--json", "p")


@pytest.mark.parametrize("prompt", ["", "   \n"])
def test_empty_prompt_is_refused(prompt: str) -> None:
    with pytest.raises(ValueError, match="non-empty prompt"):
        codex_exec_argv(prompt)


def test_bad_model_thread_id_and_extra_args_are_refused() -> None:
    with pytest.raises(ValueError, match="model"):
        codex_exec_argv("p", model="--oss")
    with pytest.raises(ValueError, match="thread id"):
        codex_exec_argv("p", resume_thread_id="--last")
    with pytest.raises(ValueError, match="thread id"):
        codex_exec_argv("p", resume_thread_id="")
    with pytest.raises(TypeError, match="not a string"):
        codex_exec_argv("p", extra_args="--json")
    with pytest.raises(TypeError, match="must be a str"):
        codex_exec_argv("p", extra_args=("-c", 3))  # type: ignore[arg-type]
