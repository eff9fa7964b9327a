"""6 nimmt! state layout: what callers see is the same whatever the engine stores.

The state keeps each hand twice (its cards and its prebuilt ``Select`` actions), leaves a selected card in
the stored hand until the turn is revealed, does not store the stock outside logic, and groups the fields a
round does not change.  These tests check that none of it shows: a state rebuilt from its public fields is
equal to the engine's, the views hide a selection, the stock is what the deal left out, and the hot path
agrees with the explaining one (placement by ``locate``) on every step of many games.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from engine.derivation import Trace
from engine.take6 import GAME, Select, State, rules_for
from engine.take6.transitions import step as _step

VARIANTS = GAME.variants


def play(variant: str, n: int, seed: int) -> list[State]:
    """Every state of a random game, through the checked tier."""
    rng = random.Random(seed)
    s = GAME.new_game(n, seed=seed, variant=variant)
    out = [s]
    while not GAME.is_terminal(s):
        acting = GAME.to_act(s)
        legal = GAME.legal_actions(s, acting[rng.randrange(len(acting))])
        s = GAME.apply(s, legal[rng.randrange(len(legal))])
        out.append(s)
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_state_rebuilt_from_its_public_fields_is_equal(variant: str) -> None:
    """T6-VAR-1, T6-SELECT-2: at every step of a game in every variant, ``State(*public fields)`` equals the
    engine's state (same hash), and so do its copy and its pickled form: the stored layout is a function of
    the public fields."""
    for s in play(variant, 3, seed=11):
        rebuilt = State(*s.__getnewargs__())
        assert rebuilt == s and hash(rebuilt) == hash(s)
        assert copy.deepcopy(s) == s
        assert pickle.loads(pickle.dumps(s)) == s
        assert rebuilt.hands == s.hands and rebuilt.stock == s.stock


def test_a_selected_card_is_in_no_hand_until_the_reveal() -> None:
    """T6-SELECT-1, T6-SELECT-2: once a player selects, the card is in their selection only: not in
    ``hands``, the JSON form or any observation's hand; the hand sizes count it out."""
    s = GAME.new_game(3, seed=4)
    card = s.hands[1][2]
    s = GAME.apply(s, Select(1, card))
    assert card not in s.hands[1] and s.selected == (0, card, 0)
    assert len(s.hands[1]) == len(s.hands[0]) - 1
    assert card not in GAME.state_to_json(s)["hands"][1]
    for p in range(3):
        obs = GAME.observation(s, p)
        assert obs["hand_sizes"] == [10, 9, 10]
        assert card not in (obs["hand"] or [])
        assert obs["my_selection"] == (card if p == 1 else None)


def test_legal_selections_are_the_hand_in_order() -> None:
    """T6-SELECT-1: a seat still to select may select any card of its hand, ascending; a seat that has
    selected has no legal action."""
    s = GAME.new_game(4, seed=8)
    s = GAME.apply(s, GAME.legal_actions(s, 2)[4])
    for p in range(4):
        expected = () if p == 2 else tuple(Select(p, c) for c in s.hands[p])
        assert GAME.legal_actions(s, p) == expected


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (4, 5), (10, 9)])
def test_stock_is_what_the_seeded_deal_left_out(players: int, seed: int) -> None:
    """T6-SETUP-4, T6-DECK-1: after a seeded deal the stock is the deck less the cards drawn by
    ``random.Random(seed * 65536 + round).sample(deck, k)``, sorted, and it stays so through the round."""
    rules = rules_for("standard", players)
    s = GAME.new_game(players, seed=seed)
    drawn = random.Random(seed * 65536 + 1).sample(list(rules.deck), rules.cards_dealt)
    expected = tuple(sorted(set(rules.deck) - set(drawn)))
    rng = random.Random(seed)
    while s.round == 1 and not GAME.is_terminal(s):
        assert s.stock == expected
        legal = GAME.legal_actions(s, GAME.to_act(s)[0])
        s = GAME.apply_unchecked(s, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("variant", ["standard", "tactics", "countdown", "kids"])
def test_hot_path_agrees_with_the_explaining_path(variant: str) -> None:
    """T6-PLACE-1, T6-PLACE-2, T6-PLACE-3, T6-TURN-1: on every step of many random games, the unchecked
    tier (deferred hand removal, inline row search) gives the state the logged path gives, which places
    every card with ``placement.locate``."""
    options = {"kids_piles": "shrink"} if variant == "kids" else None
    for game in range(12):
        n = 2 + game % 9
        rng = random.Random(game)
        s = GAME.new_game(n, seed=game, variant=variant, options=options)
        while not GAME.is_terminal(s):
            legal = GAME.legal_actions(s, GAME.to_act(s)[0])
            action = legal[rng.randrange(len(legal))]
            after = GAME.apply_unchecked(s, action)
            assert _step(s, action, Trace()) == after
            s = after
