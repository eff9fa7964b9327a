"""The reference under fault models: ``python -m engine.conformance.peers.edited --edit EDIT [--edit ...]``.

Each ``--edit`` is a fault model's signature (:func:`engine.conformance.diagnosis.faults.parse`): one value
of a rule table changed, two values swapped, a row or an effect left out, the reading a ruling rejects, an
option, a skipped step.  The peer plays every game of a game the edits name by the rules under those
edits (:class:`~engine.conformance.diagnosis.faults.World`: the shipped tables edited in memory, nothing
written), and every other game as the reference.  It declares the ``position`` capability like the
reference: a position it is given is put under the edited rules (``World.adopt``).  It is an
implementation nobody hand-wrote: the diagnosis is measured on random draws of such peers.

>>> import json
>>> peer = EditedPeer(["petersburg:edit:phases/param/lower_row_discount/value=2"])
>>> peer.name
'arbiter-rules reference under petersburg:edit:phases/param/lower_row_discount/value=2'
>>> line = ('{"cmd": "position", "game": "petersburg", "state": {}, "position": '
...         '"first 2 worker 0 0 0/1/0/1 Market,Pub Lumberjack - - 25:0:-:-:- 25:0:-:-:-"}')
>>> peer.handle_line(line)
'{"ok":true}'
>>> peer.handle_line('{"cmd": "apply", "player": 0, "action": '
...                  '{"type": "buy", "player": 0, "card": "Lumberjack", "source": "lower"}}')
'{"ok":true}'
>>> json.loads(peer.handle_line('{"cmd": "state"}') or "")["claims"]["money"]  # the rules: 23
[24, 25]
>>> EditedPeer(["petersburg:edit:cards/Nobody/cost=3"])
Traceback (most recent call last):
...
engine.errors.InputError: edit: petersburg:edit:cards/Nobody/cost=3: cards.toml has no row 'Nobody' ...
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from attrs import frozen

from engine.conformance.diagnosis.faults import Fault, World, parse
from engine.conformance.peers.base import ReferencePeer, serve
from engine.conformance.peers.launch import PeerFactory, in_process
from engine.errors import InputError
from engine.game import Game

__all__ = ["EditedPeer", "MakeEdited", "edited_peer", "main"]


class EditedPeer(ReferencePeer):
    """The reference peer playing by the rules under ``edits`` (fault signatures, or :class:`Fault`
    values).  Raises InputError (field ``edit``) naming a signature that does not parse or edits that
    cannot be applied together (two edits of one value, tables that do not load)."""

    def __init__(self, edits: Iterable[str | Fault]) -> None:
        super().__init__()
        faults: list[Fault] = []
        for e in edits:
            try:
                faults.append(e if isinstance(e, Fault) else parse(e))
            except InputError as exc:
                raise InputError("edit", f"{e}: {exc.message}") from None
        by_game: dict[str, list[Fault]] = {}
        for f in faults:
            by_game.setdefault(f.game, []).append(f)
        self.worlds: dict[str, World] = {}
        """Game name -> the world its games are played in (a game no edit names: the reference)."""
        for game, fs in by_game.items():
            try:
                self.worlds[game] = World(game, fs)
            except InputError as exc:
                named = ", ".join(f.signature for f in fs)
                message = exc.message if exc.message.startswith(named) else f"{named}: {exc.message}"
                raise InputError("edit", message) from None
        self.faults = tuple(sorted(set(faults)))
        named = ", ".join(f.signature for f in self.faults)
        self.name = f"arbiter-rules reference under {named or 'no edit'}"

    def started(
        self, game: str, variant: str, players: int, options: Mapping[str, Any], setup: Any
    ) -> tuple[Game, Any]:
        """A new game under the game's world (the reference when none): its set-up is checked by the edited
        rules (an edited hand size deals hands of that size), never by the reference's."""
        world = self.worlds.get(game)
        if world is None:
            return super().started(game, variant, players, options, setup)
        return world.game, world.new_game(players, variant=variant, options=dict(options), setup=setup)

    def do_position(self, game: str, notation: str, state: Mapping[str, Any]) -> None:
        """Go on from a reference position put under the game's world."""
        super().do_position(game, notation, state)
        world = self.worlds.get(game)
        if world is not None:
            self.game = world.game
            self.state = world.adopt(self.state)


@frozen
class MakeEdited:
    """Makes an :class:`EditedPeer` of ``edits`` (a picklable maker: campaigns send factories to worker
    processes)."""

    edits: tuple[str, ...]

    def __call__(self) -> EditedPeer:
        return EditedPeer(self.edits)


def edited_peer(edits: Sequence[str | Fault]) -> PeerFactory:
    """A peer factory (in this process) for the reference under ``edits``, checked at once (InputError
    naming the bad edit).

    >>> from engine.conformance.campaign.runner import run_campaign
    >>> report = run_campaign(edited_peer(["take6:edit:setup/standard/row_capacity=4"]), games=2, jobs=1,
    ...                       seed=1, game_names=["take6"], variants=["standard"], shrink=False)
    >>> report.classes != []
    True
    """
    signatures = tuple(e.signature if isinstance(e, Fault) else e for e in edits)
    EditedPeer(signatures)  # every edit parsed and applied now, not in a worker
    return in_process(MakeEdited(signatures))


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the protocol on stdin/stdout under the ``--edit`` fault models; a bad edit: one line on stderr,
    exit code 2."""
    parser = argparse.ArgumentParser(
        prog="python -m engine.conformance.peers.edited",
        description="The reference rules engine under one or more fault models, as a peer for arbiter fuzz.",
    )
    parser.add_argument(
        "--edit", action="append", default=[], metavar="EDIT",
        help="a fault model's signature, e.g. petersburg:edit:phases/param/lower_row_discount/value=2 or "
             "take6:skip:T6-PLACE-3 (repeat for several)",
    )
    args = parser.parse_args(argv)
    try:
        if not args.edit:
            raise InputError("--edit", "give at least one fault model (GAME:KIND:TARGET[=VALUE])")
        peer = EditedPeer(args.edit)
    except InputError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    return serve(peer)


if __name__ == "__main__":
    sys.exit(main())
