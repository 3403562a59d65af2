"""REJECTED by mypy: a process double whose ``wait`` is sync and ``pid`` missing."""

from __future__ import annotations

from agentkit.core.ports import ProcessPort, StreamReaderPort, StreamWriterPort


class SyncWaitProcess:
    stdin: StreamWriterPort | None = None
    stdout: StreamReaderPort | None = None
    stderr: StreamReaderPort | None = None
    returncode: int | None = 0

    def wait(self) -> int:
        return 0

    def terminate(self) -> None:
        pass

    def kill(self) -> None:
        pass


_process: ProcessPort = SyncWaitProcess()
