from __future__ import annotations

import subprocess
import sys
import types

import pytest

from agentkit.core.lazy import lazy_exports


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


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout.strip()


def test_the_meta_package_imports_only_what_is_used() -> None:
    out = _run(
        "import sys\n"
        "from agentkit.core.testing import FakeClock\n"
        "print(sorted(m for m in sys.modules if m.startswith('agentkit.fakes.')"
        " and m.count('.') == 2))"
    )
    assert out == "['agentkit.fakes.io']"


def test_star_import_of_the_meta_package_still_gives_every_name() -> None:
    out = _run(
        "import agentkit.core.testing as t\n"
        "ns = {}\n"
        "exec('from agentkit.core.testing import *', ns)\n"
        "print(sorted(set(t.__all__) - set(ns)))"
    )
    assert out == "[]"


def test_fakes_llm_defers_the_pricing_runtime_until_asked() -> None:
    out = _run(
        "import sys, agentkit.fakes.llm as llm\n"
        "before = 'agentkit.core.pricing' in sys.modules\n"
        "llm.scripted_runtime\n"
        "print(before, 'agentkit.core.pricing' in sys.modules)"
    )
    assert out == "False True"
