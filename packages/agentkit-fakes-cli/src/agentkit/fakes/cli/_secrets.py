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
    "Text",
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
    A pattern with a fixed prefix lets the regex engine skip to it; that
    the match starts a word is checked after. A pattern without one names
    ``hints``: lowercase words one of which any match's line contains, so
    the pattern runs only over those lines -- a 30 MB recording is scanned
    in a second, not half a minute.
    """

    kind: str
    pattern: re.Pattern[bytes]
    hints: tuple[bytes, ...] = ()


def _shape(kind: str, pattern: bytes, hints: tuple[bytes, ...] = ()) -> Shape:
    return Shape(kind, re.compile(pattern), hints)


_WORD = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")

_NAME_HINTS = (
    b"pass",
    b"pwd",
    b"secret",
    b"token",
    b"key",
    b"auth",
    b"credential",
    b"cookie",
    b"private",
    b"dsn",
    b"jwt",
    b"sig",
    b"webhook",
    b"connection",
    b"pat",
)
"""A name :func:`is_secret_name` accepts contains one of these (lowercased)."""
_NAME = rb"(?P<name>[A-Za-z0-9_.\-]{1,64}+)"


_JSON_VALUE = rb"(?P<secret>(?:[^\"\\\n]|\\[^\n]){1,4096}?)"

SHAPES: tuple[Shape, ...] = (
    _shape("Anthropic API key", rb"sk-ant-[A-Za-z0-9_\-]{8,}"),
    _shape("OpenAI API key", rb"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{16,}"),
    _shape("Stripe key", rb"(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}", (b"_live_", b"_test_")),
    _shape("Stripe webhook secret", rb"whsec_[A-Za-z0-9]{20,}"),
    _shape("GitHub token", rb"gh[pousr]_[A-Za-z0-9]{20,}"),
    _shape("GitHub fine-grained token", rb"github_pat_[A-Za-z0-9_]{20,}"),
    _shape("GitLab token", rb"gl(?:pat|ptt|rt|dt|cbt|soat|ft|imt|oas)-[A-Za-z0-9_\-]{20,}"),
    _shape("AWS access key id", rb"(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b"),
    _shape("Slack token", rb"xox[abposre]-[A-Za-z0-9\-]{10,}"),
    _shape("Slack webhook", rb"hooks\.slack\.com/services/[A-Za-z0-9/]{20,}"),
    _shape("Google API key", rb"AIza[0-9A-Za-z_\-]{35}"),
    _shape("Google OAuth token", rb"ya29\.[0-9A-Za-z_\-]{20,}"),
    _shape("Google OAuth client secret", rb"GOCSPX-[A-Za-z0-9_\-]{20,}"),
    _shape("Hugging Face token", rb"hf_[A-Za-z0-9]{30,}"),
    _shape("npm token", rb"npm_[A-Za-z0-9]{36}\b"),
    _shape("PyPI token", rb"pypi-AgE[A-Za-z0-9_\-]{30,}"),
    _shape("SendGrid key", rb"SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}"),
    _shape("DigitalOcean token", rb"do[por]_v1_[a-f0-9]{64}"),
    _shape("Databricks token", rb"dapi[0-9a-f]{32}"),
    _shape("Shopify token", rb"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}"),
    _shape("Groq key", rb"gsk_[A-Za-z0-9]{40,}"),
    _shape("xAI key", rb"xai-[A-Za-z0-9]{40,}"),
    _shape("Replicate token", rb"r8_[A-Za-z0-9]{30,}"),
    _shape("Linear key", rb"lin_api_[A-Za-z0-9]{30,}"),
    _shape(
        "JSON Web Token",
        rb"eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
    ),
    _shape(
        "private key",
        rb"-----BEGIN[A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----"
        rb"(?:[\s\S]{0,16384}?-----END[A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\]*)",
    ),
    _shape(
        "HTTP credential",
        rb"(?i:\b(?:bearer|basic))\s+(?P<secret>(?![a-z]+(?![A-Za-z0-9._~+/\-=]))[A-Za-z0-9._~+/\-]{12,}=*)",
        (b"bearer", b"basic"),
    ),
    _shape(
        "password in a URL",
        rb"[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s/?#@:\"'\\<>]{0,256}:"
        rb"(?P<secret>[^\s/?#@\"'\\<>]{1,256})@",
        (b"://",),
    ),
    _shape(
        "token in a URL",
        rb"[A-Za-z][A-Za-z0-9+.\-]{1,20}://(?P<secret>[A-Za-z0-9_\-]{20,256})@",
        (b"://",),
    ),
    _shape(
        "secret-named JSON field",
        rb"\"" + _NAME + rb"\"\s*:\s*\"" + _JSON_VALUE + rb"\"",
        _NAME_HINTS,
    ),
    _shape(
        "secret-named JSON field",
        rb"\\\"" + _NAME + rb"\\\"\s*:\s*\\\""
        rb"(?P<secret>(?:[^\"\\\n]|\\[^\"\n]){1,4096}?)\\\"",
        _NAME_HINTS,
    ),
    _shape(
        "secret-named assignment",
        rb"(?<![A-Za-z0-9_.\-])" + _NAME + rb"[ \t]{0,4}[=:][ \t]{0,4}['\"]?"
        rb"(?P<secret>[^\s'\"\\,;&<>\[\]{}()]{8,4096})",
        _NAME_HINTS,
    ),
    _shape(
        "secret-named assignment",
        rb"(?<![A-Za-z0-9_.\-])" + _NAME + rb"[ \t]{0,4}[=:][ \t]{0,4}(?P<quote>['\"])"
        rb"(?P<secret>[^'\"\\\n]{8,4096})(?P=quote)",
        _NAME_HINTS,
    ),
)
"""Every kind of secret found by its looks (the scrubber also knows values by name)."""


def _starts_word(data: bytes, start: int) -> bool:
    """Is ``start`` the start of a word -- also right after a JSON escape (``\\n``, ``\\u00a0``)?"""
    if start == 0 or data[start - 1] not in _WORD:
        return True
    if start >= 2 and data[start - 2] == 0x5C:  # \n, \t: the letter belongs to the escape
        return True
    return start >= 6 and data[start - 6 : start - 4] == b"\\u"


class Text:
    """One text being searched: its lowercase copy and the lines each set of hints is on."""

    __slots__ = ("_lines", "_lower", "data")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._lower: bytes | None = None
        self._lines: dict[tuple[bytes, ...], list[tuple[int, int]]] = {}

    def lines(self, hints: tuple[bytes, ...]) -> list[tuple[int, int]]:
        """``(start, end)`` of each line holding one of ``hints`` (any case), in order."""
        if hints not in self._lines:
            if self._lower is None:
                self._lower = self.data.lower()
            lower, data = self._lower, self.data
            spans: list[tuple[int, int]] = []
            for hint in hints:
                position = lower.find(hint)
                while position != -1:
                    start = data.rfind(b"\n", 0, position) + 1
                    end = data.find(b"\n", position)
                    end = len(data) if end == -1 else end
                    spans.append((start, end))
                    position = lower.find(hint, end)
            merged: list[tuple[int, int]] = []
            for start, end in sorted(set(spans)):
                if merged and start <= merged[-1][1]:
                    merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
                else:
                    merged.append((start, end))
            self._lines[hints] = merged
        return self._lines[hints]


def _found(shape: Shape, text: Text) -> Iterator[re.Match[bytes]]:
    if not shape.hints:
        yield from shape.pattern.finditer(text.data)
        return
    for start, end in text.lines(shape.hints):
        yield from shape.pattern.finditer(text.data, start, end)


def matches(shape: Shape, data: bytes | Text) -> Iterator[tuple[int, int]]:
    """The spans of ``data`` that are secrets of ``shape`` (the secret part only).

    Pass a :class:`Text` to search one text for several shapes: the lines
    their hints are on are found once.
    """
    text = data if isinstance(data, Text) else Text(data)
    data = text.data
    groups = shape.pattern.groupindex
    for match in _found(shape, text):
        if "name" not in groups and not _starts_word(data, match.start()):
            continue  # inside a longer word: "xsk-..." is no key
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
    for spaces); base64 (standard and URL-safe) at every alignment; and hex.
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
    out.add(raw.hex().encode())
    out.add(raw.hex().upper().encode())
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
