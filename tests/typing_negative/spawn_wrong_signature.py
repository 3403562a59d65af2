"""REJECTED by mypy: a spawn double without ``limit`` / ``start_new_session``.

``SpawnPort`` is shaped like ``asyncio.create_subprocess_exec``; a cognition
passes ``limit=`` (its line limit) and ``start_new_session=``. A double that
does not accept them raises TypeError at the spawn, deep inside the cognition.
"""

from __future__ import annotations

from collections.abc import Mapping

from agentkit.core.ports import ProcessPort, SpawnPort


async def short_spawn(
    program: str,
    *args: str,
    stdin: int | None = None,
    stdout: int | None = None,
    stderr: int | None = None,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
) -> ProcessPort:
    raise RuntimeError("never called")


_spawn: SpawnPort = short_spawn
