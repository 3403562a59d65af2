"""The README's first test is real code: extract it and run it."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

README = Path(__file__).resolve().parents[1] / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_readme_has_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert "pip install uv && uv run python -m agentkit.agents.demo" in text
    assert "pip install uv && uv run pytest" in text


def test_readme_first_test_passes() -> None:
    (block,) = _python_blocks()
    namespace: dict[str, Any] = {}
    exec(compile(block, str(README), "exec"), namespace)
    tests = [v for k, v in namespace.items() if k.startswith("test_")]
    assert len(tests) == 1
    asyncio.run(tests[0]())
