"""The one finite-script cursor every scripted double shares, and its loud end.

A script (a list of LLM turns, a list of CLI runs, a list of transport facts)
is a claim about how many times the code under test will ask. Every scripted
double walks its script with :class:`ScriptCursor`, so they all run out the
same way: by raising :class:`ScriptExhausted`, never by clamping to the last
item.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

from agentkit.core._internal.arguments import ArgumentValueError
from agentkit.core._internal.failures import kit_failure

__all__ = ["ScriptCursor", "ScriptExhausted"]

T = TypeVar("T")


@kit_failure
class ScriptExhausted(BaseException):
    """A script was asked for more items than it has.

    WHY THIS EXISTS, AND WHY IT IS LOUD: a clamp (``min(i, len - 1)``) turns
    "the agent asked for more turns than the script has" -- a statement that
    the code under test looped when it should have stopped -- into a stable,
    plausible, wrong answer, and the test goes green.

    WHY BaseException AND NOT Exception: the failure it reports is a failure of
    the code that would be doing the catching. The tool loop reflects invalid
    output back to the model, turns every tool failure into a tool message,
    and the retry middleware re-invokes failed calls; each ``except Exception``
    is right for a real provider fault and each would convert "your loop does
    not terminate" into a retry and keep going. ``asyncio.CancelledError`` left
    ``Exception`` in 3.8 for the same reason. pytest reports a BaseException as
    a plain failure, so nothing is lost at the top.
    """


class ScriptCursor(Generic[T]):
    """Walks a finite script in order; raises when asked past its end.

    ``repeat_last=True`` replays the final item forever: the deliberate
    never-terminating script, for a test that drives a loop until a limit
    (max_iterations, a budget) cuts it. ``exhausted`` lets a double raise its
    own subclass of :class:`ScriptExhausted` with the same semantics.
    ``where`` names the double in the argument error for a ``repeat_last``
    with nothing to repeat, so each double need not check that again.
    """

    __slots__ = ("_asked", "_exhausted", "_index", "_items", "_repeat_last", "_what")

    def __init__(
        self,
        items: Iterable[T],
        *,
        repeat_last: bool = False,
        what: str = "item",
        exhausted: type[ScriptExhausted] = ScriptExhausted,
        where: str = "ScriptCursor",
    ) -> None:
        self._items: tuple[T, ...] = tuple(items)
        if repeat_last and not self._items:
            raise ArgumentValueError(
                where,
                "repeat_last",
                f"False when there is no {what} to repeat",
                repeat_last,
                f"repeat_last=True needs at least one {what} to repeat",
            )
        self._repeat_last = repeat_last
        self._what = what
        self._exhausted = exhausted
        self._index = 0
        self._asked = 0

    @property
    def items(self) -> tuple[T, ...]:
        return self._items

    @property
    def consumed(self) -> int:
        """How many items have been handed out (repeats included)."""
        return self._index

    @property
    def remaining(self) -> int:
        """Items not yet handed out; never negative, and 0 while repeating the last."""
        return max(len(self._items) - self._index, 0)

    @property
    def repeat_last(self) -> bool:
        return self._repeat_last

    def next(self, call: int | None = None) -> T:
        """The next item, or raise the cursor's ``exhausted`` class.

        The message numbers the call that asked: ``call`` when the double
        counts its calls itself (a failed call may not reach the script), else
        the cursor's own count of asks -- the ones past the end included, so a
        script asked twice too often reports calls N+1 and N+2.
        """
        self._asked += 1
        index = self._index
        count = len(self._items)
        if index < count:
            self._index = index + 1
            return self._items[index]
        if self._repeat_last:
            self._index = index + 1
            return self._items[-1]
        raise self._exhausted(
            f"script has {count} {self._what}{'' if count == 1 else 's'} but call "
            f"{self._asked if call is None else call} asked for another; the code under test asked more times than "
            f"the script claims (pass repeat_last=True to replay the last {self._what} forever)"
        )
