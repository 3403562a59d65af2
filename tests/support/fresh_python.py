"""Run code in a fresh interpreter: what an import loads is only visible from a cold start.

The tests that pin what an import leaves unloaded (lazy facades, the FakeApi
wire, the CLI process model) cannot look at this process's ``sys.modules``:
the test session has imported everything already.
"""

from __future__ import annotations

import subprocess
import sys

__all__ = ["fresh_python"]


def fresh_python(code: str) -> str:
    """``code`` run by ``python -c`` in a new interpreter; its stdout, stripped."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout.strip()
