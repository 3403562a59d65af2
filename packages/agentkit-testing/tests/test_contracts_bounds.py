"""Every check is bounded whatever the implementation does, and answers for what it leaves.

An implementation that blocks the event loop (a sleep, a busy loop, a
blocking wait) or swallows cancellation once hung the whole run with no
report; one that left a thread or a child process behind passed. Each case
below is such an implementation, otherwise correct, run through a suite with
a short bound. The stuck ones are released at the end of each test, so their
threads do not outlive it.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import pytest

from agentkit.core.testing.contracts import ContractViolation, _bound
from agentkit.core.testing.contracts._io import SEARCH_SUITE
from agentkit.core.types import SearchHit

pytest_plugins = ["pytester"]

LIMIT = 0.5
"""The bound the cases run under: short, because each of them overruns it on purpose."""

CHECK = "search_returns_a_list_of_search_hits"


@pytest.fixture(autouse=True)
def short_leak_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    # What a case leaves never ends by itself: no grace changes the finding.
    monkeypatch.setattr(_bound, "LEAK_GRACE", 1.0)


@pytest.fixture
def short_cancel_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    # Only for a case that never ends when cancelled. One that does end keeps the kit's
    # grace: it ends at once, and a loaded machine cannot make it look stuck.
    monkeypatch.setattr(_bound, "CANCEL_GRACE", 1.0)


@pytest.fixture
def release() -> Iterator[threading.Event]:
    event = threading.Event()
    yield event
    event.set()


HITS = [SearchHit(f"agentkit {n}", f"https://example.test/{n}") for n in range(3)]


class Search:
    """A correct search over three hits; the cases below break it one way each."""

    def __init__(self, release: threading.Event) -> None:
        self.release = release

    async def search(self, query: str, k: int = 5) -> list[SearchHit]:
        return list(HITS[:k])


async def failure_of(make: Callable[[], Any]) -> str:
    with pytest.raises(ContractViolation) as caught:
        await SEARCH_SUITE.run(make, {}, only=[CHECK], limit=LIMIT)
    assert caught.value.check == CHECK
    return caught.value.got


async def test_a_correct_search_passes_and_leaves_nothing(release: threading.Event) -> None:
    assert await SEARCH_SUITE.run(lambda: Search(release), {}) == []  # the default bound


class BlockingSearch(Search):
    async def search(self, query: str, k: int = 5) -> list[SearchHit]:
        self.release.wait(60)  # blocks the event loop: no await, no timeout can fire
        return list(HITS[:k])


class BusySearch(Search):
    async def search(self, query: str, k: int = 5) -> list[SearchHit]:
        deadline = time.monotonic() + 60
        while not self.release.is_set() and time.monotonic() < deadline:
            pass
        return list(HITS[:k])


class DeafSearch(Search):
    async def search(self, query: str, k: int = 5) -> list[SearchHit]:
        while not self.release.is_set():
            with contextlib.suppress(asyncio.CancelledError):  # the check's cancel never ends it
                await asyncio.sleep(0.05)
        return list(HITS[:k])


@pytest.mark.usefixtures("short_cancel_grace")
@pytest.mark.parametrize("kind", [BlockingSearch, BusySearch, DeafSearch])
async def test_a_check_that_never_ends_is_reported_naming_the_method_and_the_bound(
    release: threading.Event, kind: type[Search]
) -> None:
    got = await failure_of(lambda: kind(release))
    assert f"did not finish within {LIMIT:g}s and did not end when cancelled" in got
    assert f"stuck in {kind.__name__}.search (test_contracts_bounds.py:" in got


class WaitingSearch(Search):
    async def search(self, query: str, k: int = 5) -> list[SearchHit]:
        await asyncio.Event().wait()  # awaits forever, but can be cancelled
        return []


async def test_a_check_that_awaits_forever_is_cancelled_and_says_where_it_waited(
    release: threading.Event,
) -> None:
    got = await failure_of(lambda: WaitingSearch(release))
    assert got.startswith(f"did not finish within {LIMIT:g}s (a hang)")
    assert "waiting in WaitingSearch.search (test_contracts_bounds.py:" in got
    assert "left behind" not in got


class ThreadLeavingSearch(Search):
    async def search(self, query: str, k: int = 5) -> list[SearchHit]:
        threading.Thread(target=self.release.wait, name="index-refresher", daemon=True).start()
        return list(HITS[:k])


async def test_a_thread_left_running_fails_the_check_naming_it(release: threading.Event) -> None:
    got = await failure_of(lambda: ThreadLeavingSearch(release))
    assert got.startswith("it left behind thread 'index-refresher'")
    assert "still running" in got


class ToThreadForeverSearch(Search):
    async def search(self, query: str, k: int = 5) -> list[SearchHit]:
        await asyncio.to_thread(self.release.wait, 60)
        return list(HITS[:k])


async def test_a_call_to_a_worker_thread_that_never_returns_is_a_hang_and_a_thread_left(
    release: threading.Event,
) -> None:
    got = await failure_of(lambda: ToThreadForeverSearch(release))
    assert "waiting in ToThreadForeverSearch.search" in got
    assert "it left behind thread 'executor call threading.Event.wait'" in got


class ChildLeavingSearch(Search):
    children: ClassVar[list[subprocess.Popen[bytes]]] = []  # held, so none warns when collected

    async def search(self, query: str, k: int = 5) -> list[SearchHit]:
        argv = [sys.executable, "-c", "import time; time.sleep(60)"]
        self.children.append(subprocess.Popen(argv))  # noqa: ASYNC220
        return list(HITS[:k])


async def test_a_child_process_left_running_fails_the_check_and_is_killed(
    release: threading.Event,
) -> None:
    earlier = len(ChildLeavingSearch.children)  # a rerun of this test (--count) left its own
    got = await failure_of(lambda: ChildLeavingSearch(release))
    (child,) = ChildLeavingSearch.children[earlier:]
    assert f"it left behind child process {child.pid} (" in got
    assert "time.sleep(60)), killed by the suite" in got
    assert await asyncio.to_thread(child.wait, 30) == -signal.SIGKILL


USER_FILE = """
import asyncio
import time

import pytest

from agentkit.core.testing.contracts import SearchPortContract

class Sleeping:
    async def search(self, query, k=5):
        time.sleep(10**6)


class Spinning:
    async def search(self, query, k=5):
        while True:
            pass


class ToThreadForever:
    async def search(self, query, k=5):
        await asyncio.to_thread(time.sleep, 10**6)


@pytest.mark.parametrize("kind", [Sleeping, Spinning, ToThreadForever])
class TestStuck(SearchPortContract):
    @pytest.fixture
    def make_port(self, kind):
        return kind
"""

INI = """
[pytest]
asyncio_mode = strict
asyncio_default_fixture_loop_scope = function
filterwarnings = error
"""

SHORT_BOUNDS = """
from agentkit.core.testing.contracts import _bound, _suite

_suite.CHECK_TIMEOUT = 0.5
_bound.CANCEL_GRACE = 2.0  # ToThreadForever ends when cancelled: it must, on a busy machine too
_bound.LEAK_GRACE = 0.5
"""


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one process", "xdist"])
def test_a_session_with_stuck_checks_reports_them_and_its_process_exits(
    pytester: pytest.Pytester, workers: list[str]
) -> None:
    pytester.makeini(INI)
    pytester.makeconftest(SHORT_BOUNDS)
    pytester.makepyfile(test_user=USER_FILE)
    only = "-k", "returns_a_list_of_search_hits"
    # A stuck thread that kept the process alive would run into the timeout and fail here.
    result = pytester.runpytest_subprocess("-p", "no:randomly", *only, *workers, timeout=240)
    result.assert_outcomes(failed=3)
    text = result.stdout.str()
    assert "stuck in Sleeping.search (test_user.py:" in text
    assert "stuck in Spinning.search (test_user.py:" in text
    assert "waiting in ToThreadForever.search (test_user.py:" in text
    assert "left behind thread 'executor call time.sleep'" in text


@pytest.mark.usefixtures("short_cancel_grace")
async def test_a_check_given_up_on_that_ends_later_touches_nothing_started_since(
    release: threading.Event,
) -> None:
    got = await failure_of(lambda: BlockingSearch(release))
    assert "did not end when cancelled" in got
    stuck = [t for t in threading.enumerate() if t.name.startswith(_bound.WORKER_PREFIX)]
    argv = [sys.executable, "-c", "import time; time.sleep(60)"]
    with subprocess.Popen(argv) as later:  # noqa: ASYNC220 -- a later test's child
        try:
            release.set()  # the abandoned check ends now, with this child about
            for thread in stuck:
                await asyncio.to_thread(thread.join, 30)
            assert not any(t.is_alive() for t in stuck)
            assert later.poll() is None  # neither reported nor killed as the check's leftover
        finally:
            later.kill()
