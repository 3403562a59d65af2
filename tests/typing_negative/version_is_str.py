"""A package's lazy __version__ is still typed for mypy: a str, not Any."""

import agentkit.fakes.io

_version: int = agentkit.fakes.io.__version__  # a str
