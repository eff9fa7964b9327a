"""The Saint Petersburg interpreter: costs, legal actions, checks and transitions (set-up: ``setup.py``).

One transition function (:func:`transition`) serves both API tiers; :func:`check` finds the clause an
illegal action breaks.  The interpreter reads the ruleset's per-card tables (compiled from the data and
the effect handlers); it never looks at a card's name or index.

Cost: :func:`cost_breakdown` is the derivation; :func:`fast_cost` is the hot-path arithmetic the engine
charges, and a property test checks the two agree on every legal buy and play.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import GameOver, IllegalAction, NotYourTurn
from engine.petersburg.catalog import (
    FINAL,
    PARAMS,
    PHASES,
    STACKS,
    VARIETY,
    Ruleset,
    resolve_card,
    ruleset,
    variety_bonus,
)
from engine.petersburg.model import (
    I_AREAS,
    I_DISCARD,
    I_DRAWN,
    I_HANDS,
    I_HIDDEN,
    I_LAST,
    I_LOWER,
    I_MARKERS,
    I_MONEY,
    I_OVER,
    I_PASSES,
    I_PHASE,
    I_PUBQ,
    I_ROUND,
    I_STACKS,
    I_TURN,
    I_TURNED,
    I_UPPER,
    I_VP,
    Buy,
    CostBreakdown,
    Discard,
    Observe,
    Pass,
    Play,
    PubBuy,
    Reduction,
    Reveal,
    State,
    Take,
    card_name,
    pending_reveal,
)

VARIETY_CAP = len(VARIETY) - 1
"""The most different aristocrats the variety bonus counts (SP-END-5)."""
BOARD = PARAMS["board_cards"]
HAND_LIMIT = PARAMS["hand_limit"]
MIN_COST = PARAMS["minimum_cost"]
LOWER_DISCOUNT = PARAMS["lower_row_discount"]
SAME_DISCOUNT = PARAMS["identical_discount"]
SRC = {"upper": 0, "lower": 1, "drawn": 2, "hand": 3}
UPPER, LOWER, DRAWN, HAND = 0, 1, 2, 3
Log = list[str] | None

# ============================================================================================ costs


def hand_limit(rs: Ruleset, area: tuple[int, ...]) -> int:
    """The hand limit of a player with this area: 3, or more with a hand_limit effect (SP-WAREHOUSE-1)."""
    limit = HAND_LIMIT
    for k in rs.hand_limit_kinds:
        if k in area and rs.hand_limit[k] > limit:
            limit = rs.hand_limit[k]
    return limit


def fast_cost(rs: Ruleset, area: tuple[int, ...], k: int, src: int, target: int) -> int:
    """The cost the engine charges (hot path; equal to ``cost_breakdown(...).cost``)."""
    c = rs.cost[k]
    if target >= 0:
        c -= rs.dval[target]
    if area:
        c -= area.count(k) * SAME_DISCOUNT
        for r, amount in rs.reducers_for[k]:
            c -= area.count(r) * amount
    if src == LOWER:
        c -= LOWER_DISCOUNT
    return c if c > MIN_COST else MIN_COST


def cost_breakdown(
    state: State, player: int, card: str, *, source: str, displace: str | None = None
) -> CostBreakdown:
    """The full derivation of what ``player`` pays for ``card`` from ``source`` now.

    ``source`` is ``upper``, ``lower``, ``drawn`` (the Observatory's card) or ``hand``.  A trading card
    needs ``displace`` (the card it would replace); the derivation does not check that the card is
    actually there (see :func:`displacement_targets`).  Raises IllegalAction for an unknown card, a
    trading card without ``displace`` or another card with one.

    >>> from engine.petersburg import GAME
    >>> s = GAME.new_game(2, seed=1)
    >>> b = cost_breakdown(s, 0, "Lumberjack", source="lower")
    >>> (b.printed, [r.amount for r in b.reductions], b.cost)
    (3, [1], 2)
    """
    rs = state.rules
    k = _kind(rs, card, "SP-BUY-3")
    if source not in SRC:
        raise IllegalAction("SP-BUY-3", f"unknown source {source!r} (known: {', '.join(SRC)})")
    area = state.areas[player]
    t = -1
    dclause = None
    if rs.is_trading[k]:
        if displace is None:
            raise IllegalAction("SP-TRADE-1", f"{rs.names[k]} is a trading card: name the card it displaces")
        t = _kind(rs, displace, "SP-TRADE-1")
        dclause = rs.displace_clause[t]
    elif displace is not None:
        raise IllegalAction("SP-TRADE-1", f"{rs.names[k]} is not a trading card and displaces nothing")
    reductions = []
    same = area.count(k)
    if same:
        reductions.append(
            Reduction(same * SAME_DISCOUNT, "SP-COST-2", f"for {same} identical {rs.names[k]} owned")
        )
    if SRC[source] == LOWER:
        reductions.append(Reduction(LOWER_DISCOUNT, "SP-COST-3", "from the lower row"))
    for r, amount in rs.reducers_for[k]:
        n = area.count(r)
        if n:
            clause = rs.reducer_clause if rs.is_trading[k] else "SP-COST-4"
            reductions.append(Reduction(n * amount, clause, f"for {rs.names[r]} owned"))
    raw = rs.cost[k] - (rs.dval[t] if t >= 0 else 0) - sum(r.amount for r in reductions)
    cost = max(raw, MIN_COST)
    money = state.money[player]
    return CostBreakdown(
        card=rs.names[k],
        source=source,
        printed=rs.cost[k],
        displace=rs.names[t] if t >= 0 else None,
        displace_value=rs.dval[t] if t >= 0 else 0,
        displace_clause=dclause,
        reductions=tuple(reductions),
        minimum=MIN_COST,
        cost=cost,
        money=money,
        affordable=cost <= money,
    )


def _kind(rs: Ruleset, name: Any, clause: str) -> int:
    k = rs.kind.get(name) if isinstance(name, str) else None
    if k is None:
        k = resolve_card(name) if isinstance(name, str) else None
        if k is None:
            raise IllegalAction(clause, f"no card called {name!r}")
    return k


# ============================================================================================ displacement


def can_displace(trading_card: str, target: str, *, variant: str | None = None) -> tuple[bool, str, str]:
    """Whether ``trading_card`` may ever displace ``target`` (the pairing and colour-rule tables).

    Returns ``(ok, clause id, reason)``.

    >>> can_displace("Fur Shop", "Fur Trapper")
    (True, 'SP-TRADE-3', 'Fur Shop displaces Fur Trapper')
    >>> can_displace("Wharf", "Czar and Carpenter")[:2]
    (True, 'SP-TRADE-4')
    >>> can_displace("Bank", "Harbor")
    (False, 'SP-TRADE-5', 'Harbor is a trading card: a trading card never displaces another')
    """
    rs = ruleset(variant)
    k = _kind(rs, trading_card, "SP-TRADE-1")
    t = _kind(rs, target, "SP-TRADE-1")
    return _can_displace(rs, k, t)


def _can_displace(rs: Ruleset, k: int, t: int) -> tuple[bool, str, str]:
    name, tname = rs.names[k], rs.names[t]
    if not rs.is_trading[k]:
        return False, "SP-TRADE-1", f"{name} is not a trading card"
    if rs.is_trading[t]:
        return False, "SP-TRADE-5", f"{tname} is a trading card: a trading card never displaces another"
    if rs.colour[t] != rs.colour[k]:
        return False, "SP-TRADE-1", f"{name} displaces only a card of its colour; {tname} is another colour"
    if t not in rs.targets_of[k]:
        return False, "SP-TRADE-3", f"{name} displaces only a worker with its symbol, not {tname}"
    if len(rs.cards[t].symbols) > 1:
        return True, "SP-TRADE-4", f"{tname} shows every symbol: {name} may displace it"
    clause = "SP-TRADE-3" if rs.cards[t].symbols else "SP-TRADE-2"
    return True, clause, f"{name} displaces {tname}"


def displacement_targets(state: State, player: int, trading_card: str) -> tuple[str, ...]:
    """The distinct cards in ``player``'s area that ``trading_card`` may displace now (a turned
    Observatory cannot be displaced, SP-OBS-5).

    >>> from engine.petersburg import GAME
    >>> displacement_targets(GAME.new_game(2, seed=1), 0, "Fur Shop")
    ()
    """
    rs = state.rules
    k = _kind(rs, trading_card, "SP-TRADE-1")
    return tuple(rs.names[t] for t in _targets(rs, state.areas[player], state.turned[player], k))


def _targets(rs: Ruleset, area: tuple[int, ...], turned: tuple[int, ...], k: int) -> tuple[int, ...]:
    out = []
    for t in rs.targets_of[k]:
        if t in area and (not turned or area.count(t) > turned.count(t)):
            out.append(t)
    return tuple(out)


# ============================================================================================ legal actions


def to_act(s: Any) -> tuple[int, ...]:
    """The seat that must act now (one at a time), or ``()`` when the game is over or a card drawn from a
    stack of unknown order awaits its :class:`Reveal` (phase ``reveal``, a chance step)."""
    if s[I_OVER]:
        return ()
    if s[I_HIDDEN] and pending_reveal(s) >= 0:
        return ()
    if s[I_PUBQ]:
        return (s[I_PUBQ][0],)
    return (s[I_TURN],)


def legal_actions(s: Any, p: int) -> tuple[Any, ...]:
    """Every legal action of seat ``p`` now, in canonical order (pass first).

    Action objects are interned per ruleset and seat (``rules.cache``), keyed by small ints:
    buy ``k << 8 | src << 6 | (t + 1)``, take ``TAKE | k << 2 | src``, play ``PLAY | k << 6 | (t + 1)``.
    """
    if s[I_OVER] or (s[I_HIDDEN] and pending_reveal(s) >= 0):
        return ()
    rs: Ruleset = s[0]
    pubq = s[I_PUBQ]
    if pubq:
        if p != pubq[0]:
            return ()
        most = pub_capacity(rs, s[I_AREAS][p], s[I_MONEY][p])
        pcache = _seat_cache(rs, p)
        pubs: list[Any] = []
        for n in range(most + 1):
            pa = pcache.get(_K_PUB | n)
            if pa is None:
                pa = pcache[_K_PUB | n] = PubBuy(p, n)
            pubs.append(pa)
        return tuple(pubs)
    if p != s[I_TURN]:
        return ()
    cache = _seat_cache(rs, p)
    names = rs.names
    area = s[I_AREAS][p]
    money = s[I_MONEY][p]
    hand = s[I_HANDS][p]
    turned = s[I_TURNED][p]
    limit = HAND_LIMIT
    for k in rs.hand_limit_kinds:
        if k in area and rs.hand_limit[k] > limit:
            limit = rs.hand_limit[k]
    room = len(hand) < limit
    is_trading = rs.is_trading
    drawn = s[I_DRAWN]
    out: list[Any] = []
    if drawn >= 0:
        rows: tuple[tuple[int, tuple[int, ...]], ...] = ((DRAWN, (drawn,)),)
        a = cache.get(_K_DISCARD | drawn)
        if a is None:
            a = cache[_K_DISCARD | drawn] = Discard(p, names[drawn])
        out.append(a)
    else:
        a = cache.get(_K_PASS)
        if a is None:
            a = cache[_K_PASS] = Pass(p)
        out.append(a)
        rows = ((UPPER, s[I_UPPER]), (LOWER, s[I_LOWER]))
    cost = rs.cost
    dval = rs.dval
    reducers_for = rs.reducers_for
    targets_of = rs.targets_of
    # buying from a row and playing from the hand share one cost loop; the hand is a source without the
    # lower-row discount whose purchases are Play actions (and from which nothing is taken)
    sources = rows if drawn >= 0 else (*rows, (HAND, hand))
    for src, row in sources:
        lower = LOWER_DISCOUNT if src == LOWER else 0
        playing = src == HAND
        for i, k in enumerate(row):
            if row.index(k) != i:  # a copy of a card already listed
                continue
            # the cost arithmetic of fast_cost, inlined (a property test checks it against cost_breakdown)
            c = cost[k] - lower
            if area:
                c -= area.count(k) * SAME_DISCOUNT
                for r, amount in reducers_for[k]:
                    c -= area.count(r) * amount
            if is_trading[k]:
                for t in targets_of[k]:
                    if t in area and (not turned or area.count(t) > turned.count(t)):
                        ct = c - dval[t]
                        if (ct if ct > MIN_COST else MIN_COST) <= money:
                            key = k << 8 | src << 6 | (t + 1)
                            a = cache.get(key)
                            if a is None:
                                a = cache[key] = (
                                    Play(p, names[k], names[t])
                                    if playing
                                    else Buy(p, names[k], _SRC_NAMES[src], names[t])
                                )
                            out.append(a)
            elif (c if c > MIN_COST else MIN_COST) <= money:
                key = k << 8 | src << 6
                a = cache.get(key)
                if a is None:
                    a = cache[key] = (
                        Play(p, names[k], None) if playing else Buy(p, names[k], _SRC_NAMES[src], None)
                    )
                out.append(a)
            if room and not playing:
                key = _K_TAKE | k << 2 | src
                a = cache.get(key)
                if a is None:
                    a = cache[key] = Take(p, names[k], _SRC_NAMES[src])
                out.append(a)
    if drawn >= 0:
        return tuple(out)
    if rs.observatory_kinds and _observatory_ready(rs, s[I_PHASE], area, turned) >= 0:
        for st, stack in enumerate(s[I_STACKS]):
            if len(stack) >= 2:
                a = cache.get(_K_OBSERVE | st)
                if a is None:
                    a = cache[_K_OBSERVE | st] = Observe(p, STACKS[st])
                out.append(a)
    return tuple(out)


# interned-action key spaces (see legal_actions); card kinds < 64, so the spaces never overlap.  A buy or a
# play is keyed ``kind << 8 | source << 6 | target + 1`` (the hand is source 3), below every space here.
_K_TAKE = 1 << 20
_K_PASS = 3 << 20
_K_DISCARD = 4 << 20
_K_OBSERVE = 5 << 20
_K_PUB = 6 << 20


def reveals(s: Any) -> tuple[Reveal, ...]:
    """The legal chance outcomes now: one :class:`Reveal` per distinct unknown card of the stack being
    drawn from (SP-REVEAL-1), in kind order; ``()`` outside phase ``reveal``.

    >>> from engine.petersburg import position
    >>> s = position(players=2, phase="reveal", upper=["?building"], unknown={"building": ["Pub", "Market"]})
    >>> reveals(s)
    (Reveal(card='Market'), Reveal(card='Pub'))
    """
    if s[I_OVER] or not s[I_HIDDEN]:
        return ()
    i = pending_reveal(s)
    if i < 0:
        return ()
    names = s[0].names
    return tuple(Reveal(names[k]) for k in sorted(set(s[I_HIDDEN][i])))


def _seat_cache(rs: Ruleset, p: int) -> dict[int, Any]:
    cache: dict[int, Any] | None = rs.cache.get(p)
    if cache is None:
        cache = rs.cache[p] = {}
    return cache


_SRC_NAMES = ("upper", "lower", "drawn", "hand")


def _observatory_ready(rs: Ruleset, phase: int, area: tuple[int, ...], turned: tuple[int, ...]) -> int:
    """An Observatory kind the player may turn in this phase, or -1."""
    for k in rs.observatory_kinds:
        if rs.obs_phase[k] == phase and k in area and area.count(k) > turned.count(k):
            return k
    return -1


def pub_capacity(rs: Ruleset, area: tuple[int, ...], money: int) -> int:
    """The most VP the owner can buy at their Pubs now: min(sum of max_vp, money // rate) (SP-PUB-1)."""
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


def _pub_rate(rs: Ruleset, area: tuple[int, ...]) -> int:
    return max((rs.pub_rate[k] for k in rs.pub_kinds if k in area), default=0)


# ============================================================================================ checking


def check(s: Any, action: Any) -> Any:
    """Return the canonical form of ``action`` if it is legal in ``s``; else raise the specific error."""
    if s[I_OVER]:
        raise GameOver("SP-END-1", "the game is over")
    if type(action) is Reveal:
        return _check_reveal(s, action)
    player = getattr(action, "player", None)
    if type(action) not in _TRANSITIONS or isinstance(player, bool) or not isinstance(player, int):
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
        if s[I_PUBQ]:
            raise NotYourTurn("SP-PUB-2", f"seat {player} cannot act: seat {acting[0]} decides on the Pub")
        raise NotYourTurn("SP-TURN-2", f"seat {player} cannot act: it is seat {acting[0]}'s turn")
    legal = legal_actions(s, player)
    if action in legal:
        return action
    canon = _diagnose(s, action)
    if canon in legal:
        return canon
    raise IllegalAction("SP-TURN-1", f"{action!r} is not legal here")


def _check_reveal(s: Any, a: Reveal) -> Reveal:
    i = pending_reveal(s) if s[I_HIDDEN] else -1
    if i < 0:
        raise IllegalAction("SP-REVEAL-1", "no card drawn from a stack of unknown order awaits a reveal")
    rs: Ruleset = s[0]
    k = rs.kind.get(a.card) if isinstance(a.card, str) else None
    if k is None:
        k = resolve_card(a.card) if isinstance(a.card, str) else None
    unknown = s[I_HIDDEN][i]
    if k is None or k not in unknown:
        shown = rs.names[k] if k is not None else repr(a.card)
        left = ", ".join(sorted({rs.names[u] for u in unknown}))
        raise IllegalAction(
            "SP-REVEAL-1", f"{shown} is not among the {STACKS[i]} stack's unknown cards ({left})"
        )
    return Reveal(rs.names[k])


def _diagnose(s: State, a: Any) -> Any:
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
        k = _kind(rs, a.card, "SP-OBS-4")
        if k != s.drawn:
            raise IllegalAction("SP-OBS-4", f"the drawn card is {rs.names[s.drawn]}, not {rs.names[k]}")
        return Discard(p, rs.names[k])
    if isinstance(a, Observe):
        if _observatory_ready(rs, s.phase_index, area, s.turned[p]) < 0:
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
    k = _kind(rs, a.card, "SP-HAND-4" if isinstance(a, Play) else "SP-BUY-3")
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
            if not _targets(rs, area, s.turned[p], k):
                raise IllegalAction("SP-TRADE-1", f"{rs.names[k]} has no card to displace in seat {p}'s area")
            raise IllegalAction("SP-TRADE-1", f"{rs.names[k]} is a trading card: name the card it displaces")
        t = _kind(rs, a.displace, "SP-TRADE-1")
        ok, clause, reason = _can_displace(rs, k, t)
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


# ============================================================================================ transitions


def _remove(row: tuple[int, ...], k: int) -> tuple[int, ...]:
    i = row.index(k)
    return row[:i] + row[i + 1 :]


def _add_sorted(cards: tuple[int, ...], k: int) -> tuple[int, ...]:
    return tuple(sorted((*cards, k)))


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    lst = list(t)
    lst[i] = v
    return tuple(lst)


def _who(p: int) -> str:
    return f"P{p}"


def _next_turn(s: list[Any]) -> None:
    s[I_TURN] = (s[I_TURN] + 1) % s[1]
    s[I_PASSES] = 0


def _t_buy(st: Any, a: Buy, log: Log) -> State:
    rs: Ruleset = st[0]
    s = list(st)
    p = a.player
    kind = rs.kind
    k = kind[a.card] if a.card in kind else _kind(rs, a.card, "SP-BUY-3")
    src = SRC[a.source]
    t = (
        -1
        if a.displace is None
        else (kind[a.displace] if a.displace in kind else _kind(rs, a.displace, "SP-TRADE-1"))
    )
    area = st[I_AREAS][p]
    cost = fast_cost(rs, area, k, src, t)
    if src == UPPER:
        s[I_UPPER] = _remove(st[I_UPPER], k)
    elif src == LOWER:
        s[I_LOWER] = _remove(st[I_LOWER], k)
    else:
        s[I_DRAWN] = -1
    if t >= 0:
        area = _remove(area, t)
        s[I_DISCARD] = (*st[I_DISCARD], t)
    s[I_AREAS] = _set(st[I_AREAS], p, _add_sorted(area, k))
    s[I_MONEY] = _set(st[I_MONEY], p, st[I_MONEY][p] - cost)
    if log is not None:
        disp = f", displacing {rs.names[t]}" if t >= 0 else ""
        where = "drawn card" if src == DRAWN else f"{a.source} row"
        log.append(
            f"{_who(p)} buys {rs.names[k]} from the {where}{disp} for {cost} R ({s[I_MONEY][p]} R left)"
        )
    _next_turn(s)
    return State._make(s)


def _t_play(st: Any, a: Play, log: Log) -> State:
    rs: Ruleset = st[0]
    s = list(st)
    p = a.player
    kind = rs.kind
    k = kind[a.card] if a.card in kind else _kind(rs, a.card, "SP-HAND-4")
    t = (
        -1
        if a.displace is None
        else (kind[a.displace] if a.displace in kind else _kind(rs, a.displace, "SP-TRADE-1"))
    )
    area = st[I_AREAS][p]
    cost = fast_cost(rs, area, k, HAND, t)
    s[I_HANDS] = _set(st[I_HANDS], p, _remove(st[I_HANDS][p], k))
    if t >= 0:
        area = _remove(area, t)
        s[I_DISCARD] = (*st[I_DISCARD], t)
    s[I_AREAS] = _set(st[I_AREAS], p, _add_sorted(area, k))
    s[I_MONEY] = _set(st[I_MONEY], p, st[I_MONEY][p] - cost)
    if log is not None:
        disp = f", displacing {rs.names[t]}" if t >= 0 else ""
        log.append(f"{_who(p)} plays {rs.names[k]} from hand{disp} for {cost} R ({s[I_MONEY][p]} R left)")
    _next_turn(s)
    return State._make(s)


def _t_take(st: Any, a: Take, log: Log) -> State:
    rs: Ruleset = st[0]
    s = list(st)
    p = a.player
    k = rs.kind[a.card] if a.card in rs.kind else _kind(rs, a.card, "SP-BUY-3")
    src = SRC[a.source]
    if src == UPPER:
        s[I_UPPER] = _remove(st[I_UPPER], k)
    elif src == LOWER:
        s[I_LOWER] = _remove(st[I_LOWER], k)
    else:
        s[I_DRAWN] = -1
    hand = _add_sorted(st[I_HANDS][p], k)
    s[I_HANDS] = _set(st[I_HANDS], p, hand)
    if log is not None:
        where = "the drawn card" if src == DRAWN else f"{rs.names[k]} from the {a.source} row"
        log.append(
            f"{_who(p)} takes {where} into hand ({len(hand)} in hand)"
            if src != DRAWN
            else f"{_who(p)} takes {where} ({rs.names[k]}) into hand ({len(hand)} in hand)"
        )
    _next_turn(s)
    return State._make(s)


def _t_discard(st: Any, a: Discard, log: Log) -> State:
    s = list(st)
    k = st[I_DRAWN]
    s[I_DRAWN] = -1
    s[I_DISCARD] = (*st[I_DISCARD], k)
    if log is not None:
        log.append(f"{_who(a.player)} discards the drawn {st.rules.names[k]}")
    _next_turn(s)
    return State._make(s)


def _t_observe(st: Any, a: Observe, log: Log) -> State:
    rs: Ruleset = st[0]
    s = list(st)
    p = a.player
    obs = _observatory_ready(rs, st[I_PHASE], st[I_AREAS][p], st[I_TURNED][p])
    i = STACKS.index(a.stack)
    stack = st[I_STACKS][i]
    s[I_STACKS] = _set(st[I_STACKS], i, stack[1:])
    s[I_DRAWN] = stack[0]
    s[I_TURNED] = _set(st[I_TURNED], p, _add_sorted(st[I_TURNED][p], obs))
    s[I_PASSES] = 0
    if log is not None:
        log.append(
            f"{_who(p)} turns an {rs.names[obs]} and draws {card_name(rs, stack[0])} from the {a.stack} "
            f"stack ({len(stack) - 1} left)"
        )
    return State._make(s)


def _t_pass(st: Any, a: Pass, log: Log) -> State:
    s = list(st)
    s[I_PASSES] = st[I_PASSES] + 1
    if log is not None:
        log.append(f"{_who(a.player)} passes")
    if s[I_PASSES] >= st[1]:
        s[I_PASSES] = 0
        return _end_phase(s, log)
    s[I_TURN] = (st[I_TURN] + 1) % st[1]
    return State._make(s)


def _t_pub(st: Any, a: PubBuy, log: Log) -> State:
    rs: Ruleset = st[0]
    s = list(st)
    p = a.player
    if a.vp:
        rate = _pub_rate(rs, st[I_AREAS][p])
        s[I_MONEY] = _set(st[I_MONEY], p, st[I_MONEY][p] - a.vp * rate)
        s[I_VP] = _set(st[I_VP], p, st[I_VP][p] + a.vp)
        if log is not None:
            log.append(
                f"{_who(p)} buys {a.vp} VP at the Pub for {a.vp * rate} R "
                f"({s[I_MONEY][p]} R, {s[I_VP][p]} VP)"
            )
    elif log is not None:
        log.append(f"{_who(p)} buys no VP at the Pub")
    s[I_PUBQ] = st[I_PUBQ][1:]
    if s[I_PUBQ]:
        return State._make(s)
    return _next_phase(s, log)


def _t_reveal(st: Any, a: Reveal, log: Log) -> State:
    rs: Ruleset = st[0]
    s = list(st)
    i = pending_reveal(st)
    k = rs.kind[a.card] if a.card in rs.kind else _kind(rs, a.card, "SP-REVEAL-1")
    placeholder = len(rs.names) + i
    if st[I_DRAWN] == placeholder:
        s[I_DRAWN] = k
    else:
        upper = list(st[I_UPPER])
        upper[upper.index(placeholder)] = k
        s[I_UPPER] = tuple(upper)
    hidden = _set(st[I_HIDDEN], i, _remove(st[I_HIDDEN][i], k))
    s[I_HIDDEN] = hidden if any(hidden) else ()
    if log is not None:
        log.append(f"-- reveal [SP-REVEAL-1]: the card drawn from the {STACKS[i]} stack is {rs.names[k]}")
    return State._make(s)


_TRANSITIONS: dict[type, Callable[[State, Any, Log], State]] = {
    Buy: _t_buy,
    Take: _t_take,
    Play: _t_play,
    Pass: _t_pass,
    Observe: _t_observe,
    Discard: _t_discard,
    PubBuy: _t_pub,
    Reveal: _t_reveal,
}


def transition(state: Any, action: Any, log: Log = None) -> State:
    """Apply a legal action (unchecked); with ``log`` a list, append readable lines of what happened."""
    return _TRANSITIONS[type(action)](state, action, log)


# ============================================================================================ phase flow


def _score(s: list[Any], colour: int, log: Log) -> None:
    rs: Ruleset = s[0]
    money = list(s[I_MONEY])
    vp = list(s[I_VP])
    lines = []
    for p in range(s[1]):
        area = s[I_AREAS][p]
        r = v = 0
        for k in area:
            if rs.colour[k] != colour:
                continue
            r += rs.roubles[k]
            v += rs.vp[k]
            pc = rs.per_card[k]
            if pc is not None:
                n = sum(1 for x in area if rs.colour[x] == pc[0])
                r += pc[1] * n
                v += pc[2] * n
        for k in s[I_TURNED][p]:  # a turned Observatory scores nothing this round (SP-OBS-5)
            if rs.colour[k] == colour:
                r -= rs.roubles[k]
                v -= rs.vp[k]
        money[p] += r
        vp[p] += v
        lines.append(f"{_who(p)} +{r} R, +{v} VP")
    s[I_MONEY] = tuple(money)
    s[I_VP] = tuple(vp)
    if log is not None:
        phase = PHASES[s[I_PHASE]]
        log.append(f"-- {phase.name} scoring [{phase.clause}]: " + "; ".join(lines))


def _end_phase(s: list[Any], log: Log) -> State:
    rs: Ruleset = s[0]
    phase = PHASES[s[I_PHASE]]
    if phase.scores >= 0:
        _score(s, phase.scores, log)
        queue = []
        n = s[1]
        for i in range(n):
            p = (s[I_MARKERS][s[I_PHASE]] + i) % n
            area = s[I_AREAS][p]
            if any(rs.colour[k] == phase.scores for k in rs.pub_kinds) and pub_capacity(
                rs, area, s[I_MONEY][p]
            ):
                queue.append(p)
        if queue:
            s[I_PUBQ] = tuple(queue)
            if log is not None:
                log.append(f"-- Pub decisions [SP-PUB-1]: {', '.join(_who(p) for p in queue)}")
            return State._make(s)
    return _next_phase(s, log)


def _refill(s: list[Any], stack_index: int, log: Log) -> None:
    rs: Ruleset = s[0]
    need = BOARD - len(s[I_UPPER]) - len(s[I_LOWER])
    if need <= 0:
        return
    stack = s[I_STACKS][stack_index]
    drawn = stack[:need]
    s[I_STACKS] = _set(s[I_STACKS], stack_index, stack[need:])
    s[I_UPPER] = s[I_UPPER] + drawn
    ended = len(stack) <= need
    if ended:
        s[I_LAST] = True
    if log is not None:
        names = ", ".join(card_name(rs, k) for k in drawn) or "nothing"
        msg = f"-- refill [SP-REFILL-1]: {len(drawn)} from the {STACKS[stack_index]} stack: {names}"
        if len(stack) < need:
            msg += f" (short by {need - len(stack)} [SP-REFILL-2])"
        if any(k >= len(rs.names) for k in drawn):
            msg += " -- of unknown order: each awaits its reveal [SP-REVEAL-1]"
        if ended:
            msg += (
                " -- the stack is empty: the game ends after this round [SP-END-1]"
                if stack_index != 0 or s[I_PHASE] != len(PHASES) - 1
                else " -- the worker stack is empty: next round is the last [SP-END-3]"
            )
        log.append(msg)


def _next_phase(s: list[Any], log: Log) -> State:
    phase = PHASES[s[I_PHASE]]
    n = s[1]
    if not phase.round_end:
        _refill(s, phase.refill, log)
        ph = s[I_PHASE] + 1
        s[I_PHASE] = ph
        s[I_TURN] = s[I_MARKERS][ph]
        s[I_PASSES] = 0
        if log is not None:
            log.append(f"== Round {s[I_ROUND]}, {PHASES[ph].name} phase: P{s[I_TURN]} starts [SP-PHASE-2]")
        return State._make(s)
    if s[I_LAST]:
        return _final_scoring(s, log)
    rs: Ruleset = s[0]
    gone = s[I_LOWER]
    s[I_DISCARD] = s[I_DISCARD] + gone
    s[I_LOWER] = s[I_UPPER]
    s[I_UPPER] = ()
    if log is not None:
        log.append(
            f"-- end of round {s[I_ROUND]} [SP-ROUND-1]: lower row discarded "
            f"({', '.join(rs.names[k] for k in gone) or 'empty'}), upper row moves down"
        )
    s[I_PHASE] = len(PHASES) - 1
    _refill(s, phase.refill, log)
    s[I_MARKERS] = tuple((m + 1) % n for m in s[I_MARKERS])
    s[I_TURNED] = ((),) * n
    s[I_ROUND] += 1
    s[I_PHASE] = 0
    s[I_TURN] = s[I_MARKERS][0]
    s[I_PASSES] = 0
    if log is not None:
        log.append(
            "-- start-player markers pass one seat [SP-ROUND-3]: "
            + ", ".join(f"{ph.name} P{m}" for ph, m in zip(PHASES, s[I_MARKERS], strict=True))
        )
        last = " (last round)" if s[I_LAST] else ""
        log.append(f"== Round {s[I_ROUND]}{last}, worker phase: P{s[I_TURN]} starts [SP-PHASE-2]")
    return State._make(s)


def final_breakdown(state: State, p: int) -> dict[str, int]:
    """Final-scoring parts for seat ``p`` (SP-END-4..7): ``distinct_uncapped`` (every different
    aristocrat), ``distinct_capped`` (the count the bonus scores, at most 10: SP-END-5), ``variety`` (its
    VP), ``money``, ``hand``, ``total``.

    >>> from engine.petersburg import GAME
    >>> final_breakdown(GAME.new_game(2, seed=1), 0)["distinct_capped"]
    0
    """
    rs = state.rules
    area = state.areas[p]
    distinct = len({k for k in area if rs.colour[k] == rs.variety_colour})
    variety = variety_bonus(distinct)
    capped = min(distinct, VARIETY_CAP)
    money = state.money[p] // FINAL["roubles_per_vp"]
    hand = len(state.hands[p]) * FINAL["vp_per_hand_card"]
    return {
        "distinct_uncapped": distinct,
        "distinct_capped": capped,
        "variety": variety,
        "money": money,
        "hand": hand,
        "total": variety + money + hand,
    }


def _final_scoring(s: list[Any], log: Log) -> State:
    st = State._make(s)
    vp = list(s[I_VP])
    for p in range(s[1]):
        b = final_breakdown(st, p)
        if log is not None:
            held = len(s[I_HANDS][p])
            distinct = b["distinct_uncapped"]
            log.append(
                f"-- final scoring P{p}: {b['variety']} VP for {distinct} different "
                f"aristocrat{'' if distinct == 1 else 's'} [SP-END-4], {b['money']} VP for {s[I_MONEY][p]} R "
                f"[SP-END-6], {b['hand']} VP for {held} card{'' if held == 1 else 's'} in hand [SP-END-7]: "
                f"{vp[p]} -> {vp[p] + b['total']} VP"
            )
        vp[p] += b["total"]
    s[I_VP] = tuple(vp)
    s[I_OVER] = True
    return State._make(s)


def tiebreak_money(state: State, p: int) -> int:
    """The roubles of seat ``p`` that break a tie on VP (SP-END-8): all of them, as they are kept (SP-END-6);
    with the option ``keep_roubles=false`` only those left once each full 10 is paid in for its VP.

    >>> from engine.petersburg import GAME
    >>> tiebreak_money(GAME.new_game(2, seed=1, options={"keep_roubles": False}), 0)
    5
    """
    if dict(state.rules.options).get("keep_roubles", True):
        return int(state.money[p])
    return int(state.money[p] % FINAL["roubles_per_vp"])


def standings(state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(ranking best first, winners): most VP, then most roubles (SP-END-8, the roubles counted by
    :func:`tiebreak_money`); still tied: shared (SP-END-9)."""
    key = {p: (state.vp[p], tiebreak_money(state, p)) for p in range(state.players)}
    ranking = tuple(sorted(range(state.players), key=lambda p: (-key[p][0], -key[p][1], p)))
    best = key[ranking[0]]
    winners = tuple(p for p in ranking if key[p] == best)
    return ranking, winners
