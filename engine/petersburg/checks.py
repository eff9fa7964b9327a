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

from engine.errors import GameOver, IllegalAction, NotYourTurn
from engine.petersburg.catalog import STACKS
from engine.petersburg.costs import DRAWN, HAND, LOWER, SRC, UPPER, fast_cost
from engine.petersburg.displacement import displaceable, live_targets
from engine.petersburg.legal import hand_limit, legal_actions, observatory_ready, pub_capacity, to_act
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

__all__ = ["check", "diagnose"]

_ACTION_CLASSES = frozenset(ACTION_TYPES.values())


def check(s: State, action: Any) -> Any:
    """Return the canonical form of ``action`` if it is legal in ``s``; else raise the specific error."""
    if s.over:
        raise GameOver("SP-END-1", "the game is over")
    if type(action) is Reveal:
        return _check_reveal(s, action)
    player = getattr(action, "player", None)
    if type(action) not in _ACTION_CLASSES or isinstance(player, bool) or not isinstance(player, int):
        raise IllegalAction("SP-TURN-1", f"not a Saint Petersburg action: {action!r}")
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
        raise NotYourTurn("SP-TURN-2", f"seat {player} cannot act: it is seat {acting[0]}'s turn")
    legal = legal_actions(s, player)
    if action in legal:
        return action
    canon = diagnose(s, action)
    if canon in legal:
        return canon
    raise IllegalAction("SP-TURN-1", f"{action!r} is not legal here")


def _check_reveal(s: State, a: Reveal) -> Reveal:
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
    return Reveal(rs.names[k])


def diagnose(s: State, a: Any) -> Any:
    """The clause an action of the seat to act breaks (raised as IllegalAction), or the action's canonical
    form (edition names, e.g. for an alias) when it breaks none; ``check`` calls it for an action that is
    not literally among the legal ones."""
    rs = s.rules
    p = a.player
    if s.pub_queue:
        if not isinstance(a, PubBuy):
            raise IllegalAction("SP-PUB-2", f"seat {p} must first decide how many VP to buy at the Pub")
        if isinstance(a.vp, bool) or not isinstance(a.vp, int) or a.vp < 0:
            raise IllegalAction("SP-PUB-1", f"vp must be an int >= 0, got {a.vp!r}")
        most = pub_capacity(rs, s.areas[p], s.money[p])
        raise IllegalAction("SP-PUB-1", f"seat {p} can buy at most {most} VP at the Pub now, not {a.vp}")
    if isinstance(a, PubBuy):
        raise IllegalAction("SP-PUB-1", "Pub purchases are made only right after the building scoring")
    if s.drawn >= 0 and not ((isinstance(a, Buy | Take) and a.source == "drawn") or isinstance(a, Discard)):
        raise IllegalAction(
            "SP-OBS-4", f"seat {p} must first buy, take or discard the drawn {rs.names[s.drawn]}"
        )
    area, hand = s.areas[p], s.hands[p]
    if isinstance(a, Pass):
        raise IllegalAction("SP-OBS-4", "cannot pass with a drawn card pending")  # pragma: no cover
    if isinstance(a, Discard):
        if s.drawn < 0:  # a turn is one of the four actions; only an Observatory's draw is discarded
            raise IllegalAction("SP-TURN-1", "a turn buys, takes into hand, plays from hand or passes: no "
                                "card is discarded but one drawn with an Observatory (SP-OBS-4)")
        k = kind_of(rs, a.card, "SP-OBS-4")
        if k != s.drawn:
            raise IllegalAction("SP-OBS-4", f"the drawn card is {rs.names[s.drawn]}, not {rs.names[k]}")
        return Discard(p, rs.names[k])
    if isinstance(a, Observe):
        if observatory_ready(rs, s.phase_index, area, s.turned[p]) < 0:
            if any(rs.obs_phase[k] >= 0 and k in area for k in rs.observatory_kinds) and all(
                rs.obs_phase[k] != s.phase_index for k in rs.observatory_kinds
            ):
                raise IllegalAction("SP-OBS-2", "the Observatory can be used only in the building phase")
            if not any(k in area for k in rs.observatory_kinds):
                raise IllegalAction("SP-OBS-1", f"seat {p} has no Observatory")
            if all(rs.obs_phase[k] != s.phase_index for k in rs.observatory_kinds):
                raise IllegalAction("SP-OBS-2", "the Observatory can be used only in the building phase")
            raise IllegalAction("SP-OBS-5", f"seat {p}'s Observatory is already turned this round")
        if a.stack not in STACKS:
            raise IllegalAction("SP-OBS-1", f"unknown stack {a.stack!r} (known: {', '.join(STACKS)})")
        if len(s.stacks[STACKS.index(a.stack)]) < 2:
            raise IllegalAction(
                "SP-OBS-3",
                f"the {a.stack} stack has {len(s.stacks[STACKS.index(a.stack)])} "
                "card(s): the Observatory never draws a stack's last card",
            )
        raise IllegalAction("SP-OBS-1", f"{a!r} is not legal here")  # pragma: no cover
    # Buy / Take / Play: the card and where it comes from
    k = kind_of(rs, a.card, "SP-HAND-4" if isinstance(a, Play) else "SP-BUY-3")
    if isinstance(a, Play):
        src = HAND
        if k not in hand:
            raise IllegalAction("SP-HAND-4", f"{rs.names[k]} is not in seat {p}'s hand")
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
    if isinstance(a, Take):
        limit = hand_limit(rs, area)
        if len(hand) >= limit:
            clause = "SP-HAND-3" if len(hand) > limit else "SP-HAND-2"
            raise IllegalAction(clause, f"seat {p} holds {len(hand)} cards; the hand limit is {limit}")
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
    elif a.displace is not None:
        raise IllegalAction("SP-TRADE-1", f"{rs.names[k]} is not a trading card and displaces nothing")
    cost = fast_cost(rs, area, k, src, t)
    if cost > s.money[p]:
        raise IllegalAction("SP-BUY-2", f"{rs.names[k]} costs {cost}, seat {p} has {s.money[p]}")
    d = rs.names[t] if t >= 0 else None
    return Play(p, rs.names[k], d) if isinstance(a, Play) else Buy(p, rs.names[k], a.source, d)
