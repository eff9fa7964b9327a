"""Rules and guards that a changed line of the engine or a changed table row must not get past: each test
here kills a mutant that survived the whole suite (``python -m engine.mutation``, docs/robustness.md), and
says which rule or guard it pins."""

from __future__ import annotations

import importlib
import io
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.conformance.attribution import fact_clauses
from engine.conformance.kits.base import get_kit
from engine.conformance.records.check import check_record
from engine.conformance.records.format import schema_error, validator
from engine.errors import InputError, PositionError, SpecError
from engine.game import get_game
from engine.take6 import position as take6_position
from engine.take6.deal import derived_seed

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "data" / "records"


def _play_until(game: Any, state: Any, stop: Any) -> tuple[Any, Any, Any]:
    """Play each acting seat's first legal action until ``stop(before, after)``; the last step."""
    while not game.is_terminal(state):
        acting = game.to_act(state)
        action = game.legal_actions(state, acting[0])[0]
        after = game.apply(state, action)
        if stop(state, after):
            return state, action, after
        state = after
    raise AssertionError("the game ended first")


def test_a_logic_position_with_rows_and_no_phase_is_in_select() -> None:
    """T6-LOGIC-2: once the draft has laid the rows, a logic position given without a phase is a selection
    turn, not a draft (the phase is ``draft`` only while no row lies on the table)."""
    game = get_game("take6")
    start = game.new_game(2, variant="logic", seed=4)
    _, _, after = _play_until(game, start, lambda b, a: a.phase == "select")
    built = take6_position(
        players=2, variant="logic", rows=after.rows, hands=after.hands, seed=after.seed, round=after.round,
        start=after.start, options=dict(after.options),
    )
    assert built.phase == "select" and built == after
    drafting = take6_position(players=2, variant="logic", hands=[[], []], seed=4)
    assert drafting.phase == "draft"


def test_logic_rotate_never_waits_for_a_draft_start() -> None:
    """T6-LOGIC-3: with ``logic_start=rotate`` a later round's draft starts from the next seat, so a position
    waiting for that round's chance step is refused naming the clause."""
    with pytest.raises(PositionError) as err:
        take6_position(players=2, variant="logic", options={"logic_start": "rotate"}, hands=[[], []],
                       phase="deal", round=2, totals=[3, 5])
    assert err.value.clause == "T6-LOGIC-3" and err.value.field == "phase"
    waiting = take6_position(players=2, variant="logic", hands=[[], []], phase="deal", round=2, totals=[3, 5])
    assert waiting.phase == "deal"


def test_the_deals_of_a_position_survive_its_notation() -> None:
    """T6-SETUP-5: a position's explicit deals of later rounds are written as ``deals=`` and read back into
    the same deals; a deal that repeats a card is refused naming the token."""
    game = get_game("take6")
    first = game.new_game(2, seed=8)
    later = [get_kit("take6").explicit_setup([game.new_game(2, seed=s)])[0] for s in (9, 10)]
    state = take6_position(players=2, rows=first.rows, hands=first.hands, deals=later)
    line = game.to_notation(state)
    assert "deals=" in line
    back = game.from_notation(line)
    assert back.deals == state.deals and back == state
    broken = line.replace(str(later[0].rows[1]), str(later[0].rows[0]), 1)
    with pytest.raises(InputError, match="deals"):
        game.from_notation(broken)


@pytest.mark.parametrize(
    ("variant", "needle"), [("standard", "hands of 10 cards"), ("logic", "drafts first")]
)
def test_the_new_round_line_of_the_narration(variant: str, needle: str) -> None:
    """T6-SETUP-4, T6-LOGIC-3: the step that ends a round narrates the next round's start from the state it
    leads to: the deal's seed and the rows it lays, or the logic draft's first drafter."""
    game = get_game("take6")
    before, action, after = _play_until(
        game, game.new_game(2, variant=variant, seed=6), lambda b, a: a.round == 2
    )
    lines = game.narrate(before, action, after)
    new = [line for line in lines if line.startswith("Round 2:")]
    assert len(new) == 1 and needle in new[0], lines
    if variant == "standard":
        assert f"seeded deal {derived_seed(6, 2)}" in new[0] and "[T6-SETUP-4]" in new[0]
        assert f"rows start with {', '.join(str(r[0]) for r in after.rows)} [" in new[0]
    else:
        assert f"P{after.start} drafts first [T6-LOGIC-3]" in new[0]


def test_the_state_phases_of_saint_petersburg_are_pinned() -> None:
    """SP-PHASE-1: the state phases in order (each once): the environment's phase one-hot is laid out from
    this tuple, so a phase listed twice or out of order changes every observation."""
    from engine.petersburg.model import STATE_PHASES

    assert STATE_PHASES == (
        "worker", "building", "pub", "observatory", "aristocrat", "trading", "reveal", "over"
    )
    assert len(set(STATE_PHASES)) == len(STATE_PHASES)


PARAM_CLAUSES = {
    "board_cards": "SP-REFILL-1",
    "hand_limit": "SP-HAND-2",
    "minimum_cost": "SP-COST-6",
    "lower_row_discount": "SP-COST-3",
    "identical_discount": "SP-COST-2",
}


def test_each_board_parameter_cites_the_clause_that_sets_it() -> None:
    """SP-REFILL-1, SP-HAND-2, SP-COST-6, SP-COST-3, SP-COST-2: each ``[[param]]`` row of phases.toml names
    the clause whose rule it is, and that clause exists in the rule book."""
    rows = tomllib.loads((ROOT / "spec" / "petersburg" / "phases.toml").read_text(encoding="utf-8"))["param"]
    assert {r["name"]: r["clause"] for r in rows} == PARAM_CLAUSES
    book = get_game("petersburg").clauses
    assert all(c in book for c in PARAM_CLAUSES.values())


@pytest.mark.parametrize("line", ['"foo"', "7", "[1]", "null"])
def test_schema_error_explains_a_line_that_is_no_object(line: str) -> None:
    """A record line that is not an object is explained (json path, message), never an AttributeError, both by
    the line schema and by the game's action schema."""
    value = json.loads(line)
    for v in (validator("record"), validator("record", "action"), validator("take6", "action"),
              validator("petersburg", "claims")):
        problem = schema_error(v, value)
        assert problem is not None and problem[0] == "" and isinstance(problem[1], str)


def test_an_input_error_of_the_explicit_setup_names_its_field(monkeypatch: pytest.MonkeyPatch) -> None:
    """A record whose explicit set-up the kit or the game refuses as input is malformed naming the header
    line and the field, not an engine fault after zero actions."""
    from engine.conformance.records import check

    record = (RECORDS / "good-take6-standard-2p.jsonl").read_text(encoding="utf-8")
    real = get_kit("take6")

    class Refusing:
        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def setup_from_json(self, data: Any) -> Any:
            raise InputError("setup[0].hands", "refused")

    monkeypatch.setattr(check, "get_kit", lambda name: Refusing())
    report = check_record(io.StringIO(record), name="r")
    assert report.status == "malformed" and report.error == "r line 1: setup[0].hands: refused"
    monkeypatch.setattr(check, "get_kit", get_kit)

    game = get_game("take6")

    class Failing:
        def __getattr__(self, name: str) -> Any:
            return getattr(game, name)

        def new_game(self, *args: Any, **kwargs: Any) -> Any:
            raise InputError("options", "refused")

    monkeypatch.setattr(check, "get_game", lambda name: Failing())
    report = check_record(io.StringIO(record), name="r")
    assert report.status == "malformed" and report.error == "r line 1: options: refused"


def test_the_clauses_of_a_divergence_survive_a_failing_step_lookup() -> None:
    """Naming the clauses of a divergence is advisory: when the kit's ``step_clauses`` (or ``deciding``)
    fails, the fact's own clauses are named instead of the lookup's error."""
    game = get_game("take6")
    real = get_kit("take6")
    state = game.new_game(2, seed=1)
    action = game.legal_actions(state, 0)[0]
    step = (state, action, game.apply(state, action))

    class Broken:
        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def step_clauses(self, *args: Any) -> Any:
            raise KeyError("step")

        def deciding(self, *args: Any) -> Any:
            raise KeyError("deciding")

    named = fact_clauses(game, Broken(), "scores", step, "standard")
    assert named and set(named) <= set(real.fact_clauses("scores"))


def test_a_trading_card_displaces_only_non_trading_cards_of_its_colour() -> None:
    """SP-TRADE-1: the cards a trading card may displace are of its colour and are never trading cards; the
    Gold Smelter may displace the Gold Miner."""
    catalog = importlib.import_module("engine.petersburg.ruleset")
    for variant in ("first", "second"):
        rules = catalog.ruleset(variant)
        assert any(rules.targets_of)
        for k, targets in enumerate(rules.targets_of):
            assert bool(targets) <= rules.is_trading[k], rules.names[k]
            for t in targets:
                assert not rules.is_trading[t] and rules.colour[t] == rules.colour[k], (rules.names[k], t)
    first = catalog.ruleset("first")
    smelter, miner = first.kind["Gold Smelter"], first.kind["Gold Miner"]
    assert miner in first.targets_of[smelter]


@pytest.mark.parametrize("action", [{"type": "play", "player": 0}, {"type": "buy", "player": 0}])
def test_an_action_without_its_card_is_refused(action: dict[str, Any]) -> None:
    """SP-BUY-1: a Saint Petersburg action names its card; only ``source`` (of a buy or take) and
    ``displace`` may be left out."""
    with pytest.raises(InputError, match=r"^action\.card: missing"):
        get_game("petersburg").action_from_json(action)


@pytest.mark.parametrize("bad", [[""], [7], ["Holzfäller", ""]])
def test_the_names_table_refuses_an_empty_or_non_text_name(bad: Any) -> None:
    """Every name of a card in names.toml is non-empty text (a search for "" would find every card)."""
    import copy

    from engine.spec import Tables

    names = importlib.import_module("engine.petersburg.names")
    shipped = Tables.shipped("petersburg")
    doc = copy.deepcopy(dict(shipped.doc("names.toml")))
    doc["name"][0]["de"] = bad
    with pytest.raises(SpecError, match="non-empty strings"):
        names.names_of(shipped.replace("names.toml", doc, "names: edited"))


def test_the_variety_bonus_counts_at_most_ten_aristocrats() -> None:
    """SP-END-5: the final breakdown of a player owning twelve different aristocrats scores ten of them (55
    VP) and says so: ``distinct_capped`` 10, ``distinct_uncapped`` 12."""
    from engine.petersburg import GAME
    from engine.petersburg.scoring import final_breakdown
    from engine.petersburg.testing import arrange

    state = GAME.new_game(2, seed=1)
    rules = state.rules
    red = {rules.names[k] for k in range(rules.nkinds) if rules.colour[k] == rules.variety_colour}
    owned = sorted(red)[:12]
    assert len(owned) == 12
    breakdown = final_breakdown(arrange(state, areas={0: owned}), 0)
    assert breakdown["distinct_uncapped"] == 12 and breakdown["distinct_capped"] == 10
    assert breakdown["variety"] == 55


def test_the_narration_names_a_displaced_card_of_the_first_kind() -> None:
    """SP-TRADE-1: buying a trading card narrates the card it displaces, the catalog's first kind (the
    Lumberjack, kind 0) included."""
    from engine.petersburg import GAME
    from engine.petersburg.testing import arrange

    state = arrange(GAME.new_game(2, seed=1), areas={0: ["Lumberjack"]}, upper=["Carpenter Workshop"], turn=0,
                    money={0: 30}, phase="trading")
    buy = next(a for a in GAME.legal_actions(state, 0) if getattr(a, "displace", None) == "Lumberjack")
    lines = GAME.narrate(state, buy, GAME.apply(state, buy))
    assert "  Lumberjack is displaced to the discard pile [SP-TRADE-1]" in lines, lines
