"""The value types of the CLI doubles: a recorded run, a stderr chunk, an invocation.

:class:`CliRun` is the recording -- immutable, so two doubles over one run
cannot affect each other; the per-spawn cursor lives in the fake process, not
here. :class:`CliInvocation` is the other direction: what the code under test
asked the "CLI" to do and what happened to it, mutable because it is filled
in while the spawn runs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    ArgumentValueError,
    check_int,
    check_values,
)

__all__ = ["CliInvocation", "CliRun", "CliStderr", "Payload"]


def _as_bytes(value: object, where: str, argument: str) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, bytearray | memoryview):
        return bytes(value)
    hint = "encode the text first" if isinstance(value, str) else ""
    raise ArgumentTypeError(where, argument, "bytes", value, hint)


def _plain(value: object) -> object:
    """A read-only mapping (``types.MappingProxyType``) is JSON like the dict it wraps."""
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


@dataclass(frozen=True, slots=True)
class CliStderr:
    """A chunk the CLI wrote to stderr at this point in its stdout stream.

    Positional, not a lump attached to the run, because a cognition reads
    stderr exactly once -- at the end, after stdout hits EOF. A diagnostic
    emitted in the middle of a long run therefore has to survive until then,
    and "did it?" is a real question: stderr is the only channel that explains
    a bare ``cli_exit_1`` to an operator. Placing chunks in the stream is what
    lets a test ask it.
    """

    data: bytes

    def __post_init__(self) -> None:
        data: object = self.data
        object.__setattr__(self, "data", _as_bytes(data, "CliStderr", "data"))


Payload = Mapping[str, Any] | CliStderr | str | bytes
"""One element of :meth:`CliRun.of`: an event, a stderr chunk, or raw stdout."""


@dataclass(frozen=True, slots=True)
class CliRun:
    """One spawn of a CLI, whole: its stdout, its stderr, its exit code.

    Frozen because it is the recording. Two doubles over one CliRun must not
    be able to affect each other, and the cheapest way to guarantee that is
    for the shared thing to be immutable and the per-spawn cursor to live in
    the iterator.

    ``interleaved_stderr`` holds ``(stdout_offset, chunk)`` pairs: the chunk
    was written to stderr when the CLI had written ``stdout_offset`` bytes of
    stdout. The fake makes it readable from that point on; ``stderr`` (the
    lump) is written when the process ends.
    """

    stdout: bytes = b""
    stderr: bytes = b""
    returncode: int = 0
    interleaved_stderr: tuple[tuple[int, bytes], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "stdout", _as_bytes(self.stdout, "CliRun", "stdout"))
        object.__setattr__(self, "stderr", _as_bytes(self.stderr, "CliRun", "stderr"))
        check_int(self.returncode, "CliRun", "returncode", minimum=None)
        entries = check_values(
            self.interleaved_stderr,
            "CliRun",
            "interleaved_stderr",
            "a sequence of (stdout_offset, bytes) pairs",
        )
        chunks: list[tuple[int, bytes]] = []
        previous = 0
        for index, entry in enumerate(entries):
            argument = f"interleaved_stderr[{index}]"
            if not isinstance(entry, tuple | list) or len(entry) != 2:
                raise ArgumentTypeError("CliRun", argument, "a (stdout_offset, bytes) pair", entry)
            offset, chunk = entry
            wanted = f"an int offset in [{previous}, {len(self.stdout)}] (in order, inside stdout)"
            check_int(offset, "CliRun", f"{argument}[0]")
            if not previous <= offset <= len(self.stdout):
                raise ArgumentValueError("CliRun", f"{argument}[0]", wanted, offset)
            previous = offset
            chunks.append((offset, _as_bytes(chunk, "CliRun", f"{argument}[1]")))
        object.__setattr__(self, "interleaved_stderr", tuple(chunks))

    @classmethod
    def of(
        cls,
        payloads: Iterable[Payload],
        *,
        stderr: bytes = b"",
        returncode: int = 0,
    ) -> CliRun:
        """Assemble a run from payloads.

        A Mapping is serialised as one compact JSON line -- the ordinary case.
        A str or bytes is written verbatim, newline and all, which is the
        whole malformed-session story in one rule: ``'{"type":"result",'`` is
        a process killed mid-object, ``'\\n'`` is a blank warm-up line,
        ``'warning: ...\\n'`` is a plain-text diagnostic on stdout. A
        :class:`CliStderr` goes to stderr at that point of the stdout stream.
        """
        if isinstance(payloads, str | bytes | Mapping) or not isinstance(payloads, Iterable):
            raise ArgumentTypeError(
                "CliRun.of",
                "payloads",
                "an iterable of payloads",
                payloads,
                "wrap a single one in a list",
            )
        parts: list[bytes] = []
        interleaved: list[tuple[int, bytes]] = []
        offset = 0
        for index, payload in enumerate(payloads):
            if isinstance(payload, CliStderr):
                interleaved.append((offset, payload.data))
                continue
            if isinstance(payload, bytes):
                data = payload
            elif isinstance(payload, str):
                data = payload.encode("utf-8")
            elif isinstance(payload, Mapping):
                try:
                    text = json.dumps(
                        dict(payload), ensure_ascii=False, separators=(",", ":"), default=_plain
                    )
                except (TypeError, ValueError, RecursionError) as exc:
                    raise ArgumentValueError(
                        "CliRun.of",
                        f"payloads[{index}]",
                        "a JSON-serialisable mapping",
                        payload,
                        str(exc),
                    ) from None
                data = text.encode("utf-8") + b"\n"
            else:
                raise ArgumentTypeError(
                    "CliRun.of",
                    f"payloads[{index}]",
                    "a Mapping, CliStderr, str or bytes",
                    payload,
                )
            parts.append(data)
            offset += len(data)
        return cls(
            stdout=b"".join(parts),
            stderr=stderr,
            returncode=returncode,
            interleaved_stderr=tuple(interleaved),
        )


@dataclass
class CliInvocation:
    """What one spawn was asked to do, and what happened to it.

    Records argv/cwd/env so a flags test can assert on them without the
    process-wide ``create_subprocess_exec`` patch, and stdin so a session test
    can assert on what the cognition wrote -- which is otherwise invisible,
    because a session's input side never reaches the filesystem or the event
    stream.

    ``env`` is ``{}`` when the spawn passed ``env=None`` (inherit).
    ``lines_read`` counts newline-terminated stdout lines the caller consumed
    (plus a final unterminated one returned by ``readline``). ``terminated`` /
    ``killed`` say the caller sent the signal while the process was alive;
    ``returncode`` is set when ``wait()`` returns.
    """

    argv: tuple[str, ...]
    cwd: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    stdin: bytes = b""
    start_new_session: bool = False
    lines_read: int = 0
    terminated: bool = False
    killed: bool = False
    returncode: int | None = None
