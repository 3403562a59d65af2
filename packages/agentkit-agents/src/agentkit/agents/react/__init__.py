"""The tool-using loop: ReactAgent, its result, and its typed errors."""

from agentkit.agents.react.agent import ReactAgent as ReactAgent
from agentkit.agents.react.errors import ApprovalUnavailable as ApprovalUnavailable
from agentkit.agents.react.errors import CheckpointAlreadyResumed as CheckpointAlreadyResumed
from agentkit.agents.react.errors import CheckpointerMissing as CheckpointerMissing
from agentkit.agents.react.errors import CheckpointNotFound as CheckpointNotFound
from agentkit.agents.react.errors import InvalidCheckpoint as InvalidCheckpoint
from agentkit.agents.react.errors import ReactError as ReactError
from agentkit.agents.react.output import OutputValidator as OutputValidator
from agentkit.agents.react.output import json_output as json_output
from agentkit.agents.react.result import ReactResult as ReactResult
from agentkit.agents.react.result import StopReason as StopReason
from agentkit.agents.react.state import CHECKPOINT_FORMAT as CHECKPOINT_FORMAT
from agentkit.agents.react.state import SuspendedRun as SuspendedRun
from agentkit.core.schema import schema_errors as schema_errors

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
