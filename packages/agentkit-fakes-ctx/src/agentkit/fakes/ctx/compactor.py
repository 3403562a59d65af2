"""FakeCompactor: a Compactor whose output says, unmistakably, that it ran."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from agentkit.core._internal.arguments import check_bool, check_str
from agentkit.core.types import Message

__all__ = ["FakeCompactor"]


@dataclass
class FakeCompactor:
    """RequestBuilder test helper. Replaces every transcript with a single sentinel message.

    The reply is one USER message whose content is ``sentinel``, whatever it
    was given (an empty transcript included), so a test can detect that
    compaction ran by finding the sentinel where the transcript was. A user
    message because a lone user turn is a valid transcript for every provider,
    where a lone assistant or tool message is not -- the request built from
    it must still be one a real model would accept.

    ``called`` turns True on the first call; ``inputs`` records each call's
    transcript (as a tuple, so the caller appending to its list afterwards
    does not rewrite the record), so a test can also assert WHAT was
    compacted.

    It verifies nothing at teardown: the sentinel is a single answer for
    every transcript, with nothing to leave over or to miss. Whether it ran
    is ``called``, for the test to assert.
    """

    sentinel: str = "[COMPACTED]"
    called: bool = False
    inputs: list[tuple[Message, ...]] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        check_str(self.sentinel, "FakeCompactor", "sentinel")
        check_bool(self.called, "FakeCompactor", "called")

    async def compact(self, messages: Sequence[Message]) -> list[Message]:
        given: object = messages  # checked at run time too: callers are not all typed
        if isinstance(given, str | bytes) or not isinstance(given, Sequence):
            raise TypeError(f"compact takes a sequence of Message, got {type(given).__name__}")
        transcript = tuple(messages)
        for index, message in enumerate(transcript):
            item: object = message
            if not isinstance(item, Message):
                raise TypeError(
                    f"compact: messages[{index}] is {type(message).__name__}, not a Message"
                )
        self.inputs.append(transcript)
        self.called = True
        return [Message.user(self.sentinel)]
