"""kit_failure / hide_kit_frames: a marked failure loses the kit's frames, nothing else does."""

from __future__ import annotations

import traceback

from agentkit.core._internal.arguments import ArgumentValueError
from agentkit.core._internal.failures import hide_kit_frames, is_kit_failure, kit_failure
from agentkit.core.verification.process_guard import RealProcessBlocked
from agentkit.core.verification.script import ScriptCursor, ScriptExhausted


def frames(error: BaseException) -> list[str]:
    return [f.filename for f in traceback.extract_tb(error.__traceback__)]


def exhaust() -> ScriptExhausted:
    cursor = ScriptCursor(["only"])
    cursor.next()
    try:
        cursor.next()  # the kit's frame raises, below this one
    except ScriptExhausted as error:
        return error
    raise AssertionError("the cursor did not refuse a second take")


def test_the_kits_own_failures_are_marked() -> None:
    assert is_kit_failure(ScriptExhausted("x"))
    assert is_kit_failure(RealProcessBlocked("x"))
    assert is_kit_failure(ArgumentValueError("f", "a", "b", 1))
    assert not is_kit_failure(RuntimeError("a bug"))


def test_a_subclass_of_a_marked_failure_is_one() -> None:
    @kit_failure
    class Base(Exception):
        pass

    class Child(Base):
        pass

    assert is_kit_failure(Child())


def test_the_kit_frames_leave_the_traceback_and_the_callers_stay() -> None:
    error = exhaust()
    before = frames(error)
    assert any("agentkit/core/verification/script.py" in f.replace("\\", "/") for f in before)
    hide_kit_frames(error)
    after = frames(error)
    assert after == [f for f in before if "agentkit/core/" not in f.replace("\\", "/")]
    assert after == [__file__]


def raised(cause: type[BaseException], message: str) -> BaseException:
    """``cause(message)`` raised from a ScriptExhausted the kit raised, as caught."""
    try:
        try:
            ScriptCursor([]).next()
        except ScriptExhausted as exhausted:
            raise cause(message) from exhausted
    except BaseException as error:  # returned for the test to look at
        return error
    raise AssertionError("nothing was raised")


def test_any_other_exception_keeps_every_frame() -> None:
    error = raised(RuntimeError, "a bug in the kit")
    exhausted = error.__cause__
    assert exhausted is not None
    before, cause = frames(error), frames(exhausted)
    assert any("agentkit/core/" in f.replace("\\", "/") for f in cause)
    hide_kit_frames(error)
    assert frames(error) == before
    assert frames(exhausted) == cause


def test_the_chain_of_a_kit_failure_is_shortened_too() -> None:
    error = raised(RealProcessBlocked, "then this")
    hide_kit_frames(error)
    assert error.__cause__ is not None
    assert frames(error.__cause__) == [__file__]


def test_a_failure_raised_entirely_inside_the_kit_is_left_whole() -> None:
    # Nothing of the user's would be left: the kit's frames are then all there is to show.
    error = exhaust()
    tb = error.__traceback__
    assert tb is not None
    kit_only = tb.tb_next
    assert kit_only is not None
    error.__traceback__ = kit_only
    hide_kit_frames(error)
    assert error.__traceback__ is kit_only


def test_an_exception_never_raised_is_left_alone() -> None:
    error = ScriptExhausted("no traceback")
    hide_kit_frames(error)
    assert error.__traceback__ is None
