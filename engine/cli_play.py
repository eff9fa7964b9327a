"""``arbiter play GAME``: a whole game with a bot in every seat and a readable turn-by-turn log
(:func:`engine.play.play_game`).

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="arbiter")
>>> register(parser.add_subparsers())
>>> parser.parse_args(["play", "take6", "--players", "3"]).players
3
"""

from __future__ import annotations

import argparse
from typing import Any

from engine import cliargs, jsonio, outputs
from engine.game import game_names
from engine.play import parse_options, play_game


def run(args: argparse.Namespace) -> int:
    """Entry point of ``arbiter play``."""
    if args.record is not None:
        jsonio.check_writable(args.record, source="--record")
        outputs.guard(args.record, source="--record", kind=outputs.RECORD)  # before the game, not after
    lines, _state = play_game(
        args.game,
        players=args.players,
        seed=args.seed,
        variant=args.variant,
        options=parse_options(args.option),
        bot=args.bot,
        record=args.record,
        start=args.start,
    )
    if args.quiet:
        lines = lines[-12:]
    for line in lines:
        print(line)
    return 0


def register(sub: Any) -> None:
    """Add ``play`` to the command line."""
    p = sub.add_parser("play", help="play a whole game with bots and print a readable log")
    p.add_argument("game", choices=game_names(), help="which game")
    p.add_argument("--players", type=cliargs.count("--players", hi=cliargs.MAX_SEAT + 1), default=4,
                   help="number of players (default 4)")
    p.add_argument("--seed", type=cliargs.seed("--seed"), default=0,
                   help="seed of the deal and of the bots (default 0)")
    p.add_argument("--variant", default=None, help="variant name (default: the standard game)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE", help="a game option (repeatable)")
    p.add_argument("--bot", default="random", help="bot for every seat (default random)")
    p.add_argument("--record", metavar="FILE", help="also write the game as a record (JSON Lines) to FILE")
    p.add_argument("--quiet", action="store_true", help="print only the last lines (the standings)")
    p.add_argument("--from", dest="start", metavar="TEXT",
                   help="go on from a position: a notation line, a JSON state or @FILE (docs/positions.md)")
    p.set_defaults(run=run)
