"""Importing agentkit.fakes.api costs the public names only: the wire loads with a server."""

from __future__ import annotations

from tests.support.fresh_python import fresh_python

WIRE = [
    "agentkit.fakes.api._anthropic",
    "agentkit.fakes.api._answer",
    "agentkit.fakes.api._body",
    "agentkit.fakes.api._call",
    "agentkit.fakes.api._http",
    "agentkit.fakes.api._openai_chat",
    "agentkit.fakes.api._openai_responses",
    "agentkit.fakes.api._side",
    "agentkit.fakes.api._sse",
    "zlib",
]
"""The server, the codecs and what they bring: none is needed to import the package, bind
its names or build a FakeApi (``from agentkit.core.testing import *`` binds FakeApi in every
test module that uses it, most of which never start one)."""

CHILD = """
import http.client, sys

def loaded(names):
    return [m for m in names if m in sys.modules]

{imports}
api = FakeApi()
print(loaded({names!r}))
from agentkit.fakes.llm import FakeLLM
api.serve(FakeLLM("hi"))
with api:
    connection = http.client.HTTPConnection("127.0.0.1", api.port, timeout=10)
    connection.request(
        "POST", "/v1/responses", b'{{"model": "m", "input": "x"}}', {{"x-api-key": "k"}}
    )
    status = connection.getresponse().status
    connection.close()
print(status, loaded({names!r}))
"""


def _import_then_serve(imports: str, names: list[str]) -> tuple[str, str]:
    """What of ``names`` is loaded after ``imports`` and ``FakeApi()``, and after it served."""
    before, after = fresh_python(CHILD.format(imports=imports, names=names)).splitlines()
    return before, after


def test_the_package_and_a_fakeapi_load_no_wire_until_it_serves() -> None:
    names = [*WIRE, "asyncio"]
    before, after = _import_then_serve("from agentkit.fakes.api import FakeApi", names)
    assert before == "[]"
    assert after == f"200 {names}"


def test_a_star_import_of_the_testing_facade_loads_no_wire() -> None:
    before, after = _import_then_serve("from agentkit.core.testing import *", WIRE)
    assert before == "[]"
    assert after == f"200 {WIRE}"
