from __future__ import annotations

from agentkit.core.estimate import estimate_input_tokens, estimate_tokens
from agentkit.core.types import Message


def test_the_token_estimate_is_four_characters_a_token_rounded_up() -> None:
    assert [estimate_tokens(n) for n in (0, 1, 4, 5)] == [0, 1, 1, 2]


def test_a_requests_input_counts_the_content_of_every_message() -> None:
    assert estimate_input_tokens([Message.system("abc"), Message.user("defgh")]) == 2
    assert estimate_input_tokens([]) == 0
