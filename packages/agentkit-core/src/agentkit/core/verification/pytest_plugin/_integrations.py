"""What other plugins change about a run, each met where it shows.

- **hypothesis** runs one test body for many examples: each example is
  judged on its own, when it returns, so hypothesis shrinks a violation like
  any failure; doubles drawn for an example it rejected are dropped.
- **pytest-xdist** runs the session in several processes: what a worker
  judges at the end of its session travels to the controller, which fails
  the run with it (a worker's exit status is not the run's).
- **pytest-rerunfailures** reruns a failed test and marks the failed
  attempt's reports ``rerun``: the violations such a report carried are
  given again to the next attempt of the same test, so a rerun can neither
  wash a shared double's verdict out nor have it reported twice.
- **unittest** classes need nothing: ``setUpClass`` runs as a class-scoped
  fixture and ``IsolatedAsyncioTestCase`` in the test's own owner, whatever
  context it copied.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import itertools
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

import pytest

from agentkit.core.verification._double import collect_doubles
from agentkit.core.verification._records import Verifiable, VerificationError
from agentkit.core.verification.pytest_plugin._reports import judge

__all__ = ["WORKER_KEY", "holds", "judge_each_example", "worker_output"]

WORKER_KEY = "agentkit_session_violations"


def worker_output(config: pytest.Config) -> dict[str, Any] | None:
    """The dict an xdist worker sends its controller (None: not a worker)."""
    output = getattr(config, "workeroutput", None)
    return output if isinstance(output, dict) else None


def _parts(value: object) -> Iterable[object]:
    if isinstance(value, dict):
        return value.values()
    if isinstance(value, list | tuple | set | frozenset):
        return value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [getattr(value, f.name, None) for f in dataclasses.fields(value)]
    return getattr(value, "__dict__", {}).values()


def holds(value: object, wanted: frozenset[int]) -> set[int]:
    """The ids among ``wanted`` that ``value`` is, or holds one level in.

    What pytest or hypothesis *handed* a test -- a parametrize value, a drawn
    argument -- is often the double itself or a small case object holding it
    (``Scenario(llm=FakeLLM...)``). One level, at most 256 entries: what was
    handed over, not a search of everything reachable.
    """
    if id(value) in wanted:
        return {id(value)}
    if isinstance(value, str | bytes | int | float | type | ModuleType) or callable(value):
        return set()
    try:
        return {id(part) for part in itertools.islice(_parts(value), 256) if id(part) in wanted}
    except Exception:  # an object that will not be looked into holds nothing we can find
        return set()


def judge_each_example(item: pytest.Item, doubles: list[Verifiable]) -> Callable[[], None]:
    """Wrap a hypothesis test's inner test so that each example is judged on its own.

    ``doubles`` is the test's list: doubles drawn for an example are made
    there while hypothesis generates it. Those handed to the example that
    runs are judged with the ones it makes, when it returns; a violation
    fails that example. Returns the function that undoes the wrapping.
    """
    test = getattr(item, "obj", None)
    handle: Any = getattr(test, "hypothesis", None)
    inner = getattr(handle, "inner_test", None)
    if not getattr(test, "is_hypothesis_test", False) or inner is None:
        return lambda: None
    start = len(doubles)  # what function-scoped fixtures made: judged at teardown

    def drawn(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Verifiable]:
        made = doubles[start:]
        del doubles[start:]
        wanted = frozenset(id(double) for double in made)
        given: set[int] = set()
        for value in (*args, *kwargs.values()):
            given |= holds(value, wanted)
        return [double for double in made if id(double) in given]

    def judged(mine: list[Verifiable]) -> None:
        found = [v for double in mine for v in judge(double, unused=True)]
        if found:
            raise VerificationError(found)

    label = f"an example of {item.nodeid}"
    example: Callable[..., Any]
    if inspect.iscoroutinefunction(inner):

        async def example(*args: Any, **kwargs: Any) -> Any:
            mine = drawn(args, kwargs)
            with collect_doubles(isolate=True, label=label) as made:
                result = await inner(*args, **kwargs)
            judged([*mine, *made])
            return result

    else:

        def example(*args: Any, **kwargs: Any) -> Any:
            mine = drawn(args, kwargs)
            with collect_doubles(isolate=True, label=label) as made:
                result = inner(*args, **kwargs)
            judged([*mine, *made])
            return result

    handle.inner_test = functools.wraps(inner)(example)

    def restore() -> None:
        handle.inner_test = inner
        del doubles[start:]  # drawn for examples that were rejected before they ran

    return restore
