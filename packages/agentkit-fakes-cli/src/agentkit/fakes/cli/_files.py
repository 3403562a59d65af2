"""Reading a recording file safely: only a regular file, checked before it is opened.

``open()`` on a FIFO blocks until a writer appears -- forever, in a test --
and on a character device it may never reach EOF, so the file's kind is
checked with ``os.stat`` first and anything but a regular file is refused.
A missing file names the working directory it was resolved against, because
a relative fixture path that works from the repository root and not from
the package directory is the usual cause.
"""

from __future__ import annotations

import os
import stat

from agentkit.fakes.cli._recording import RecordingError

__all__ = ["read_recording_file"]


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def read_recording_file(owner: str, path: str | os.PathLike[str]) -> bytes:
    """The bytes of the regular file at ``path``; :class:`RecordingError` otherwise."""
    target = os.fspath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        raise RecordingError(
            target, 0, f"{owner}: no such file (resolved against cwd {os.getcwd()!r})"
        ) from None
    except OSError as exc:
        raise RecordingError(target, 0, f"{owner}: cannot stat: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        raise RecordingError(target, 0, f"{owner}: {_kind(mode)}, not a recording file")
    try:
        with open(target, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise RecordingError(target, 0, f"{owner}: cannot read: {exc.strerror or exc}") from None
