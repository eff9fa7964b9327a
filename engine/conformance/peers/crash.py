"""A wrong peer for any game: the process dies the first time a player's score changes from zero.

``python -m engine.conformance.peers.crash`` — the harness must report a ``crash`` (with the exit code and
the tail of stderr), survive it (a new process for the next game) and shrink the game to the shortest one
in which somebody scores.
"""

from __future__ import annotations

import sys

from engine.conformance.peers.base import ReferencePeer, serve


class PeerDied(RuntimeError):
    """What the crashing peer raises (uncaught: the process ends with a traceback on stderr)."""


class CrashPeer(ReferencePeer):
    """Defect: raises an uncaught error after the first action that gives anyone a non-zero score."""

    name = "crash (dies when somebody scores)"

    def after_apply(self) -> None:
        if any(self.scores()):
            raise PeerDied(f"simulated crash after action {self.applied}: scores {list(self.scores())}")


def main() -> int:
    """Serve the protocol on stdin/stdout (until the crash)."""
    return serve(CrashPeer())


if __name__ == "__main__":
    sys.exit(main())
