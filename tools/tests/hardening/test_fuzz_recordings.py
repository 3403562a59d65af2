"""tools/hardening/fuzz_recordings, held as a regression test on a small sample."""

from __future__ import annotations

import pytest

from tools.hardening.fuzz_recordings import main


def test_no_damaged_recording_escapes_as_a_raw_exception(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--n", "400", "--seed", "21"]) == 0
    out = capsys.readouterr().out
    assert "escapes (not a RecordingError): 0" in out
    assert "hangs (over 20 s): 0" in out
