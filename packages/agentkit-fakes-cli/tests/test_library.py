"""The recordings shipped in agentkit-fakes-cli load by name."""

from __future__ import annotations

from pathlib import Path

import pytest

import agentkit.fakes.cli._library as library
from agentkit.core._internal.arguments import ArgumentTypeError, ArgumentValueError
from agentkit.fakes.cli import (
    CliRun,
    FakeClaudeCli,
    FakeCodexCli,
    Recording,
    load_recording,
    recording_names,
    save_recording,
)

SHIPPED = Path(library.__file__).parent / "recordings"


@pytest.mark.parametrize("cli", ["claude", "codex"])
def test_the_names_are_the_files_in_the_cli_folder(cli: str) -> None:
    on_disk = sorted(p.stem for p in (SHIPPED / cli).glob("*.jsonl"))
    assert recording_names(cli) == tuple(on_disk)


@pytest.mark.parametrize(
    ("double", "name"),
    [(FakeClaudeCli, n) for n in recording_names("claude")]
    + [(FakeCodexCli, n) for n in recording_names("codex")],
)
def test_every_shipped_recording_loads_by_name_with_its_origin(
    double: type[FakeClaudeCli | FakeCodexCli], name: str
) -> None:
    cli = double.recorded(name, verify=False)
    recording = load_recording(SHIPPED / double._cli_name / f"{name}.jsonl")
    assert recording.cli == double._cli_name
    assert cli.runs == (recording.run,)
    assert recording.cli_version  # made from a pinned binary, and says which
    assert recording.source  # and how


def test_a_recording_the_user_adds_loads_and_several_names_are_several_spawns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(library, "LIBRARY", tmp_path)
    run = CliRun(stdout=b'{"type":"result"}\n', returncode=3)
    save_recording(Recording(cli="codex", argv=("codex",), run=run), tmp_path / "codex" / "x.jsonl")
    assert recording_names("codex") == ("x",)
    assert recording_names("claude") == ()
    cli = FakeCodexCli.recorded("x", "x", verify=False)
    assert cli.runs == (run, run)


def test_an_unknown_name_lists_the_known_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(library, "LIBRARY", tmp_path)
    save_recording(Recording(cli="claude", argv=("claude",)), tmp_path / "claude" / "a.jsonl")
    save_recording(Recording(cli="claude", argv=("claude",)), tmp_path / "claude" / "b.jsonl")
    with pytest.raises(ArgumentValueError) as caught:
        FakeClaudeCli.recorded("text-answr")
    assert caught.value.argument == "name"
    assert "one of the shipped claude recordings (a, b)" in str(caught.value)
    with pytest.raises(ArgumentValueError, match="none are installed"):
        FakeCodexCli.recorded("a")
    with pytest.raises(ArgumentTypeError, match="name must be the name of a shipped"):
        FakeClaudeCli.recorded(None)  # type: ignore[arg-type]
    with pytest.raises(ArgumentValueError, match="cli must be one of"):
        recording_names("gemini")


@pytest.mark.parametrize(
    ("cli", "name"),
    [("claude", n) for n in recording_names("claude")]
    + [("codex", n) for n in recording_names("codex")],
)
def test_every_shipped_recording_reads_as_a_transcript(cli: str, name: str) -> None:
    from agentkit.fakes.cli._recording._transcript import transcript

    recording = load_recording(SHIPPED / cli / f"{name}.jsonl")
    text = transcript(recording)
    assert text.startswith(f"{cli} {recording.cli_version}")
    assert text.endswith(f"exit code {recording.run.returncode}\n")
    ends = ("result ",) if cli == "claude" else ("turn completed", "turn failed")
    if not recording.run.stdout:  # a CLI that refused before any turn: stderr and exit code only
        assert recording.run.returncode != 0
        return
    assert any(line.startswith(ends) for line in text.splitlines()), text
