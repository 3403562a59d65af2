from __future__ import annotations

import ast
import importlib
import py_compile
import sys
import types
from pathlib import Path

import pytest

from agentkit.core._internal.lazy import lazy_exports
from tests.support.exports import aliases, assert_exports_agree, lazy_table, package_inits
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


# --- export modules: eager imports, TYPE_CHECKING imports, the lazy table, __all__ ----------


def export_modules() -> dict[str, Path]:
    """Every package ``__init__`` of the workspace that exports names lazily: name -> file."""
    return {
        name: path
        for name, path in package_inits("packages/*/src/**/__init__.py").items()
        if "lazy_exports(" in path.read_text(encoding="utf-8")
    }


def test_every_package_facade_is_found() -> None:
    # Not vacuous: the walk finds the facades a user imports.
    assert {
        "agentkit.agents",
        "agentkit.core.testing",
        "agentkit.core.testing.contracts",
        "agentkit.core.testing.fakes",
        "agentkit.fakes.api",
        "agentkit.fakes.cli",
        "agentkit.fakes.ctx",
        "agentkit.fakes.io",
        "agentkit.fakes.llm",
    } <= set(export_modules())


@pytest.mark.parametrize("name", sorted(export_modules()))
def test_static_and_run_time_exports_agree(name: str) -> None:
    # What mypy reads (the ``Name as Name`` imports, eager and under TYPE_CHECKING) is what
    # the run time exports: the lazy table names each TYPE_CHECKING import with its owner,
    # and __all__ is every public name of the two, once.
    assert_exports_agree(name, export_modules()[name])


def test_the_check_catches_a_table_that_disagrees() -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from fractions import Fraction as Fraction\n"
        "else:\n"
        "    __getattr__, __dir__ = lazy_exports(__name__, {'Fraction': 'decimal'}, globals())\n"
    )
    tree = ast.parse(source)
    assert lazy_table(tree) == {"Fraction": "decimal"}
    assert aliases(tree.body[1].body) == {"Fraction": "fractions"}  # type: ignore[attr-defined]


FACADE = '''\
"""A facade."""
from typing import TYPE_CHECKING

from json import dumps as dumps

if TYPE_CHECKING:
    from fractions import Fraction as Fraction
else:
    from agentkit.core._internal.lazy import lazy_exports

    __getattr__, __dir__ = lazy_exports(__name__, {"Fraction": "fractions"}, globals())

__all__ = ["dumps", "Fraction"]
'''


def test_a_facade_installed_as_bytecode_alone_exports_its_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Exports are a table, not read from the module's source: a sourceless install
    # (only .pyc files) imports and resolves them the same.
    from fractions import Fraction

    source = tmp_path / "facade_probe.py"
    source.write_text(FACADE, encoding="utf-8")
    py_compile.compile(str(source), cfile=str(tmp_path / "facade_probe.pyc"), doraise=True)
    source.unlink()
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "facade_probe", raising=False)
    module = importlib.import_module("facade_probe")
    assert str(module.__file__).endswith(".pyc")
    assert module.__all__ == ["dumps", "Fraction"]
    assert "Fraction" not in module.__dict__
    assert module.Fraction is Fraction
    assert {"dumps", "Fraction"} <= set(dir(module))


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
