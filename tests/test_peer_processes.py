"""A peer's processes end with its game (docs/robustness.md, round three, class 7).

The hostile peer ``engine.conformance.peers.fork`` forks children that keep its stdout open.  Each peer runs
in a process group of its own and the harness stops the whole group when the game ends or the peer is
dropped; a peer that exits while a child holds its output is a crash at once, not a timeout.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.conformance.campaign.runner import run_campaign
from engine.conformance.peers.fork import running
from engine.conformance.peers.launch import subprocess_peer
from engine.conformance.peers.protocol import PeerCrashed, SubprocessTransport, hello_request, new_request

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the hostile peer forks")


def _survivors(pids_file: Path, wait: float = 5.0) -> list[int]:
    """The children listed in ``pids_file`` still running after at most ``wait`` seconds."""
    pids = [int(line) for line in pids_file.read_text(encoding="utf-8").split()]
    assert pids, "the peer forked no child"
    deadline = time.monotonic() + wait
    while True:
        alive = [p for p in pids if running(p)]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.05)


@pytest.fixture
def pids(tmp_path: Path) -> Iterator[Path]:
    """The file the hostile peer lists its children in; whatever of them is left when the test ends (it
    failed) is stopped, so a failing run leaves nothing behind either."""
    path = tmp_path / "pids"
    yield path
    for pid in (int(p) for p in path.read_text(encoding="utf-8").split()) if path.exists() else ():
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def _fork_peer(pids: Path, *flags: str) -> list[str]:
    return [sys.executable, "-m", "engine.conformance.peers.fork", "--pids", str(pids), *flags]


def test_a_peer_exiting_while_its_children_hold_its_output_is_a_crash_at_once(pids: Path) -> None:
    """A peer that forks at ``hello`` and exits without a reply crashed: reported as a crash within a
    second or two (not as a timeout once the start-up time is over), and its children are stopped."""
    command = _fork_peer(pids, "--at", "hello", "--then", "exit")
    transport = SubprocessTransport(command, timeout=5, startup=30)
    started = time.monotonic()
    try:
        with pytest.raises(PeerCrashed, match=r"exited with code 3 before replying to 'hello'.*holds its"):
            transport.request(hello_request())
        assert time.monotonic() - started < 5
    finally:
        transport.close()
    assert _survivors(pids) == []


def test_a_dropped_peer_takes_its_children_with_it(pids: Path) -> None:
    """A peer that forks at ``new`` and then hangs is dropped after its timeout; its children go too."""
    transport = SubprocessTransport(_fork_peer(pids, "--at", "new", "--then", "hang"), timeout=1, startup=30)
    try:
        transport.request(hello_request())
        with pytest.raises(Exception, match="no reply to 'new'"):
            transport.request(new_request("take6", "standard", 2, None))
    finally:
        transport.close()
    assert _survivors(pids) == []


def test_no_process_a_peer_forked_outlives_the_campaign(pids: Path) -> None:
    """A peer that forks three children at every game and otherwise plays right: after the campaign (the
    peer kept between games, closed at the end) none of the children is left."""
    report = run_campaign(subprocess_peer(_fork_peer(pids, "--at", "new"), timeout=20), games=3, jobs=1,
                          seed=1, max_steps=6, game_names=["take6"], shrink=False)
    assert report.classes == () and report.games == 3
    assert len(pids.read_text(encoding="utf-8").split()) >= 9
    assert _survivors(pids) == []
