"""Hardening tools: try to break the kit on purpose, and count what happens.

Each module is runnable with ``uv run --frozen python -m tools.hardening.<name>``
and prints figures a later check can be compared with (see README.md here).
"""
