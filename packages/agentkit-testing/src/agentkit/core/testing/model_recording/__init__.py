"""Model recordings: a real model recorded once through FakeApi, replayed as a FakeLLM script.

A :class:`ModelRecording` is a session of model calls at the model level --
each request as the kit's :class:`~agentkit.core.request.ChatRequest`
beside its answer, a :class:`~agentkit.fakes.llm.Turn` or the provider's
error -- stored as a JSON Lines file a person reads and edits (one line a
call). :func:`load_model_recording` reads one, :meth:`ModelRecording.llm`
replays it as a strict ``FakeLLM`` script that checks each request
(:class:`RequestMismatch`), and :func:`save_model_recording` writes one
through the secret gate the CLI recordings have. The ``api_recording``
fixture of the agentkit_testing plugin does all of it per test, with record
modes; see the guide "Model recordings".
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agentkit.core._internal.arguments import ArgumentTypeError, check_bool
from agentkit.core.testing.model_recording._file import FORMAT, ModelRecording, RecordedCall
from agentkit.core.testing.model_recording._file import read as _read
from agentkit.core.testing.model_recording._file import write as _write
from agentkit.core.testing.model_recording._replay import RecordedModel, RequestMismatch

__all__ = [
    "FORMAT",
    "ModelRecording",
    "RecordedCall",
    "RecordedModel",
    "RequestMismatch",
    "load_model_recording",
    "save_model_recording",
]


def load_model_recording(path: str | os.PathLike[str]) -> ModelRecording:
    """Read the model recording at ``path``; a RecordingError names the line and field."""
    return _read(path)


def save_model_recording(
    recording: ModelRecording,
    path: str | os.PathLike[str],
    *,
    scrub: Sequence[Any] = (),
    allow_secrets: bool = False,
) -> Path:
    """Write ``recording`` to ``path`` (folders made; the previous file replaced in one step).

    Secrets are scrubbed first -- the values of this environment's
    secret-named variables, every key shape, and the test's own ``scrub``
    patterns (str or ``re.Pattern``) -- then the secret gate runs: if
    anything still looks like a secret, nothing is written and
    :class:`~agentkit.fakes.cli.RecordingSecretError` lists where (never the
    value). ``allow_secrets=True`` writes as it is.
    """
    if not isinstance(recording, ModelRecording):
        raise ArgumentTypeError("save_model_recording", "recording", "a ModelRecording", recording)
    if not isinstance(path, str | os.PathLike):
        raise ArgumentTypeError("save_model_recording", "path", "a file path", path)
    check_bool(allow_secrets, "save_model_recording", "allow_secrets")
    return _write(recording, path, scrub=scrub, allow_secrets=allow_secrets)
