"""Running the suite where only loopback exists: a fresh network namespace.

The CLIs are pointed at the loopback mock and told not to phone home, but a
CLI release can add a request nobody switched off. So, where the kernel
allows it, the scenarios run inside ``unshare --net`` (``-r`` as well when
not root, which maps the user to root inside a new user namespace): a
network namespace whose only interface is ``lo``, brought up with ``ip link
set lo up``. Nothing the CLIs do can then leave the machine, and a request
to anything but 127.0.0.1 fails at once instead of hanging.

The binaries are fetched BEFORE entering it (``npm pack`` needs the
registry). Where namespaces are not available (no ``unshare``/``ip``, a
container that forbids them) the suite says so in its report and runs with
the environment-only isolation described in :mod:`tools.parity.environment`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence

__all__ = ["MARKER", "TALKS_TO_THE_NETWORK", "isolated", "namespace_prefix", "outside_namespace"]

MARKER = "AGENTKIT_PARITY_ISOLATED"
"""Set in the environment of the suite re-run inside the namespace."""


TALKS_TO_THE_NETWORK: dict[str, str] = {
    "codex": "codex 0.171.0 (as 0.163.0 did) looks up chatgpt.com and api.github.com on its own, "
    "whatever its model provider",
}
"""CLIs seen (under strace) reaching past loopback with the suite's settings, and how.

claude 2.1.337 (as 2.1.332) with the environment of :mod:`tools.parity.environment` made
no connection but to the mock. Outside a namespace, scenarios of these CLIs
are skipped unless the caller allows the traffic.
"""


def outside_namespace(clis: set[str], *, allow_network: bool) -> tuple[set[str], str]:
    """Which of ``clis`` must be skipped when no namespace is available, and why (one line)."""
    if allow_network:
        return set(), ""
    talkers = {cli for cli in clis if cli in TALKS_TO_THE_NETWORK}
    reasons = "; ".join(TALKS_TO_THE_NETWORK[cli] for cli in sorted(talkers))
    return talkers, reasons


def isolated() -> bool:
    return os.environ.get(MARKER) == "1"


def namespace_prefix() -> tuple[list[str] | None, str]:
    """The command prefix that runs a program in a loopback-only namespace, or why there is none."""
    unshare, ip = shutil.which("unshare"), shutil.which("ip")
    if unshare is None or ip is None:
        return None, "unshare or ip is not installed"
    flags = "-n" if os.geteuid() == 0 else "-rn"
    prefix = [unshare, flags, "--", "sh", "-c", f'{ip} link set lo up && exec "$0" "$@"']
    try:
        probe = subprocess.run(
            [*prefix, sys.executable, "-c", "pass"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"unshare could not run: {exc}"
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["(no output)"])[-1]
        return None, f"unshare {flags} failed: {last}"
    return prefix, ""


def reexec_isolated(prefix: Sequence[str], argv: Sequence[str]) -> int:
    """Run ``python -m tools.parity argv...`` again inside the namespace; its exit status."""
    env = dict(os.environ)
    env[MARKER] = "1"
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "tools.parity", *argv],
        env=env,
        check=False,
    )
    return done.returncode
