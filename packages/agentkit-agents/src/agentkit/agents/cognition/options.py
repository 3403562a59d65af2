"""The options every CLI cognition takes, checked in one place.

The claude and codex cognitions take the same process options, in the same
order -- the spawn seam, model, extra arguments, cwd, env, price table,
per-turn timeout, executable, kill grace and stdout line limit -- and must
refuse the same bad values the same way, at construction rather than at the
first spawn: a ``kill_grace`` of NaN found after a turn was started and paid
for is found too late (it never returns), and ``limit=1.5`` with the real
spawn silently drops every line. :class:`CliCognitionBase` holds and checks
them, raising :class:`~agentkit.core._internal.arguments.ArgumentTypeError` /
:class:`~agentkit.core._internal.arguments.ArgumentValueError` naming the argument;
each cognition adds the checks only it needs (its argv, its pricing rule).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final

from agentkit.agents.cognition._runner import DEFAULT_KILL_GRACE, DEFAULT_LINE_LIMIT
from agentkit.agents.cognition._spawn import default_spawn
from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_callable,
    check_str,
    check_values,
)
from agentkit.core.ports import SpawnPort
from agentkit.core.pricing import PriceTable

__all__ = ["DEFAULT_TIMEOUT", "CliCognitionBase"]

DEFAULT_TIMEOUT: Final = 600.0
"""Seconds one run (or one session turn) may take before the child is stopped.

A default rather than None because a CLI without a network may never end a
turn (codex retries ``Reconnecting...`` forever). Pass ``timeout=None`` to opt
out deliberately.
"""


def check_model(model: object, where: str) -> str | None:
    """None, or a model name that cannot be read as a flag."""
    if model is None:
        return None
    name = check_str(model, where, "model", empty=False)
    if name.startswith("-"):
        raise ArgumentValueError(where, "model", "a model name (not starting with '-')", model)
    return name


def check_extra_args(extra_args: object, where: str) -> tuple[str, ...]:
    """A sequence of str arguments (one string would be split into characters)."""
    args = check_values(
        extra_args, where, "extra_args", "a sequence of str arguments, not a string"
    )
    for index, arg in enumerate(args):
        check_str(arg, where, f"extra_args[{index}]")
    return args


def check_seconds(
    value: object, where: str, argument: str, expected: str, *, positive: bool = False
) -> float:
    """A finite number of seconds, >= 0 (``positive``: > 0)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ArgumentTypeError(where, argument, expected, value)
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        raise ArgumentValueError(where, argument, expected, value)
    return float(value)


class CliCognitionBase:
    """The checked, stored options of a CLI cognition: one ``__init__`` for both CLIs.

    ``spawn`` is the subprocess seam (a double in tests); ``model`` the model
    to ask for and charge under; ``extra_args`` are passed on every spawn;
    ``cwd`` / ``env`` (None: inherited) the child's; ``pricing`` prices a turn
    the CLI reports no cost for; ``timeout`` bounds one turn, in seconds
    (None: unbounded -- not recommended); ``executable`` is the binary
    (None: the CLI's own name, :attr:`EXECUTABLE`); ``kill_grace`` is how long a
    terminated child gets before it is killed; ``limit`` the stdout line limit.
    Each cognition checks what only it needs in :meth:`_configure`.
    """

    EXECUTABLE = "cli"
    """The binary's name when ``executable`` is None (each cognition sets its own)."""

    build_argv: ClassVar[Callable[..., tuple[str, ...]]]
    """The CLI's argv builder (its ``argv`` module's ``build_argv``)."""

    def __init__(
        self,
        spawn: SpawnPort = default_spawn,
        *,
        model: str | None = None,
        extra_args: Sequence[str] = (),
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        pricing: PriceTable | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        executable: str | None = None,
        kill_grace: float = DEFAULT_KILL_GRACE,
        limit: int = DEFAULT_LINE_LIMIT,
    ) -> None:
        where = type(self).__name__
        check_callable(spawn, where, "spawn", "a SpawnPort (an async callable)")
        self.model = check_model(model, where)
        self.extra_args = check_extra_args(extra_args, where)
        if cwd is not None and not isinstance(cwd, str | os.PathLike):
            raise ArgumentTypeError(where, "cwd", "a str, a path or None", cwd)
        if env is not None:
            if not isinstance(env, Mapping):
                raise ArgumentTypeError(where, "env", "a Mapping[str, str] or None", env)
            for key, value in env.items():
                check_str(key, where, "env key")
                check_str(value, where, f"env[{key!r}]")
        if pricing is not None and not isinstance(pricing, PriceTable):
            raise ArgumentTypeError(where, "pricing", "a PriceTable or None", pricing)
        if timeout is not None:
            check_seconds(timeout, where, "timeout", "> 0 seconds (finite) or None", positive=True)
        self.executable = check_str(
            self.EXECUTABLE if executable is None else executable,
            where,
            "executable",
            empty=False,
        )
        self.kill_grace = check_seconds(kill_grace, where, "kill_grace", ">= 0 seconds (finite)")
        if isinstance(limit, bool) or not isinstance(limit, int):
            raise ArgumentTypeError(where, "limit", "> 0 (an int: bytes per stdout line)", limit)
        if limit <= 0:
            raise ArgumentValueError(where, "limit", "> 0 (an int: bytes per stdout line)", limit)
        self.limit = limit
        self.spawn = spawn
        self.cwd = cwd
        self.env: dict[str, str] | None = None if env is None else dict(env)
        self.pricing = pricing
        self.timeout: float | None = None if timeout is None else float(timeout)
        self._configure()

    def argv(self, prompt: str | None, **options: Any) -> tuple[str, ...]:
        """The argv of one spawn: this cognition's executable, model and extra
        arguments, the prompt, and the CLI's own ``options`` (resume, session)."""
        return self.build_argv(
            prompt,
            executable=self.executable,
            model=self.model,
            extra_args=self.extra_args,
            **options,
        )

    def _configure(self) -> None:
        """Check what only this CLI needs (its argv, its pricing rule); set up its driver."""
