"""Secrets planted every way a CLI can leak them never reach the saved recording.

A small fake CLI (a python child) echoes the secrets it was given -- in its
environment, on its command line, on stdin -- and a set of well-known key
shapes it "found in its own config", in every way a real CLI writes them:
JSON lines, JSON-escaped and ``\\u``-escaped, URL-encoded, base64, inside
URLs and headers, split across two stderr writes, two stdin writes and two
streamed text deltas. It runs through :class:`CapturingSpawn` around both
real spawns (agentkit's ``default_spawn`` and asyncio's), the recording is
saved (so it also passes the gate), and the file's bytes are searched for
every secret in every form, and for each half of every split one.

What no scanner can know is left out on purpose and listed in
:data:`UNKNOWABLE`: a value under 8 characters in a secret-named variable
(replacing it everywhere would corrupt the output) and an identifier that
is not a secret by itself (an organisation id).
"""

from __future__ import annotations

import asyncio
import base64
import json
import sys
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from agentkit.agents.cognition import default_spawn
from agentkit.core.ports import SpawnPort
from agentkit.fakes.cli import CapturingSpawn, load_recording, save_recording
from tools.hardening.driving import drive

pytestmark = pytest.mark.agentkit(real_processes=True)

PIPE = asyncio.subprocess.PIPE

ENV_SECRETS = {
    "ANTHROPIC_API_KEY": "sk-ant-api03-" + "Xy7" * 15,
    "MY_SERVICE_PASS": "Zq8vLp3mNw",
    "DB_PWD": "pwdValue4242x",
    "API_TOKEN": 'tök"en\\Välue-99/zz',
    "WEBHOOK_SECRET": "a b/c+d=e&f?g-1234",
    "GH_TOKEN": "gho_" + "B" * 36,
    "SESSION_COOKIE": "c00kie-Valu3-abcdef",
}
URL_SECRETS = {
    "DATABASE_URL": ("postgres://app:S3cr3t-Pg-Pass@db.internal:5432/app", "S3cr3t-Pg-Pass"),
    "HTTPS_PROXY": ("http://proxyuser:Pr0xyP4ss!x@proxy.corp:3128", "Pr0xyP4ss!x"),
    "SENTRY_DSN": (
        "https://0123456789abcdef0123456789abcdef@o1.ingest.sentry.io/42",
        "0123456789abcdef0123456789abcdef",
    ),
}
SHAPED = {
    "aws sts": "ASIA" + "Q" * 12 + "7ABC",
    "aws": "AKIA" + "Z" * 16,
    "stripe": "sk_live_" + "51Hx" * 6,
    "gitlab": "glpat-" + "x1Y2" * 5,
    "huggingface": "hf_" + "AbCd" * 9,
    "npm": "npm_" + "a1B2" * 9,
    "github": "ghp_" + "R" * 36,
    "openai": "sk-proj-" + "T9" * 12,
    "slack": "xoxb-1234567890-abcdefghijkl",
    "google": "AIza" + "S" * 35,
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.c2lnbmF0dXJlLXZhbHVl",
    "bearer": "opaqueBearer-7f3a9c2e1d",
    "aws secret": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "json password": "Hunter2-json-pw",
    "escaped json key": "EscapedKey-00042",
    "private key body": "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
}
ARGV_SECRETS = {"--token": "tok-value-123", "API_KEY": "argvKey-55555"}
SPLIT = "sk-ant-api03-" + "Sp1i7" * 8
"""Not in the environment: known only by its shape, and written in two halves."""
UNKNOWABLE = {"SHORT_SECRET": "abc1234", "org": "org-7Fk2", "--password": "hunter2"}
"""Too short to replace everywhere (``--password hunter2`` is replaced in argv, by its flag,
but not where the CLI echoes it), or not a secret by its looks."""

_CHILD = r"""
import base64, json, os, sys, time, urllib.parse
env = os.environ
out, err = sys.stdout, sys.stderr
shaped = json.loads(env["PLANTED_SHAPES"])
split = sys.argv[1]
def line(obj):
    out.write(json.dumps(obj) + "\n"); out.flush()
values = [env[n] for n in json.loads(env["PLANTED_NAMES"])]
for v in values:
    line({"type": "system", "raw": v})                            # \u-escaped, JSON-escaped
    out.write(json.dumps({"type": "system", "raw": v}, ensure_ascii=False) + "\n")
    line({"type": "system", "url": "https://x/?q=" + urllib.parse.quote(v, safe="")})
    line({"type": "system", "plus": urllib.parse.quote_plus(v)})
    line({"type": "system", "b64": base64.b64encode(v.encode()).decode()})
    line({"type": "system", "basic": "Basic " + base64.b64encode(b"me:" + v.encode()).decode()})
    line({"type": "system", "nested": json.dumps({"echo": v})})  # escaped twice
    err.write("stderr: " + v + "\n")
for name in ("DATABASE_URL", "HTTPS_PROXY", "SENTRY_DSN"):
    line({"type": "system", "config": env[name]})
    err.write("connecting to " + env[name] + "\n")
in_context = {"bearer", "aws secret", "json password", "escaped json key", "private key body"}
line({"type": "system", "keys": [v for k, v in shaped.items() if k not in in_context]})
line({"type": "system", "headers": "Authorization: Bearer " + shaped["bearer"]})
line({"type": "system", "password": shaped["json password"]})
line({"type": "user", "content": json.dumps({"api_key": shaped["escaped json key"]})})
out.write("aws_secret_access_key = " + shaped["aws secret"] + "\n")
out.write("-----BEGIN PRIVATE KEY-----\n" + shaped["private key body"] + "\n-----END PRIVATE KEY-----\n")
out.flush()
line({"type": "system", "argv": sys.argv[2:]})
line({"type": "system", "short": env["SHORT_SECRET"], "org": "org-7Fk2"})
half = len(split) // 2
for piece in (split[:half], split[half:]):
    line({"type": "stream_event", "event": {"type": "content_block_delta", "index": 0,
          "delta": {"type": "text_delta", "text": piece}}})
key = env["ANTHROPIC_API_KEY"]
for piece in (key[:20], key[20:]):
    line({"type": "stream_event", "event": {"type": "content_block_delta", "index": 1,
          "delta": {"type": "text_delta", "text": piece}}})
err.write("split: " + split[:half]); err.flush(); time.sleep(0.3)
err.write(split[half:] + "\n"); err.flush()
data = sys.stdin.read()
line({"type": "result", "stdin_bytes": len(data)})
err.write("cwd " + os.getcwd() + "\n")
sys.exit(1)
"""


def _forms(value: str) -> Iterator[str]:
    """The forms the child writes, computed here independently of the scrubber."""
    yield value
    yield json.dumps(value)[1:-1]
    yield json.dumps(value, ensure_ascii=False)[1:-1]
    yield json.dumps(json.dumps({"echo": value}))[1:-1]
    yield urllib.parse.quote(value, safe="")
    yield urllib.parse.quote_plus(value)
    yield base64.b64encode(value.encode()).decode()
    yield base64.b64encode(b"me:" + value.encode()).decode()


SPAWNS: dict[str, Callable[[], SpawnPort]] = {
    "default_spawn": lambda: default_spawn,
    "asyncio": lambda: asyncio.create_subprocess_exec,
}


@pytest.mark.parametrize("spawn", sorted(SPAWNS))
async def test_no_planted_secret_reaches_the_saved_file(
    spawn: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home" / "planted-user"
    project = home / "work"
    project.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    script = tmp_path / "cli.py"
    script.write_text(_CHILD)
    env = {
        **ENV_SECRETS,
        **{name: url for name, (url, _) in URL_SECRETS.items()},
        "SHORT_SECRET": UNKNOWABLE["SHORT_SECRET"],
        "PLANTED_NAMES": json.dumps(sorted(ENV_SECRETS)),
        "PLANTED_SHAPES": json.dumps(SHAPED),
        "HOME": str(home),
        "PATH": "/usr/bin:/bin",
    }
    key = ENV_SECRETS["ANTHROPIC_API_KEY"]
    capture = CapturingSpawn(
        SPAWNS[spawn](), cli="claude", source=f"made with {key}", cli_version="1.0 " + key
    )
    process = await capture(
        sys.executable,
        str(script),
        SPLIT,
        "--password",
        "hunter2",
        f"--token={ARGV_SECRETS['--token']}",
        f"API_KEY={ARGV_SECRETS['API_KEY']}",
        "-p",
        f"my key is {key}",
        stdin=PIPE,
        stdout=PIPE,
        stderr=PIPE,
        cwd=str(project),
        env=env,
    )
    pw = ENV_SECRETS["MY_SERVICE_PASS"]
    await drive(process, (f'{{"secret":"{pw[:5]}'.encode(), f'{pw[5:]}"}}\n'.encode()))
    (recording,) = capture.recordings
    path = save_recording(recording, tmp_path / "planted.jsonl")  # the gate passes it too
    saved = path.read_bytes().decode("utf-8")

    secrets = [
        *ENV_SECRETS.values(),
        *(value for _, value in URL_SECRETS.values()),
        *SHAPED.values(),
        *ARGV_SECRETS.values(),
        SPLIT,
        str(home),
    ]
    leaks = sorted({form for value in secrets for form in _forms(value) if form in saved})
    assert leaks == []
    halves = [SPLIT[: len(SPLIT) // 2], SPLIT[len(SPLIT) // 2 :], key[:20], key[20:]]
    assert [half for half in halves if half in saved] == []
    assert [half for half in (pw[:5] + pw[5:],) if half in saved] == []
    # The run itself is intact around the redactions.
    loaded = load_recording(path)
    assert loaded.run.returncode == 1
    assert loaded.cwd == "~/work"
    assert loaded.argv[loaded.argv.index("--password") + 1] == "[REDACTED]"
    assert b'"stdin_bytes"' in loaded.run.stdout
