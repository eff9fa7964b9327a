"""A wrong peer for any game: it prints a debug line on stdout whenever a single player must act.

``python -m engine.conformance.peers.garbage`` — a classic slip (a log line on the protocol channel).  The
harness must report ``garbage`` naming the reply it could not read.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from engine.conformance.peers.base import ReferencePeer, serve


class GarbagePeer(ReferencePeer):
    """Defect: the ``state`` reply is preceded by ``debug: ...`` when exactly one seat must act."""

    name = "garbage (logs to stdout)"

    def respond(self, request: Mapping[str, Any]) -> str:
        reply = super().respond(request)
        if request["cmd"] == "state" and self.game is not None:
            to_act = self.game.to_act(self.state)
            if len(to_act) == 1:
                return f"debug: waiting for seat {to_act[0]}\n{reply}"
        return reply


def main() -> int:
    """Serve the protocol on stdin/stdout."""
    return serve(GarbagePeer())


if __name__ == "__main__":
    sys.exit(main())
