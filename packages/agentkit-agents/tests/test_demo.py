"""``python -m agentkit.agents.demo``: the scripted run, through the real loop, printed."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from agentkit.agents import demo


def run_main() -> str:
    out = io.StringIO()
    assert demo.main([], out=out) == 0
    return out.getvalue()


def test_main_prints_the_transcript_spans_and_usage_of_a_real_run() -> None:
    text = run_main()
    lines = text.splitlines()
    assert lines[0] == "stop_reason: final after 2 iterations"
    assert "answer: It is 18°C and sunny in Paris." in lines
    transcript = lines[lines.index("transcript:") + 1 : lines.index("spans:") - 1]
    assert transcript == [
        "  user: What is the weather in Paris?",
        "  assistant: -> get_weather({'city': 'Paris'}) id=call_1",
        '  tool[get_weather call_1]: {"city": "Paris", "temp_c": 18, "sky": "sunny"}',
        "  assistant: It is 18°C and sunny in Paris.",
    ]
    tree = lines[lines.index("spans:") + 1 : lines.index("usage:") - 1]
    assert [line.split(" [")[0] for line in tree] == [
        "  react.run",
        "    react.step",
        "      request_builder.build",
        "      react.model",
        "      react.tool",
        "    react.step",
        "      request_builder.build",
        "      react.model",
    ]
    assert text.count("agentkit.prompt.version='demo-v1'") == 2
    assert "tool.outcome='ok'" in text
    # the cost is the Invoker's pricing of each terminal delta's usage at the demo prices
    expected = (120 * 3.0 + 18 * 15.0 + 60 * 3.0 + 120 * 0.3 + 12 * 15.0) / 1_000_000
    assert f"  cost: ${expected:.6f} (demo-model at made-up demo prices)" in lines
    assert "  llm calls: 2" in lines
    assert "  input tokens: 180 (+120 cached)" in lines
    assert "  output tokens: 30" in lines
    assert "  total tokens: 330" in lines
    assert "  meter agrees: True" in lines


def test_the_demo_run_itself_charged_the_meter() -> None:
    import asyncio

    run = asyncio.run(demo.run_demo())
    assert run.result.stop_reason == "final"
    assert [(span.depth, span.name) for span in run.spans][:3] == [
        (0, "react.run"),
        (1, "react.step"),
        (2, "request_builder.build"),
    ]
    assert run.meter.calls == 2
    assert run.meter.cost_usd == pytest.approx(run.result.cost_usd)
    assert run.meter.by_model == {demo.DEMO_MODEL: run.result.usage}


def test_without_the_doubles_it_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "agentkit.fakes.llm", None)  # import now raises ImportError
    out = io.StringIO()
    assert demo.main([], out=out) == 2
    assert out.getvalue() == ""
    err = capsys.readouterr().err
    assert "agentkit demo: the demo runs on agentkit's test doubles" in err
    assert "install agentkit-testing" in err


def test_arguments_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert demo.main(["--fast"]) == 2
    assert "takes no arguments" in capsys.readouterr().err


def test_it_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "agentkit.agents.demo"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("stop_reason: final after 2 iterations")
