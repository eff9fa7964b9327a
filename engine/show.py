"""``arbiter show GAME --position JSON|@FILE -o FILE.svg``: the picture of a position (see :mod:`engine.svg`).

The position is the game's JSON state (inline or ``@FILE``), or ``--record FILE [--upto N]``: a game record
replayed on the reference engine.  ``--viewer N`` draws only what seat N may see; ``--hand N`` adds a
6 nimmt! player's hand; ``--costs-for N`` picks whose effective costs a Saint Petersburg board shows.
Without ``-o`` the SVG goes to standard output.

>>> from engine.cli import main
>>> main(["show", "take6", "--position", "{}"])   # the error line goes to stderr
2
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine import cliargs, outputs
from engine.errors import InputError
from engine.game import game_names
from engine.jsonio import one_line
from engine.positions import load_position_arg as load_position

__all__ = ["position_from_args", "register", "run"]


def position_from_args(args: argparse.Namespace) -> Any:
    """The state named by ``--position`` or ``--record``/``--upto`` (exactly one of them)."""
    if (args.position is None) == (args.record is None):
        raise InputError("--position/--record", "give exactly one of --position or --record")
    if args.position is not None:
        return load_position(args.game, args.position)
    from engine.query.explain import state_from_record

    return state_from_record(args.game, Path(args.record), upto=args.upto)


def run(args: argparse.Namespace) -> int:
    """Entry point of ``arbiter show``."""
    from engine.svg import board_svg

    state = position_from_args(args)
    picture = board_svg(args.game, state, viewer=args.viewer, hand=args.hand, costs_for=args.costs_for)
    if args.output in (None, "-"):
        sys.stdout.write(picture + "\n")
        return 0
    position = args.position or ""
    inputs = [x for x in (args.record, position[1:] if position.startswith("@") else None) if x]
    outputs.write(args.output, outputs.SVG_PICTURE.mark(picture + "\n"), source="-o",
                  kind=outputs.SVG_PICTURE, force=args.force, inputs=inputs)
    print(one_line(f"wrote {args.output}"), file=sys.stderr)  # a newline in the name stays \\n
    return 0


def register(sub: Any) -> None:
    """Add ``show`` to the command line."""
    p = sub.add_parser(
        "show",
        help="draw a position as SVG",
        description="Draw a position as an SVG picture: a 6 nimmt! table or a Saint Petersburg "
        "board. With --viewer only what that seat may see is drawn.",
    )
    p.add_argument("game", choices=game_names(), help="which game")
    p.add_argument("--position", metavar="JSON|@FILE", help="the game's JSON state, inline or @FILE")
    p.add_argument("--record", metavar="FILE", help="a game record (arbiter-record JSON Lines), replayed")
    p.add_argument("--upto", type=cliargs.count("--upto", lo=0), metavar="N",
                   help="with --record: the position after N actions")
    p.add_argument("--viewer", type=cliargs.seat("--viewer"), metavar="SEAT",
                   help="draw only what this seat may see")
    p.add_argument("--hand", type=cliargs.seat("--hand"), metavar="SEAT",
                   help="6 nimmt!: also draw this seat's hand")
    p.add_argument(
        "--costs-for",
        type=cliargs.seat("--costs-for"),
        metavar="SEAT",
        help="Saint Petersburg: whose effective costs to print (default: the viewer, else the player to act)",
    )
    p.add_argument("-o", "--output", metavar="FILE.svg", help="write here (default: standard output)")
    p.add_argument("--force", action="store_true",
                   help="replace an existing file that is not a picture this command wrote (never an input)")
    p.set_defaults(run=run)
