"""What a peer denies when it lets a seat do nothing the rules allow it: the seat's legal actions, all
missing or all refused, rest on one step of their grants alike (that the seat may act now), not on each
action's own rule; and a seat whose only action is refused while another seat's action the rules refuse
is accepted has the turn elsewhere.

These are probes of a duel with positions (:class:`~engine.conformance.campaign.duel.Duel`): the peer is
put on the position again and offered the seat's other actions, or another seat's, and put back.  They
run only on a divergence, never on the hot path.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from attrs import frozen

from engine.conformance.attribution import Attribution, shared_grant
from engine.conformance.diagnosis.evidence import Seen
from engine.conformance.kits.base import GameKit
from engine.conformance.peers.protocol import canonical
from engine.errors import RuleViolation
from engine.game import Game

__all__ = ["Seats", "TurnElsewhere", "offers_nothing", "refused_alike", "turn_elsewhere"]

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

    def accepts(self, seat: int, value: Any) -> bool:
        """Whether the peer, put on the current position, accepts action ``value`` (JSON) of ``seat``."""
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


def turn_elsewhere(duel: Seats, seat: int, action: Any) -> TurnElsewhere | None:
    """A legal action the peer refused, the seat's only one, on a position it can be put back on: an
    action of another seat seen earlier in the game, which the rules refuse here under a step the
    refused action's grant passed (that the seat may act now: SP-TURN-2, T6-ACT-1), is offered there;
    when the peer accepts it, the peer has the turn elsewhere, and both divergences contradict that
    step (:class:`TurnElsewhere`).  At most one action
    per such step is offered; ``None`` when the peer refuses them, none was seen, or the campaign does
    not use positions."""
    if not duel.trials or len(duel.game.legal_actions(duel.state, seat)) != 1:
        return None
    try:
        why = duel.kit.why(duel.game, duel.state, action)
    except Exception:  # advisory, as attribution is: no derivation, no probe
        return None
    if why is None or why.says != "legal":
        return None
    passed = {step.clause: step for step in why.steps}
    tried: set[str] = set()
    for value in tuple(duel.seen.values()):
        other = duel.game.action_from_json(value)
        q = duel.kit.action_player(other)
        if q is None or q == seat:
            continue
        try:
            duel.game.apply(duel.state, other)
        except RuleViolation as refused:
            step = passed.get(refused.clause)
            if step is None or refused.clause in tried:
                continue
            tried.add(refused.clause)
            if duel.accepts(q, value):
                accepted = Seen("apply", duel.state, other, shown=True)
                return TurnElsewhere(Attribution((step.clause,), "", (step,)), accepted, q, value)
    return None
