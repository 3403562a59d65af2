"""FakeClaudeCli: the claude CLI, replayed.

One :class:`~agentkit.fakes.cli._run.CliRun` per SPAWN, not per turn, because
that is the unit the CLI actually has: ``drive()`` spawns once per run, while
a session spawns once and serves many turns off the same stdout.

A session (``--input-format stream-json`` with a stdin pipe) is not dumped
at once: the CLI answers each user message when it arrives, and a double
that printed turn 2 before the cognition had asked for it would let a
cognition that never writes its second message -- or writes it at the wrong
time -- pass. So the run's stdout is cut after each ``result`` line and turn
``k`` is released only when the cognition has written its ``k``-th ``user``
message (a ``control_request`` releases the ``control_response`` that
answers it). Asking for a turn the recording does not have either ends the
process as recorded (the recording stops inside that turn, or exited
non-zero) or, after a clean recording, raises ScriptExhausted at once: the
code asked for more than the recording claims. ``hang_when_unanswered=True``
leaves that session waiting instead, as the CLI would for an answer it never
gets -- which is how a timeout test is written. See
:class:`~agentkit.fakes.cli._process.Release`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentkit.fakes.cli._fake import FakeCli
from agentkit.fakes.cli._run import CliRun

if TYPE_CHECKING:
    from agentkit.fakes.cli._process import Release

__all__ = ["FakeClaudeCli"]


class FakeClaudeCli(FakeCli):
    """Deterministic offline claude CLI. Pass it as ``spawn=`` to a ``ClaudeCliCognition``.

    Holds an ordered list of :class:`CliRun` s -- one per spawn. Each spawn
    consumes the next run; asking for one the recording does not have raises
    :class:`~agentkit.core.verification.script.ScriptExhausted`, because a recording is a
    claim about how many times the CLI is invoked, and code that invokes it
    more has a defect (a retry that should not have fired, a loop that should
    have stopped) that replaying the last run would answer with a plausible,
    wrong result. ``repeat_last=True`` replays the final run forever, for the
    test that deliberately drives an unbounded number of spawns.

    A spawn with ``--input-format stream-json`` and ``stdin=PIPE`` is a
    session and answers turn by turn (module docstring); any other spawn
    writes its whole stdout at once. A one-shot spawn with an open stdin pipe
    is NOT held back (the real CLI waits 3 s, warns on stderr and proceeds).
    """

    _cli_name = "claude"

    def _release(self, run: CliRun, argv: tuple[str, ...], stdin: int | None) -> Release:
        """A spawn with ``--input-format stream-json`` is a session and answers per message.

        Without a stdin pipe it sees EOF at once and serves no turn. Any other
        claude spawn writes everything at once -- even with an open stdin
        pipe (the real CLI waits 3 s, warns on stderr, proceeds).
        """
        from agentkit.fakes.cli._process import (
            Release,
            ReleaseMode,
            reply_boundaries,
            stream_json_input,
        )

        if stream_json_input(argv):
            return Release(ReleaseMode.PER_MESSAGE, reply_boundaries(run.stdout))
        return super()._release(run, argv, stdin)
