"""Where every piece of a codex argv goes, fresh and resumed."""

from __future__ import annotations

import pytest

from agentkit.agents.cognition.codex.argv import RESUME_REJECTED_FLAGS, build_argv


def test_fresh_turn_matches_the_recorded_command_shape() -> None:
    argv = build_argv(
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
    argv = build_argv("again", model="m", extra_args=extra, resume="tid-1")
    assert argv[-3:] == ("resume", "tid-1", "again")
    before = argv[: argv.index("resume")]
    assert before == ("codex", "exec", "--json", "-m", "m", *extra)
    assert not RESUME_REJECTED_FLAGS & set(argv[argv.index("resume") :])


def test_a_dash_leading_prompt_goes_after_double_dash() -> None:
    assert build_argv("--sandbox is a flag")[-2:] == ("--", "--sandbox is a flag")
    assert build_argv("-x", resume="t")[-4:] == ("resume", "t", "--", "-x")
    assert "--" not in build_argv("plain")


def test_executable_and_defaults() -> None:
    assert build_argv("p", executable="/opt/codex") == ("/opt/codex", "exec", "--json", "p")


@pytest.mark.parametrize("prompt", ["", "   \n"])
def test_empty_prompt_is_refused(prompt: str) -> None:
    with pytest.raises(ValueError, match="non-empty prompt"):
        build_argv(prompt)


def test_bad_model_thread_id_and_extra_args_are_refused() -> None:
    with pytest.raises(ValueError, match="model"):
        build_argv("p", model="--oss")
    with pytest.raises(ValueError, match="thread id"):
        build_argv("p", resume="--last")
    with pytest.raises(ValueError, match="thread id"):
        build_argv("p", resume="")
    with pytest.raises(TypeError, match="not a string"):
        build_argv("p", extra_args="--json")
    with pytest.raises(TypeError, match="must be a str"):
        build_argv("p", extra_args=("-c", 3))  # type: ignore[arg-type]
