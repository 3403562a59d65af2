"""The plugin's fixture types say what the fixtures take: MakeCtx is make_test_ctx's signature.

``make_ctx`` passes every keyword on to ``make_test_ctx``; the Protocol a test
annotates it with is written out separately (a Protocol cannot borrow a
function's signature), so this pins the two together: a keyword added to
``make_test_ctx`` and not to ``MakeCtx`` would be refused by mypy in every
test that uses it. That mypy does check the keywords is shown by
tests/typing_negative/make_ctx_misspelled_keyword.py.
"""

from __future__ import annotations

import inspect

from agentkit.core.testing.fixtures import MakeCtx
from agentkit.fakes.ctx import make_test_ctx


def described(signature: inspect.Signature) -> list[tuple[str, object, object, object]]:
    return [
        (p.name, p.kind, p.default, p.annotation)
        for p in signature.parameters.values()
        if p.name != "self"
    ]


def test_make_ctx_takes_exactly_the_keywords_of_make_test_ctx() -> None:
    protocol = inspect.signature(MakeCtx.__call__)
    builder = inspect.signature(make_test_ctx)
    assert described(protocol) == described(builder)
    assert protocol.return_annotation == builder.return_annotation == "RunContext"
