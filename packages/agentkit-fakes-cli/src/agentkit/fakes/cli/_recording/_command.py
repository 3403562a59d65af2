"""``python -m agentkit.fakes.cli``: record a real CLI run, show a recording, scan for secrets.

``record claude|codex [--out FILE] -- ARGS...`` runs the real CLI with ARGS
through :class:`~agentkit.fakes.cli.CapturingSpawn` around a plain asyncio
spawn and writes the (scrubbed) recording; the CLI's stdout is passed
through to this command's stdout as it arrives, so a person sees the run
they are recording. Anything piped to this command's stdin is written to
the CLI's stdin (one write per line, then closed), which is how a
``--input-format stream-json`` session is recorded.

``show FILE`` prints a recording as a transcript (see
:mod:`agentkit.fakes.cli._recording._transcript`; each stdout object is read
by the cognitions' own event types, so it needs agentkit-agents installed,
and says so without it); FILE may also be the name of a
shipped recording (``show text-answer``, or ``show claude/text-answer`` for a
name both CLIs ship), and a plain stdout ``.jsonl`` is shown too, without a
command line or exit code (it recorded neither).

``scan FILE...`` runs the gate :func:`~agentkit.fakes.cli.save_recording`
runs before it writes (:mod:`agentkit.fakes.cli._recording._gate`) over files already
written, and exits 1 if anything in them is still shaped like a secret --
for pre-commit and CI. It prints where and what, never the value.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Literal, cast

from agentkit.fakes.cli._recording._capture import CapturingSpawn
from agentkit.fakes.cli._recording._errors import RecordingError
from agentkit.fakes.cli._recording._files import save_recording
from agentkit.fakes.cli._recording._format import KNOWN_CLIS, Recording
from agentkit.fakes.cli._recording._parse import parse_file
from agentkit.fakes.cli._recording._transcript import TranscriptUnavailable, transcript
from agentkit.fakes.cli._run import CliRun

__all__ = ["main"]

_VERSION = re.compile(r"\d+\.\d+\.\d+[\w.\-+]*")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m agentkit.fakes.cli",
        description="Record a real claude/codex run, or show a recording as a transcript.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    record = commands.add_parser(
        "record",
        help="run the real CLI and write a recording",
        description="Run the real CLI with ARGS and write a scrubbed recording of the spawn.",
        usage="%(prog)s [options] {claude,codex} -- ARGS...",
    )
    record.add_argument("cli", choices=KNOWN_CLIS)
    record.add_argument("--out", type=Path, help="file to write (default: <cli>-<UTC time>.jsonl)")
    record.add_argument("--executable", help="the CLI binary (default: the CLI's name on PATH)")
    record.add_argument(
        "--scrub", action="append", default=[], metavar="REGEX", help="another secret pattern"
    )
    record.add_argument("--source", default="", help="how the recording was made (stored in it)")
    record.add_argument("--cli-version", help="the CLI's version (default: asks `CLI --version`)")
    record.add_argument("--timeout", type=float, default=600.0, help="seconds (default 600)")
    record.add_argument(
        "--allow-secrets",
        action="store_true",
        help="write even if something in the recording is still shaped like a secret",
    )
    show = commands.add_parser(
        "show",
        help="print a recording as a transcript",
        description="Print a recording as a transcript, each stdout event read by the "
        "cognitions' own event types (agentkit-agents must be installed).",
    )
    show.add_argument(
        "file", type=Path, help="a recording file, or the name of a shipped one (text-answer)"
    )
    show.add_argument(
        "--cli",
        choices=KNOWN_CLIS,
        help="which CLI: for a plain stdout file, or a shipped name both CLIs have",
    )
    scan = commands.add_parser(
        "scan",
        help="exit 1 if a file holds anything shaped like a secret",
        description="Scan files for anything still shaped like a secret (the gate save runs).",
    )
    scan.add_argument(
        "files", type=Path, nargs="+", metavar="FILE", help="a file, or a folder of *.jsonl files"
    )
    return parser


async def _version(executable: str) -> str | None:
    try:
        process = await asyncio.create_subprocess_exec(
            executable,
            "--version",
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return None
    try:
        out, _ = await asyncio.wait_for(process.communicate(), 15)
    except TimeoutError:
        process.kill()
        await process.wait()
        return None
    found = _VERSION.search(out.decode("utf-8", "replace"))
    return found.group(0) if found else None


async def _record(args: argparse.Namespace, cli_args: list[str]) -> int:
    cli = cast(Literal["claude", "codex"], args.cli)
    executable = args.executable or shutil.which(cli)
    if executable is None:
        print(f"record: no {cli!r} on PATH; pass --executable", file=sys.stderr)
        return 2
    patterns = []
    for pattern in args.scrub:
        try:
            patterns.append(re.compile(pattern))
        except re.error as exc:
            print(
                f"record: --scrub {pattern!r} is not a regular expression: {exc}", file=sys.stderr
            )
            return 2
    version = args.cli_version or await _version(executable)
    source = args.source or f"python -m agentkit.fakes.cli record {cli}"
    capture = CapturingSpawn(
        asyncio.create_subprocess_exec,
        cli=cli,
        scrub=patterns,
        source=source,
        cli_version=version,
    )
    feed = None if sys.stdin is None or sys.stdin.isatty() else sys.stdin.buffer.read()
    process = await capture(
        executable,
        *cli_args,
        stdin=subprocess.PIPE if feed is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        limit=1 << 24,
    )
    assert process.stdout is not None
    assert process.stderr is not None
    stdout, stderr = process.stdout, process.stderr

    async def drain_stderr() -> None:
        while await stderr.read(1 << 16):
            pass

    async def run() -> int:
        if process.stdin is not None and feed is not None:
            for line in feed.splitlines(keepends=True):
                process.stdin.write(line)
                with contextlib.suppress(ConnectionError):
                    await process.stdin.drain()
            process.stdin.close()
        errors = asyncio.ensure_future(drain_stderr())
        while chunk := await stdout.read(1 << 16):
            sys.stdout.buffer.write(chunk)
            sys.stdout.flush()
        await errors
        return await process.wait()

    try:
        code = await asyncio.wait_for(run(), args.timeout)
    except TimeoutError:
        process.terminate()
        try:
            code = await asyncio.wait_for(process.wait(), 5)
        except TimeoutError:
            process.kill()
            code = await process.wait()
        print(f"record: the CLI did not finish within {args.timeout:g} s", file=sys.stderr)
    (recording,) = capture.recordings
    out = args.out or Path(
        f"{cli}-{datetime.datetime.now(datetime.UTC).strftime('%Y%m%dT%H%M%SZ')}.jsonl"
    )
    try:
        save_recording(recording, out, allow_secrets=args.allow_secrets)
    except RecordingError as exc:
        print(f"record: not written: {exc}", file=sys.stderr)
        print(
            "record: add --scrub REGEX for each, or --allow-secrets if none is a secret",
            file=sys.stderr,
        )
        return 1
    print(f"record: wrote {out} ({cli} exit code {code})", file=sys.stderr)
    return 0


def _guess_cli(data: bytes) -> Literal["claude", "codex"]:
    for line in data.splitlines():
        try:
            kind = json.loads(line).get("type")
        except (ValueError, AttributeError, RecursionError):
            continue
        if isinstance(kind, str) and kind.startswith(("thread.", "turn.", "item.")):
            return "codex"
    return "claude"


def _shipped(name: Path, cli: str | None) -> Path | None:
    """The shipped recording a ``name`` or ``cli/name`` that is no file here stands for."""
    from agentkit.fakes.cli._library import recording_names, recording_path

    parts = name.parts
    if name.exists() or len(parts) > 2 or (len(parts) == 2 and parts[0] not in KNOWN_CLIS):
        return None
    if len(parts) == 2:
        cli = parts[0]
    having = [c for c in ([cli] if cli else KNOWN_CLIS) if parts[-1] in recording_names(c)]
    if len(having) > 1:
        raise RecordingError(
            str(name),
            0,
            f"a shipped recording of both {' and '.join(having)}: "
            + " or ".join(f"show {c}/{parts[-1]}" for c in having),
        )
    return recording_path(having[0], parts[-1]) if having else None


def _problem(exc: RecordingError | OSError, path: Path) -> str:
    """One ``show: FILE[:LINE]: problem`` line (the file reader's own prefix dropped)."""
    if isinstance(exc, OSError):
        return f"show: {path}: {exc.strerror or exc}"
    where = f"{exc.source}:{exc.line}" if exc.line else exc.source
    problem = exc.problem.removeprefix("show: ")
    if exc.line == 0 and "no such file" in problem and len(path.parts) <= 2:
        from agentkit.fakes.cli._library import recording_names

        shipped = "; ".join(f"{c}: {', '.join(recording_names(c))}" for c in KNOWN_CLIS)
        problem += f"; nor the name of a shipped recording ({shipped})"
    return f"show: {where}: {problem}"


def _show(args: argparse.Namespace) -> int:
    path: Path = args.file
    try:
        from agentkit.fakes.cli._recording._files import read_recording_file

        path = _shipped(path, args.cli) or path
        data = read_recording_file("show", path)
        recording = parse_file(data, source=str(path))
        if recording is None:
            # A plain stdout file: no command line was recorded, so none is shown.
            cli = args.cli or _guess_cli(data)
            recording = Recording(cli=cli, argv=(), run=CliRun(stdout=data))
    except (RecordingError, OSError) as exc:
        print(_problem(exc, path), file=sys.stderr)
        return 1
    try:
        text = transcript(recording)
    except TranscriptUnavailable as exc:
        print(f"show: {path}: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


def _scan(args: argparse.Namespace) -> int:
    from agentkit.fakes.cli._recording._files import read_recording_file
    from agentkit.fakes.cli._recording._gate import find_secrets

    status = 0
    total = 0
    # A folder stands for the recordings under it, so CI can name one folder.
    paths = [
        found
        for given in args.files
        for found in (sorted(given.rglob("*.jsonl")) if given.is_dir() else [given])
    ]
    for path in paths:
        try:
            data = read_recording_file("scan", path)
        except RecordingError as exc:
            print(f"scan: {exc}", file=sys.stderr)
            status = 1
            continue
        for finding in find_secrets(data):
            print(f"{path}:{finding.line}: {finding.where}: {finding.kind}")
            total += 1
            status = 1
    print(f"scan: {len(paths)} file(s), {total} finding(s)", file=sys.stderr)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    given = list(sys.argv[1:] if argv is None else argv)
    # Everything after "--" is the CLI's, even what looks like one of ours (--model, -p).
    cli_args: list[str] = []
    if "--" in given:
        split = given.index("--")
        given, cli_args = given[:split], given[split + 1 :]
    args = _parser().parse_args(given)
    if args.command == "record":
        return asyncio.run(_record(args, cli_args))
    if args.command == "scan":
        return _scan(args)
    return _show(args)
