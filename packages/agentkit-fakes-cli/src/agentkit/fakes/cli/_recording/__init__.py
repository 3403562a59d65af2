"""Recordings: the file format, capturing a real CLI into one, and keeping secrets out of it.

Everything a recording is, apart from the doubles that replay it:

* ``_format`` -- :class:`Recording` and how it is written (``dumps``);
* ``_parse`` -- reading a file's bytes back: header, body, trailer;
* ``_files`` -- a file on disk: read safely, loaded, saved through the gate;
* ``_capture`` -- :class:`CapturingSpawn`, recording a real CLI spawn;
* ``_scrub``, ``_deltas`` -- replacing secrets in a capture before anything
  is stored (what a secret looks like is :mod:`agentkit.core._internal.secrets`, which
  FakeApi reads too);
* ``_gate`` -- the last check before a file is written (and ``scan``);
* ``_transcript``, ``_command`` -- ``python -m agentkit.fakes.cli``
  (``record``, ``show``, ``scan``).

The modules import downward in that order and never back, and
:class:`RecordingError` sits below them all (``_errors``). The public names
are exported by :mod:`agentkit.fakes.cli`; this package re-exports the
format's names for the modules of the doubles.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentkit.fakes.cli._recording._errors import RecordingError as RecordingError
    from agentkit.fakes.cli._recording._files import load_recording as load_recording
    from agentkit.fakes.cli._recording._files import save_recording as save_recording
    from agentkit.fakes.cli._recording._format import KNOWN_CLIS as KNOWN_CLIS
    from agentkit.fakes.cli._recording._format import Recording as Recording
    from agentkit.fakes.cli._recording._format import check_cli as check_cli
    from agentkit.fakes.cli._recording._format import stream_parts as stream_parts
    from agentkit.fakes.cli._recording._parse import parse_recording as parse_recording
    from agentkit.fakes.cli._recording._parse import replay_recording as replay_recording
else:
    # A submodule import (``_recording._errors`` for the RecordingError a star
    # import of agentkit.core.testing binds) runs this file first; the format
    # and its parser load when a name of theirs is asked for.
    from agentkit.core._internal.lazy import lazy_exports

    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "RecordingError": "agentkit.fakes.cli._recording._errors",
            "load_recording": "agentkit.fakes.cli._recording._files",
            "save_recording": "agentkit.fakes.cli._recording._files",
            "KNOWN_CLIS": "agentkit.fakes.cli._recording._format",
            "Recording": "agentkit.fakes.cli._recording._format",
            "check_cli": "agentkit.fakes.cli._recording._format",
            "stream_parts": "agentkit.fakes.cli._recording._format",
            "parse_recording": "agentkit.fakes.cli._recording._parse",
            "replay_recording": "agentkit.fakes.cli._recording._parse",
        },
        globals(),
    )

__all__ = [
    "RecordingError",
    "load_recording",
    "save_recording",
    "KNOWN_CLIS",
    "Recording",
    "check_cli",
    "stream_parts",
    "parse_recording",
    "replay_recording",
]
