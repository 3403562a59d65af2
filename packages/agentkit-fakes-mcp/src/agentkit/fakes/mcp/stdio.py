"""The stdio launcher: a FakeMcpServer reached through a command, as most MCP servers are.

A client configured with a command (``StdioServer``) starts it and speaks
JSON-RPC over its stdin and stdout, one message a line. The double lives in
the test's process, so the command is this small bridge:
``python -m agentkit.fakes.mcp.stdio <url>`` reads each line from stdin,
POSTs it to the running double at ``url`` (keeping the session the double
gives), and writes each answer to stdout as one line. Everything the double
records and verifies, it records and verifies as over HTTP.
:meth:`FakeMcpServer.stdio() <agentkit.fakes.mcp.server.FakeMcpServer.stdio>` gives
the ``StdioServer`` that starts it.

The bridge never invents an answer: a line that is not JSON goes to the
double like any other (which answers it ``-32700``), and a double that
cannot be reached ends the bridge with exit status 1 and the reason on
stderr, which the client reports as a server that stopped.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO

from agentkit.core._internal.arguments import check_mapping, check_str, check_values

__all__ = ["StdioServer", "bridge", "main"]


@dataclass(frozen=True, slots=True)
class StdioServer:
    """An MCP server the CLI starts itself and talks to over stdin/stdout.

    ``command`` is the executable (an absolute path is safest: the CLI's
    ``PATH`` is the cognition's ``env``), ``args`` its arguments, ``env``
    variables the CLI sets for it.
    """

    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_str(self.command, "StdioServer", "command", empty=False)
        args = check_values(self.args, "StdioServer", "args", "a list of str")
        for index, arg in enumerate(args):
            check_str(arg, "StdioServer", f"args[{index}]")
        object.__setattr__(self, "args", args)
        env = check_mapping(self.env, "StdioServer", "env", "a mapping of str to str")
        for key, value in env.items():
            check_str(key, "StdioServer", "env (a name)")
            check_str(value, "StdioServer", f"env[{key!r}]")
        object.__setattr__(self, "env", dict(env))


def _post(url: str, body: bytes, session: str | None) -> tuple[bytes, str | None]:
    # Imported here: the module is imported for StdioServer by every test that imports
    # the package, and only the launcher process posts.
    import urllib.error
    import urllib.request

    # Straight to loopback: a proxy the environment names (HTTP_PROXY) is never asked.
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    if session is not None:
        headers["mcp-session-id"] = session
    request = urllib.request.Request(url, body, headers, method="POST")
    try:
        with direct.open(request, timeout=None) as response:
            return response.read(), response.headers.get("mcp-session-id")
    except urllib.error.HTTPError as refused:  # a 4xx / 5xx still carries the JSON-RPC answer
        return refused.read(), None


def bridge(url: str, stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Forward each stdin line to the double at ``url``; write each answer as one line."""
    session: str | None = None
    for line in stdin:
        body = line.strip()
        if not body:
            continue
        answer, given = _post(url, body, session)
        session = given or session
        if answer.strip():
            stdout.write(answer.strip().replace(b"\n", b" ") + b"\n")
            stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or not args[0].startswith("http://"):
        print("usage: python -m agentkit.fakes.mcp.stdio <FakeMcpServer url>", file=sys.stderr)
        return 2
    try:
        bridge(args[0], sys.stdin.buffer, sys.stdout.buffer)
    except OSError as exc:  # urllib's URLError included
        print(
            f"agentkit.fakes.mcp.stdio: the FakeMcpServer at {args[0]} is gone: {exc}",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
