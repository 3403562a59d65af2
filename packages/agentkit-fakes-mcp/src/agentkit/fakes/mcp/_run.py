"""Run a callable answer, sync or async, with a bound on how long it may take.

A callable answer is the test's own code and may hang (a forgotten event, a
deadlock). The request that asked for it must still be answered -- the
protocol has an error for that -- and the server must serve on, so the
callable runs in a daemon thread of its own and the request waits for it
at most ``timeout`` seconds. An async answer (or a sync one returning an
awaitable) is awaited on an event loop of that thread's own.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import Future
from typing import Any

__all__ = ["run_answer"]


async def _await(value: Awaitable[Any]) -> Any:
    return await value


def run_answer(answer: Callable[..., Any], arguments: Mapping[str, Any], timeout: float) -> Any:
    """``answer(arguments)``, awaited if need be; TimeoutError after ``timeout`` seconds."""
    done: Future[Any] = Future()

    def work() -> None:
        try:
            value = answer(dict(arguments))
            if inspect.isawaitable(value):
                value = asyncio.run(_await(value))
        except BaseException as exc:  # handed to the waiting request, whatever it is
            done.set_exception(exc)
        else:
            done.set_result(value)

    threading.Thread(target=work, name="FakeMcpServer-answer", daemon=True).start()
    return done.result(timeout=timeout)
