from __future__ import annotations

import pytest

from agentkit.core.verification.script import ScriptCursor, ScriptExhausted


def test_cursor_hands_out_items_in_order_then_raises() -> None:
    cursor = ScriptCursor(["one", "two"], what="turn")
    assert [cursor.next(), cursor.next()] == ["one", "two"]
    with pytest.raises(ScriptExhausted, match=r"2 turns but call 3"):
        cursor.next()
    # Still exhausted, and the count of calls made is not advanced by a failure.
    assert cursor.consumed == 2
    with pytest.raises(ScriptExhausted):
        cursor.next()


def test_cursor_never_clamps() -> None:
    """The bug this class exists for: a clamp answered ['one', 'two', 'two', 'two']."""
    cursor = ScriptCursor(["one", "two"])
    answers: list[str] = []
    with pytest.raises(ScriptExhausted):
        for _ in range(4):
            answers.append(cursor.next())
    assert answers == ["one", "two"]


def test_repeat_last_replays_the_final_item_forever() -> None:
    cursor = ScriptCursor([1, 2], repeat_last=True)
    assert [cursor.next() for _ in range(5)] == [1, 2, 2, 2, 2]
    assert cursor.remaining == 0
    assert cursor.consumed == 5


def test_repeat_last_with_nothing_to_repeat_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one run"):
        ScriptCursor([], repeat_last=True, what="run")


def test_remaining_counts_down_and_is_never_negative() -> None:
    cursor = ScriptCursor("ab")
    assert cursor.remaining == 2
    cursor.next()
    cursor.next()
    assert cursor.remaining == 0
    with pytest.raises(ScriptExhausted):
        cursor.next()
    assert cursor.remaining == 0


def test_script_exhausted_escapes_except_exception() -> None:
    assert issubclass(ScriptExhausted, BaseException)
    assert not issubclass(ScriptExhausted, Exception)
    cursor: ScriptCursor[int] = ScriptCursor([])

    def swallow_everything_ordinary() -> str:
        try:
            cursor.next()
        except Exception:
            return "swallowed"
        return "returned"

    with pytest.raises(ScriptExhausted):
        swallow_everything_ordinary()


def test_a_double_can_raise_its_own_subclass() -> None:
    class AdapterExhausted(ScriptExhausted):
        pass

    cursor = ScriptCursor([1], exhausted=AdapterExhausted)
    cursor.next()
    with pytest.raises(AdapterExhausted):
        cursor.next()


def test_items_are_snapshotted_at_construction() -> None:
    source = [1, 2]
    cursor = ScriptCursor(source)
    source.append(3)
    assert cursor.items == (1, 2)
