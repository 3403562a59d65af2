"""What a verdict looks like: judging one double without letting it break the run, and the text.

A double's own code runs when it is judged (``violations()``,
``verify_enabled``, a subclass's override): whatever it raises -- an
exception, ``pytest.fail``, ``SystemExit``, the kit's own ``ScriptExhausted``
-- becomes a ``verification_crashed`` violation of that double, so the run
goes on and the test that owns it fails saying why.
"""

from __future__ import annotations

import traceback

import pytest

from agentkit.core.verification._double import left_process, recorded
from agentkit.core.verification._records import (
    DETAIL_LIMIT,
    REPORT_LIMIT,
    Verifiable,
    Violation,
    clipped,
)

__all__ = ["INTENDED", "crashed", "fail", "format_violations", "judge", "name_of", "site_of"]

INTENDED = (
    "(if this is intended: verify=False on the double, or "
    "@pytest.mark.agentkit(verify=False) on the test)"
)
RAISES_HINT = (
    "this test expects an exception (pytest.raises / assertRaises): if it provokes the "
    "miss on purpose, build that double with verify=False -- the violation is still "
    "readable with violations(), it just does not fail the test"
)


def name_of(double: object) -> str:
    try:
        name = getattr(double, "_double_name", None)
    except Exception:
        name = None
    return name if isinstance(name, str) else type(double).__name__


def site_of(double: object) -> str:
    try:
        site = getattr(double, "created_at", None)
    except Exception:
        site = None
    return site if isinstance(site, str) else "<unknown>"


def crashed(double: object, error: BaseException) -> Violation:
    lines = traceback.format_exception(type(error), error, error.__traceback__, limit=-3)
    return Violation(
        name_of(double),
        site_of(double),
        "verification_crashed",
        "asking the double for its violations raised:\n      " + "      ".join(lines).rstrip(),
        "fix the double's violations() / verify_enabled (or the attribute the test "
        "overwrote on it); until then nothing about this double can be checked",
    )


def _checked(double: object, found: object) -> list[Violation]:
    if not isinstance(found, list | tuple):
        return [crashed(double, TypeError(f"violations() returned {found!r:.200}, not a list"))]
    return [
        v
        if isinstance(v, Violation)
        else Violation(
            name_of(double),
            site_of(double),
            "not_a_violation",
            clipped(repr(v), 200),
            "violations() must return Violation records",
        )
        for v in found
    ]


def judge(double: Verifiable, *, unused: bool) -> list[Violation]:
    """The violations of ``double`` a verdict may give; never raises but KeyboardInterrupt.

    ``unused`` False keeps only the certain errors the double recorded as
    they happened; True adds the rest of what ``violations()`` says (material
    left unused, a subclass's own findings) -- unless a copy of the double
    left for another process, where its use cannot be seen.
    """
    try:
        if not double.verify_enabled:
            return []
        found = _checked(double, double.violations())
        if unused and left_process(double) is None:
            return found
        certain = {id(v) for v in recorded(double)}
        return [v for v in found if id(v) in certain or v.kind == "verification_crashed"]
    except KeyboardInterrupt:
        raise
    except BaseException as error:
        return [crashed(double, error)]


def format_violations(
    violations: list[Violation], *, header: str | None = None, expects_raise: bool = False
) -> str:
    """The failure text: the violations (at most ``REPORT_LIMIT``), then how to opt out.

    ``header`` replaces the first line (a shared double says whose it is);
    ``expects_raise`` adds the hint for a test that provokes a miss on
    purpose inside ``pytest.raises``. Each violation's text is cut to
    ``DETAIL_LIMIT`` characters; the whole of it stays in ``.violations``.
    """
    count = len(violations)
    lines = [
        header
        or f"agentkit: {count} test-double violation{'' if count == 1 else 's'} "
        "(the test body passed, but its doubles were not used as scripted):"
    ]
    for violation in violations[:REPORT_LIMIT]:
        lines.append(f"  - {violation.double} created at {clipped(violation.created_at, 500)}")
        lines.append(f"    {violation.kind}: {clipped(violation.detail, DETAIL_LIMIT)}")
        lines.append(f"    fix: {clipped(violation.fix, DETAIL_LIMIT)}")
    if count > REPORT_LIMIT:
        lines.append(f"  ... and {count - REPORT_LIMIT} more violations ({count} in all)")
    if expects_raise:
        lines.append(f"  note: {RAISES_HINT}")
    lines.append(INTENDED)
    return "\n".join(lines)


def fail(report: pytest.TestReport, text: str) -> None:
    """Turn ``report`` into a failure carrying ``text`` below what it already says."""
    report.outcome = "failed"
    if report.longrepr and not isinstance(report.longrepr, tuple):
        report.longrepr = f"{report.longrepr}\n\n{text}"
    else:
        report.longrepr = text
