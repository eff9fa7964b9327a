"""A hostile peer for any game: it starts processes that hold its output open.

``python -m engine.conformance.peers.fork [--at REQUEST] [--children N] [--then WHAT] [--pids FILE]`` — at
every ``REQUEST`` (default ``new``: once a game) it forks ``N`` children (default 3) that inherit its
stdout and sleep; then it answers as the reference does (``--then serve``, the default), exits without a
reply (``exit``), stops answering (``hang``) or replies with a line that is not JSON (``garbage``).
``--pids FILE`` appends each child's pid to FILE, one a line (for the tests).

The harness must not wait for the children: a peer that exits is a crash at once, though its output is
still open, and when a game ends (or the peer is dropped) its children are stopped with it.

>>> peer = ForkPeer(at="never", children=0, then="serve")
>>> peer.handle_line('{"cmd": "hello", "protocol": 1}').startswith('{"ok":true')
True
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from engine.conformance.peers.base import ReferencePeer, serve
from engine.conformance.peers.protocol import REQUESTS

__all__ = ["THEN", "ForkPeer", "main", "running"]

THEN = ("serve", "exit", "hang", "garbage")
"""What the peer does once it has forked (see the module docstring)."""

CHILD_SECONDS = 120.0
"""How long a child sleeps (a harness that leaves it behind leaves it this long, not for ever)."""


class ForkPeer(ReferencePeer):
    """Defect: forks children holding its output at every ``at`` request, then does ``then``."""

    name = "fork (starts processes that hold its output)"

    def __init__(self, at: str = "new", children: int = 3, then: str = "serve", pids: str | None = None,
                 child_seconds: float = CHILD_SECONDS) -> None:
        super().__init__()
        self.at = at
        self.children = children
        self.then = then
        self.pids = pids
        self.child_seconds = child_seconds

    def handle_line(self, line: str) -> str | None:
        try:
            cmd = json.loads(line).get("cmd")
        except (ValueError, AttributeError):
            cmd = None
        if cmd == self.at:
            self.spawn()
            if self.then == "exit":
                os._exit(3)
            if self.then == "hang":
                while True:
                    time.sleep(60)
            if self.then == "garbage":
                return "forked"
        return super().handle_line(line)

    def spawn(self) -> None:
        """Fork the children: each sleeps :attr:`child_seconds` with the peer's stdout open."""
        for _ in range(self.children):
            pid = os.fork()
            if pid == 0:  # the child: keep the inherited output open, do nothing
                try:
                    time.sleep(self.child_seconds)
                finally:
                    os._exit(0)
            if self.pids is not None:
                with open(self.pids, "a", encoding="utf-8") as out:
                    out.write(f"{pid}\n")


def running(pid: int) -> bool:
    """Whether process ``pid`` (a child listed with ``--pids``) still runs; a zombie, dead but not yet
    reaped by its parent, does not.

    >>> running(os.getpid())
    True
    """
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the process itself
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rpartition(")")[2].split()[0] != "Z"


def main(argv: list[str] | None = None) -> int:
    """Serve the protocol on stdin/stdout, forking as asked."""
    parser = argparse.ArgumentParser(prog="python -m engine.conformance.peers.fork",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--at", choices=REQUESTS, default="new", help="the request that forks (default new)")
    parser.add_argument("--children", type=int, choices=range(0, 17), default=3, metavar="N",
                        help="children forked each time, 0 to 16 (default 3)")
    parser.add_argument("--then", choices=THEN, default="serve", help="what the peer does after forking")
    parser.add_argument("--pids", metavar="FILE", help="append each child's pid to FILE")
    args = parser.parse_args(argv)
    if not hasattr(os, "fork"):
        parser.error("needs os.fork (a POSIX system)")
    return serve(ForkPeer(args.at, args.children, args.then, args.pids))


if __name__ == "__main__":
    sys.exit(main())
