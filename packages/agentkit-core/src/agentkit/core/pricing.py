"""Prices and provider usage conventions (:mod:`agentkit.core.call_runtime` applies both).

Providers disagree on one fact that changes every bill: whether a reported
input count includes the cached prefix. OpenAI (and Codex) report input
INCLUSIVE of cached input; Anthropic (and the claude CLI) report it
EXCLUSIVE. agentkit's :class:`~agentkit.core.types.Usage` is always exclusive,
and the conversion happens once, here, keyed on a :class:`Mode`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from agentkit.core._internal.arguments import (
    check_bool,
    check_int,
    check_mapping,
    check_number,
    check_str,
    check_type,
)
from agentkit.core.types import Usage

__all__ = [
    "ANTHROPIC_API",
    "OPENAI_API",
    "Mode",
    "ModelPrice",
    "PriceTable",
    "RawUsage",
    "UnknownModelError",
]

_RAW_FIELDS = (
    "input_tokens",
    "cached_input_tokens",
    "cache_write_tokens",
    "output_tokens",
    "reasoning_tokens",
)


class UnknownModelError(KeyError):
    """A price was asked for a model the table does not list.

    Typed, and never answered with 0.0: a cost of zero for an unknown model is
    a budget that silently never trips.
    """

    def __init__(self, model: str, known: Iterable[str]) -> None:
        self.model = model
        self.known = tuple(sorted(known))
        super().__init__(model)

    def __str__(self) -> str:
        return f"no price for model {self.model!r}; the table lists {list(self.known)}"


@dataclass(frozen=True, slots=True)
class ModelPrice:
    """USD per million tokens, one rate per kind of token."""

    input: float
    output: float
    cached_input: float | None = None
    cache_write: float | None = None

    def __post_init__(self) -> None:
        check_number(self.input, "ModelPrice", "input")
        check_number(self.output, "ModelPrice", "output")
        for name in ("cached_input", "cache_write"):
            value = getattr(self, name)
            if value is not None:
                check_number(value, "ModelPrice", name)

    def cost(self, usage: Usage) -> float:
        """The cost of ``usage``; cached and cache-write input fall back to the input rate."""
        cached = self.input if self.cached_input is None else self.cached_input
        write = self.input if self.cache_write is None else self.cache_write
        return (
            usage.input_tokens * self.input
            + usage.cached_input_tokens * cached
            + usage.cache_write_tokens * write
            + usage.output_tokens * self.output
        ) / 1_000_000


@dataclass(frozen=True, slots=True)
class PriceTable:
    """Per-model prices. Looking up an unlisted model raises :class:`UnknownModelError`."""

    prices: Mapping[str, ModelPrice] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_mapping(self.prices, "PriceTable", "prices", "a mapping {model: ModelPrice}")
        for model, price in self.prices.items():
            check_str(model, "PriceTable", "prices keys (model names)", empty=False)
            check_type(price, ModelPrice, "PriceTable", f"prices[{model!r}]", "a ModelPrice")
        object.__setattr__(self, "prices", dict(self.prices))

    def price(self, model: str) -> ModelPrice:
        try:
            return self.prices[model]
        except KeyError:
            raise UnknownModelError(model, self.prices) from None

    def cost(self, model: str, usage: Usage) -> float:
        return self.price(model).cost(usage)

    def __contains__(self, model: object) -> bool:
        return model in self.prices


@dataclass(frozen=True, slots=True)
class RawUsage:
    """Token counts exactly as a provider reported them, in its own convention."""

    input_tokens: int = 0
    cached_input_tokens: int = 0
    cache_write_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0

    def __post_init__(self) -> None:
        for name in _RAW_FIELDS:
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                check_int(value, "RawUsage", name)


@dataclass(frozen=True, slots=True)
class Mode:
    """A provider's usage convention.

    ``input_includes_cached`` is the one fact that differs: when True, the
    reported input count already contains the cached (and cache-written)
    tokens, and :meth:`normalise` subtracts them.
    """

    name: str
    input_includes_cached: bool

    def __post_init__(self) -> None:
        check_str(self.name, "Mode", "name", empty=False)
        check_bool(self.input_includes_cached, "Mode", "input_includes_cached")

    def normalise(self, raw: RawUsage) -> Usage:
        """Raw provider counts -> agentkit's exclusive :class:`Usage`.

        Raises ValueError when an inclusive report claims more cached than
        total input: that is a transport bug, and clamping would hide it.
        """
        fresh = raw.input_tokens
        if self.input_includes_cached:
            fresh = raw.input_tokens - raw.cached_input_tokens - raw.cache_write_tokens
            if fresh < 0:
                raise ValueError(
                    f"{self.name}: input_tokens={raw.input_tokens} is inclusive of cached input "
                    f"but is smaller than cached={raw.cached_input_tokens} + "
                    f"cache_write={raw.cache_write_tokens}"
                )
        return Usage(
            input_tokens=fresh,
            cached_input_tokens=raw.cached_input_tokens,
            cache_write_tokens=raw.cache_write_tokens,
            output_tokens=raw.output_tokens,
            reasoning_tokens=raw.reasoning_tokens,
        )


OPENAI_API = Mode("openai_api", input_includes_cached=True)
ANTHROPIC_API = Mode("anthropic_api", input_includes_cached=False)
