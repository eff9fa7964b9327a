"""Diagnosis (``engine.conformance.diagnosis``): fault models from the rule tables, the rules built from
edited tables in-process, the smallest set of faults explaining a divergence, classes by diagnosis, and the
diagnosis as campaigns, ``arbiter check`` and the reports give it.  The measure on generated defective
implementations is ``tests/test_diagnosis_rates.py`` (and ``arbiter bench diagnosis``); the examples here
illustrate each part."""

from __future__ import annotations

import io
import random
from typing import Any

import jsonschema
import pytest

from engine.conformance.campaign.report import summary_lines, to_markdown
from engine.conformance.campaign.runner import run_campaign
from engine.conformance.diagnosis.classes import cover
from engine.conformance.diagnosis.evidence import Seen, matches, predict
from engine.conformance.diagnosis.faults import Fault, World, parse
from engine.conformance.diagnosis.search import Diagnoser
from engine.conformance.diagnosis.space import candidates, fault_space
from engine.conformance.diagnosis.words import described
from engine.conformance.peers.edited import edited_peer
from engine.conformance.peers.launch import in_process
from engine.conformance.peers.multi import MultiDefectPeer
from engine.conformance.records.check import check_record, format_report
from engine.conformance.records.format import schema, write_record
from engine.errors import IllegalAction, InputError, SpecError
from engine.game import get_game
from engine.petersburg import Buy, cost_breakdown, position
from engine.petersburg.ruleset import ruleset
from engine.spec import Field, Tables, check_rows
from engine.take6.rules import SHIPPED, rules_for

LOWER = "petersburg:edit:phases/param/lower_row_discount/value=2"


def test_every_fault_reads_back_from_its_signature() -> None:
    """A fault's signature names it: parsed back, it is the same fault, with the rules' value and the row's
    clause looked up (a sample of every game's whole fault space, every kind included)."""
    rng = random.Random(1)
    for game in ("take6", "petersburg"):
        space = fault_space(game)
        kinds = {f.kind for f in space}
        assert {"edit", "swap", "drop", "reading", "shift", "misread"} <= kinds
        assert game == "take6" or {"skip", "negate", "bound"} <= kinds
        for f in rng.sample(space, 60) + [next(f for f in space if f.kind == k) for k in sorted(kinds)]:
            again = parse(f.signature)
            assert again == f and again.signature == f.signature
            assert again.shipped == f.shipped and again.clause == f.clause


@pytest.mark.parametrize(
    "signature, message",
    [
        ("petersburg:edit:phases/param/nowhere/value=2", "no row 'nowhere'"),
        ("petersburg:edit:cards/Market/name=Bazaar", "is not a rule value"),
        ("take6:tweak:setup/standard/rows=3", "unknown kind 'tweak'"),
        ("petersburg:reading:SP-COST-1", "names no option"),
        ("petersburg:skip:SP-COST-1", "cannot be left out"),
        ("petersburg:negate:SP-COST-3", "cannot be negated"),
        ("take6:negate:T6-PLACE-3", "cannot be negated"),
        ("petersburg:bound:SP-BUY-1=1", "no bound to move"),
        ("petersburg:bound:SP-BUY-2=0", "whole number but 0"),
        ("chess:edit:x/y=1", "unknown game"),
        ("take6:shift:setup/standard/row_capacity=1", r"every row with \*"),
        ("take6:shift:setup/*/row_capacity=0", "whole number but 0"),
        ("take6:misread:setup/*/rows=rows", "another field"),
        ("petersburg:shift:*/*/cost=1", "effect's parameter"),
        ("petersburg:shift:cards/*/colour=1", "0 row"),
        ("nonsense", "expected GAME:KIND:TARGET"),
    ],
)
def test_a_bad_fault_signature_is_refused_naming_it(signature: str, message: str) -> None:
    """A signature naming no rule value, an unknown kind, a ruling without an option for its other reading,
    a step that cannot be left out: an InputError saying what, never a traceback."""
    with pytest.raises(InputError, match=message):
        World(signature.split(":", maxsplit=1)[0], [parse(signature)])


def test_edited_rules_leave_the_shipped_rules_untouched() -> None:
    """Rules built from edited tables are built in-process and apart: after many worlds of both games the
    shipped rules, rulesets and games are what they were (no cache serves an edited value)."""
    before = (rules_for("standard", 4), SHIPPED.heads[55], ruleset("first").lower_discount)
    for f in random.Random(2).sample(fault_space("take6"), 25) + random.Random(3).sample(
        fault_space("petersburg"), 25
    ):
        try:
            World(f.game, [f])
        except InputError:
            continue
    assert (rules_for("standard", 4), SHIPPED.heads[55], ruleset("first").lower_discount) == before
    assert rules_for("standard", 4).capacity == 5 and ruleset("first").lower_discount == 1
    assert Tables.shipped("take6").edits == ()


def test_a_world_plays_by_its_faults() -> None:
    """SP-COST-3: under a lower-row discount of 2 a lower-row card costs one rouble less than the rules say,
    and everything else is as the rules say."""
    game = get_game("petersburg")
    state = game.from_notation("first 2 worker 0 0 0/1/0/1 Market,Pub Lumberjack - - 25:0:-:-:- 25:0:-:-:-")
    world = World("petersburg", [parse(LOWER)])
    mine = world.adopt(state)
    assert cost_breakdown(mine, 0, "Lumberjack", source="lower").cost == 1
    assert cost_breakdown(state, 0, "Lumberjack", source="lower").cost == 2
    assert cost_breakdown(mine, 0, "Market", source="upper").cost == 5


@pytest.mark.parametrize(
    "signature, paid, cost",
    [
        ("petersburg:negate:SP-BUY-1", -16, 16),  # the Library's 16 R credited, not paid
        ("petersburg:skip:SP-BUY-1", 0, 16),  # bought free
        ("petersburg:negate:SP-COST-4", 18, 18),  # 17 R printed and the Carpenter Workshop's rouble added
        ("petersburg:negate:SP-COST-7", 10, 10),  # the Gold Smelter's 6 R and the Gold Miner's 4 R added
        ("petersburg:skip:SP-COST-7", 6, 6),  # 6 R: nothing off for the displaced Gold Miner
    ],
)
def test_a_step_of_an_amount_left_out_or_negated_plays_so(signature: str, paid: int, cost: int) -> None:
    """SP-BUY-1, SP-COST-4, SP-COST-7: the steps of an amount a fault may leave out or apply with the
    opposite sign (a payment, a reducer's rouble, the displaced card's value), compiled into the values the
    interpreter reads: a purchase under the fault charges what the fault says, the rules' price and the
    shipped rules unchanged."""
    state = position(players=2, upper=["Library", "Gold Smelter"], money=[40, 25],
                     areas=[["Gold Miner", "Carpenter Workshop"], []])
    card, displace = ("Gold Smelter", "Gold Miner") if "SP-COST-7" in signature else ("Library", None)
    mine = World("petersburg", [parse(signature)]).adopt(state)
    assert cost_breakdown(mine, 0, card, source="upper", displace=displace).cost == cost
    after = get_game("petersburg").apply(mine, Buy(0, card, "upper", displace))
    assert mine.money[0] - after.money[0] == paid
    shipped = cost_breakdown(state, 0, card, source="upper", displace=displace).cost
    assert shipped == (16 if card == "Library" else 2) and state.rules is ruleset("first")


def test_an_affordability_bound_one_off_refuses_a_card_costing_all_the_seat_has() -> None:
    """SP-BUY-2: "at most the player's roubles"; under the bound one lower (an implementation comparing with
    ``<``) a card costing exactly the seat's money is neither legal nor accepted, and the derivation says it
    is too dear; one cheaper is bought as the rules say."""
    game = get_game("petersburg")
    state = position(players=2, upper=["Market", "Author"], money=[5, 25])
    mine = World("petersburg", [parse("petersburg:bound:SP-BUY-2=-1")]).adopt(state)
    assert Buy(0, "Market", "upper") in game.legal_actions(state, 0)
    assert Buy(0, "Market", "upper") not in game.legal_actions(mine, 0)
    assert Buy(0, "Author", "upper") in game.legal_actions(mine, 0)
    with pytest.raises(IllegalAction, match="SP-BUY-2"):
        game.apply(mine, Buy(0, "Market", "upper"))
    assert not cost_breakdown(mine, 0, "Market", source="upper").affordable
    assert cost_breakdown(state, 0, "Market", source="upper").affordable


def test_a_divergence_is_explained_and_an_agreed_step_refutes() -> None:
    """The peer paid 1 rouble for a lower-row Lumberjack: the discount of 2 explains it, and so does a
    Lumberjack costing 2; a step where the peer paid 3 for an upper-row Lumberjack (as the rules say)
    refutes the cheaper Lumberjack and leaves the discount."""
    game = get_game("petersburg")
    state = game.from_notation(
        "first 2 worker 0 0 0/1/0/1 Market,Lumberjack Lumberjack - - 25:0:-:-:- 25:0:-:-:-"
    )
    lower = Buy(0, "Lumberjack", "lower")
    seen = Seen("after", state, lower, shown={"money": [24, 25]})
    assert not matches(predict(None, "petersburg", seen), seen.shown)
    found = [fs[0].signature for fs in Diagnoser("petersburg").explain(seen, ())]
    assert LOWER in found and "petersburg:edit:cards/Lumberjack/cost=2" in found
    upper = Seen("after", state, Buy(0, "Lumberjack", "upper"), shown={"money": [22, 25]})
    assert matches(predict(None, "petersburg", upper), upper.shown)
    found = [fs[0].signature for fs in Diagnoser("petersburg").explain(seen, [upper])]
    assert LOWER in found and "petersburg:edit:cards/Lumberjack/cost=2" not in found


def test_an_ordered_table_is_read_down_to_the_rule_that_decides() -> None:
    """T6-BULL-1..5 apply in order, the first that matches deciding: a card the catch-all rule decides was
    also tested against every rule above it, so their faults are candidates too (a multiple of 7 made one
    of the multiples' rules)."""
    signatures = {f.signature for f in candidates("take6", {"T6-BULL-5"}, set(), set())}
    assert "take6:edit:bullheads/T6-BULL-4/n=7" in signatures
    assert "take6:drop:bullheads/T6-BULL-1" in signatures


def test_a_coincidence_does_not_stand_for_a_defect() -> None:
    """Classes by diagnosis: the set explaining most divergences takes them; a diagnosis explaining fewer
    divergences of its sort than remain unexplained of that sort is a coincidence, and its divergence joins
    the unexplained class of its signature."""
    a, b = (parse(LOWER),), (parse("petersburg:edit:cards/Market/cost=4"),)
    sig = {k: "petersburg:claim:SP-COST-4:money:Gold Smelter" for k in range(6)}
    classes = cover({0: (b,), 1: (), 2: (), 3: (), 4: (a,), 5: (a,)}, {**sig, 4: "x:legal-extra:C:buy",
                                                                          5: "x:legal-extra:C:buy"})
    assert [(c.signature, c.members) for c in classes] == [
        (LOWER, (4, 5)),
        ("petersburg:claim:SP-COST-4:money:Gold Smelter", (0, 1, 2, 3)),
    ]


def test_a_weak_diagnosis_leaves_its_divergences_unexplained_for_the_others() -> None:
    """Classes by diagnosis: a coincidence's divergences count as unexplained when the next diagnosis is
    weighed (two coincidences of a price, one divergence each beside two unexplained, leave four
    unexplained, more than the two a third explains);
    a column fault (every row read otherwise) is weighed by the step deciding its divergences, whatever
    their kind: a misread of every card's income explaining two scorings' money beside three scorings'
    VP nothing explains is a coincidence too."""
    one, two, three = ((parse(f"petersburg:edit:cards/{c}/cost=4"),) for c in ("Market", "Bank", "Pub"))
    money = "petersburg:claim:SP-COST-1:money"
    found = {0: (one,), 1: (two,), 2: (three,), 3: (three,), 4: (), 5: ()}
    classes = cover(found, dict.fromkeys(range(6), money))
    assert [(c.signature, c.members) for c in classes] == [(money, (0, 1, 2, 3, 4, 5))]
    misread = (parse("petersburg:misread:cards/*/roubles=vp"),)
    signatures = {0: "petersburg:claim:SP-SCORE-4:money", 1: "petersburg:claim:SP-SCORE-4:money",
                  **dict.fromkeys((2, 3, 4), "petersburg:scores:SP-SCORE-4:-")}
    classes = cover({0: (misread,), 1: (misread,), 2: (), 3: (), 4: ()}, signatures)
    assert [c.explained for c in classes] == [False, False], classes
    classes = cover({0: (misread,), 1: (misread,), 2: (misread,), 3: (), 4: ()}, signatures)
    assert (classes[0].signature, classes[0].members) == (misread[0].signature, (0, 1, 2))


def _edited_campaign(signatures: list[str], game: str, positions: bool, games: int = 16) -> Any:
    return run_campaign(edited_peer(signatures), games=games, jobs=1, seed=4, game_names=[game],
                        positions=positions, shrink_seconds=20.0)


@pytest.mark.parametrize("positions", [True, False], ids=["positions", "no-positions"])
@pytest.mark.parametrize(
    "signature",
    [
        LOWER,
        "petersburg:drop:cards/Observatory/effect",
        "petersburg:skip:SP-COST-4",
        "petersburg:skip:SP-OBS-5",
        "petersburg:negate:SP-BUY-1",
        "petersburg:negate:SP-COST-7",
        "petersburg:bound:SP-BUY-2=-1",
        "take6:edit:bullheads/T6-BULL-1/bullheads=6",
        "take6:edit:setup/standard/row_capacity=4",
    ],
)
def test_one_edit_is_one_class_named_by_it(signature: str, positions: bool) -> None:
    """A peer that is the reference under one fault (an edited parameter, an effect left out, a step left
    out, a bullhead value, the row capacity) gives one class, diagnosed as that fault, whose counterexample
    (one small position and one action) shows it; the summary leads with it in the spec's words."""
    report = _edited_campaign([signature], signature.split(":", maxsplit=1)[0], positions)
    assert [c.signature for c in report.classes] == [signature]
    c = report.classes[0]
    assert c.faults == (signature,) and c.count >= 1
    assert c.shrunk is not None and c.shrunk.origin is not None and c.counterexample_note == ""
    text = "\n".join(summary_lines(report))
    said = ("diagnosis: behaves as if", "diagnosis: applies", "does not apply")  # an edit; a negated step
    assert f" 1. {signature}" in text and any(s in text for s in said)


def test_the_report_leads_with_the_diagnosis_in_the_specs_words() -> None:
    """The Markdown and JSON reports name the table row, the rules' and the peer's values, the clause with its
    wording and its seed passage; the JSON report is valid against its schema."""
    report = _edited_campaign([LOWER], "petersburg", True)
    markdown = to_markdown(report)
    assert "## 1. Diagnosis (`petersburg:edit:phases/param/lower_row_discount/value=2`)" in markdown
    assert "> **SP-COST-3**: A card bought from the lower row costs 1 rouble less." in markdown
    doc = report.to_json()
    jsonschema.validate(doc, schema("campaign-report"))
    (d,) = doc["classes"][0]["diagnosis"]
    assert (d["table"], d["row"], d["field"], d["rules"], d["peer"], d["clause"]) == (
        "phases.toml", "param lower_row_discount", "value", 1, 2, "SP-COST-3")
    assert d["seed"]["seed"] == "003"


def test_check_diagnoses_a_record_as_the_campaign_did() -> None:
    """``arbiter check`` on a diagnosed class's records (its first occurrence, its counterexample) names the
    class's diagnosis first, in its text and JSON reports."""
    report = _edited_campaign(["take6:edit:bullheads/T6-BULL-1/bullheads=6"], "take6", True)
    (c,) = report.classes
    for div in (c.first, c.shrunk):
        assert div is not None
        buffer = io.StringIO()
        write_record(buffer, div.to_record())
        checked = check_record(io.StringIO(buffer.getvalue()), name="class.jsonl")
        assert checked.status == "divergence" and checked.diagnosis[0] == c.faults
        assert "diagnosis: behaves as if bullheads.toml T6-BULL-1 bullheads were 6" in "\n".join(
            format_report(checked, 12))
        assert checked.to_json()["diagnosis"][0] == described(c.faults)


@pytest.mark.parametrize(
    "defect, signature",
    [
        ("bull-55", "take6:edit:bullheads/T6-BULL-1/bullheads=1"),
        ("eleven", "take6:edit:bullheads/T6-BULL-2/bullheads=2"),
        ("fifth-card", "take6:edit:setup/standard/row_capacity=4"),
    ],
)
def test_a_planted_defect_a_fault_models_is_diagnosed(defect: str, signature: str) -> None:
    """The multi-defect peer's defects that one rule of the tables states (card 55 counted 1, the multiples of
    11 counted 2, a row taken at its 5th card) are diagnosed as that rule's value; its procedural defects
    (a second selection accepted, a low card's row chosen for its player) no fault models, and stay
    classes of their own named by attribution (``tests/test_conformance_attribution.py``)."""
    report = run_campaign(in_process(lambda: MultiDefectPeer({defect})), games=24, jobs=1, seed=5,
                          shrink=False, game_names=["take6"])
    assert [c.signature for c in report.classes] == [signature]


def test_a_fault_is_described_in_the_specs_words() -> None:
    """Every kind of fault is described: what the peer behaves as if, the rules' value, the row's clause."""
    text = {f.kind: described([f])[0]["describe"] for f in (
        parse(LOWER), parse("petersburg:swap:cards/Tax Man/vp,cards/Senator/vp"),
        parse("petersburg:drop:pairings/pairing/Wharf"), parse("petersburg:reading:SP-COST-5"),
        parse("petersburg:skip:SP-OBS-5"), parse("take6:option:kids_piles=strict"),
    )}
    assert text["edit"].startswith("behaves as if phases.toml param lower_row_discount value were 2")
    assert text["swap"].startswith(
        "behaves as if cards.toml Tax Man vp and cards.toml Senator vp were swapped"
    )
    assert text["drop"].startswith("behaves as if pairings.toml pairing Wharf were left out")
    assert text["reading"].startswith("follows the reading ruling SP-COST-5 rejects")
    assert text["skip"].startswith("does not apply SP-OBS-5")
    assert text["option"].startswith("plays option kids_piles=strict")
    assert isinstance(parse(LOWER), Fault)


def test_a_fault_names_the_clause_its_field_states() -> None:
    """A set-up row cites the player count (T6-SETUP-1), the deal, the rows and the 6th-card rule; its
    ``field_clauses`` say which one each field states, so a row capacity of 4 is diagnosed under
    T6-PLACE-2 and the rows under T6-SETUP-3 (before, every field named the row's first clause, the player
    count); a field the map leaves out names the first.  The table loader refuses a map naming a field the
    table does not have or a clause the row does not cite."""
    assert parse("take6:edit:setup/standard/row_capacity=4").clause == "T6-PLACE-2"
    assert parse("take6:edit:setup/standard/rows=3").clause == "T6-SETUP-3"
    assert parse("take6:edit:end/threshold/winner=\"highest\"").clause == "T6-END-2"
    assert parse("take6:edit:end/threshold/threshold=50").clause == "T6-END-1"
    capacity = {f.clause for f in fault_space("take6") if f.target == "setup/standard/row_capacity"}
    assert capacity == {"T6-PLACE-2"}
    rows = [{"n": 1, "clauses": ["T6-SETUP-1"], "field_clauses": {"m": "T6-SETUP-1"}}]
    fields = [Field("n", int), Field("clauses", list, clause_ref=True),
              Field("field_clauses", dict, required=False, clause_ref=True)]
    with pytest.raises(SpecError, match="'m' is no field of the table"):
        check_rows("demo", rows, fields, clause_ids={"T6-SETUP-1", "T6-PLACE-2"})
    rows = [{"n": 1, "clauses": ["T6-SETUP-1"], "field_clauses": {"n": "T6-PLACE-2"}}]
    with pytest.raises(SpecError, match="not one of the row's clauses"):
        check_rows("demo", rows, fields, clause_ids={"T6-SETUP-1", "T6-PLACE-2"})


def test_a_value_diagnosed_twice_is_one_class() -> None:
    """A table value is wrong once: a small class diagnosed as another value of a larger class's value
    (the Hospital's cost 16 beside 17), or as a pair of values each a larger class's (the Chamber Maid's
    and the Hospital's costs, a swap and an edit acting in one step), joins the largest such class; a pair
    of one such value and a value no class diagnoses is the class of that value alone (a defect seen only
    beside another)."""
    hospital = (parse("petersburg:edit:cards/Hospital/cost=17"),)
    swap = (parse("petersburg:swap:cards/Chamber Maid/cost,cards/Patriarch/cost"),)
    near = (parse("petersburg:edit:cards/Hospital/cost=16"),)
    joint = (parse("petersburg:edit:cards/Chamber Maid/cost=15"),
             parse("petersburg:edit:cards/Hospital/cost=15"))
    other = (parse("petersburg:edit:cards/Hospital/cost=15"), parse("petersburg:edit:cards/Market/cost=4"))
    explanations = {**{i: (swap,) for i in range(5)}, **{i: (hospital,) for i in range(5, 8)},
                    8: (near,), 9: (joint,), 10: (other,)}
    classes = cover(explanations, {k: "petersburg:claim:SP-COST-1:money" for k in explanations})
    got = {c.signature: c.members for c in classes}
    assert got[swap[0].signature] == (0, 1, 2, 3, 4, 9)
    assert got[hospital[0].signature] == (5, 6, 7, 8)
    assert len(got) == 3 and got["petersburg:edit:cards/Market/cost=4"] == (10,)


def test_a_column_fault_changes_every_row_of_its_column() -> None:
    """T6-PLACE-2 / SP-MARI-1, SP-TAX-1: a shift moves a field of every row by one amount (every variant's
    row capacity one more), a misread reads a field of every row from another (every per-card income's
    roubles from its VP: the Mariinsky's and the Tax Man's roubles are gone, the second edition's Mariinsky
    pays a rouble); the shipped rules stay as they were."""
    shift = parse("take6:shift:setup/*/row_capacity=1")
    assert shift.shipped == {"setup/standard/row_capacity": 5, "setup/kids/row_capacity": 5}
    assert shift.changes == frozenset(shift.shipped) and shift.clause == "T6-PLACE-2"
    world = World("take6", [shift])
    assert [world.new_game(4, seed=1, variant=v).rules.capacity for v in ("standard", "kids")] == [6, 6]
    assert rules_for("standard", 4).capacity == 5
    misread = parse("petersburg:misread:*/*/effect.roubles=effect.vp")
    first, second = (World("petersburg", [misread]).new_game(2, seed=1, variant=v).rules
                     for v in ("first", "second"))
    income = {rs.names[k]: pc for rs in (first, second) for k, pc in enumerate(rs.per_card) if pc is not None}
    assert income["Tax Man"][1:] == (0, 0) and income["Mariinskij Theater"][1:] == (0, 0)
    assert income["Mariinsky Theater"][1:] == (1, 1)
    assert "every row's effect.roubles were read from its effect.vp" in misread.describe()
    with pytest.raises(InputError, match="two faults change"):
        World("take6", [shift, parse("take6:edit:setup/kids/row_capacity=4")])


@pytest.mark.parametrize(("variants", "diagnosed"), [
    (["standard", "kids"], "take6:shift:setup/*/row_capacity=1"),
    (["standard"], "take6:edit:setup/standard/row_capacity=6"),
])
def test_a_column_read_off_by_one_is_one_class_named_by_the_column(variants: list[str], diagnosed: str
                                                                    ) -> None:
    """T6-PLACE-2: a peer whose every variant takes a row one card late (``len(row) <= capacity``) is one
    class, diagnosed as the column shifted (every set-up's row capacity one more), not as one edit per
    variant's row; where only one variant is played, that row's edit says as much and is the simpler
    diagnosis."""
    report = run_campaign(edited_peer(["take6:shift:setup/*/row_capacity=1"]), games=12, jobs=1, seed=4,
                          game_names=["take6"], variants=variants, positions=True, shrink=False)
    assert [c.signature for c in report.classes] == [diagnosed], [c.signature for c in report.classes]


def test_two_ends_winners_swapped_is_one_class_named_by_the_swap() -> None:
    """T6-END-2, T6-KIDS-4: a peer whose winner test is inverted in code every variant shares (the
    lowest total wins where the most should, and the other way round) shows as both ends' winners
    changed; the fault space swaps the two ends' winners (a string column, like a number column's
    swap), so the standard and the kids games are one class diagnosed as that swap, not one edit of each
    end."""
    swap = "take6:swap:end/one_round/winner,end/threshold/winner"
    report = run_campaign(edited_peer([swap]), games=12, jobs=1, seed=4, game_names=["take6"],
                          variants=["standard", "kids"], positions=True, shrink=False)
    assert [c.signature for c in report.classes] == [swap], [c.signature for c in report.classes]
