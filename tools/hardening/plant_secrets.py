"""Plant secrets around a small CLI, capture it, and search the saved file for them in any encoding.

Usage::

    uv run --frozen python -m tools.hardening.plant_secrets [--spawn default_spawn|asyncio] [-v]

A python child stands in for a CLI. It is given secrets two ways: KNOWN
ones in the ``env=`` of the spawn (never in this process's environment, so
only what the capture was handed can find them) under names of every
casing and suffix, and UNKNOWN ones it "found in its config" -- provider
key shapes, private keys, tokens after HTTP headers, values after secret
names in JSON, TOML, XML, query strings and nested commands -- which only
their looks or their context can give away. It writes each one in the ways
a CLI or a tool it runs writes them: JSON-escaped (Python's and Go's rules,
every character but letters, digits and ``-._~`` ``\\u``-escaped --
no encoder escapes those, one that did would go unseen -- escaped two and
three times), URL-encoded in full and in part, HTML entities, base64 and base64url at the three
alignments, hex, split across three stderr reads, three stdin writes and
three streamed deltas (also at a JSON escape), cut by the capture's bounds
(a stdout line over the reader's limit, stderr past 1 MiB) inside a known
value, in argv, in the working
directory, in the header's ``source`` and ``cli_version``.

The capture goes through :class:`~agentkit.fakes.cli.CapturingSpawn`
around a REAL spawn, the recording is saved through the gate, and the saved
file is searched independently of the scrubber: its raw bytes for every
encoding computed here, and a decoded view of it (every JSON string, also
strings that are JSON themselves, URL-decoded, HTML-unescaped, every base64
and hex run decoded, with line breaks removed) for each raw value and each
third of a split one.

Counted:

* ``leaks`` -- a planted secret (or a third of a split one) found in the file;
* ``refused`` -- the gate refused the scrubbed recording (the scrubber and
  the gate disagree; the file is then saved with ``allow_secrets=True`` to
  be searched).

What no scanner can know is planted too and reported apart, never counted:
a 7-character value, an organisation id.

Prints the figures and each leak (its plant and the encoding found, never
more than the first characters of the value); exits 1 if any were found.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import binascii
import contextlib
import html
import json
import os
import random
import re
import string
import sys
import tempfile
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from agentkit.core.ports import SpawnPort
from agentkit.fakes.cli import CapturingSpawn, RecordingSecretError, save_recording
from agentkit.fakes.cli._recording._capture import STDERR_KEEP
from tools.hardening.driving import drive

PIPE = asyncio.subprocess.PIPE

_RNG = random.Random(2125)
_ALNUM = string.ascii_letters + string.digits


def _rand(n: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def _hex(n: int) -> str:
    return _rand(n, "0123456789abcdef")


# --- the secrets -------------------------------------------------------------------------------

KNOWN: dict[str, str] = {
    "my_app_secret_key": "lowerCase-" + _rand(12),
    "MyAppSigningKey": "camelCase-" + _rand(12),
    "APP_SIGNINGKEY": "signingKey-" + _rand(12),
    "ENCRYPTION_KEYS": "encKeys-" + _rand(12),
    "STRIPE_APIKEY": "apikey-" + _rand(12),
    "X_API_KEY": "goEsc&<v>-" + _rand(10),
    "SERVICE_PASSWORD": "pärt pct/enc+v=1&2?" + _rand(6),
    "NESTED_TOKEN": 'nest"ed\\tok/en-' + _rand(8),
    "B64_SECRET": "b64-" + _rand(14),
    "HEX_AUTH_TOKEN": "hex-" + _rand(12),
    "SPLIT_API_TOKEN": "splitKnown-" + _rand(16),
    "CUT_OUT_TOKEN": "cutStdout-" + _rand(16),
    "CUT_ERR_TOKEN": "cutStderr-" + _rand(16),
    "STDIN_SECRET": "stdinValue-" + _rand(12),
    "AZURE_STORAGE_CONNECTION_STRING": (
        "DefaultEndpointsProtocol=https;AccountName=acct"
        + _hex(6)
        + ";AccountKey="
        + base64.b64encode(_rand(48).encode()).decode()
        + ";EndpointSuffix=core.windows.net"
    ),
    "REDIS_URL": "redis://:r3d1s-" + _rand(12) + "@cache.internal:6379/0",
    "EIGHT_SECRET": _rand(8),
}
"""Secret-named variables, handed to the spawn in ``env=``, never set in this process."""

UNKNOWABLE_KNOWN = {"TINY_SECRET": _rand(7)}
"""Under the documented minimum of 8 characters: left alone on purpose."""

SHAPED: dict[str, str] = {
    "anthropic": "sk-ant-api03-" + _rand(80, _ALNUM + "-_") + "AA",
    "anthropic oauth": "sk-ant-oat01-" + _rand(60, _ALNUM + "-_"),
    "openai project": "sk-proj-" + _rand(40, _ALNUM + "-_") + "T3Blbk" + _rand(20),
    "github classic": "ghp_" + _rand(36),
    "github fine-grained": "github_pat_11" + _rand(20) + "_" + _rand(59),
    "google": "AIza" + _rand(35, _ALNUM + "-_"),
    "slack bot": "xoxb-"
    + _rand(12, string.digits)
    + "-"
    + _rand(13, string.digits)
    + "-"
    + _rand(24),
    "slack user": "xoxp-" + _rand(12, string.digits) + "-" + _rand(24),
    "slack app": "xapp-1-A"
    + _rand(10, string.digits)
    + "-"
    + _rand(13, string.digits)
    + "-"
    + _hex(64),
    "slack refresh": "xoxe.xoxp-1-" + _rand(40),
    "jwt": (
        base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
        + "."
        + base64.urlsafe_b64encode(('{"sub":"' + _rand(20) + '"}').encode()).decode().rstrip("=")
        + "."
        + _rand(43, _ALNUM + "-_")
    ),
    "atlassian": "ATATT3xFfGF0" + _rand(180, _ALNUM + "-_") + "=" + _hex(8).upper(),
    "sentry user token": "sntryu_" + _hex(64),
    "sentry org token": "sntrys_" + _rand(120, _ALNUM + "_"),
    "doppler": "dp.st.prd." + _rand(40),
    "postman": "PMAK-" + _hex(24) + "-" + _hex(34),
    "grafana service account": "glsa_" + _rand(32) + "_" + _hex(8),
    "new relic": "NRAK-" + _rand(27, string.ascii_uppercase + string.digits),
    "tailscale": "tskey-auth-" + _rand(12) + "-" + _rand(32),
    "vault": "hvs." + _rand(90, _ALNUM + "-_"),
    "docker hub": "dckr_pat_" + _rand(27, _ALNUM + "-_"),
    "age": "AGE-SECRET-KEY-1" + _rand(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"),
    "notion": "ntn_" + _rand(46),
    "supabase": "sbp_" + _hex(40),
    "1password service account": "ops_eyJ" + _rand(200),
    "heroku": "HRKU-" + _rand(60, _ALNUM + "-_"),
    "planetscale": "pscale_tkn_" + _rand(43, _ALNUM + "_"),
    "mailgun": "key-" + _hex(32),
    "telegram bot": _rand(10, string.digits) + ":AA" + _rand(33, _ALNUM + "-_"),
    "discord webhook": "https://discord.com/api/webhooks/"
    + _rand(18, string.digits)
    + "/"
    + _rand(68, _ALNUM + "-_"),
    "twilio api key": "SK" + _hex(32),
    "shopify": "shpat_" + _hex(32),
}
PUTTY_PRIVATE = _rand(44, _ALNUM + "+/")
SHAPED["putty private key"] = (
    "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n"
    + PUTTY_PRIVATE
    + "\nPrivate-MAC: "
    + _hex(64)
)
"""Keys a CLI prints from its config or a tool's output: known only by their looks."""

IN_CONTEXT: dict[str, str] = {
    "header token": _rand(24),
    "cookie second pair": "s3ss" + _rand(20),
    "set-cookie": _rand(22),
    "x-api-key": _hex(32),
    "azure openai api-key": _hex(32),
    "tool bearer": "tok" + _rand(24),
    "psql --password": "Psql" + _rand(14),
    "curl -u": "Curl" + _rand(14),
    "toml quoted name": "toml" + _rand(16),
    "xml element": "xml" + _rand(16),
    "json in json in json": "deep" + _rand(16),
    "query access_token": "qat" + _rand(24),
    "netrc password": "netrc" + _rand(14),
    "yaml quoted": "yaml " + _rand(16),
    "azure sig": urllib.parse.quote(base64.b64encode(_rand(32).encode()).decode(), safe=""),
    "json number-like": _rand(6) + "-" + _rand(6),
    "encoded url password": "p@ss:w/rd" + _rand(10),
}
"""Values known only by the name next to them."""

PRIVATE_KEYS: dict[str, str] = {
    kind: f"-----BEGIN {kind}PRIVATE KEY{block}-----\n"
    + "\n".join(_rand(64, _ALNUM + "+/") for _ in range(4))
    + f"\n-----END {kind}PRIVATE KEY{block}-----\n"
    for kind, block in (
        ("", ""),
        ("RSA ", ""),
        ("EC ", ""),
        ("OPENSSH ", ""),
        ("ENCRYPTED ", ""),
        ("PGP ", " BLOCK"),
    )
}

SPLIT_SHAPED = "ghp_" + _rand(36)
SPLIT_DELTA = "sk-ant-api03-" + _rand(60)
SPLIT_ESCAPE = "escSplit-" + _rand(14)
"""A secret-named JSON value streamed in three input_json_delta pieces, cut at an escape."""
UNKNOWABLE = {"org id": "org-" + _rand(6)}

# --- how a CLI writes a value -----------------------------------------------------------------


def _go_json(value: str) -> str:
    text = json.dumps(value)[1:-1]
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _all_u(value: str) -> str:
    """Every character but letters, digits and ``-._~`` as ``\\u`` (no encoder escapes those)."""
    return "".join(
        c if c in _PLAIN else f"\\u{ord(c):04x}" if ord(c) < 0x10000 else json.dumps(c)[1:-1]
        for c in value
    )


_PLAIN = frozenset(string.ascii_letters + string.digits + "-._~")


def _json_n(value: str, times: int) -> str:
    for _ in range(times):
        value = json.dumps(value)[1:-1]
    return value


def _b64_at(value: str, align: int, urlsafe: bool) -> str:
    raw = b"xyz"[:align] + value.encode()
    encoded = base64.urlsafe_b64encode(raw) if urlsafe else base64.b64encode(raw)
    return encoded.decode().rstrip("=" if urlsafe else "")


ENCODINGS: dict[str, Callable[[str], str]] = {
    "raw": lambda v: v,
    "json": lambda v: json.dumps(v)[1:-1],
    "json utf-8": lambda v: json.dumps(v, ensure_ascii=False)[1:-1],
    "json (Go: <>& as \\u)": _go_json,
    "json, every other char \\u": _all_u,
    "json, upper-case \\u": lambda v: re.sub(
        r"\\u([0-9a-f]{4})", lambda m: "\\u" + m.group(1).upper(), _all_u(v)
    ),
    "json with \\/": lambda v: json.dumps(v)[1:-1].replace("/", "\\/"),
    "json twice": lambda v: _json_n(v, 2),
    "json three times": lambda v: _json_n(v, 3),
    "url, all": lambda v: urllib.parse.quote(v, safe=""),
    "url, encodeURIComponent": lambda v: urllib.parse.quote(v, safe="!'()*~"),
    "url, encodeURI": lambda v: urllib.parse.quote(v, safe=";,/?:@&=+$#!'()*~"),
    "url, lower-case hex": lambda v: re.sub(
        r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), urllib.parse.quote(v, safe="")
    ),
    "url, only non-ASCII": lambda v: urllib.parse.quote(v, safe=string.punctuation + " "),
    "url, plus": urllib.parse.quote_plus,
    "url, twice": lambda v: urllib.parse.quote(urllib.parse.quote(v, safe=""), safe=""),
    "html entities": lambda v: html.escape(v, quote=True),
    "base64 at 0": lambda v: _b64_at(v, 0, False),
    "base64 at 1": lambda v: _b64_at(v, 1, False),
    "base64 at 2": lambda v: _b64_at(v, 2, False),
    "base64url at 0": lambda v: _b64_at(v, 0, True),
    "base64url at 1": lambda v: _b64_at(v, 1, True),
    "base64url at 2": lambda v: _b64_at(v, 2, True),
    "hex": lambda v: v.encode().hex(),
    "HEX": lambda v: v.encode().hex().upper(),
}


# --- the plan the child follows ----------------------------------------------------------------


@dataclass
class Plan:
    ops: list[tuple[str, str]] = field(default_factory=list)

    def out(self, text: str) -> None:
        self.ops.append(("out", text))

    def line(self, obj: object, *, ensure_ascii: bool = True) -> None:
        self.ops.append(("out", json.dumps(obj, ensure_ascii=ensure_ascii) + "\n"))

    def err(self, text: str) -> None:
        self.ops.append(("err", text))

    def pause(self) -> None:
        self.ops.append(("sleep", "0.08"))


def _thirds(value: str) -> list[str]:
    a, b = len(value) // 3, 2 * len(value) // 3
    return [value[:a], value[a:b], value[b:]]


def _delta(index: int, delta: dict[str, str]) -> dict[str, object]:
    return {
        "type": "stream_event",
        "event": {"type": "content_block_delta", "index": index, "delta": delta},
    }


def build_plan() -> Plan:
    plan = Plan()
    for name, value in KNOWN.items():
        for encoding, encode in ENCODINGS.items():
            text = encode(value)
            plan.line({"type": "system", "name": name, "how": encoding, "v": "<" + text + ">"})
            if encoding in ("raw", "json", "url, encodeURI", "base64 at 1"):
                plan.err(f"{name}: {text}\n")
        # A Go tool's JSON line: the value written with <>& escaped, as Go does.
        plan.out('{"type":"system","go":"' + _go_json(value) + '"}\n')
        plan.out(f"plain text: {value} ({urllib.parse.quote(value)})\n")
    for value in UNKNOWABLE_KNOWN.values():
        plan.line({"type": "system", "tiny": value})
    for kind, key in SHAPED.items():
        plan.line({"type": "system", "config": kind, "value": key})
        plan.err(f"loaded {kind} from config: {key}\n")
        plan.line({"type": "system", "nested": json.dumps({"k": [key]})})
    for kind, pem in PRIVATE_KEYS.items():
        plan.out(pem)
        plan.line({"type": "user", "tool_result": "cat id:\n" + pem})
        plan.line({"type": "user", "tool_result": json.dumps({"private_key_file": pem})})
        plan.err(pem.replace("\n", "\r\n"))
        del kind
    c = IN_CONTEXT
    plan.err(f"> Authorization: Token {c['header token']}\n")
    plan.err(f"> Cookie: theme=dark; lang=en; sessionid={c['cookie second pair']}; x=1\n")
    plan.err(f"< Set-Cookie: sid={c['set-cookie']}; Path=/; HttpOnly\n")
    plan.err(f"> x-api-key: {c['x-api-key']}\n")
    plan.err(f"> api-key: {c['azure openai api-key']}\n")
    tool = (
        f'curl -sS -H "Authorization: Bearer {c["tool bearer"]}" https://api.example.test/v1 '
        f"&& psql --password {c['psql --password']} -h db "
        f"&& curl -u admin:{c['curl -u']} https://example.test"
    )
    plan.line(
        {
            "type": "assistant",
            "message": {
                "content": [{"type": "tool_use", "name": "Bash", "input": {"command": tool}}]
            },
        }
    )
    plan.line({"type": "user", "tool_result": tool})
    plan.line(
        {
            "type": "user",
            "tool_result": f'[http_headers]\n"X-Api-Key" = "{c["toml quoted name"]}"\n',
        }
    )
    plan.line(
        {
            "type": "user",
            "tool_result": f"<settings><server><password>{c['xml element']}</password></server>",
        }
    )
    plan.line(
        {
            "type": "user",
            "tool_result": json.dumps(json.dumps({"client_secret": c["json in json in json"]})),
        }
    )
    plan.err(
        f"GET https://api.example.test/v1/items?limit=5&access_token={c['query access_token']}\n"
    )
    plan.line(
        {
            "type": "user",
            "tool_result": f"machine api.example.test login me password {c['netrc password']}\n",
        }
    )
    plan.line({"type": "user", "tool_result": f'db:\n  password: "{c["yaml quoted"]}"\n'})
    plan.err(
        f"https://acct.blob.core.windows.net/c/b?sv=2022-11-02&se=2030&sp=r&sig={c['azure sig']}\n"
    )
    plan.line({"type": "system", "config": {"pin": {"password": c["json number-like"]}}})
    encoded_pw = urllib.parse.quote(c["encoded url password"], safe="")
    plan.err(f"cloning https://deploy:{encoded_pw}@git.example.test/repo.git\n")
    # A known shape split across three stderr reads.
    for piece in _thirds(SPLIT_SHAPED):
        plan.err(piece)
        plan.pause()
    plan.err("\n")
    # A known value split across three stderr reads.
    for piece in _thirds(KNOWN["SPLIT_API_TOKEN"]):
        plan.err(piece)
        plan.pause()
    plan.err("\n")
    # A key streamed in three text deltas, and in three thinking deltas.
    for piece in _thirds(SPLIT_DELTA):
        plan.line(_delta(0, {"type": "text_delta", "text": piece}))
    for piece in _thirds(KNOWN["SPLIT_API_TOKEN"]):
        plan.line(_delta(1, {"type": "thinking_delta", "thinking": piece}))
    # A tool input streamed as partial JSON, cut inside the escape before the value.
    partial = json.dumps({"api_key": SPLIT_ESCAPE, "q": 'say "hi"'})
    cut = partial.index(SPLIT_ESCAPE)
    for piece in (partial[: cut - 2], partial[cut - 2 : cut + 5], partial[cut + 5 :]):
        plan.line(_delta(2, {"type": "input_json_delta", "partial_json": piece}))
    plan.line({"type": "system", "org": UNKNOWABLE["org id"]})
    plan.ops.append(("stdin", ""))
    # Cut by the capture's bounds 12 characters into a known value: a stdout line
    # over the reader's 64 KiB limit, and stderr past the 1 MiB a recording keeps.
    plan.ops.append(("outcut", KNOWN["CUT_OUT_TOKEN"]))
    plan.ops.append(("errcut", KNOWN["CUT_ERR_TOKEN"]))
    plan.out('{"type":"result","subtype":"success"}\n')
    return plan


_CHILD_SOURCE = r"""
import json, os, sys, time
ops = json.load(open(sys.argv[1], encoding="utf-8"))
written = 0
def err(text):
    global written
    sys.stderr.write(text); sys.stderr.flush()
    written += len(text.encode())
for kind, text in ops:
    if kind == "out":
        sys.stdout.write(text); sys.stdout.flush()
    elif kind == "err":
        err(text)
    elif kind == "sleep":
        time.sleep(float(text))
    elif kind == "stdin":
        data = sys.stdin.read()
        print(json.dumps({"type": "system", "stdin_bytes": len(data)}), flush=True)
        err("cwd " + os.getcwd() + "\n")
    elif kind == "outcut":
        head = '{"type":"system","pad":"'
        pad = "x" * ({limit} + 1 - len(head) - 1 - 12)
        sys.stdout.write(head + pad + " " + text + '"}\n'); sys.stdout.flush()
    elif kind == "errcut":
        err("e" * ({keep} - written - 1 - 12) + " " + text + "\n")
"""
_CHILD = _CHILD_SOURCE.replace("{limit}", str(2**16)).replace("{keep}", str(STDERR_KEEP))


# --- the search ------------------------------------------------------------------------------


def _strings(value: object, depth: int = 0) -> Iterator[str]:
    if depth > 8:
        return
    if isinstance(value, str):
        yield value
        stripped = value.strip()
        if stripped[:1] in ('"', "{", "["):
            try:
                inner = json.loads(stripped)
            except ValueError:
                return
            yield from _strings(inner, depth + 1)
    elif isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _strings(inner, depth + 1)
    elif isinstance(value, list):
        for inner in value:
            yield from _strings(inner, depth + 1)


_B64_RUN = re.compile(r"[A-Za-z0-9+/_\-]{12,}")
_HEX_RUN = re.compile(r"(?:[0-9a-fA-F]{2}){8,}")


def _decoded_runs(text: str) -> Iterator[str]:
    for match in _B64_RUN.finditer(text):
        run = match.group(0)
        for skip in range(4):
            part = run[skip:]
            part = part[: len(part) - len(part) % 4]
            for altchars in (b"+/", b"-_"):
                with contextlib.suppress(binascii.Error, ValueError):
                    yield base64.b64decode(part, altchars=altchars).decode("latin-1")
    for match in _HEX_RUN.finditer(text):
        for skip in (0, 1):
            run = match.group(0)[skip:]
            with contextlib.suppress(ValueError):
                yield bytes.fromhex(run[: len(run) - len(run) % 2]).decode("latin-1")


def decoded_view(saved: str) -> str:
    """Everything the file says, decoded every way a reader could decode it, one text."""
    parts = [saved, re.sub(r"\r|\n|\\r|\\n", "", saved)]
    texts: list[str] = []
    for line in saved.splitlines():
        body = line.split(" ", 1)[1] if line.startswith("#") and " " in line else line
        try:
            texts.extend(_strings(json.loads(body)))
        except ValueError:
            texts.append(body)
    for text in texts:
        for variant in {
            text,
            urllib.parse.unquote(text),
            urllib.parse.unquote_plus(text),
            urllib.parse.unquote(urllib.parse.unquote(text)),
            html.unescape(text),
        }:
            parts.append(variant)
            parts.append(re.sub(r"\r|\n", "", variant))
            parts.extend(_decoded_runs(variant))
            parts.extend(_decoded_runs(re.sub(r"\r|\n", "", variant)))
    return "\n\x00\n".join(parts)


@dataclass
class Outcome:
    spawn: str
    leaks: list[str]
    refused: list[str]
    unknowable_kept: list[str]
    planted: int


def _short(value: str) -> str:
    return value[:6] + "..."


def search(saved: str, home: str) -> tuple[list[str], list[str]]:
    view = decoded_view(saved)
    leaks: list[str] = []
    for name, value in KNOWN.items():
        for encoding, encode in ENCODINGS.items():
            if encode(value) in saved or encode(value) in view:
                leaks.append(f"${name} ({_short(value)}) as {encoding}")
        if value in view:
            leaks.append(f"${name} ({_short(value)}) decoded")
    planted: dict[str, str] = {
        **{f"shape {k}": v for k, v in SHAPED.items()},
        **{f"context {k}": v for k, v in IN_CONTEXT.items()},
        **{
            f"private key {k or 'PKCS8 '}line {i}": line
            for k, v in PRIVATE_KEYS.items()
            for i, line in enumerate(v.split("\n")[1:-2], start=1)
        },
        "putty private line": PUTTY_PRIVATE,
        "split shape": SPLIT_SHAPED,
        "split delta": SPLIT_DELTA,
        "split at an escape": SPLIT_ESCAPE,
        "home": home,
    }
    for what, value in planted.items():
        if value in view:
            leaks.append(f"{what} ({_short(value)})")
    for what, value in (
        ("split shape", SPLIT_SHAPED),
        ("split delta", SPLIT_DELTA),
        ("split known", KNOWN["SPLIT_API_TOKEN"]),
        ("cut stdout", KNOWN["CUT_OUT_TOKEN"]),
        ("cut stderr", KNOWN["CUT_ERR_TOKEN"]),
    ):
        for i, third in enumerate(_thirds(value)):
            if len(third) >= 6 and third in view:
                leaks.append(f"{what}: third {i + 1} ({_short(third)})")
    kept = [k for k, v in {**UNKNOWABLE_KNOWN, **UNKNOWABLE}.items() if v in saved]
    return leaks, kept


def _spawns() -> dict[str, SpawnPort]:
    from agentkit.agents.cognition import default_spawn

    return {"default_spawn": default_spawn, "asyncio": asyncio.create_subprocess_exec}


async def attack(spawn_name: str, workdir: Path) -> Outcome:
    """Run the plant once through ``spawn_name`` and search what was saved."""
    home = workdir / "home" / ("user-" + _rand(8))
    project = home / ("proj-" + SHAPED["github classic"])
    project.mkdir(parents=True)
    plan_file = workdir / "plan.json"
    plan = build_plan()
    plan_file.write_text(json.dumps(plan.ops), encoding="utf-8")
    script = workdir / "cli.py"
    script.write_text(_CHILD, encoding="utf-8")
    env = {**KNOWN, **UNKNOWABLE_KNOWN, "HOME": str(home), "PATH": os.defpath}
    assert not set(env) & {k for k in os.environ if k not in ("HOME", "PATH")}
    capture = CapturingSpawn(
        _spawns()[spawn_name],
        cli="claude",
        source=f"recorded with {SHAPED['openai project']} by {KNOWN['my_app_secret_key']}",
        cli_version="2.0.0 (" + SHAPED["slack bot"] + ")",
    )
    argv = [
        str(script),
        str(plan_file),
        "--header",
        f"Authorization: Token {IN_CONTEXT['header token']}",
        "-c",
        f'http_headers={{"X-Api-Key" = "{IN_CONTEXT["toml quoted name"]}"}}',
        "-p",
        f"use {SHAPED['anthropic']} and {KNOWN['X_API_KEY']}",
        f"--signing-key={KNOWN['APP_SIGNINGKEY']}",
    ]
    process = await capture(
        sys.executable, *argv, stdin=PIPE, stdout=PIPE, stderr=PIPE, cwd=str(project), env=env
    )
    stdin_secret = KNOWN["STDIN_SECRET"]
    message = (
        json.dumps({"type": "user", "message": {"content": f"token is {stdin_secret}"}}) + "\n"
    )
    at = message.index(stdin_secret)
    pieces = [message[: at + 4], message[at + 4 : at + 9], message[at + 9 :]]
    await drive(process, [p.encode() for p in pieces], pause=0.05)
    (recording,) = capture.recordings
    target = workdir / "planted.jsonl"
    refused: list[str] = []
    try:
        save_recording(recording, target)
    except RecordingSecretError as exc:
        refused = [str(f) for f in exc.findings]
        save_recording(recording, target, allow_secrets=True)
    saved = target.read_bytes().decode("utf-8")
    leaks, kept = search(saved, str(home))
    planted = len(KNOWN) * len(ENCODINGS) + len(SHAPED) + len(IN_CONTEXT) + len(PRIVATE_KEYS) + 6
    return Outcome(spawn_name, leaks, refused, kept, planted)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--spawn", choices=("default_spawn", "asyncio"), action="append")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    failed = False
    for name in args.spawn or ["default_spawn", "asyncio"]:
        with tempfile.TemporaryDirectory() as tmp:
            outcome = asyncio.run(attack(name, Path(tmp)))
        print(
            f"{name}: {outcome.planted} planted, leaks: {len(outcome.leaks)}, "
            f"refused by the gate: {len(outcome.refused)}, "
            f"unknowable kept: {', '.join(outcome.unknowable_kept) or '-'}"
        )
        for leak in outcome.leaks[: None if args.verbose else 40]:
            print("  leak:", leak)
        for finding in outcome.refused[: None if args.verbose else 10]:
            print("  refused:", finding)
        failed = failed or bool(outcome.leaks or outcome.refused)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
