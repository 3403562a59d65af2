"""Strict verification: what every double shares to make a broken agent fail its test.

A double that holds finite material (a script of turns, a list of CLI runs) or
that can be asked for something it does not have (a URL, a dict-form LLM
prompt) knows things the test body does not: that two turns were never asked
for, that a tool swallowed a ``KeyError`` for a mistyped URL. Raising at the
moment of the miss is not enough -- the code under test may catch it (the tool
loop turns every tool failure into a tool message, by design) and the test goes
green. So each double also *records* the violation, and the record is checked
once more after the code under test has run: by
:meth:`VerifyingDouble.assert_complete` when a test calls it, and by the
pytest plugin (:mod:`agentkit.core.verification.pytest_plugin`) when the
double's owner ends.

This subpackage is the kit's verification machinery, apart from the
framework's API: the records (:class:`Violation`, :class:`VerificationError`),
the :class:`VerifyingDouble` base, ownership (who a double belongs to and when
it is judged), the script cursor every scripted double runs out on
(:mod:`.script`), the real-process guard (:mod:`.process_guard`) and the
pytest plugin. No fakes package imports pytest: the plugin is loaded by
pytest alone.
"""

from __future__ import annotations

from agentkit.core.verification._double import VerifyingDouble, collect_doubles, creation_site
from agentkit.core.verification._records import (
    REPORT_LIMIT,
    Verifiable,
    VerificationError,
    Violation,
    verify_all,
)

__all__ = [
    "REPORT_LIMIT",
    "Verifiable",
    "VerificationError",
    "VerifyingDouble",
    "Violation",
    "collect_doubles",
    "creation_site",
    "verify_all",
]
