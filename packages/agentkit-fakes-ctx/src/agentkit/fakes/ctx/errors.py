"""The error the recording doubles raise of their own accord.

It lives in a public module of its own (rather than in the package's
``__all__``, which mirrors the test kit's documented surface) so that a test
can still import it by name: ``from agentkit.fakes.ctx.errors import
SpanAlreadyEnded``.
"""

from __future__ import annotations

from agentkit.core._internal.failures import kit_failure

__all__ = ["SpanAlreadyEnded"]


@kit_failure
class SpanAlreadyEnded(BaseException):
    """Code wrote an attribute or an event to a span whose ``with`` block had closed.

    A real tracer (OpenTelemetry) drops such a write, with at most a log line,
    so in production the attribute is silently lost. A recorder that kept it
    would make exactly that loss pass its test: the assertion would find the
    attribute the dashboard will never show. So the recorder refuses it.

    A BaseException for the reason :class:`~agentkit.core.verification.script.ScriptExhausted`
    is one: the write is a defect of the code under test, and the ``except
    Exception`` sites between a span and the test body (the tool loop turning a
    tool failure into a tool message, the retry middleware) would turn the
    finding into a retry or a reflected message and keep going.

    ``span_name`` is the span written to and ``what`` describes the write.
    """

    def __init__(self, span_name: str, what: str) -> None:
        self.span_name = span_name
        self.what = what
        super().__init__(
            f"{what} on span {span_name!r} after its with-block closed; a real tracer "
            "drops this write, so the value would never reach the trace"
        )
