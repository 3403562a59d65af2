"""griffe extension: the Sphinx roles in agentkit's docstrings become reference links.

The docstrings name other objects the way Sphinx does (``:class:`FakeLLM```,
``:meth:`~agentkit.core.ports.LLMPort.chat```), and the kit's type checkers
and editors read them that way. mkdocstrings renders markdown, where such a
role is raw text. Before any docstring is parsed, each role is rewritten to
an autorefs cross-reference, ``[`FakeLLM`][agentkit.fakes.llm.FakeLLM]``,
naming the target by the full path the role resolves to in the docstring's
own scope (its object, then each enclosing class and module, imports
included), as Sphinx would. A target outside agentkit (the standard library,
pytest) keeps its text as code: the reference has no page for it.

A link is written only when the target is an object griffe loaded and one
the reference shows (no private part in its path, or a private object a
public package re-exports); ``mkdocs build --strict`` fails on any link that
still does not resolve, so a role naming something that does not exist is
found at build time instead of shipping as a dead name.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|meth|func|mod|attr|data|exc|obj):`(?P<body>[^`]+)`")
TITLED = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$", re.DOTALL)
FENCE = re.compile(r"^\s*(```|~~~)")
# Imports and bases followed before giving up (a cycle would be a bug in the tree).
MAX_DEPTH = 20


def _split(body: str) -> tuple[str, str]:
    """``(target, text shown)`` of a role's body, as Sphinx reads it."""
    if titled := TITLED.match(body):
        return titled["target"].strip(), " ".join(titled["title"].split())
    if body.startswith("~"):
        target = body[1:]
        return target, target.rsplit(".", 1)[-1]
    if body.startswith("!"):
        return "", body[1:]
    return body, body


class SphinxRoles(griffe.Extension):
    """Rewrite ``:role:`target``` in every docstring of a loaded package to a link."""

    def __init__(self) -> None:
        super().__init__()
        self._collection: griffe.ModulesCollection = griffe.ModulesCollection()

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        self._collection = loader.modules_collection
        for obj in _walk(pkg):
            if obj.docstring is not None:
                obj.docstring.value = self.rewrite(obj.docstring.value, obj)

    def rewrite(self, text: str, obj: griffe.Object) -> str:
        """``text`` with every role outside a code fence replaced by a link or code.

        A role may wrap across lines (a long title and its target), so each run of
        lines between fences is rewritten whole.
        """
        chunks: list[str] = []
        prose: list[str] = []
        fenced = False
        for line in text.splitlines(keepends=True):
            if FENCE.match(line):
                if not fenced:
                    chunks.append(self._rewrite_prose("".join(prose), obj))
                    prose = []
                fenced = not fenced
                chunks.append(line)
            elif fenced:
                chunks.append(line)
            else:
                prose.append(line)
        chunks.append(self._rewrite_prose("".join(prose), obj))
        return "".join(chunks)

    def _rewrite_prose(self, text: str, obj: griffe.Object) -> str:
        return ROLE.sub(lambda match: self._link(match, obj), text)

    def _link(self, match: re.Match[str], obj: griffe.Object) -> str:
        target, shown = _split(match["body"])
        path = self.resolve(target, obj) if target else None
        return f"[`{shown}`][{path}]" if path else f"`{shown}`"

    def resolve(self, target: str, obj: griffe.Object) -> str | None:
        """The path of the shown agentkit entry ``target`` names from ``obj``, if any."""
        candidates = []
        if target.startswith("."):
            module = obj.module
            package = module if module.is_package else module.parent
            if package is not None:
                candidates.append(f"{package.path}{target}")
            target = target.lstrip(".")
        head, _, rest = target.partition(".")
        tail = f".{rest}" if rest else ""
        scope: griffe.Object | None = obj
        while scope is not None:
            member = scope.members.get(head)
            if member is not None:
                if isinstance(member, griffe.Alias):
                    candidates.append(f"{member.target_path}{tail}")
                # Where this scope shows it: a name imported from a private module
                # and exported here is documented here.
                candidates.append(f"{scope.path}.{head}{tail}")
                break
            if isinstance(scope, griffe.Class) and self._member(scope, head, depth=0):
                candidates.append(f"{scope.path}.{head}{tail}")  # inherited from a base
                break
            scope = scope.parent
        candidates.append(target)
        for candidate in candidates:
            path = self.public(candidate)
            if path.startswith("agentkit.") and self._shown(path):
                return path
        return None

    def public(self, path: str) -> str:
        """Where the reference shows ``path``: a private module's name under its package.

        ``agentkit.fakes.cli._claude.FakeClaudeCli`` is documented as
        ``agentkit.fakes.cli.FakeClaudeCli``, the package that re-exports it.
        """
        parts = path.split(".")
        first = next((i for i, part in enumerate(parts) if _private(part)), None)
        if first is None:
            return path
        for end in range(first + 1, len(parts)):
            shorter = ".".join([*parts[:first], *parts[end:]])
            if self._shown(shorter):
                return shorter
        return path

    def _shown(self, path: str) -> bool:
        """Whether the reference has an entry ``path`` links to.

        An entry has no private part in its path, and a name a module imports is
        shown only when it is agentkit's and the module exports it (its ``__all__``,
        when it has a literal one).
        """
        if any(_private(part) for part in path.split(".")):
            return False
        found = self._lookup(path)
        if not isinstance(found, griffe.Alias):
            return found is not None
        module = found.parent
        exported = module is not None and (module.exports is None or found.name in module.exports)
        target = found.target_path
        return exported and target.startswith("agentkit.") and self._lookup(target) is not None

    def _lookup(self, path: str) -> griffe.Object | griffe.Alias | None:
        """The object at ``path``, following imports and a class's bases by hand.

        griffe's own lookups that do this resolve and cache aliases and inherited
        members, which must wait until the whole tree is loaded; this only reads.
        """
        head, *rest = path.split(".")
        found: griffe.Object | griffe.Alias | None = self._collection.members.get(head)
        for name in rest:
            found = self._member(found, name, depth=0) if found is not None else None
        return found

    def _member(
        self, obj: griffe.Object | griffe.Alias, name: str, depth: int
    ) -> griffe.Object | griffe.Alias | None:
        """``obj``'s member ``name``: its own, or one a base class of agentkit's has."""
        if depth > MAX_DEPTH:
            return None
        if isinstance(obj, griffe.Alias):
            target = self._lookup(obj.target_path)
            return self._member(target, name, depth + 1) if target is not None else None
        member = obj.members.get(name)
        if member is not None or not isinstance(obj, griffe.Class):
            return member
        for base in obj.bases:
            where = base.canonical_path if isinstance(base, griffe.Expr) else str(base)
            parent = self._lookup(where) if where.startswith("agentkit.") else None
            if parent is not None and (found := self._member(parent, name, depth + 1)):
                return found
        return None


def _private(part: str) -> bool:
    return part.startswith("_") and not part.startswith("__")


def _walk(obj: griffe.Object) -> list[griffe.Object]:
    """``obj`` and every object defined (not imported) below it."""
    found = [obj]
    for member in obj.members.values():
        if not isinstance(member, griffe.Alias):
            found += _walk(member)
    return found
