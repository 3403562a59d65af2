"""Every agentkit.agents package exports by the workspace's one convention, each name once.

A name is spelled where it is defined, once in its package's
``from owner import Name as Name`` and once in that package's ``__all__``;
no second agents package re-exports it (what each package holds is pinned
name by name in test_cognition_exports.py and test_react_exports.py).
"""

from __future__ import annotations

import importlib
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from tests.support.exports import assert_exports_agree, package_inits

PACKAGES = package_inits("packages/agentkit-agents/src/**/__init__.py")


def test_every_agents_package_is_found() -> None:
    assert set(PACKAGES) == {
        "agentkit.agents",
        "agentkit.agents.capabilities",
        "agentkit.agents.cognition",
        "agentkit.agents.cognition.claude",
        "agentkit.agents.cognition.codex",
        "agentkit.agents.control",
        "agentkit.agents.react",
        "agentkit.agents.tools",
    }


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_imports_and_all_agree(name: str) -> None:
    assert_exports_agree(name, PACKAGES[name])


def test_no_object_is_exported_by_two_agents_packages() -> None:
    exporters: defaultdict[int, list[str]] = defaultdict(list)
    for name in PACKAGES:
        module = importlib.import_module(name)
        for export in module.__all__:
            exporters[id(getattr(module, export))].append(f"{name}.{export}")
    assert [where for where in exporters.values() if len(where) > 1] == []


def test_the_check_refuses_an_export_without_its_alias(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A plain import is not an export to mypy: listed in __all__, it fails the check.
    source = tmp_path / "plain_probe.py"
    source.write_text('from json import dumps\n\n__all__ = ["dumps"]\n', encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "plain_probe", raising=False)
    with pytest.raises(AssertionError):
        assert_exports_agree("plain_probe", source)
