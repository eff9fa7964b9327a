"""The shape every refused command line has: exit code 2, exactly one line ``arbiter: error: ...`` on
standard error, no traceback (an argument argparse refuses exits the same way)."""

from __future__ import annotations

import pytest

from engine.cli import main


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run ``arbiter ARGV`` in-process; assert exit 2 with exactly one error line and no traceback; return
    that line."""
    try:
        code = main(list(argv))
    except SystemExit as stop:
        code = int(stop.code or 0)
    err = capsys.readouterr().err
    assert code == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("arbiter: error: "), err
    assert "Traceback" not in err
    return lines[0]
