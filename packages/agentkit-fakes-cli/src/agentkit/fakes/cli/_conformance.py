"""Static proof that the CLI doubles fit the subprocess seam.

Never imported at run time; mypy --strict checks it. Each fake is assigned
to :class:`~agentkit.core.ports.SpawnPort` (so a cognition accepts it as
``spawn=``) and the process one returns to
:class:`~agentkit.core.ports.ProcessPort`, its pipes to the reader/writer
ports. A fake whose signature drifted from ``create_subprocess_exec``'s
shape fails here, not in a cognition's test.
"""

from __future__ import annotations

from agentkit.core.ports import ProcessPort, SpawnPort, StreamReaderPort, StreamWriterPort
from agentkit.fakes.cli._claude import FakeClaudeCli
from agentkit.fakes.cli._codex import FakeCodexCli
from agentkit.fakes.cli._process import FakeCliProcess
from agentkit.fakes.cli._recording._capture import CapturingSpawn, _CapturedProcess
from agentkit.fakes.cli._streams import FakeStreamReader, FakeStreamWriter

__all__: list[str] = []

_claude: SpawnPort = FakeClaudeCli()
_codex: SpawnPort = FakeCodexCli()
_capture: SpawnPort = CapturingSpawn(_claude, cli="claude")


def _captured(process: _CapturedProcess) -> ProcessPort:
    return process


def _process(process: FakeCliProcess) -> ProcessPort:
    return process


def _reader(reader: FakeStreamReader) -> StreamReaderPort:
    return reader


def _writer(writer: FakeStreamWriter) -> StreamWriterPort:
    return writer


async def _spawned(cli: FakeClaudeCli) -> ProcessPort:
    return await cli("claude", "-p", stdin=-1, stdout=-1, stderr=-1, limit=1 << 20)
