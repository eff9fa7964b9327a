"""A wrong peer for any game: it accepts an illegal action, answering ``ok`` and ignoring it.

``python -m engine.conformance.peers.lenient`` — the harness's illegal probes must catch it (kind
``accepted-illegal``) and the record it writes ends with the illegal action, which ``arbiter check``
reports with the clause that forbids it.
"""

from __future__ import annotations

import sys
from typing import Any

from engine.conformance.peers.base import ReferencePeer, serve
from engine.errors import RuleViolation


class LenientPeer(ReferencePeer):
    """Defect: every illegal action is silently accepted (and has no effect)."""

    name = "lenient (accepts illegal actions)"

    def do_apply(self, player: int, action: Any) -> None:
        try:
            super().do_apply(player, action)
        except RuleViolation:
            return


def main() -> int:
    """Serve the protocol on stdin/stdout."""
    return serve(LenientPeer())


if __name__ == "__main__":
    sys.exit(main())
