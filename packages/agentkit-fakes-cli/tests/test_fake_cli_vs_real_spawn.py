"""The same run through a REAL child and through FakeClaudeCli gives the same result.

The real child is a python script that writes a CliRun's bytes exactly --
stdout, the interleaved stderr chunks at their offsets, the stderr lump,
the exit code -- (for a session: each turn after its user message arrives on
stdin), spawned through the real ``asyncio.create_subprocess_exec``. The
real ClaudeCliCognition reads both; everything it reports must match.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from agentkit.agents.cognition import ClaudeCliCognition, CliResult, default_spawn
from agentkit.agents.cognition.claude.events import ClaudeEvent
from agentkit.core.runtime import RunContext
from agentkit.fakes.cli import CliRun, CliStderr, FakeClaudeCli
from tests.support.cli import recording

# Every test here spawns a real python child next to the double.
pytestmark = pytest.mark.agentkit(real_processes=True)


_ONE_SHOT = """\
#!{python}
import json, sys
spec = json.load(open({spec!r}))
out, err = sys.stdout.buffer, sys.stderr.buffer
stdout = bytes.fromhex(spec["stdout"])
pos = 0
for offset, chunk in spec["interleaved"]:
    out.write(stdout[pos:offset]); out.flush(); pos = offset
    err.write(bytes.fromhex(chunk)); err.flush()
out.write(stdout[pos:]); out.flush()
err.write(bytes.fromhex(spec["stderr"])); err.flush()
sys.exit(spec["returncode"])
"""

_SESSION = """\
#!{python}
import json, sys
spec = json.load(open({spec!r}))
lines = bytes.fromhex(spec["stdout"]).splitlines(keepends=True)
out = sys.stdout.buffer
for raw in sys.stdin.buffer:
    if json.loads(raw).get("type") != "user":
        continue
    while lines:
        line = lines.pop(0)
        out.write(line); out.flush()
        if json.loads(line).get("type") == "result":
            break
out.write(b"".join(lines)); out.flush()
sys.exit(spec["returncode"])
"""


def _script(tmp_path: Path, run: CliRun, template: str) -> Path:
    spec = tmp_path / "spec.json"
    spec.write_text(
        json.dumps(
            {
                "stdout": run.stdout.hex(),
                "stderr": run.stderr.hex(),
                "returncode": run.returncode,
                "interleaved": [[o, c.hex()] for o, c in run.interleaved_stderr],
            }
        )
    )
    script = tmp_path / "claude"
    script.write_text(template.format(python=sys.executable, spec=str(spec)))
    script.chmod(0o755)
    return script


def _comparable(result: CliResult[ClaudeEvent]) -> tuple[object, ...]:
    error = result.error
    return (
        result.text,
        result.usage,
        result.cost_usd,
        result.stop_reason,
        result.session_id,
        result.events,
        result.model,
        result.returncode,
        result.stderr,
        result.skipped,
        None if error is None else (error.code, error.message, error.stderr, error.returncode),
    )


RUNS = {
    "text-success": recording("claude", "claude-2.1.332-text-success").run,
    "max-turns-ish with stderr mid-run": CliRun.of(
        [
            {"type": "system", "subtype": "init", "session_id": "s", "model": "m"},
            CliStderr(b"warning: one\n"),
            "[SandboxDebug] noise\n",
            "\n",
            {
                "type": "result",
                "subtype": "error_max_turns",
                "is_error": True,
                "errors": ["Reached maximum number of turns (1)"],
                "session_id": "s",
                "usage": {"input_tokens": 3, "output_tokens": 4},
                "total_cost_usd": 0.5,
            },
            CliStderr(b"warning: two\n"),
        ],
        stderr=b"bye\n",
        returncode=1,
    ),
    "truncated": CliRun.of(
        [{"type": "system", "subtype": "init", "session_id": "s"}, '{"type":"resu'],
        returncode=0,
    ),
}


@pytest.mark.parametrize("name", sorted(RUNS))
async def test_a_one_shot_run_reads_the_same_real_or_fake(name: str, tmp_path: Path) -> None:
    run = RUNS[name]
    script = _script(tmp_path, run, _ONE_SHOT)
    real = await asyncio.wait_for(
        ClaudeCliCognition(default_spawn, executable=str(script), timeout=60).drive(
            RunContext(), "hi"
        ),
        90,
    )
    fake_cli = FakeClaudeCli([run])
    fake = await asyncio.wait_for(
        ClaudeCliCognition(fake_cli, executable=str(script), timeout=60).drive(RunContext(), "hi"),
        30,
    )
    assert _comparable(fake) == _comparable(real)
    assert fake_cli.invocations[0].argv[0] == str(script)


async def test_a_session_reads_the_same_real_or_fake(tmp_path: Path) -> None:
    run = recording("claude", "claude-2.1.332-stream-json-input-two-turns").run
    script = _script(tmp_path, run, _SESSION)

    async def turns(cognition: ClaudeCliCognition) -> list[tuple[object, ...]]:
        out = []
        async with cognition.session(RunContext()) as session:
            for prompt in ("First question?", "Second question?"):
                out.append(_comparable(await session.turn(prompt)))
        assert session.returncode == 0
        return out

    real = await asyncio.wait_for(
        turns(ClaudeCliCognition(default_spawn, executable=str(script), timeout=60)), 90
    )
    fake = await asyncio.wait_for(
        turns(ClaudeCliCognition(FakeClaudeCli([run]), executable=str(script), timeout=60)), 30
    )
    assert fake == real
