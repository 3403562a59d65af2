"""The SpawnPort contract suite on the real default_spawn AND the CLI doubles, over one recording.

The suite (:mod:`agentkit.core.testing.contracts`, the one a user runs on
their own spawn wrapper) checks the process seam itself: readers on piped
streams, stdout line by line then EOF, EOF before the exit code, stderr after
stdout, terminate/kill after exit harmless. Here the real side spawns a real
Python child writing a recorded session's bytes; the doubles replay the same
bytes. The whole-cognition comparisons over every recording live in
test_contract_spawn_claude.py / test_contract_spawn_codex.py.
"""

from __future__ import annotations

import pytest

from agentkit.agents.cognition import default_spawn
from agentkit.core.testing.contracts import check_spawn_port
from agentkit.fakes.cli import CliRun, FakeClaudeCli, FakeCodexCli
from tests.support.cli import recording

CLAUDE = recording("claude", "claude-2.1.332-text-success").run.stdout
CODEX = recording("codex", "codex-0.163.0-message-success").run.stdout
STDERR = b"Warning: a diagnostic the cognition reads last\n"


@pytest.mark.agentkit(real_processes=True)
@pytest.mark.parametrize("recording", [CLAUDE, CODEX], ids=["claude", "codex"])
@pytest.mark.parametrize("code", [0, 1])
async def test_default_spawn_passes_on_a_real_child(recording: bytes, code: int) -> None:
    # Every rule, none skipped: default_spawn's process waits for stdout EOF even once
    # the child has exited, and ignores signals after the exit, as the doubles do.
    skipped = await check_spawn_port(
        lambda: default_spawn, stdout=recording, stderr=STDERR, returncode=code
    )
    assert skipped == []


@pytest.mark.parametrize(
    ("cli", "recording"), [(FakeClaudeCli, CLAUDE), (FakeCodexCli, CODEX)], ids=["claude", "codex"]
)
@pytest.mark.parametrize("code", [0, 1])
async def test_the_cli_doubles_pass_on_the_same_bytes(
    cli: type[FakeClaudeCli], recording: bytes, code: int
) -> None:
    def make() -> FakeClaudeCli:
        return cli([CliRun(stdout=recording, stderr=STDERR, returncode=code)])

    skipped = await check_spawn_port(make, stdout=recording, stderr=STDERR, returncode=code)
    assert skipped == []
