"""Ownership without pytest: who a double made here, in a task or in a thread, belongs to."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from agentkit.core.verification import Verifiable, VerifyingDouble, collect_doubles
from agentkit.core.verification._ownership import Owner, carry_into_threads, running


class Double(VerifyingDouble):
    def __init__(self) -> None:
        self._init_verification(verify=True)


def test_a_thread_carries_the_owner_that_started_it() -> None:
    carry_into_threads()
    made: list[Double] = []
    with collect_doubles(isolate=True) as mine:
        thread = threading.Thread(target=lambda: made.append(Double()))
        thread.start()
        thread.join()
    assert mine == made


def test_pool_work_carries_its_submitters_owner_not_the_pools_first() -> None:
    carry_into_threads()
    with ThreadPoolExecutor(1) as pool:
        with collect_doubles(isolate=True) as first:
            pool.submit(Double).result()
        with collect_doubles(isolate=True) as second:
            double = pool.submit(Double).result()
    assert len(first) == 1
    assert second == [double]


def test_work_that_outlives_its_block_goes_to_the_enclosing_owner_naming_the_block() -> None:
    carry_into_threads()
    late: list[tuple[object, Owner | None]] = []

    class Session(Owner):
        def adopt(self, double: Verifiable, started_by: Owner | None) -> None:
            late.append((double, started_by))

    go = threading.Event()
    with running(Session("session", None)):
        with collect_doubles(isolate=True, label="the block") as inner:
            thread = threading.Thread(target=lambda: (go.wait(), Double()))
            thread.start()
        go.set()
        thread.join()
    assert inner == []
    ((_, started_by),) = late
    assert started_by is not None
    assert started_by.label == "the block"


def test_the_runner_says_who_runs_whatever_context_a_task_copied() -> None:
    first = Owner("first", None)
    second = Owner("second", None)

    async def main() -> None:
        queue: asyncio.Queue[asyncio.Future[None]] = asyncio.Queue()

        async def serve() -> None:
            while True:
                done = await queue.get()
                Double()
                done.set_result(None)

        with running(first):
            task = asyncio.create_task(serve())  # copies the context now, in `first`
            done = asyncio.get_running_loop().create_future()
            await queue.put(done)
            await done
        with running(second):
            done = asyncio.get_running_loop().create_future()
            await queue.put(done)
            await done
        task.cancel()

    asyncio.run(main())
    assert len(first.doubles) == 1
    assert len(second.doubles) == 1


def test_a_block_not_isolated_hands_its_doubles_up() -> None:
    with collect_doubles() as outer:
        with collect_doubles() as inner:
            double = Double()
        with collect_doubles(isolate=True) as isolated:
            alone = Double()
    assert inner == [double]
    assert isolated == [alone]
    assert outer == [double]


def test_a_pickled_double_says_where_it_left() -> None:
    import pickle

    double = Double()
    before = double.left_process
    pickle.dumps(double)
    assert before is None
    assert __file__ in str(double.left_process)
