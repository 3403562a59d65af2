"""The public API of the react, control and capabilities subpackages, pinned exactly."""

from __future__ import annotations

import importlib

import pytest

EXPECTED = {
    "agentkit.agents.react": {
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
    },
    "agentkit.agents.control": {
        "ApprovalRequest",
        "CheckpointNotSerialisable",
        "ElicitationAsker",
        "InMemoryCheckpointer",
        "UnknownApprovalRequest",
    },
    "agentkit.agents.control.elicitation": {
        "ApprovalRequest",
        "Asker",
        "ElicitationAsker",
        "UnknownApprovalRequest",
    },
    "agentkit.agents.capabilities": {"PROMPT_VERSION_ATTR", "RequestBuilder"},
}


@pytest.mark.parametrize("module_name", sorted(EXPECTED))
def test_all_is_exactly_the_public_api_and_every_name_resolves(module_name: str) -> None:
    module = importlib.import_module(module_name)
    assert set(module.__all__) == EXPECTED[module_name]
    assert len(module.__all__) == len(set(module.__all__))
    for name in module.__all__:
        assert getattr(module, name) is not None, name


def test_the_elicitation_asker_is_the_core_port() -> None:
    from agentkit.agents.control import elicitation
    from agentkit.core import ports

    assert elicitation.Asker is ports.Asker
