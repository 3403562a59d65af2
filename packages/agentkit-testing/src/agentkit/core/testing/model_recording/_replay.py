"""A model recording replayed: a strict FakeLLM script that also checks each request.

The turns replay as :meth:`FakeLLM.script <agentkit.fakes.llm.FakeLLM.script>`
replays any script -- in order, every one of them asked for (an unused turn
fails the test at teardown), a call past the end a ``script_exhausted`` --
and a recorded provider error is raised again as the
:class:`~agentkit.fakes.api.ApiError` or
:class:`~agentkit.fakes.api.BrokenStream` it was, so a client behind a
FakeApi sees it again.

What a script alone cannot catch, a replay must: an agent that now asks
something else (a changed prompt, a tool gone, another model) would still
get the recorded answer to the old question and pass. So each call is
compared with the request recorded beside its answer, the way the CLI
recordings compare argv and stdin (:mod:`agentkit.fakes.cli._input_check`):
a difference raises :class:`RequestMismatch` with a unified diff and the
command that records the test again, and is recorded as a violation so the
test fails even where a client swallowed the error.

What counts as the same: the fields sent to the model (messages, tools,
model, response format, temperature, max tokens; not the caller's metadata);
text the recording had scrubbed matches what the scrubber makes of the new
request (``[REDACTED]`` stands for any secret, ``~`` for the home folder).
The common case -- the same request -- is one comparison of frozen values.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Self

from agentkit.core._internal.failures import kit_failure
from agentkit.core.request import ChatRequest
from agentkit.core.testing.model_recording._json import Base, request_json
from agentkit.fakes.llm import FakeLLM
from agentkit.fakes.llm._responders import ScriptedTurns

if TYPE_CHECKING:
    from agentkit.core.testing.model_recording._file import ModelRecording

__all__ = ["RecordedModel", "RequestMismatch", "sent"]


@kit_failure
class RequestMismatch(BaseException):
    """A replayed model call was asked something other than what its recording was asked.

    A BaseException, as :class:`~agentkit.fakes.cli.ReplayMismatch` and
    ``ScriptExhausted`` are: it reports a defect in the code that would catch
    it (an agent loop that turns every ``Exception`` into an error result).
    ``turn`` is the 1-based call, ``diff`` the unified diff of the two
    requests as JSON (``-`` recorded, ``+`` given), ``rerecord`` the command
    that records the test again.
    """

    __module__ = "agentkit.core.testing.model_recording"

    def __init__(self, double: str, turn: int, diff: str, rerecord: str = "") -> None:
        self.double = double
        self.turn = turn
        self.diff = diff
        self.rerecord = rerecord
        again = f"\nIf the change is intended, record it again:\n    {rerecord}" if rerecord else ""
        super().__init__(
            f"{double}: call {turn}: the request differs from the recording "
            f"(- recorded, + given):\n{diff}{again}"
        )

    def __reduce__(self) -> tuple[type[RequestMismatch], tuple[str, int, str, str]]:
        return (type(self), (self.double, self.turn, self.diff, self.rerecord))


_MESSAGE = operator.attrgetter("role", "content", "tool_calls", "tool_call_id", "name")


def sent(request: ChatRequest) -> tuple[Any, ...]:
    """The fields of a request that reach the model: what two requests are compared on.

    Each message as the tuple of its fields, taken in C (``attrgetter``), so
    comparing two conversations is one C-level comparison of lists, not a
    dataclass ``__eq__`` call per message: the check costs a replay little.
    """
    return (
        request.model,
        list(map(_MESSAGE, request.messages)),
        request.tools,
        request.response_format,
        request.temperature,
        request.max_tokens,
    )


def _alike(one: Sequence[Any] | None, other: Sequence[Any] | None) -> bool:
    """Whether two sequences hold the very same objects (a check in C, no ``__eq__``)."""
    if one is None or other is None:
        return one is other
    return len(one) == len(other) and all(map(operator.is_, one, other))


def _lines(request: ChatRequest) -> list[str]:
    return json.dumps(request_json(request), indent=2, ensure_ascii=False).splitlines()


class RecordedModel(FakeLLM):
    """A :class:`~agentkit.fakes.llm.FakeLLM` script of a model recording, checking requests.

    Made by :meth:`ModelRecording.llm
    <agentkit.core.testing.model_recording.ModelRecording.llm>` (and the
    ``api_recording`` fixture); everything a FakeLLM script does -- its
    :attr:`calls`, :attr:`remaining`, strict verification -- it does.
    """

    _asked: Sequence[tuple[Any, ...]]
    _bases: Sequence[Base | None]
    _given: list[ChatRequest | None]
    _requests: tuple[ChatRequest, ...]
    _check: bool
    _rerecord: str
    _new: bool

    @classmethod
    def of(
        cls,
        recording: ModelRecording,
        *,
        check_requests: bool = True,
        rerecord: str = "",
        name: str = "model recording",
        verify: bool = True,
    ) -> Self:
        self = cls.__new__(cls)
        turns = [call.answer for call in recording.calls]
        responder = ScriptedTurns(turns, repeat_last=False, where=name)
        self._setup(responder, name, None, 0, None, 0.0, verify)
        self._requests = tuple(call.request for call in recording.calls)
        self._asked = recording._sent_of_calls()
        self._bases = recording._bases_of_calls()
        self._given = [None] * len(self._requests)
        self._check = check_requests
        self._rerecord = rerecord
        self._new = False
        return self

    @property
    def replayed(self) -> int:
        """How many recorded calls were asked for."""
        return len(self.calls)

    def is_new(self, request: ChatRequest) -> bool:
        """Whether ``request`` is past what was recorded: beyond the last call, or not the
        request the next one was made with -- and so is every call after it (the
        conversation went another way). What ``new_episodes`` forwards to the provider."""
        if not self._new:
            index = len(self.calls)
            self._new = index >= len(self._asked) or sent(request) != self._asked[index]
        return self._new

    async def _settle(self, request: ChatRequest) -> Any:
        """FakeLLM's outcome of the call, once the request is the recorded one: the check
        is made where the script's turn is taken, so a replay streams as a script does."""
        index = len(self.calls) - 1  # the call is in the log already
        if self._check and index < len(self._asked):
            if not self._same(index, request):
                mismatch = self._compare(index, request)
                if mismatch is not None:
                    return mismatch  # raised by the stream, before its first delta
            self._given[index] = request
        return await super()._settle(request)

    def _same(self, index: int, request: ChatRequest) -> bool:
        """Whether ``request`` is the recorded one, as values.

        A call that carries on an earlier one (its recorded line ``continues``
        it) is compared by what is new only when its first messages are the
        very objects of that earlier call, already found equal to the
        recording -- an agent sends its transcript on as it grows -- so the
        check costs the new messages, not the whole conversation, each call.
        """
        base = self._bases[index]
        before = None if base is None else self._given[base.turn - 1]
        if base is not None and before is not None:
            known = base.length - 1
            messages = request.messages
            if (
                len(before.messages) == known
                and len(messages) >= known
                and all(map(operator.is_, before.messages, messages))
            ):
                recorded = self._requests[index]
                tools = request.tools
                return (
                    list(map(_MESSAGE, messages[known:])) == self._asked[index][1][known:]
                    and request.model == recorded.model
                    and (
                        (_alike(tools, before.tools) and _alike(recorded.tools, base.request.tools))
                        or tools == recorded.tools
                    )
                    and request.response_format == recorded.response_format
                    and request.temperature == recorded.temperature
                    and request.max_tokens == recorded.max_tokens
                )
        return sent(request) == self._asked[index]

    def _compare(self, index: int, given: ChatRequest) -> RequestMismatch | None:
        """The slow path: the two requests differ as values; do they as the file holds them?"""
        expected = _lines(self._requests[index])
        actual = _lines(given)
        if _same_scrubbed(expected, actual):
            return None
        import difflib

        diff = "\n".join(
            difflib.unified_diff(expected, actual, "recorded", "given", lineterm="", n=2)
        )
        self._record_violation(
            "request_mismatch",
            f"call {index + 1}: the request differs from the recording:\n{diff}",
            "if the change is intended, record the test again"
            + (f": {self._rerecord}" if self._rerecord else "")
            + "; otherwise fix the code under test",
        )
        return RequestMismatch(self._double_name, index + 1, diff, self._rerecord)


def _same_scrubbed(expected: Sequence[str], actual: Sequence[str]) -> bool:
    """Whether ``actual`` is ``expected`` once the scrubber has had it (a recorded secret
    ``[REDACTED]`` matches any, a home folder ``~``)."""
    if len(expected) != len(actual):
        return False
    from agentkit.fakes.cli._input_check import redacted_match
    from agentkit.fakes.cli._recording._scrub import REDACTED, Scrubber

    marker = REDACTED.decode()
    scrubber = Scrubber(env=None)
    for recorded, given in zip(expected, actual, strict=True):
        if recorded == given:
            continue
        given = scrubber.text(given)
        if recorded == given:
            continue
        if marker not in recorded or not redacted_match(recorded.split(marker), given):
            return False
    return True
