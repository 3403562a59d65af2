"""replay() and load_recording refuse a file that cannot be a recording, at once, naming it."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

from agentkit.fakes.cli import FakeClaudeCli, FakeCodexCli, RecordingError, load_recording

BAD_FILES = {
    "binary": (b'{"type":"system"}\n\x00\x01\x02\x03', 2, "binary data"),
    "utf-16": ('{"type":"system"}\n'.encode("utf-16"), 1, "UTF-16"),
    "utf-16 without a BOM": ('{"type":"system"}\n'.encode("utf-16-le"), 1, "UTF-16"),
    "utf-8 BOM": (b'\xef\xbb\xbf{"type":"system"}\n', 1, "byte-order mark"),
    "latin-1": (b'{"type":"system","text":"caf\xe9"}\n', 1, "not UTF-8"),
    "pretty-printed json": (
        json.dumps({"type": "result", "subtype": "success"}, indent=2).encode() + b"\n",
        1,
        "pretty-printed JSON?",
    ),
    "empty": (b"", 1, "empty file"),
    "a plain text line": (
        b'{"type":"system"}\nhello world\n{"type":"result"}\n',
        2,
        "not a JSON object line",
    ),
    "a JSON array line": (b"[1, 2]\n", 1, "not a JSON object line"),
    "a text tail": (b'{"type":"system"}\nnot json', 2, "neither a JSON object nor the start"),
    "deep nesting": (b"[" * 100_000 + b"]" * 100_000 + b"\n", 1, "not a JSON object line"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
@pytest.mark.parametrize("double", [FakeClaudeCli, FakeCodexCli])
def test_replay_refuses_a_file_that_is_no_recording(
    name: str, double: type[FakeClaudeCli | FakeCodexCli], tmp_path: Path
) -> None:
    data, line, fragment = BAD_FILES[name]
    path = tmp_path / "bad.jsonl"
    path.write_bytes(data)
    with pytest.raises(RecordingError) as caught:
        double.replay(path)
    assert caught.value.source == str(path)
    assert caught.value.line == line
    assert fragment in caught.value.problem


def test_a_killed_mid_object_tail_and_blank_lines_still_replay(tmp_path: Path) -> None:
    path = tmp_path / "killed.jsonl"
    path.write_bytes(b'\n{"type":"system"}\n\n{"type":"res')
    assert FakeClaudeCli.replay(path, verify=False).runs[0].stdout == path.read_bytes()


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)  # opening it for reading would block until a writer came
    with pytest.raises(RecordingError, match="a FIFO"):
        FakeCodexCli.replay(fifo)
    with pytest.raises(RecordingError, match="a FIFO"):
        load_recording(fifo)


def test_a_socket_a_device_and_a_directory_are_refused(tmp_path: Path) -> None:
    sock_path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(sock_path))
        with pytest.raises(RecordingError, match="a socket"):
            FakeClaudeCli.replay(sock_path)
    with pytest.raises(RecordingError, match="a device"):
        FakeClaudeCli.replay("/dev/null")
    with pytest.raises(RecordingError, match="a directory"):
        load_recording(tmp_path)


def test_a_path_through_a_file_is_a_recording_error(tmp_path: Path) -> None:
    parent = tmp_path / "file.jsonl"
    parent.write_bytes(b"{}\n")
    with pytest.raises(RecordingError, match="cannot stat: Not a directory"):
        FakeClaudeCli.replay(parent / "child.jsonl")
