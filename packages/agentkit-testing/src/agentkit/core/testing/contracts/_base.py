"""The pytest face of a suite: a base class a user subclasses, one test method per check.

The class imports nothing from pytest (only the plugin may): pytest collects
any ``Test*`` subclass, and the methods ask for the user's ``make_port``
fixture by name. Options come from the class attribute ``contract_options``
and, when the user defines one, a ``port_options`` fixture (for values
known only at run time, such as a server's port). A check that needs an
option nobody gave is skipped with ``unittest.SkipTest``, which pytest
reports as a skip.
"""

from __future__ import annotations

import asyncio
import unittest
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from agentkit.core.testing.contracts._suite import Suite

__all__ = ["ContractTests"]


class ContractTests:
    """Base of every ``<Port>Contract`` class; subclass one and define a ``make_port`` fixture.

    A class that sets ``suite`` gets one ``test_<check>`` method per check.
    """

    suite: ClassVar[Suite]
    contract_options: ClassVar[Mapping[str, Any]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        suite = cls.__dict__.get("suite")
        if suite is not None:
            for check in suite.checks:
                setattr(cls, f"test_{check.name}", _method(check.name, check.rule))


def _options(cls: type[ContractTests], request: Any) -> dict[str, Any]:
    options = dict(cls.contract_options)
    try:
        extra = request.getfixturevalue("port_options")
    except Exception as exc:  # pytest's FixtureLookupError: the user defined none
        if type(exc).__name__ != "FixtureLookupError":
            raise
        extra = {}
    options.update(extra)
    return options


def _method(name: str, rule: str) -> Callable[..., None]:
    def test(self: ContractTests, make_port: Any, request: Any) -> None:
        suite = type(self).suite
        options = _options(type(self), request)
        skipped = asyncio.run(suite.run(make_port, options, only=[name]))
        if skipped:
            needs = suite.by_name(name).needs
            raise unittest.SkipTest(f"{name} needs the option(s) {', '.join(needs)}")

    test.__name__ = f"test_{name}"
    test.__qualname__ = f"ContractTests.test_{name}"
    test.__doc__ = rule
    return test
