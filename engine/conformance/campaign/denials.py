"""What a peer denies when it lets a seat do nothing the rules allow it: the seat's legal actions, all
missing or all refused, rest on one step of their grants alike (that the seat may act now), not on each
action's own rule (:func:`offers_nothing`, :func:`refused_alike`); a seat denied its actions while another
seat is offered, or accepted, an action the rules refuse because that seat may not act now has the turn
elsewhere (:func:`offered_elsewhere`, :func:`turn_elsewhere`); and a seat denied every action of its one
kind with nothing to tell why names both readings, the turn and the kind's own rule, as a candidate set
another denial of the campaign may discriminate (:func:`unresolved`).

These are probes of a duel with positions (:class:`~engine.conformance.campaign.duel.Duel`): the peer is
put on the position again and offered the seat's other actions, or another seat's, and put back.  They
run only on a divergence, never on the hot path.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from attrs import frozen

from engine.conformance.attribution import Attribution, shared_grant
from engine.conformance.diagnosis.evidence import Seen
from engine.conformance.kits.base import GameKit
from engine.conformance.peers.protocol import canonical
from engine.derivation import Step
from engine.errors import InputError, RuleViolation
from engine.game import Game

__all__ = [
    "Seats", "TurnElsewhere", "offered_elsewhere", "offers_nothing", "refused_alike", "turn_elsewhere",
    "unresolved",
]


def _one_of_each_kind(actions: Iterable[Any]) -> tuple[Any, ...]:
    """The first of ``actions`` of each kind (action class), in their order."""
    first: dict[type, Any] = {}
    for action in actions:
        first.setdefault(type(action), action)
    return tuple(first.values())


@frozen
class TurnElsewhere:
    """Another seat's action the peer accepts where the rules refuse it, beside the seat's refused one."""

    attribution: Attribution
    """The step of the refused action's grant the rules refuse the other action under (SP-TURN-2)."""
    seen: Seen
    """The acceptance, as evidence (a fault must explain it too)."""
    seat: int
    value: Any
    """The accepted action (JSON)."""


class Seats(Protocol):
    """What the probes read of a duel: the rules, the reference's position, what the peer offered and was
    seen to do, and whether it can be put on a position and asked."""

    game: Game
    kit: GameKit
    state: Any
    trials: bool
    offered: dict[int, tuple[Any, ...]]
    """Per seat, the actions (JSON) the peer last offered it."""
    seen: dict[str, Any]
    """Every legal action (JSON) of the game so far, by canonical text."""

    @property
    def players(self) -> int:
        """How many seats the game has."""
        ...

    def accepts(self, seat: int, value: Any) -> bool:
        """Whether the peer, put on the current position, accepts action ``value`` (JSON) of ``seat``."""
        ...

    def offers(self, seat: int) -> tuple[Any, ...]:
        """The actions (JSON) the peer offers ``seat`` in the current position (``()`` when it refuses to
        say)."""
        ...


def offers_nothing(duel: Seats, seat: int) -> Attribution | None:
    """The peer offers ``seat`` nothing at all, not one of its legal actions: when they are of several
    kinds, what it denies is what they all rest on (:func:`~engine.conformance.attribution.shared_grant`:
    that the seat may act now), not each kind's own rule; ``None`` for actions of one kind, where an
    empty set says no more than that each is missing (a Pub's purchases counted one too few leave none
    where the seat could buy 0 or 1 VP).  (A peer offering the seat other actions lets it act: each
    missing action keeps its own rule.)"""
    kinds = _one_of_each_kind(duel.game.legal_actions(duel.state, seat))
    return shared_grant(duel.game, duel.kit, duel.state, kinds) if len(kinds) > 1 else None


def refused_alike(duel: Seats, seat: int, action: Any) -> tuple[Attribution | None, tuple[Any, ...]]:
    """A legal action the peer refused, on a position it can be put back on: one legal action of the seat
    of each other kind is offered there in turn; when the peer refuses every one, what it denies is
    what they all rest on, not the first action's own rule (:func:`~engine.conformance.attribution.
    shared_grant`: that the seat may act now), and those refusals are evidence too (a fault must
    explain them all).  ``(None, ())`` when the peer accepts one of them, the seat has no action of
    another kind, or the campaign does not use positions.  (Actions of one kind all refused say no
    more than that each is: a Pub's purchases counted one too few are refused alike.)"""
    if not duel.trials:
        return None, ()
    legal = duel.game.legal_actions(duel.state, seat)
    others = _one_of_each_kind((action, *legal))[1:]
    if not others or any(duel.accepts(seat, duel.game.action_to_json(o)) for o in others):
        return None, ()
    # an action the peer itself offered the seat here (one the rules refuse) that it accepts: it lets
    # the seat act, only not as the rules do (each refusal keeps its own rule)
    ours = {canonical(duel.game.action_to_json(a)) for a in legal}
    own = next((v for v in duel.offered.get(seat, ()) if canonical(v) not in ours), None)
    if own is not None and duel.accepts(seat, own):
        return None, ()
    return shared_grant(duel.game, duel.kit, duel.state, (action, *others)), others


def _turn_steps(duel: Seats, action: Any) -> dict[str, Step]:
    """The steps ``action``'s grant derivation passes, by clause (``{}`` without one)."""
    try:
        why = duel.kit.why(duel.game, duel.state, action)
    except Exception:  # advisory, as attribution is: no derivation, no probe
        return {}
    if why is None or why.says != "legal":
        return {}
    return {s.clause: s for step in why.steps for s in step.walk()}


def _refused_under(duel: Seats, value: Any, passed: dict[str, Step]) -> Step | None:
    """The step of ``passed`` the rules refuse action ``value`` (JSON) under here, if they do."""
    try:
        other = duel.game.action_from_json(value)
    except InputError:
        return None
    try:
        duel.game.apply(duel.state, other)
    except RuleViolation as refused:
        return passed.get(refused.clause)
    return None


def _offered_to_others(duel: Seats, seat: int, passed: dict[str, Step]) -> TurnElsewhere | None:
    """The first action the peer offers a seat other than ``seat`` here that the rules refuse under a
    step of ``passed``, as a turn elsewhere (its evidence the other seat's offered set)."""
    for q in range(duel.players):
        if q == seat:
            continue
        offered = duel.offers(q)
        for value in offered:
            step = _refused_under(duel, value, passed)
            if step is not None:
                shown = Seen("legal", duel.state, None, q, frozenset(canonical(v) for v in offered))
                return TurnElsewhere(Attribution((step.clause,), "", (step,)), shown, q, value)
    return None


def offered_elsewhere(duel: Seats, seat: int) -> TurnElsewhere | None:
    """The peer offers ``seat``, whose turn it is, none of its legal actions: each other seat is asked
    what the peer offers it here; an action the rules refuse under a step the seat's grant passes (that
    the seat may act now: SP-TURN-2, T6-ACT-1) shows the peer has the turn elsewhere, and both the
    missing actions and the offered one contradict that step (:class:`TurnElsewhere`, its evidence the
    other seat's offered set).  ``None`` when the peer offers the other seats nothing the rules refuse
    so.  Asking does not move the peer, so a campaign without positions asks too."""
    legal = duel.game.legal_actions(duel.state, seat)
    passed = _turn_steps(duel, legal[0]) if legal else {}
    return _offered_to_others(duel, seat, passed) if passed else None


def turn_elsewhere(duel: Seats, seat: int, action: Any) -> TurnElsewhere | None:
    """A legal action the peer refused, of the seat's only kind, on a position it can be put back on:
    the same action by each other seat, then each action of another seat seen earlier in the game, which
    the rules refuse here under a step the refused action's grant passed (that the seat may act now:
    SP-TURN-2, T6-ACT-1), is offered there; when the peer accepts one, the peer has the turn elsewhere,
    and both divergences contradict that step (:class:`TurnElsewhere`).  At most one action per other
    seat and one seen action per such step are offered.  First, though, each other seat is asked what
    the peer offers it here (as :func:`offered_elsewhere` does): an action refused so shows the turn
    elsewhere without a probe.  ``None`` when the peer offers and accepts none, none applies, or (for
    the probes) the campaign does not use positions."""
    if len(_one_of_each_kind(duel.game.legal_actions(duel.state, seat))) > 1:
        return None  # several kinds: refused_alike asks the seat's other kinds instead
    passed = _turn_steps(duel, action)
    if not passed:
        return None
    offered = _offered_to_others(duel, seat, passed)
    if offered is not None or not duel.trials:
        return offered
    value = duel.game.action_to_json(action)
    moved = [{**value, "player": q} for q in range(duel.players)
             if q != seat and isinstance(value, dict) and value.get("player") == seat]
    tried: set[str] = set()
    for candidate in (*moved, *tuple(duel.seen.values())):
        q = candidate.get("player") if isinstance(candidate, dict) else None
        if not isinstance(q, int) or q == seat:
            continue
        step = _refused_under(duel, candidate, passed)
        if step is None:
            continue
        seen_one = candidate not in moved
        if seen_one and step.clause in tried:
            continue
        if seen_one:
            tried.add(step.clause)
        if duel.accepts(q, candidate):
            accepted = Seen("apply", duel.state, duel.game.action_from_json(candidate), shown=True)
            return TurnElsewhere(Attribution((step.clause,), "", (step,)), accepted, q, candidate)
    return None


def _parted(duel: Seats, action: Any, accepted: Any, *, by_position: bool = False) -> Attribution | None:
    """A legal ``action`` the peer refused where it accepts ``accepted``, another action of the same
    kind and seat: what the refusal denies is where their grants part, the first step below the grant's
    own clause that the two derive alike but for its data (the row a row choice names: T6-CHOOSE-2), not
    the grant the accepted one passes too.  ``by_position``: only where they part in a fact of the position,
    not in the actions' own fields alone (the stack an Observatory draws from holds 2 cards, the other 20:
    SP-OBS-3; two purchases part first at the card each names, which says nothing of why one is refused).
    ``None`` when they part at no such step (the kind's own rule then names it, as before)."""
    try:
        mine, theirs = (duel.kit.why(duel.game, duel.state, a) for a in (action, accepted))
    except Exception:  # advisory, as attribution is
        return None
    if mine is None or theirs is None or mine.says != "legal" or theirs.says != "legal":
        return None
    own = set(duel.game.action_to_json(action)) if by_position else set()
    for a, b in zip(mine.walk(), theirs.walk(), strict=False):
        if (a.clause, a.says) != (b.clause, b.says):
            return None  # the grants take other ways: no one step tells them apart
        if a is not mine and a.data != b.data and a.clause != mine.clause:
            if {k: v for k, v in a.data.items() if k not in own} == {
                    k: v for k, v in b.data.items() if k not in own}:
                return None
            return Attribution((a.clause,), "", (a,))
    return None


def parted_from_offered(duel: Seats, action: Any, offered: Sequence[Any]) -> Attribution | None:
    """A legal ``action`` the peer does not offer its seat where it offers that seat (JSON, ``offered``)
    another legal action of the same kind: the step where their grants part in a fact of the position
    (:func:`_parted`), for the first of the offered ones that parts so; ``None`` when none does (the kind's
    own rule then names it)."""
    for value in offered:
        try:
            other = duel.game.action_from_json(value)
        except InputError:
            continue
        if type(other) is type(action) and other != action:
            step = _parted(duel, action, other, by_position=True)
            if step is not None:
                return step
    return None


def unresolved(
    duel: Seats, seat: int, action: Any, *, refused: bool
) -> tuple[Attribution | None, tuple[Any, ...]]:
    """A seat whose legal actions are all of one kind denied ``action`` (offered none of them, or refused
    it and, put back on the position, another of them too: ``refused``), with no seat shown acting in its
    place: either the seat may not act now or the kind's own rule fails, and this position cannot tell
    which.  The deciding entry is the candidate set of the steps of ``action``'s grant that the seat may
    act (the kit's ``turn_clause``, with the steps below it: why it may) and the grant's own clause
    (``SP-PHASE-2|SP-TURN-2|SP-TURN-3``: a pass, the seat's only action, missing); another divergence of
    the campaign decided by fewer of them discriminates it (:func:`~engine.conformance.campaign.
    grouping.group`).  The other action refused is evidence too.
    ``(None, ())`` when the seat has actions of several kinds or the grant has no such step; when the
    peer accepts the other one, the step where their grants part (:func:`_parted`) or ``None``.  A seat
    with actions of several kinds is offered another action of the refused one's kind too, and the
    refusal is named where their grants part in a fact of the position, if they do."""
    legal = duel.game.legal_actions(duel.state, seat)
    several = len(_one_of_each_kind(legal)) != 1
    others: tuple[Any, ...] = ()
    if refused and duel.trials:
        others = tuple(a for a in legal if a != action and type(a) is type(action))[:1]
        if others and duel.accepts(seat, duel.game.action_to_json(others[0])):
            return _parted(duel, action, others[0], by_position=several), ()
    if several:
        return None, ()
    try:
        why = duel.kit.why(duel.game, duel.state, action)
    except Exception:  # advisory, as attribution is
        return None, ()
    if why is None or why.says != "legal":
        return None, ()
    turn = next((s for step in why.steps for s in step.walk() if s.clause == duel.kit.turn_clause), None)
    if turn is None or turn.clause == why.clause:
        return None, ()
    steps = {s.clause: s for s in turn.walk()}
    return Attribution(("|".join(sorted({*steps, why.clause})),), "", tuple(steps.values())), others
