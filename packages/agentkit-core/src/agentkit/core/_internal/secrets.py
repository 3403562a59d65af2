"""What a secret looks like: the names that hold one, the shapes keys take, the forms a value takes.

One list, used three times: the recordings' scrubber
(:mod:`agentkit.fakes.cli._recording._scrub`) replaces everything it finds
here before a recording is built, their gate
(:mod:`agentkit.fakes.cli._recording._gate`) refuses to write a file in which
anything here is still found, and FakeApi (:mod:`agentkit.fakes.api._credentials`)
reports and masks a real-looking provider key a client sends it. Because all
read the same list, a scrubbed recording passes the gate by construction, and
a shape added here is scrubbed, refused and reported from then on. It lives
in agentkit-core because both fakes packages need it and each depends on
agentkit-core alone.

Why a hand list and not a secret-detection library: the fakes depend on
agentkit-core alone, so the scan must work with no extra installed, and it needs the exact span of each secret to replace, not a
line flagged; the entropy detectors such tools add flag every session id,
hash and thinking signature a CLI prints, which would make the gate refuse
every recording. The list below is the usual set of provider prefixes (the
ones secret scanners and providers' own push protection agree on), each
anchored on its fixed prefix so matching stays linear.
"""

from __future__ import annotations

import base64
import re
import string
import urllib.parse
from collections.abc import Iterator, Mapping
from typing import NamedTuple

__all__ = [
    "MIN_SECRET",
    "REDACTED",
    "SHAPES",
    "Shape",
    "KnownValues",
    "Text",
    "value_pattern",
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
    r"|KEYS?(?![A-Z0-9])|(?<![A-Z0-9])(?:PASS|PWD|DSN|PAT|JWT|SIG)(?![A-Z0-9])"
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
    rb"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Za-z][a-z]+(?:[-_][a-z]+)*[.,]?|\[REDACTED\].*|~.*"
    rb"|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|[A-Za-z_]+(?:\.[A-Za-z_]+)+",
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
    ``hints``: a pattern over the LOWERCASED text that any match's line
    contains, so the pattern runs only over those lines -- a 30 MB
    recording is scanned in seconds, not minutes.
    """

    kind: str
    pattern: re.Pattern[bytes]
    hints: re.Pattern[bytes] | None = None


def _shape(kind: str, pattern: bytes, hints: tuple[bytes, ...] = ()) -> Shape:
    """``hints``: regular expressions (bytes, lowercase), one of which a match's line holds."""
    return Shape(kind, re.compile(pattern), re.compile(b"|".join(hints)) if hints else None)


_WORD = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")

_NAME_HINTS = (
    b"pass",
    b"pwd",
    b"secret",
    b"token(?!s)",
    b"key",
    b"auth(?!or(?!i[sz]))",
    b"credential",
    b"cookie",
    b"private",
    b"dsn",
    b"jwt",
    b"sig(?!n|ht)",
    b"webhook",
    b"connection",
    b"pat(?!h|tern)",
)
"""A name :func:`is_secret_name` accepts matches one of these once lowercased.

Narrower than "contains the letters": ``tokens``, ``author``, ``signature``,
``insights``, ``path`` and ``pattern`` are on most lines of a CLI's output
and name no secret, so the lines holding only them are not searched.
"""
_NAME = rb"(?P<name>[A-Za-z0-9_.\-]{1,64}+)"


_JSON_VALUE = rb"(?P<secret>(?:[^\"\\\n]|\\[^\n]){1,4096}?)"
_QUOTE = rb"(?:\\{0,7}['\"])"
"""A quote, bare or escaped (inside a JSON string, or one inside that)."""
_NEWLINE = rb"(?:\r?\n|(?:\\{1,7}r)?\\{1,7}n)"
"""A line break, raw or escaped in a JSON string (at any depth)."""
_TEXT_CHAR = rb"[^\s'\"`\\,;&<>\[\]{}()]"
_WORD_VALUE = rb"[^\s'\"`\\,;&<>\[\]{}()=]"
"""A value after a bare word (``password VALUE``): no ``=``, so ``NAME=1`` that follows is no value."""
_TEXT_VALUE = rb"(?P<secret>" + _TEXT_CHAR + rb"{8,4096})"
"""A value written without quotes: up to the next space, quote or separator."""
_ASSIGNED = rb"(?<![A-Za-z0-9_.\-])" + _NAME + _QUOTE + rb"?[ \t]{0,4}[=:][ \t]{0,4}"
"""A secret-looking name, maybe quoted, then ``=`` or ``:``: what precedes an assigned value."""


def _escaped_json_field(depth: int) -> Shape:
    """``"password": "..."`` in a JSON string ``depth`` levels deep (a tool result that is JSON).

    At depth ``d`` each quote of the inner object is preceded by ``2**d - 1``
    backslashes; a longer run before a quote belongs to a string deeper
    still, so it is part of the value, and the value ends at the first
    quote with exactly the run of its own level.
    """
    run = rb"\\" * (2**depth - 1)
    quote = rb"(?<!\\)" + run + rb"\""
    value = rb"(?P<secret>(?:[^\"\\\n]|\\+[^\"\\\n]|\\{%d,}\"){1,4096}?)" % (2**depth)
    # Lines holding such a quote are few (tool results); searched only there.
    return _shape(
        "secret-named JSON field",
        quote + _NAME + quote + rb"\s*:\s*" + quote + value + quote,
        (run + rb"\"",),
    )


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
    _shape("Slack app token", rb"xapp-\d-[A-Za-z0-9\-]{20,}"),
    _shape("Atlassian API token", rb"ATATT3[A-Za-z0-9_\-=]{50,}"),
    _shape("Sentry token", rb"sntry[su]_[A-Za-z0-9_=+/]{40,}"),
    _shape("Doppler token", rb"dp\.(?:st|sa|ct|pt|scim|audit)\.[A-Za-z0-9_\-.]{20,}"),
    _shape("Postman key", rb"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
    _shape("Grafana token", rb"gl(?:sa|c)_[A-Za-z0-9_+/=]{30,}"),
    _shape("New Relic key", rb"NR(?:AK|AA|II|JS)-[A-Za-z0-9]{20,}"),
    _shape("Tailscale key", rb"tskey-[a-z]+-[A-Za-z0-9]{8,}-[A-Za-z0-9]{16,}"),
    _shape("Vault token", rb"hv[sbr]\.[A-Za-z0-9_\-]{24,}"),
    _shape("Docker Hub token", rb"dckr_pat_[A-Za-z0-9_\-]{20,}"),
    _shape("age secret key", rb"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    _shape("Notion token", rb"ntn_[A-Za-z0-9]{40,}\b"),
    _shape("Notion token", rb"secret_[A-Za-z0-9]{40,}\b"),
    _shape("Supabase key", rb"sb(?:p|a|_secret)_[A-Za-z0-9_\-]{30,}"),
    _shape("1Password service account token", rb"ops_eyJ[A-Za-z0-9+/=_\-]{50,}"),
    _shape("Heroku key", rb"HRKU-[A-Za-z0-9_\-]{20,}"),
    _shape("PlanetScale token", rb"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_\-.]{30,}"),
    _shape("Mailgun key", rb"key-[a-f0-9]{32}\b"),
    _shape("Twilio key", rb"SK[a-f0-9]{32}\b"),
    _shape("Telegram bot token", rb"\b\d{8,10}:AA[A-Za-z0-9_\-]{32,33}\b", (b":aa",)),
    _shape(
        "Discord webhook",
        rb"discord(?:app)?\.com/api/webhooks/\d+/(?P<secret>[A-Za-z0-9_\-]{20,})",
        (b"discord",),
    ),
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
        "PuTTY private key",
        rb"Private-Lines:[ \t]*\d+" + _NEWLINE + rb"(?P<secret>[A-Za-z0-9+/=]{4,}"
        rb"(?:" + _NEWLINE + rb"(?!Private-)[A-Za-z0-9+/=]{4,}){0,256})",
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
        "HTTP credential",
        rb"(?i:authorization)" + _QUOTE + rb"?[ \t]{0,4}[:=][ \t]{0,4}" + _QUOTE + rb"?"
        rb"[A-Za-z][A-Za-z0-9_\-]{0,30}[ \t]+(?P<secret>[^\s\"'\\][^\r\n\"'\\]{7,4095})",
        (b"authorization",),
    ),
    _shape(
        "cookie",
        rb"(?i:\b(?:set-)?cookie)"
        + _QUOTE
        + rb"?[ \t]{0,4}:[ \t]{0,4}(?P<secret>[^\r\n\"\\]{8,4096})",
        (b"cookie",),
    ),
    _shape(
        "password in a user:password argument",
        rb"(?<![^\s'\"])(?:-u|--user|--proxy-user)[ \t]+" + _QUOTE + rb"?[^\s:'\"\\]{1,64}:"
        rb"(?!\d+(?![^\s'\"\\]))(?P<secret>[^\s'\"\\]{1,256})",
        (b"-u", b"--user", b"--proxy-user"),
    ),
    _shape(
        "secret-named flag",
        # A literal first: the engine skips to each "-"; what comes before it is checked after.
        rb"-(?<![A-Za-z0-9_.\-]-)-?" + _NAME + rb"[ \t]+" + _QUOTE + rb"?" + _TEXT_VALUE,
        _NAME_HINTS,
    ),
    _shape(
        "secret-named word",
        rb"(?<![A-Za-z0-9_.\-])(?P<name>[A-Za-z][A-Za-z_]{1,40})[ \t]+(?="
        + _WORD_VALUE
        + rb"{0,4096}?(?:[0-9]|[a-z][A-Z]))(?="
        + _WORD_VALUE
        + rb"{0,4096}?[A-Za-z])(?P<secret>"
        + _WORD_VALUE
        + rb"{8,4096})",
        _NAME_HINTS,
    ),
    _shape(
        "secret-named XML element",
        rb"<" + _NAME + rb"(?:[ \t][^<>\n]{0,256})?>(?P<secret>[^<>\\\n\"]{8,4096})</",
        _NAME_HINTS,
    ),
    _shape(
        "secret-named JSON field",
        rb"\"" + _NAME + rb"\"\s*:\s*\"" + _JSON_VALUE + rb"\"",
        _NAME_HINTS,
    ),
    *(_escaped_json_field(depth) for depth in (1, 2, 3)),
    _shape("secret-named assignment", _ASSIGNED + _QUOTE + rb"?" + _TEXT_VALUE, _NAME_HINTS),
    _shape(
        "secret-named assignment",
        _ASSIGNED + rb"(?P<quote>" + _QUOTE + rb")(?P<secret>[^'\"\\\n]{8,4096})(?P=quote)",
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
        self._lines: dict[re.Pattern[bytes], list[tuple[int, int]]] = {}

    def lines(self, hints: re.Pattern[bytes]) -> list[tuple[int, int]]:
        """``(start, end)`` of each line on which ``hints`` matches (lowercased), in order."""
        if hints not in self._lines:
            if self._lower is None:
                self._lower = self.data.lower()
            lower = self._lower
            spans: list[tuple[int, int]] = []
            found = hints.search(lower)
            while found is not None:
                start = lower.rfind(b"\n", 0, found.start()) + 1
                end = lower.find(b"\n", found.end())
                end = len(lower) if end == -1 else end
                if spans and start <= spans[-1][1]:
                    spans[-1] = (spans[-1][0], end)
                else:
                    spans.append((start, end))
                found = hints.search(lower, end)
            self._lines[hints] = spans
        return self._lines[hints]


def _found(shape: Shape, text: Text) -> Iterator[re.Match[bytes]]:
    if shape.hints is None:
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


def _hex_any_case(text: str) -> bytes:
    return b"".join(
        b"[" + c.lower().encode() + c.upper().encode() + b"]" if c.isalpha() else c.encode()
        for c in text
    )


_JSON_SHORT = {
    '"': b'"',
    "/": b"/",
    "\n": b"n",
    "\r": b"r",
    "\t": b"t",
    "\b": b"b",
    "\f": b"f",
}
_NEVER_ESCAPED = frozenset(string.ascii_letters + string.digits + "-._~")
"""Characters no JSON, URL or HTML encoder escapes: matched as they are, which keeps the search fast."""
_HTML_NAMED = {"&": b"amp", "<": b"lt", ">": b"gt", '"': b"quot", "'": b"apos"}


def _char_pattern(char: str) -> bytes:
    """Every way one character of a value can show: as it is, or escaped by any usual rule.

    JSON escapes at any depth (a JSON string inside a JSON string doubles
    the backslashes: ``\\u0026``, ``\\\\"``), ``\\u`` in either case (Go
    writes ``&<>`` that way), percent-encoding of each UTF-8 byte in either
    case and encoded again (``%2526``), ``+`` for a space, and HTML's named
    and numeric entities. Each character is matched on its own, so a value
    with only SOME characters escaped (``encodeURI``, a serializer escaping
    only non-ASCII) is found as well as one escaped throughout.
    """
    raw = char.encode("utf-8", "surrogateescape")
    if char in _NEVER_ESCAPED:
        return re.escape(raw)
    point = ord(char)
    ways = [re.escape(raw)]
    if char == "\\":
        ways = [rb"\\{1,16}"]
    elif char in _JSON_SHORT:
        ways.append(rb"\\{1,16}" + re.escape(_JSON_SHORT[char]))
    if point < 0x10000:
        ways.append(rb"\\{1,16}u" + _hex_any_case(f"{point:04x}"))
    elif 0x10000 <= point <= 0x10FFFF:
        high = 0xD800 + ((point - 0x10000) >> 10)
        low = 0xDC00 + ((point - 0x10000) & 0x3FF)
        ways.append(
            rb"\\{1,16}u"
            + _hex_any_case(f"{high:04x}")
            + rb"\\{1,16}u"
            + _hex_any_case(f"{low:04x}")
        )
    ways.append(b"".join(rb"%(?:25){0,2}" + _hex_any_case(f"{byte:02x}") for byte in raw))
    if char == " ":
        ways.append(rb"\+")
    if char in _HTML_NAMED:
        ways.append(b"&" + _HTML_NAMED[char] + b";")
    ways.append(b"&#0*" + str(point).encode() + b";")
    ways.append(b"&#[xX]0*" + _hex_any_case(f"{point:x}") + b";")
    return b"(?:" + b"|".join(ways) + b")"


def _value_alternatives(value: str) -> list[bytes]:
    """The alternatives of :func:`value_pattern`, each a regular expression of its own."""
    raw = value.encode("utf-8", "surrogateescape")
    whole = {core for core in _base64_cores(raw) if len(core) >= MIN_SECRET}
    whole |= {raw.hex().encode(), raw.hex().upper().encode()}
    return [b"".join(_char_pattern(c) for c in value), *(re.escape(w) for w in sorted(whole))]


def value_pattern(value: str) -> bytes:
    """A regular expression (bytes) for ``value`` in every form it takes in a CLI's output.

    Character by character, as it is or escaped by JSON (any depth, ``\\u``
    in either case, ``\\/``), URL-encoding (in full or in part, either case,
    twice), or HTML (:func:`_char_pattern`); and whole, as base64 (standard
    and URL-safe, at every alignment, so also inside a longer encoded
    string) and as hex. Linear: a concatenation of bounded alternatives.
    """
    return b"|".join(_value_alternatives(value))


class KnownValues:
    """Secret values known by name, found in every form (:func:`value_pattern`), in one pass.

    ``name_of(match)`` says whose value a match is (``$API_KEY``), so the gate
    can report it without the value. The alternatives that start with a
    plain character go in one pattern, the rest in another: the regex
    engine skips ahead to the possible first characters of the first kind
    only when every alternative starts with one.
    """

    __slots__ = ("_patterns", "_values", "patterns")

    def __init__(self, values: Mapping[str, str]) -> None:
        """``values`` maps each secret value to the name it came from."""
        self._values = dict(values)
        self._patterns: dict[str, re.Pattern[bytes]] = {}
        plain: list[bytes] = []
        other: list[bytes] = []
        for value in sorted(values, key=len, reverse=True):  # the longest first where two overlap
            for alternative in _value_alternatives(value):
                starts_plain = alternative[:1].isalnum() and alternative[1:2] not in (b"{", b"*")
                (plain if starts_plain else other).append(alternative)
        self.patterns = tuple(re.compile(b"|".join(group)) for group in (plain, other) if group)

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def finditer(self, data: bytes) -> Iterator[re.Match[bytes]]:
        """Each match of a known value, in order; where two overlap, both."""
        found = [m for p in self.patterns for m in p.finditer(data) if m.end() > m.start()]
        if len(self.patterns) > 1:
            found.sort(key=lambda m: m.start())
        return iter(found)

    def name_of(self, match: re.Match[bytes]) -> str:
        """The name of the variable whose value ``match`` is."""
        text = match.group(0)
        for value, name in self._values.items():
            if value not in self._patterns:
                self._patterns[value] = re.compile(value_pattern(value))
            if self._patterns[value].fullmatch(text):
                return name
        return "a known secret"


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
