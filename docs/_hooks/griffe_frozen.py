"""griffe extension: ``agentkit.core._frozen.dataclass`` is read as ``dataclasses.dataclass``.

agentkit's modules decorate their value types with the run-time twin of the
stdlib's decorator (``from agentkit.core._frozen import dataclass``: the same
class, built with fewer compiles). Type checkers see the stdlib's decorator
there, re-exported under ``TYPE_CHECKING``; griffe reads the source and
follows an import one step, so without this it would take the classes for
plain classes and show no constructor and no fields. Pointing each such import
at ``dataclasses.dataclass`` before griffe's dataclasses extension runs lets
the reference show every signature the stdlib's decorator would.
"""

from __future__ import annotations

from typing import Any

import griffe

FROZEN = "agentkit.core._frozen.dataclass"


class FrozenDataclasses(griffe.Extension):
    """Re-point imports of ``agentkit.core._frozen.dataclass`` at ``dataclasses.dataclass``."""

    def on_alias_instance(self, *, alias: griffe.Alias, **kwargs: Any) -> None:
        # At visit time: griffe's dataclasses extension reads the decorators when
        # the package is loaded, before the load-time alias events.
        if alias.target_path == FROZEN:
            alias.target_path = "dataclasses.dataclass"
