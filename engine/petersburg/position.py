"""The Saint Petersburg position builder: :func:`position`, the one named constructor of a state.

Cards are given by name (any edition's name or a known alias), in every place a position has: the two
rows, the four stacks (top card first, as many as you know), the discard pile, each seat's hand, area and
turned Observatories, the card an Observatory drew.  Every card not mentioned is out of the game
(``state.box``).  Anything the rules cannot reach is refused with one
:class:`~engine.errors.PositionError` naming the field and the clause.  The JSON codec and the notation
reader build their states through it.

>>> s = position(players=2, phase="building", turn=1, upper=["Market", "Pub"], money=[12, 30],
...              areas=[["Lumberjack", "Lumberjack"], ["Gold Miner"]], markers=[0, 1, 0, 1])
>>> s.phase, s.turn, s.cards("area", 0), len(s.box)
('building', 1, ('Lumberjack', 'Lumberjack'), 111)
>>> position(players=2, money=[-1, 25])
Traceback (most recent call last):
...
engine.errors.PositionError: money[0]: expected an integer >= 0, got -1 [SP-BUY-2]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import IllegalSetup, PositionError
from engine.jsonio import show
from engine.petersburg.catalog import GAME_META, PARAM_CLAUSES, PARAMS, PHASES, SETUPS, STACKS, VARIANTS
from engine.petersburg.legal import HAND_CLAUSE, HAND_LIMIT, hand_limit
from engine.petersburg.model import PHASE_NAMES, STATE_PHASES, State
from engine.petersburg.names import resolve_card
from engine.petersburg.ruleset import Ruleset, ruleset
from engine.position_input import integer, listed

__all__ = ["position"]


def phase_index(rs: Ruleset, phase: str) -> int:
    """The round phase (an index of the phase table) a phase name is taken in: Pub decisions follow the
    scoring of the Pub's colour (SP-PUB-1), an Observatory draws in its phase (SP-OBS-2), the game ends
    after the round-ending phase (SP-END-1).

    >>> phase_index(ruleset(), "pub"), phase_index(ruleset(), "observatory"), phase_index(ruleset(), "over")
    (1, 1, 3)
    """
    if phase in PHASE_NAMES:
        return PHASE_NAMES.index(phase)
    if phase == "reveal":
        raise ValueError("the phase of a reveal follows from the card awaiting it (see position)")
    if phase == "pub":
        return next(p.index for p in PHASES if any(p.scores == rs.colour[k] for k in rs.pub_kinds))
    if phase == "observatory":
        return next(rs.obs_phase[k] for k in rs.observatory_kinds)
    return next(p.index for p in PHASES if p.round_end)


def _kinds(value: Any, field: str, drawn_ok: bool = False) -> tuple[int, ...]:
    """Card names -> kinds; with ``drawn_ok``, ``?STACK`` is a card drawn from a stack of unknown order and
    not yet revealed (a placeholder kind, see :mod:`engine.petersburg.model`)."""
    out = []
    nk = ruleset().nkinds
    for i, name in enumerate(listed(value, field, "SP-CARD-5")):
        if drawn_ok and isinstance(name, str) and name.startswith("?"):
            if name[1:] not in STACKS:
                raise PositionError(
                    f"{field}[{i}]", "SP-REVEAL-1", f"an unknown card is ?STACK, got {show(name)}"
                )
            out.append(nk + STACKS.index(name[1:]))
            continue
        k = resolve_card(name) if isinstance(name, str) else None
        if k is None:
            raise PositionError(f"{field}[{i}]", "SP-CARD-5", f"no Saint Petersburg card called {show(name)}")
        out.append(k)
    return tuple(out)


def _stack_map(value: Any, field: str, clause: str) -> Mapping[str, Any]:
    """A mapping of stack names (``stacks`` or ``unknown``), each name checked."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise PositionError(field, clause, f"expected an object of stacks ({', '.join(STACKS)})")
    for name in value:
        if name not in STACKS:
            raise PositionError(f"{field}.{name}", clause, f"no such stack (known: {', '.join(STACKS)})")
    return value


def _per_seat(value: Any, field: str, n: int, default: Any) -> Sequence[Any]:
    return listed([default] * n if value is None else value, field, "SP-GAME-1", n)


def _ruleset(variant: Any, options: Any) -> Ruleset:
    if variant is not None and (not isinstance(variant, str) or variant not in VARIANTS):
        raise PositionError(
            "variant", "SP-VARIANT-1", f"unknown variant {show(variant)} (known: {', '.join(VARIANTS)})"
        )
    if options is not None and not isinstance(options, Mapping):
        raise PositionError(
            "options", "SP-VARIANT-2", f"expected an object of option values, got {show(options)}"
        )
    try:
        return ruleset(variant, options)
    except IllegalSetup as exc:
        raise PositionError("options", exc.clause, exc.message) from exc


def position(
    *,
    players: int,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    round: int = 1,
    phase: str = "worker",
    turn: int | None = None,
    passes: int = 0,
    markers: Sequence[int] | None = None,
    upper: Sequence[str] = (),
    lower: Sequence[str] = (),
    stacks: Mapping[str, Sequence[str]] | None = None,
    unknown: Mapping[str, Sequence[str]] | None = None,
    discard: Sequence[str] = (),
    money: Sequence[int] | None = None,
    vp: Sequence[int] | None = None,
    hands: Sequence[Sequence[str]] | None = None,
    areas: Sequence[Sequence[str]] | None = None,
    turned: Sequence[Sequence[str]] | None = None,
    drawn: str | None = None,
    pub_queue: Sequence[int] = (),
    last_round: bool = False,
) -> State:
    """A validated Saint Petersburg position; raises :class:`~engine.errors.PositionError` naming field
    and clause.

    ``phase`` is one of ``worker``, ``building``, ``pub`` (Pub decisions right after the building scoring:
    ``pub_queue`` lists the seats still to decide, the first decides now), ``observatory`` (the seat to
    act has ``drawn`` a card with an Observatory), ``aristocrat``, ``trading``, ``over``.  ``turn`` is the
    seat to act (default: the phase's marker holder), ``passes`` the consecutive passes so far,
    ``markers`` the seat holding each phase's start-player marker (worker, building, aristocrat, trading;
    default: the set-up table's counts from seat 0).  ``stacks`` maps a stack name to its cards, top card
    first (a stack not named is empty).  ``unknown`` maps a stack name to its cards of unknown order, known
    only as a multiset (SP-REVEAL-1): they lie below the stack's known cards, and a card drawn from them
    awaits a :class:`~engine.petersburg.model.Reveal`; in phase ``reveal`` the upper row or ``drawn`` holds
    such drawn cards as ``?STACK`` (e.g. ``?building``), counted in that stack's ``unknown``.  Per-seat
    lists: ``money`` (default: the starting roubles), ``vp``, ``hands``, ``areas``, ``turned``
    (Observatories turned this round).  ``last_round``: a stack ran out, the game ends after this round's
    trading phase.

    >>> s = position(players=1, phase="observatory", areas=[["Observatory"]], turned=[["Observatory"]],
    ...              drawn="Czar", stacks={"aristocrat": ["Author", "Judge"]})
    >>> s.phase, s.cards("drawn"), s.cards("aristocrat")
    ('observatory', ('Czar',), ('Author', 'Judge'))
    """
    rs = _ruleset(variant, options)
    lo, hi = GAME_META["min_players"], GAME_META["max_players"]
    n = integer(players, "players", "SP-GAME-1", lo, hi)
    spec = SETUPS[n]
    rnd = integer(round, "round", "SP-PHASE-1", 1)
    if phase not in STATE_PHASES:
        raise PositionError(
            "phase", "SP-PHASE-1", f"expected one of {', '.join(STATE_PHASES)}, got {show(phase)}"
        )
    up = _kinds(upper, "upper", drawn_ok=True)
    drawn_k = -1 if drawn is None else _kinds([drawn], "drawn", drawn_ok=True)[0]
    nk = rs.nkinds
    pending = drawn_k - nk if drawn_k >= nk else next((k - nk for k in up if k >= nk), -1)
    if (pending >= 0) != (phase == "reveal"):
        raise PositionError(
            "phase", "SP-REVEAL-1", "a drawn ?STACK card awaiting its reveal and the phase reveal go together"
        )
    if phase != "reveal":
        index = phase_index(rs, phase)
    elif drawn_k >= nk:
        index = phase_index(rs, "observatory")
    else:  # the upper row was just refilled from this stack, at the start of the next phase
        before = next(p for p in PHASES if p.refill == pending)
        index = 0 if before.round_end else before.index + 1
    # markers and the turn
    if markers is None:
        markers = [seat for seat, count in enumerate(spec.markers) for _ in range(count)]
    marks = tuple(
        integer(m, f"markers[{i}]", spec.clause, 0, n - 1)
        for i, m in enumerate(listed(markers, "markers", spec.clause, len(PHASE_NAMES)))
    )
    if sorted(marks.count(p) for p in range(n)) != sorted(spec.markers):
        raise PositionError(
            "markers",
            spec.clause,
            f"with {n} players the seats hold {sorted(spec.markers)} markers, "
            f"got {sorted(marks.count(p) for p in range(n))}",
        )
    seat = integer(marks[index] if turn is None else turn, "turn", "SP-PHASE-2", 0, n - 1)
    npass = integer(passes, "passes", "SP-PHASE-3", 0, n - 1)
    # the cards, place by place
    stack_map = _stack_map(stacks, "stacks", "SP-SETUP-1")
    unknown_map = _stack_map(unknown, "unknown", "SP-REVEAL-1")
    given_t = tuple(_kinds(unknown_map.get(name, ()), f"unknown.{name}") for name in STACKS)
    hidden_t = tuple(tuple(sorted(g)) for g in given_t)
    known_t = tuple(_kinds(stack_map.get(name, ()), f"stacks.{name}") for name in STACKS)
    stack_t = []
    for i, name in enumerate(STACKS):
        for field, clause, kinds in (
            ("stacks", "SP-SETUP-1", known_t[i]),
            ("unknown", "SP-REVEAL-1", given_t[i]),
        ):
            for j, k in enumerate(kinds):
                if rs.stack[k] != i:
                    raise PositionError(
                        f"{field}.{name}[{j}]",
                        clause,
                        f"{rs.names[k]} belongs to the {STACKS[rs.stack[k]]} stack",
                    )
        drawn_out = up.count(nk + i) + (drawn_k == nk + i)
        if drawn_out > len(hidden_t[i]):
            raise PositionError(
                f"unknown.{name}",
                "SP-REVEAL-1",
                f"{drawn_out} card(s) drawn from the {name} stack await a reveal; it has "
                f"{len(hidden_t[i])} unknown",
            )
        stack_t.append(known_t[i] + (nk + i,) * (len(hidden_t[i]) - drawn_out))
    if any(k >= nk for k in up) and pending >= 0 and any(k >= nk and k != nk + pending for k in up):
        raise PositionError("upper", "SP-REVEAL-1", "the unknown cards of the upper row come from one refill")
    low, disc = _kinds(lower, "lower"), _kinds(discard, "discard")
    if len(up) + len(low) > PARAMS["board_cards"]:
        raise PositionError(
            "upper",
            PARAM_CLAUSES["board_cards"],
            f"the rows hold at most {PARAMS['board_cards']} cards together, got {len(up) + len(low)}",
        )
    hand_t = tuple(
        tuple(sorted(_kinds(h, f"hands[{p}]"))) for p, h in enumerate(_per_seat(hands, "hands", n, ()))
    )
    area_t = tuple(
        tuple(sorted(_kinds(a, f"areas[{p}]"))) for p, a in enumerate(_per_seat(areas, "areas", n, ()))
    )
    turn_t = tuple(
        tuple(sorted(_kinds(t, f"turned[{p}]"))) for p, t in enumerate(_per_seat(turned, "turned", n, ()))
    )
    # every card at most as often as the catalog has it; the rest is in the box
    left = [c.copies for c in rs.cards]
    places = [
        *((f"stacks.{STACKS[i]}", st) for i, st in enumerate(known_t)),
        *((f"unknown.{STACKS[i]}", st) for i, st in enumerate(hidden_t)),
        ("upper", tuple(k for k in up if k < nk)),
        ("lower", low),
        ("discard", disc),
        *((f"hands[{p}]", h) for p, h in enumerate(hand_t)),
        *((f"areas[{p}]", a) for p, a in enumerate(area_t)),
        ("drawn", (drawn_k,) if 0 <= drawn_k < nk else ()),
    ]
    for where, kinds in places:
        for k in kinds:
            left[k] -= 1
            if left[k] < 0:
                raise PositionError(
                    where, "SP-CARD-5", f"one {rs.names[k]} too many: the game has {rs.cards[k].copies}"
                )
    # money, VP, hands
    money_t = tuple(
        integer(m, f"money[{p}]", "SP-BUY-2", 0)
        for p, m in enumerate(_per_seat(money, "money", n, spec.money))
    )
    vp_lo = None if phase == "over" else 0
    vp_t = tuple(
        integer(v, f"vp[{p}]", "SP-END-7" if vp_lo is None else "SP-SETUP-2", vp_lo)
        for p, v in enumerate(_per_seat(vp, "vp", n, 0))
    )
    most = max([HAND_LIMIT, *(rs.hand_limit[k] for k in rs.hand_limit_kinds)])
    lost = set(disc) | {k for k in range(rs.nkinds) if left[k] > 0}
    for p, h in enumerate(hand_t):
        limit = hand_limit(rs, area_t[p])
        if len(h) > most:
            raise PositionError(
                f"hands[{p}]", HAND_CLAUSE, f"holds {len(h)} cards, no hand limit exceeds {most}"
            )
        if len(h) > limit and not any(k in lost for k in rs.hand_limit_kinds):
            raise PositionError(
                f"hands[{p}]",
                "SP-HAND-3",
                f"holds {len(h)} cards over the limit {limit}, and no lost Warehouse explains it",
            )
    # turned Observatories: owned, and turned only from their phase to the end of the round
    for p, t in enumerate(turn_t):
        for k in t:
            if rs.obs_phase[k] < 0:
                raise PositionError(f"turned[{p}]", "SP-OBS-1", f"{rs.names[k]} cannot be turned")
            if t.count(k) > area_t[p].count(k):
                raise PositionError(
                    f"turned[{p}]", "SP-OBS-5", f"more turned {rs.names[k]} than seat {p} owns"
                )
            if phase != "over" and index < rs.obs_phase[k]:
                raise PositionError(
                    f"turned[{p}]",
                    "SP-OBS-2",
                    f"{rs.names[k]} is turned only from the {PHASE_NAMES[rs.obs_phase[k]]} phase on",
                )
    # the decisions pending: a drawn card, Pub purchases, the end
    if (drawn_k >= 0) != (phase == "observatory" or drawn_k >= nk):
        raise PositionError("drawn", "SP-OBS-4", "a drawn card and the phase observatory go together")
    if drawn_k >= 0 and not any(rs.obs_phase[k] == index for k in turn_t[seat]):
        raise PositionError("drawn", "SP-OBS-1", f"seat {seat} to act has no turned Observatory that drew it")
    queue = tuple(
        integer(q, f"pub_queue[{i}]", "SP-PUB-2", 0, n - 1)
        for i, q in enumerate(listed(pub_queue, "pub_queue", "SP-PUB-2"))
    )
    if bool(queue) != (phase == "pub"):
        raise PositionError("pub_queue", "SP-PUB-2", "Pub decisions pending and the phase pub go together")
    if len(set(queue)) != len(queue):
        raise PositionError("pub_queue", "SP-PUB-2", "each seat decides once")
    for i, q in enumerate(queue):
        if not any(k in area_t[q] for k in rs.pub_kinds):
            raise PositionError(f"pub_queue[{i}]", "SP-PUB-1", f"seat {q} owns no Pub")
    if queue and npass:
        raise PositionError("passes", "SP-PHASE-3", "the building phase's actions are over before the Pub")
    if not isinstance(last_round, bool):
        raise PositionError("last_round", "SP-END-1", f"expected true or false, got {show(last_round)}")
    over = phase == "over"
    if over and (not last_round or npass):
        raise PositionError("phase", "SP-END-1", "the game ends after the trading phase of its last round")
    return State(
        rules=rs,
        players=n,
        round=rnd,
        phase_index=index,
        turn=seat,
        passes=npass,
        stacks=tuple(stack_t),
        upper=up,
        lower=low,
        discard=disc,
        money=money_t,
        vp=vp_t,
        hands=hand_t,
        areas=area_t,
        turned=turn_t,
        markers=marks,
        drawn=drawn_k,
        pub_queue=queue,
        last_round=last_round,
        over=over,
        hidden=hidden_t if any(hidden_t) else (),
    )
