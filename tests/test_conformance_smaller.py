"""The smaller positions both shrinkers try (engine/conformance/campaign/smaller.py): valid, keeping what the
action needs, never keeping a seed that would deal the rounds whose deals they leave out; and the cards in
play they are measured by, the later rounds' deals not among them.

Each of the three was wrong before: a shrunk 6 nimmt! position dropped the later rounds' deals but kept
``seed=0`` (its vector then expected a deal only this engine's seeded shuffle makes, so a correct
implementation failed it); a candidate could take out the very card the action plays (the vector's action
was then refused by everyone, the defective peer passed it); the later rounds' deals counted as cards in
play.
"""

from __future__ import annotations

import random
from typing import Any

from engine.conformance.campaign.divergence import Origin
from engine.conformance.campaign.positions import origin_size
from engine.conformance.campaign.smaller import position_size, smaller_origins, verdict
from engine.conformance.kits.base import get_kit
from engine.game import get_game


def _origin(game: Any, state: Any, action: Any) -> Origin:
    seat = get_kit(game.name).action_player(action)
    assert seat is not None
    return Origin(game.to_notation(state), game.state_to_json(state), (seat, game.action_to_json(action)))


def _dealt_game(rounds: int) -> Any:
    """A 6 nimmt! game of two seats whose rounds are dealt explicitly (a campaign's set-up) with ``seed=0``,
    the default, besides."""
    game = get_game("take6")
    kit = get_kit("take6")
    deals = [kit.chance_outcome(game.new_game(2, seed=r)) for r in range(1, rounds + 1)]
    return game.new_game(2, setup=deals)


def _random_positions(name: str, count: int, seed: int) -> list[tuple[Any, Any]]:
    """``count`` (position, action) pairs from seeded random games: a legal action, or now and then one
    the rules refuse (another seat's card, a card bought from an empty row ...)."""
    game = get_game(name)
    rng = random.Random(seed)
    out: list[tuple[Any, Any]] = []
    while len(out) < count:
        state = game.new_game(rng.choice([2, 3, 4]), seed=rng.randrange(10**6))
        seen: list[Any] = []
        for _ in range(rng.randrange(1, 60)):
            seats = game.to_act(state)
            if game.is_terminal(state) or not seats:
                break
            legal = game.legal_actions(state, rng.choice(seats))
            seen.extend(legal)
            state = game.apply(state, rng.choice(legal))
        seats = game.to_act(state)
        if game.is_terminal(state) or not seats:
            continue
        pool = game.legal_actions(state, rng.choice(seats)) if rng.random() < 0.7 or not seen else seen
        out.append((state, rng.choice(pool)))
    return out


def test_leaving_out_the_later_deals_leaves_out_their_seed() -> None:
    """T6-SETUP-4/T6-SETUP-5: a position without the later rounds' deals keeps no seed to deal them, so a
    round it does not deal waits for its deal (a record's chance line), and its notation says no
    ``seed=``; a seed with no deal left is left out on its own."""
    game = get_game("take6")
    state = _dealt_game(3)
    assert state.seed == 0 and len(state.deals) == 2
    action = game.legal_actions(state, 0)[0]
    candidates = list(smaller_origins(game, _origin(game, state, action)))
    undealt = [c for c in candidates if not c.state["deals"]]
    assert undealt, "no candidate leaves out the later deals"
    for c in undealt:
        assert c.state["seed"] is None and "seed=" not in c.notation, c.notation
    last = _dealt_game(1)
    assert last.seed == 0 and not last.deals
    unseeded = list(smaller_origins(game, _origin(game, last, game.legal_actions(last, 0)[0])))
    assert unseeded[0].state["seed"] is None and "seed=" not in unseeded[0].notation


def test_a_candidate_keeps_what_the_action_needs() -> None:
    """On positions and actions from random games of both games (legal ones, and some the rules refuse),
    every smaller position gives the action the reference's verdict it had: a legal action stays legal
    (its card is never taken out), a refused one is refused by the same clause."""
    checked = 0
    for name in ("take6", "petersburg"):
        game = get_game(name)
        for state, action in _random_positions(name, 12, seed=7):
            origin = _origin(game, state, action)
            wanted = verdict(game, state, action)
            for n, c in enumerate(smaller_origins(game, origin)):
                if n >= 40:
                    break
                assert c.action is not None
                moved = game.action_from_json(c.action[1])
                assert verdict(game, game.from_notation(c.notation), moved) == wanted, (c.notation, c.action)
                checked += 1
    assert checked > 300


def test_the_select_card_is_never_taken_out() -> None:
    """T6-SELECT-1: the card a counterexample's seat selects stays in its hand in every smaller position."""
    game = get_game("take6")
    state = game.from_notation("standard 2 select 3.10/22/40.41.45/90 5.8.60/7.9.70 - - 12/0")
    action = game.action_from_json({"type": "select", "player": 0, "card": 5})
    for c in smaller_origins(game, _origin(game, state, action)):
        assert 5 in c.state["hands"][0], c.notation


def test_the_later_deals_are_not_cards_in_play() -> None:
    """The cards in play of a position (what shrinking makes smaller, and what reports print) are the same
    with or without the later rounds' deals; the stock is not counted either."""
    game = get_game("take6")
    dealt = _dealt_game(4)
    undealt = game.state_from_json({**game.state_to_json(dealt), "deals": [], "seed": None})
    for state in (dealt, undealt):
        assert position_size("take6", game.state_to_json(state)) == (2, 2 * 10 + 4 + 2 + 2)
    action = game.legal_actions(dealt, 0)[0]
    both = [origin_size("take6", _origin(game, state, action)) for state in (dealt, undealt)]
    assert both[0] == both[1]


def test_a_seat_fewer_keeps_the_shared_lists() -> None:
    """On positions of random games of three and four seats, a position a seat fewer is among the
    candidates: the rows, a row choice's queue (6 nimmt!'s pending cards, Saint Petersburg's Pub queue) are
    not one entry per seat even when as long as the player count, and Saint Petersburg's start markers
    (SP-SETUP-3) are dealt again over the seats left."""
    for name in ("take6", "petersburg"):
        game = get_game(name)
        tried = fewer = 0
        for state, action in _random_positions(name, 30, seed=9):
            players = int(game.state_to_json(state)["players"])
            if players < 3 or verdict(game, state, action) != "accepted":
                continue
            tried += 1
            fewer += any(int(c.state["players"]) == players - 1
                         for c in smaller_origins(game, _origin(game, state, action)))
        assert tried >= 8 and fewer >= 0.9 * tried, (name, fewer, tried)
