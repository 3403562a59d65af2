"""agentkit.fakes.io's lazy __version__ adds no __getattr__ mypy can see: a typo is an error."""

from agentkit.fakes.io import FakeClok  # FakeClock

_double: object = FakeClok
