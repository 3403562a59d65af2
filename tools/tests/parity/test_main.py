"""The entry point's exit statuses: skipped is its own status, never a pass."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from agentkit.fakes.ctx import make_test_ctx
from tools.parity import __main__ as entry
from tools.parity import binaries, isolation
from tools.parity.runner import _Watched, method_keywords, unexercised_options
from tools.parity.scenarios import SCENARIOS


def _unreachable(pin: binaries.PinnedBinary, **_: object) -> Path:
    raise binaries.RegistryUnreachable(f"npm pack {pin.spec} failed: getaddrinfo ENOTFOUND")


def test_an_unreachable_registry_is_one_line_and_the_skipped_status(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(binaries, "fetch", _unreachable)
    status = entry.main([])
    out, err = capsys.readouterr()
    assert status == entry.EXIT_SKIPPED == 77
    assert err == ""
    assert out.count("\n") == 1
    assert out.startswith("parity: SKIPPED")
    assert "ENOTFOUND" in out


def test_a_tarball_that_does_not_match_its_pin_fails_rather_than_skips(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def mismatched(pin: binaries.PinnedBinary, **_: object) -> Path:
        raise ValueError(f"{pin.spec}: tarball sha256 is 00ff, the pin is {pin.sha256}")

    monkeypatch.setattr(binaries, "fetch", mismatched)
    assert entry.main([]) == 2
    assert "sha256" in capsys.readouterr().err


def test_an_unknown_scenario_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert entry.main(["--only", "claude/no-such-thing"]) == 2
    assert "no scenario 'claude/no-such-thing'" in capsys.readouterr().err


def test_every_constructor_option_of_both_cognitions_is_exercised() -> None:
    assert unexercised_options(SCENARIOS) == []


def test_a_scenario_set_that_leaves_an_option_out_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    without_pricing = tuple(
        dataclasses.replace(s, options={k: v for k, v in s.options.items() if k != "pricing"})
        for s in SCENARIOS
    )
    missing = unexercised_options(without_pricing)
    assert missing == ["ClaudeCliCognition(pricing=...)", "CodexCliCognition(pricing=...)"]
    monkeypatch.setattr(entry, "SCENARIOS", without_pricing)
    monkeypatch.setattr(binaries, "fetch", _unreachable)
    assert entry.main([]) == 2
    assert "pricing" in capsys.readouterr().err


def test_the_watched_method_keywords_come_from_the_signatures() -> None:
    names = method_keywords()
    assert "ClaudeCliCognition.drive(resume=...)" in names
    assert "CodexCliCognition.session(resume=...)" in names
    assert all(name.split(".")[0] in {"ClaudeCliCognition", "CodexCliCognition"} for name in names)


def test_a_watched_cognition_notes_the_keywords_it_was_called_with() -> None:
    used: set[str] = set()

    class Probe:
        def drive(self, ctx: object, prompt: str, **keywords: object) -> str:
            return f"drive {prompt} {sorted(keywords)}"

        def session(self, ctx: object, **keywords: object) -> str:
            return f"session {sorted(keywords)}"

    watched = _Watched(Probe(), used)
    ctx = make_test_ctx()
    assert watched.drive(ctx, "hi", resume="s-1", fork=True) == "drive hi ['fork', 'resume']"
    assert watched.session(ctx, thread_id="t") == "session ['thread_id']"
    assert used == {
        "Probe.drive(resume=...)",
        "Probe.drive(fork=...)",
        "Probe.session(thread_id=...)",
    }


def test_outside_a_namespace_a_cli_that_reaches_past_loopback_is_skipped_unless_allowed() -> None:
    skipped, reason = isolation.outside_namespace({"claude", "codex"}, allow_network=False)
    assert skipped == {"codex"}
    assert "chatgpt.com" in reason
    assert isolation.outside_namespace({"claude"}, allow_network=False) == (set(), "")
    assert isolation.outside_namespace({"codex"}, allow_network=True) == (set(), "")
