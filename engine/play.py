"""``arbiter play GAME``: a whole game with a bot in every seat and a readable turn-by-turn log.

>>> from engine.play import play_game
>>> lines, state = play_game("take6", players=2, seed=4)
>>> lines[0].startswith("6 nimmt!")
True
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Mapping
from typing import Any

from engine import cliargs, jsonio, outputs
from engine.bots import BOTS
from engine.errors import InputError
from engine.game import Game, game_names, get_game
from engine.positions import load_position


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """Parse ``--option name=value`` pairs; values are JSON when they parse as JSON, else strings.

    A value is read through :mod:`engine.jsonio`, so a 5,000-digit integer or 1,000 nested brackets is
    refused, not parsed; an option given twice is refused.

    >>> parse_options(["trading_discount=false", "edition=second"])
    {'trading_discount': False, 'edition': 'second'}
    >>> parse_options(["a=1", "a=2"])
    Traceback (most recent call last):
    ...
    engine.errors.InputError: --option a: given twice
    """
    out: dict[str, Any] = {}
    for pair in pairs or []:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise InputError("--option", f"expected NAME=VALUE, got {jsonio.show(pair)}")
        label = "--option " + (name if name.isidentifier() and len(name) <= 40 else jsonio.show(name))
        if name in out:
            raise InputError(label, "given twice")
        try:
            out[name] = jsonio.loads(raw, source=label)
        except InputError as exc:
            if not exc.message.startswith("not JSON"):
                raise
            out[name] = raw
    return out


def play_game(
    name: str,
    *,
    players: int,
    seed: int = 0,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    bot: str = "random",
    record: str | None = None,
    start: str | None = None,
) -> tuple[list[str], Any]:
    """Play a whole game with bots; return the log lines and the final state.

    The bots draw from their own ``random.Random(seed)``, separate from the game's seeded deal.  With
    ``record`` the game is also written to that path as a game record (see :mod:`engine.conformance.records`).
    With ``start`` (a notation line, a JSON state or ``@FILE``) the game goes on from that position; rounds
    it does not deal are dealt from ``seed``, and a card drawn from a stack of unknown order is revealed at
    random (the bots' ``random.Random(seed)``).

    >>> lines, state = play_game("take6", players=2, start="standard 5 select 3/22/40/90 5/7 - - 60/12")
    >>> state.phase, state.round >= 5
    ('over', True)
    """
    game: Game = get_game(name)
    if bot not in BOTS:
        raise InputError("--bot", f"unknown bot {jsonio.show(bot)} (known: {', '.join(BOTS)})")
    if start is not None:
        state = load_position(name, start, source="--from")
        reseed = getattr(game, "with_seed", None)
        if reseed is not None and getattr(state, "seed", 0) is None:
            state = reseed(state, seed)
        players = len(state.hands)
        start = game.to_notation(state)
    else:
        state = game.new_game(players, seed=seed, variant=variant, options=options)
    chooser = BOTS[bot]
    rng = random.Random(seed)
    shown_variant = game.state_to_json(state)["variant"]
    lines = [f"{game.title} — {players} players, variant {shown_variant}, seed {seed}"]
    lines.extend(game.describe_state(state))
    actions: list[Any] = []
    while not game.is_terminal(state):
        acting = game.to_act(state)
        # no seat to act: a chance step the position leaves open (a reveal from a stack of unknown order)
        action = chooser(game, state, acting[0], rng) if acting else rng.choice(game.legal_actions(state))
        after = game.apply(state, action)
        lines.extend(game.narrate(state, action, after))
        actions.append(action)
        state = after
    if record is not None:
        from engine.conformance.records import record_game, write_record

        write_record(record, record_game(name, players=players, seed=seed, variant=variant, options=options,
                                         actions=actions, claims=True, position=start))
    return lines, state


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
