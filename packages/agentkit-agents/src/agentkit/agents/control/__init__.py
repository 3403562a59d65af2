"""Human-in-the-loop control: an Asker a UI answers, and a Checkpointer to suspend to."""

from agentkit.agents.control.checkpoint import CheckpointNotSerialisable, InMemoryCheckpointer
from agentkit.agents.control.elicitation import (
    ApprovalRequest,
    ElicitationAsker,
    UnknownApprovalRequest,
)

__all__ = [
    "ApprovalRequest",
    "CheckpointNotSerialisable",
    "ElicitationAsker",
    "InMemoryCheckpointer",
    "UnknownApprovalRequest",
]
