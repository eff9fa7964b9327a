"""The reference engine as a peer: ``python -m engine.conformance.peers.reference``.

``arbiter fuzz --peer 'python -m engine.conformance.peers.reference'`` must find no divergence: the harness
compares the engine with itself through the protocol, which tests the harness, the protocol and the JSON
forms of set-ups, actions and facts.
"""

from __future__ import annotations

import sys

from engine.conformance.peers.base import ReferencePeer, serve


def main() -> int:
    """Serve the protocol on stdin/stdout."""
    return serve(ReferencePeer())


if __name__ == "__main__":
    sys.exit(main())
