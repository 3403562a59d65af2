"""The real pinned claude and codex binaries against FakeApi, in a loopback-only namespace.

The binaries are the ones the parity suite pins and caches (``tools.parity.binaries``);
they run with the real ``default_spawn`` through the real cognitions. Each CLI runs a
tool loop against a FakeLLM script -- claude's built-in Bash tool, codex's
``exec_command`` -- and the test reads the tool's real output back out of the FakeLLM's
call log; and each CLI gets a scripted 429/529 and retries it, which shows in the call log.

Two layers, because a network namespace is a property of a process:

* the ``TestInsideTheNamespace`` tests run only where ``AGENTKIT_FAKE_API_ISOLATED=1``
  says they are inside one (a named skip elsewhere);
* :func:`test_the_real_binaries_in_a_loopback_only_namespace` re-runs this file with
  pytest inside ``unshare --net`` (``ip link set lo up``; only loopback exists, so
  nothing a CLI does can leave the machine) and requires every inner test to pass. It
  is skipped, by name, where namespaces cannot be made or the binaries are not in the
  parity cache (``uv run python -m tools.parity`` fetches them).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agentkit.agents.cognition import ClaudeCliCognition, CodexCliCognition
from agentkit.core.pricing import ModelPrice, PriceTable
from agentkit.core.types import ToolCall
from agentkit.fakes.api import ApiError, FakeApi
from agentkit.fakes.ctx import make_test_ctx
from agentkit.fakes.llm import FakeLLM, Turn
from tools.parity.binaries import PINNED, cache_dir
from tools.parity.isolation import namespace_prefix

MARKER = "AGENTKIT_FAKE_API_ISOLATED"
CLAUDE_MODEL = "claude-sonnet-4-5-20250929"
CODEX_MODEL = "gpt-5"  # a model codex knows: it offers its tools (exec_command) only then
CODEX_PRICES = PriceTable({CODEX_MODEL: ModelPrice(input=1.25, output=10.0, cached_input=0.125)})
PATH = "/usr/local/bin:/usr/bin:/bin"


def binary(cli: str) -> Path:
    return PINNED[cli].cached_path(cache_dir())


inside = pytest.mark.skipif(
    os.environ.get(MARKER) != "1",
    reason="real binaries run only inside the loopback-only namespace "
    "(test_the_real_binaries_in_a_loopback_only_namespace starts it)",
)


def claude(
    api: FakeApi, home: Path, *, without: tuple[str, ...] = (), **env: str
) -> ClaudeCliCognition:
    project = home / "project"
    project.mkdir(parents=True, exist_ok=True)
    full = {"PATH": PATH, "HOME": str(home), **api.env, **env}
    for name in without:
        del full[name]
    return ClaudeCliCognition(
        model=CLAUDE_MODEL,
        executable=str(binary("claude")),
        cwd=str(project),
        env=full,
        extra_args=("--allowedTools", "Bash"),
        timeout=120,
    )


def codex(api: FakeApi, home: Path, *, retries: int = 0) -> CodexCliCognition:
    project = home / "project"
    project.mkdir(parents=True, exist_ok=True)
    (home / ".codex").mkdir(parents=True, exist_ok=True)
    return CodexCliCognition(
        model=CODEX_MODEL,
        executable=str(binary("codex")),
        cwd=str(project),
        env={"PATH": PATH, "HOME": str(home), "CODEX_HOME": str(home / ".codex"), **api.env},
        extra_args=(*api.codex_args(retries=retries), "--skip-git-repo-check"),
        pricing=CODEX_PRICES,
        timeout=120,
    )


@inside
@pytest.mark.agentkit(real_processes=True)
class TestInsideTheNamespace:
    async def test_claude_runs_its_bash_tool_for_the_script(
        self, fake_api: FakeApi, tmp_path: Path
    ) -> None:
        command = "echo agentkit-$((6 * 7))"
        llm = FakeLLM.script(
            [
                Turn(
                    "Running it.",
                    tool_calls=[
                        ToolCall("toolu_01", "Bash", {"command": command, "description": "run"})
                    ],
                ),
                Turn("The command printed agentkit-42."),
            ]
        )
        fake_api.serve(llm)

        result = await claude(fake_api, tmp_path).drive(make_test_ctx(), "Run the command.")

        assert result.error is None, result.error
        assert result.text == "The command printed agentkit-42."
        (tool_message,) = [m for m in list(llm.calls[1].messages) if m.role == "tool"]
        assert tool_message.tool_call_id == "toolu_01"
        assert tool_message.name == "Bash"
        assert tool_message.content.startswith("agentkit-42")  # the shell really computed it
        assert [r.route for r in fake_api.requests] == ["/v1/messages", "/v1/messages"]

    async def test_claude_retries_a_scripted_529(self, fake_api: FakeApi, tmp_path: Path) -> None:
        llm = FakeLLM.script(
            [Turn("Answered after the retry.")],
            fail_times=1,
            fail_exc=ApiError(529, "Overloaded", retry_after=0.001),
        )
        fake_api.serve(llm)

        cognition = claude(fake_api, tmp_path, CLAUDE_CODE_MAX_RETRIES="1")
        result = await cognition.drive(make_test_ctx(), "Hello?")

        assert result.error is None, result.error
        assert result.text == "Answered after the retry."
        assert len(llm.calls) == 2  # the CLI's own retry reached the model
        assert list(llm.calls[0].messages) == list(llm.calls[1].messages)
        assert [r.status for r in fake_api.requests] == [529, 200]

    async def test_claudes_own_side_requests_stay_out_of_the_script(
        self, fake_api: FakeApi, tmp_path: Path
    ) -> None:
        # Without CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC claude probes its API first
        # (HEAD /api/hello): the server answers it itself, and the script sees one turn.
        llm = FakeLLM.script([Turn("Hello.")])
        fake_api.serve(llm)

        cognition = claude(
            fake_api, tmp_path, without=("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",)
        )
        result = await cognition.drive(make_test_ctx(), "Say hello.")

        assert result.error is None, result.error
        assert result.text == "Hello."
        side = [(r.method, r.route, r.status) for r in fake_api.requests if r.side]
        assert ("HEAD", "/api/hello", 200) in side
        assert [r.route for r in fake_api.requests if not r.side] == ["/v1/messages"]
        assert len(llm.calls) == 1
        assert fake_api.violations() == []

    async def test_codex_runs_a_shell_command_for_the_script(
        self, fake_api: FakeApi, tmp_path: Path
    ) -> None:
        llm = FakeLLM.script(
            [
                Turn(tool_calls=[ToolCall("call_01", "exec_command", {"cmd": "echo $((6 * 7))"})]),
                Turn("It printed 42."),
            ]
        )
        fake_api.serve(llm)

        result = await codex(fake_api, tmp_path).drive(make_test_ctx(), "Compute it.")

        assert result.error is None, result.error
        assert result.text == "It printed 42."
        assert "exec_command" in [t.name for t in list(llm.calls[0].tools or ()) or []]
        tool_message = list(llm.calls[1].messages)[-1]
        assert tool_message.role == "tool"
        assert tool_message.tool_call_id == "call_01"
        assert "42" in tool_message.content  # the shell really computed it
        assert "$((" not in tool_message.content

    async def test_codex_retries_a_scripted_429(self, fake_api: FakeApi, tmp_path: Path) -> None:
        # codex 0.163 fails the turn on a 429 STATUS at once; a rate limit reported in the
        # stream (response.failed, code rate_limit_exceeded) is what it retries.
        llm = FakeLLM.script(
            [Turn("Answered after the retry.")],
            fail_times=1,
            fail_exc=ApiError(
                429, "Rate limit reached. Please try again in 0.01s.", in_stream=True
            ),
        )
        fake_api.serve(llm)

        result = await codex(fake_api, tmp_path, retries=1).drive(make_test_ctx(), "Hello?")

        assert result.error is None, result.error
        assert result.text == "Answered after the retry."
        assert len(llm.calls) == 2  # the CLI's own retry reached the model
        assert [r.status for r in fake_api.requests_to("/v1/responses")] == [200, 200]


@pytest.mark.slow
def test_the_real_binaries_in_a_loopback_only_namespace(tmp_path: Path) -> None:
    if os.environ.get(MARKER) == "1":
        pytest.skip("already inside the namespace: the tests above are the real run")
    missing = [cli for cli in PINNED if not binary(cli).is_file()]
    if missing:
        pytest.skip(
            f"real binaries: {', '.join(missing)} not in the parity cache {cache_dir()} "
            "(`uv run python -m tools.parity` fetches the pinned releases)"
        )
    prefix, why = namespace_prefix()
    if prefix is None:
        pytest.skip(f"real binaries: no loopback-only network namespace here ({why})")
    env = {**os.environ, MARKER: "1"}
    done = subprocess.run(
        [
            *prefix,
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            f"--basetemp={tmp_path / 'inner'}",
            __file__,
        ],
        env=env,
        cwd=Path(__file__).resolve().parents[3],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    tail = "\n".join(done.stdout.splitlines()[-30:])
    assert done.returncode == 0, f"{tail}\n{done.stderr[-2000:]}"
    inner = [name for name in vars(TestInsideTheNamespace) if name.startswith("test_")]
    assert f"{len(inner)} passed" in done.stdout, tail
