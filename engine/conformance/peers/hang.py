"""A wrong peer for any game: it stops answering at the first action of the second turn.

``python -m engine.conformance.peers.hang`` — once as many actions as there are players have been applied,
the next ``apply`` never gets a reply.  The harness must report a ``timeout`` after its per-message
timeout (``arbiter fuzz --timeout``), kill the process and carry on.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from engine.conformance.peers.base import ReferencePeer, serve


class HangPeer(ReferencePeer):
    """Defect: sleeps for an hour instead of answering the (players + 1)-th ``apply``."""

    name = "hang (stops answering)"

    def do_apply(self, player: int, action: Any) -> None:
        if self.applied >= self.players:
            time.sleep(3600)
        super().do_apply(player, action)


def main() -> int:
    """Serve the protocol on stdin/stdout (until it hangs)."""
    return serve(HangPeer())


if __name__ == "__main__":
    sys.exit(main())
