"""The pinned real CLIs: fetched from the npm registry, checked, cached outside the repo.

The parity suite is only worth something against the exact binaries the
recordings claim to come from, so each one is pinned three ways: package,
version, and the sha256 of the tarball ``npm pack`` downloads. Any other
release (``--claude X``, ``--codex Y``, ``--latest``) is looked up with
``npm view`` and its tarball checked against the registry's own
``dist.integrity`` (sha512, SRI form). A tarball that does not match is
refused (a registry, mirror or cache that serves
something else must not make the suite green). Both tarballs are large
(~180 MB each), so the unpacked package is cached under
``$AGENTKIT_PARITY_CACHE`` (default ``~/.cache/agentkit-parity``) and a
second run touches the network not at all.

``npm pack`` is the registry's own client: it resolves the package, verifies
the registry's integrity field, and leaves the tarball on disk; nothing is
installed and no install scripts run.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "CLAUDE",
    "CODEX",
    "PINNED",
    "PinnedBinary",
    "RegistryUnreachable",
    "cache_dir",
    "check_tarball",
    "fetch",
    "npm_failure",
    "release",
    "sri_of",
]


class RegistryUnreachable(Exception):
    """The npm registry (or npm itself) was not available: the suite is skipped, visibly."""


@dataclass(frozen=True, slots=True)
class PinnedBinary:
    """One CLI release as the registry ships it."""

    cli: str
    """``claude`` or ``codex``: the name recordings are filed under."""
    package: str
    version: str
    sha256: str
    """Of the ``.tgz`` that ``npm pack`` writes; empty for a release that is not pinned
    (then ``integrity`` is checked)."""
    member: str
    """The executable's path inside the tarball."""
    cli_version: str
    """What the binary reports as its version (the recordings' ``cli_version``)."""
    integrity: str = ""
    """The registry's own ``dist.integrity`` (``sha512-<base64>``) of an unpinned release."""

    @property
    def spec(self) -> str:
        return f"{self.package}@{self.version}"

    @property
    def pinned(self) -> bool:
        return bool(self.sha256)

    @property
    def fingerprint(self) -> str:
        """How the tarball is identified in recordings and the cache: its sha256 or its SRI."""
        return f"sha256 {self.sha256}" if self.pinned else f"integrity {self.integrity}"

    def cached_dir(self, root: Path) -> Path:
        tag = (
            self.sha256[:12]
            if self.pinned
            else hashlib.sha256(self.integrity.encode()).hexdigest()[:12]
        )
        return root / f"{self.cli}-{self.version}-{tag}"

    def cached_path(self, root: Path) -> Path:
        return self.cached_dir(root) / self.member


CLAUDE = PinnedBinary(
    cli="claude",
    package="@anthropic-ai/claude-code-linux-x64",
    version="2.1.337",
    sha256="707ad7e061a871d06bb8bc6ef2d0b8ea9b75402b106bfc31fae0b3e0806740e9",
    member="package/claude",
    cli_version="2.1.337",
)

CODEX = PinnedBinary(
    cli="codex",
    package="@openai/codex",
    version="0.171.0-linux-x64",
    sha256="e13d67afb0533cc6160b5f4140e4ad07e2acd87adbaa081bbf69b82e90cf4e55",
    member="package/vendor/x86_64-unknown-linux-musl/bin/codex",
    cli_version="0.171.0",
)

PINNED: dict[str, PinnedBinary] = {CLAUDE.cli: CLAUDE, CODEX.cli: CODEX}

_PACKAGES: dict[str, tuple[str, str]] = {
    # cli: (the package whose version is the release, the platform suffix of the spec)
    "claude": ("@anthropic-ai/claude-code-linux-x64", ""),
    "codex": ("@openai/codex", "-linux-x64"),
}


def _npm_json(args: Sequence[str], *, timeout: float) -> Any:
    npm = shutil.which("npm")
    if npm is None:
        raise RegistryUnreachable("npm is not installed, so the CLIs cannot be looked up")
    try:
        done = subprocess.run(
            [npm, *args, "--json", "--loglevel=error"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise RegistryUnreachable(
            f"npm {' '.join(args)} did not finish in {timeout:.0f} s"
        ) from None
    if done.returncode != 0:
        raise RegistryUnreachable(f"npm {' '.join(args)} failed: {npm_failure(done.stderr)}")
    try:
        return json.loads(done.stdout)
    except ValueError:
        raise RegistryUnreachable(f"npm {' '.join(args)} printed no JSON") from None


def release(cli: str, version: str | None, *, timeout: float = 120.0) -> PinnedBinary:
    """The binary of ``cli`` at ``version`` (None: the newest the registry has).

    A pinned version is the pin (its sha256 is checked); any other is looked
    up with ``npm view``, and its tarball is then checked against the
    registry's own ``dist.integrity``. Raises :class:`RegistryUnreachable`
    when the registry cannot say, ``ValueError`` for an unknown CLI or a
    version it does not have.
    """
    if cli not in PINNED:
        raise ValueError(f"no CLI {cli!r}; known: {', '.join(PINNED)}")
    pin = PINNED[cli]
    package, suffix = _PACKAGES[cli]
    if version is None:
        newest = _npm_json(["view", package, "version"], timeout=timeout)
        if not isinstance(newest, str) or not newest:
            raise RegistryUnreachable(f"npm view {package} version gave {newest!r}")
        version = newest
    if version == pin.cli_version:
        return pin
    spec_version = f"{version}{suffix}"
    # What the registry said is kept beside the cache, so a run without the
    # network (inside the namespace, a CI rerun) still checks the same hash.
    noted = cache_dir() / f"{cli}-{spec_version}.integrity"
    integrity: Any = noted.read_text().strip() if noted.is_file() else None
    if not integrity:
        integrity = _npm_json(
            ["view", f"{package}@{spec_version}", "dist.integrity"], timeout=timeout
        )
        if isinstance(integrity, list):  # a range matched several versions
            raise ValueError(f"{cli} {version!r} names several releases; give one exact version")
        if not isinstance(integrity, str) or not integrity:
            raise ValueError(f"the registry has no {package}@{spec_version}")
        noted.parent.mkdir(parents=True, exist_ok=True)
        noted.write_text(integrity + "\n")
    return dataclasses.replace(
        pin, version=spec_version, sha256="", integrity=integrity, cli_version=version
    )


def cache_dir() -> Path:
    """Where the unpacked packages live: never inside the repository."""
    configured = os.environ.get("AGENTKIT_PARITY_CACHE")
    if configured:
        return Path(configured)
    return Path.home() / ".cache" / "agentkit-parity"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def npm_failure(stderr: str) -> str:
    """npm's reason for a failure, in one line: its error code and first message.

    npm prints a block of ``npm error ...`` lines (code, syscall, errno, a
    stack, advice about proxies); the code and the first real message say
    what happened (``ECONNREFUSED: FetchError: request to ... failed``).
    """
    code = ""
    message = ""
    for raw in stderr.splitlines():
        line = raw.strip()
        if not line.startswith("npm error"):
            continue
        text = line[len("npm error") :].strip()
        if text.startswith("code ") and not code:
            code = text[len("code ") :]
        elif text and not message and not text.startswith(("syscall", "errno", "at ", "{")):
            message = text
    if code and message:
        return f"{code}: {message}"
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return code or message or (lines[-1] if lines else "npm exited without saying why")


def _npm_pack(pin: PinnedBinary, into: Path, *, timeout: float) -> Path:
    npm = shutil.which("npm")
    if npm is None:
        raise RegistryUnreachable("npm is not installed, so the pinned CLIs cannot be fetched")
    try:
        done = subprocess.run(
            [npm, "pack", "--loglevel=error", "--pack-destination", str(into), pin.spec],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise RegistryUnreachable(
            f"npm pack {pin.spec} did not finish within {timeout:.0f} s"
        ) from None
    if done.returncode != 0:
        raise RegistryUnreachable(f"npm pack {pin.spec} failed: {npm_failure(done.stderr)}")
    names = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    if not names:
        raise RegistryUnreachable(f"npm pack {pin.spec} wrote no tarball name")
    return into / names[-1]


def sri_of(path: Path, algorithm: str = "sha512") -> str:
    """The Subresource Integrity string (``sha512-<base64>``) of a file, as npm writes it."""
    digest = hashlib.new(algorithm)
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return f"{algorithm}-{base64.b64encode(digest.digest()).decode()}"


def check_tarball(pin: PinnedBinary, tarball: Path) -> None:
    """Raise ``ValueError`` unless ``tarball`` is the pinned one (sha256) or the registry's (SRI)."""
    if pin.pinned:
        actual = sha256_of(tarball)
        if actual != pin.sha256:
            raise ValueError(f"{pin.spec}: tarball sha256 is {actual}, the pin is {pin.sha256}")
        return
    algorithm, _, expected = pin.integrity.partition("-")
    if algorithm not in ("sha512", "sha384", "sha256") or not expected:
        raise ValueError(f"{pin.spec}: the registry gave no usable integrity ({pin.integrity!r})")
    actual_sri = sri_of(tarball, algorithm)
    if actual_sri != pin.integrity:
        raise ValueError(
            f"{pin.spec}: tarball integrity is {actual_sri}, the registry says {pin.integrity}"
        )


def unpack(pin: PinnedBinary, tarball: Path, root: Path) -> Path:
    """Check ``tarball`` (:func:`check_tarball`) and unpack it into the cache; the executable's path.

    Raises ``ValueError`` for a tarball that is not the pinned / the
    registry's one (a failure, never a skip) or a tarball without the executable.
    """
    check_tarball(pin, tarball)
    with tempfile.TemporaryDirectory(dir=root, prefix=f".{pin.cli}-unpack-") as scratch:
        unpacked = Path(scratch) / "package-root"
        with tarfile.open(tarball, "r:gz") as archive:
            # The whole package, not just the executable: codex looks for its
            # bundled helpers (bwrap, rg) next to itself.
            archive.extractall(unpacked, filter="data")
        executable = unpacked / pin.member
        if not executable.is_file():
            raise ValueError(f"{pin.spec}: {pin.member} is not a file in the tarball")
        executable.chmod(0o755)
        folder = pin.cached_dir(root)
        if folder.exists():
            shutil.rmtree(folder)
        os.replace(unpacked, folder)  # a concurrent run sees all of it or none
    return pin.cached_path(root)


def fetch(pin: PinnedBinary, *, root: Path | None = None, timeout: float = 600.0) -> Path:
    """The path of ``pin``'s executable, downloading and checking it on first use.

    Raises :class:`RegistryUnreachable` when npm cannot fetch it, and
    ``ValueError`` when the tarball does not match the pinned sha256.
    """
    root = cache_dir() if root is None else root
    target = pin.cached_path(root)
    if target.is_file() and os.access(target, os.X_OK):
        return target
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root, prefix=f".{pin.cli}-pack-") as scratch:
        tarball = _npm_pack(pin, Path(scratch), timeout=timeout)
        return unpack(pin, tarball, root)
