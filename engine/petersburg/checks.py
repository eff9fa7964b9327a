"""The checked tier: :func:`check` returns the canonical form of a legal action or raises the specific
error naming the clause the action breaks (:func:`diagnose` finds it); the state is never changed.

>>> from engine.petersburg import GAME, Buy
>>> check(GAME.new_game(2, seed=1), Buy(0, "Market", "lower"))
Traceback (most recent call last):
...
engine.errors.IllegalAction: SP-BUY-3: there is no Market in the lower row
"""

from __future__ import annotations

from typing import Any

from engine.derivation import Trace
from engine.errors import GameOver, IllegalAction, NotYourTurn
from engine.petersburg.catalog import PHASES, STACKS
from engine.petersburg.costs import DRAWN, HAND, LOWER, SRC, UPPER, affordable, fast_cost, trace_cost
from engine.petersburg.displacement import displaceable, live_targets, shows_every_symbol
from engine.petersburg.legal import (
    hand_limit,
    hand_limit_clause,
    legal_actions,
    observatory_ready,
    pub_capacity,
    to_act,
)
from engine.petersburg.model import (
    ACTION_TYPES,
    Buy,
    Discard,
    Observe,
    Pass,
    Play,
    PubBuy,
    Reveal,
    State,
    Take,
    pending_reveal,
)
from engine.petersburg.names import kind_of, resolve_card
from engine.petersburg.ruleset import Ruleset

__all__ = ["check", "diagnose", "granting_clause"]

_ACTION_CLASSES = frozenset(ACTION_TYPES.values())

NOT_AN_ACTION = "SP-TURN-1"
"""The clause a value that is no Saint Petersburg action is refused under (a turn is one of the actions)."""

MAY_ACT = "SP-TURN-2"
"""The clause of the step every action's grant passes, that its seat may act now (the check that refuses
every other seat)."""


def check(s: State, action: Any, trace: Trace | None = None) -> Any:
    """Return the canonical form of ``action`` if it is legal in ``s``; else raise the specific error.

    With ``trace``, every check the action passes is recorded (the phase, the turn, the source or the hand,
    the displacement, the cost with each reduction and the minimum, the card's scoring): the derivation
    ``GAME.why`` returns; the decision is the same (:func:`diagnose` decides, the legal actions confirm).
    """
    if s.over:
        raise GameOver("SP-END-1", "the game is over")
    if type(action) is Reveal:
        return _check_reveal(s, action, trace)
    player = getattr(action, "player", None)
    if type(action) not in _ACTION_CLASSES or isinstance(player, bool) or not isinstance(player, int):
        raise IllegalAction(NOT_AN_ACTION, f"not a Saint Petersburg action: {action!r}")
    acting = to_act(s)
    if player not in acting:
        if not acting:
            i = pending_reveal(s)
            raise NotYourTurn(
                "SP-REVEAL-1",
                f"seat {player} cannot act: the card drawn from the {STACKS[i]} stack (of unknown order) "
                "must first be revealed (a chance step)",
            )
        if s.pub_queue:
            raise NotYourTurn("SP-PUB-2", f"seat {player} cannot act: seat {acting[0]} decides on the Pub")
        raise NotYourTurn(MAY_ACT, f"seat {player} cannot act: it is seat {acting[0]}'s turn")
    if trace is not None:
        _trace_turn(s, player, trace)
        canon = diagnose(s, action, trace)
        if canon in legal_actions(s, player):
            return canon
        raise IllegalAction("SP-TURN-1", f"{action!r} is not legal here")  # pragma: no cover
    legal = legal_actions(s, player)
    if action in legal:
        return action
    canon = diagnose(s, action)
    if canon in legal:
        return canon
    raise IllegalAction("SP-TURN-1", f"{action!r} is not legal here")


def _trace_turn(s: State, p: int, trace: Trace) -> None:
    """The phase and the turn: the seat may act now (SP-TURN-2, the check that refuses every other seat),
    because it is its turn (SP-PHASE-2), it decides on the Pub (SP-PUB-2) or it must deal with the drawn
    card (SP-OBS-4)."""
    phase = PHASES[s.phase_index].name
    trace.add(
        "SP-PHASE-1", "phase", {"phase": phase, "round": s.round}, note=f"round {s.round}, {phase} phase"
    )
    with trace.step(MAY_ACT, "may-act", {"seat": p}, note=f"seat {p} may act now"):
        if s.pub_queue:
            trace.add("SP-PUB-2", "to-act", {"seat": p}, note=f"seat {p} decides on the Pub now")
        elif s.drawn >= 0:
            trace.add(
                "SP-OBS-4",
                "to-act",
                {"seat": p, "drawn": s.rules.names[s.drawn]},
                note=f"seat {p} must deal with the drawn {s.rules.names[s.drawn]}",
            )
        else:
            first = s.markers[s.phase_index]
            trace.add(
                "SP-PHASE-2",
                "to-act",
                {"seat": p, "first": first},
                note=f"it is seat {p}'s turn (seat {first} started the {phase} phase)",
            )


def granting_clause(s: State, a: Any) -> str:
    """The clause that makes an action of this kind legal: a buy SP-BUY-1 (the Observatory's card SP-OBS-4),
    a play SP-HAND-4, a take SP-HAND-1, a pass SP-TURN-3, ...; a trading card displacing a card that shows
    every symbol SP-TRADE-4, one displacing a card of its own value SP-POTJ-1 (the rule that makes the
    displacement, and so the action, possible).

    >>> from engine.petersburg import GAME, Play
    >>> granting_clause(GAME.new_game(2, seed=1), Play(0, "Market"))
    'SP-HAND-4'
    """
    rs = s.rules
    t = _displaced(rs, getattr(a, "displace", None))
    if t is not None:
        if rs.displace_clause[t] == "SP-POTJ-1":
            return "SP-POTJ-1"
        if shows_every_symbol(rs, t):
            return "SP-TRADE-4"
    if isinstance(a, Buy | Take) and a.source == "drawn":
        return "SP-OBS-4"
    return {
        Buy: "SP-BUY-1",
        Play: "SP-HAND-4",
        Take: "SP-HAND-1",
        Pass: "SP-TURN-3",
        Observe: "SP-OBS-1",
        Discard: "SP-OBS-4",
        PubBuy: "SP-PUB-1",
        Reveal: "SP-REVEAL-1",
    }.get(type(a), "SP-TURN-1")


def _displaced(rs: Ruleset, name: Any) -> int | None:
    """The kind of the card an action names to displace, under any of its names (an edition's or an alias,
    as the checks read it); None when it names none or no card of the game."""
    if name is None:
        return None
    try:
        return kind_of(rs, name, "SP-TRADE-1")
    except IllegalAction:
        return None


def _trace_scores(s: State, k: int, trace: Trace, *, in_hand: bool) -> None:
    """When and how card ``k`` scores: at its colour's phase scoring (SP-SCORE-1..3, SP-SCORE-4), an
    aristocrat also in the final variety bonus (SP-END-4); a card left in hand costs VP (SP-END-7)."""
    rs = s.rules
    name = rs.names[k]
    if in_hand:
        vp = rs.vp_per_hand_card
        trace.add(
            "SP-END-7",
            "scores",
            {"card": name, "vp": vp},
            note=f"in hand {name} scores nothing; still in hand at the end it counts {vp} VP",
        )
        return
    phase = next((ph for ph in PHASES if ph.scores == rs.colour[k]), None)
    if phase is not None:
        trace.add(
            phase.clause,
            "scores",
            {"card": name, "phase": phase.name, "roubles": rs.roubles[k], "vp": rs.vp[k]},
            note=f"{name} scores {rs.roubles[k]} R and {rs.vp[k]} VP at every {phase.name} scoring",
        )
    if rs.colour[k] == rs.variety_colour:
        trace.add(
            "SP-END-4",
            "scores",
            {"card": name},
            note=f"{name} counts towards the aristocrat variety bonus at the end",
        )


def _check_reveal(s: State, a: Reveal, trace: Trace | None = None) -> Reveal:
    i = pending_reveal(s) if s.hidden else -1
    if i < 0:
        raise IllegalAction("SP-REVEAL-1", "no card drawn from a stack of unknown order awaits a reveal")
    rs = s.rules
    k = rs.kind.get(a.card) if isinstance(a.card, str) else None
    if k is None:
        k = resolve_card(a.card) if isinstance(a.card, str) else None
    unknown = s.hidden[i]
    if k is None or k not in unknown:
        shown = rs.names[k] if k is not None else repr(a.card)
        left = ", ".join(sorted({rs.names[u] for u in unknown}))
        raise IllegalAction(
            "SP-REVEAL-1", f"{shown} is not among the {STACKS[i]} stack's unknown cards ({left})"
        )
    if trace is not None:
        trace.add(
            "SP-REVEAL-1",
            "unknown-card",
            {"card": rs.names[k], "stack": STACKS[i]},
            note=f"{rs.names[k]} is among the {STACKS[i]} stack's unknown cards",
        )
    return Reveal(rs.names[k])


def diagnose(s: State, a: Any, trace: Trace | None = None) -> Any:
    """The clause an action of the seat to act breaks (raised as IllegalAction), or the action's canonical
    form (edition names, e.g. for an alias) when it breaks none; ``check`` calls it for an action that is
    not literally among the legal ones, and for every action when a ``trace`` records the checks passed."""
    rs = s.rules
    p = a.player
    if s.pub_queue:
        if not isinstance(a, PubBuy):
            raise IllegalAction("SP-PUB-2", f"seat {p} must first decide how many VP to buy at the Pub")
        if isinstance(a.vp, bool) or not isinstance(a.vp, int) or a.vp < 0:
            raise IllegalAction("SP-PUB-1", f"vp must be an int >= 0, got {a.vp!r}")
        most = pub_capacity(rs, s.areas[p], s.money[p])
        if a.vp <= most:
            if trace is not None:
                trace.add(
                    "SP-PUB-1",
                    "within-capacity",
                    {"vp": a.vp, "most": most},
                    note=f"{a.vp} VP is within the {most} VP seat {p} may buy at the Pub now",
                )
            return PubBuy(p, a.vp)
        raise IllegalAction("SP-PUB-1", f"seat {p} can buy at most {most} VP at the Pub now, not {a.vp}")
    if isinstance(a, PubBuy):
        raise IllegalAction("SP-PUB-1", "Pub purchases are made only right after the building scoring")
    if s.drawn >= 0 and not ((isinstance(a, Buy | Take) and a.source == "drawn") or isinstance(a, Discard)):
        raise IllegalAction(
            "SP-OBS-4", f"seat {p} must first buy, take or discard the drawn {rs.names[s.drawn]}"
        )
    area, hand = s.areas[p], s.hands[p]
    if isinstance(a, Pass):  # (a drawn card awaiting its decision was refused above, SP-OBS-4)
        if trace is not None:
            trace.add("SP-TURN-3", "may-pass", {"seat": p}, note=f"seat {p} may pass")
        return Pass(p)
    if isinstance(a, Discard):
        if s.drawn < 0:  # a turn is one of the four actions; only an Observatory's draw is discarded
            raise IllegalAction(
                "SP-TURN-1",
                "a turn buys, takes into hand, plays from hand or passes: no "
                "card is discarded but one drawn with an Observatory (SP-OBS-4)",
            )
        k = kind_of(rs, a.card, "SP-OBS-4")
        if k != s.drawn:
            raise IllegalAction("SP-OBS-4", f"the drawn card is {rs.names[s.drawn]}, not {rs.names[k]}")
        if trace is not None:
            trace.add(
                "SP-OBS-6",
                "may-discard",
                {"card": rs.names[k]},
                note=f"the drawn {rs.names[k]} may be discarded",
            )
        return Discard(p, rs.names[k])
    if isinstance(a, Observe):
        if observatory_ready(rs, s.phase_index, area, s.turned[p]) < 0:
            if not any(k in area for k in rs.observatory_kinds):
                raise IllegalAction("SP-OBS-1", f"seat {p} has no Observatory")
            if all(rs.obs_phase[k] != s.phase_index for k in rs.observatory_kinds):
                when = " or ".join(sorted({PHASES[rs.obs_phase[k]].name for k in rs.observatory_kinds}))
                raise IllegalAction("SP-OBS-2", f"the Observatory can be used only in the {when} phase")
            raise IllegalAction("SP-OBS-5", f"seat {p}'s Observatory is already turned this round")
        if a.stack not in STACKS:
            raise IllegalAction("SP-OBS-1", f"unknown stack {a.stack!r} (known: {', '.join(STACKS)})")
        if len(s.stacks[STACKS.index(a.stack)]) < 2:
            raise IllegalAction(
                "SP-OBS-3",
                f"the {a.stack} stack has {len(s.stacks[STACKS.index(a.stack)])} "
                "card(s): the Observatory never draws a stack's last card",
            )
        if trace is not None:
            obs = rs.names[observatory_ready(rs, s.phase_index, area, s.turned[p])]
            trace.add(
                "SP-OBS-1",
                "observatory-ready",
                {"card": obs, "seat": p},
                note=f"seat {p} owns an {obs} not turned this round",
            )
            trace.add(
                "SP-OBS-2",
                "building-phase",
                {"phase": PHASES[s.phase_index].name},
                note=f"the Observatory is used in the {PHASES[s.phase_index].name} phase",
            )
            n = len(s.stacks[STACKS.index(a.stack)])
            trace.add(
                "SP-OBS-3",
                "not-last-card",
                {"stack": a.stack, "cards": n},
                note=f"the {a.stack} stack has {n} cards: the top one may be drawn",
            )
        return Observe(p, a.stack)
    # Buy / Take / Play: the card and where it comes from
    k = kind_of(rs, a.card, "SP-HAND-4" if isinstance(a, Play) else "SP-BUY-3")
    if trace is not None and not (isinstance(a, Buy | Take) and a.source == "drawn"):
        phase = PHASES[s.phase_index].name
        trace.add(
            "SP-PHASE-5",
            "any-phase",
            {"card": rs.names[k], "phase": phase},
            note=f"any card may be bought, played or taken in any phase: {rs.names[k]} in the {phase} phase",
        )
    if isinstance(a, Play):
        src = HAND
        if k not in hand:
            raise IllegalAction("SP-HAND-4", f"{rs.names[k]} is not in seat {p}'s hand")
        if trace is not None:
            trace.add(
                "SP-HAND-4",
                "in-hand",
                {"card": rs.names[k], "seat": p},
                note=f"{rs.names[k]} is in seat {p}'s hand",
            )
    else:
        if a.source not in ("upper", "lower", "drawn"):
            raise IllegalAction("SP-BUY-3", f"unknown source {a.source!r} (known: upper, lower, drawn)")
        src = SRC[a.source]
        where = {UPPER: s.upper, LOWER: s.lower, DRAWN: (s.drawn,) if s.drawn >= 0 else ()}[src]
        if k not in where:
            raise IllegalAction(
                "SP-BUY-3",
                f"there is no {rs.names[k]} in the {a.source} row"
                if src != DRAWN
                else f"{rs.names[k]} is not the drawn card",
            )
        if trace is not None:
            trace.add(
                "SP-BUY-3" if src != DRAWN else "SP-OBS-4",
                "in-row",
                {"card": rs.names[k], "source": a.source},
                note=f"{rs.names[k]} lies in the {a.source} row"
                if src != DRAWN
                else f"{rs.names[k]} is the drawn card",
            )
    if isinstance(a, Take):
        limit = hand_limit(rs, area)
        if len(hand) >= limit:
            clause = "SP-HAND-3" if len(hand) > limit else rs.hand_clause
            raise IllegalAction(clause, f"seat {p} holds {len(hand)} cards; the hand limit is {limit}")
        if trace is not None:
            trace.add(
                hand_limit_clause(rs, area),
                "room-in-hand",
                {"held": len(hand), "limit": limit},
                note=f"seat {p} holds {len(hand)} of {limit} cards",
            )
            if rs.is_trading[k]:
                trace.add(
                    "SP-HAND-5",
                    "no-target-needed",
                    {"card": rs.names[k]},
                    note=f"{rs.names[k]} needs a card to displace only when it is played",
                )
            _trace_scores(s, k, trace, in_hand=True)
        return Take(p, rs.names[k], a.source)
    t = -1
    if rs.is_trading[k]:
        if a.displace is None:
            if not live_targets(rs, area, s.turned[p], k):
                raise IllegalAction("SP-TRADE-1", f"{rs.names[k]} has no card to displace in seat {p}'s area")
            raise IllegalAction("SP-TRADE-1", f"{rs.names[k]} is a trading card: name the card it displaces")
        t = kind_of(rs, a.displace, "SP-TRADE-1")
        ok, clause, reason = displaceable(rs, k, t)
        if not ok:
            raise IllegalAction(clause, reason)
        if t not in area:
            raise IllegalAction("SP-TRADE-1", f"seat {p} has no {rs.names[t]} to displace")
        if area.count(t) <= s.turned[p].count(t):
            raise IllegalAction("SP-OBS-5", f"a turned {rs.names[t]} cannot be displaced")
        if trace is not None:
            trace.add(
                "SP-TRADE-1",
                "displaces",
                {"card": rs.names[k], "displace": rs.names[t]},
                note=f"{rs.names[k]} displaces the {rs.names[t]} seat {p} owns",
            )
            trace.add(
                clause,
                "may-displace",
                {"card": rs.names[k], "displace": rs.names[t], "subject": rs.names[t]},
                note=reason,
            )
    elif a.displace is not None:
        raise IllegalAction("SP-TRADE-1", f"{rs.names[k]} is not a trading card and displaces nothing")
    if trace is not None:
        cost = trace_cost(rs, area, k, src, t, money=s.money[p], trace=trace)
    else:
        cost = fast_cost(rs, area, k, src, t)
    if not affordable(rs, cost, s.money[p]):
        raise IllegalAction("SP-BUY-2", f"{rs.names[k]} costs {cost}, seat {p} has {s.money[p]}")
    if trace is not None:
        _trace_scores(s, k, trace, in_hand=False)
    d = rs.names[t] if t >= 0 else None
    return Play(p, rs.names[k], d) if isinstance(a, Play) else Buy(p, rs.names[k], a.source, d)
