"""tools/hardening/plant_secrets (the second planted-secret attack), held as a regression test.

The attack plants 486 secrets the first one did not: values handed only in
the spawn's ``env=`` under names of any casing and suffix, in every encoding
a CLI or a tool it runs writes (Go's JSON escapes, partial URL-encoding,
JSON three levels deep, HTML entities, base64url at each alignment); key
shapes of 30 more providers; credentials known only by the name next to
them (an ``Authorization: Token`` header, the second cookie of a Cookie
header, ``psql --password VALUE``, ``curl -u user:pass``, a quoted TOML
name, an XML element, a netrc line); and secrets split across three reads,
writes and deltas. It searches the saved file's bytes and a decoded view of
them independently of the scrubber. Here each part is also pinned on its
own, without a process, so a regression names what broke.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agentkit.core._internal.secrets import MIN_SECRET, is_secret_name
from agentkit.fakes.cli import find_secrets
from agentkit.fakes.cli._recording._scrub import Scrubber
from tools.hardening import plant_secrets as attack

pytestmark = pytest.mark.agentkit(real_processes=True)


@pytest.mark.parametrize("spawn", ["default_spawn", "asyncio"])
async def test_no_secret_planted_by_the_second_attack_reaches_the_file(
    spawn: str, tmp_path: Path
) -> None:
    outcome = await attack.attack(spawn, tmp_path)
    assert outcome.leaks == []
    assert outcome.refused == []  # the scrubbed recording passes the gate
    # What no scanner can know is planted too, and stays: the attack can see a leak.
    assert sorted(outcome.unknowable_kept) == ["TINY_SECRET", "org id"]


@pytest.mark.parametrize("encoding", sorted(attack.ENCODINGS))
@pytest.mark.parametrize(
    "value", ['Välue"with\\odd/chars & <more>-42', "a b/c+d=e&f?g-1234", "plainValue-12345"]
)
def test_a_known_value_is_replaced_in_every_encoding(encoding: str, value: str) -> None:
    encoded = attack.ENCODINGS[encoding](value)
    scrubbed = Scrubber(env={"SOME_API_TOKEN": value}).text(f"[{encoded}]")
    assert encoded not in scrubbed
    assert "[REDACTED]" in scrubbed


@pytest.mark.parametrize("kind", sorted(attack.SHAPED))
def test_key_shapes_of_more_providers_are_replaced(kind: str) -> None:
    key = attack.SHAPED[kind]
    scrubbed = Scrubber(env={}).text(f'{{"config": "{key}"}} {key}\n')
    assert key not in scrubbed
    assert attack.PUTTY_PRIVATE not in scrubbed


@pytest.mark.parametrize(
    "text",
    [
        "> Authorization: Token {v}",
        "Authorization: AWS4-HMAC-SHA256 Credential=x/y, SignedHeaders=host, Signature={v}",
        '-H "authorization: Digest {v}"',
        "Cookie: theme=dark; lang=en; sessionid={v}; x=1",
        "psql --password {v} -h db",
        "curl -u admin:{v} https://example.test",
        '"X-Api-Key" = "{v}"',
        '\\"X-Api-Key\\" = \\"{v}\\"',
        "<settings><password>{v}</password></settings>",
        "machine api.example.test login me password {v}",
        'password: \\"{v}\\"',
        "{deep}",
    ],
)
def test_a_value_known_only_by_the_name_next_to_it_is_replaced(text: str) -> None:
    value = "Ctx9value-k3y4"
    deep = '\\\\\\"client_secret\\\\\\": \\\\\\"' + value + '\\\\\\"'  # JSON in JSON in JSON
    line = text.format(v=value, deep=deep)
    assert value not in Scrubber(env={}).text(line)


@pytest.mark.parametrize(
    "name", ["my_app_secret_key", "APP_SIGNINGKEY", "ENCRYPTION_KEYS", "MasterKey", "SSH_KEY"]
)
def test_names_ending_in_key_or_keys_hold_a_secret(name: str) -> None:
    assert is_secret_name(name)


@pytest.mark.parametrize(
    "text",
    [
        "commit 3f2a9c1e7b4d5a6f8e9d0c1b2a3f4e5d6c7b8a9f",
        "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        '{"session_id":"0b7e2c4a-5f1d-4e8b-9a3c-2d6f8e1b7c4a","uuid":"6f1e2d3c-4b5a-4978-8e6d-5c4b3a2f1e0d"}',
        '{"type":"thinking","signature":"EqQBCkgIBxABGAIiQKx3hZyF0mPq9vR2sT4uW6yA8bC0dE2fG4hI6jK8lM0n"}',
        '{"usage":{"input_tokens":12345678,"output_tokens":87654321,"cache_read_input_tokens":4096}}',
        '{"apiKeySource":"ANTHROPIC_API_KEY","cwd":"/tmp/work","permissionMode":"default"}',
        "claude --max-tokens 4096 --session-id 0b7e2c4a-5f1d-4e8b-9a3c-2d6f8e1b7c4a",
        "token=${GITHUB_TOKEN} password: $DB_PASSWORD key: os.environ.get",
        "the token expired; pass --api-key to set one, see docs/auth/tokens.md",
        "docker run -u 1000:1000 image",
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk",
    ],
)
def test_ordinary_cli_output_is_left_alone(text: str) -> None:
    assert Scrubber(env={}).text(text) == text
    assert find_secrets(text.encode(), environ={}) == []


def test_the_minimum_length_of_a_known_value_is_eight_characters() -> None:
    assert MIN_SECRET == 8
    short, enough = "k3y-V4l", "k3y-V4lu"
    scrubber = Scrubber(env={"SHORT_TOKEN": short, "ENOUGH_TOKEN": enough + "x"})
    assert scrubber.text(f"{short} and {enough}x") == f"{short} and [REDACTED]"
