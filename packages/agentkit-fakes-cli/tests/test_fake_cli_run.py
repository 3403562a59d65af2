"""CliRun / CliStderr / CliInvocation: how payloads become bytes, and what is refused."""

from __future__ import annotations

import dataclasses
import json

import pytest

from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.fakes.cli import CliInvocation, CliRun, CliStderr


def test_a_mapping_is_one_compact_json_line() -> None:
    run = CliRun.of([{"type": "result", "result": "café", "n": [1, 2]}])
    assert run.stdout == '{"type":"result","result":"café","n":[1,2]}\n'.encode()
    assert json.loads(run.stdout) == {"type": "result", "result": "café", "n": [1, 2]}


def test_str_and_bytes_are_verbatim() -> None:
    run = CliRun.of(["\n", "warning: x\n", b'{"type":"result",'])
    assert run.stdout == b'\nwarning: x\n{"type":"result",'


def test_stderr_chunks_are_placed_at_their_stdout_offset() -> None:
    first = {"type": "system", "subtype": "init"}
    run = CliRun.of(
        [CliStderr(b"early\n"), first, CliStderr(b"mid\n"), "tail\n", CliStderr(b"late\n")],
        stderr=b"lump\n",
        returncode=3,
    )
    line = len(json.dumps(first, separators=(",", ":"))) + 1
    assert run.interleaved_stderr == (
        (0, b"early\n"),
        (line, b"mid\n"),
        (line + 5, b"late\n"),
    )
    assert run.stderr == b"lump\n"
    assert run.returncode == 3


def test_a_run_is_frozen() -> None:
    run = CliRun(stdout=b"x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.stdout = b"y"  # type: ignore[misc]


def test_bytearray_is_normalised_to_bytes() -> None:
    run = CliRun(stdout=bytearray(b"a\n"), stderr=memoryview(b"e"))  # type: ignore[arg-type]
    assert type(run.stdout) is bytes
    assert type(run.stderr) is bytes


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"stdout": "text"}, TypeError),
        ({"returncode": True}, TypeError),
        ({"returncode": "1"}, TypeError),
        ({"stdout": b"ab", "interleaved_stderr": ((3, b"x"),)}, ValueError),
        ({"stdout": b"ab", "interleaved_stderr": ((2, b"x"), (1, b"y"))}, ValueError),
        ({"stdout": b"ab", "interleaved_stderr": ((1, "x"),)}, TypeError),
        ({"stdout": b"ab", "interleaved_stderr": (1,)}, TypeError),
    ],
)
def test_bad_runs_are_refused(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error):
        CliRun(**kwargs)  # type: ignore[arg-type]


def test_of_refuses_bad_payloads_with_their_index() -> None:
    with pytest.raises(ArgumentTypeError, match=r"payloads\[1\] must be a Mapping"):
        CliRun.of([{"a": 1}, 42])  # type: ignore[list-item]
    with pytest.raises(ArgumentValueError, match=r"payloads\[0\] must be a JSON-serialisable"):
        CliRun.of([{"a": object()}])
    with pytest.raises(ArgumentTypeError, match="wrap a single one in a list"):
        CliRun.of("just a string")
    with pytest.raises(ArgumentTypeError, match="wrap a single one in a list"):
        CliRun.of({"type": "result"})
    with pytest.raises(ArgumentTypeError, match="payloads must be an iterable"):
        CliRun.of(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({"stdout": "text"}, "stdout"),
        ({"stderr": None}, "stderr"),
        ({"returncode": "1"}, "returncode"),
        ({"returncode": True}, "returncode"),
        ({"interleaved_stderr": [(0,)]}, "interleaved_stderr[0]"),
        ({"interleaved_stderr": [("0", b"x")]}, "interleaved_stderr[0][0]"),
        ({"interleaved_stderr": [(5, b"x")]}, "interleaved_stderr[0][0]"),
        ({"interleaved_stderr": [(0, "x")]}, "interleaved_stderr[0][1]"),
        ({"interleaved_stderr": 7}, "interleaved_stderr"),
    ],
)
def test_cli_run_refuses_wrong_fields_naming_them(kwargs: dict[str, object], argument: str) -> None:
    with pytest.raises((ArgumentTypeError, ArgumentValueError)) as caught:
        CliRun(**kwargs)  # type: ignore[arg-type]
    assert caught.value.argument == argument


def test_cli_stderr_wants_bytes() -> None:
    with pytest.raises(TypeError, match="encode"):
        CliStderr("text")  # type: ignore[arg-type]
    assert CliStderr(bytearray(b"x")).data == b"x"  # type: ignore[arg-type]


def test_invocation_defaults() -> None:
    inv = CliInvocation(argv=("claude",))
    assert inv.cwd is None
    assert dict(inv.env) == {}
    assert inv.stdin == b""
    assert (inv.lines_read, inv.terminated, inv.killed, inv.returncode) == (0, False, False, None)
    assert inv.start_new_session is False
