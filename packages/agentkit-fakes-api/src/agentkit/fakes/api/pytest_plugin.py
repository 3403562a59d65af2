"""The ``fake_api`` fixtures: a running FakeApi per test, or one for the whole session.

- ``fake_api``: a :class:`~agentkit.fakes.api.FakeApi` already serving on
  127.0.0.1 with no brain yet -- ``fake_api.serve(FakeLLM(...))`` gives it
  one -- and closed after the test, every connection and its thread with it.
  Made inside the test's fixtures, it is verified at teardown with the
  test's other doubles (by the agentkit plugin of agentkit-core).
- ``fake_api_session``: one server for the whole session, for suites that
  make thousands of requests; each test calls ``serve(llm)``, which also
  clears the request log. Shared, it is verified when the session ends
  (failing the last test's teardown if any test left a violation).

Start-up and close take well under a millisecond together (see
``tools/bench/api.py``), so the per-test fixture is the one to reach for.

Registered through the ``pytest11`` entry point ``agentkit_api`` of
agentkit-fakes-api, so installing that package alone provides them; pytest
is imported by this module only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    # Imported by the fixtures: the plugin loads in every pytest session, most never use it.
    from agentkit.fakes.api.server import FakeApi

__all__ = ["fake_api", "fake_api_session"]


@pytest.fixture
def fake_api() -> Iterator[FakeApi]:
    """A FakeApi serving on 127.0.0.1 for this test; give it a brain with ``serve(llm)``."""
    from agentkit.fakes.api.server import FakeApi

    with FakeApi() as api:
        yield api


@pytest.fixture(scope="session")
def fake_api_session() -> Iterator[FakeApi]:
    """One FakeApi for the whole session; each test calls ``serve(llm)`` (which clears its log)."""
    from agentkit.fakes.api.server import FakeApi

    with FakeApi() as api:
        yield api
