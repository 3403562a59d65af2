"""A misspelled name imported from agentkit.core.testing must not type-check (no visible __getattr__)."""

from agentkit.core.testing import FakeLMM  # the typo

_double: object = FakeLMM
