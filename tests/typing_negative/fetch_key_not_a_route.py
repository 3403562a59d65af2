"""FakeFetch's keys are typed: a key that is no route (an int) is a type error, not Any."""

from agentkit.core.types import FetchResponse
from agentkit.fakes.io import FakeFetch

_fetch: FakeFetch = FakeFetch({404: FetchResponse("https://a.test/")})
