"""The run services agentkit-agents ships pass their ports' contract suites.

``InMemoryCheckpointer`` is the checkpointer the suspend-and-resume path uses
without a database; ``ElicitationAsker`` is the asker a UI answers, so its
suite run answers each question as a UI would.
"""

from __future__ import annotations

from agentkit.agents.control.checkpoint import InMemoryCheckpointer
from agentkit.agents.control.elicitation import ElicitationAsker
from agentkit.core.testing.contracts import check_asker, check_checkpointer


async def test_the_in_memory_checkpointer_passes() -> None:
    assert await check_checkpointer(InMemoryCheckpointer) == []


async def test_the_elicitation_asker_passes_when_a_ui_answers() -> None:
    async def approve_next(asker: ElicitationAsker) -> None:
        request = await asker.next_request()
        asker.approve(request.id)

    assert await check_asker(ElicitationAsker, answer=approve_next) == []


async def test_the_elicitation_asker_denying_passes_too() -> None:
    async def deny_next(asker: ElicitationAsker) -> None:
        asker.deny((await asker.next_request()).id)

    assert await check_asker(ElicitationAsker, answer=deny_next) == []
