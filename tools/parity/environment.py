"""How a real CLI is pointed at the loopback mock and kept away from everything else.

claude: ``ANTHROPIC_BASE_URL`` names the mock, ``ANTHROPIC_API_KEY`` is a
made-up key (the mock accepts anything), and the switches that stop the
CLI's own side traffic are set (``CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC``,
``DISABLE_TELEMETRY``, ``DISABLE_AUTOUPDATER``, ``DISABLE_ERROR_REPORTING``).
``CLAUDE_CODE_MAX_RETRIES=1`` keeps one retry (it shows as a
``system/api_retry`` line) without the CLI backing off for long.
``HOME`` and ``CLAUDE_CONFIG_DIR`` are a fresh directory per scenario: the
CLI writes its session transcripts there, and a resume must see the same one.

codex: no environment variable points it at another server, so the mock is
a custom model provider given on the command line (``-c
model_provider="parity"`` plus ``model_providers.parity.*``: its base URL,
``wire_api = "responses"``, no websockets, the env var holding its key, and
no request or stream retries -- a failure must fail the turn at once, not
retry for minutes). ``HOME`` and ``CODEX_HOME`` are a fresh directory per
scenario, outside ``/tmp`` (codex warns on stderr when its home is under
``/tmp``), and ``--skip-git-repo-check`` lets it run in a directory that is
not a git repository.

Neither CLI inherits the caller's environment: only ``PATH``, a C locale
and the variables above, so a developer's real API key or login can never
reach a recording. The working directories have fixed names (under the
parity cache) so that refreshed recordings differ only where the CLI's
output does.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "CLAUDE_FAKE_KEY",
    "CODEX_FAKE_KEY",
    "CODEX_PROVIDER",
    "Workdir",
    "claude_env",
    "codex_env",
    "codex_provider_args",
    "codex_provider_toml",
]

CLAUDE_FAKE_KEY = "sk-ant-api03-parity-mock-key-not-a-secret"
CODEX_FAKE_KEY = "sk-parity-mock-key-not-a-secret"
CODEX_PROVIDER = "parity"
_PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True, slots=True)
class Workdir:
    """A scenario's scratch space: a home for the CLI and a project directory to run in."""

    root: Path

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def project(self) -> Path:
        return self.root / "project"

    @classmethod
    def fresh(cls, base: Path, name: str) -> Workdir:
        """An empty ``base/name`` (anything there from an earlier run is removed)."""
        root = base / name
        if root.exists():
            shutil.rmtree(root)
        work = cls(root)
        work.home.mkdir(parents=True)
        work.project.mkdir(parents=True)
        return work


def _base(work: Workdir) -> dict[str, str]:
    return {
        "PATH": _PATH,
        "HOME": str(work.home),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": "dumb",
        "NO_COLOR": "1",
    }


def claude_env(work: Workdir, base_url: str) -> dict[str, str]:
    env = _base(work)
    env.update(
        {
            "ANTHROPIC_BASE_URL": base_url,
            "ANTHROPIC_API_KEY": CLAUDE_FAKE_KEY,
            "CLAUDE_CONFIG_DIR": str(work.home / ".claude"),
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_MAX_RETRIES": "1",
        }
    )
    return env


def codex_env(work: Workdir) -> dict[str, str]:
    env = _base(work)
    env.update(
        {
            "CODEX_HOME": str(work.home / ".codex"),
            "PARITY_API_KEY": CODEX_FAKE_KEY,
        }
    )
    (work.home / ".codex").mkdir(parents=True, exist_ok=True)
    return env


def _codex_provider(base_url: str) -> tuple[tuple[str, str], ...]:
    """The model provider codex is pointed at: (dotted key, TOML value) pairs.

    One list for both ways of handing it over, ``-c`` options and a
    ``config.toml``, so the two cannot drift apart.
    """
    prefix = f"model_providers.{CODEX_PROVIDER}"
    return (
        ("model_provider", f'"{CODEX_PROVIDER}"'),
        (f"{prefix}.name", f'"{CODEX_PROVIDER}"'),
        (f"{prefix}.base_url", f'"{base_url}/v1"'),
        (f"{prefix}.wire_api", '"responses"'),
        (f"{prefix}.supports_websockets", "false"),
        (f"{prefix}.env_key", '"PARITY_API_KEY"'),
        (f"{prefix}.request_max_retries", "0"),
        (f"{prefix}.stream_max_retries", "0"),
    )


def codex_provider_args(base_url: str) -> tuple[str, ...]:
    """The ``-c`` options that make the mock codex's model provider."""
    return tuple(
        part for key, value in _codex_provider(base_url) for part in ("-c", f"{key}={value}")
    )


def codex_provider_toml(base_url: str) -> str:
    """The same provider as a ``config.toml`` (for a run whose argv must not name the port)."""
    table = f"model_providers.{CODEX_PROVIDER}"
    top = [f"{key} = {value}" for key, value in _codex_provider(base_url) if "." not in key]
    rows = [
        f"{key.removeprefix(table + '.')} = {value}"
        for key, value in _codex_provider(base_url)
        if key.startswith(table + ".")
    ]
    return "\n".join([*top, f"[{table}]", *rows]) + "\n"
