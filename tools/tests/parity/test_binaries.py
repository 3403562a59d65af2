"""Fetching the pinned CLIs: the sha256 pin is enforced, a missing npm is a skip, the cache is reused."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from tests.support.tarballs import npm_tarball
from tools.parity import binaries


def _pin(tarball: Path, member: str = "package/tool") -> binaries.PinnedBinary:
    return dataclasses.replace(
        binaries.CLAUDE, cli="tool", sha256=binaries.sha256_of(tarball), member=member
    )


def test_a_matching_tarball_is_unpacked_into_the_cache_as_an_executable(tmp_path: Path) -> None:
    tarball = npm_tarball(tmp_path / "t.tgz", "package/tool", b"#!/bin/sh\necho hi\n")
    pin = _pin(tarball)
    root = tmp_path / "cache"
    root.mkdir()
    executable = binaries.unpack(pin, tarball, root)
    assert executable == pin.cached_path(root)
    assert executable.read_bytes() == b"#!/bin/sh\necho hi\n"
    assert executable.stat().st_mode & 0o111
    assert [p.name for p in root.iterdir()] == [pin.cached_dir(root).name]


def test_a_tarball_that_is_not_the_pinned_one_is_refused(tmp_path: Path) -> None:
    tarball = npm_tarball(tmp_path / "t.tgz", "package/tool", b"one")
    pin = dataclasses.replace(_pin(tarball), sha256="0" * 64)
    root = tmp_path / "cache"
    root.mkdir()
    with pytest.raises(ValueError, match=r"sha256 is [0-9a-f]+, the pin is 0000"):
        binaries.unpack(pin, tarball, root)
    assert not pin.cached_dir(root).exists()


def test_a_tarball_without_the_executable_is_refused(tmp_path: Path) -> None:
    tarball = npm_tarball(tmp_path / "t.tgz", "package/other", b"x")
    root = tmp_path / "cache"
    root.mkdir()
    with pytest.raises(ValueError, match="package/tool is not a file"):
        binaries.unpack(_pin(tarball), tarball, root)


def test_a_cached_executable_is_used_without_npm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tarball = npm_tarball(tmp_path / "t.tgz", "package/tool", b"#!/bin/sh\n")
    pin = _pin(tarball)
    root = tmp_path / "cache"
    root.mkdir()
    binaries.unpack(pin, tarball, root)
    monkeypatch.setattr(shutil, "which", lambda name: None)  # no npm at all
    assert binaries.fetch(pin, root=root) == pin.cached_path(root)


def test_no_npm_means_unreachable_not_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(binaries.RegistryUnreachable, match="npm is not installed"):
        binaries.fetch(binaries.CODEX, root=tmp_path)


def test_the_cache_lives_outside_the_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AGENTKIT_PARITY_CACHE", raising=False)
    assert binaries.cache_dir() == Path.home() / ".cache" / "agentkit-parity"
    monkeypatch.setenv("AGENTKIT_PARITY_CACHE", "/somewhere/else")
    assert binaries.cache_dir() == Path("/somewhere/else")


def test_the_pins_name_exact_versions_and_full_hashes() -> None:
    for cli, pin in binaries.PINNED.items():
        assert pin.cli == cli
        assert len(pin.sha256) == 64
        assert int(pin.sha256, 16) >= 0
        assert "^" not in pin.version
        assert "~" not in pin.version


def test_npm_s_failure_is_told_in_one_line_with_its_code() -> None:
    stderr = (
        "npm error code ECONNREFUSED\n"
        "npm error syscall connect\n"
        "npm error errno ECONNREFUSED\n"
        "npm error FetchError: request to http://127.0.0.1:9/x failed, reason: connect refused\n"
        "npm error     at ClientRequest.<anonymous> (index.js:130:14)\n"
        "npm error If you are behind a proxy, please make sure that the 'proxy' config is set.\n"
    )
    assert binaries.npm_failure(stderr) == (
        "ECONNREFUSED: FetchError: request to http://127.0.0.1:9/x failed, reason: connect refused"
    )
    assert binaries.npm_failure("npm error code E404\n") == "E404"
    assert binaries.npm_failure("something odd\n") == "something odd"
    assert binaries.npm_failure("") == "npm exited without saying why"
