"""The tool-using loop: ReactAgent, its result, and its typed errors."""

from agentkit.agents.react.agent import ReactAgent
from agentkit.agents.react.errors import (
    ApprovalUnavailable,
    CheckpointAlreadyResumed,
    CheckpointerMissing,
    CheckpointNotFound,
    InvalidCheckpoint,
    ReactError,
)
from agentkit.agents.react.output import OutputValidator, json_output
from agentkit.agents.react.result import ReactResult, StopReason
from agentkit.agents.react.state import CHECKPOINT_FORMAT, SuspendedRun
from agentkit.core.schema import schema_errors

__all__ = [
    "CHECKPOINT_FORMAT",
    "ApprovalUnavailable",
    "CheckpointAlreadyResumed",
    "CheckpointNotFound",
    "CheckpointerMissing",
    "InvalidCheckpoint",
    "OutputValidator",
    "ReactAgent",
    "ReactError",
    "ReactResult",
    "StopReason",
    "SuspendedRun",
    "json_output",
    "schema_errors",
]
