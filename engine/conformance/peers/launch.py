"""Peer factories: what starts a fresh peer for a game (a child process, or an object in this process).

>>> from engine.conformance.peers.base import ReferencePeer
>>> transport = in_process(ReferencePeer)()
>>> transport.close()
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from typing import Any

from attrs import frozen

from engine.conformance.peers.protocol import InProcessTransport, SubprocessTransport, Transport
from engine.errors import InputError
from engine.jsonio import show

__all__ = ["InProcessPeer", "PeerFactory", "SubprocessPeer", "in_process", "subprocess_peer"]

PeerFactory = Callable[[], Transport]
"""Starts a fresh peer (one per game)."""


@frozen
class SubprocessPeer:
    """Starts ``command`` as a child process (a picklable factory: campaigns send it to worker processes)."""

    command: str | tuple[str, ...]
    timeout: float = 5.0
    cwd: str | None = None

    def __call__(self) -> Transport:
        return SubprocessTransport(self.command, timeout=self.timeout, cwd=self.cwd)


@frozen
class InProcessPeer:
    """Makes a peer object living in this process (anything with ``handle_line(str) -> str``); picklable
    when ``make`` is a module-level class or function."""

    make: Callable[[], Any]

    def __call__(self) -> Transport:
        return InProcessTransport(self.make().handle_line)


def subprocess_peer(
    command: str | Sequence[str], *, timeout: float = 5.0, cwd: str | None = None
) -> PeerFactory:
    """A factory starting ``command`` as a child process for every game.  A command that cannot be split
    (an unclosed quote) is refused at once (InputError naming ``--peer``)."""
    if isinstance(command, str):
        try:
            if not shlex.split(command):
                raise InputError("--peer", "empty command")
        except ValueError as exc:
            raise InputError("--peer", f"cannot split {show(command)} like a shell would: {exc}") from None
        return SubprocessPeer(command, timeout, cwd)
    return SubprocessPeer(tuple(command), timeout, cwd)


def in_process(make_peer: Callable[[], Any]) -> PeerFactory:
    """A factory for a peer object living in this process (anything with ``handle_line(str) -> str``)."""
    return InProcessPeer(make_peer)

