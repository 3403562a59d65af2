"""The recordings shipped inside agentkit-fakes-cli, loadable by name.

Each file under ``recordings/<cli>/<name>.jsonl`` is one spawn of the real,
pinned CLI against a loopback mock of its API, captured with
:class:`~agentkit.fakes.cli.CapturingSpawn`; its header says which binary,
which scenario and how it was made. They are data files of the package,
next to this module, so they ship in the wheel: a test kit's recordings
must be there when it is installed, not only in a checkout.

Why by name and not by path: a path into site-packages is not something a
user's test should spell, and a name that does not exist should say which
ones do.
"""

from __future__ import annotations

from pathlib import Path

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.fakes.cli._recording import check_cli

__all__ = ["LIBRARY", "recorded_paths", "recording_names", "recording_path"]

LIBRARY = Path(__file__).parent / "recordings"
"""Where the shipped recordings live (one folder per CLI)."""


def recording_names(cli: str) -> tuple[str, ...]:
    """The names of the shipped recordings of ``cli`` (``"claude"`` or ``"codex"``), sorted."""
    folder = LIBRARY / check_cli(cli, "recording_names")
    if not folder.is_dir():
        return ()
    return tuple(sorted(p.stem for p in folder.glob("*.jsonl") if p.is_file()))


def recording_path(cli: str, name: str) -> Path:
    """The file of the shipped recording ``name`` of ``cli``, to read, copy or ``show``.

    The public way to the file behind ``FakeClaudeCli.recorded(name)``: a user
    who wants to look at it, or start a recording of their own from it, should
    not have to find the package's folder in site-packages. A name that is not
    shipped is refused naming the ones that are.
    """
    (path,) = recorded_paths(check_cli(cli, "recording_path"), (name,), "recording_path")
    return path


def recorded_paths(cli: str, names: tuple[object, ...], where: str) -> list[Path]:
    """The files of the shipped recordings ``names`` of ``cli``, listing the folder once.

    A name that is not shipped raises a typed error naming the known ones.
    """
    known = recording_names(cli)
    paths: list[Path] = []
    for name in names:
        if not isinstance(name, str):
            raise ArgumentTypeError(where, "name", "the name of a shipped recording (a str)", name)
        if name not in known:
            listed = ", ".join(known) if known else "none are installed"
            raise ArgumentValueError(
                where, "name", f"one of the shipped {cli} recordings ({listed})", name
            )
        paths.append(LIBRARY / cli / f"{name}.jsonl")
    return paths
