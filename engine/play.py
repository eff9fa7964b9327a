"""A whole game with a bot in every seat and a readable turn-by-turn log (``arbiter play GAME``, the
command line in :mod:`engine.cli_play`).

>>> from engine.play import play_game
>>> lines, state = play_game("take6", players=2, seed=4)
>>> lines[0].startswith("6 nimmt!")
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine import jsonio
from engine.action_input import seat_word
from engine.bots import BOTS
from engine.errors import InputError
from engine.game import Game, get_game
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


def action_line(game: Game, state: Any, action: Any, index: int) -> str:
    """A log's line naming action ``index`` (from 0, as a record counts) by its text, with its seat, so it
    can be typed back (``arbiter explain GAME --record FILE --upto INDEX --action TEXT``); a chance step
    says so.

    >>> from engine.game import get_game
    >>> g = get_game("petersburg")
    >>> s = g.new_game(2, seed=1)
    >>> action_line(g, s, g.legal_actions(s)[1], 0)
    'Action 0: P0 buy Shepherd'
    """
    text = game.action_to_text(state, action)
    acting = game.to_act(state)
    if not acting:
        return f"Action {index} (chance): {text}"
    seat = "" if seat_word(text.split()[0]) is not None else f"P{acting[0]} "
    return f"Action {index}: {seat}{text}"


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
    ``record`` the game is also written to that path as a game record (see
    :mod:`engine.conformance.records.format`).
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
        if game.seed_of(state) is None:
            state = game.with_seed(state, seed)
        players = game.players_of(state)
        start = game.to_notation(state)
    else:
        state = game.new_game(players, seed=seed, variant=variant, options=options)
    chooser = BOTS[bot]
    rng = random.Random(seed)
    shown_variant = game.variant_of(state)
    lines = [f"{game.title} — {players} players, variant {shown_variant}, seed {seed}"]
    lines.extend(game.describe_state(state))
    actions: list[Any] = []
    while not game.is_terminal(state):
        acting = game.to_act(state)
        # no seat to act: a chance step the position leaves open (a reveal from a stack of unknown order)
        action = chooser(game, state, acting[0], rng) if acting else rng.choice(game.legal_actions(state))
        after = game.apply(state, action)
        lines.append(action_line(game, state, action, len(actions)))
        lines.extend(game.narrate(state, action, after))
        actions.append(action)
        state = after
    if record is not None:
        from engine.conformance.records.format import record_game, write_record

        write_record(record, record_game(name, players=players, seed=seed, variant=variant, options=options,
                                         actions=actions, claims=True, position=start))
    return lines, state
