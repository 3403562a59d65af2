"""What the scrubber replaces: names, forms of a value, key shapes, argv, and seams between reads."""

from __future__ import annotations

import asyncio
import base64
import json
import re
import urllib.parse

import pytest

from agentkit.core._internal.secrets import is_secret_name
from agentkit.core.ports import ProcessPort
from agentkit.fakes.cli import CapturingSpawn, CliRun, CliStderr, FakeClaudeCli, FakeCodexCli
from agentkit.fakes.cli._recording._scrub import Scrubber

PIPE = asyncio.subprocess.PIPE


async def _consume(process: ProcessPort, writes: tuple[bytes, ...] = ()) -> None:
    assert process.stdout is not None
    assert process.stderr is not None
    if process.stdin is not None:
        for data in writes:
            process.stdin.write(data)
        process.stdin.close()
    while await process.stderr.read(3):  # small reads: a secret arrives in pieces
        pass
    while await process.stdout.readline():
        pass
    await process.wait()


@pytest.mark.parametrize(
    "name",
    [
        "OPENAI_API_KEY",
        "GH_TOKEN",
        "DB_PASS",
        "MYSQL_PWD",
        "PGPASSWORD",
        "SENTRY_DSN",
        "AUTHORIZATION",
        "x-api-key",
        "apiKey",
        "SLACK_WEBHOOK_URL",
        "SESSION_COOKIE",
    ],
)
def test_names_that_hold_a_secret(name: str) -> None:
    assert is_secret_name(name)


@pytest.mark.parametrize(
    "name",
    ["PWD", "OLDPWD", "MAX_TOKENS", "GIT_AUTHOR_NAME", "BYPASS_CACHE", "KEYBOARD", "PATH"],
)
def test_names_that_do_not(name: str) -> None:
    assert not is_secret_name(name)


SECRET = 'Välue"with\\odd/chars & more-42'


@pytest.mark.parametrize(
    "form",
    [
        SECRET,
        json.dumps(SECRET)[1:-1],
        json.dumps(SECRET, ensure_ascii=False)[1:-1],
        json.dumps(json.dumps(SECRET))[1:-1],
        urllib.parse.quote(SECRET, safe=""),
        urllib.parse.quote(SECRET),
        urllib.parse.quote_plus(SECRET),
        re.sub("%[0-9A-F]{2}", lambda m: m.group(0).lower(), urllib.parse.quote(SECRET, safe="")),
        base64.b64encode(SECRET.encode()).decode(),
        base64.urlsafe_b64encode(SECRET.encode()).decode(),
        base64.b64encode(b"user:" + SECRET.encode()).decode(),
        base64.b64encode(b"ab" + SECRET.encode()).decode(),
        SECRET.encode().hex(),
        SECRET.encode().hex().upper(),
    ],
)
def test_every_form_of_a_known_value_is_replaced(form: str) -> None:
    scrubber = Scrubber(env={"MY_SECRET": SECRET})
    out = scrubber.text(f"before {form} after")
    assert out.startswith("before ")
    assert "[REDACTED]" in out
    # What is left of a base64 form is its edge characters, never a run of the value.
    assert [form[i : i + 8] for i in range(len(form) - 7) if form[i : i + 8] in out] == []


@pytest.mark.parametrize(
    "stored", ["Value-from-a-file\n", '"Value-from-a-file"', " Value-from-a-file "]
)
def test_a_value_stored_with_its_newline_or_quotes_is_found_without_them(stored: str) -> None:
    assert Scrubber(env={"DEPLOY_TOKEN": stored}).text("printed Value-from-a-file;") == (
        "printed [REDACTED];"
    )


@pytest.mark.parametrize(
    ("name", "url", "secret"),
    [
        ("DATABASE_URL", "postgres://app:pg-Pass-1234@db:5432/x", "pg-Pass-1234"),
        ("HTTPS_PROXY", "http://me:pr0xy-pass@proxy:3128", "pr0xy-pass"),
        (
            "SENTRY_DSN",
            "https://0123456789abcdef0123456789abcdef@o1.ingest.io/1",
            "0123456789abcdef0123456789abcdef",
        ),
    ],
)
def test_credentials_inside_urls_are_replaced_wherever_they_show(
    name: str, url: str, secret: str
) -> None:
    scrubber = Scrubber(env={name: url})
    assert secret not in scrubber.text(f"connecting to {url}; pass was {secret}")


@pytest.mark.parametrize(
    "key",
    [
        "ASIA" + "Q" * 12 + "7ABC",
        "AKIA" + "Z" * 16,
        "sk_live_" + "51Hx" * 6,
        "rk_test_" + "51Hx" * 6,
        "glpat-" + "x1Y2" * 5,
        "hf_" + "AbCd" * 9,
        "npm_" + "a1B2" * 9,
        "ghp_" + "R" * 36,
        "github_pat_" + "R1" * 20,
        "sk-ant-api03-" + "k" * 20,
        "sk-proj-" + "T9" * 12,
        "xoxb-1234567890-abcdefghijkl",
        "AIza" + "S" * 35,
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.c2lnbmF0dXJlLXZhbHVl",
        "pypi-AgEIcHlwaS5vcmc" + "x" * 30,
        "SG." + "a" * 22 + "." + "b" * 43,
        "dapi" + "0a" * 16,
    ],
)
def test_key_shapes_are_replaced_without_being_known(key: str) -> None:
    assert Scrubber(env={}).text(f'{{"k": "{key}"}} and {key}.') == (
        '{"k": "[REDACTED]"} and [REDACTED].'
    )


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ('{"password": "plain-Secret-99"}', '{"password": "[REDACTED]"}'),
        ('{\\"api_key\\": \\"Esc4ped-Key-1\\"}', '{\\"api_key\\": \\"[REDACTED]\\"}'),
        ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG", "aws_secret_access_key = [REDACTED]"),
        ("Authorization: Bearer abc.def-123456789", "Authorization: Bearer [REDACTED]"),
        ("X-Api-Key: Q2xlYXJseUFLZXk", "X-Api-Key: [REDACTED]"),
        ("PASSWORD = 'correct horse battery'", "PASSWORD = '[REDACTED]'"),
        # Not secrets: a count, prose after a colon, a variable's name.
        ('{"output_tokens": 12345678}', '{"output_tokens": 12345678}'),
        ("401 Unauthorized: Incorrect API key", "401 Unauthorized: Incorrect API key"),
        ('{"apiKeySource":"ANTHROPIC_API_KEY"}', '{"apiKeySource":"ANTHROPIC_API_KEY"}'),
    ],
)
def test_the_value_after_a_secret_name_is_replaced(text: str, kept: str) -> None:
    assert Scrubber(env={}).text(text) == kept


def test_argv_flags_that_name_a_secret_lose_their_value_whatever_its_length() -> None:
    scrubber = Scrubber(env={})
    argv = ["cli", "--password", "hunter2", "--token=abc", "API_KEY=k", "--max-tokens", "5", "-p"]
    assert scrubber.argv(argv) == (
        "cli",
        "--password",
        "[REDACTED]",
        "--token=[REDACTED]",
        "API_KEY=[REDACTED]",
        "--max-tokens",
        "5",
        "-p",
    )


def test_a_secret_flag_naming_an_environment_variable_keeps_it() -> None:
    """codex's env_key names the variable that holds the key; it is no secret."""
    argv = ["codex", "-c", 'model_providers.p.env_key="P_API_KEY"', "--key-var", "P_API_KEY"]
    assert Scrubber(env={}, argv=argv).argv(argv) == tuple(argv)


def test_a_value_given_under_a_secret_flag_is_known_everywhere() -> None:
    scrubber = Scrubber(env={}, argv=["cli", "--auth-token", "long-Enough-value"])
    assert scrubber.text("echo: long-Enough-value") == "echo: [REDACTED]"


async def test_a_secret_split_across_stderr_reads_and_stdin_writes_is_replaced_on_both_sides(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    secret = "split-Secret-value-0042"
    monkeypatch.setenv("SPLIT_TOKEN", secret)
    run = CliRun.of(
        [
            {"type": "thread.started", "thread_id": "t"},
            CliStderr(f"first half {secret[:9]}".encode()),
            CliStderr(f"{secret[9:]} second half\n".encode()),
            {"type": "turn.completed"},
        ],
        stderr=b"at exit\n",
    )
    capture = CapturingSpawn(FakeCodexCli([run]), cli="codex")
    process = await capture("codex", "exec", stdin=PIPE, stdout=PIPE, stderr=PIPE)
    await _consume(process, writes=(secret[:5].encode(), secret[5:].encode()))
    (recording,) = capture.recordings
    data = recording.dumps().decode()
    for piece in (secret, secret[:9], secret[9:], secret[:5], secret[5:]):
        assert piece not in data, piece
    stderr = b"".join(c for _, c in recording.run.interleaved_stderr) + recording.run.stderr
    assert stderr == b"first half [REDACTED] second half\nat exit\n"
    assert b"".join(recording.stdin_messages) == b"[REDACTED]"


async def test_a_key_split_across_streamed_deltas_is_replaced_in_each_delta() -> None:
    key = "ghp_" + "D" * 36
    deltas = [key[:10], key[10:30], key[30:]]
    events: list[dict[str, object] | CliStderr] = [{"type": "system", "subtype": "init"}]
    for index, piece in enumerate(deltas):
        events.append(
            {
                "type": "stream_event",
                "event": {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {
                        "type": "text_delta",
                        "text": f"{'see ' if index == 0 else ''}{piece}",
                    },
                },
            }
        )
        events.append(CliStderr(f"after delta {index}\n".encode()))
    events.append({"type": "result", "subtype": "success"})
    run = CliRun.of(events)
    capture = CapturingSpawn(FakeClaudeCli([run]), cli="claude")
    process = await capture("claude", "-p", stdout=PIPE, stderr=PIPE)
    assert process.stdout is not None
    assert process.stderr is not None
    while line := await process.stdout.readline():
        if b"stream_event" in line:  # read stderr after each delta line
            await process.stderr.read(100)
    await _consume(process)
    (recording,) = capture.recordings
    data = recording.dumps().decode()
    for piece in deltas:
        assert piece not in data, piece
    texts = [
        json.loads(line)["event"]["delta"]["text"]
        for line in recording.run.stdout.splitlines()
        if b"stream_event" in line
    ]
    assert texts == ["see [REDACTED]", "[REDACTED]", "[REDACTED]"]
    # A stderr chunk placed after a rewritten line still sits at a line's end, not inside it.
    lines = recording.run.stdout.splitlines(keepends=True)
    ends = {sum(len(x) for x in lines[: i + 1]) for i in range(len(lines))}
    assert {offset for offset, _ in recording.run.interleaved_stderr} <= ends
    stderr = b"".join(chunk for _, chunk in recording.run.interleaved_stderr)
    assert stderr == b"after delta 0\nafter delta 1\nafter delta 2\n"


async def test_every_header_field_is_scrubbed() -> None:
    key = "sk-ant-api03-" + "H" * 30
    capture = CapturingSpawn(
        FakeClaudeCli([CliRun.of([{"type": "result"}])]),
        cli="claude",
        source=f"recorded with {key}",
        cli_version=f"2.0 {key}",
    )
    await _consume(await capture("claude", "-p", key, stdout=PIPE, stderr=PIPE, cwd=f"/x/{key}"))
    (recording,) = capture.recordings
    assert key not in recording.dumps().decode()
    assert recording.source == "recorded with [REDACTED]"
