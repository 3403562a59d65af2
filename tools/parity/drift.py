"""What a CLI release changed: two sets of recordings compared, by shape and by meaning.

``python -m tools.parity.drift OLD NEW`` takes two recordings folders
(``<cli>/<scenario>.jsonl``: the shipped ones, and ones a run of the suite
against other releases wrote with ``--record-to``) and reports, per scenario
present in both:

* **drift** -- the shape of what the CLI printed: event kinds (claude
  ``type`` / ``type:subtype``, codex ``type`` / ``item.*:<item type>``)
  added or removed, key paths added, removed or retyped per kind, and the
  exit code;
* **semantics** -- what the cognitions make of it, for both: the result
  fields a caller reads (text, error code, HTTP status, stop reason, usage,
  whether there is a session id, the exit code).

It never fails a build by itself (exit 0, even with drift): a release that
changed is news for a maintainer, not a bug. ``--strict`` exits 1 on any
semantic difference, for a maintainer who wants to gate on it.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentkit.agents.cognition._driver import TurnFold
from agentkit.agents.cognition.claude._turn import ClaudeTurn
from agentkit.agents.cognition.codex._turn import CodexTurn
from agentkit.fakes.cli import Recording, load_recording

__all__ = ["Drift", "compare", "compare_folders", "main", "semantics", "shape"]

Shape = dict[str, dict[str, set[str]]]
"""event kind -> key path -> the JSON types seen there."""


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        return "array"
    return "object"


def _paths(value: object, prefix: str) -> Iterator[tuple[str, str]]:
    yield prefix, _json_type(value)
    if isinstance(value, Mapping):
        for key, inner in value.items():
            yield from _paths(inner, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(value, list):
        for inner in value:
            yield from _paths(inner, f"{prefix}[]")


def _kind(cli: str, obj: Mapping[str, Any]) -> str:
    kind = str(obj.get("type"))
    if cli == "claude" and obj.get("subtype") is not None:
        return f"{kind}:{obj['subtype']}"
    item = obj.get("item")
    if cli == "codex" and isinstance(item, Mapping) and item.get("type") is not None:
        return f"{kind}:{item['type']}"
    return kind


def _objects(stdout: bytes) -> Iterator[dict[str, Any]]:
    for line in stdout.splitlines():
        text = line.strip()
        if not text.startswith(b"{"):
            continue
        try:
            obj = json.loads(text)
        except ValueError:
            continue
        if isinstance(obj, dict):
            yield obj


def shape(cli: str, stdout: bytes) -> Shape:
    """Every event kind of a stream and the key paths (with their types) it used."""
    found: Shape = {}
    for obj in _objects(stdout):
        paths = found.setdefault(_kind(cli, obj), {})
        for path, kind in _paths(obj, ""):
            if path:
                paths.setdefault(path, set()).add(kind)
    return found


def _fold(cli: str, stdout: bytes) -> TurnFold[Any]:
    fold: TurnFold[Any] = ClaudeTurn() if cli == "claude" else CodexTurn()
    for number, obj in enumerate(_objects(stdout), 1):
        fold.feed(obj, number)
    return fold


_LOOPBACK_PORT = re.compile(rb"(127\.0\.0\.1|localhost|\[::1\]):\d+")


def _without_mock_port(stdout: bytes) -> bytes:
    """``stdout`` with the mock's ephemeral port masked: claude names its "inference
    gateway" (``127.0.0.1:<port>``) in some failure texts, and the port differs on
    every run, so it is no release's change."""
    return _LOOPBACK_PORT.sub(rb"\1:<port>", stdout)


def semantics(recording: Recording) -> dict[str, object]:
    """The result fields a caller reads, as the cognition's fold of the stream gives them."""
    cli = recording.cli
    fold = _fold(cli, _without_mock_port(recording.run.stdout))
    error = fold.reported_error()
    view: dict[str, object] = {
        "text": fold.text,
        "error": None if error is None else error.code,
        "http_status": fold.http_status,
        "stop_reason": fold.stop_reason,
        "session_id": "present" if fold.session_id else None,
        "terminal": fold.terminal,
        "exit_code": recording.run.returncode,
        "problems": len(fold.problems),
    }
    if isinstance(fold, ClaudeTurn):
        result = fold.result
        view["usage"] = None if result is None else result.usage
        view["cost_usd"] = None if result is None else result.total_cost_usd
        view["permission_denials"] = len(fold.permission_denials)
    elif isinstance(fold, CodexTurn):
        view["usage"] = fold.usage
        view["items"] = tuple(type(i).__name__ for i in fold.items)
    return view


@dataclass
class Drift:
    """What differs between two recordings of one scenario."""

    key: str
    old_version: str
    new_version: str
    kinds_added: list[str] = field(default_factory=list)
    kinds_removed: list[str] = field(default_factory=list)
    paths_added: list[str] = field(default_factory=list)
    paths_removed: list[str] = field(default_factory=list)
    paths_retyped: list[str] = field(default_factory=list)
    exit_codes: tuple[int, int] | None = None
    semantic: list[str] = field(default_factory=list)

    @property
    def shape_changed(self) -> bool:
        return bool(
            self.kinds_added
            or self.kinds_removed
            or self.paths_added
            or self.paths_removed
            or self.paths_retyped
            or self.exit_codes
        )

    def lines(self) -> list[str]:
        out = [f"{self.key}: {self.old_version} -> {self.new_version}"]
        for label, values in (
            ("event kinds added", self.kinds_added),
            ("event kinds removed", self.kinds_removed),
            ("key paths added", self.paths_added),
            ("key paths removed", self.paths_removed),
            ("key paths retyped", self.paths_retyped),
        ):
            if values:
                out.append(f"  {label} ({len(values)}): {', '.join(values)}")
        if self.exit_codes:
            out.append(f"  exit code {self.exit_codes[0]} -> {self.exit_codes[1]}")
        for line in self.semantic:
            out.append(f"  result {line}")
        if len(out) == 1:
            out.append("  no drift")
        return out


def compare(key: str, old: Recording, new: Recording) -> Drift:
    """The drift and the semantic differences between two recordings of ``key``."""
    drift = Drift(key, old.cli_version or "?", new.cli_version or "?")
    before, after = shape(old.cli, old.run.stdout), shape(new.cli, new.run.stdout)
    drift.kinds_added = sorted(set(after) - set(before))
    drift.kinds_removed = sorted(set(before) - set(after))
    for kind in sorted(set(before) & set(after)):
        old_paths, new_paths = before[kind], after[kind]
        drift.paths_added += [f"{kind} {p}" for p in sorted(set(new_paths) - set(old_paths))]
        drift.paths_removed += [f"{kind} {p}" for p in sorted(set(old_paths) - set(new_paths))]
        for path in sorted(set(old_paths) & set(new_paths)):
            if old_paths[path] != new_paths[path]:
                was, now = "|".join(sorted(old_paths[path])), "|".join(sorted(new_paths[path]))
                drift.paths_retyped.append(f"{kind} {path}: {was} -> {now}")
    if old.run.returncode != new.run.returncode:
        drift.exit_codes = (old.run.returncode, new.run.returncode)
    meant, means = semantics(old), semantics(new)
    for name, value in meant.items():
        if value != means.get(name):
            drift.semantic.append(f"{name}: {value!r} -> {means.get(name)!r}")
    return drift


def compare_folders(old: Path, new: Path) -> tuple[list[Drift], list[str]]:
    """Every scenario recorded in both folders, compared; and the ones only one has."""
    drifts: list[Drift] = []
    alone: list[str] = []
    names = {p.relative_to(old).as_posix() for p in old.glob("*/*.jsonl")}
    names |= {p.relative_to(new).as_posix() for p in new.glob("*/*.jsonl")}
    for name in sorted(names):
        key = name.removesuffix(".jsonl")
        if not (old / name).is_file() or not (new / name).is_file():
            alone.append(f"{key}: only in {'the old' if (old / name).is_file() else 'the new'} set")
            continue
        drifts.append(compare(key, load_recording(old / name), load_recording(new / name)))
    return drifts, alone


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.parity.drift",
        description="Compare two sets of parity recordings: shape drift and result semantics.",
    )
    parser.add_argument("old", type=Path, help="a recordings folder (<cli>/<scenario>.jsonl)")
    parser.add_argument("new", type=Path, help="another one, e.g. written with --record-to")
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 when any result field differs"
    )
    args = parser.parse_args(argv)
    for folder in (args.old, args.new):
        if not folder.is_dir():
            print(f"drift: {folder} is not a folder", file=sys.stderr)
            return 2
    drifts, alone = compare_folders(args.old, args.new)
    for drift in drifts:
        print("\n".join(drift.lines()))
    for line in alone:
        print(line)
    changed = [d for d in drifts if d.shape_changed]
    semantic = [d for d in drifts if d.semantic]
    print(
        f"drift: {len(drifts)} scenario(s) compared; shape changed in {len(changed)}, "
        f"result fields changed in {len(semantic)}"
    )
    return 1 if args.strict and semantic else 0


if __name__ == "__main__":
    sys.exit(main())
