"""Attribution from derivations: one class per defect, named by the step of the reference derivation the peer
contradicts. Attribution names every divergence no diagnosis explains (``engine.conformance.diagnosis``);
these campaigns run with the diagnosis off so that every defect is named by attribution.

Each 6 nimmt! defect of the multi-defect peer alone gives exactly one class, its deciding clause the rule
it breaks and its signature the card or effect that rule names; all of them in one run give one class
each; ``arbiter check`` replaying a class's record names the same first clause (one attribution for fuzz
and check).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest

from engine.conformance.attribution import Attribution, attribute, granting
from engine.conformance.campaign.fuzz import Divergence, in_process
from engine.conformance.campaign.grouping import unexplained_class
from engine.conformance.campaign.runner import CampaignReport, run_campaign
from engine.conformance.kits.base import get_kit
from engine.conformance.kits.take6 import contradicted_steps
from engine.conformance.peers.base import ReferencePeer
from engine.conformance.peers.multi import MultiDefectPeer
from engine.conformance.records.check import check_record
from engine.conformance.records.format import write_record
from engine.derivation import Step
from engine.game import get_game
from engine.take6 import GAME, Select, TakeRow

TAKE6 = {
    # defect: (the variants it lives in, the class signature it must give)
    "low-card": (("standard",), "take6:to_act:T6-PLACE-3:-"),
    "second-select": (("standard",), "take6:accepted-illegal:T6-SELECT-2:select"),
    "logic-draft": (("logic",), "take6:legal-missing:T6-LOGIC-1:draft"),
    "bull-55": (("countdown",), "take6:scores:T6-BULL-1:-:55"),
    "fifth-card": (("tactics",), "take6:scores:T6-PLACE-2:-"),
    "eleven": (("kids",), "take6:scores:T6-BULL-2:-:x11"),
}


def campaign(defects: Any, variants: Any = None, games: int = 32, positions: bool = True) -> CampaignReport:
    return run_campaign(in_process(lambda: MultiDefectPeer(defects)), games=games, jobs=1, seed=5,
                        shrink=False, game_names=["take6"], variants=variants, positions=positions,
                        diagnose=False)


def replay(div: Divergence) -> Any:
    buf = io.StringIO()
    write_record(buf, div.to_record())
    return check_record(io.StringIO(buf.getvalue()), name="class.jsonl")


@pytest.mark.parametrize("positions", [True, False], ids=["positions", "no-positions"])
@pytest.mark.parametrize("defect", sorted(TAKE6))
def test_each_defect_alone_is_one_class_with_its_own_clause(defect: str, positions: bool) -> None:
    """A peer with one 6 nimmt! defect gives exactly one class, named by the clause the defect breaks
    (T6-PLACE-3, T6-SELECT-2, T6-LOGIC-1, T6-BULL-1, T6-PLACE-2, T6-BULL-2), its signature carrying the
    card rule a bullhead step names; ``arbiter check`` on its record names the same clause first.  With
    positions (the peer put back on the reference's position after each divergence, every later step
    compared from there) and without (each game ending at its first divergence) alike."""
    variants, signature = TAKE6[defect]
    report = campaign({defect}, variants, positions=positions)
    assert [c.signature for c in report.classes] == [unexplained_class(signature)]
    assert report.classes[0].first.signature == signature
    checked = replay(report.classes[0].first)
    assert checked.divergence is not None and checked.divergence.clauses[0] == report.classes[0].clause


@pytest.mark.parametrize("positions", [True, False], ids=["positions", "no-positions"])
def test_all_take6_defects_in_one_run_give_one_class_each(positions: bool) -> None:
    """Every 6 nimmt! defect on at once: one class per defect, and no other (the low-card defect in a
    professional game breaks T6-PRO-5, that variant's own rule, a class of its own); with and without
    positions.  A class is a deciding clause, whatever the kind: in logic, a low card the peer does not
    wait for can end its round where the next round's first drafter is the very seat the rules ask, so
    only the phase tells them apart (a ``claim`` of the phase, not a ``to_act``), and that divergence is in
    the low card's T6-PLACE-3 class, not a class of its own."""
    report = campaign(set(TAKE6), games=96, positions=positions)
    found = {c.signature for c in report.classes}
    own = {unexplained_class(sig) for _v, sig in TAKE6.values()}
    assert own <= found
    assert found - own <= {"take6:unexplained:T6-PRO-5"}


def _sixth_card_step() -> tuple[Any, Any, Any]:
    before = GAME.from_notation("standard 2 select 2.10.22.33.44/50/60/70 45.3/51.4 - - 0/0")
    mid = GAME.apply(before, Select(0, 45))
    return mid, Select(1, 51), GAME.apply(mid, Select(1, 51))


def test_a_score_difference_names_the_bullhead_rule_that_explains_it() -> None:
    """T6-BULL-1..5: P0's 45 takes 2 10 22 33 44 (1+3+5+5+5 bullheads).  A score 6 too low is explained
    only by the multiples of 11 valued 3 each (T6-BULL-2, subject x11); 2 too high by the one card of
    T6-BULL-3 valued 5 or the one of T6-BULL-5 valued 3, alike: the candidate set."""
    g, kit = get_game("take6"), get_kit("take6")
    step = _sixth_card_step()
    ours = step[2].penalties
    low = attribute(g, kit, "scores", step, "standard", claimed=[ours[0] - 6, ours[1]])
    assert (low.clauses[0], low.subject) == ("T6-BULL-2", "x11")
    tie = attribute(g, kit, "scores", step, "standard", claimed=[ours[0] + 2, ours[1]])
    assert (tie.clauses[0], tie.subject) == ("T6-BULL-3|T6-BULL-5", "other|x10")


def test_a_row_taken_too_early_names_the_capacity_rule() -> None:
    """T6-PLACE-2: the reference placed 45 as a row's 2nd card; a peer claiming P0 took that row
    contradicts the capacity step (room for the card), not a bullhead rule."""
    before = GAME.from_notation("standard 2 select 44/50/60/70 45.3/51.4 - - 0/0")
    mid = GAME.apply(before, Select(0, 45))
    derived = GAME.derive(mid, Select(1, 51))
    after = GAME.apply(mid, Select(1, 51))
    ours = get_kit("take6").facts(after)
    theirs = {"taken": [[44], []], "scores": [5, 0]}
    steps = contradicted_steps(derived, "scores", ours, theirs)
    assert [(s.clause, s.says) for s in steps] == [("T6-PLACE-2", "room")]


def test_a_missing_row_choice_names_the_rule_that_grants_it() -> None:
    """T6-PRO-5: in professional a row choice is granted by the professional low-card rule, and a peer
    leaving it out is attributed to that rule, not to the generic one."""
    s = GAME.from_notation("professional 2 select 2.40/3.50/4.60/1.70 10.5/11.6 - - 0/0")
    s = GAME.apply(GAME.apply(s, Select(0, 10)), Select(1, 11))
    assert s.chooser is not None
    assert granting(get_game("take6"), get_kit("take6"), s, TakeRow(s.chooser, 1)) == "T6-PRO-5"


def test_rival_bullhead_explanations_are_told_apart_by_a_discriminating_position() -> None:
    """T6-BULL-1 vs T6-BULL-2: P0's 59 takes 22 33 55 56 58; a score 6 too low is explained by card 55
    valued 1 (one card) or by the multiples of 11 valued 2 (two cards).  Without positions the simplest
    (fewest cards) is named; with a peer shown the kit's discriminating positions (one card of a rival rule
    swapped for an unused one), the rule whose prediction the peer meets: here the multiples of 11."""
    g, kit = get_game("take6"), get_kit("take6")
    before = GAME.from_notation("standard 2 select 22.33.55.56.58/70/80/90 59.3/60.4 - - 0/0")
    mid = GAME.apply(before, Select(0, 59))
    step = (mid, Select(1, 60), GAME.apply(mid, Select(1, 60)))
    ours = list(step[2].penalties)
    claimed = [ours[0] - 6, ours[1]]

    def x11_peer(trial: Any) -> Any:  # the peer valuing the multiples of 11 (not 55) at 2 bullheads
        after = GAME.apply(trial.state, trial.action)
        scores = list(after.penalties)
        for root in GAME.derive(trial.state, trial.action):
            for pile in root.find(says="taken"):
                scores[pile.data["seat"]] -= 3 * sum(c % 11 == 0 and c != 55 for c in pile.data["cards"])
        return scores

    trials = kit.trials(g, step[0], step[1], fact="scores", ours=kit.facts(step[2]),
                        theirs={"scores": claimed})
    assert sorted(t.steps[0].clause for t in trials) == ["T6-BULL-1", "T6-BULL-2"]
    simplest = attribute(g, kit, "scores", step, "standard", claimed=claimed)
    assert (simplest.clauses[0], simplest.subject) == ("T6-BULL-1", "55")
    told = attribute(g, kit, "scores", step, "standard", claimed=claimed, trial=x11_peer)
    assert (told.clauses[0], told.subject) == ("T6-BULL-2", "x11")


def test_check_names_a_positions_campaign_class_as_the_campaign_does() -> None:
    """``arbiter check`` on the records a positions campaign writes (each class's first occurrence, the game
    from its start with the peer's claims, scores counted from the last resync; and its counterexample, one
    position and one action) names the class's own clause first, for every 6 nimmt! defect."""
    report = run_campaign(in_process(lambda: MultiDefectPeer(set(TAKE6))), games=48, jobs=1, seed=5,
                          shrink_seconds=2.0, game_names=["take6"], diagnose=False)
    own = {unexplained_class(sig) for _v, sig in TAKE6.values()}
    assert report.positions and own <= {c.signature for c in report.classes}
    for c in report.classes:
        for div in (c.first, c.shrunk):
            assert div is not None, c.signature
            checked = replay(div)
            assert checked.divergence is not None, c.signature
            assert checked.divergence.clauses[0] == c.clause, (c.signature, checked.divergence.clauses)


PETERSBURG = {
    # defect: the class signature it must give (the step of the reference derivation it contradicts)
    "smelter": "petersburg:claim:SP-COST-4:money:Gold Smelter",
    "patriarch": "petersburg:legal-extra:SP-COST-1:buy:Patriarch",
    "czar": "petersburg:legal-missing:SP-TRADE-4:buy",
    "potjomkin": "petersburg:legal-missing:SP-POTJ-1:buy",
    "tied-discount": "petersburg:claim:SP-COST-3|SP-COST-4:money:Carpenter Workshop|lower row",
    "min-cost": "petersburg:claim:SP-COST-6:money",
}


def sp_campaign(defects: Any, *, positions: bool = True, games: int = 32) -> CampaignReport:
    return run_campaign(in_process(lambda: MultiDefectPeer(defects)), games=games, jobs=1, seed=5,
                        shrink=False, game_names=["petersburg"], positions=positions, diagnose=False)


@pytest.mark.parametrize("defect", sorted(PETERSBURG))
def test_each_petersburg_defect_alone_is_one_class_with_its_own_clause(defect: str) -> None:
    """A peer with one Saint Petersburg defect gives exactly one class, named by the step of the reference
    derivation it contradicts: the Gold Smelter's reduction (SP-COST-4), the Patriarch's price
    (SP-COST-1), the wildcard (SP-TRADE-4) and Potjomkin's credit (SP-POTJ-1) that grant the missing buys,
    the tie of two 1-rouble reductions as a candidate set, the minimum (SP-COST-6)."""
    report = sp_campaign({defect})
    assert [c.signature for c in report.classes] == [unexplained_class(PETERSBURG[defect])]
    assert report.classes[0].first.signature == PETERSBURG[defect]


def test_all_petersburg_defects_in_one_run_give_one_class_each() -> None:
    """With the position capability (the default) every defect is seen: one class per defect, the
    second-edition hand-limit defect's SP-HAND-2 included."""
    report = sp_campaign(set(PETERSBURG) | {"hand-limit"}, games=48)
    assert sorted(c.signature for c in report.classes) == sorted(
        unexplained_class(s) for s in [*PETERSBURG.values(), "petersburg:legal-extra:SP-HAND-2:take"]
    )


def test_petersburg_defects_without_positions_name_only_their_own_classes() -> None:
    """Without positions a game stops at its first divergence, so defects may hide each other; every
    class found is still one of the planted defects' own (a tie left undiscriminated stays a candidate
    set of the same reductions)."""
    report = sp_campaign(set(PETERSBURG) | {"hand-limit"}, positions=False, games=48)
    known = {unexplained_class(s) for s in [*PETERSBURG.values(), "petersburg:legal-extra:SP-HAND-2:take"]}
    found = {c.signature for c in report.classes}
    assert found and found <= known


def test_petersburg_check_names_the_same_first_clause_as_fuzz() -> None:
    """``arbiter check`` replaying the Gold Smelter class's record names SP-COST-4 first, as fuzz did."""
    report = sp_campaign({"smelter"})
    checked = replay(report.classes[0].first)
    assert checked.divergence is not None and checked.divergence.clauses[0] == "SP-COST-4"


def test_a_score_difference_at_the_games_end_is_decided_by_final_scoring() -> None:
    """SP-END-4..7 score the end; the last trading phase's "no scoring" step (SP-SCORE-5) concludes that
    nothing is scored, so it never decides a difference in VP (a code mutant of the final scoring was
    named after it)."""
    import random

    pgame = get_game("petersburg")
    kit = get_kit("petersburg")
    rng = random.Random(3)
    state = pgame.new_game(2, seed=3)
    while True:
        action = rng.choice(list(pgame.legal_actions(state)))
        after = pgame.apply(state, action)
        if pgame.is_terminal(after):
            break
        state = after
    clauses = kit.deciding(pgame, "scores", (state, action, after), "first")
    assert clauses and clauses[0].startswith("SP-END-"), clauses
    assert "SP-SCORE-5" not in clauses


def test_a_divergence_is_named_after_the_first_cause_in_the_derivation() -> None:
    """Of the facts that differ after one step, the divergence is named after the one whose contradicted
    step comes first in the reference derivation: a card placed in another row (T6-PLACE-1) comes before
    the 6th card that row then takes (T6-PLACE-2), so the scores that follow are named by the placement;
    without the derivation's order, the first difference found (the scores) leads."""
    from engine.conformance.campaign.differences import Pending, leading
    from engine.derivation import Step

    row = Step("T6-PLACE-1", "row", {"card": 45, "row": 1})
    take = Step("T6-PLACE-2", "take", {"seat": 0, "cards": [10, 22]})
    scores = Pending("scores", "scores", "scores differ", Attribution(("T6-PLACE-2",), "", (take,)))
    rows = Pending("claim", "rows", "rows differ", Attribution(("T6-PLACE-1",), "", (row,)))
    assert leading([scores, rows], (row, take)) is rows
    assert leading([scores, rows]) is scores


def test_a_difference_traced_to_a_step_leads_one_named_by_its_topic() -> None:
    """A difference the kit traces to the step it contradicts (the phase a pass ended, SP-PHASE-3) names
    the divergence before one named only by its fact's topic (scores the reference did not change, with no
    scoring step to trace: named by the action, SP-TURN-3), whatever the order they were found in."""
    from engine.conformance.campaign.differences import Pending, leading
    from engine.derivation import Step

    passed = Step("SP-TURN-3", "passed", {"seat": 0, "passes": 1})
    open_ = Step("SP-PHASE-4", "still-open", {"phase": "worker"})
    scores = Pending("scores", "scores", "scores differ", Attribution(("SP-TURN-3",), "", ()))
    phase = Pending("claim", "phase", "phase differs", Attribution(("SP-PHASE-4",), "", (open_,)))
    assert leading([scores, phase], (passed, open_)) is phase
    assert leading([scores, phase]) is phase
    untraced = Pending("claim", "money", "money differs", Attribution(("SP-TURN-3",), "", ()))
    assert leading([scores, untraced], (passed, open_)) is scores  # none traced: the first found


@pytest.mark.parametrize("name", ["petersburg", "take6"])
def test_a_kits_forms_clause_is_the_engines_refusal_of_a_non_action(name: str) -> None:
    """SP-TURN-1 / T6-ACT-1: the clause a kit names an offered value that is no action of its game by is
    the one the engine's own check refuses a non-action under, on positions of real games."""
    import random

    from engine.errors import RuleViolation
    from engine.petersburg.checks import check as petersburg_check
    from engine.take6.transitions import check as take6_check

    checks: dict[str, Callable[[Any, Any], Any]] = {"petersburg": petersburg_check, "take6": take6_check}
    check = checks[name]
    game, kit = get_game(name), get_kit(name)
    rng = random.Random(7)
    state, tried = game.new_game(3, seed=7), 0
    while game.to_act(state) and tried < 40:  # a seeded game: chance steps are taken by the engine
        with pytest.raises(RuleViolation) as refused:
            check(state, object())
        assert refused.value.clause == kit.forms_clause
        tried += 1
        seat = game.to_act(state)[0]
        state = game.apply(state, rng.choice(game.legal_actions(state, seat)))
    assert tried == 40


class _OffersATakeFromHand(ReferencePeer):
    """Defect: seat 0 is also offered a take of a card from its own hand, which is no action of the game."""

    name = "petersburg: a take from hand offered"

    def legal(self, player: int) -> list[Any]:
        out = super().legal(player)
        if player == 0 and out:
            out.append({"type": "take", "player": 0, "card": "Lumberjack", "source": "hand"})
        return out


def test_an_offered_value_that_is_no_action_is_named_by_the_rule_of_the_games_actions() -> None:
    """SP-TURN-1 (attribution, issue 25): an action the peer offers that does not parse as one of the
    game's (a take from the hand) is named by the clause the engine refuses a non-action under, not
    classed without a clause (``petersburg:unexplained:-``)."""
    report = run_campaign(in_process(_OffersATakeFromHand), games=2, jobs=1, seed=1, shrink=False,
                          game_names=["petersburg"], players=[2], max_steps=60, positions=True)
    assert [c.signature for c in report.classes] == ["petersburg:unexplained:SP-TURN-1"], report.classes
    assert "not an action of this game" in report.classes[0].first.message


def test_a_card_placed_in_another_row_is_named_by_its_placement_even_if_its_row_was_then_taken() -> None:
    """T6-PLACE-1 (attribution, issue 25): the placement the peer contradicts is found by the row the
    reference placed the card in (the step's own ``row``) when a later card of the same turn took that row:
    the card is then in no row of the reference's, but the peer's has it in another row."""
    placed = Step("T6-PLACE-1", "row", {"card": 57, "row": 1})
    ours = {"rows": [[5, 25], [58], [22], [95]]}  # row 1 was taken by 58, the 6th card
    theirs = {"rows": [[5, 25, 57], [13, 43, 48, 49, 58], [22], [95]]}
    assert contradicted_steps((placed,), "rows", ours, theirs) == (placed,)
    same = {"rows": [[5, 25], [13, 43, 48, 49, 57, 58], [22], [95]]}
    assert contradicted_steps((placed,), "rows", ours, same) == ()


def test_a_card_in_no_row_beside_a_card_still_in_its_row_is_named_by_its_placement() -> None:
    """T6-PLACE-1 (attribution, issue 25): a card the peer holds in no row while the card the rules put it
    beside still lies in a row was never placed there (no row was taken from under it): its placement is
    contradicted, not the 6th card of the row the peer took instead (T6-PLACE-2).  Where the card beside it
    is gone too, the row may have been taken later: the placement is not named."""
    placed = Step("T6-PLACE-1", "row", {"card": 8, "row": 2, "side": "end",
                                         "candidates": [[0, "end", 5, 3], [2, "end", 2, 6]]})
    ours = {"rows": [[1, 5], [9], [2, 8], [30]]}
    theirs = {"rows": [[1, 5], [9], [2], [30]], "taken": [[8, 11, 21]]}
    assert contradicted_steps((placed,), "rows", ours, theirs) == (placed,)
    taken = {"rows": [[1, 5], [9], [40], [30]], "taken": [[2, 8, 40]]}
    assert contradicted_steps((placed,), "rows", ours, taken) == ()


def test_piles_other_than_a_flip_leaves_them_are_named_by_the_flip() -> None:
    """T6-KIDS-2 (attribution, issue 25): a flip changes no pile but the flipping seat's, by its top card; a
    peer whose piles (or hands) then differ contradicts the flip, which leads the game's end or turn that
    follow from it, not the rule of the action's kind; piles alike name nothing of the flip."""
    s = GAME.new_game(3, seed=2, variant="kids")
    action = GAME.legal_actions(s)[0]
    steps = GAME.derive(s, action)
    (flipped,) = [x for d in steps for x in d.walk() if x.says == "flipped"]
    ours = get_kit("take6").facts(GAME.apply(s, action))
    piles = [list(p) for p in ours["piles"]]
    piles[2] = piles[2][1:]  # another seat's top card gone too
    theirs = {**ours, "piles": piles, "hands": [sorted(p) for p in piles]}
    assert contradicted_steps(steps, "piles", ours, theirs) == (flipped,)
    assert flipped not in contradicted_steps(steps, "rows", ours, {**ours, "rows": [[1], [2], [3], [4], [5]]})


def _last_turn() -> tuple[Any, Any]:
    """A 3-seat game on the last turn of its first round, and the action that ends the round."""
    s = GAME.new_game(3, seed=4)
    while True:
        action = GAME.legal_actions(s)[0]
        if GAME.apply(s, action).round != s.round:
            return s, action
        s = GAME.apply(s, action)


def test_a_score_difference_after_a_rounds_last_turn_is_named_from_a_probe_that_shows_the_rows() -> None:
    """T6-PLACE-1 (attribution, issue 25): after a round's last turn the rows are dealt again, so a peer's
    misplaced card shows only in its scores.  The kit's probe is the same position with one more card in
    every hand: its turn places the same cards the same way and the round goes on, so the peer's rows
    there show the card; a card in another row names its placement.  A step that ends no round, or a
    difference that is not a score, gets no probe."""
    kit = get_kit("take6")
    s, action = _last_turn()
    after = GAME.apply(s, action)
    probe = kit.revealing(GAME, s, action, fact="scores", ours=kit.facts(after), theirs={})
    assert probe is not None and probe.action == action
    assert [len(h) for h in probe.state.hands] == [len(h) + 1 for h in s.hands]
    shown = kit.facts(GAME.apply(probe.state, action))
    assert shown["round"] == s.round and shown["rows"] != kit.facts(after)["rows"]
    assert kit.revealed(GAME, probe, shown) == ()  # the peer agrees there: nothing named
    (row,) = [x for d in probe.steps for x in d.walk() if x.says == "row" and x.data["card"] == action.card]
    r = row.data["row"]
    moved = [[c for c in cards if c != action.card] for cards in shown["rows"]]
    other = next(i for i in range(len(moved)) if i != r and moved[i])
    moved[other] = [*moved[other], action.card]
    assert kit.revealed(GAME, probe, {**shown, "rows": moved}) == (row,)
    assert kit.revealing(GAME, s, action, fact="rows", ours=kit.facts(after), theirs={}) is None
    earlier = GAME.new_game(3, seed=4)
    first = GAME.legal_actions(earlier)[0]
    assert kit.revealing(GAME, earlier, first, fact="scores", ours=kit.facts(GAME.apply(earlier, first)),
                         theirs={}) is None


def test_a_card_fitting_no_row_that_the_peer_placed_is_named_by_where_its_rows_show_it() -> None:
    """T6-PLACE-1 / T6-PLACE-3 (attribution, issue 25): a card lower than every row's end fits no row; the
    derivation says so from the search that found none (``no-row``, T6-PLACE-1) and then awaits its
    player's row choice (``fits-nowhere``, T6-PLACE-3).  A peer whose rows show the card after another
    card placed it by the placement rule: the search is contradicted; one whose rows show it starting a
    row that was not full chose that row for it: the wait is; one whose rows no longer show it cannot tell
    them apart: both, a candidate set."""
    from engine.take6 import Deal

    s = GAME.new_game(2, setup=Deal(hands=((1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
                                           (11, 12, 13, 14, 15, 16, 17, 18, 19, 20)), rows=(30, 40, 50, 60)))
    s = GAME.apply(s, Select(0, 1))
    steps = GAME.derive(s, Select(1, 11))
    (nowhere,) = [x for d in steps for x in d.walk() if x.says == "fits-nowhere"]
    (searched,) = nowhere.steps
    assert (searched.clause, searched.says) == ("T6-PLACE-1", "no-row")
    assert searched.data["ends"] == [30, 40, 50, 60]
    ours = get_kit("take6").facts(GAME.apply(s, Select(1, 11)))
    moved = {**ours, "to_act": [0, 1], "phase": "select"}
    beside = {**moved, "rows": [[30], [40], [50], [60, 1, 11]]}
    assert contradicted_steps(steps, "to_act", ours, beside) == (searched,)
    started = {**moved, "rows": [[1, 11], [40], [50], [60]]}
    assert contradicted_steps(steps, "to_act", ours, started) == (nowhere,)
    gone = {**moved, "rows": [[11], [40], [50], [60]]}
    assert contradicted_steps(steps, "to_act", ours, gone) == (nowhere, searched)


def test_a_card_the_peer_never_placed_after_a_row_choice_is_named_by_the_turn_going_on() -> None:
    """T6-TURN-2 (attribution, issue 25): after a row choice the turn's other revealed cards are placed, a
    step of the choice's derivation (``rest``); a peer whose rows, piles and waiting cards hold one of them
    nowhere never placed it: that step is contradicted, not the row choice (T6-PLACE-3) nor the card's own
    placement, which its rows cannot show."""
    from engine.take6 import Deal

    s = GAME.new_game(2, setup=Deal(hands=((1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
                                           (11, 12, 13, 14, 15, 16, 17, 18, 19, 20)), rows=(30, 40, 50, 60)))
    s = GAME.apply(GAME.apply(s, Select(0, 1)), Select(1, 11))
    steps = GAME.derive(s, TakeRow(0, 0))
    (rest,) = [x for d in steps for x in d.walk() if x.says == "rest"]
    assert (rest.clause, rest.data["cards"]) == ("T6-TURN-2", [11])
    ours = get_kit("take6").facts(GAME.apply(s, TakeRow(0, 0)))
    dropped = {**ours, "rows": [[1], [40], [50], [60]]}
    assert contradicted_steps(steps, "rows", ours, dropped) == (rest,)
    waiting = {**dropped, "pending": [[11, 1]]}
    assert contradicted_steps(steps, "rows", ours, waiting) != (rest,)


def test_another_number_of_rows_after_a_row_choice_is_named_by_the_choice() -> None:
    """T6-PLACE-3 (attribution, issue 25): rows are only ever laid anew where a row is taken (a row choice,
    a 6th card); a peer with another number of rows after a row choice lost or added one there: the
    choice's take is contradicted, not the later cards' placements the shifted rows then disagree with."""
    from engine.take6 import Deal

    s = GAME.new_game(2, setup=Deal(hands=((1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
                                           (11, 12, 13, 14, 15, 16, 17, 18, 19, 20)), rows=(30, 40, 50, 60)))
    s = GAME.apply(GAME.apply(s, Select(0, 1)), Select(1, 11))
    steps = GAME.derive(s, TakeRow(0, 1))
    (takes,) = [x for d in steps for x in d.walk() if x.says == "takes"]
    ours = get_kit("take6").facts(GAME.apply(s, TakeRow(0, 1)))
    assert ours["rows"] == [[30], [1, 11], [50], [60]]
    for rows in ([[30], [1, 11], [60]], [[30], [1, 11], [50], [50], [60]]):
        assert contradicted_steps(steps, "rows", ours, {**ours, "rows": rows}) == (takes,)
    assert takes not in contradicted_steps(steps, "rows", ours, {**ours, "rows": [[30, 11], [1], [50], [60]]})


def test_rows_and_hands_of_a_round_dealt_within_a_step_are_named_by_that_deal() -> None:
    """T6-SETUP-4 / T6-SETUP-5 (attribution, issue 25): a step that ends a round deals the next one; a peer
    whose rows, hands or pool then differ from that deal contradicts the deal's step (seeded: T6-SETUP-4),
    not the placements of the step nor the action's own rule."""
    import random

    rng, s = random.Random(2), GAME.new_game(2, seed=3)
    while True:
        action = rng.choice(GAME.legal_actions(s))
        steps = GAME.derive(s, action)
        dealt = [x for d in steps for x in d.walk() if x.says == "dealt"]
        if dealt:
            break
        s = GAME.apply(s, action)
    assert dealt[0].clause == "T6-SETUP-4"
    ours = get_kit("take6").facts(GAME.apply(s, action))
    other = {**ours, "rows": [[r[0] + 1] for r in ours["rows"]]}
    assert contradicted_steps(steps, "rows", ours, other) == (dealt[0],)
    hands = {**ours, "hands": ours["hands"][::-1]}  # each seat dealt the other's hand
    assert contradicted_steps(steps, "hands", ours, hands) == (dealt[0],)
