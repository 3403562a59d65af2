"""The options every CLI cognition takes, checked in one place.

The claude and codex cognitions take the same process options -- the spawn
seam, model, extra arguments, cwd, env, price table, per-turn timeout,
executable, kill grace and stdout line limit -- and must refuse the same bad
values the same way, at construction rather than at the first spawn (a bad
``kill_grace`` found after a turn was started and paid for is found too
late). :class:`CliCognitionBase` holds and checks them; each cognition adds
the checks only it needs (its argv, its pricing rule).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from agentkit.core.ports import SpawnPort
from agentkit.core.pricing import PriceTable

__all__ = ["CliCognitionBase"]


class CliCognitionBase:
    """The checked, stored options of a CLI cognition (the shared part of its ``__init__``).

    Raises ``TypeError`` for ``extra_args`` given as one string (it would be
    split into one-character arguments) and ``ValueError`` for a ``timeout``
    that is not > 0 (None: unbounded), a negative ``kill_grace`` or a
    ``limit`` that is not > 0.
    """

    def __init__(
        self,
        spawn: SpawnPort,
        *,
        model: str | None,
        extra_args: Sequence[str],
        cwd: str | None,
        env: Mapping[str, str] | None,
        pricing: PriceTable | None,
        timeout: float | None,
        executable: str,
        kill_grace: float,
        limit: int,
    ) -> None:
        if isinstance(extra_args, str | bytes):
            raise TypeError(
                f"extra_args must be a sequence of arguments, not a string: {extra_args!r}"
            )
        if timeout is not None and not timeout > 0:
            raise ValueError(f"timeout must be > 0 seconds or None, got {timeout}")
        if kill_grace < 0:
            raise ValueError(f"kill_grace must be >= 0, got {kill_grace}")
        if limit <= 0:
            raise ValueError(f"limit must be > 0, got {limit}")
        self.spawn = spawn
        self.model = model
        self.extra_args: tuple[str, ...] = tuple(extra_args)
        self.cwd = cwd
        self.env: dict[str, str] | None = None if env is None else dict(env)
        self.pricing = pricing
        self.timeout = timeout
        self.executable = executable
        self.kill_grace = kill_grace
        self.limit = limit
