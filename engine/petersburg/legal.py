"""Who must act and what they may do: :func:`to_act`, :func:`legal_actions` (the hot path), the chance
outcomes :func:`reveals`, and the facts both tiers read (hand limit, Pub capacity, a ready Observatory).

Legal actions are interned: each ruleset keeps, per seat, one action object per distinct action
(``rules.cache``, a memo), keyed by a small int; and, per seat, the costs :func:`fast_cost` gave for the
seat's area under the same keys (``rules.costs``, a memo of a pure function, dropped when the area
changes).  A buy or a play packs its card, its source and the displaced card::

    bit   13 ......... 8   7  6   5 ......... 0
          card kind (k)    src    displaced kind + 1 (t + 1; 0 = none)

in ``KIND_BITS`` = 6 bits per kind, which is why a catalog holds at most ``MAX_KINDS`` = 63 kinds (checked
when ``cards.toml`` loads, :mod:`engine.petersburg.catalog`); every other action lives in a key space of its
own, from ``1 << 20`` up, above every buy and play.

>>> from engine.petersburg import GAME
>>> s = GAME.new_game(2, seed=1)
>>> to_act(s), legal_actions(s, 0)[:2]
((0,), (Pass(player=0), Buy(player=0, card='Shepherd', source='upper', displace=None)))
"""

from __future__ import annotations

from typing import Any

from engine.petersburg.catalog import KIND_BITS, PARAM_CLAUSES, PARAMS, STACKS
from engine.petersburg.costs import DRAWN, HAND, LOWER, UPPER, fast_cost
from engine.petersburg.displacement import live_targets
from engine.petersburg.model import (
    SOURCES,
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
from engine.petersburg.ruleset import Ruleset

__all__ = [
    "action_key",
    "hand_limit",
    "hand_limit_clause",
    "legal_actions",
    "observatory_ready",
    "pub_capacity",
    "pub_rate",
    "reveals",
    "to_act",
]

HAND_LIMIT = PARAMS["hand_limit"]
HAND_CLAUSE = PARAM_CLAUSES["hand_limit"]
"""The shipped tables' base hand limit and its clause; the interpreter reads a ruleset's own
(``rs.hand_base``, ``rs.hand_clause``)."""
"""The base hand limit and its clause (phases.toml's ``hand_limit`` row, SP-HAND-2)."""
_SRC_SHIFT = KIND_BITS
_CARD_SHIFT = KIND_BITS + 2
# the key spaces of the other actions (a buy or a play is keyed below 1 << 14)
_K_TAKE = 1 << 20
_K_PASS = 3 << 20
_K_DISCARD = 4 << 20
_K_OBSERVE = 5 << 20
_K_PUB = 6 << 20


def action_key(k: int, src: int, t: int = -1) -> int:
    """The interning key of a buy (``src`` a row or the drawn card) or a play (``src`` the hand) of kind
    ``k`` displacing kind ``t`` (-1: none); :func:`legal_actions` computes the same inline.

    >>> action_key(1, LOWER, 0) == 1 << 8 | 1 << 6 | 1
    True
    """
    return k << _CARD_SHIFT | src << _SRC_SHIFT | (t + 1)


def hand_limit(rs: Ruleset, area: tuple[int, ...]) -> int:
    """A hand limit with this area: 3 (SP-HAND-2), more with a hand_limit effect (SP-WAREHOUSE-1)."""
    limit = rs.hand_base
    for k in rs.hand_limit_kinds:
        if k in area:
            limit = max(limit, rs.hand_limit[k])
    return limit


def hand_limit_clause(rs: Ruleset, area: tuple[int, ...]) -> str:
    """The clause of this area's hand limit: the effect's of the card that raises it most
    (SP-WAREHOUSE-1), else the base limit's (SP-HAND-2).

    >>> from engine.petersburg.ruleset import ruleset
    >>> rs = ruleset()
    >>> hand_limit_clause(rs, ()), hand_limit_clause(rs, (rs.kind["Warehouse"],))
    ('SP-HAND-2', 'SP-WAREHOUSE-1')
    """
    limit, clause = rs.hand_base, rs.hand_clause
    for k in rs.hand_limit_kinds:
        if k in area and rs.hand_limit[k] > limit:
            limit, clause = rs.hand_limit[k], rs.effect_clause[k] or rs.hand_clause
    return clause


def to_act(s: State) -> tuple[int, ...]:
    """The seat that must act now (one at a time), or ``()`` when the game is over or a card drawn from a
    stack of unknown order awaits its :class:`Reveal` (phase ``reveal``, a chance step)."""
    if s.over:
        return ()
    if s.hidden and pending_reveal(s) >= 0:
        return ()
    if s.pub_queue:
        return (s.pub_queue[0],)
    return (s.turn,)


def legal_actions(s: State, p: int) -> tuple[Any, ...]:
    """Every legal action of seat ``p`` now, in canonical order (pass first), interned (see the module)."""
    if s.over or (s.hidden and pending_reveal(s) >= 0):
        return ()
    rs = s.rules
    pubq = s.pub_queue
    if pubq:
        if p != pubq[0]:  # SP-PUB-2: the Pub's owners decide one at a time, in the queue's order
            return ()
        pcache = _seat_cache(rs, p)
        pubs: list[Any] = []
        for n in range(pub_capacity(rs, s.areas[p], s.money[p]) + 1):
            pa = pcache.get(_K_PUB | n)
            if pa is None:
                pa = pcache[_K_PUB | n] = PubBuy(p, n)
            pubs.append(pa)
        return tuple(pubs)
    if p != s.turn:  # SP-TURN-2: only the seat whose turn it is acts
        return ()
    cache = _seat_cache(rs, p)
    names = rs.names
    area = s.areas[p]
    money = s.money[p] + rs.afford  # SP-BUY-2 (costs.affordable, once per seat): a card costing at most this
    hand = s.hands[p]
    turned = s.turned[p]
    room = len(hand) < rs.hand_base or len(hand) < hand_limit(rs, area)  # no limit is below the base
    memo = rs.costs.get(p)
    if memo is None or memo[0] is not area:
        memo = rs.costs[p] = (area, {})
    costs = memo[1]
    is_trading = rs.is_trading
    drawn = s.drawn
    out: list[Any] = []
    sources: tuple[tuple[int, tuple[int, ...]], ...]
    if drawn >= 0:  # the Observatory's card: buy, take or discard it (SP-OBS-4)
        sources = ((DRAWN, (drawn,)),)
        a = cache.get(_K_DISCARD | drawn)
        if a is None:
            a = cache[_K_DISCARD | drawn] = Discard(p, names[drawn])
        out.append(a)
    else:
        a = cache.get(_K_PASS)
        if a is None:
            a = cache[_K_PASS] = Pass(p)
        out.append(a)
        # buying from a row and playing from the hand share one loop; the hand is a source whose
        # purchases are Play actions and from which nothing is taken
        sources = ((UPPER, s.upper), (LOWER, s.lower), (HAND, hand))
    for src, row in sources:
        playing = src == HAND
        base = src << _SRC_SHIFT
        for k in dict.fromkeys(row) if len(row) > 1 else row:  # each card once, copies skipped
            if is_trading[k]:
                for t in live_targets(rs, area, turned, k):
                    key = k << _CARD_SHIFT | base | (t + 1)
                    cost = costs.get(key)
                    if cost is None:
                        cost = costs[key] = fast_cost(rs, area, k, src, t)
                    if cost <= money:
                        a = cache.get(key)
                        if a is None:
                            a = cache[key] = (
                                Play(p, names[k], names[t])
                                if playing
                                else Buy(p, names[k], SOURCES[src], names[t])
                            )
                        out.append(a)
            else:
                key = k << _CARD_SHIFT | base
                cost = costs.get(key)
                if cost is None:
                    cost = costs[key] = fast_cost(rs, area, k, src)
                if cost <= money:
                    a = cache.get(key)
                    if a is None:
                        a = cache[key] = (
                            Play(p, names[k], None) if playing else Buy(p, names[k], SOURCES[src], None)
                        )
                    out.append(a)
            if room and not playing:
                key = _K_TAKE | k << 2 | src
                a = cache.get(key)
                if a is None:
                    a = cache[key] = Take(p, names[k], SOURCES[src])
                out.append(a)
    if drawn != -1:  # a drawn card awaits its decision (-1: none): the seat turns no Observatory now
        return tuple(out)
    if rs.observatory_kinds and observatory_ready(rs, s.phase_index, area, turned) >= 0:
        for st, stack in enumerate(s.stacks):
            if len(stack) >= 2:  # SP-OBS-3: never a stack's last card
                a = cache.get(_K_OBSERVE | st)
                if a is None:
                    a = cache[_K_OBSERVE | st] = Observe(p, STACKS[st])
                out.append(a)
    return tuple(out)


def reveals(s: State) -> tuple[Reveal, ...]:
    """The legal chance outcomes now: one :class:`Reveal` per distinct unknown card of the stack being
    drawn from (SP-REVEAL-1), in kind order; ``()`` outside phase ``reveal``.

    >>> from engine.petersburg import position
    >>> s = position(players=2, phase="reveal", upper=["?building"], unknown={"building": ["Pub", "Market"]})
    >>> reveals(s)
    (Reveal(card='Market'), Reveal(card='Pub'))
    """
    if s.over or not s.hidden:
        return ()
    i = pending_reveal(s)
    if i < 0:
        return ()
    names = s.rules.names
    return tuple(Reveal(names[k]) for k in sorted(set(s.hidden[i])))


def _seat_cache(rs: Ruleset, p: int) -> dict[int, Any]:
    cache: dict[int, Any] | None = rs.cache.get(p)
    if cache is None:
        cache = rs.cache[p] = {}
    return cache


def observatory_ready(rs: Ruleset, phase: int, area: tuple[int, ...], turned: tuple[int, ...]) -> int:
    """An Observatory kind the player may turn in this phase (owned, not every copy turned), or -1
    (SP-OBS-1, SP-OBS-2, SP-OBS-5)."""
    for k in rs.observatory_kinds:
        if rs.obs_phase[k] == phase and k in area and area.count(k) > turned.count(k):
            return k
    return -1


def pub_capacity(rs: Ruleset, area: tuple[int, ...], money: int) -> int:
    """The most VP the owner can buy at their Pubs now: min(sum of max_vp, money // rate) (SP-PUB-1); 0
    without a Pub.  A seat whose capacity is 0 is not asked (SP-PUB-2)."""
    most = 0
    rate = 0
    for k in rs.pub_kinds:
        n = area.count(k)
        if n:
            most += n * rs.pub_max[k]
            rate = max(rate, rs.pub_rate[k])
    if not most:
        return 0
    return min(most, money // rate)


def pub_rate(rs: Ruleset, area: tuple[int, ...]) -> int:
    """The roubles a VP costs at the owner's Pubs (SP-PUB-1); 0 without a Pub."""
    return max((rs.pub_rate[k] for k in rs.pub_kinds if k in area), default=0)
