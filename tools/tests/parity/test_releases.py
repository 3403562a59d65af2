"""Other releases than the pins: looked up on the registry, checked against its integrity hash."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.tarballs import npm_tarball
from tools.parity import __main__ as cli
from tools.parity import binaries


def _registry(monkeypatch: pytest.MonkeyPatch, answers: dict[str, Any]) -> list[list[str]]:
    asked: list[list[str]] = []

    def npm_json(args: list[str], *, timeout: float) -> Any:
        asked.append(list(args))
        return answers[" ".join(args)]

    monkeypatch.setattr(binaries, "_npm_json", npm_json)
    return asked


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTKIT_PARITY_CACHE", str(tmp_path / "cache"))


def test_the_pinned_version_is_the_pin_without_asking_the_registry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked = _registry(monkeypatch, {})
    assert binaries.release("claude", "2.1.337") is binaries.CLAUDE
    assert binaries.release("codex", "0.171.0") is binaries.CODEX
    assert asked == []


def test_latest_asks_the_registry_for_the_version_then_its_integrity(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked = _registry(
        monkeypatch,
        {
            "view @openai/codex version": "0.199.0",
            "view @openai/codex@0.199.0-linux-x64 dist.integrity": "sha512-abc=",
        },
    )
    pin = binaries.release("codex", None)
    assert (pin.version, pin.cli_version, pin.integrity) == (
        "0.199.0-linux-x64",
        "0.199.0",
        "sha512-abc=",
    )
    assert not pin.pinned
    assert pin.member == binaries.CODEX.member
    # noted beside the cache: asked again (say, inside the namespace), the registry is not needed
    again = binaries.release("codex", "0.199.0")
    assert again == pin
    assert len(asked) == 2


def test_a_version_the_registry_does_not_have_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    _registry(monkeypatch, {"view @anthropic-ai/claude-code-linux-x64@9.9.9 dist.integrity": ""})
    with pytest.raises(ValueError, match="has no"):
        binaries.release("claude", "9.9.9")
    with pytest.raises(ValueError, match="no CLI"):
        binaries.release("gemini", None)


def test_an_unpinned_tarball_is_checked_against_the_registry_integrity(tmp_path: Path) -> None:
    tarball = npm_tarball(tmp_path / "t.tgz", "package/claude", b"#!/bin/sh\n")
    good = binaries.sri_of(tarball)
    assert good.startswith("sha512-")
    pin = binaries.PinnedBinary(
        "claude", "pkg", "1.0.0", "", "package/claude", "1.0.0", integrity=good
    )
    root = tmp_path / "root"
    root.mkdir()
    assert binaries.unpack(pin, tarball, root).read_bytes() == b"#!/bin/sh\n"
    bad = binaries.PinnedBinary(
        "claude", "pkg", "1.0.1", "", "package/claude", "1.0.1", integrity="sha512-AAAA"
    )
    with pytest.raises(ValueError, match="the registry says sha512-AAAA"):
        binaries.unpack(bad, tarball, root)
    none = binaries.PinnedBinary("claude", "pkg", "1.0.2", "", "package/claude", "1.0.2")
    with pytest.raises(ValueError, match="no usable integrity"):
        binaries.unpack(none, tarball, root)


def test_inside_the_namespace_latest_becomes_the_exact_versions_resolved() -> None:
    codex = binaries.PinnedBinary("codex", "p", "0.171.0-linux-x64", "", "m", "0.171.0", "sha512-x")
    pins = {"claude": binaries.CLAUDE, "codex": codex}
    assert cli._pinned_argv(["--latest", "--only", "codex"], pins) == [
        "--only",
        "codex",
        "--codex",
        "0.171.0",
    ]


def test_refresh_and_record_to_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--refresh", "--record-to", "x", "--only", "codex"]) == 2
    assert "exclude" in capsys.readouterr().err
