"""What a secret looks like: the names that hold one, the shapes keys take, the forms a value takes.

One list, used twice: the scrubber (:mod:`agentkit.fakes.cli._scrub`)
replaces everything it finds here before a recording is built, and the gate
(:mod:`agentkit.fakes.cli._gate`) refuses to write a file in which anything
here is still found. Because both read the same list, a scrubbed recording
passes the gate by construction, and a shape added here is both scrubbed and
refused from then on.

Why a hand list and not a secret-detection library: agentkit-fakes-cli
depends on agentkit-core alone, so the scrubber must work with no extra
installed, and it needs the exact span of each secret to replace, not a
line flagged; the entropy detectors such tools add flag every session id,
hash and thinking signature a CLI prints, which would make the gate refuse
every recording. The list below is the usual set of provider prefixes (the
ones secret scanners and providers' own push protection agree on), each
anchored on its fixed prefix so matching stays linear.
"""

from __future__ import annotations

import base64
import json
import re
import urllib.parse
from collections.abc import Iterator
from typing import NamedTuple

__all__ = [
    "MIN_SECRET",
    "REDACTED",
    "SHAPES",
    "Shape",
    "forms",
    "is_secret_name",
    "looks_secret",
    "matches",
    "url_passwords",
]

REDACTED = b"[REDACTED]"
"""What a secret is replaced with: plain ASCII, so a scrubbed JSON line stays valid JSON."""

MIN_SECRET = 8
"""Values of secret-named variables shorter than this are left alone.

``AUTH_MODE=true`` replaced everywhere would corrupt every JSON ``true`` in
the output, and no real key is that short. A shorter value is found only
where its name says it is one (``--password VALUE``, ``password=VALUE``).
"""

# Parts that name a secret wherever they appear in a name, and short parts
# that do only as a whole word (KEY in API_KEY, not in MONKEY; PASS in
# DB_PASS, not in BYPASS or PASSTHROUGH). TOKENS (a count: MAX_TOKENS),
# AUTHOR (GIT_AUTHOR_NAME) and UNAUTHORIZED are not secrets; AUTHORIZATION is.
_SECRET_NAME = re.compile(
    r"TOKEN(?!S)|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|COOKIE|PRIVATE|APIKEY"
    r"|AUTH(?!OR)|AUTHORI[SZ]ATION|CONNECTION_?STRING|WEBHOOK"
    r"|(?<![A-Z0-9])(?:KEY|PASS|PWD|DSN|PAT|JWT|SIG)(?![A-Z0-9])"
)
_NOT_SECRET_NAMES = frozenset({"PWD", "OLDPWD"})
"""The shell's working directories: named like a password, holding a path."""

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def is_secret_name(name: str) -> bool:
    """Does ``name`` (an environment variable, a flag, a JSON key) say it holds a secret?"""
    upper = _CAMEL.sub("_", name).upper().replace("-", "_").replace(".", "_")
    if upper in _NOT_SECRET_NAMES:
        return False
    return _SECRET_NAME.search(upper) is not None


_NOT_A_VALUE = re.compile(
    rb"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Za-z][a-z]+(?:[-_][a-z]+)*[.,]?|\[REDACTED\].*|~.*",
    re.DOTALL,
)


def looks_secret(value: bytes) -> bool:
    """Could ``value``, found after a secret-sounding name, be the secret itself?

    Not when it is too short, a plain word or identifier (``"apiKeySource":
    "ANTHROPIC_API_KEY"`` names a variable, ``token: Expired.`` is prose), or
    already redacted.
    """
    return len(value) >= MIN_SECRET and _NOT_A_VALUE.fullmatch(value) is None


class Shape(NamedTuple):
    """A kind of secret: its name (what the gate reports) and its pattern.

    The group named ``secret``, when present, is the part replaced (``Bearer``
    stays, the credential after it goes); a group named ``name`` is checked
    with :func:`is_secret_name` and the value with :func:`looks_secret`.
    """

    kind: str
    pattern: re.Pattern[bytes]


def _shape(kind: str, pattern: bytes, flags: int = 0) -> Shape:
    return Shape(kind, re.compile(pattern, flags))


_JSON_VALUE = rb"(?P<secret>(?:[^\"\\\n]|\\[^\n]){1,4096}?)"

SHAPES: tuple[Shape, ...] = (
    _shape("Anthropic API key", rb"sk-ant-[A-Za-z0-9_\-]{8,}"),
    _shape("OpenAI API key", rb"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{16,}"),
    _shape("Stripe key", rb"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}"),
    _shape("Stripe webhook secret", rb"\bwhsec_[A-Za-z0-9]{20,}"),
    _shape("GitHub token", rb"\bgh[pousr]_[A-Za-z0-9]{20,}"),
    _shape("GitHub fine-grained token", rb"\bgithub_pat_[A-Za-z0-9_]{20,}"),
    _shape("GitLab token", rb"\bgl(?:pat|ptt|rt|dt|cbt|soat|ft|imt|oas)-[A-Za-z0-9_\-]{20,}"),
    _shape("AWS access key id", rb"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b"),
    _shape("Slack token", rb"\bxox[abposre]-[A-Za-z0-9\-]{10,}"),
    _shape("Slack webhook", rb"hooks\.slack\.com/services/[A-Za-z0-9/]{20,}"),
    _shape("Google API key", rb"\bAIza[0-9A-Za-z_\-]{35}"),
    _shape("Google OAuth token", rb"\bya29\.[0-9A-Za-z_\-]{20,}"),
    _shape("Google OAuth client secret", rb"\bGOCSPX-[A-Za-z0-9_\-]{20,}"),
    _shape("Hugging Face token", rb"\bhf_[A-Za-z0-9]{30,}"),
    _shape("npm token", rb"\bnpm_[A-Za-z0-9]{36}\b"),
    _shape("PyPI token", rb"\bpypi-AgE[A-Za-z0-9_\-]{30,}"),
    _shape("SendGrid key", rb"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}"),
    _shape("DigitalOcean token", rb"\bdo[por]_v1_[a-f0-9]{64}"),
    _shape("Databricks token", rb"\bdapi[0-9a-f]{32}"),
    _shape("Shopify token", rb"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}"),
    _shape("Groq key", rb"\bgsk_[A-Za-z0-9]{40,}"),
    _shape("xAI key", rb"\bxai-[A-Za-z0-9]{40,}"),
    _shape("Replicate token", rb"\br8_[A-Za-z0-9]{30,}"),
    _shape("Linear key", rb"\blin_api_[A-Za-z0-9]{30,}"),
    _shape("Telegram bot token", rb"\b\d{8,10}:AA[A-Za-z0-9_\-]{33}"),
    _shape(
        "JSON Web Token",
        rb"\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
    ),
    _shape(
        "private key",
        rb"-----BEGIN[A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
        rb"(?:[\s\S]{0,16384}?-----END[A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\]*)",
    ),
    _shape(
        "HTTP credential",
        rb"(?i:\b(?:bearer|basic))\s+(?P<secret>(?![a-z]+(?![A-Za-z0-9._~+/\-=]))[A-Za-z0-9._~+/\-]{12,}=*)",
    ),
    _shape(
        "password in a URL",
        rb"\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s/?#@:\"'\\<>]{0,256}:"
        rb"(?P<secret>[^\s/?#@\"'\\<>]{1,256})@",
    ),
    _shape(
        "token in a URL",
        rb"\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://(?P<secret>[A-Za-z0-9_\-]{20,256})@",
    ),
    _shape(
        "secret-named JSON field",
        rb"\"(?P<name>[A-Za-z0-9_.\-]{1,64})\"\s*:\s*\"" + _JSON_VALUE + rb"\"",
    ),
    _shape(
        "secret-named JSON field",
        rb"\\\"(?P<name>[A-Za-z0-9_.\-]{1,64})\\\"\s*:\s*\\\""
        rb"(?P<secret>(?:[^\"\\\n]|\\[^\"\n]){1,4096}?)\\\"",
    ),
    _shape(
        "secret-named assignment",
        rb"(?<![A-Za-z0-9_.\-])(?P<name>[A-Za-z0-9_.\-]{1,64})"
        rb"[ \t]{0,4}[=:][ \t]{0,4}['\"]?(?P<secret>[^\s'\"\\,;&<>\[\]{}()]{8,4096})",
    ),
)
"""Every kind of secret found by its looks (the scrubber also knows values by name)."""


def matches(shape: Shape, data: bytes) -> Iterator[tuple[int, int]]:
    """The spans of ``data`` that are secrets of ``shape`` (the secret part only)."""
    groups = shape.pattern.groupindex
    for match in shape.pattern.finditer(data):
        if "name" in groups:
            name = match.group("name").decode("ascii", "replace")
            if not is_secret_name(name) or not looks_secret(match.group("secret")):
                continue
        start, end = match.span("secret") if "secret" in groups else match.span()
        if end > start and not data.startswith(REDACTED, start):
            yield start, end


def _base64_cores(value: bytes) -> Iterator[bytes]:
    """The base64 characters that depend on ``value`` alone, at each of the 3 alignments.

    ``base64(b"user:" + secret)`` (a Basic credential) does not contain
    ``base64(secret)``: the secret's bytes sit at some offset mod 3, which
    shifts every 6-bit group. The middle of the encoding at each alignment
    does not depend on what surrounds it, so those three strings are found
    wherever the value was encoded as part of something longer.
    """
    for align in range(3):
        encoded = base64.b64encode(b"\0" * align + value + b"\0\0")
        start = -(-8 * align // 6)
        end = 8 * (align + len(value)) // 6
        core = encoded[start:end]
        yield core
        yield core.replace(b"+", b"-").replace(b"/", b"_")


def forms(value: str) -> set[bytes]:
    """Every form ``value`` takes in a CLI's output, each at least :data:`MIN_SECRET` long.

    As it is; JSON-escaped (quotes, backslashes, ``\\/``), with non-ASCII as
    ``\\u`` escapes, and escaped twice (JSON inside a JSON string: a tool
    result that is itself JSON); URL-encoded (``%XX`` in either case, ``+``
    for spaces); and base64 (standard and URL-safe) at every alignment.
    """
    texts = {value}
    for _ in range(2):
        for text in list(texts):
            texts.add(json.dumps(text, ensure_ascii=False)[1:-1])
            texts.add(json.dumps(text)[1:-1])
    texts |= {t.replace("/", "\\/") for t in texts}
    for quote in (
        urllib.parse.quote(value, safe=""),
        urllib.parse.quote(value),
        urllib.parse.quote_plus(value),
    ):
        texts.add(quote)
        texts.add(re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), quote))
    raw = value.encode("utf-8", "surrogateescape")
    out = {t.encode("utf-8", "surrogateescape") for t in texts}
    out.update(_base64_cores(raw))
    return {f for f in out if len(f) >= MIN_SECRET}


_URL_PASSWORD = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://([^\s/?#@:]*)(?::([^\s/?#@]*))?@")


def url_passwords(value: str) -> Iterator[str]:
    """The credentials inside URLs in ``value`` (``DATABASE_URL``, ``HTTPS_PROXY``, a DSN).

    A password is a secret whatever the variable is called; a user name is
    one only when it is long enough to be a key (a Sentry DSN's public key,
    ``https://TOKEN@host``), not ``git`` or ``postgres``.
    """
    for match in _URL_PASSWORD.finditer(value):
        user, password = match.group(1), match.group(2)
        if password:
            yield urllib.parse.unquote(password)
            yield password
        if len(user) >= 20:
            yield user
