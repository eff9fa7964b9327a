"""Actions as short text (``game.action_to_text`` / ``game.action_from_text``), both games.

Properties checked on states the tests did not pick: seeded random playouts of every variant, a spread of
player counts and every non-default option, chance steps included (6 nimmt! deals and logic draft starts
when a game has no seed; Saint Petersburg reveals from stacks of unknown order):

* every legal action's text reads back as that action, and distinct legal actions have distinct texts;
* an illegal action's text reads back (unchecked) as that action, and checked it is refused with the
  clause the engine's ``apply`` names;
* random text never raises anything but the project's InputError or IllegalAction, never changes the
  state, and an ambiguous text lists readings that each name a distinct legal action.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import AmbiguousAction, IllegalAction, InputError
from engine.game import Game, get_game
from engine.petersburg import STACKS
from engine.petersburg.notation import from_notation as sp_from_notation
from engine.petersburg.notation import to_notation as sp_to_notation
from engine.take6 import Deal, DraftStart

T6 = get_game("take6")
SP = get_game("petersburg")
PER_CASE = {"take6": 24, "petersburg": 80}
"""States tested per playout, drawn at random over the game (and every state awaiting a chance step)."""


def _cases() -> list[tuple[str, str, int, dict[str, Any], str]]:
    """(game, variant, players, options, chance): every variant at its smallest, middle and largest player
    count; every option's other value; chance steps in every 6 nimmt! variant and both editions."""
    out: list[tuple[str, str, int, dict[str, Any], str]] = []
    for name in ("take6", "petersburg"):
        game = get_game(name)
        span = sorted({game.min_players, (game.min_players + game.max_players) // 2, game.max_players})
        for variant in game.variants:
            out.extend((name, variant, n, {}, "seeded") for n in span)
            out.append((name, variant, span[1] if name == "take6" else 2, {}, "chance"))
    out += [
        ("take6", "logic", 4, {"logic_start": "rotate"}, "chance"),
        ("take6", "professional", 5, {"professional_tie": "start"}, "seeded"),
        ("take6", "kids", 4, {"kids_piles": "strict"}, "seeded"),
        ("petersburg", "first", 3, {"trading_discount": False}, "seeded"),
        ("petersburg", "second", 4, {"keep_roubles": False}, "chance"),
    ]
    return out


def _start(case: tuple[str, str, int, dict[str, Any], str], seed: int) -> Any:
    name, variant, players, options, chance = case
    game = get_game(name)
    if chance == "seeded":
        return game.new_game(players, seed=seed, variant=variant, options=options)
    if name == "take6":  # round 1 from the seed's deal, every later round a chance step
        first = T6.new_game(players, seed=seed, variant=variant, options=options)
        return T6.new_game(players, seed=None, variant=variant, options=options, setup=_deal_of(first))
    # every stack of unknown order: each card drawn from a stack is a Reveal
    line = sp_to_notation(SP.new_game(players, seed=seed, variant=variant, options=options)).split(" ")
    line[8] = "/".join(f"~{stack}" if stack != "-" else "-" for stack in line[8].split("/"))
    return sp_from_notation(" ".join(line))


def _deal_of(dealt: Any) -> Any:
    """The set-up a just-dealt 6 nimmt! state was dealt with."""
    if dealt.rules.deal == "draft":
        return DraftStart(dealt.start)
    return Deal(hands=dealt.hands, rows=[r[0] for r in dealt.rows])


def _chance_step(game: Game, state: Any, rng: random.Random) -> Any:
    """A chance outcome of a state nobody acts in: a 6 nimmt! round's deal, a Saint Petersburg reveal."""
    if game.name == "take6":
        return _deal_of(T6.with_seed(state, rng.randrange(10**6)))
    return rng.choice(game.legal_actions(state))


def _playout(case: tuple[str, str, int, dict[str, Any], str], seed: int) -> Iterator[tuple[Any, Any]]:
    """(state, chance step or None) along a seeded random game."""
    game = get_game(case[0])
    rng = random.Random(f"{case}:{seed}")
    state = _start(case, seed)
    while not game.is_terminal(state):
        acting = game.to_act(state)
        chance_step = None
        if acting:
            legal = game.legal_actions(state, rng.choice(acting))
            action = legal[rng.randrange(len(legal))]
        else:
            action = chance_step = _chance_step(game, state, rng)
        yield state, chance_step
        state = game.apply(state, action)
    yield state, None


def _sampled(case: tuple[str, str, int, dict[str, Any], str], seed: int = 3) -> list[tuple[Any, Any]]:
    steps = list(_playout(case, seed))
    rng = random.Random(seed)
    chance = [s for s in steps if s[1] is not None or not get_game(case[0]).to_act(s[0])]
    picked = rng.sample(steps, min(PER_CASE[case[0]], len(steps)))
    return picked + [s for s in chance if s not in picked]


@pytest.mark.parametrize("case", _cases(), ids=lambda c: "-".join(str(x) for x in c if x != {}))
def test_every_legal_action_reads_back_from_its_text(case: tuple[str, str, int, dict[str, Any], str]) -> None:
    """Round trip: ``action_from_text(s, action_to_text(s, a)) == a`` for every legal action ``a`` of the
    sampled states (chance steps included), and the texts of distinct legal actions are distinct."""
    game = get_game(case[0])
    seeds = (3, 4, 5) if case[4] == "chance" else (3,)
    for state, chance_step in [step for seed in seeds for step in _sampled(case, seed)]:
        legal = game.legal_actions(state)
        extra = chance_step is not None and chance_step not in legal
        actions = list(legal) + ([chance_step] if extra else [])
        texts = [game.action_to_text(state, a) for a in actions]
        assert len(set(texts)) == len(texts), f"two actions share a text: {sorted(texts)}"
        for action, text in zip(actions, texts, strict=True):
            assert game.action_from_text(state, text) == action, (text, action)
            assert text == " ".join(text.split()) and "\n" not in text


def test_the_playouts_reach_every_kind_of_action() -> None:
    """The round-trip test's playouts include every action class of both games (its states must not miss a
    kind): selections, row choices, drafts, flips, deals and draft starts; passes, buys from each source
    (with a displacement too), takes, plays, Observatory draws and discards, Pub purchases, reveals."""
    kinds: Counter[str] = Counter()
    sources: set[str] = set()
    displaced = False
    for case in _cases():
        game = get_game(case[0])
        for state, chance_step in _sampled(case):
            for a in (*game.legal_actions(state), *([chance_step] if chance_step else [])):
                kinds[type(a).__name__] += 1
                sources.add(getattr(a, "source", ""))
                displaced |= getattr(a, "displace", None) is not None
    expected = {"Select", "TakeRow", "Draft", "Flip", "Deal", "DraftStart", "Pass", "Buy", "Take", "Play",
                "Observe", "Discard", "PubBuy", "Reveal"}
    assert expected <= set(kinds), f"missing: {expected - set(kinds)}"
    assert {"upper", "lower", "drawn"} <= sources and displaced


def _illegal_probes(game: Game, state: Any, pool: list[Any]) -> list[Any]:
    """Actions to try in ``state``: other states' legal actions (most of them illegal here)."""
    legal = set(game.legal_actions(state))
    return [a for a in pool if a not in legal]


@pytest.mark.parametrize("name", ["take6", "petersburg"])
def test_an_illegal_actions_text_is_refused_with_the_engines_clause(name: str) -> None:
    """An action that is not legal in a state: its text reads back (unchecked) as that action, and checked
    it is refused with the IllegalAction ``apply`` raises for it, same clause; the state is unchanged."""
    game = get_game(name)
    tried = 0
    for case in [c for c in _cases() if c[0] == name][:6]:
        steps = _sampled(case, seed=8)
        pool = [a for s, _ in steps for a in game.legal_actions(s)[:6]]
        rng = random.Random(case[1])
        for state, _ in steps:
            before = game.state_to_json(state)
            for action in rng.sample(_illegal_probes(game, state, pool), 8):
                try:
                    game.apply(state, action)
                    continue  # legal here after all (an equal action from another state)
                except IllegalAction as exc:
                    expected = exc.clause
                try:
                    text = game.action_to_text(state, action)
                    assert game.action_from_text(state, text, checked=False) == action, text
                except InputError:
                    continue  # a seat or card this game does not have: malformed, not illegal
                with pytest.raises(IllegalAction) as info:
                    game.action_from_text(state, text)
                assert info.value.clause == expected, (text, action)
                tried += 1
            assert game.state_to_json(state) == before
    assert tried > 100


WORDS = [
    "P0", "P1", "P2", "P9", "P01", "p1", "P", "P-1", "58", "0", "104", "105", "1", "7", "١٢", "+3", "3.5",
    "select", "draft", "row", "take", "flip", "deal", "start", "1.2.3/4.5.6|7.8.9.10", "|", "/", "@1",
    "pass", "buy", "hand", "play", "observe", "discard", "pub", "reveal", "over", "from", "upper", "lower",
    "drawn", "Market", "Markt", "Gold", "Smelter", "Miner", "GoldSmelter", "Czar", "and", "Carpenter",
    "Pub", "Observatory", "Рынок", "worker", "building", "trading", "aristocrat", "Unicorn", "\x00", "é",
    "{", "}", "null",
]


def _random_states() -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for case in _cases():
        out.setdefault(case[0], []).extend(s for s, _ in _sampled(case, seed=5)[:3])
    return out


STATES = _random_states()


@given(
    name=st.sampled_from(["take6", "petersburg"]),
    pick=st.integers(min_value=0),
    words=st.lists(st.sampled_from(WORDS) | st.text(max_size=8), min_size=0, max_size=7),
)
def test_random_text_raises_only_the_projects_errors(name: str, pick: int, words: list[str]) -> None:
    """Any text: an action, or InputError (AmbiguousAction listing readings that each name a distinct legal
    action) or IllegalAction; never another exception, and the state is unchanged."""
    game = get_game(name)
    state = STATES[name][pick % len(STATES[name])]
    before = game.state_to_json(state)
    text = " ".join(words)
    try:
        action = game.action_from_text(state, text)
    except AmbiguousAction as exc:
        named = [game.action_from_text(state, r) for r in exc.readings]
        assert len(set(named)) == len(named) > 1
    except (InputError, IllegalAction):
        pass
    else:
        assert game.apply(state, action) is not None
    assert game.state_to_json(state) == before


@pytest.mark.parametrize("value", [None, 58, ["58"], {"type": "pass"}, b"pass", "x" * 5000])
def test_a_text_that_is_not_a_string_or_too_long_is_input_error(value: Any) -> None:
    """Malformed input of the wrong type or size is InputError naming the action, in both games."""
    for game in (T6, SP):
        with pytest.raises(InputError) as info:
            game.action_from_text(game.new_game(2, seed=1), value)
        assert info.value.field == "action"


# --------------------------------------------------------------------------------------------------
# Examples of each form (docs/positions.md, "Actions as text")


def test_take6_forms() -> None:
    """T6-SELECT-1, T6-PLACE-3, T6-LOGIC-1, T6-KIDS-2, T6-SETUP-5: the forms of every 6 nimmt! action."""
    from engine.take6 import Draft, Flip, Select, TakeRow, position

    s = position(rows=[[3], [22], [40], [90]], hands=[[5, 8], [7, 9], [60, 61]])
    assert T6.action_to_text(s, Select(2, 60)) == "P2 60"
    assert T6.action_from_text(s, "60") == T6.action_from_text(s, "p2 select 60") == Select(2, 60)
    s = position(rows=[[3], [22], [40], [90]], hands=[[5, 8], [9], [61]], selected=[None, 7, 60])
    assert T6.action_to_text(s, Select(0, 5)) == "5"
    with pytest.raises(IllegalAction, match="T6-SELECT-2"):
        T6.action_from_text(s, "P1 9")
    s = position(rows=[[3], [22], [40], [90]], hands=[[8], [9]], pending=[(2, 1), (5, 0)])
    assert T6.action_to_text(s, TakeRow(1, 3)) == "row 3"
    assert T6.action_from_text(s, "take row 3") == TakeRow(1, 3)
    logic = T6.new_game(3, seed=1, variant="logic")
    card = logic.stock[0]
    assert T6.action_to_text(logic, Draft(logic.start, card)) == f"draft {card}"
    assert T6.action_from_text(logic, str(card)) == Draft(logic.start, card)
    kids = T6.new_game(3, seed=1, variant="kids")
    assert T6.action_to_text(kids, Flip(0)) == "flip"
    waiting = T6.apply(T6.apply(position(rows=[[3], [22], [40], [90]], hands=[[50], [60]], round=2,
                                         totals=[2, 3]), Select(0, 50)), Select(1, 60))
    deal = Deal(hands=[range(11, 21), range(21, 31)], rows=[1, 2, 3, 4])
    text = T6.action_to_text(waiting, deal)
    assert text == "deal 11.12.13.14.15.16.17.18.19.20/21.22.23.24.25.26.27.28.29.30|1.2.3.4"
    assert T6.action_from_text(waiting, text) == deal
    with pytest.raises(IllegalAction, match="T6-SETUP-5"):
        T6.action_from_text(waiting, "deal 11.12/21.22|1.2.3.4")
    assert T6.action_to_text(waiting, DraftStart(1)) == "start P1"


def test_take6_malformed_text_names_the_part() -> None:
    """A malformed text is InputError naming the part: the card, the row, the seat, the deal, the verb."""
    s = T6.new_game(2, seed=1)
    for text, part in [("105", "card"), ("select 0", "card"), ("row x", "row"), ("P2 58", "seat"),
                       ("deal 1.2", "deal"), ("start P7", "start"), ("hop 3", "action"), ("58 59", "action"),
                       ("١٢", "action"), ("P1 deal 1/2|3", "seat")]:
        with pytest.raises(InputError) as info:
            T6.action_from_text(s, text)
        assert info.value.field == part, (text, info.value)


def _sp(**kw: Any) -> Any:
    from engine.petersburg import position

    return position(players=2, **kw)


def test_petersburg_forms() -> None:
    """SP-BUY-1, SP-BUY-3, SP-HAND-1, SP-HAND-4, SP-TRADE-1, SP-TURN-3, SP-OBS-1, SP-OBS-4, SP-PUB-1,
    SP-REVEAL-1: the forms of every Saint Petersburg action, card names in any edition or language."""
    from engine.petersburg import Buy, Discard, Observe, Pass, Play, PubBuy, Reveal, Take

    s = _sp(phase="building", turn=0, markers=[0, 1, 0, 1], upper=["Market", "Gold Smelter"],
            lower=["Market", "Lumberjack"], areas=[["Gold Miner"], []], hands=[["Warehouse"], []])
    text = SP.action_to_text
    assert text(s, Pass(0)) == "pass"
    assert text(s, Buy(0, "Market", "lower")) == "buy Market lower"
    assert text(s, Buy(0, "Lumberjack", "lower")) == "buy Lumberjack"
    assert text(s, Take(0, "Lumberjack", "lower")) == "hand Lumberjack"
    assert text(s, Play(0, "Warehouse")) == "play Warehouse"
    assert text(s, Buy(0, "Gold Smelter", "upper", "Gold Miner")) == "buy Gold Smelter over Gold Miner"
    read = SP.action_from_text
    assert read(s, "Gold Smelter over Gold Miner") == Buy(0, "Gold Smelter", "upper", "Gold Miner")
    assert read(s, "buy Markt from lower") == read(s, "Рынок lower") == Buy(0, "Market", "lower")
    assert read(s, "take holzfäller") == Take(0, "Lumberjack", "lower")
    assert read(s, "warehouse") == Play(0, "Warehouse")
    assert read(s, "P0 buy GoldSmelter over goldminer") == Buy(0, "Gold Smelter", "upper", "Gold Miner")
    with pytest.raises(AmbiguousAction) as info:
        read(s, "buy Market")
    assert info.value.readings == ("buy Market upper", "buy Market lower")
    with pytest.raises(IllegalAction, match="SP-TURN-2"):
        read(s, "P1 pass")
    obs = _sp(phase="building", turn=0, markers=[0, 1, 0, 1], areas=[["Observatory"], []],
              stacks={"worker": ["Lumberjack", "Shepherd"], "trading": ["Wharf", "Czar", "Bank"]})
    assert read(obs, "observe trading") == Observe(0, "trading")
    assert text(obs, Observe(0, "worker")) == "observe worker"
    drawn = SP.apply(obs, Observe(0, "trading"))
    assert text(drawn, Discard(0, "Wharf")) == "discard"
    assert read(drawn, "discard Wharf") == Discard(0, "Wharf")
    assert text(drawn, Take(0, "Wharf", "drawn")) == "hand Wharf"
    pub = _sp(phase="pub", pub_queue=[1], areas=[[], ["Pub"]], money=[3, 20])
    assert text(pub, PubBuy(1, 3)) == "pub 3" and read(pub, "pub 0") == PubBuy(1, 0)
    reveal = _sp(phase="reveal", upper=["?building"], unknown={"building": ["Pub", "Market"]})
    assert text(reveal, Reveal("Market")) == "reveal Market" and read(reveal, "reveal Pub") == Reveal("Pub")
    second = SP.new_game(2, seed=1, variant="second")
    assert SP.action_from_text(second, "pass") == Pass(second.turn)
    assert STACKS == ("worker", "building", "aristocrat", "trading")


def test_petersburg_malformed_text_names_the_part() -> None:
    """A malformed text is InputError naming the part: the card, the source, the displaced card, the stack,
    the Pub's VP, the seat, the verb."""
    s = SP.new_game(2, seed=1)
    for text, part in [("buy Unicorn", "card"), ("play Market lower", "source"), ("hand Wharf over Bank",
                       "over"), ("buy Wharf over", "over"), ("observe attic", "stack"), ("pub x", "vp"),
                       ("pub", "pub"), ("P4 pass", "seat"), ("P1 reveal Market", "seat"), ("buy", "card"),
                       ("jump", "action"), ("pass now", "pass")]:
        with pytest.raises(InputError) as info:
            SP.action_from_text(s, text)
        assert info.value.field == part, (text, info.value)


def test_games_and_actions_have_readable_reprs() -> None:
    """A REPL shows a game by name, title, player range and variants; an action by its fields."""
    assert repr(T6) == ("<Game take6: 6 nimmt!, 2–10 players, variants standard, tactics, logic, "
                        "professional, kids, countdown>")
    assert repr(SP) == "<Game petersburg: Saint Petersburg, 1–4 players, variants first, second>"
    s = SP.new_game(2, seed=1)
    assert repr(SP.action_from_text(s, "buy Shepherd")) == (
        "Buy(player=0, card='Shepherd', source='upper', displace=None)"
    )


def test_the_readmes_library_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's library example (action text both ways) runs and prints the texts it promises."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Library", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(block, "README.md", "exec"), {})  # the page's own example, as a reader runs it
    assert capsys.readouterr().out.splitlines()[:3] == ["P0 10", "P1 5", "11"]
