"""A model recording on disk: JSON Lines, a header, then one line per model call.

The file is a script a person reads and edits::

    {"agentkit_model_recording": 1, "wire": "anthropic", "model": "claude-...", "turns": 2, ...}
    {"turn": 1, "answer": {"content": "", "tool_calls": [...]}, "request": {"model": ...}}
    {"turn": 2, "answer": {"content": "It is sunny in Paris."}, "request": {...}}

Each line holds what the model answered first -- ``answer`` (content,
tool calls, reasoning, usage, finish reason), or the provider's ``error``
(status, message, kind), or ``broken`` (the stream cut off, and what came
before the cut) -- then the request it answered, as the kit reads every
wire: change the model's answer by editing its line. Nothing of the
transport is in it (no header, no id, no framing), so an SDK upgrade
changes nothing, and one recording replays through any of the APIs a
FakeApi serves.

Written only through the secret gate the CLI recordings have
(:func:`agentkit.fakes.cli._recording._gate.check_no_secrets`): what the
scrubber knows is replaced first (the values of secret-named variables of
this environment -- the provider key among them -- and every key shape),
and a file in which anything still looks like a secret is not written. The
CLI's ``scan`` reads these files too.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentkit.core._internal.arguments import (
    ArgumentTypeError,
    check_bool,
    check_str,
    check_values,
)
from agentkit.core.request import ChatRequest
from agentkit.core.testing.model_recording._json import (
    Answer,
    Base,
    FormatError,
    answer_from_json,
    answer_json,
    base_of,
    request_from_json,
    request_json,
    turn_of,
)
from agentkit.fakes.cli._recording._errors import RecordingError

if TYPE_CHECKING:
    from agentkit.core.testing.model_recording._replay import RecordedModel
    from agentkit.fakes.api import Exchange

__all__ = ["FORMAT", "ModelRecording", "RecordedCall", "read", "write"]


FORMAT = 1
"""The version of the file format, the header's ``agentkit_model_recording``."""

_HEADER_KEY = "agentkit_model_recording"
_ANSWER_KEYS = ("answer", "error", "broken")


@dataclass(frozen=True, slots=True)
class RecordedCall:
    """One model call of a recording: the request made, and what answered it."""

    request: ChatRequest
    answer: Answer
    wire: str = ""
    """The API it was recorded through (``anthropic``, ``openai_chat``, ``openai_responses``);
    any of them replays it."""


@dataclass(frozen=True, slots=True)
class ModelRecording:
    """A recorded model session: its calls in order, and where they were recorded from.

    ``source`` says how to record it again (the fixture writes the pytest
    command). :meth:`llm` replays it as a strict
    :class:`~agentkit.fakes.llm.FakeLLM` script.
    """

    calls: tuple[RecordedCall, ...]
    source: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    """Header fields this version does not read, kept so a rewrite does not lose them."""
    path: str = field(default="", compare=False)
    """The file it was read from ("" when made in memory)."""
    _sent: list[tuple[Any, ...]] = field(default_factory=list, compare=False, repr=False)
    _bases: list[Base | None] = field(default_factory=list, compare=False, repr=False)

    def _bases_of_calls(self) -> list[Base | None]:
        """The earlier call each call carries on from (see ``continues``), worked out once."""
        if len(self._bases) != len(self.calls):
            earlier: list[tuple[ChatRequest, Answer]] = []
            found: list[Base | None] = []
            for call in self.calls:
                found.append(base_of(call.request, earlier))
                earlier.append((call.request, call.answer))
            self._bases[:] = found
        return self._bases

    def _sent_of_calls(self) -> list[tuple[Any, ...]]:
        """Each call's request as a replay compares it, worked out once per recording
        (a test replaying it twice, or a session of many tests, pays once)."""
        if len(self._sent) != len(self.calls):
            from agentkit.core.testing.model_recording._replay import sent

            self._sent[:] = [sent(call.request) for call in self.calls]
        return self._sent

    @classmethod
    def of(cls, exchanges: Iterable[Exchange], source: str = "") -> ModelRecording:
        """The recording of what a FakeApi forwarded (its ``exchanges``): each answer as
        the script turn that replays it, or the provider's error as it was."""
        from agentkit.core.types import ChatResponse
        from agentkit.fakes.api import Exchange

        calls: list[RecordedCall] = []
        for index, exchange in enumerate(
            check_values(exchanges, "ModelRecording.of", "exchanges", "an iterable of Exchange")
        ):
            if not isinstance(exchange, Exchange):
                raise ArgumentTypeError(
                    "ModelRecording.of", f"exchanges[{index}]", "an Exchange", exchange
                )
            answer = exchange.answer
            kept = turn_of(answer) if isinstance(answer, ChatResponse) else answer
            calls.append(RecordedCall(exchange.request, kept, exchange.wire))
        return cls(tuple(calls), check_str(source, "ModelRecording.of", "source"))

    def llm(
        self, *, check_requests: bool = True, rerecord: str = "", verify: bool = True
    ) -> RecordedModel:
        """The recording as a strict :class:`~agentkit.fakes.llm.FakeLLM` script.

        Every turn must be asked for, in order; each call's request is
        checked against the recorded one (``check_requests=False`` replays
        without); ``rerecord`` is the command a mismatch prints.
        """
        check_bool(check_requests, "ModelRecording.llm", "check_requests")
        check_str(rerecord, "ModelRecording.llm", "rerecord")
        from agentkit.core.testing.model_recording._replay import RecordedModel

        name = f"model recording {self.path}" if self.path else "model recording"
        return RecordedModel.of(
            self, check_requests=check_requests, rerecord=rerecord, name=name, verify=verify
        )

    @property
    def wires(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(call.wire for call in self.calls if call.wire))

    def dumps(self) -> bytes:
        """The file's bytes (the secret gate is :func:`save`'s, not this)."""
        models = list(dict.fromkeys(call.request.model for call in self.calls))
        header: dict[str, Any] = {
            _HEADER_KEY: FORMAT,
            "wire": "+".join(self.wires),
            "model": models[0] if len(models) == 1 else models,
            "turns": len(self.calls),
        }
        if self.source:
            header["source"] = self.source
        header.update((k, v) for k, v in self.extra.items() if k not in header)
        lines = [_dumps(header)]
        earlier: list[tuple[ChatRequest, Answer]] = []
        for number, call in enumerate(self.calls, start=1):
            key, value = answer_json(call.answer)
            line: dict[str, Any] = {"turn": number, key: value}
            if call.wire:
                line["wire"] = call.wire
            line["request"] = request_json(call.request, base_of(call.request, earlier))
            lines.append(_dumps(line))
            earlier.append((call.request, call.answer))
        return ("\n".join(lines) + "\n").encode("utf-8", "surrogateescape")

    @classmethod
    def loads(cls, data: bytes, source: str = "<recording>") -> ModelRecording:
        """Parse a file's bytes; a :class:`~agentkit.fakes.cli.RecordingError` names the line
        and the field."""
        text = data.decode("utf-8", "surrogateescape")
        rows = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
        if not rows:
            raise RecordingError(source, 0, "empty: no header line")
        number, first = rows[0]
        header = _parsed(first, source, number)
        if header.get(_HEADER_KEY) != FORMAT:
            raise RecordingError(
                source,
                number,
                f"not a model recording of format {FORMAT}: the first line must be the header "
                f'{{"{_HEADER_KEY}": {FORMAT}, ...}}',
            )
        calls: list[RecordedCall] = []
        earlier: list[tuple[ChatRequest, Answer]] = []
        for number, line in rows[1:]:
            call = _call(_parsed(line, source, number), source, number, earlier)
            calls.append(call)
            earlier.append((call.request, call.answer))
        source_text = header.get("source")
        extra = {
            k: v for k, v in header.items() if k not in (_HEADER_KEY, "wire", "model", "turns")
        }
        extra.pop("source", None)
        return cls(
            tuple(calls), source_text if isinstance(source_text, str) else "", extra, path=source
        )


def _dumps(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _parsed(line: str, source: str, number: int) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise RecordingError(source, number, f"not a JSON line ({exc})") from None
    if not isinstance(value, dict):
        raise RecordingError(source, number, "a line must be a JSON object")
    return value


def _call(
    line: dict[str, Any], source: str, number: int, earlier: Sequence[tuple[ChatRequest, Answer]]
) -> RecordedCall:
    keys = [key for key in _ANSWER_KEYS if key in line]
    if len(keys) != 1:
        raise RecordingError(
            source,
            number,
            f"a turn holds exactly one of {', '.join(_ANSWER_KEYS)} (found {keys or 'none'})",
        )
    where = f"turn {len(earlier) + 1}"
    wire = line.get("wire", "")
    try:
        if "request" not in line:
            raise FormatError(f"{where}: no request")
        request = request_from_json(line["request"], f"{where}.request", earlier)
        answer = answer_from_json(keys[0], line[keys[0]], where)
    except (FormatError, ValueError, TypeError) as exc:
        raise RecordingError(source, number, str(exc)) from None
    return RecordedCall(request, answer, wire if isinstance(wire, str) else "")


def read(path: str | os.PathLike[str]) -> ModelRecording:
    """The recording in the file at ``path`` (a regular file; errors name path and line)."""
    if not isinstance(path, str | os.PathLike):
        raise ArgumentTypeError("load_model_recording", "path", "a file path", path)
    from agentkit.fakes.cli._recording._files import read_recording_file

    data = read_recording_file("load_model_recording", path)
    return ModelRecording.loads(data, os.fspath(path))


def write(
    recording: ModelRecording,
    path: str | os.PathLike[str],
    *,
    scrub: Sequence[Any] = (),
    allow_secrets: bool = False,
) -> Path:
    """Scrub ``recording``, check it with the secret gate, and write it in one step."""
    from agentkit.fakes.cli._recording._files import _replace
    from agentkit.fakes.cli._recording._gate import check_no_secrets
    from agentkit.fakes.cli._recording._scrub import Scrubber

    target = Path(path)
    data = recording.dumps()
    if not allow_secrets:
        extra = Scrubber.compile_user_patterns(scrub, "save_model_recording")
        data = Scrubber(env=None, extra=extra).data(data)
        check_no_secrets(data, os.fspath(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    _replace(target, data)
    return target
