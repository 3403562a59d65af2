"""The errors FakeLLM raises of its own accord.

They live in a public module of their own (rather than in the package's
``__all__``, which mirrors the test kit's documented surface) so that a test
can still import them by name: ``from agentkit.fakes.llm.errors import
FakeLLMError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from agentkit.core._internal.failures import kit_failure

if TYPE_CHECKING:
    from agentkit.core.types import ToolCall

__all__ = ["FakeLLMError", "RefusedRequest", "ResponseRuleError", "UnmatchedRequest"]


class FakeLLMError(Exception):
    """The default injected failure (``FakeLLM(fail_times=n)`` without ``fail_exc``).

    An ``Exception`` on purpose, unlike :class:`UnmatchedRequest`: it stands
    for a real provider fault (a 503, a reset connection), which is exactly
    what the retry middleware and the tool loop's ``except Exception`` sites
    exist to handle. ``attempt`` is the 1-based number of the failing call and
    ``fail_times`` how many failures were asked for.
    """

    def __init__(self, attempt: int, fail_times: int) -> None:
        self.attempt = attempt
        self.fail_times = fail_times
        super().__init__(
            f"FakeLLM injected failure {attempt} of {fail_times} (raised before the first delta)"
        )


@kit_failure
class UnmatchedRequest(BaseException):
    """A FakeLLM was asked something it has no answer for.

    A dict-form FakeLLM whose keys none match the question, or an
    argument-less ``FakeLLM()`` (which exercises the offered tools) asked a
    request that offers none: ``reason`` then says so, and ``keys`` is empty.

    A BaseException for the reason :class:`~agentkit.core.verification.script.ScriptExhausted`
    is one: the miss says the code under test sent a prompt the test did not
    anticipate, and every ``except Exception`` between the double and the test
    body (the retry middleware, the tool loop's reflection of bad output) is
    correct for a provider fault and would turn this finding into retries or a
    reflected message. Answering a miss with some default reply would be worse
    still: a plausible answer to the wrong question, and a green test.

    ``text`` is the last user message that was matched against (``None`` when
    the request had no user message) and ``keys`` the substrings tried, in
    order.
    """

    def __init__(self, text: str | None, keys: Sequence[str], reason: str | None = None) -> None:
        self.text = text
        self.keys = tuple(keys)
        if reason is not None:
            super().__init__(f"FakeLLM: {reason}")
            return
        what = "the request has no user message" if text is None else f"last user message {text!r}"
        super().__init__(
            f"FakeLLM: {what} contains none of the response keys {list(self.keys)}; "
            "add a key for it, or use a callable for open-ended prompts"
        )


@kit_failure
class ResponseRuleError(BaseException):
    """The callable given as ``FakeLLM(responses=...)`` raised, or returned a non-str.

    The callable is part of the TEST, not of the provider it stands in for, so
    what it raises is a bug in the test's rule. Were it left to propagate as
    the ``Exception`` it is, the retry middleware (which retries any
    ``Exception`` raised before the first delta, as it should for a provider
    fault) would call the buggy rule again and again, and the tool loop's
    ``except Exception`` sites could turn it into a reflected message. So it
    is re-raised as this BaseException, with the original as ``__cause__``
    (and as ``.error``), and reaches the test at once. A test that wants a
    provider fault injects one with ``fail_times=`` / ``fail_exc=``.
    """

    def __init__(self, message: str, error: BaseException | None = None) -> None:
        self.error = error
        super().__init__(message)


@kit_failure
class RefusedRequest(Exception):
    """FakeLLM refused a request that a real provider refuses (an HTTP 400).

    Today that is a transcript in which an assistant's tool call has no
    tool-result message before the next model call (``unanswered`` lists those
    calls). An ``Exception``, like the provider error it stands for, so the
    code under test meets it where it would meet the real one -- and the
    refusal is recorded as a violation as well, so a loop that catches and
    carries on still fails its test.
    """

    def __init__(self, message: str, unanswered: Sequence[ToolCall] = ()) -> None:
        self.unanswered = tuple(unanswered)
        super().__init__(f"FakeLLM refused the request: {message}")
