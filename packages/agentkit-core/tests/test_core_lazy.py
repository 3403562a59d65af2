from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path

import pytest

from agentkit.core.lazy import lazy_exports, reexports
from tests.support.fresh_python import fresh_python


def _module_with_lazy_names() -> types.ModuleType:
    module = types.ModuleType("lazy_probe")
    getattr_, dir_ = lazy_exports(
        "lazy_probe", {"dumps": "json", "Fraction": "fractions"}, module.__dict__
    )
    module.__getattr__ = getattr_  # type: ignore[method-assign]
    module.__dir__ = dir_  # type: ignore[method-assign]
    return module


def test_a_lazy_name_is_the_source_object_and_is_cached() -> None:
    import json

    module = _module_with_lazy_names()
    assert "dumps" not in module.__dict__
    assert module.dumps is json.dumps
    assert module.__dict__["dumps"] is json.dumps


def test_an_unknown_name_is_an_attribute_error_naming_the_module() -> None:
    module = _module_with_lazy_names()
    with pytest.raises(AttributeError, match="'lazy_probe' has no attribute 'nope'"):
        _ = module.nope
    assert not hasattr(module, "nope")


def test_dir_lists_names_not_yet_imported() -> None:
    assert {"dumps", "Fraction"} <= set(dir(_module_with_lazy_names()))


def test_the_meta_package_imports_only_what_is_used() -> None:
    out = fresh_python(
        "import sys\n"
        "from agentkit.core.testing import FakeClock\n"
        "print(sorted(m for m in sys.modules if m.startswith('agentkit.fakes.')"
        " and m.count('.') == 2))"
    )
    assert out == "['agentkit.fakes.io']"


def test_star_import_of_the_meta_package_still_gives_every_name() -> None:
    out = fresh_python(
        "import agentkit.core.testing as t\n"
        "ns = {}\n"
        "exec('from agentkit.core.testing import *', ns)\n"
        "print(sorted(set(t.__all__) - set(ns)))"
    )
    assert out == "[]"


def test_fakes_llm_defers_the_pricing_runtime_until_asked() -> None:
    out = fresh_python(
        "import sys, agentkit.fakes.llm as llm\n"
        "before = 'agentkit.core.pricing' in sys.modules\n"
        "llm.scripted_runtime\n"
        "print(before, 'agentkit.core.pricing' in sys.modules)"
    )
    assert out == "False True"


def test_fakes_ctx_defers_the_run_context_until_make_test_ctx_is_called() -> None:
    # A FakeCtx or a RecordingTracer needs no RunContext, Invoker, middleware or meters
    # (nor asyncio, which they bring); make_test_ctx imports them on its first call.
    heavy = (
        "agentkit.core.runtime",
        "agentkit.core.invoker",
        "agentkit.core.middleware",
        "asyncio",
    )
    out = fresh_python(
        "import sys\n"
        "from agentkit.fakes.ctx import FakeCtx, make_test_ctx\n"
        f"heavy = {heavy!r}\n"
        "before = [m for m in heavy if m in sys.modules]\n"
        "ctx = make_test_ctx()\n"
        "print(before, [m for m in heavy if m not in sys.modules], type(ctx).__name__)"
    )
    assert out == "[] [] RunContext"


# --- reexports: one list of ``Name as Name`` imports per facade ---------------------------

FACADE = '''\
"""A facade."""
from typing import TYPE_CHECKING

from json import dumps as dumps
from json import loads

if TYPE_CHECKING:
    from fractions import Fraction as Fraction
    from decimal import Decimal as Money
    from platform import __name__ as __name__
else:
    from agentkit.core.lazy import reexports

    __getattr__, __dir__ = reexports(globals())
'''


def _facade(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    (tmp_path / "facade_probe.py").write_text(FACADE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "facade_probe", raising=False)
    return importlib.import_module("facade_probe")


def test_all_is_every_same_name_alias_in_order_eager_and_lazy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = _facade(tmp_path, monkeypatch)
    # `loads` has no alias and `Decimal as Money` renames: neither is an export; the
    # dunder is exported but kept out of a star import.
    assert module.__all__ == ["dumps", "Fraction"]
    assert "Money" not in dir(module)
    with pytest.raises(AttributeError, match="'facade_probe' has no attribute 'Money'"):
        _ = module.Money


def test_a_lazy_reexport_is_imported_on_first_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fractions import Fraction

    module = _facade(tmp_path, monkeypatch)
    assert "Fraction" not in module.__dict__
    assert module.Fraction is Fraction
    assert module.__dict__["Fraction"] is Fraction
    assert {"dumps", "Fraction"} <= set(dir(module))


def test_a_facade_without_its_source_says_so() -> None:
    class NoSource:
        def get_source(self, name: str) -> None:
            return None

    namespace: dict[str, object] = {"__name__": "sourceless", "__loader__": NoSource()}
    getattr_, _ = reexports(namespace)
    with pytest.raises(ImportError, match="sourceless lists its exports in its source"):
        getattr_("anything")


def test_every_facade_derives_its_all_from_its_imports() -> None:
    # Each package __init__ that re-exports holds no literal __all__: the one list is
    # its `Name as Name` imports, which mypy reads too.
    facades = [
        "agentkit.agents",
        "agentkit.core.testing",
        "agentkit.core.testing.contracts",
        "agentkit.core.testing.fakes",
        "agentkit.fakes.api",
        "agentkit.fakes.cli",
        "agentkit.fakes.ctx",
        "agentkit.fakes.io",
        "agentkit.fakes.llm",
    ]
    for name in facades:
        module = importlib.import_module(name)
        source = Path(str(module.__file__)).read_text(encoding="utf-8")
        assert "__all__ =" not in source, name
        assert "reexports(globals())" in source, name
        assert all(hasattr(module, export) for export in module.__all__), name


def test_a_star_import_of_the_meta_package_leaves_what_it_does_not_name_unloaded() -> None:
    # The contract suites (and the unittest, argparse, difflib and http.server they bring),
    # pathlib (with urllib.parse and ipaddress) and gzip
    # load when a suite is used, not when a star import binds ContractViolation.
    out = fresh_python(
        "import sys\n"
        "from agentkit.core.testing import *\n"
        "print(sorted(m for m in ('agentkit.core.testing.contracts._base', 'unittest',"
        " 'argparse', 'difflib', 'http.server', 'ipaddress', 'gzip') if m in sys.modules))"
    )
    assert out == "[]"
