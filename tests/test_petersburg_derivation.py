"""Saint Petersburg derivations (GAME.why, GAME.derive, GAME.explain_result): every decision as steps from
the code that decides, each under its real clause id."""

from __future__ import annotations

from engine.petersburg import GAME, Buy, Discard, Pass, Play, Take, position
from engine.petersburg.model import State

POTJ = "Potjomkin's Village"


def _table() -> State:
    return position(
        players=2,
        phase="aristocrat",
        turn=0,
        upper=["Lumberjack", "Wharf", "Author"],
        lower=["Bank"],
        areas=[["Gold Smelter", "Czar and Carpenter", POTJ], []],
        hands=[["Secretary"], []],
        money=[30, 25],
    )


def test_worker_bought_in_aristocrat_phase_cites_phase_turn_cost_and_scoring() -> None:
    """SP-PHASE-5: any card in any phase; the chain names the phase, the turn, the row, the cost with its
    minimum step (SP-COST-6) and when the card scores (SP-SCORE-1)."""
    why = GAME.why(_table(), Buy(0, "Lumberjack", "upper"))
    assert (why.clause, why.says) == ("SP-BUY-1", "legal")
    clauses = why.clauses()
    for c in ("SP-PHASE-1", "SP-PHASE-2", "SP-PHASE-5", "SP-BUY-3", "SP-COST-1", "SP-COST-6", "SP-BUY-2",
              "SP-SCORE-1"):
        assert c in clauses


def test_gold_smelter_reduction_is_a_step_naming_the_card() -> None:
    """SP-COST-4: the Gold Smelter's rouble off a red card is its own step whose subject is the reducer."""
    why = GAME.why(_table(), Buy(0, "Author", "upper"))
    (red,) = why.find(clause="SP-COST-4", says="reduction")
    assert red.data["subject"] == "Gold Smelter" and red.data["amount"] == 1


def test_wildcard_and_potjomkin_grant_their_actions() -> None:
    """SP-TRADE-4 grants a green trading card displacing Czar and Carpenter; SP-POTJ-1 grants the buy its
    displaced value of 6 makes affordable, and is the displaced-value step of the cost."""
    s = _table()
    assert GAME.why(s, Buy(0, "Wharf", "upper", "Czar and Carpenter")).clause == "SP-TRADE-4"
    bank = GAME.why(s, Buy(0, "Bank", "lower", POTJ))
    assert bank.clause == "SP-POTJ-1"
    (credit,) = bank.find(says="displaced-value")
    assert (credit.clause, credit.data["amount"]) == ("SP-POTJ-1", 6)


def test_refusals_name_the_refusing_clause() -> None:
    """A discard from hand is refused by SP-TURN-1 (what a turn may be), a play of a card not held by
    SP-HAND-4, a too-dear buy by SP-BUY-2."""
    s = _table()
    assert GAME.why(s, Discard(0, "Secretary")).clause == "SP-TURN-1"
    assert GAME.why(s, Play(0, "Author")).clause == "SP-HAND-4"
    poor = position(players=2, upper=["Shepherd"], money=[1, 25])
    refused = GAME.why(poor, Buy(0, "Shepherd", "upper"))
    assert (refused.clause, refused.says) == ("SP-BUY-2", "refused")


def test_play_from_hand_and_take_say_how_the_card_scores() -> None:
    """SP-HAND-4 grants a play (card in hand); SP-HAND-1 a take, which scores -5 VP if kept (SP-END-7)."""
    s = _table()
    play = GAME.why(s, Play(0, "Secretary"))
    assert play.clause == "SP-HAND-4" and play.find(clause="SP-HAND-4", says="in-hand")
    assert play.find(clause="SP-END-4", says="scores")
    take = GAME.why(s, Take(0, "Lumberjack", "upper"))
    assert take.clause == "SP-HAND-1" and take.find(clause="SP-END-7", says="scores")


def test_derive_a_buy_records_payment_with_its_cost() -> None:
    """A buy's derivation: the payment (SP-BUY-1) whose children are the cost steps, the displacement
    (SP-TRADE-1), then the next turn (SP-PHASE-2); the amounts are those the transition charged."""
    s = _table()
    a = Buy(0, "Bank", "lower", POTJ)
    steps = GAME.derive(s, a)
    assert [d.clause for d in steps] == ["SP-BUY-1", "SP-PHASE-2"]
    assert steps[0].data["paid"] == s.money[0] - GAME.apply(s, a).money[0]
    assert steps[0].find(clause="SP-TRADE-1", says="displaced")


def test_derive_phase_end_records_income_per_card() -> None:
    """The last pass ends the phase (SP-PHASE-3): the scoring (SP-SCORE-1) per seat and card, then the
    refill (SP-REFILL-1) and the next phase (SP-PHASE-2)."""
    s = position(players=2, phase="worker", turn=0, passes=1, areas=[["Lumberjack"], []],
                 stacks={"building": ["Market"] * 5 + ["Pub"] * 2})
    steps = GAME.derive(s, Pass(0))
    clauses = [c for d in steps for c in d.clauses()]
    assert "SP-PHASE-3" in clauses and "SP-SCORE-1" in clauses and "SP-REFILL-1" in clauses
    (card,) = [x for d in steps for x in d.find(says="card-income")]
    assert card.data == {"seat": 0, "card": "Lumberjack", "subject": "Lumberjack", "roubles": 3, "vp": 0}


def test_explain_result_tiebreak_follows_keep_roubles() -> None:
    """SP-END-8 with SP-END-6: VP 23/23 with 30/19 roubles; kept roubles give seat 0, keep_roubles=false
    (the money left after converting) gives seat 1."""
    for keep, winner in ((True, 0), (False, 1)):
        s = position(players=2, phase="over", last_round=True, vp=[23, 23], money=[30, 19],
                     options={"keep_roubles": keep})
        root = GAME.explain_result(s)
        assert root.clause == "SP-END-8" and root.data["winners"] == [winner]
        assert root.find(says="tiebreak") and root.find(clause="SP-END-6", says="tiebreak-money")
        assert GAME.result(s).winners == (winner,)


def test_the_last_rounds_end_is_a_step_of_its_own() -> None:
    """After the last round's last phase the game ends (SP-END-1) before the final scoring (SP-END-4..7):
    the derivation records that conclusion (``over``, nobody to act), so a peer that plays on is named by
    the end of the game, not by the pass that ended the phase."""
    s = position(players=2, phase="trading", turn=0, passes=1, last_round=True)
    steps = [x for d in GAME.derive(s, Pass(0)) for x in d.walk()]
    (end,) = [x for x in steps if x.says == "game-over"]
    assert end.clause == "SP-END-1" and end.data["over"] is True and end.data["to_act"] == []
    order = [x.clause for x in steps]
    assert order.index("SP-END-1") < order.index("SP-END-4")


def test_a_refill_of_a_full_board_is_a_step_drawing_nothing() -> None:
    """A phase's refill is a step (SP-REFILL-1) even when the board is full: it draws no card, and a peer
    that draws some contradicts that step (its stacks and upper row are traced to it)."""
    from engine.conformance.kits.petersburg import contradicted_steps

    s = position(players=2, phase="worker", turn=0, passes=1, upper=["Market"] * 4, lower=["Lumberjack"] * 4)
    steps = GAME.derive(s, Pass(0))
    (refill,) = [x for d in steps for x in d.find(says="refill")]
    assert refill.clause == "SP-REFILL-1" and refill.data["cards"] == []
    after = GAME.apply(s, Pass(0))
    ours = {"stacks": [len(k) for k in after.stacks]}
    theirs = {"stacks": [ours["stacks"][0], ours["stacks"][1] - 2, *ours["stacks"][2:]]}
    assert contradicted_steps(steps, "stacks", ours, theirs) == (refill,)


def test_the_ends_a_pass_decides_are_steps_and_a_peer_contradicting_one_is_traced_to_it() -> None:
    """SP-PHASE-3 / SP-END-1: a pass the phase goes on after says so (``goes-on``, with the consecutive
    passes), as a round's end says the game goes on; a peer whose phase, scores or money differ after
    such a pass ended the phase there (one differing only in who acts did, or slipped in the next turn),
    one whose phase is the one a pass ended went on with it, and one
    whose game is over at a round's end ended the game: every difference is traced to that step."""
    from engine.conformance.kits.petersburg import KIT, contradicted_steps

    s = position(players=2, phase="worker", turn=0, passes=0, upper=["Market"] * 4, lower=["Lumberjack"] * 4)
    steps = GAME.derive(s, Pass(0))
    (goes_on,) = [x for d in steps for x in d.walk() if x.says == "goes-on"]
    assert goes_on.clause == "SP-PHASE-3" and goes_on.data["passes"] == 1
    ours = KIT.facts(GAME.apply(s, Pass(0)))
    theirs = {**ours, "phase": "building", "to_act": [1]}
    assert contradicted_steps(steps, "to_act", ours, theirs) == (goes_on,)
    # who acts alone: the phase ended (a Pub's decisions keep its name) or the next turn slipped: both
    slipped = contradicted_steps(steps, "to_act", ours, {**ours, "to_act": [0]})
    assert [x.clause for x in slipped] == ["SP-PHASE-3", "SP-PHASE-2"]
    s = position(players=2, phase="worker", turn=0, passes=1, upper=["Market"] * 4, lower=["Lumberjack"] * 4)
    steps = GAME.derive(s, Pass(0))
    (over,) = [x for d in steps for x in d.walk() if x.says == "phase-over"]
    ours = KIT.facts(GAME.apply(s, Pass(0)))
    nothing = contradicted_steps(steps, "phase", ours, {**ours, "phase": "worker"})  # nothing earned
    assert nothing[0] == over and [x.says for x in nothing] == ["phase-over", "no-pub"]
    s = position(players=2, phase="trading", turn=0, passes=1, upper=["Market"] * 4, lower=["Lumberjack"] * 4)
    steps = GAME.derive(s, Pass(0))
    (round_end,) = [x for d in steps for x in d.walk() if x.says == "goes-on" and x.clause == "SP-END-1"]
    ours = KIT.facts(GAME.apply(s, Pass(0)))
    assert ours["over"] is False
    theirs = {**ours, "over": True, "to_act": [], "scores": [3, 0], "stacks": [0, 0, 0, 0]}
    assert contradicted_steps(steps, "scores", ours, theirs) == (round_end,)
    # a peer that scored a phase whose scoring earned something and stayed in it holds Pub decisions: the
    # step saying there are none (SP-PUB-2); with nothing earned, it may not have ended the phase at all
    s = position(players=2, phase="worker", turn=0, passes=1, upper=["Market"] * 4, lower=["Lumberjack"] * 4,
                 areas=[["Lumberjack"], []])
    steps = GAME.derive(s, Pass(0))
    (none,) = [x for d in steps for x in d.walk() if x.says == "no-pub"]
    (over,) = [x for d in steps for x in d.walk() if x.says == "phase-over"]
    ours = KIT.facts(GAME.apply(s, Pass(0)))
    assert contradicted_steps(steps, "phase", ours, {**ours, "phase": "worker", "to_act": [1]}) == (none,)
    stayed = {**ours, "phase": "worker", "money": [ours["money"][0] - 3, ours["money"][1]]}
    assert contradicted_steps(steps, "phase", ours, stayed) == (over,)  # the rules' money less the income
    otherwise = {**ours, "phase": "worker", "money": [ours["money"][0] - 1, ours["money"][1]]}
    assert over not in contradicted_steps(steps, "phase", ours, otherwise)  # it scored, otherwise
    # the last round's trading phase ended by a pass ends the game, its phase staying: a peer whose final
    # scores differ scored it otherwise (not the phase's end); one whose game goes on in the trading phase
    # did not end the phase
    s = position(players=2, phase="trading", turn=0, passes=1, upper=["Market"] * 4, lower=["Lumberjack"] * 4,
                 last_round=True, money=[7, 0])
    steps = GAME.derive(s, Pass(0))
    (over,) = [x for d in steps for x in d.walk() if x.says == "phase-over"]
    ours = KIT.facts(GAME.apply(s, Pass(0)))
    assert ours["over"] is True and ours["phase"] == "trading"
    assert over not in contradicted_steps(steps, "scores", ours, {**ours, "scores": [9, 0]})
    played_on = {**ours, "over": False, "to_act": [1]}
    assert contradicted_steps(steps, "to_act", ours, played_on) == (over,)


def test_the_pubs_last_decision_is_a_step_and_a_peer_deciding_on_contradicts_it() -> None:
    """SP-PUB-2: the Pub's last decision taken, the derivation says the Pub is over (``pub-over``, naming
    the phase its scoring opened it after) before the next phase and its refill; a peer still in that
    phase with money and scores alike holds decisions the rules do not, and is traced to that step, not
    to the refill it did not make (SP-REFILL-1)."""
    from engine.conformance.kits.petersburg import KIT, contradicted_steps
    from engine.petersburg import PubBuy

    s = position(players=2, phase="pub", pub_queue=[1], areas=[[], ["Pub"]], money=[5, 5],
                 upper=["Market"] * 2, lower=["Lumberjack"] * 2)
    steps = GAME.derive(s, PubBuy(1, 0))
    walked = [x for d in steps for x in d.walk()]
    (over,) = [x for x in walked if x.says == "pub-over"]
    assert over.clause == "SP-PUB-2" and over.data["phase"] == "building"
    assert walked.index(over) < min(i for i, x in enumerate(walked) if x.says == "refill")
    ours = KIT.facts(GAME.apply(s, PubBuy(1, 0)))
    assert ours["phase"] != "building"
    theirs = {**ours, "phase": "building", "to_act": [0], "upper": ["Market"] * 2, "stacks": [9, 9, 9, 9]}
    assert contradicted_steps(steps, "upper", ours, theirs) == (over,)
    scored = {**theirs, "money": [ours["money"][0] + 1, ours["money"][1]]}
    assert over not in contradicted_steps(steps, "upper", ours, scored)  # money differs: not that alone


def test_a_pub_owner_left_out_is_a_step_of_what_it_can_afford() -> None:
    """SP-PUB-1, SP-PUB-2: after the building scoring, the step saying there are no Pub decisions
    (``no-pub``) holds each Pub owner it leaves out as one who can afford no VP (SP-PUB-1 ``affords``: only
    owners who can afford 1 VP are asked); a peer asking that owner contradicts both, and after another
    phase's scoring no owner is named (no Pub decisions follow it at all)."""
    from engine.conformance.kits.petersburg import KIT, contradicted_steps

    upper, lower = ["Market"] * 4, ["Lumberjack"] * 4
    s = position(players=2, phase="building", turn=0, passes=1, areas=[["Pub"], []], money=[0, 5],
                 upper=upper, lower=lower)
    steps = GAME.derive(s, Pass(0))
    (none,) = [x for d in steps for x in d.walk() if x.says == "no-pub"]
    assert [(c.clause, c.says, c.data["seat"]) for c in none.steps] == [("SP-PUB-1", "affords", 0)]
    ours = KIT.facts(GAME.apply(s, Pass(0)))
    found = contradicted_steps(steps, "phase", ours, {**ours, "phase": "building", "to_act": [0]})
    assert none in found and none.steps[0] in found
    s = position(players=2, phase="worker", turn=0, passes=1, areas=[["Pub"], []], money=[0, 5], upper=upper,
                 lower=lower)
    (none,) = [x for d in GAME.derive(s, Pass(0)) for x in d.walk() if x.says == "no-pub"]
    assert none.steps == ()
