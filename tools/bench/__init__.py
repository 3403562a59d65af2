"""agentkit's benchmarks against the peers a user would pick instead.

Run ``uv run --group bench python -m tools.bench`` from the workspace root
(``--quick`` for a smoke run). The peers (pydantic-ai-slim, langchain-core)
live only in the root ``bench`` dependency group, so nothing here is imported
by a package or a test; see README.md next to this file and
docs/performance.md for the method and the figures.
"""
