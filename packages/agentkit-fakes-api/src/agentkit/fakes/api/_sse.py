"""Server-Sent Events framing, as the providers write it and their SDKs and CLIs parse it.

One event is an optional ``event:`` line, one ``data:`` line of compact
JSON, and a blank line. Anthropic and the OpenAI Responses API name every
event (the name repeats the payload's ``type``); Chat Completions sends
``data:`` lines only and ends with ``data: [DONE]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agentkit.fakes.api._call import json_text

__all__ = ["DONE", "frame"]

DONE = b"data: [DONE]\n\n"


def frame(data: Mapping[str, Any], event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event is not None else ""
    return f"{head}data: {json_text(data)}\n\n".encode()
