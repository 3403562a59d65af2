"""Recording files on disk: read safely, loaded, and written only through the secret gate.

``open()`` on a FIFO blocks until a writer appears -- forever, in a test --
and on a character device it may never reach EOF, so the file's kind is
checked with ``os.stat`` first and anything but a regular file is refused.
A missing file names the working directory it was resolved against, because
a relative fixture path that works from the repository root and not from
the package directory is the usual cause.
"""

from __future__ import annotations

import contextlib
import os
import stat
from typing import TYPE_CHECKING

from agentkit.core._internal.arguments import ArgumentTypeError
from agentkit.fakes.cli._recording._errors import RecordingError
from agentkit.fakes.cli._recording._format import Recording
from agentkit.fakes.cli._recording._parse import parse_recording

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["load_recording", "read_recording_file", "save_recording"]


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
        status = os.stat(target)
    except FileNotFoundError:
        raise RecordingError(
            target, 0, f"{owner}: no such file (resolved against cwd {os.getcwd()!r})"
        ) from None
    except OSError as exc:
        raise RecordingError(target, 0, f"{owner}: cannot stat: {exc.strerror or exc}") from None
    if not stat.S_ISREG(status.st_mode):
        raise RecordingError(target, 0, f"{owner}: {_kind(status.st_mode)}, not a recording file")
    try:
        with open(target, "rb", buffering=0) as handle:
            # One read of the size stat gave fills the bytes object in place; a plain
            # read() grows and then trims its buffer, a second copy of the recording
            # for a moment. Whatever the file holds beyond it (it grew) is read on.
            data = handle.read(status.st_size)
            rest = handle.readall()
            return data + rest if rest else data
    except OSError as exc:
        raise RecordingError(target, 0, f"{owner}: cannot read: {exc.strerror or exc}") from None


def load_recording(path: Path | str) -> Recording:
    """Read and parse a recording file; errors name the path and line."""
    if not isinstance(path, str | os.PathLike):
        raise ArgumentTypeError("load_recording", "path", "a file path (str or PathLike)", path)
    return parse_recording(read_recording_file("load_recording", path), source=os.fspath(path))


def save_recording(recording: Recording, path: Path | str, *, allow_secrets: bool = False) -> Path:
    """Write ``recording`` to ``path`` (parents created); returns the path.

    The last gate first: if anything in the file about to be written is
    still shaped like a secret (a key shape, the value of a secret-named
    variable in this environment), nothing is written and
    :class:`~agentkit.fakes.cli.RecordingSecretError` lists each finding --
    line, place and kind, never the value. ``allow_secrets=True`` writes
    anyway, for a value that only looks like a secret (a documented example
    key in a fixture).
    """
    if not isinstance(recording, Recording):
        raise TypeError(f"save_recording takes a Recording, got {type(recording).__name__}")
    if not isinstance(allow_secrets, bool):
        raise ArgumentTypeError("save_recording", "allow_secrets", "a bool", allow_secrets)
    from pathlib import Path  # pathlib brings urllib.parse and ipaddress: paid on save only

    target = Path(path)
    data = recording.dumps()
    if not allow_secrets:
        from agentkit.fakes.cli._recording._gate import check_no_secrets

        check_no_secrets(data, os.fspath(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    _replace(target, data)
    return target


def _replace(target: Path, data: bytes) -> None:
    """Write ``data`` beside ``target``, then move it into place in one step.

    A write cut short (Ctrl-C, a full disk) leaves the previous recording as
    it was, never half a file; and a read-only file in a writable folder is
    replaced like any other. The temporary name is short, so it fits
    wherever the target's name does, and created with the usual permissions
    (``mkstemp`` would make it owner-only).
    """
    import secrets

    while True:
        temporary = target.parent / f".recording-{secrets.token_hex(6)}.tmp"
        try:
            handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        break
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
