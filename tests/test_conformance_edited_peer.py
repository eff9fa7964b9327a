"""The edited peer (engine/conformance/peers/edited.py, issue 25 item 5): the reference under one or more
fault models, an implementation nobody hand-wrote.  It plays every game of an edited game by the rules
under its edits (new games and given positions alike), every other game as the reference, refuses bad
edits with one line naming the edit, and a campaign against it finds divergences.
"""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.conformance.campaign.fuzz import in_process
from engine.conformance.campaign.runner import run_campaign
from engine.conformance.diagnosis.faults import World
from engine.conformance.diagnosis.space import fault_space
from engine.conformance.kits.base import get_kit
from engine.conformance.peers.base import ReferencePeer
from engine.conformance.peers.edited import EditedPeer, edited_peer, main
from engine.conformance.peers.launch import subprocess_peer
from engine.conformance.peers.protocol import (
    apply_request,
    canonical,
    legal_request,
    new_request,
    position_request,
    state_request,
)
from engine.errors import ArbiterError, IllegalAction, InputError, NotYourTurn
from engine.game import get_game
from engine.petersburg import STACKS, Buy, Pass, Play, Reveal, Take, cost_breakdown, position
from engine.petersburg.catalog import PHASES

ROOT = Path(__file__).resolve().parent.parent
DISCOUNT = "petersburg:edit:phases/param/lower_row_discount/value=2"


def ask(peer: ReferencePeer, request: dict[str, Any]) -> Any:
    reply = json.loads(peer.handle_line(json.dumps(request)) or "")
    assert reply["ok"], reply
    return reply


def lockstep(peer: ReferencePeer, world: World | None, name: str, seed: int, steps: int = 60) -> int:
    """Play one seeded random game on ``peer`` (by the protocol) and on ``world`` (the reference when
    ``None``) from one explicit set-up; assert every legal set and every fact agree; the steps played."""
    ref = get_game(name)
    kit = get_kit(name)
    rng = random.Random(seed)
    players = rng.choice([2, 3, 4])
    variant = ref.variants[0]
    start = world.new_game if world is not None else ref.new_game
    game = world.game if world is not None else ref
    # the deal the rules under the edit make (an edited hand size deals hands of that size)
    setup = kit.setup_to_json(kit.explicit_setup([start(players, variant=variant, options={}, seed=seed)]))
    state = start(players, variant=variant, options={}, setup=kit.setup_from_json(setup))
    ask(peer, new_request(name, variant, players, setup))
    played = 0
    for played in range(steps):
        claims = ask(peer, state_request())["claims"]
        assert claims == json.loads(json.dumps(kit.facts(state))), (name, played)
        seats = game.to_act(state)
        if game.is_terminal(state) or not seats:
            break
        seat = rng.choice(seats)
        legal = game.legal_actions(state, seat)
        offered = {canonical(a) for a in ask(peer, legal_request(seat))["actions"]}
        assert offered == {canonical(game.action_to_json(a)) for a in legal}, (name, played)
        action = rng.choice(legal)
        ask(peer, apply_request(seat, game.action_to_json(action)))
        state = game.apply(state, action)
    return played


def test_a_lower_row_buy_costs_one_rouble_less_with_discount_2() -> None:
    """SP-COST-3 edited to a discount of 2: on positions of random games, buying from the lower row costs
    the peer one rouble less than the reference whenever the reference's price is above the 1-rouble
    minimum (SP-COST-6), the same otherwise; an upper-row buy costs what the reference charges."""
    game = get_game("petersburg")
    rng = random.Random(3)
    lower = upper = 0
    for n in range(40):
        state = game.new_game(rng.choice([2, 3, 4]), seed=n)
        for _ in range(rng.randrange(5, 80)):
            if game.is_terminal(state) or not game.to_act(state):
                break
            state = game.apply(state, rng.choice(game.legal_actions(state, rng.choice(game.to_act(state)))))
        if game.is_terminal(state) or not game.to_act(state):
            continue
        buys = [a for s in game.to_act(state) for a in game.legal_actions(state, s) if isinstance(a, Buy)]
        for buy in buys:
            peer = EditedPeer([DISCOUNT])
            ask(peer, position_request("petersburg", game.to_notation(state), game.state_to_json(state)))
            ask(peer, apply_request(buy.player, game.action_to_json(buy)))
            money = ask(peer, state_request())["claims"]["money"][buy.player]
            ours = get_kit("petersburg").facts(game.apply(state, buy))["money"][buy.player]
            price = cost_breakdown(state, buy.player, buy.card, source=buy.source, displace=buy.displace).cost
            if buy.source == "lower":
                lower += 1
                assert money - ours == (1 if price > 1 else 0), (game.to_notation(state), buy)
            else:
                upper += 1
                assert money == ours, (game.to_notation(state), buy)
    assert lower >= 10 and upper >= 10


def test_the_peer_plays_by_its_world_and_the_other_game_by_the_reference() -> None:
    """Random draws from the fault space of both games: the peer's legal sets and facts are those of the
    rules under the edit at every step of a seeded random game (through ``new``), and those of the
    reference in a game of the other game."""
    rng = random.Random(25)
    played = 0
    for name, other in (("take6", "petersburg"), ("petersburg", "take6")):
        space = fault_space(name)
        for fault in rng.sample(space, 6):
            try:
                world = World(name, [fault])
            except InputError:
                continue  # an edit whose tables do not load: the peer refuses it too
            peer = EditedPeer([fault.signature])
            seed = rng.randrange(10**6)
            try:
                world.new_game(2, seed=seed)
            except (ArbiterError, IndexError, KeyError, ValueError, TypeError):
                continue  # the edit leaves the game unplayable: nothing to compare
            played += lockstep(peer, world, name, seed)
            played += lockstep(peer, None, other, seed, steps=20)
    assert played > 200


def test_a_given_position_is_put_under_the_edit() -> None:
    """``position`` then ``legal``: with row capacity 4 (T6-PLACE-2 edited) a card going to a row of four
    takes it; the reference adds it as the fifth."""
    game = get_game("take6")
    line = "standard 2 select 3.10.11.12/22/40/90 13.8/95.9 - - 0/0"
    state = game.from_notation(line)
    for peer, taken in ((EditedPeer(["take6:edit:setup/standard/row_capacity=4"]), [[3, 10, 11, 12]]),
                        (ReferencePeer(), [])):
        ask(peer, position_request("take6", line, game.state_to_json(state)))
        ask(peer, apply_request(0, {"type": "select", "player": 0, "card": 13}))
        ask(peer, apply_request(1, {"type": "select", "player": 1, "card": 95}))
        claims = ask(peer, state_request())["claims"]
        assert [t for t in claims["taken"] if t] == taken, claims


@pytest.mark.parametrize(
    ("edit", "named"),
    [
        ("petersburg:edit:cards/Nobody/cost=3", "no row 'Nobody'"),
        ("petersburg:edit:cards/Tax Man/vp=x", "field 'vp' must be int"),
        ("take6:kind:x", "unknown kind"),
        ("chess:edit:x=1", "unknown game"),
        ("petersburg:skip:SP-NONE", "unknown clause"),
        ("take6:edit:setup/standard/row_capacity", "needs TARGET=VALUE"),
    ],
)
def test_a_bad_edit_is_refused_naming_it(edit: str, named: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A bad ``--edit``: InputError naming the edit; on the command line one line on stderr, exit code 2."""
    with pytest.raises(InputError, match=named) as caught:
        EditedPeer([edit])
    assert edit in str(caught.value)
    assert main(["--edit", edit]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and edit in err and named in err


def test_no_edit_or_two_edits_of_one_value_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """At least one edit is needed; two edits of one value cannot stand together."""
    assert main([]) == 2
    assert "--edit" in capsys.readouterr().err
    with pytest.raises(InputError, match="two faults change"):
        EditedPeer(["petersburg:edit:cards/Tax Man/vp=3", "petersburg:edit:cards/Tax Man/vp=4"])


def test_a_campaign_against_the_edited_peer_finds_divergences() -> None:
    """A short campaign in this process (the factory pickles, for worker processes) finds the edit in its
    game, and none in the game no edit names."""
    factory = edited_peer([DISCOUNT, "take6:edit:setup/standard/row_capacity=4"])
    pickle.loads(pickle.dumps(factory))().close()
    found = run_campaign(factory, games=4, jobs=1, seed=2, shrink=False, game_names=["petersburg"])
    assert found.classes and sum(c.count for c in found.classes) >= 4
    take6 = run_campaign(factory, games=4, jobs=1, seed=2, shrink=False, game_names=["take6"],
                         variants=["standard"])
    assert take6.classes
    untouched = run_campaign(edited_peer([DISCOUNT]), games=3, jobs=1, seed=2, shrink=False,
                             game_names=["take6"])
    assert not untouched.classes and untouched.games == 3


def test_the_peer_runs_as_a_process() -> None:
    """``python -m engine.conformance.peers.edited --edit EDIT`` speaks the protocol on stdin/stdout, and a
    campaign against it finds the edit."""
    edit = "take6:edit:setup/standard/row_capacity=4"
    command = [sys.executable, "-m", "engine.conformance.peers.edited", "--edit", edit]
    hello = subprocess.run(command, input='{"cmd": "hello", "protocol": 1}\n', capture_output=True, text=True,
                           cwd=ROOT, timeout=120, check=True)
    assert "row_capacity=4" in json.loads(hello.stdout)["name"]
    report = run_campaign(subprocess_peer(command, timeout=30.0, cwd=str(ROOT)), games=2, jobs=1, seed=1,
                          shrink=False, game_names=["take6"], variants=["standard"])
    assert report.classes


def test_a_campaigns_diagnoses_do_not_depend_on_the_number_of_jobs() -> None:
    """Determinism (issue 25): each worker process diagnoses with a diagnoser of its own, yet a campaign
    against a generated defective peer (two faults of one game drawn from its fault space, seeded, the
    first pair whose tables load and whose campaign finds a divergence) gives the same classes, counts and
    diagnoses with one job and with two."""
    rng = random.Random("jobs")
    compared = []
    for name in ("take6", "petersburg"):
        space = fault_space(name)
        for _ in range(30):
            edits = sorted({rng.choice(space).signature for _ in range(2)})
            try:
                factory = edited_peer(edits)
            except ArbiterError:  # tables that do not load: another draw
                continue
            runs = [run_campaign(factory, games=8, jobs=jobs, seed=3, shrink=False, game_names=[name],
                                 max_steps=200)
                    for jobs in (1, 2)]
            one, two = ([(c.signature, c.count, c.faults) for c in r.classes] for r in runs)
            if one:
                assert one == two, (edits, one, two)
                compared.append((edits, one))
                break
    assert len(compared) == 2, compared


class _DeniesSeatOne(ReferencePeer):
    """Defect: seat 1 may never act in its normal turns (a turn test that denies one seat); its legal set is
    still the reference's."""

    name = "petersburg: seat 1 denied its turns"

    def do_apply(self, player: int, action: Any) -> None:
        assert self.game is not None
        parsed = self.game.action_from_json(action)
        normal = not self.state.pub_queue and self.state.drawn < 0 and not isinstance(parsed, Reveal)
        if player == 1 and normal:
            raise NotYourTurn("SP-TURN-2", "seat 1 cannot act")
        super().do_apply(player, action)


def test_a_peer_refusing_every_kind_of_action_of_a_seat_is_named_by_its_turn() -> None:
    """SP-TURN-2 (attribution, issue 25): a peer that refuses a legal buy, take or pass of the seat whose
    turn it is, and, put back on the position, every other kind of action that seat has, denies what they
    all rest on: that the seat may act now.  Its refusals are one class under SP-TURN-2, not one class per
    action kind's own rule (SP-BUY-1, SP-HAND-1, SP-TURN-3); without positions nothing can be offered again
    and each refusal keeps its action's rule."""
    args: dict[str, Any] = {"games": 4, "jobs": 1, "seed": 2, "shrink": False, "game_names": ["petersburg"],
                            "max_steps": 120}
    report = run_campaign(in_process(_DeniesSeatOne), positions=True, **args)
    kinds = {c.signature: c.kinds for c in report.classes}
    assert "petersburg:unexplained:SP-TURN-2" in kinds, kinds
    assert kinds["petersburg:unexplained:SP-TURN-2"] == ("refused-legal",)
    assert not {"petersburg:unexplained:SP-BUY-1", "petersburg:unexplained:SP-HAND-1"} & set(kinds)
    first = next(c for c in report.classes if c.signature == "petersburg:unexplained:SP-TURN-2").first
    assert "other legal actions too" in first.message
    without = run_campaign(in_process(_DeniesSeatOne), positions=False, **args)
    assert "petersburg:unexplained:SP-TURN-2" not in {c.signature for c in without.classes}


class _OffersSeatOneNothing(ReferencePeer):
    """Defect: seat 1 is offered no action in its normal turns (its legal set is empty), yet it must act."""

    name = "petersburg: seat 1 offered nothing"

    def legal(self, player: int) -> list[Any]:
        normal = not self.state.pub_queue and self.state.drawn < 0
        return [] if player == 1 and normal else super().legal(player)


def test_a_peer_offering_a_seat_none_of_its_kinds_of_action_is_named_by_its_turn() -> None:
    """SP-TURN-2 (attribution, issue 25): a peer that offers the seat whose turn it is none of its legal
    actions, of several kinds, denies what they all rest on (that the seat may act now): those
    divergences are named SP-TURN-2, not after the first missing action's rule (a pass, SP-TURN-3)."""
    report = run_campaign(in_process(_OffersSeatOneNothing), games=4, jobs=1, seed=2, shrink=False,
                          game_names=["petersburg"], max_steps=120, positions=True)
    named = {c.signature: c for c in report.classes}
    assert "petersburg:unexplained:SP-TURN-2" in named, list(named)
    first = named["petersburg:unexplained:SP-TURN-2"].first
    assert first.kind == "legal-missing" and "none of the seat's legal actions" in first.message


class _TurnElsewhere(ReferencePeer):
    """Defect: the turn test inverted: the seat whose turn it is is refused, and another seat's action is
    accepted (and ignored)."""

    name = "petersburg: the turn elsewhere"

    def do_apply(self, player: int, action: Any) -> None:
        assert self.game is not None
        parsed = self.game.action_from_json(action)
        normal = not self.state.pub_queue and self.state.drawn < 0 and not isinstance(parsed, Reveal)
        if normal and player == self.state.turn:
            raise NotYourTurn("SP-TURN-2", f"seat {player} cannot act")
        if normal:
            return
        super().do_apply(player, action)


def test_a_seat_refused_its_only_action_while_another_seat_may_act_is_named_by_its_turn() -> None:
    """SP-TURN-2 (attribution, issue 25): a peer refusing the only legal action of the seat whose turn it
    is (a pass where nothing else is allowed) and, put back on the position, accepting another seat's
    action the rules refuse there because that seat may not act now, has the turn elsewhere: the refusal
    is named by the step both contradict (SP-TURN-2), the same class as its refusals of seats with several
    actions, not by the pass's own rule (SP-TURN-3).  (A solo seat has no other seat to tell it by.)"""
    args: dict[str, Any] = {"games": 6, "jobs": 1, "seed": 2, "shrink": False, "game_names": ["petersburg"],
                            "players": [2, 3], "max_steps": 200}
    report = run_campaign(in_process(_TurnElsewhere), positions=True, **args)
    assert {c.signature for c in report.classes} == {"petersburg:unexplained:SP-TURN-2"}, report.classes
    without = run_campaign(in_process(_TurnElsewhere), positions=False, **args)
    assert "petersburg:unexplained:SP-TURN-3" in {c.signature for c in without.classes}


class _OffersTheTurnElsewhere(ReferencePeer):
    """Defect: the turn test of the legal set inverted where the seat whose turn it is may only pass: it is
    offered nothing, and every other seat what it could do were it its turn."""

    name = "petersburg: the turn offered elsewhere"

    def legal(self, player: int) -> list[Any]:
        assert self.game is not None
        normal = not self.state.pub_queue and self.state.drawn < 0 and not self.state.over
        lone = normal and self.game.legal_actions(self.state, self.state.turn) == (Pass(self.state.turn),)
        if not lone:
            return super().legal(player)
        if player == self.state.turn:
            return []
        moved = self.state._replace(turn=player)
        return [self.game.action_to_json(a) for a in self.game.legal_actions(moved, player)]


@pytest.mark.parametrize("positions", [True, False])
def test_a_seat_offered_nothing_while_another_seat_is_offered_its_turn_is_named_by_its_turn(
        positions: bool) -> None:
    """SP-TURN-2 (attribution, issue 25): a peer that offers the seat whose turn it is nothing (its only
    action, a pass) and offers another seat actions the rules refuse there because that seat may not act
    now has the turn elsewhere: the missing pass is named by the step the other seat's offers contradict
    too (SP-TURN-2), not by the pass's own rule (SP-TURN-3) nor the candidate set of both.  Asking what
    another seat is offered does not move the peer, so a campaign without positions tells it too."""
    report = run_campaign(in_process(_OffersTheTurnElsewhere), games=6, jobs=1, seed=2, shrink=False,
                          game_names=["petersburg"], players=[2, 3], max_steps=200, positions=positions)
    assert {c.signature for c in report.classes} == {"petersburg:unexplained:SP-TURN-2"}, report.classes


class _NeverPasses(ReferencePeer):
    """Defect: a pass is never offered (the pass rule left out of the legal set)."""

    name = "petersburg: no pass"

    def legal(self, player: int) -> list[Any]:
        return [a for a in super().legal(player) if a.get("type") != "pass"]


class _SoloSeatOfferedNothing(ReferencePeer):
    """Defect: the solo seat is offered nothing in its normal turns (its legal set is empty)."""

    name = "petersburg: solo seat offered nothing"

    def legal(self, player: int) -> list[Any]:
        normal = not self.state.pub_queue and self.state.drawn < 0
        return [] if normal else super().legal(player)


class _PassOnlySeatOfferedNothing(ReferencePeer):
    """Defect: a seat whose only action is a pass is offered nothing."""

    name = "petersburg: a lone pass not offered"

    def legal(self, player: int) -> list[Any]:
        offered = super().legal(player)
        return [] if [a.get("type") for a in offered] == ["pass"] else offered


@pytest.mark.parametrize(("peer", "named"), [
    (_NeverPasses, "SP-TURN-3"),
    (_SoloSeatOfferedNothing, "SP-TURN-2"),
    (_PassOnlySeatOfferedNothing, "SP-PHASE-2|SP-TURN-2|SP-TURN-3"),
])
def test_a_seat_denied_its_only_kind_of_action_is_named_by_the_step_another_denial_shows(
        peer: type[ReferencePeer], named: str) -> None:
    """SP-TURN-2 / SP-TURN-3 (attribution, issue 25): where the seat's only action is a pass and the peer
    offers it nothing, with no other seat to show where the turn went, the position cannot tell whether
    the seat may not act (SP-TURN-2) or may not pass (SP-TURN-3): the divergence names both, with the
    step below the turn (SP-PHASE-2), as a candidate set, and another denial of the campaign decided by
    one of them discriminates it.  A peer that never offers a pass leaves it missing where the seat could
    do other things (SP-TURN-3), a solo seat offered nothing shows it where the seat had several kinds
    of action (SP-TURN-2): one class each, under the rule the other positions show; a peer denying only
    the lone pass shows nothing more, and its class is the candidate set."""
    report = run_campaign(in_process(peer), games=6, jobs=1, seed=2, shrink=False, game_names=["petersburg"],
                          players=[1] if peer is _SoloSeatOfferedNothing else [1, 2], max_steps=200,
                          positions=True)
    assert {c.signature for c in report.classes} == {f"petersburg:unexplained:{named}"}, report.classes


class _RefusesRowChoices(ReferencePeer):
    """Defect: every row choice is refused (``rows``: the rows refused, ``None`` for all)."""

    name = "take6: row choices refused"
    rows: tuple[int, ...] | None = None

    def do_apply(self, player: int, action: Any) -> None:
        if action.get("type") == "take_row" and (self.rows is None or action.get("row") in self.rows):
            raise NotYourTurn("T6-ACT-1", f"P{player} may not choose a row")
        super().do_apply(player, action)


class _RefusesRowZero(_RefusesRowChoices):
    name = "take6: row 0 refused"
    rows = (0,)


class _RowChoiceElsewhere(ReferencePeer):
    """Defect: the seat test of a row choice inverted: the seat whose card waits is refused, and another
    seat's choice is taken as its."""

    name = "take6: the row choice elsewhere"

    def do_apply(self, player: int, action: Any) -> None:
        if action.get("type") == "take_row" and self.state.phase == "choose":
            waiting = self.state.pending[0][1]
            if player == waiting:
                raise NotYourTurn("T6-ACT-1", f"P{player} may not choose a row")
            super().do_apply(waiting, {**action, "player": waiting})
            return
        super().do_apply(player, action)


@pytest.mark.parametrize(("peer", "named"), [
    (_RefusesRowChoices, "T6-ACT-1|T6-PLACE-3"),
    (_RefusesRowZero, "T6-CHOOSE-2"),
    (_RowChoiceElsewhere, "T6-ACT-1"),
])
def test_a_seat_refused_every_action_of_its_one_kind_names_what_the_position_can_tell(
        peer: type[ReferencePeer], named: str) -> None:
    """T6-ACT-1 / T6-PLACE-3 (attribution, issue 25): a peer refusing a legal row choice is put back on the
    position and offered another row choice of the seat, then the same choice by another seat.  Another
    row accepted: the seat may act, and the refusal is named where the two choices' grants part, the row
    the choice names (T6-CHOOSE-2: the rows are numbered from 0), not the grant both pass.  Every row
    refused and no other seat accepted: the position cannot tell whether the seat may not act now or may
    not choose a row, and the class is the candidate set of both.  Another seat's choice accepted: the
    peer has the turn elsewhere (T6-ACT-1)."""
    report = run_campaign(in_process(peer), games=4, jobs=1, seed=3, shrink=False, game_names=["take6"],
                          players=[2, 3], max_steps=200, positions=True)
    assert {c.signature for c in report.classes} == {f"take6:unexplained:{named}"}, report.classes


class _RefusesFlipsAndRows(ReferencePeer):
    """Defect: a check that refuses every flip and every row choice (the kids variant's only actions once
    the cards are selected), as an inverted phase test does."""

    name = "take6: flips and row choices refused"

    def do_apply(self, player: int, action: Any) -> None:
        if action.get("type") in ("flip", "take_row"):
            raise NotYourTurn("T6-ACT-1", f"P{player} may not act")
        super().do_apply(player, action)


def test_denials_each_ambiguous_between_the_turn_and_their_own_rule_share_the_turn() -> None:
    """T6-ACT-1 (attribution, issue 25): a peer refusing every flip (the seat's only action: T6-KIDS-2,
    the step of T6-SELECT-1) and every row choice (T6-PLACE-3), with no other seat accepted in their
    place, leaves each refusal a candidate set of the turn and its own rule; the smallest explanation of
    both sets is the step they share, that the seat may act now (T6-ACT-1): one class, not two."""
    assert _take6_classes(_RefusesFlipsAndRows, "kids") == {"take6:unexplained:T6-ACT-1"}


class _TurnTestInverted(ReferencePeer):
    """Defect: the check's turn test inverted (``p in to_act`` for ``p not in to_act``) where the
    selection's inline path does not take it first: a seat that must choose a row is refused, and a seat
    that may not act is accepted (its action ignored), a second selection among them."""

    name = "take6: the turn test inverted"

    def do_apply(self, player: int, action: Any) -> None:
        s = self.state
        if s.phase not in ("deal", "over") and action.get("type") in ("select", "take_row", "draft", "flip"):
            if player not in s.to_act:
                return  # accepted (and ignored)
            if action.get("type") != "select":
                raise NotYourTurn("T6-ACT-1", f"P{player} may not act")
        super().do_apply(player, action)


def test_a_second_selection_accepted_joins_the_turn_tests_class_when_the_turn_test_is_broken() -> None:
    """T6-ACT-1 (attribution, issue 25): the rules refuse a second selection because its seat may not act
    now (``NotYourTurn``), under the selection's own rule (T6-SELECT-2); a peer whose turn test is
    inverted accepts it, refuses the seat whose row choice waits and accepts another seat's in its place
    (the turn's step, T6-ACT-1).  The second selection's refusal carries the turn's step as context and
    joins that class: one class, not two.  A peer accepting only second selections keeps T6-SELECT-2
    (the multi-defect peer's ``second-select``)."""
    assert _take6_classes(_TurnTestInverted, "standard") == {"take6:unexplained:T6-ACT-1"}


class _TradingCardAtAllTheMoneyRefused(ReferencePeer):
    """Defect: the affordability test of a trading card written ``cost < money`` (the rules: at most the
    seat's money), the other cards' as the rules say: a trading card costing exactly what its buyer has is
    neither offered nor accepted."""

    name = "petersburg: a trading card costing all the seat has is refused"

    def _at_the_bound(self, player: int, action: Any) -> bool:
        s = self.state
        if not isinstance(action, Buy | Play) or action.displace is None:
            return False
        source = "hand" if isinstance(action, Play) else action.source
        cost = cost_breakdown(s, player, action.card, source=source, displace=action.displace).cost
        return bool(cost == s.money[player])

    def legal(self, player: int) -> list[Any]:
        game = self.game
        assert game is not None
        return [game.action_to_json(a) for a in game.legal_actions(self.state, player)
                if not self._at_the_bound(player, a)]

    def do_apply(self, player: int, action: Any) -> None:
        assert self.game is not None
        if self._at_the_bound(player, self.game.action_from_json(action)):
            raise IllegalAction("SP-BUY-2", "too dear")
        super().do_apply(player, action)


def test_a_purchase_denied_at_exactly_the_seats_money_is_named_by_the_affordability_test() -> None:
    """SP-BUY-2 (attribution, issue 25): a peer testing a trading card's price with ``<`` denies the
    purchases priced at exactly the seat's money, buys and plays alike.  No bound of every purchase
    explains it (the other cards costing all the seat has are bought), and the denial's deciding step is
    the affordability test at its bound, whatever the action's kind: one class, not one per kind's grant
    (SP-BUY-1, SP-HAND-4) and per card whose cost edit happens to explain a few."""
    report = run_campaign(in_process(_TradingCardAtAllTheMoneyRefused), games=8, jobs=1, seed=5,
                          shrink=False, game_names=["petersburg"], max_steps=300, positions=True)
    assert [c.signature for c in report.classes] == ["petersburg:unexplained:SP-BUY-2"], report.classes


class _KeepsTheDisplacedCard(ReferencePeer):
    """Defect: a trading card bought or played displaces nothing (the displaced card stays in the area and
    never reaches the discard pile), its price as the rules say."""

    name = "petersburg: the displaced card stays in the area"

    def do_apply(self, player: int, action: Any) -> None:
        before = self.state
        super().do_apply(player, action)
        if isinstance(action, dict) and action.get("type") in ("buy", "play") and action.get("displace"):
            s = self.state
            kept = before.rules.kind[action["displace"]]
            areas = list(s.areas)
            areas[player] = tuple(sorted((*areas[player], kept)))
            self.state = s._replace(areas=tuple(areas), discard=s.discard[:-1])


def test_a_displaced_card_kept_in_the_area_is_named_by_the_displacement() -> None:
    """SP-TRADE-1 (attribution, issue 25): a peer that keeps the displaced card in the area claims an area
    holding one card more after every trade, buys and plays alike.  The card in one side's area only is
    named by the last step below the action's own that names it, the displacement: one class, not one per
    purchase kind's grant (SP-BUY-1, SP-HAND-4)."""
    report = run_campaign(in_process(_KeepsTheDisplacedCard), games=8, jobs=1, seed=5, shrink=False,
                          game_names=["petersburg"], max_steps=300, positions=True)
    assert [c.signature for c in report.classes] == ["petersburg:unexplained:SP-TRADE-1"], report.classes


def _take6_classes(peer: type[ReferencePeer], variant: str) -> set[str]:
    """The classes of a short 6 nimmt! campaign of one variant (2 and 3 seats, positions) against ``peer``."""
    report = run_campaign(in_process(peer), games=4, jobs=1, seed=3, shrink=False, game_names=["take6"],
                          variants=[variant], players=[2, 3], max_steps=200, positions=True)
    return {c.signature for c in report.classes}


class _ObservesOnlyFromThree(ReferencePeer):
    """Defect: the Observatory draws only from a stack of three or more cards (a slip in the stack test:
    ``len(stack) >= 3``), so a stack of two is neither offered nor accepted."""

    name = "petersburg: no Observatory draw from a stack of two"

    def _short(self, action: Any) -> bool:
        return (isinstance(action, dict) and action.get("type") == "observe"
                and len(self.state.stacks[STACKS.index(action["stack"])]) == 2)

    def legal(self, player: int) -> list[Any]:
        return [a for a in super().legal(player) if not self._short(a)]

    def do_apply(self, player: int, action: Any) -> None:
        if self._short(action):
            raise IllegalAction("SP-OBS-3", "the stack has two cards")
        super().do_apply(player, action)


def test_a_denied_observatory_draw_is_named_where_its_grant_parts_from_a_draw_the_peer_allows() -> None:
    """SP-OBS-3 (attribution, issue 25): a seat with actions of several kinds whose Observatory draw from a
    stack of two the peer neither offers nor accepts, while it offers and accepts a draw from a larger
    stack: the two draws' grants part at the stack's size (SP-OBS-3: never a stack's last card), so both
    the missing and the refused draw are named there, one class, not the Observatory's grant (SP-OBS-1)
    that the allowed draw passes too.  Two purchases part first at the card each names, which says
    nothing of a refusal; the multi-defect and edited-peer tests keep their names."""
    report = run_campaign(in_process(_ObservesOnlyFromThree), games=8, jobs=1, seed=6, shrink=False,
                          game_names=["petersburg"], max_steps=300, positions=True)
    assert [(c.signature, set(c.kinds)) for c in report.classes] == [
        ("petersburg:unexplained:SP-OBS-3", {"legal-missing", "refused-legal"})], report.classes


class _CreditsThePrice(ReferencePeer):
    """Defect: a purchase adds its price to the buyer's money instead of taking it (``money + cost``)."""

    name = "petersburg: a purchase credits its price"

    def do_apply(self, player: int, action: Any) -> None:
        before = self.state
        super().do_apply(player, action)
        if isinstance(action, dict) and action.get("type") in ("buy", "play"):
            paid = before.money[player] - self.state.money[player]
            money = list(self.state.money)
            money[player] = before.money[player] + paid
            self.state = self.state._replace(money=tuple(money))


@pytest.mark.parametrize("diagnose", [True, False], ids=["diagnosed", "attributed"])
def test_a_purchase_that_credits_its_price_is_one_class_of_the_price(diagnose: bool) -> None:
    """SP-BUY-1, SP-COST-1 (attribution and diagnosis, issue 25): a peer crediting every price, a code slip
    shared by buys and plays, shows the money after each purchase off by twice the price.  Diagnosed, it is
    one class: the payment negated (``negate:SP-BUY-1``, a fault no table row holds).  Attributed without
    diagnosis, it is one class of the price: for a card at the minimum price (SP-COST-6) too, which was named
    by the minimum as if the peer had charged less than 1; no price is below nothing, so the minimum names
    only a charge from 0 up to below it (the multi-defect peer's free cards keep it)."""
    report = run_campaign(in_process(_CreditsThePrice), games=4, jobs=1, seed=1, shrink=False,
                          game_names=["petersburg"], players=[2, 3], max_steps=200, positions=True,
                          diagnose=diagnose)
    expected = "petersburg:negate:SP-BUY-1" if diagnose else "petersburg:unexplained:SP-COST-1"
    assert [c.signature for c in report.classes] == [expected], report.classes


class _CountsOtherColours(ReferencePeer):
    """Defect: the final scoring's variety bonus counts the different cards of every colour but the
    aristocrats' (the colour test inverted: ``!=`` for ``==``)."""

    name = "petersburg: the variety bonus counts the other colours"

    def do_apply(self, player: int, action: Any) -> None:
        before = self.state
        super().do_apply(player, action)
        s = self.state
        if s.over and not before.over:
            rs = s.rules
            vp = list(s.vp)
            for p, area in enumerate(s.areas):
                right = len({k for k in area if rs.colour[k] == rs.variety_colour})
                wrong = len({k for k in area if rs.colour[k] != rs.variety_colour})
                vp[p] += rs.variety_bonus(wrong) - rs.variety_bonus(right)
            self.state = s._replace(vp=tuple(vp))


def test_final_scores_wrong_in_several_seats_are_named_by_the_first_differing_seats_scoring() -> None:
    """SP-END-4 (attribution, issue 25): a peer whose variety bonus counts the wrong cards gives final
    scores differing in several seats.  The first differing seat decides: its part of the final scoring
    whose amount is its difference, else its whole final scoring (SP-END-4), never a later seat's part
    that happens to equal that seat's difference (a hand of three cards, -15 VP: it was SP-END-7, a
    second class of the one defect)."""
    report = run_campaign(in_process(_CountsOtherColours), games=8, jobs=1, seed=5, shrink=False,
                          game_names=["petersburg"], max_steps=300, positions=True)
    assert [c.signature for c in report.classes] == ["petersburg:unexplained:SP-END-4"], report.classes


class _AsksEveryPubOwner(ReferencePeer):
    """Defect: what a Pub owner can buy is computed with ``money * rate`` for ``money // rate``: an owner
    with any money is asked after the building scoring, and offered more VP than it can pay for."""

    name = "petersburg: the Pub's VP counted as money * rate"

    def _most(self, p: int) -> int:
        s = self.state
        rs = s.rules
        most = sum(s.areas[p].count(k) * rs.pub_max[k] for k in rs.pub_kinds)
        rate = max((rs.pub_rate[k] for k in rs.pub_kinds if k in s.areas[p]), default=0)
        return int(min(most, s.money[p] * rate))

    def legal(self, player: int) -> list[Any]:
        s = self.state
        if s.pub_queue and player == s.pub_queue[0]:
            return [{"type": "pub", "player": player, "vp": n} for n in range(self._most(player) + 1)]
        return super().legal(player)

    def do_apply(self, player: int, action: Any) -> None:
        before = self.state
        super().do_apply(player, action)
        s = self.state
        building = next(i for i, ph in enumerate(PHASES) if any(s.rules.colour[k] == ph.scores
                                                               for k in s.rules.pub_kinds))
        if before.phase_index == building and s.phase_index != building and not s.pub_queue and not s.over \
                and isinstance(action, dict) and action.get("type") == "pass":
            n = s.players
            first = s.markers[building]  # the owners the rules leave out, asked all the same
            queue = tuple(q for q in ((first + i) % n for i in range(n)) if self._most(q))
            if queue:
                self.state = s._replace(phase_index=building, pub_queue=queue, turn=before.turn, passes=0)


def test_a_pub_owner_asked_who_can_afford_no_vp_is_named_by_what_an_owner_can_afford() -> None:
    """SP-PUB-1 (attribution, issue 25): after a Pub's scoring the engine's derivation says which owners it
    leaves out, each one who can afford no VP (SP-PUB-1 ``affords``, under SP-PUB-2 ``no-pub``: only owners
    who can afford 1 VP are asked).  A peer counting what an owner can afford wrongly asks such an owner
    (either rule: a candidate set) and offers more VP than the owner can pay for (SP-PUB-1 alone), which
    discriminates the set: one class, SP-PUB-1.  (The owners' step was missing, and the queue was a second
    class, SP-PUB-2.)"""
    report = run_campaign(in_process(_AsksEveryPubOwner), games=8, jobs=1, seed=1, shrink=False,
                          game_names=["petersburg"], max_steps=300, positions=True)
    assert [c.signature for c in report.classes] == ["petersburg:unexplained:SP-PUB-1"], report.classes


class _ShortChanged(ReferencePeer):
    """Defect: the set-up gives each player 24 roubles (SP-SETUP-2 says 25)."""

    name = "petersburg: 24 roubles each"

    def do_new(self, game: str, variant: str, players: int, options: Any, setup: Any) -> None:
        super().do_new(game, variant, players, options, setup)
        self.state = self.state._replace(money=tuple(m - 1 for m in self.state.money))


@pytest.mark.parametrize("positions", [True, False])
def test_a_fact_differing_at_the_start_is_named_by_the_set_up_step_that_says_it(positions: bool) -> None:
    """SP-SETUP-2 (attribution, issue 25): a fact the peer claims differently at a set-up's start, before
    any action, contradicts the step of the engine's derivation of the set-up that says that fact
    (``GAME.derive_start``: the roubles each player takes), not the first clause of the fact's topics (a
    card's price for money)."""
    report = run_campaign(in_process(_ShortChanged), games=3, jobs=1, seed=2, shrink=False,
                          game_names=["petersburg"], max_steps=60, positions=positions, diagnose=False)
    first = report.classes[0].first
    assert first.kind == "claim" and not first.actions, first
    assert first.signature == "petersburg:claim:SP-SETUP-2:money", first.signature


class _OpensInRoundTwo(ReferencePeer):
    """Defect: the set-up opens the game in round 2 with the building phase (a set-up's round and phase
    index each off by one)."""

    name = "petersburg: the game opens in round 2, building phase"

    def do_new(self, game: str, variant: str, players: int, options: Any, setup: Any) -> None:
        super().do_new(game, variant, players, options, setup)
        self.state = self.state._replace(round=2, phase_index=1)


def test_a_game_opened_in_another_round_or_phase_is_named_by_the_set_up_step_that_opens_it() -> None:
    """SP-PHASE-1 (attribution, issue 25): the set-up's derivation says what the game opens with (round 1,
    the worker phase: ``opens``; its marker's holder first: SP-PHASE-2 ``first``), so a peer opening in
    round 2 or in the building phase is named by that step, not by the round's end (SP-ROUND-1) or the
    phase's topic."""
    report = run_campaign(in_process(_OpensInRoundTwo), games=3, jobs=1, seed=2, shrink=False,
                          game_names=["petersburg"], max_steps=60, positions=True, diagnose=False)
    assert report.classes, "the peer's opening shows"
    assert {c.first.clauses[0] for c in report.classes} == {"SP-PHASE-1"}, report.classes


class _EndsPhasesAPassEarly(ReferencePeer):
    """Defect: an action other than a pass leaves the count of consecutive passes at 1, not 0 (a phase's
    actions end one pass early); the count itself is no claimed fact."""

    name = "petersburg: passes counted from 1 after an action"

    def leaves_a_pass(self, action: Any) -> bool:
        """Whether ``action`` (parsed) leaves one pass counted."""
        return not isinstance(action, Pass | Reveal)

    def do_apply(self, player: int, action: Any) -> None:
        assert self.game is not None
        parsed = self.game.action_from_json(action)
        super().do_apply(player, action)
        s = self.state
        if self.leaves_a_pass(parsed) and not s.over and s.passes == 0 and s.players > 1:
            self.state = s._replace(passes=1)


def test_a_phase_ended_a_pass_early_is_named_by_the_step_saying_the_phase_goes_on() -> None:
    """SP-PHASE-3 (attribution, issue 25): after a pass the phase goes on after, the engine's derivation says
    so (``goes-on``: how many passed consecutively); a peer that ended the phase there instead (its phase,
    who acts, or the scores it then gives differ, the Pub queue keeping the building phase's name) is named
    by that step, in one class, not by the next turn's step (SP-PHASE-4) or the pass itself (SP-TURN-3)."""
    report = run_campaign(in_process(_EndsPhasesAPassEarly), games=4, jobs=1, seed=3, shrink=False,
                          game_names=["petersburg"], players=[2, 3], max_steps=200, positions=True)
    assert {c.signature for c in report.classes} == {"petersburg:unexplained:SP-PHASE-3"}, report.classes


class _TakeLeavesAPass(_EndsPhasesAPassEarly):
    """Defect: a take (only) leaves the count of consecutive passes at 1, not 0 (so the next passes end the
    phase one early); the count itself is no claimed fact."""

    name = "petersburg: a take counted as a pass"

    def leaves_a_pass(self, action: Any) -> bool:
        return isinstance(action, Take)


def test_a_phase_ended_early_into_the_pubs_decisions_is_one_class_with_the_phases_ended_elsewhere() -> None:
    """SP-PHASE-3 (attribution, issue 25): a phase ended a pass early into the Pub's decisions keeps the
    building phase's name, and a scoring that earned nothing leaves money and scores alike: who acts is all
    that differs, which the next turn (SP-PHASE-2) would explain as well.  Both are the candidates, and the
    phases the peer ended elsewhere (its phase differs: SP-PHASE-3 alone) discriminate them: one class.
    (Who acts was named by the next turn, a second class.)"""
    report = run_campaign(in_process(_TakeLeavesAPass), games=8, jobs=1, seed=4, shrink=False,
                          game_names=["petersburg"], max_steps=300, positions=True)
    assert [c.signature for c in report.classes] == ["petersburg:unexplained:SP-PHASE-3"], report.classes


class _EndsAfterTheFirstRound(ReferencePeer):
    """Defect: the set-up marks the first round as the last (the game ends after it)."""

    name = "petersburg: the first round is the last"

    def do_new(self, game: str, variant: str, players: int, options: Any, setup: Any) -> None:
        super().do_new(game, variant, players, options, setup)
        self.state = self.state._replace(last_round=True)


def test_a_game_ended_at_a_round_the_rules_go_on_after_is_named_by_the_step_saying_it_goes_on() -> None:
    """SP-END-1 (attribution, issue 25): a round's end says the game goes on when no stack ran out; a peer
    whose game is over there (its final scoring, and the refill it did not make, differ too) is named by
    that step, in one class, not by the refill (SP-REFILL-1) or the final scoring's parts."""
    report = run_campaign(in_process(_EndsAfterTheFirstRound), games=3, jobs=1, seed=3, shrink=False,
                          game_names=["petersburg"], max_steps=200, positions=True)
    assert {c.signature for c in report.classes} == {"petersburg:unexplained:SP-END-1"}, report.classes


class _DraftLosesTheNextHand(ReferencePeer):
    """Defect (logic): a draft empties the hand of the seat after the drafting one (the card goes into
    the drafter's hand as it should), and who drafts next, or whether the draft is over, follows from the
    cards then held."""

    name = "take6: a draft loses the next seat's hand"

    def do_apply(self, player: int, action: Any) -> None:
        from engine.take6.layout import I_FIXED, I_HELD, replace

        before = self.state
        super().do_apply(player, action)
        after = self.state
        if action.get("type") != "draft":
            return
        held = list(after[I_HELD])
        n = len(held)
        held[(player + 1) % n] = ()
        seed, rnd, stock, start, deals = before[I_FIXED]
        nxt = ((start + sum(map(len, held))) % n,)
        if after.phase == "draft":
            self.state = replace(after, held=tuple(held), to_act=nxt)
        else:  # the rules' draft is over: the peer's short count drafts on
            left = tuple(c for c in stock if c != action["card"])
            self.state = replace(before, held=tuple(held), fixed=(seed, rnd, left, start, deals), to_act=nxt)


def test_a_draft_that_changes_another_hand_is_named_by_the_draft_step() -> None:
    """T6-LOGIC-1 (attribution, issue 25): a draft changes no hand but the drafting seat's, by the card
    drafted (the ``drafted`` step); a peer whose hands differ after a draft is named by that step, in one
    class, not by the step of who drafts next or of the draft's end (T6-LOGIC-2) that its short count
    then contradicts."""
    assert _take6_classes(_DraftLosesTheNextHand, "logic") == {"take6:unexplained:T6-LOGIC-1"}


class _DraftTakesTheNextCardToo(ReferencePeer):
    """Defect (logic): a draft removes from the pool the drafted card and the one after it (a slice off by
    one: ``stock[i + 2:]``); the drafter's hand gets the drafted card as it should, so the pool is short
    after every draft, and at the draft's end the rows are laid from the shorter pool."""

    name = "take6: a draft takes the next card of the pool too"

    def do_apply(self, player: int, action: Any) -> None:
        from engine.take6.layout import I_FIXED, replace

        before = self.state
        super().do_apply(player, action)
        if action.get("type") != "draft":
            return
        seed, rnd, stock, start, deals = before[I_FIXED]
        i = stock.index(action["card"])
        left = stock[:i] + stock[i + 2:]
        if self.state.phase == "draft":
            self.state = replace(self.state, fixed=(seed, rnd, left, start, deals))
        else:  # the draft is over: the rows are what it left
            self.state = replace(self.state, rows=tuple((c,) for c in left), ends=left)


def test_rows_laid_from_a_short_pool_at_the_drafts_end_are_named_by_the_draft() -> None:
    """T6-LOGIC-1 (attribution, issue 25): the rows a logic draft's end lays are the pool it left
    (T6-LOGIC-2), so a peer's rows holding other cards than the rules' pool left are the draft's
    difference, named by its drafted step as a claim of the pool is: one class, not a second one named by
    the placement rule (T6-PLACE-1) that no step of a draft derives."""
    assert _take6_classes(_DraftTakesTheNextCardToo, "logic") == {"take6:unexplained:T6-LOGIC-1"}


class _DealsFlips(ReferencePeer):
    """Defect: a 6 nimmt! round of simultaneous play opens as the kids' flips (seat 0 flips first)."""

    name = "take6: a round opens with flips"

    def _opened(self) -> None:
        from engine.take6.layout import replace

        s = self.state
        if s.phase == "select" and not any(s.selected) and all(len(h) == len(s.hands[0]) for h in s.hands):
            self.state = replace(s, phase="flip", to_act=(0,))

    def do_new(self, game: str, variant: str, players: int, options: Any, setup: Any) -> None:
        super().do_new(game, variant, players, options, setup)
        self._opened()


def test_a_round_opened_in_another_phase_is_named_by_its_deal() -> None:
    """T6-SETUP-5 (attribution, issue 25): a round's deal says what the round opens with (its selections,
    every seat to act; the kids' flips, seat 0), so a peer opening a standard game with a flip is named by
    the deal that holds the phase and who acts, not by the selection rule (T6-SELECT-1) its turn
    contradicts."""
    report = run_campaign(in_process(_DealsFlips), games=3, jobs=1, seed=3, shrink=False,
                          game_names=["take6"], variants=["standard"], players=[2, 3], max_steps=60,
                          positions=True, diagnose=False)
    assert report.classes, "the peer's flips show"
    assert {c.first.clauses[0] for c in report.classes} == {"T6-SETUP-5"}, report.classes


def test_a_reducer_owned_of_another_colour_is_in_the_price_and_names_a_purchase_too_cheap() -> None:
    """SP-COST-4 (derivation and attribution, issue 25): the price of a card a reducer owned does not reduce
    (another colour) says so (``no-reduction``, the reducer as subject, the rouble it takes off a card it
    reduces); a peer allowing such a card one rouble beyond the seat's money is named by that step, not by
    the card's printed price (SP-COST-1), which names a card the reducer does reduce."""
    from engine.conformance.kits.petersburg import KIT as kit
    from engine.petersburg import GAME as game

    s = position(players=2, upper=["Market", "Author"], areas=[["Carpenter Workshop"], []], money=[3, 25])
    author = game.why(s, Buy(0, "Author", "upper"))
    (idle,) = author.find(says="no-reduction")
    assert (idle.clause, idle.data["subject"], idle.data["amount"]) == ("SP-COST-4", "Carpenter Workshop", 1)
    assert kit.refuted(author) == (idle,)
    market = game.why(s, Buy(0, "Market", "upper"))
    assert not market.find(says="no-reduction")
    assert [x.clause for x in kit.refuted(market)] == ["SP-COST-1"]


class _ReducesEveryColour(ReferencePeer):
    """Defect: a reducer takes its rouble off a card of any colour (the colour test ``or``-ed away): a
    purchase costs one rouble less for every reducer owned that the rules apply to nothing there."""

    name = "petersburg: reducers of every colour"

    def do_apply(self, player: int, action: Any) -> None:
        before = self.state
        super().do_apply(player, action)
        if isinstance(action, dict) and action.get("type") in ("buy", "play"):
            rs = before.rules
            k = rs.kind[action["card"]]
            granted = {r for r, _ in rs.reducers_for[k]}
            back = sum(a for r, a in {r: a for red in rs.reducers_for for r, a in red}.items()
                       if r in before.areas[player] and r not in granted)
            paid = before.money[player] - self.state.money[player]
            money = list(self.state.money)
            money[player] += min(back, max(paid - 1, 0))  # never below the 1-rouble minimum
            self.state = self.state._replace(money=tuple(money))


def test_a_purchase_cheaper_by_a_reducer_of_another_colour_is_one_class_of_the_reduction_rule() -> None:
    """SP-COST-4 (attribution, issue 25): a peer whose reducers reduce every colour charges less for cards
    the rules leave unreduced; each such purchase is named by the reducer's rule (``no-reduction``), one
    class.  It was named by each card's printed price (SP-COST-1)."""
    report = run_campaign(in_process(_ReducesEveryColour), games=8, jobs=1, seed=3, shrink=False,
                          game_names=["petersburg"], max_steps=300, positions=True, diagnose=False)
    assert [c.signature for c in report.classes] == ["petersburg:unexplained:SP-COST-4"], report.classes


def test_a_purchase_denied_below_the_seats_money_is_named_by_the_reduction_whose_omission_denies_it() -> None:
    """SP-COST-2 (attribution, issue 25): a purchase the rules grant, priced below the seat's money, that
    the peer denies is decided by the reductions whose omission alone would price it beyond the money (two
    identical Markets owned: 2 roubles off); at exactly the money, by the affordability test (SP-BUY-2)."""
    from engine.conformance.kits.petersburg import KIT as kit
    from engine.petersburg import GAME as game

    owned = [["Market", "Market", "Carpenter Workshop"], []]
    buy = Buy(0, "Market", "upper")
    below = game.why(position(players=2, upper=["Market"], areas=owned, money=[3, 25]), buy)
    assert [(x.clause, x.data["subject"]) for x in kit.denied(below)] == [("SP-COST-2", "Market")]
    at = game.why(position(players=2, upper=["Market"], areas=owned, money=[2, 25]), buy)
    assert [(x.clause, x.says) for x in kit.denied(at)] == [("SP-BUY-2", "affordable")]
