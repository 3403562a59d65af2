"""The pinned real CLIs: fetched from the npm registry, checked, cached outside the repo.

The parity suite is only worth something against the exact binaries the
recordings claim to come from, so each one is pinned three ways: package,
version, and the sha256 of the tarball ``npm pack`` downloads. A tarball that
does not hash to the pin is refused (a registry, mirror or cache that serves
something else must not make the suite green). Both tarballs are large
(~180 MB each), so the unpacked package is cached under
``$AGENTKIT_PARITY_CACHE`` (default ``~/.cache/agentkit-parity``) and a
second run touches the network not at all.

``npm pack`` is the registry's own client: it resolves the package, verifies
the registry's integrity field, and leaves the tarball on disk; nothing is
installed and no install scripts run.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "CLAUDE",
    "CODEX",
    "PINNED",
    "PinnedBinary",
    "RegistryUnreachable",
    "cache_dir",
    "fetch",
    "npm_failure",
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
    """Of the ``.tgz`` that ``npm pack`` writes."""
    member: str
    """The executable's path inside the tarball."""
    cli_version: str
    """What the binary reports as its version (the recordings' ``cli_version``)."""

    @property
    def spec(self) -> str:
        return f"{self.package}@{self.version}"

    def cached_dir(self, root: Path) -> Path:
        return root / f"{self.cli}-{self.version}-{self.sha256[:12]}"

    def cached_path(self, root: Path) -> Path:
        return self.cached_dir(root) / self.member


CLAUDE = PinnedBinary(
    cli="claude",
    package="@anthropic-ai/claude-code-linux-x64",
    version="2.1.332",
    sha256="1c89f2f1e0bee93742cff8de9181fc07c702ce0651f1492bb3b97487d3a84af1",
    member="package/claude",
    cli_version="2.1.332",
)

CODEX = PinnedBinary(
    cli="codex",
    package="@openai/codex",
    version="0.163.0-linux-x64",
    sha256="30efc97738b975940d78b59a9bea115fa34040b732807d54ec35ae6b7528de94",
    member="package/vendor/x86_64-unknown-linux-musl/bin/codex",
    cli_version="0.163.0",
)

PINNED: dict[str, PinnedBinary] = {CLAUDE.cli: CLAUDE, CODEX.cli: CODEX}


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


def unpack(pin: PinnedBinary, tarball: Path, root: Path) -> Path:
    """Check ``tarball`` against the pin and unpack it into the cache; the executable's path.

    Raises ``ValueError`` for a sha256 that is not the pin's (a failure,
    never a skip) or a tarball without the executable.
    """
    actual = sha256_of(tarball)
    if actual != pin.sha256:
        raise ValueError(f"{pin.spec}: tarball sha256 is {actual}, the pin is {pin.sha256}")
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
