"""Medians, rows and the one table every benchmark reports into.

Every figure is a median over many repetitions, never a mean: the machine
this runs on is shared (other jobs, two cores), and one descheduled
repetition moves a mean by more than the effect being measured while it
leaves the median where it was.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Row", "Target", "format_table", "median"]


def median(values: Sequence[float]) -> float:
    """The median of ``values``; a clear error for an empty sample instead of a 0."""
    if not values:
        raise ValueError("cannot take the median of no repetitions")
    return float(statistics.median(values))


@dataclass(frozen=True, slots=True)
class Target:
    """A pass/fail line: ``ratio`` compared against ``limit`` in direction ``op``.

    ``op`` is ``"<="`` (smaller is better: time, memory) or ``">="`` (bigger is
    better: speed-up, throughput share).
    """

    label: str
    op: str
    limit: float
    ratio: float

    def __post_init__(self) -> None:
        if self.op not in ("<=", ">="):
            raise ValueError(f"Target.op must be '<=' or '>=', got {self.op!r}")

    @property
    def met(self) -> bool:
        return self.ratio <= self.limit if self.op == "<=" else self.ratio >= self.limit

    def describe(self) -> str:
        return f"{self.op} {self.limit:g}{self.label}"


@dataclass(frozen=True, slots=True)
class Row:
    """One contender's figure in one benchmark.

    ``ratio``/``ratio_of`` say what the figure is compared to (shown as
    ``1.12x floor``); ``target`` is set on the rows a target is judged on.
    ``error`` replaces the figure when the contender could not be measured,
    so a missing piece shows up in the table instead of vanishing from it.
    """

    section: str
    name: str
    value: float | None
    unit: str
    runs: int
    ratio: float | None = None
    ratio_of: str = ""
    target: Target | None = None
    note: str = ""
    error: str | None = None


def _fmt_value(value: float) -> str:
    if value >= 1000:
        return f"{value:,.0f}"
    if value >= 100:
        return f"{value:.1f}"
    if value >= 10:
        return f"{value:.2f}"
    return f"{value:.3f}"


def format_table(rows: Sequence[Row]) -> str:
    """A plain-text (and valid Markdown) table of every row, grouped by section."""
    header = ("benchmark", "contender", "median", "runs", "ratio", "target", "verdict")
    lines: list[tuple[str, ...]] = []
    for row in rows:
        if row.error is not None:
            lines.append((row.section, row.name, "n/a", "0", "", "", f"ERROR: {row.error}"))
            continue
        assert row.value is not None
        ratio = "" if row.ratio is None else f"{row.ratio:.2f}x {row.ratio_of}".rstrip()
        target = "" if row.target is None else row.target.describe()
        verdict = "" if row.target is None else ("met" if row.target.met else "MISSED")
        if row.note:
            verdict = f"{verdict} ({row.note})" if verdict else f"({row.note})"
        lines.append(
            (
                row.section,
                row.name,
                f"{_fmt_value(row.value)} {row.unit}",
                str(row.runs),
                ratio,
                target,
                verdict,
            )
        )
    widths = [max([len(h), *(len(line[i]) for line in lines)]) for i, h in enumerate(header)]

    def render(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    out = [render(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out.extend(render(line) for line in lines)
    return "\n".join(out)
