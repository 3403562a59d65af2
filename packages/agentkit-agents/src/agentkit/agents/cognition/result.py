"""What one CLI turn amounted to, and the lines that were not part of it.

:class:`CliResult` is shared by every CLI cognition so that a caller reads a
claude run and a codex run the same way: the answer (``text``), what it cost
(``usage`` in agentkit's exclusive split, ``cost_usd``), why it stopped, the
CLI's conversation id, the mapped events, and -- when it did not succeed -- a
typed :class:`~agentkit.agents.cognition.errors.CliError`. It is generic in
its event type: each cognition maps the CLI's lines into its own event
classes.

:class:`SkippedLine` keeps every stdout line that was not an event (blank,
plain-text noise, a corrupt or truncated object), because "nothing is lost"
includes the lines nobody expected.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

from agentkit.agents.cognition.errors import CliError
from agentkit.core.types import Usage

__all__ = ["CliResult", "EventProblem", "SkipReason", "SkippedLine"]

E = TypeVar("E")

SkipReason = Literal["blank", "not_json", "invalid_json", "truncated", "too_long"]
"""Why a stdout line was not an event.

``blank`` and ``not_json`` (a line not starting with ``{``: ``[SandboxDebug]``
output, banners) are harmless noise. ``invalid_json`` (a ``{`` line that does
not parse) and ``too_long`` (over the reader's line limit) mean the stream
lost data.
``truncated`` is a final line without its newline that does not parse: a
child killed mid-write.
"""


@dataclass(frozen=True, slots=True)
class SkippedLine:
    """One stdout line that was not an event: where, why, and its text.

    ``line_no`` counts every line read from stdout, 1-based. ``text`` is the
    line decoded (invalid UTF-8 replaced), without its newline; empty for
    ``blank`` and for ``too_long`` (the reader discarded the bytes).
    """

    line_no: int
    reason: SkipReason
    text: str

    @property
    def lost_data(self) -> bool:
        """True when the line was meant to be an event and was not readable."""
        return self.reason in ("invalid_json", "too_long")


@dataclass(frozen=True, slots=True)
class EventProblem:
    """A stdout object that broke its CLI's event schema: its line, why, and the object.

    ``text`` is the object re-serialised compactly and cut to a few KB (the
    report names the line; it does not have to hold a megabyte of it).
    """

    line_no: int
    reason: str
    text: str


@dataclass(frozen=True, slots=True)
class CliResult(Generic[E]):
    """One turn of a CLI cognition.

    * ``text`` -- the turn's final answer as the CLI reported it. On a failed
      turn it is whatever the CLI said last (for claude's synthetic API errors
      that is the error text), so check ``error`` first.
    * ``usage`` / ``cost_usd`` -- THIS turn's charge, exactly what was charged
      to the run's context (zero when the CLI reported nothing, e.g. an
      incomplete run). ``cost_usd`` is the CLI's own figure when it reports
      one, else computed from the price table.
    * ``stop_reason`` -- the CLI's stop reason (``end_turn``, ``tool_use``, ...),
      or None when it reported none.
    * ``session_id`` -- claude's session id / codex's thread id (``thread_id``
      is the same value): what a resume continues.
    * ``events`` -- every stdout event of the turn, mapped, in order.
    * ``error`` -- None on success, else the typed error.
    * ``model`` -- the model the turn was charged under.
    * ``returncode`` -- the child's exit code when it has exited (None for a
      turn of a session whose process is still running).
    * ``stderr`` -- the child's stderr (bounded: its head and tail), once
      the process has ended.
    * ``skipped`` -- stdout lines that were not events.
    * ``problems`` -- objects that broke the CLI's event schema.
    * ``unpriced`` -- True when no cost could be established for the turn
      (the CLI reported none and no price table was given): ``cost_usd`` is
      then 0.0 by default, not by measurement.
    * ``http_status`` -- the HTTP status of the failed API call, when the CLI
      gave one (claude's ``api_error_status``; the status in codex's
      ``turn.failed`` message).
    """

    text: str = ""
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    stop_reason: str | None = None
    session_id: str | None = None
    events: tuple[E, ...] = ()
    error: CliError | None = None
    model: str | None = None
    returncode: int | None = None
    stderr: str = ""
    skipped: tuple[SkippedLine, ...] = ()
    problems: tuple[EventProblem, ...] = ()
    unpriced: bool = False
    http_status: int | None = None

    def __repr__(self) -> str:
        # Short on purpose: a result holds every event of a run (thousands for a
        # long recording), and asyncio.run() formats its main task's result when
        # it restores the SIGINT handler -- a full dataclass repr there cost more
        # than parsing the whole stream. The events are counted, not printed.
        text = self.text if len(self.text) <= 60 else self.text[:57] + "..."
        error = None if self.error is None else self.error.code
        return (
            f"CliResult(text={text!r}, usage={self.usage!r}, cost_usd={self.cost_usd!r}, "
            f"stop_reason={self.stop_reason!r}, session_id={self.session_id!r}, "
            f"events=<{len(self.events)} events>, error={error!r}, model={self.model!r}, "
            f"returncode={self.returncode!r}, skipped=<{len(self.skipped)} lines>)"
        )

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def thread_id(self) -> str | None:
        """Codex's name for :attr:`session_id`."""
        return self.session_id

    def raise_for_error(self) -> CliResult[E]:
        """Raise :attr:`error` if set; return self otherwise (for chaining)."""
        if self.error is not None:
            raise self.error
        return self
