"""The agentkit-testing pytest plugin: fixtures for the doubles most tests start from.

Registered through the ``pytest11`` entry point (name ``agentkit_testing``),
so it is active wherever ``agentkit-testing`` is installed;
``-p no:agentkit_testing`` disables it. The strict verification of doubles
and the real-process guard are not here: they come with agentkit-core
(:mod:`agentkit.core.verification.pytest_plugin`, name ``agentkit``), so that installing
one fakes package alone still verifies its doubles. Kept small on purpose --
a fixture is only worth having when it saves wiring that tests would
otherwise repeat, and every fixture here is a fresh object per test:

- ``fake_clock``: a :class:`~agentkit.fakes.io.FakeClock` at t=0;
- ``recording_tracer``: a :class:`~agentkit.fakes.ctx.RecordingTracer`;
- ``fake_ctx``: a :class:`~agentkit.fakes.ctx.FakeCtx`;
- ``test_ctx``: ``make_test_ctx(clock=fake_clock, trace=recording_tracer)`` --
  a real RunContext on virtual time whose spans are recorded, with no LLM.
  Because it is built from the other two fixtures, a test that also asks for
  ``fake_clock`` or ``recording_tracer`` gets the very objects behind it.
- ``make_ctx``: the factory behind ``test_ctx``, for a test that wires its own
  doubles: ``make_ctx(llm=FakeLLM(...), chat_middleware=[...])`` takes every
  keyword of ``make_test_ctx`` and defaults ``clock`` / ``trace`` to the
  ``fake_clock`` / ``recording_tracer`` fixtures (a keyword given wins).
  Annotate it :class:`~agentkit.core.testing.fixtures.MakeCtx` and mypy checks
  those keywords.
- ``api_recording``: a FakeApi per provider that replays the test's model
  recording, or (record modes, ``--agentkit-api-record``) records it from
  the real provider (below).

pytest is imported here and by the core plugin only: ``import
agentkit.core.testing`` does not need pytest installed.

Model recordings per test, the ``api_recording`` fixture (:class:`ApiRecorder`):
a test asks for a FakeApi standing in for one provider and points its
client (an official SDK, a framework, a CLI) at it::

    def test_weather(api_recording: ApiRecorder) -> None:
        api = api_recording("anthropic")
        client = anthropic.Anthropic(base_url=api.url, api_key="sk-ant-fake")

Its recording lives beside the test, in
``recordings/<test module>/api/<test>.jsonl`` (``<test>@NAME.jsonl`` for a
second FakeApi the test names), named as ``cli_recording`` names its files.
The record mode -- ``--agentkit-api-record=MODE``, the ini option
``agentkit_api_record``, or else the CLI recordings' ``--agentkit-record``,
so one switch records both -- decides what the FakeApi is:

- ``none`` (the default): it replays the recording, as a strict FakeLLM
  script checking every request; a missing recording fails the test,
  saying how to record it. Nothing leaves the machine.
- ``once``: a test with a recording replays it; one without forwards to the
  provider (its key read from the environment) and its recording is
  written when it ends.
- ``new_episodes``: the recorded calls replay while the test asks what they
  were asked; from the first call that is new (past the end, or a changed
  request) on, calls go to the provider, and the file is rewritten: the
  calls replayed, then the new ones.
- ``all``: every test forwards to the provider and is recorded again.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pytest

if TYPE_CHECKING:
    # Imported by the fixtures that use them: the plugin loads in every pytest session of
    # a project that installs the kit, and the run context alone costs ~0.1 s to import.
    from agentkit.core.ports import LLMPort
    from agentkit.core.request import ChatRequest
    from agentkit.core.runtime import RunContext
    from agentkit.core.testing.fixtures import MakeCtx
    from agentkit.core.testing.model_recording._file import ModelRecording
    from agentkit.core.testing.model_recording._replay import RecordedModel
    from agentkit.fakes.api import FakeApi
    from agentkit.fakes.ctx import FakeCtx, RecordingTracer
    from agentkit.fakes.io import FakeClock

__all__ = [
    "MODES",
    "ApiRecorder",
    "api_recording",
    "fake_clock",
    "fake_ctx",
    "make_ctx",
    "recording_tracer",
    "test_ctx",
]


MODES = ("none", "once", "new_episodes", "all")
"""Replay only; record what is missing; record what is new; record everything again."""

OPTION = "--agentkit-api-record"
_INI = "agentkit_api_record"
_CLI_SESSION = "agentkit_cli_recording_session"

PROVIDERS = {"anthropic": "https://api.anthropic.com", "openai": "https://api.openai.com/v1"}
"""The providers a test names by name, and the base URL each is recorded from."""


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("agentkit", "agentkit")
    group.addoption(
        OPTION,
        choices=MODES,
        default=None,
        dest=_INI,
        help="api_recording: none = replay only (default); once = record the tests with no "
        "recording from the real provider; new_episodes = replay what was recorded, record "
        "the calls that are new; all = record every test again (default: --agentkit-record)",
    )
    parser.addini(_INI, f"the default of {OPTION} ({', '.join(MODES)})", default="")


def check_mode(config: pytest.Config) -> str:
    """The record mode of ``api_recording`` (its own option, else the CLI recordings')."""
    value = config.getoption(_INI, None) or config.getini(_INI)
    if not value:
        try:
            value = config.getoption("agentkit_record", None) or config.getini("agentkit_record")
        except ValueError:  # agentkit-fakes-cli's plugin disabled: no such option
            value = None
        value = value or "none"
    if value not in MODES:
        raise pytest.UsageError(f"{_INI} = {value!r}: it takes one of {MODES}")
    return str(value)


class _Served:
    """One FakeApi the test asked for, and what its file will hold."""

    def __init__(self, api: FakeApi, target: Path, recording: ModelRecording | None) -> None:
        self.api = api
        self.target = target
        self.recording = recording
        """The recording replayed (None when recorded from scratch)."""
        self.model: RecordedModel | None = None
        self.scrub: Sequence[str | re.Pattern[str] | re.Pattern[bytes]] = ()
        self.records = False


class ApiRecorder:
    """The ``api_recording`` fixture: call it for a FakeApi standing in for a provider.

    One per test, made by the fixture, which writes what it recorded when the
    test ends (:meth:`finish`).
    """

    def __init__(self, request: pytest.FixtureRequest) -> None:
        from agentkit.fakes.cli._per_test import stem_of
        from agentkit.fakes.cli.pytest_plugin import in_module

        self._mode = check_mode(request.config)
        node = request.node
        path = Path(node.path)
        self._folder = path.parent / "recordings" / path.stem / "api"
        self._stem = stem_of(in_module(node))
        self._nodeid = node.nodeid
        self._config = request.config
        self._names: set[str] = set()
        self._served: list[_Served] = []

    @property
    def mode(self) -> str:
        return self._mode

    def path(self, name: str | None = None) -> Path:
        """The file of this test's recording (``name``: of the FakeApi so named)."""
        from agentkit.fakes.cli._per_test import file_name

        return self._folder / file_name(self._stem, name, 1)

    def _again(self) -> str:
        return f"pytest {OPTION}=all {shlex.quote(self._nodeid)}"

    def __call__(
        self,
        provider: str,
        name: str | None = None,
        *,
        check_requests: bool = True,
        scrub: Sequence[str | re.Pattern[str] | re.Pattern[bytes]] = (),
        side_requests: Callable[[ChatRequest], bool] | None = None,
        side_answer: LLMPort | str = "OK.",
    ) -> FakeApi:
        """A running FakeApi replaying this test's recording, or recording it (record modes).

        ``provider`` is what a recording is made from: ``"anthropic"``,
        ``"openai"``, or a provider's base URL (any that speaks their APIs).
        Replaying, it does not matter: a recording replays through every API
        the FakeApi serves. ``name`` tells a test's FakeApis apart (letters,
        digits, ``_``, ``-``). ``check_requests=False`` replays without
        comparing requests; ``scrub`` adds the test's own secrets to those
        scrubbed by default. ``side_requests`` / ``side_answer`` are
        :class:`~agentkit.fakes.api.FakeApi`'s: calls answered apart, neither
        recorded nor replayed.
        """
        __tracebackhide__ = True
        from agentkit.core._internal.arguments import check_bool, check_str
        from agentkit.fakes.api import FakeApi
        from agentkit.fakes.api._forward import check_upstream
        from agentkit.fakes.cli._recording._scrub import Scrubber
        from agentkit.fakes.cli.pytest_plugin import claim_name

        where = "api_recording"
        check_str(provider, where, "provider", empty=False)
        upstream = PROVIDERS.get(provider, provider)
        check_upstream(upstream)
        check_bool(check_requests, where, "check_requests")
        Scrubber.compile_user_patterns(scrub, where)
        claim_name(self._names, name, where, "give each FakeApi of the test its own name=")
        target = self.path(name)
        exists = target.is_file()
        if not exists and self._mode == "none":
            pytest.fail(self._missing(target), pytrace=False)
        recording = None
        if exists and self._mode != "all":
            from agentkit.core.testing.model_recording import load_model_recording

            recording = load_model_recording(target)
        sides: dict[str, Any] = {"side_requests": side_requests, "side_answer": side_answer}
        if recording is not None and self._mode in ("none", "once"):
            model = recording.llm(check_requests=check_requests, rerecord=self._again())
            served = _Served(FakeApi(model, **sides), target, recording)
            served.model = model
        else:
            served = self._recording(upstream, target, recording, check_requests, sides)
            served.scrub = scrub
        self._served.append(served)
        return served.api.start()

    def _recording(
        self,
        upstream: str,
        target: Path,
        recording: ModelRecording | None,
        check_requests: bool,
        sides: dict[str, Any],
    ) -> _Served:
        """A FakeApi forwarding to ``upstream`` -- after replaying ``recording`` while the
        test asks what it was asked (new_episodes)."""
        from agentkit.fakes.api import FakeApi

        if recording is None:
            served = _Served(FakeApi(upstream=upstream, **sides), target, None)
        else:
            model = recording.llm(check_requests=check_requests, verify=False)
            api = FakeApi(model, upstream=upstream, forward_when=model.is_new, **sides)
            served = _Served(api, target, recording)
            served.model = model
        served.records = True
        return served

    def _missing(self, target: Path) -> str:
        return (
            f"api_recording: no model recording for this test: {target} does not exist.\n"
            "Record it once from the real provider (its key in ANTHROPIC_API_KEY or "
            f"OPENAI_API_KEY):\n    pytest {OPTION}=once {shlex.quote(self._nodeid)}\n"
            "then read it (one line a model call) and commit it with the test."
        )

    def finish(self) -> None:
        """Close every FakeApi, and write what the recording ones recorded."""
        __tracebackhide__ = True
        problems: list[str] = []
        for served in self._served:
            served.api.close()
            if served.records:
                problems += self._write(served)
        if problems:
            pytest.fail(
                f"api_recording, in {self._folder}:\n  " + "\n  ".join(problems), pytrace=False
            )

    def _write(self, served: _Served) -> list[str]:
        from agentkit.core.testing.model_recording import (
            ModelRecording,
            RecordedCall,
            save_model_recording,
        )
        from agentkit.fakes.cli import RecordingError

        session = self._config.pluginmanager.get_plugin(_CLI_SESSION)
        if session is not None and cast(Any, session).interrupted:
            return [f"{served.target.name}: not written, the run was cut short (Ctrl-C)"]
        calls: list[RecordedCall] = []
        if served.recording is not None and served.model is not None:
            calls += served.recording.calls[: served.model.replayed]
        if not served.api.exchanges:
            if served.recording is not None:
                return []  # new_episodes, and nothing was new: the file stays as it is
            return [f"{served.target.name}: the test made no model call; nothing was recorded"]
        calls += ModelRecording.of(served.api.exchanges).calls
        recording = ModelRecording(
            tuple(calls), f"api_recording; recorded again by: {self._again()}"
        )
        try:
            save_model_recording(recording, served.target, scrub=served.scrub)
        except RecordingError as error:
            return [f"{served.target.name}: not written: {error}"]
        except OSError as error:
            return [f"{served.target.name}: not written: {error.strerror or error}"]
        return []


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    check_mode(config)  # a wrong ini value is refused before any test runs


@pytest.fixture
def api_recording(request: pytest.FixtureRequest) -> Iterator[ApiRecorder]:
    """A FakeApi per provider for this test: its model recording replayed, or recorded."""
    recorder = ApiRecorder(request)
    yield recorder
    recorder.finish()


@pytest.fixture
def fake_clock() -> FakeClock:
    """A FakeClock at t=0: ``sleep`` advances virtual time and is recorded."""
    from agentkit.fakes.io import FakeClock

    return FakeClock()


@pytest.fixture
def recording_tracer() -> RecordingTracer:
    """A RecordingTracer: every span opened on it is kept in ``.spans``."""
    from agentkit.fakes.ctx import RecordingTracer

    return RecordingTracer()


@pytest.fixture
def fake_ctx() -> FakeCtx:
    """A FakeCtx: a Ctx recording its spans (``.spans``) and observations."""
    from agentkit.fakes.ctx import FakeCtx

    return FakeCtx()


@pytest.fixture
def make_ctx(fake_clock: FakeClock, recording_tracer: RecordingTracer) -> MakeCtx:
    """``make_test_ctx`` on ``fake_clock`` and ``recording_tracer``: call it with your doubles.

    A factory rather than a context, because the doubles a test wires in
    (an LLM, middleware, a checkpointer) are the test's own: annotate it
    ``make_ctx: MakeCtx`` (:mod:`agentkit.core.testing.fixtures`), and mypy
    checks each keyword. Every keyword of
    :func:`~agentkit.fakes.ctx.make_test_ctx` is accepted and wins over the
    fixture's defaults, so ``make_ctx(clock=my_clock)`` runs on ``my_clock``.
    """
    from agentkit.fakes.ctx import make_test_ctx

    def build(**keywords: Any) -> RunContext:
        __tracebackhide__ = True  # a wrong keyword shows the test's line
        return make_test_ctx(**{"clock": fake_clock, "trace": recording_tracer, **keywords})

    return build


@pytest.fixture
def test_ctx(make_ctx: MakeCtx) -> RunContext:
    """A real RunContext on ``fake_clock``, tracing into ``recording_tracer``, with no LLM."""
    return make_ctx()
