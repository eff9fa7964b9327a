"""Saint Petersburg public API: JSON round-trips and validation, observations, narration, cost
derivations, displacement helpers, determinism."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.errors import IllegalAction, InputError
from engine.game import get_game
from engine.petersburg import (
    GAME,
    Buy,
    Discard,
    Observe,
    Pass,
    Play,
    PubBuy,
    Setup,
    State,
    Take,
    can_displace,
    cost_breakdown,
    displacement_targets,
)
from engine.petersburg.testing import arrange


def play_random(players: int, seed: int, variant: str = "first", steps: int | None = None) -> list[State]:
    rng = random.Random(seed)
    s = GAME.new_game(players, seed=seed, variant=variant)
    states = [s]
    while not GAME.is_terminal(s) and (steps is None or len(states) <= steps):
        p = GAME.to_act(s)[0]
        legal = GAME.legal_actions(s, p)
        s = GAME.apply(s, legal[rng.randrange(len(legal))])
        states.append(s)
    return states


def test_registry_finds_the_game() -> None:
    """SP-GAME-1: the game registry returns this game with its metadata."""
    game = get_game("petersburg")
    assert game is GAME and (game.name, game.title) == ("petersburg", "Saint Petersburg")
    assert len(game.clauses) > 50


@pytest.mark.parametrize("variant", ["first", "second"])
def test_state_json_round_trips_exactly(variant: str) -> None:
    """SP-SETUP-5: every state of random games survives JSON exactly (and the JSON is canonical)."""
    for s in play_random(3, 4, variant)[::5]:
        data = GAME.state_to_json(s)
        text = json.dumps(data, sort_keys=True)
        back = GAME.state_from_json(json.loads(text))
        assert back == s
        assert json.dumps(GAME.state_to_json(back), sort_keys=True) == text


def good_json() -> dict[str, Any]:
    s = play_random(2, 8, steps=40)[-1]
    return GAME.state_to_json(s)


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"players": "two"}, "players"),
        ({"players": 5}, "players"),
        ({"variant": "third"}, "variant"),
        ({"phase": "lunch"}, "phase"),
        ({"turn": 9}, "turn"),
        ({"money": [1]}, "money"),
        ({"money": [-1, 3]}, "money[0]"),
        ({"upper": ["Unicorn"]}, "upper[0]"),
        ({"stacks": {"worker": []}}, "stacks"),
        ({"markers": {"worker": 0}}, "markers"),
        ({"over": "no"}, "over"),
        ({"options": {"bogus": True}}, "options"),
        ({"extra": 1}, "extra"),
        ({"discard": []}, "stacks"),
        ({"turned": [["Market"], []]}, "turned[0]"),
        ({"drawn": "Czar"}, "drawn"),
        ({"pub_queue": [0, 0]}, "pub_queue"),
    ],
)
def test_invalid_state_json_names_the_field(patch: dict[str, Any], field: str) -> None:
    """SP-SETUP-6: malformed JSON states are refused with an InputError naming the field (every card of the
    catalog must be in exactly one place)."""
    data = good_json()
    data.update(patch)
    with pytest.raises(InputError) as info:
        GAME.state_from_json(data)
    assert info.value.field == field, str(info.value)
    with pytest.raises(InputError):
        GAME.state_from_json([])
    missing = good_json()
    del missing["vp"]
    with pytest.raises(InputError, match="vp: missing"):
        GAME.state_from_json(missing)


def test_action_json_round_trips_and_accepts_aliases() -> None:
    """SP-TURN-1: every action kind round-trips through JSON; cards are named (aliases resolve)."""
    actions = [
        Buy(0, "Bank", "lower", "Market"),
        Take(1, "Pub", "drawn"),
        Play(2, "Czar", "Author"),
        Pass(3),
        Observe(0, "trading"),
        Discard(1, "Abbot"),
        PubBuy(2, 4),
        Buy(0, "Market"),
    ]
    for a in actions:
        assert GAME.action_from_json(json.loads(json.dumps(GAME.action_to_json(a)))) == a
    assert GAME.action_from_json({"type": "buy", "player": 0, "card": "Zar Peter"}) == Buy(
        0, "Czar and Carpenter"
    )
    assert GAME.action_from_json({"type": "take", "player": 0, "card": "Schenke", "source": "lower"}) == Take(
        0, "Pub", "lower"
    )
    assert eval(repr(actions[0])) == actions[0]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "action"),
        ({"type": "steal", "player": 0}, "action.type"),
        ({"type": "pass"}, "action.player"),
        ({"type": "pass", "player": -1}, "action.player"),
        ({"type": "pass", "player": True}, "action.player"),
        ({"type": "buy", "player": 0, "card": "Unicorn"}, "action.card"),
        ({"type": "buy", "player": 0, "card": "Market", "source": "attic"}, "action.source"),
        ({"type": "buy", "player": 0, "card": "Market", "colour": "blue"}, "action.colour"),
        ({"type": "observe", "player": 0, "stack": "junk"}, "action.stack"),
        ({"type": "pub", "player": 0, "vp": "3"}, "action.vp"),
        ({"type": "play", "player": 0, "card": "Bank", "displace": 7}, "action.displace"),
    ],
)
def test_invalid_action_json_names_the_field(data: Any, field: str) -> None:
    """SP-TURN-1: malformed JSON actions are refused with an InputError naming the field."""
    with pytest.raises(InputError) as info:
        GAME.action_from_json(data)
    assert info.value.field == field


def test_aliases_are_accepted_by_the_checked_tier() -> None:
    """SP-EDITION-1: in a second-edition game the first-edition name of a renamed card is understood."""
    s = arrange(GAME.new_game(2, seed=1, variant="second"), upper=["Abbot"], areas={0: ["Author"]}, turn=0)
    t = GAME.apply(s, Buy(0, "Pope", displace="Author"))
    assert t.rules.names[t.areas[0][0]] == "Abbot"
    assert GAME.apply(s, Buy(0, "Abbot", displace="Author")) == t


def test_observation_hides_money_and_hands() -> None:
    """SP-SETUP-5: a player sees their own roubles and hand, only the sizes of others' hands, and public VP,
    areas and rows; the drawn Observatory card only by its drawer."""
    s = arrange(
        GAME.new_game(3, seed=2),
        hands={0: ["Market"], 1: ["Pub", "Bank"]},
        money={0: 11, 1: 22, 2: 33},
        turn=0,
    )
    for p, (money, hand) in enumerate([(11, ["Market"]), (22, ["Pub", "Bank"]), (33, [])]):
        o = GAME.observation(s, p)
        assert o["money"] == money and o["hand"] == hand and o["hand_sizes"] == [1, 2, 0]
        text = json.dumps(o)
        others = [m for q, m in enumerate((11, 22, 33)) if q != p]
        assert all(f'"money": {m}' not in text for m in others)
        assert "final_money" not in o
    obs = arrange(GAME.new_game(2, seed=2), phase="building", areas={0: ["Observatory"]}, turn=0)
    drawn = GAME.apply(obs, Observe(0, "building"))
    assert GAME.observation(drawn, 1)["drawn"] == "hidden"
    assert GAME.observation(drawn, 0)["drawn"] == drawn.rules.names[drawn.drawn]
    with pytest.raises(InputError):
        GAME.observation(s, 3)


def test_cost_breakdown_explains_every_step() -> None:
    """SP-COST-1, SP-COST-2, SP-COST-3, SP-COST-4, SP-COST-5, SP-COST-6, SP-COST-7, SP-POTJ-1: the derivation
    lists the printed cost, the displaced value, each reduction with its clause, the minimum and
    affordability."""
    s = arrange(
        GAME.new_game(2, seed=1),
        areas={0: ["Carpenter Workshop", "Potjomkin's Village", "Bank"]},
        money={0: 5},
        turn=0,
    )
    b = cost_breakdown(s, 0, "Bank", source="lower", displace="Potjomkin's Village")
    assert (b.printed, b.displace_value, b.displace_clause) == (13, 6, "SP-POTJ-1")
    assert [(r.amount, r.clause) for r in b.reductions] == [
        (1, "SP-COST-2"),
        (1, "SP-COST-3"),
        (1, "SP-COST-5"),
    ]
    assert (b.cost, b.affordable) == (4, True)
    text = "\n".join(b.lines())
    for cid in ("SP-COST-1", "SP-POTJ-1", "SP-COST-2", "SP-COST-3", "SP-COST-5", "SP-COST-6", "SP-BUY-2"):
        assert cid in text
    cheap = cost_breakdown(s, 0, "Market", source="upper")
    assert [r.clause for r in cheap.reductions] == ["SP-COST-4"]
    w = cost_breakdown(s, 0, "Wharf", source="hand", displace="Ship Builder")
    assert (w.displace_clause, w.cost, w.affordable) == ("SP-COST-7", 5, True)
    with pytest.raises(IllegalAction):
        cost_breakdown(s, 0, "Bank", source="upper")
    with pytest.raises(IllegalAction):
        cost_breakdown(s, 0, "Market", source="upper", displace="Pub")
    with pytest.raises(IllegalAction):
        cost_breakdown(s, 0, "Market", source="roof")


def test_displacement_helpers() -> None:
    """SP-TRADE-1, SP-TRADE-2, SP-TRADE-3, SP-TRADE-4, SP-TRADE-5, SP-OBS-5: can_displace reads the pairing
    table; displacement_targets lists what is in the area (not a turned Observatory)."""
    assert can_displace("Gold Smelter", "Gold Miner") == (
        True,
        "SP-TRADE-3",
        "Gold Smelter displaces Gold Miner",
    )
    assert can_displace("Gold Smelter", "Lumberjack")[:2] == (False, "SP-TRADE-3")
    assert can_displace("Czar", "Market")[:2] == (False, "SP-TRADE-1")
    assert can_displace("Market", "Market")[:2] == (False, "SP-TRADE-1")
    assert can_displace("Bank", "Observatory")[:2] == (True, "SP-TRADE-2")
    assert can_displace("Wharf", "Zar Peter")[:2] == (True, "SP-TRADE-4")
    assert can_displace("Czar", "Pope")[:2] == (False, "SP-TRADE-5")
    s = arrange(
        GAME.new_game(2, seed=1),
        areas={0: ["Observatory", "Observatory", "Market", "Lumberjack"]},
        turned={0: ["Observatory"]},
        phase="building",
    )
    assert displacement_targets(s, 0, "Bank") == ("Market", "Observatory")
    s2 = s._replace(turned=((s.rules.kind["Observatory"],) * 2, ()))
    assert displacement_targets(s2, 0, "Bank") == ("Market",)
    assert displacement_targets(s, 0, "Carpenter Workshop") == ("Lumberjack",)


def test_narration_shows_costs_scorings_refills_and_standings() -> None:
    """SP-SCORE-1, SP-REFILL-1, SP-PUB-1, SP-ROUND-3, SP-END-8: the log (the steps' derivations rendered)
    names each action with its cost, the scorings per player, Pub purchases, refills, round ends, the final
    scoring and the standings."""
    rng = random.Random(2)
    s = GAME.new_game(2, seed=2)
    lines: list[str] = []
    while not GAME.is_terminal(s):
        legal = GAME.legal_actions(s, GAME.to_act(s)[0])
        pubs = [a for a in legal if isinstance(a, PubBuy) and a.vp]
        a = pubs[0] if pubs else legal[rng.randrange(len(legal))]
        after = GAME.apply(s, a)
        lines.extend(GAME.narrate(s, a, after))
        s = after
    text = "\n".join(lines)
    for needle in (
        " R left)",
        "the worker scoring [SP-SCORE-1]",
        "the building scoring [SP-SCORE-2]",
        "from the building stack",
        "at the Pub for",
        "end of round 1",
        "markers pass",
        "P0's final scoring",
        "most VP wins; a tie on VP goes to the most roubles [SP-END-8]",
        "passes",
    ):
        assert needle in text, needle
    assert any("Game over" in line for line in GAME.describe_state(s))
    assert GAME.describe_state(GAME.new_game(2, seed=2))[0].startswith("Round 1, worker phase")


def test_same_seed_same_game() -> None:
    """SP-SETUP-7: a seed reproduces the whole game (set-up and, with the same bot choices, every state)."""
    a = play_random(4, 9)
    b = play_random(4, 9)
    assert a == b
    assert GAME.new_game(4, seed=9) != GAME.new_game(4, seed=10)
    assert GAME.new_game(4, setup=Setup.seeded(4, seed=9)) == GAME.new_game(4, seed=9)


def test_play_command_prints_a_readable_game(capsys: pytest.CaptureFixture[str]) -> None:
    """SP-PHASE-1: ``arbiter play petersburg --players 3 --seed 1`` prints phases, actions with costs,
    scorings and final standings."""
    from engine.cli import main

    assert main(["play", "petersburg", "--players", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    for needle in (
        "Saint Petersburg — 3 players",
        "round 1, building phase",
        " for ",
        "the aristocrat scoring",
        "most VP wins",
    ):
        assert needle in out
