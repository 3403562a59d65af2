"""Read a tool's description and its parameters' descriptions out of a docstring.

A function tool's docstring is written for two readers at once: the person
maintaining the function and the model deciding whether and how to call it.
So the text before the first section becomes the tool's description and each
documented parameter's text becomes that parameter's ``description`` in the
schema. The three common conventions are understood, because a project's
existing functions already use one of them and should not need rewriting to
become tools:

- Google: an ``Args:`` (or ``Arguments:``, ``Parameters:``) section of
  ``name: text`` or ``name (type): text`` lines, continued by deeper indent;
- Sphinx: ``:param name: text`` (or ``:param type name: text``) fields;
- NumPy: a ``Parameters`` heading underlined with dashes, then ``name : type``
  lines with the text indented beneath.

Any other section (``Returns:``, ``Raises:``, ``:rtype:``...) ends the
description and is otherwise ignored: it says nothing the model can act on.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field

__all__ = ["Docstring", "parse_docstring"]

_GOOGLE_PARAMS = re.compile(
    r"^(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments):\s*$"
)
_GOOGLE_SECTION = re.compile(r"^[A-Z][A-Za-z ]*:\s*$")
_GOOGLE_ITEM = re.compile(r"^\*{0,2}(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
_SPHINX_FIELD = re.compile(r"^:(\w+)(?:\s+([^:]*?))?:\s*(.*)$")
_NUMPY_UNDERLINE = re.compile(r"^-{3,}\s*$")
_NUMPY_ITEM = re.compile(r"^([\w*]+(?:\s*,\s*[\w*]+)*)\s*(?::.*)?$")


@dataclass(frozen=True, slots=True)
class Docstring:
    """What a docstring says: the summary text, and a description per parameter name."""

    description: str = ""
    params: dict[str, str] = field(default_factory=dict)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _join(lines: list[str]) -> str:
    """Paragraph text: lines joined by spaces, blank lines kept as paragraph breaks."""
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            paragraphs[-1].append(line.strip())
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n\n".join(" ".join(p) for p in paragraphs if p)


def parse_docstring(doc: str | None) -> Docstring:
    """Split ``doc`` into its description and per-parameter texts (see the module docstring)."""
    if not doc:
        return Docstring()
    lines = inspect.cleandoc(doc).splitlines()
    description: list[str] = []
    params: dict[str, list[str]] = {}
    index = 0
    in_description = True
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        # NumPy: a heading line followed by a dashed underline.
        if index + 1 < len(lines) and _NUMPY_UNDERLINE.match(lines[index + 1]) and stripped:
            in_description = False
            index += 2
            if stripped in ("Parameters", "Other Parameters"):
                index = _numpy_params(lines, index, params)
            continue
        if _GOOGLE_PARAMS.match(stripped) and _indent(line) == 0:
            in_description = False
            index = _google_params(lines, index + 1, params)
            continue
        sphinx = _SPHINX_FIELD.match(stripped)
        if sphinx is not None and _indent(line) == 0:
            in_description = False
            index = _sphinx_field(lines, index, sphinx, params)
            continue
        if _GOOGLE_SECTION.match(stripped) and _indent(line) == 0:
            in_description = False
        elif in_description:
            description.append(line)
        index += 1
    return Docstring(_join(description), {name: _join(text) for name, text in params.items()})


def _google_params(lines: list[str], index: int, params: dict[str, list[str]]) -> int:
    current: list[str] | None = None
    base: int | None = None
    while index < len(lines):
        line = lines[index]
        if line.strip() and _indent(line) == 0:
            return index
        if not line.strip():
            index += 1
            continue
        if base is None:
            base = _indent(line)
        item = _GOOGLE_ITEM.match(line.strip())
        if _indent(line) <= base and item is not None:
            current = params.setdefault(item.group(1), [])
            current.append(item.group(2))
        elif current is not None:
            current.append(line)
        index += 1
    return index


def _sphinx_field(
    lines: list[str], index: int, match: re.Match[str], params: dict[str, list[str]]
) -> int:
    kind, spec, text = match.group(1), match.group(2), match.group(3)
    target: list[str] | None = None
    if kind in ("param", "parameter", "arg", "argument", "key", "keyword") and spec:
        target = params.setdefault(spec.split()[-1].lstrip("*"), [])
        target.append(text)
    index += 1
    while index < len(lines) and lines[index].strip() and _indent(lines[index]) > 0:
        if target is not None:
            target.append(lines[index])
        index += 1
    return index


def _numpy_params(lines: list[str], index: int, params: dict[str, list[str]]) -> int:
    targets: list[list[str]] = []
    while index < len(lines):
        line = lines[index]
        if index + 1 < len(lines) and _NUMPY_UNDERLINE.match(lines[index + 1]) and line.strip():
            return index
        if line.strip() and _indent(line) == 0:
            item = _NUMPY_ITEM.match(line.strip())
            if item is None:
                return index
            names = [name.strip().lstrip("*") for name in item.group(1).split(",")]
            targets = [params.setdefault(name, []) for name in names]
        elif line.strip():
            for target in targets:
                target.append(line)
        index += 1
    return index
