"""Human-in-the-loop control: an Asker a UI answers, and a Checkpointer to suspend to."""

from agentkit.agents.control.checkpoint import (
    CheckpointNotSerialisable as CheckpointNotSerialisable,
)
from agentkit.agents.control.checkpoint import InMemoryCheckpointer as InMemoryCheckpointer
from agentkit.agents.control.elicitation import ApprovalRequest as ApprovalRequest
from agentkit.agents.control.elicitation import ElicitationAsker as ElicitationAsker
from agentkit.agents.control.elicitation import UnknownApprovalRequest as UnknownApprovalRequest

__all__ = [
    "ApprovalRequest",
    "CheckpointNotSerialisable",
    "ElicitationAsker",
    "InMemoryCheckpointer",
    "UnknownApprovalRequest",
]
