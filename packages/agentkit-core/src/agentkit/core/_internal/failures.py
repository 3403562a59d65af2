"""Kit failures: the errors a double raises on purpose, reported as the user's line and the message.

A double that refuses (a script run past its end, a request nobody
scripted, a replay whose input changed, a real process in a test) raises
from deep inside the kit: through the agent loop, the invoker, the
middleware, the double's cursor. Every one of those frames is the kit's
machinery, not the reader's code, and a default pytest report printed all
of them -- 60 lines with the cursor's source -- above the one message that
says what to fix.

An exception class marked with :func:`kit_failure` (its subclasses too)
is such a failure. When one ends a test, the agentkit pytest plugin calls
:func:`hide_kit_frames` on it, which unlinks every frame of an agentkit
package from its traceback (and from the tracebacks of the exceptions it
was raised from or during), so the report shows the test's line, the
user's own frames below it, and the kit's message. Only marked failures
are shortened: any other exception raised inside the kit keeps its frames,
or a bug in a double would be reported as if the user's line had caused it.
"""

from __future__ import annotations

import os
import sys
from types import TracebackType
from typing import TypeVar

__all__ = ["hide_kit_frames", "is_kit_failure", "kit_failure"]

_E = TypeVar("_E", bound=type[BaseException])

_MARKED: set[type[BaseException]] = set()

_NAMESPACE = __name__.partition(".")[0]


def kit_failure(cls: _E) -> _E:
    """Mark an exception class (and its subclasses) as a failure the kit raises on purpose."""
    _MARKED.add(cls)
    return cls


def is_kit_failure(error: BaseException) -> bool:
    """True for an instance of a :func:`kit_failure` class (the argument errors are one)."""
    return any(k in _MARKED for k in type(error).__mro__)


def _kit_roots() -> tuple[str, ...]:
    """Every folder the installed ``agentkit`` namespace is made of (each package's own).

    Read from the namespace package already loaded (this module is in it), so
    agentkit-core names no sibling distribution.
    """
    namespace = sys.modules[_NAMESPACE]
    return tuple(os.path.join(os.path.realpath(path), "") for path in namespace.__path__)


def _in_kit(tb: TracebackType, roots: tuple[str, ...]) -> bool:
    """A frame of the kit's source, or code the kit generated at run time.

    A dataclass's ``__init__`` (where a value type checks its arguments) is
    compiled from a string: its file is ``<string>``, but it runs in its
    defining module's globals, so the module's name tells whose it is.
    """
    frame = tb.tb_frame
    filename = frame.f_code.co_filename
    if filename.startswith("<"):
        return str(frame.f_globals.get("__name__", "")).startswith(_NAMESPACE + ".")
    return os.path.realpath(filename).startswith(roots)


def _relinked(tb: TracebackType | None, roots: tuple[str, ...]) -> TracebackType | None:
    """``tb`` without its kit frames; unchanged when nothing outside the kit would be left."""
    nodes: list[TracebackType] = []
    while tb is not None:
        nodes.append(tb)
        tb = tb.tb_next
    kept = [node for node in nodes if not _in_kit(node, roots)]
    if not kept or len(kept) == len(nodes):
        return nodes[0] if nodes else None
    for node, following in zip(kept, [*kept[1:], None], strict=True):
        node.tb_next = following
    return kept[0]


def hide_kit_frames(error: BaseException) -> None:
    """Unlink the kit's frames from the traceback of a kit failure and of what it chains.

    Does nothing to any other exception. The frames of the user's code (the
    test, the agent under test, its tools) stay, in order.
    """
    if not is_kit_failure(error):
        return
    roots = _kit_roots()
    seen: set[int] = set()
    pending: list[BaseException | None] = [error]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        current.__traceback__ = _relinked(current.__traceback__, roots)
        pending += [current.__cause__, current.__context__]
