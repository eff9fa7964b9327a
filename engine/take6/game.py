"""The 6 nimmt! interpreter: set-up, transitions, results, observations, JSON and narration.

Every number comes from the tables of :mod:`engine.take6.rules`; every card is placed by
:func:`engine.take6.placement.locate` (or, for the standard placement on the hot path, by
:func:`~engine.take6.placement.fast_end_row`, which a property test checks against it).

Both API tiers share one transition function, :func:`_step`; :meth:`Take6.apply` validates first and
raises an :class:`~engine.errors.IllegalAction` naming the clause.  :meth:`Take6.narrate` re-runs
:func:`_step` with a log, so the story it tells is the transition the engine made.

>>> state = GAME.new_game(2, seed=1, setup=Deal(hands=((1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
...                                                    (11, 12, 13, 14, 15, 16, 17, 18, 19, 20)),
...                                             rows=(30, 40, 50, 60)))
>>> state = GAME.apply(state, Select(0, 1))
>>> state = GAME.apply(state, Select(1, 11))
>>> state.phase, GAME.to_act(state), GAME.legal_actions(state, 0)[:2]
('choose', (0,), (TakeRow(player=0, row=0), TakeRow(player=0, row=1)))
>>> state = GAME.apply(state, TakeRow(0, 2))
>>> state.rows, state.penalties
(((30,), (40,), (1, 11), (60,)), (3, 0))
"""

from __future__ import annotations

import functools
import random
from _random import Random as _Random
from collections.abc import Callable, Collection, Mapping, Sequence
from operator import itemgetter
from typing import Any

from engine.errors import GameOver, IllegalAction, IllegalSetup, InputError, NotYourTurn
from engine.game import Result
from engine.jsonio import show
from engine.spec import ClauseBook
from engine.take6.model import (
    SELECTS,
    Action,
    Deal,
    Draft,
    DraftStart,
    Flip,
    Select,
    Setup,
    State,
    TakeRow,
    selects_of,
)
from engine.take6.placement import Placement, locate
from engine.take6.rules import BULLHEADS, CLAUSES, GAME_INFO, OPTIONS, VARIANTS, Rules, rules_for

__all__ = ["GAME", "Take6", "deal_order", "derived_seed"]

_new = tuple.__new__
_MAXP = GAME_INFO.max_players
_MAXC = len(BULLHEADS) - 1
_ALL = tuple(tuple(range(n)) for n in range(_MAXP + 1))
_ZEROS = tuple((0,) * n for n in range(_MAXP + 1))
_EMPTY = tuple(((),) * n for n in range(_MAXP + 1))
# Interned actions: _SELECT[p][c] is Select(p, c) (a state keeps each hand's selections prebuilt).
_SELECT = SELECTS
_DRAFT = tuple(tuple(Draft(p, c) for c in range(_MAXC + 1)) for p in range(_MAXP))
_TAKE = tuple(tuple(TakeRow(p, r) for r in range(16)) for p in range(_MAXP))
_TAKES = tuple(tuple(_TAKE[p][:rows] for p in range(_MAXP)) for rows in range(len(_TAKE[0]) + 1))
_FLIP = tuple((Flip(p),) for p in range(_MAXP))
_BH = BULLHEADS
SEED_STRIDE = 65536
_ONE = tuple((c,) for c in range(_MAXC + 1))  # a row of one card, interned


def _dropper(length: int, i: int) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """An ``itemgetter`` returning a tuple of ``length`` items without its item ``i`` (one C call)."""
    keep = [k for k in range(length) if k != i]
    if len(keep) > 1:
        return itemgetter(*keep)
    if keep:  # one item left: a slice keeps it a tuple
        return itemgetter(slice(keep[0], keep[0] + 1))
    return itemgetter(slice(0, 0))


def _hand_size_bound() -> int:
    """The largest hand of any variant and player count (the tables fix it)."""
    sizes = []
    for variant in VARIANTS:
        for n in range(GAME_INFO.min_players, _MAXP + 1):
            try:
                sizes.append(rules_for(variant, n).hand_size)
            except IllegalSetup:
                continue
    return max(sizes)


# _DROP[length][i] drops item i from a tuple of that length (a hand, at the reveal)
_DROP = tuple(tuple(_dropper(length, i) for i in range(length)) for length in range(_hand_size_bound() + 1))


def derived_seed(seed: int, round_number: int) -> int:
    """The integer seeding ``random.Random`` for a round's deal: ``seed * 65536 + round``.

    >>> derived_seed(7, 2)
    458754
    """
    return seed * SEED_STRIDE + round_number


def deal_order(rules: Rules, seed: int, round_number: int) -> list[int]:
    """The seeded deal of a round (T6-SETUP-4): ``k`` cards drawn from the sorted deck, where ``k`` is
    players times hand size plus rows.  Player p receives cards ``p*H .. p*H+H-1`` of the result (kids: in
    pile order, top card first), and row i starts with card ``n*H + i``.

    It equals ``random.Random(derived_seed(seed, round)).sample(deck, k)`` (a test checks this), which for
    every deck and ``k`` here is CPython's pool algorithm: ``pool = list(deck)``; for ``i`` in ``0..k-1``:
    ``j = randbelow(len(deck) - i)``, the i-th card is ``pool[j]``, then
    ``pool[j] = pool[len(deck) - i - 1]``.
    ``randbelow(m)`` draws ``r = getrandbits(m.bit_length())`` from MT19937 until ``r < m``.

    >>> deal_order(rules_for("standard", 2), 0, 1)[:5]
    [18, 73, 98, 9, 33]
    """
    return _draw(rules.deck, rules.cards_dealt, derived_seed(seed, round_number))


def _draw(deck: Sequence[int], k: int, derived: int) -> list[int]:
    """The k cards of :func:`deal_order`, in order.

    CPython's pool algorithm with the drawn card swapped to the pool's end instead of copied out (the same
    cards in the same order: the i-th draw ends at ``pool[n - 1 - i]``).  ``_random.Random`` is the C base
    of ``random.Random`` and seeds from an int the same way, without the Python-level ``seed`` call.
    """
    getrandbits = _Random(derived).getrandbits
    pool = list(deck)
    for m, bits, last in _draw_steps(len(pool), k):
        j = getrandbits(bits)
        while j >= m:
            j = getrandbits(bits)
        pool[j], pool[last] = pool[last], pool[j]
    drawn = pool[len(pool) - k :]
    drawn.reverse()
    return drawn


@functools.cache
def _draw_steps(n: int, k: int) -> tuple[tuple[int, int, int], ...]:
    """The draws of k cards from n: ``(m, m.bit_length(), m - 1)`` for m = n, n - 1, ... (a pure table)."""
    return tuple((m, m.bit_length(), m - 1) for m in range(n, n - k, -1))


# --------------------------------------------------------------------------------------------------
# Dealing a round


def _deal(
    rules: Rules,
    s_seed: int,
    rnd: int,
    penalties: tuple[int, ...],
    deals: tuple[Setup, ...],
    *,
    prev_start: int,
    log: list[str] | None,
) -> State:
    """The state at the start of round ``rnd``: its deal (T6-SETUP-4, T6-SETUP-5) or its logic draft."""
    n = rules.players
    explicit: Setup | None = None
    if deals:
        explicit, deals = deals[0], deals[1:]
    if rules.deal == "draft":
        if isinstance(explicit, DraftStart):
            start = explicit.player
        elif rnd > 1 and rules.option_map.get("logic_start") == "rotate":
            start = (prev_start + 1) % n
        else:
            start = random.Random(derived_seed(s_seed, rnd)).randrange(n)
        if log is not None:
            log.append(
                f"Round {rnd}: cards {rules.deck[0]}..{rules.deck[-1]} lie face up; "
                f"P{start} drafts first (T6-LOGIC-1)."
            )
        empty = _EMPTY[n]
        return _new(
            State,
            (rules, (s_seed, rnd, rules.deck, start, deals), "draft", (), (), (), empty, penalties, empty,
             selects_of(rules, empty), _ZEROS[n], (start,)),
        )
    h = rules.hand_size
    flip = rules.play == "flip"
    if isinstance(explicit, Deal):
        hands = explicit.hands
        if not flip:
            hands = tuple(tuple(sorted(hand)) for hand in hands)
        row_cards: Sequence[int] = explicit.rows
        source = "explicit deal"
    else:
        order = _draw(rules.deck, n * h + rules.rows, s_seed * SEED_STRIDE + rnd)
        row_cards = order[n * h :]
        source = ""  # named in the log only
        if flip:
            hands = tuple(tuple(order[p * h : (p + 1) * h]) for p in range(n))
        elif h > 1 and log is None:  # the hot path: each hand sorted, its selections picked in one C call
            dealt: list[tuple[int, ...]] = []
            moves: list[tuple[Select, ...]] = []
            a = 0
            for interned in _SELECT[:n]:
                hand = order[a : a + h]
                hand.sort()
                dealt.append(tuple(hand))
                moves.append(itemgetter(*hand)(interned))
                a += h
            return _new(
                State,
                (rules, (s_seed, rnd, None, 0, deals), "select", tuple(map(_ONE.__getitem__, row_cards)),
                 tuple(row_cards), (), _EMPTY[n], penalties, tuple(dealt), tuple(moves), _ZEROS[n], _ALL[n]),
            )
        else:
            hands = tuple(tuple(sorted(order[p * h : (p + 1) * h])) for p in range(n))
    rows = tuple(map(_ONE.__getitem__, row_cards))
    if log is not None:
        what = "face-down piles" if flip else "hands"
        log.append(
            f"Round {rnd}: {n} {what} of {h} cards ({source or f'seeded deal {derived_seed(s_seed, rnd)}'}) "
            "[T6-SETUP-4]; rows start with "
            f"{', '.join(str(c) for c in row_cards)}."
        )
    if flip:
        return _new(
            State,
            (rules, (s_seed, rnd, None, 0, deals), "flip", rows, tuple(row_cards), (), _EMPTY[n], penalties,
             hands, (),
             _ZEROS[n], (0,)),
        )
    selects = selects_of(rules, hands)
    return _new(
        State,
        (rules, (s_seed, rnd, None, 0, deals), "select", rows, tuple(row_cards), (), _EMPTY[n], penalties,
         hands, selects,
         _ZEROS[n], _ALL[n]),
    )


def _check_setup(rules: Rules, setup: object) -> tuple[Setup, ...]:
    """Validate explicit set-ups (T6-SETUP-5, T6-LOGIC-1) and return them as a tuple, one per round."""
    if setup is None:
        return ()
    if isinstance(setup, Deal | DraftStart):
        items: tuple[object, ...] = (setup,)
    elif isinstance(setup, Sequence) and not isinstance(setup, str):
        items = tuple(setup)
    else:
        raise IllegalSetup(
            "T6-SETUP-5", f"setup must be a Deal, a DraftStart or a sequence of them, got {setup!r}"
        )
    n, h = rules.players, rules.hand_size
    deck = set(rules.deck)
    out: list[Setup] = []
    for i, item in enumerate(items, start=1):
        where = f"set-up of round {i}"
        if rules.deal == "draft":
            if not isinstance(item, DraftStart):
                raise IllegalSetup(
                    "T6-LOGIC-1", f"{where}: the logic variant drafts its hands; give DraftStart(player)"
                )
            if not isinstance(item.player, int) or not 0 <= item.player < n:
                raise IllegalSetup(
                    "T6-LOGIC-1", f"{where}: start player must be a seat 0..{n - 1}, got {item.player!r}"
                )
            out.append(item)
            continue
        if not isinstance(item, Deal):
            raise IllegalSetup(
                "T6-SETUP-5", f"{where}: expected a Deal(hands=..., rows=...), got {type(item).__name__}"
            )
        if len(item.hands) != n:
            raise IllegalSetup("T6-SETUP-5", f"{where}: {len(item.hands)} hands for {n} players")
        for p, hand in enumerate(item.hands):
            if len(hand) != h:
                raise IllegalSetup(
                    "T6-SETUP-5", f"{where}: player {p}'s hand has {len(hand)} cards, must have {h}"
                )
        if len(item.rows) != rules.rows:
            raise IllegalSetup("T6-SETUP-5", f"{where}: {len(item.rows)} row cards, must be {rules.rows}")
        seen: set[int] = set()
        for card in [c for hand in item.hands for c in hand] + list(item.rows):
            if isinstance(card, bool) or not isinstance(card, int) or card not in deck:
                raise IllegalSetup(
                    "T6-SETUP-5",
                    f"{where}: card {card!r} is not in the deck {rules.deck[0]}..{rules.deck[-1]}",
                )
            if card in seen:
                raise IllegalSetup("T6-SETUP-5", f"{where}: card {card} is dealt twice")
            seen.add(card)
        out.append(item)
    return tuple(out)


# --------------------------------------------------------------------------------------------------
# Transitions (shared by both tiers)


def _with(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``values`` with ``values[index]`` replaced (via a list: the fastest way for short tuples)."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)


def _bullheads_of(cards: Sequence[int]) -> int:
    return sum(map(_BH.__getitem__, cards))


def _names(cards: Sequence[int]) -> str:
    return " ".join(str(c) for c in cards)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# The state's layout (see State): the hot path builds new states from tuple displays and slices.
#   0 rules  1 (seed, round, stock, start, deals): the fields a round does not change; stock is None
#   (derived) outside logic  2 phase  3 rows  4 ends (each row's last card)  5 pending  6 piles
#   7 penalties  8 held (hands, a hidden selection still in them)  9 selects (each hand's prebuilt Select
#   actions)  10 selected  11 to_act
Hands = tuple[tuple[int, ...], ...]


def _ends(rows: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Each row's last card."""
    return tuple([row[-1] for row in rows])

Selects = tuple[tuple[Select, ...], ...]


def _resolve(
    s: State,
    rows_t: tuple[tuple[int, ...], ...],
    pending: tuple[tuple[int, int], ...],
    piles_t: tuple[tuple[int, ...], ...],
    penalties_t: tuple[int, ...],
    *,
    held: Hands,
    selects: Selects,
    log: list[str] | None,
) -> State:
    """Place the revealed cards of ``pending`` in ascending order (T6-TURN-1, T6-TURN-2); pause on a card
    that fits nowhere (T6-PLACE-3 / T6-PRO-5) with its player to act, else finish the turn.  Every card is
    placed by :func:`~engine.take6.placement.locate`."""
    rules = s[0]
    rows = list(rows_t)
    piles: list[tuple[int, ...]] | None = None
    penalties: list[int] | None = None
    cap = rules.capacity
    for k, (card, p) in enumerate(pending):
        pl = locate(rows, card, rules.placement, cap, rules.tie_to_start)
        if log is not None:
            log.append(_describe_placement(p, pl, rows))
        if pl.row is None:
            return _new(
                State,
                (
                    rules,
                    s[1],
                    "choose",
                    tuple(rows),
                    _ends(rows),
                    pending[k:],
                    piles_t if piles is None else tuple(piles),
                    penalties_t if penalties is None else tuple(penalties),
                    held,
                    selects,
                    _ZEROS[rules.players],
                    (p,),
                ),
            )
        r = pl.row
        row = rows[r]
        if pl.sixth:
            if piles is None or penalties is None:
                piles = list(piles_t)
                penalties = list(penalties_t)
            piles[p] = piles[p] + row
            penalties[p] += _bullheads_of(row)
            rows[r] = (card,)
        elif pl.side == "end":
            rows[r] = (*row, card)
        else:
            rows[r] = (card, *row)
    return _after_turn(
        s,
        tuple(rows),
        piles_t if piles is None else tuple(piles),
        penalties_t if penalties is None else tuple(penalties),
        held=held,
        selects=selects,
        last=pending[-1][1],
        log=log,
    )


def _describe_placement(p: int, pl: Placement, rows: Sequence[tuple[int, ...]]) -> str:
    cited = ", ".join(pl.clauses)
    if pl.row is None:
        return f"  P{p}'s {pl.card} fits no row: P{p} must choose a row to take [{cited}]."
    row = rows[pl.row]
    where = "after" if pl.side == "end" else "before"
    neighbour = row[-1] if pl.side == "end" else row[0]
    text = f"  P{p}'s {pl.card} goes {where} {neighbour} in row {pl.row}"
    if len(pl.candidates) > 1:
        others = ", ".join(f"{c.neighbour} (+{c.difference})" for c in pl.candidates)
        text += f", the closest of {others}"
    if pl.sixth:
        text += (
            f"; as the row's 6th card it takes {_names(row)} ({_plural(_bullheads_of(row), 'bullhead')}) "
            f"for P{p}, and {pl.card} starts row {pl.row}"
        )
    return text + f" [{cited}]."


def _after_turn(
    s: State,
    rows: tuple[tuple[int, ...], ...],
    piles: tuple[tuple[int, ...], ...],
    penalties: tuple[int, ...],
    *,
    held: Hands,
    selects: Selects,
    last: int,
    log: list[str] | None,
) -> State:
    """After a turn's cards are all placed: the next turn, or the end of the round (T6-ROUND-1)."""
    rules = s[0]
    n = rules.players
    if rules.play == "flip":
        if any(held):
            return _new(
                State,
                (rules, s[1], "flip", rows, _ends(rows), (), piles, penalties, held, selects,
                 _ZEROS[n], ((last + 1) % n,)),
            )
    elif held[0]:
        return _new(
            State,
            (rules, s[1], "select", rows, _ends(rows), (), piles, penalties, held, selects,
             _ZEROS[n], _ALL[n]),
        )
    return _end_round(s, rows, piles, penalties, held=held, selects=selects, log=log)


def _end_round(
    s: State,
    rows: tuple[tuple[int, ...], ...],
    piles: tuple[tuple[int, ...], ...],
    penalties: tuple[int, ...],
    *,
    held: Hands,
    selects: Selects,
    log: list[str] | None,
) -> State:
    """Score the round (T6-ROUND-2) and end the game (T6-END-1, T6-KIDS-3) or deal the next round."""
    rules = s[0]
    n = rules.players
    if rules.end == "threshold":
        assert rules.threshold is not None
        over = max(penalties) >= rules.threshold
    else:
        assert rules.rounds is not None
        over = s[1][1] >= rules.rounds
    if log is not None:
        sign = "-" if rules.display == "countdown" else "+"
        parts = [f"P{p} {sign}{_bullheads_of(piles[p])} = {_shown(rules, penalties[p])}" for p in range(n)]
        unit = "points left" if rules.display == "countdown" else "bullheads"
        log.append(f"Round {s[1][1]} ends ({unit}): {', '.join(parts)} [T6-ROUND-2].")
    if over:
        state: State = _new(
            State,
            (rules, s[1], "over", rows, _ends(rows), (), piles, penalties, held, selects,
             _ZEROS[n], ()),
        )
        if log is not None:
            log.extend(_standings(state, rules))
        return state
    seed, rnd, _, start, deals = s[1]
    return _deal(rules, seed, rnd + 1, penalties, deals, prev_start=start, log=log)


def _shown(rules: Rules, penalty: int) -> str:
    if rules.countdown_from is not None:
        return str(rules.countdown_from - penalty)
    return str(penalty)


def _standings(s: State, rules: Rules) -> list[str]:
    res = _result(s, rules)
    unit = "points left" if rules.display == "countdown" else "bullheads"
    lines = [f"Game over after round {s.round} ({_end_clause(rules)})."]
    for place, p in enumerate(res.ranking, start=1):
        lines.append(f"  {place}. P{p}: {_shown(rules, s.penalties[p])} {unit}")
    win = " and ".join(f"P{p}" for p in res.winners)
    rule = "T6-KIDS-4" if rules.winner == "highest" else "T6-END-2"
    if len(res.winners) > 1:
        lines.append(f"Winners: {win}, tied, share the win [{rule}, T6-END-3].")
    else:
        lines.append(f"Winner: {win} [{rule}].")
    return lines


def _end_clause(rules: Rules) -> str:
    if rules.countdown_from is not None:
        return "someone is out of points [T6-END-1, T6-COUNT-1]"
    if rules.end == "threshold":
        return f"a total reached {rules.threshold} bullheads [T6-END-1]"
    return "every pile is played out [T6-KIDS-3]"


def _result(s: State, rules: Rules) -> Result:
    scores = s.penalties
    if rules.winner == "lowest":
        ranking = tuple(sorted(range(rules.players), key=lambda p: (scores[p], p)))
    else:
        ranking = tuple(sorted(range(rules.players), key=lambda p: (-scores[p], p)))
    best = scores[ranking[0]]
    winners = tuple(p for p in ranking if scores[p] == best)
    return Result(scores=scores, winners=winners, ranking=ranking)


def _select(s: State, p: int, card: int, log: list[str] | None) -> State:
    """Record a selection (T6-SELECT-1); the card stays in the stored hand, hidden, until the last player
    has selected: then all are revealed (T6-SELECT-2), leave their hands, and are placed."""
    sel = _with(s[10], p, card)
    acting = s[11]
    acting = acting[1:] if acting[0] == p else tuple(q for q in acting if q != p)
    if acting:
        if log is not None:
            log.append(f"P{p} selects a card, hidden until everyone has selected [T6-SELECT-1, T6-SELECT-2].")
        return _new(State, s[:10] + (sel, acting))  # noqa: RUF005 (concatenation is the fastest here)
    if log is None and s[0].placement == "ends":
        return _turn_fast(s, sel)
    held, selects = _reveal_hands(s[8], s[9], sel)
    return _reveal(s, sel, p, held=held, selects=selects, log=log)


def _reveal_hands(held: Hands, selects: Selects, sel: tuple[int, ...]) -> tuple[Hands, Selects]:
    """Every revealed card leaves its hand, and its selection the hand's prebuilt selections: both by one
    prebuilt ``itemgetter`` of the other positions (every hand has the same length during a selection)."""
    drop = _DROP[len(held[0])]
    new_held = list(held)
    new_selects = list(selects)
    p = 0
    for hand in held:
        without = drop[hand.index(sel[p])]
        new_held[p] = without(hand)
        new_selects[p] = without(new_selects[p])
        p += 1  # noqa: SIM113 (a counter is cheaper than enumerate's pairs)
    return tuple(new_held), tuple(new_selects)


def _turn_fast(s: State, sel: tuple[int, ...]) -> State:
    """Hot path of a revealed turn (``ends`` placement, no log): the cards leave the hands (as in
    :func:`_reveal_hands`, inlined) and are placed lowest first; ``sel.index`` names a card's player."""
    held = s[8]
    drop = _DROP[len(held[0])]
    new_held = list(held)
    new_selects = list(s[9])
    p = 0
    for hand in held:
        without = drop[hand.index(sel[p])]
        new_held[p] = without(hand)
        new_selects[p] = without(new_selects[p])
        p += 1  # noqa: SIM113 (a counter is cheaper than enumerate's pairs)
    cards = sorted(sel)
    rows, ends = list(s[3]), list(s[4])
    return _place_fast(s, rows, ends, cards, sel.index, s[6], s[7], tuple(new_held), tuple(new_selects))


def _place_fast(  # noqa: PLR0917 (the hot path: positional is the cheapest call)
    s: State,
    rows: list[tuple[int, ...]],
    ends: list[int],
    cards: Collection[int],
    owner: Callable[[int], int],
    piles: tuple[tuple[int, ...], ...],
    penalties: tuple[int, ...],
    held: Hands,
    selects: Selects,
    last: int = -1,
) -> State:
    """Hot path of :func:`_resolve` for the ``ends`` placement without a log: place ``cards`` (ascending;
    ``owner(card)`` is its player) with the same outcome.  The state machine in properties/ checks every
    step against the logged path, which places each card with :func:`~engine.take6.placement.locate`."""
    rules = s[0]
    cap = rules.capacity
    for card in cards:
        # the row whose end is the highest one below the card (T6-PLACE-1); row ends are cards, never 0
        best_end = 0
        for end in ends:
            if end < card and end > best_end:  # two jumps: each comparison specializes (not chained)
                best_end = end
        if not best_end:
            # fits no row (T6-PLACE-3): only the lowest card can (each later card is above the row end the
            # card before it made), so all the cards wait for the player's row choice
            pending = tuple(zip(cards, map(owner, cards)))  # noqa: B905 (equal lengths by construction)
            return _new(
                State,
                (rules, s[1], "choose", tuple(rows), tuple(ends), pending, piles, penalties, held, selects,
                 _ZEROS[rules.players], (pending[0][1],)),
            )
        r = ends.index(best_end)
        ends[r] = card
        best = rows[r]
        if len(best) < cap:
            rows[r] = best + _ONE[card]
        else:
            # the 6th card: its player takes the row (T6-PLACE-2)
            p = owner(card)
            changed = list(piles)
            changed[p] += best
            piles = tuple(changed)
            totals = list(penalties)
            totals[p] += sum(map(_BH.__getitem__, best))
            penalties = tuple(totals)
            rows[r] = _ONE[card]
    if rules.play == "flip":
        for c in cards:
            last = owner(c)
        return _after_turn(
            s, tuple(rows), piles, penalties, held=held, selects=selects, last=last, log=None
        )
    if held[0]:
        n = rules.players
        return _new(
            State,
            (rules, s[1], "select", tuple(rows), tuple(ends), (), piles, penalties, held, selects, _ZEROS[n],
             _ALL[n]),
        )
    return _end_round(s, tuple(rows), piles, penalties, held=held, selects=selects, log=None)


def _reveal(
    s: State, sel: tuple[int, ...], p: int, *, held: Hands, selects: Selects, log: list[str] | None
) -> State:
    pending = sorted(zip(sel, range(len(sel)), strict=True))
    if log is not None:
        log.append(
            f"P{p} selects a card. All revealed [T6-SELECT-2] and placed lowest first [T6-TURN-1]: "
            + ", ".join(f"P{q} {c}" for c, q in pending)
            + "."
        )
    return _resolve(s, s[3], tuple(pending), s[6], s[7], held=held, selects=selects, log=log)


def _take_row(s: State, p: int, r: int, log: list[str] | None) -> State:
    pending = s[5]
    card = pending[0][0]
    rows = s[3]
    row = rows[r]
    changed = list(s[6])
    changed[p] += row
    piles = tuple(changed)
    heads = sum(map(_BH.__getitem__, row))
    totals = list(s[7])
    totals[p] += heads
    penalties = tuple(totals)
    if log is None and s[0].placement == "ends":
        rows_list = list(rows)
        rows_list[r] = _ONE[card]
        ends = list(s[4])
        ends[r] = card
        owners = dict(pending[1:])  # the waiting cards (its keys, ascending) and their players
        return _place_fast(s, rows_list, ends, owners, owners.__getitem__, piles, penalties, s[8], s[9], p)
    rows = (*rows[:r], (card,), *rows[r + 1 :])
    if log is not None:
        log.append(
            f"  P{p} takes row {r}: {_names(row)} ({_plural(heads, 'bullhead')}); {card} starts row {r} "
            f"[T6-PLACE-3, T6-PILE-1]."
        )
    if len(pending) > 1:
        return _resolve(s, rows, pending[1:], piles, penalties, held=s[8], selects=s[9], log=log)
    return _after_turn(s, rows, piles, penalties, held=s[8], selects=s[9], last=p, log=log)


def _draft(s: State, p: int, card: int, log: list[str] | None) -> State:
    rules = s[0]
    seed, rnd, stock, start, deals = s[1]
    i = stock.index(card)
    stock = stock[:i] + stock[i + 1 :]
    hand = tuple(sorted((*s[8][p], card)))
    held = _with(s[8], p, hand)
    selects = _with(s[9], p, tuple(map(_SELECT[p].__getitem__, hand)))
    n = rules.players
    drafted = sum(len(h) for h in held)
    if log is not None:
        log.append(f"P{p} drafts {card} [T6-LOGIC-1].")
    if drafted < n * rules.hand_size:
        fixed = (seed, rnd, stock, start, deals)
        return _new(State, (rules, fixed, *s[2:8], held, selects, s[10], ((start + drafted) % n,)))
    rows = tuple((c,) for c in stock)
    if log is not None:
        log.append(
            f"The draft is over; the {len(stock)} cards left start the rows in ascending order: "
            f"{_names(stock)} [T6-LOGIC-2]."
        )
    return _new(
        State,
        (rules, (seed, rnd, (), start, deals), "select", rows, stock, (), s[6], s[7], held, selects,
         _ZEROS[n], _ALL[n]),
    )


def _flip(s: State, p: int, log: list[str] | None) -> State:
    pile = s[8][p]
    card = pile[0]
    held = _with(s[8], p, pile[1:])
    if log is not None:
        log.append(f"P{p} flips {card} [T6-KIDS-2].")
    elif s[0].placement == "ends":
        return _place_fast(s, list(s[3]), list(s[4]), [card], {card: p}.__getitem__, s[6], s[7], held, s[9])
    return _resolve(s, s[3], ((card, p),), s[6], s[7], held=held, selects=s[9], log=log)


def _step(s: State, a: Action, log: list[str] | None = None) -> State:
    """The one transition both tiers use: ``a`` must be legal in ``s``."""
    t = a.__class__
    if t is Select:
        return _select(s, a.player, a.card, log)  # type: ignore[union-attr]
    if t is TakeRow:
        return _take_row(s, a.player, a.row, log)  # type: ignore[union-attr]
    if t is Draft:
        return _draft(s, a.player, a.card, log)  # type: ignore[union-attr]
    return _flip(s, a.player, log)


# --------------------------------------------------------------------------------------------------
# Validation (the checked tier)

_PHASE_ACTION = {"select": Select, "choose": TakeRow, "draft": Draft, "flip": Flip}
_ACTION_NAME = {Select: "select", TakeRow: "take_row", Draft: "draft", Flip: "flip"}
_PHASE_WORDS = {
    "select": "a card selection",
    "choose": "a row choice",
    "draft": "a draft pick",
    "flip": "a flip",
}


def _check(s: State, a: object) -> None:
    """Raise the IllegalAction (naming the clause) that ``a`` breaks in ``s``; return if it is legal."""
    if s.phase == "over":
        raise GameOver("T6-ACT-2", "the game is over")
    t = type(a)
    if t not in _ACTION_NAME:
        raise IllegalAction("T6-ACT-1", f"{a!r} is not a 6 nimmt! action")
    p = a.player  # type: ignore[attr-defined]
    if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < s.players:
        raise IllegalAction("T6-ACT-1", f"player must be a seat 0..{s.players - 1}, got {p!r}")
    if p not in s.to_act:
        if s.phase == "select":
            raise NotYourTurn("T6-SELECT-2", f"P{p} has already selected a card this turn")
        waiting = ", ".join(f"P{q}" for q in s.to_act)
        raise NotYourTurn(
            "T6-ACT-1", f"{_PHASE_WORDS[s.phase]} by {waiting} is awaited, not an action of P{p}"
        )
    expected = _PHASE_ACTION[s.phase]
    if t is not expected:
        if t is TakeRow:
            raise IllegalAction("T6-CHOOSE-1", f"P{p} has no card waiting for a row choice")
        raise IllegalAction("T6-ACT-1", f"{_PHASE_WORDS[s.phase]} by P{p} is awaited, not {_ACTION_NAME[t]}")
    if t is Select:
        card = a.card  # type: ignore[attr-defined]
        if card not in s.hands[p] or isinstance(card, bool):
            raise IllegalAction("T6-SELECT-1", f"card {card!r} is not in P{p}'s hand")
    elif t is TakeRow:
        r = a.row  # type: ignore[attr-defined]
        if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < len(s.rows):
            raise IllegalAction("T6-CHOOSE-2", f"row must be 0..{len(s.rows) - 1}, got {r!r}")
    elif t is Draft:
        card = a.card  # type: ignore[attr-defined]
        if card not in s.stock or isinstance(card, bool):
            raise IllegalAction("T6-LOGIC-1", f"card {card!r} is not in the face-up pool")


# --------------------------------------------------------------------------------------------------
# JSON


def _int(data: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(data, bool) or not isinstance(data, int):
        raise InputError(field, f"expected an integer, got {show(data)}")
    if (lo is not None and data < lo) or (hi is not None and data > hi):
        raise InputError(field, f"expected an integer from {lo} to {hi}, got {data}")
    return data


def _list(data: Any, field: str, length: int | None = None) -> list[Any]:
    if not isinstance(data, list):
        raise InputError(field, f"expected a list, got {type(data).__name__}")
    if length is not None and len(data) != length:
        raise InputError(field, f"expected {length} entries, got {len(data)}")
    return data


def _cards(data: Any, field: str, length: int | None = None) -> tuple[int, ...]:
    return tuple(_int(c, f"{field}[{i}]", 1, _MAXC) for i, c in enumerate(_list(data, field, length)))


def _obj(data: Any, field: str, keys: Sequence[str]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise InputError(field, f"expected an object, got {type(data).__name__}")
    for k in data:
        if k not in keys:
            raise InputError(f"{field}.{k}" if field else k, f"unknown field (known: {', '.join(keys)})")
    for k in keys:
        if k not in data:
            raise InputError(f"{field}.{k}" if field else k, "missing field")
    return data


def _setup_to_json(item: Setup) -> dict[str, Any]:
    if isinstance(item, Deal):
        return {"type": "deal", "hands": [list(h) for h in item.hands], "rows": list(item.rows)}
    return {"type": "draft_start", "player": item.player}


def _setup_from_json(data: Any, field: str) -> Setup:
    if not isinstance(data, dict) or data.get("type") not in ("deal", "draft_start"):
        raise InputError(f"{field}.type", "expected 'deal' or 'draft_start'")
    if data["type"] == "deal":
        d = _obj(data, field, ("type", "hands", "rows"))
        hands = tuple(
            _cards(h, f"{field}.hands[{i}]") for i, h in enumerate(_list(d["hands"], f"{field}.hands"))
        )
        return Deal(hands=hands, rows=_cards(d["rows"], f"{field}.rows"))
    d = _obj(data, field, ("type", "player"))
    return DraftStart(_int(d["player"], f"{field}.player", 0, _MAXP - 1))


# the JSON form: the game and its parameters, then the state's public fields from ``round`` to ``selected``
# (``rules`` is spelled out as variant/players/options; ``to_act`` is derived, not stored)
_STATE_KEYS = ("game", "variant", "players", "seed", "options", *State.FIELDS[2:13])
_PHASES = ("draft", "select", "choose", "flip", "over")


def _derive_to_act(
    phase: str,
    rules: Rules,
    start: int,
    pending: tuple[tuple[int, int], ...],
    *,
    hands: tuple[tuple[int, ...], ...],
    selected: tuple[int, ...],
) -> tuple[int, ...]:
    n = rules.players
    if phase == "select":
        return tuple(p for p in range(n) if not selected[p])
    if phase == "choose":
        return (pending[0][1],)
    if phase == "draft":
        return ((start + sum(len(h) for h in hands)) % n,)
    if phase == "flip":
        return ((n * rules.hand_size - sum(len(h) for h in hands)) % n,)
    return ()


def _state_from_json(data: Any) -> State:
    d = _obj(data, "", _STATE_KEYS)
    if d["game"] != "take6":
        raise InputError("game", f"expected 'take6', got {show(d['game'])}")
    variant = d["variant"]
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise InputError("variant", f"unknown variant {show(variant)} (known: {', '.join(VARIANTS)})")
    n = _int(d["players"], "players", GAME_INFO.min_players, GAME_INFO.max_players)
    seed = _int(d["seed"], "seed", 0)
    if not isinstance(d["options"], dict):
        raise InputError("options", "expected an object")
    try:
        rules = rules_for(variant, n, d["options"])
    except IllegalSetup as exc:
        raise InputError("options", str(exc)) from exc
    if dict(rules.options) != d["options"]:
        raise InputError("options", f"must list every option of the variant: {dict(rules.options)}")
    rnd = _int(d["round"], "round", 1)
    phase = d["phase"]
    if phase not in _PHASES:
        raise InputError("phase", f"expected one of {', '.join(_PHASES)}, got {show(phase)}")
    rows = tuple(_cards(r, f"rows[{i}]") for i, r in enumerate(_list(d["rows"], "rows")))
    pending_l = []
    for i, item in enumerate(_list(d["pending"], "pending")):
        pair = _list(item, f"pending[{i}]", 2)
        pending_l.append(
            (_int(pair[0], f"pending[{i}][0]", 1, _MAXC), _int(pair[1], f"pending[{i}][1]", 0, n - 1))
        )
    pending = tuple(pending_l)
    piles = tuple(_cards(x, f"piles[{i}]") for i, x in enumerate(_list(d["piles"], "piles", n)))
    penalties = tuple(
        _int(x, f"penalties[{i}]", 0) for i, x in enumerate(_list(d["penalties"], "penalties", n))
    )
    stock = _cards(d["stock"], "stock")
    start = _int(d["start"], "start", 0, n - 1)
    deals = tuple(_setup_from_json(x, f"deals[{i}]") for i, x in enumerate(_list(d["deals"], "deals")))
    hands = tuple(_cards(x, f"hands[{i}]") for i, x in enumerate(_list(d["hands"], "hands", n)))
    selected = tuple(
        0 if x is None else _int(x, f"selected[{i}]", 1, _MAXC)
        for i, x in enumerate(_list(d["selected"], "selected", n))
    )
    try:
        _check_setup(rules, deals)
    except IllegalSetup as exc:
        raise InputError("deals", str(exc)) from exc
    # every card of the deck in exactly one place
    places = [
        ("stock", stock),
        *((f"hands[{p}]", h) for p, h in enumerate(hands)),
        ("selected", tuple(c for c in selected if c)),
        ("pending", tuple(c for c, _ in pending)),
        *((f"rows[{i}]", r) for i, r in enumerate(rows)),
        *((f"piles[{p}]", x) for p, x in enumerate(piles)),
    ]
    seen: dict[int, str] = {}
    for where, cards in places:
        for c in cards:
            if c in seen:
                raise InputError(where, f"card {c} is also in {seen[c]}")
            seen[c] = where
    deck = set(rules.deck)
    if set(seen) != deck:
        extra = sorted(set(seen) - deck)
        if extra:
            raise InputError(seen[extra[0]], f"card {extra[0]} is not in the {variant} deck")
        raise InputError("stock", f"card {sorted(deck - set(seen))[0]} of the deck is nowhere")
    if stock != tuple(sorted(stock)):
        raise InputError("stock", "must be sorted")
    for p in range(n):
        if penalties[p] < _bullheads_of(piles[p]):
            raise InputError(f"penalties[{p}]", "less than the bullheads of the player's pile")
    # the shape of each phase
    if phase == "draft":
        if rules.deal != "draft" or rows or pending or any(selected):
            raise InputError(
                "phase", "a draft has no rows, pending or selected cards and needs the logic deal"
            )
    else:
        if len(rows) != rules.rows or not all(rows):
            raise InputError("rows", f"expected {rules.rows} non-empty rows")
        for i, r in enumerate(rows):
            if list(r) != sorted(r) or len(r) > rules.capacity:
                raise InputError(f"rows[{i}]", f"must be ascending and hold at most {rules.capacity} cards")
    if rules.play != "flip":
        for p, h in enumerate(hands):
            if h != tuple(sorted(h)):
                raise InputError(f"hands[{p}]", "must be sorted")
    sizes = [len(h) for h in hands]
    if phase == "select":
        if pending or rules.play != "simultaneous":
            raise InputError("phase", "selection happens only in simultaneous play, with nothing pending")
        turn_left = max(sizes[p] + (1 if selected[p] else 0) for p in range(n))
        if turn_left == 0 or any(sizes[p] + (1 if selected[p] else 0) != turn_left for p in range(n)):
            raise InputError("hands", "hand sizes do not match the selections of this turn")
        if all(selected):
            raise InputError("selected", "every player has selected: the turn should have been revealed")
        for p in range(n):
            if selected[p] and selected[p] in hands[p]:
                raise InputError(f"selected[{p}]", "card is still in the hand")
    elif phase == "choose":
        if not pending or any(selected):
            raise InputError("pending", "a row choice needs a pending card and no hidden selection")
        pending_cards = [c for c, _ in pending]
        if pending_cards != sorted(pending_cards):
            raise InputError("pending", "must be in ascending order")
        if locate(rows, pending[0][0], rules.placement, rules.capacity, rules.tie_to_start).fits:
            raise InputError("pending[0]", "the card fits a row: no choice is due")
    elif phase == "flip":
        if pending or any(selected) or rules.play != "flip":
            raise InputError("phase", "a flip needs the kids variant and nothing pending or selected")
        done = n * rules.hand_size - sum(sizes)
        expected = [rules.hand_size - done // n - (1 if p < done % n else 0) for p in range(n)]
        if sizes != expected or sum(sizes) == 0:
            raise InputError("hands", "pile sizes do not match the seat-order flips")
    elif phase == "over" and (pending or any(selected) or any(sizes)):
        raise InputError("phase", "a finished game has no cards in hand, pending or selected")
    if phase == "draft":
        total = sum(sizes)
        if total >= n * rules.hand_size:
            raise InputError("hands", "the draft is complete")
        expected = [total // n + (1 if (p - start) % n < total % n else 0) for p in range(n)]
        if sizes != expected:
            raise InputError("hands", "hand sizes do not match the draft order")
    elif (
        phase in {"select", "choose"}
        and rules.deal == "shuffle"
        and len(stock) != len(rules.deck) - rules.cards_dealt
    ):
        raise InputError("stock", f"expected {len(rules.deck) - rules.cards_dealt} undealt cards")
    to_act = _derive_to_act(phase, rules, start, pending, hands=hands, selected=selected)
    return State(
        rules, seed, rnd, phase, rows, pending, piles, penalties, stock, start, deals, hands, selected, to_act
    )


# --------------------------------------------------------------------------------------------------
# The game object


class Take6:
    """6 nimmt! as an :class:`engine.game.Game` (exported as ``GAME``)."""

    name = GAME_INFO.name
    title = GAME_INFO.title
    min_players = GAME_INFO.min_players
    max_players = GAME_INFO.max_players
    max_game_length = GAME_INFO.max_game_length
    score_bounds = (GAME_INFO.score_min, GAME_INFO.score_max)
    variants: tuple[str, ...] = tuple(VARIANTS)
    options: tuple[str, ...] = tuple(OPTIONS)
    clauses: ClauseBook = CLAUSES

    def new_game(
        self,
        players: int,
        *,
        seed: int = 0,
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
        setup: Any = None,
    ) -> State:
        """A new game of ``variant`` (default standard) for ``players`` seats.

        Round r is dealt by the seeded procedure of :func:`deal_order` from ``(seed, r)``, unless ``setup``
        gives explicit set-ups for the first rounds: a :class:`Deal` (or :class:`DraftStart` for logic), or a
        sequence of them, one per round.  Raises IllegalSetup naming the clause.

        >>> s = GAME.new_game(3, seed=5, variant="tactics")
        >>> sorted([c for h in s.hands for c in h] + [r[0] for r in s.rows]) == list(range(1, 35))
        True
        """
        rules = rules_for(variant, players, options)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise IllegalSetup("T6-SETUP-4", f"seed must be a non-negative integer, got {seed!r}")
        deals = _check_setup(rules, setup)
        return _deal(rules, seed, 1, _ZEROS[rules.players], deals, prev_start=0, log=None)

    to_act: Callable[[State], tuple[int, ...]] = staticmethod(itemgetter(11))
    """The seats that must act now: every seat still to select, or the one choosing / drafting /
    flipping; ``()`` when the game is over.  The state stores them: a C ``itemgetter`` reads the field."""

    def legal_actions(self, state: State, player: int) -> tuple[Action, ...]:
        """Every legal action of ``player`` now, in canonical order (ascending card or row)."""
        if player in state[11]:
            phase = state[2]
            if phase == "select":
                return state[9][player]  # type: ignore[no-any-return]  # the hand's prebuilt selections
            if phase == "choose":
                return _TAKES[len(state[3])][player]
            if phase == "draft":
                return tuple(map(_DRAFT[player].__getitem__, state[1][2]))
            return _FLIP[player]
        return ()

    def apply(self, state: State, action: Action) -> State:
        """Checked tier: validate ``action`` (IllegalAction / NotYourTurn / GameOver naming the clause),
        then apply it.  The given state is never changed."""
        if action.__class__ is Select and state[2] == "select":
            # the common case, checked inline: the seat must select now and hold the card (T6-SELECT-1/2)
            p = action.player
            card = action.card
            if p.__class__ is int and card.__class__ is int and p in state[11] and card in state[8][p]:
                return self.apply_unchecked(state, action)
        _check(state, action)
        return _step(state, action)

    def apply_unchecked(self, state: State, action: Action) -> State:
        """Unchecked tier: ``action`` must come from ``legal_actions`` of this very state."""
        t = action.__class__
        if t is Select:
            # the hot path of _select, inlined: record the hidden selection
            p = action.player
            sel = list(state[10])
            sel[p] = action.card  # type: ignore[union-attr]
            acting = state[11]
            rest = acting[1:] if acting[0] == p else tuple(q for q in acting if q != p)
            if rest:
                return _new(State, state[:10] + (tuple(sel), rest))  # noqa: RUF005 (the fastest here)
            if state[0].placement == "ends":
                return _turn_fast(state, tuple(sel))
        elif t is TakeRow:
            return _take_row(state, action.player, action.row, None)  # type: ignore[union-attr]
        return _step(state, action)

    def is_terminal(self, state: State) -> bool:
        """True once the game is over (T6-END-1, T6-KIDS-3)."""
        return state.phase == "over"

    def result(self, state: State) -> Result:
        """Scores are bullheads taken (every variant, countdown included: T6-COUNT-1); winners share ties
        (T6-END-3); the lowest wins (T6-END-2), in kids the highest (T6-KIDS-4)."""
        if state.phase != "over":
            raise IllegalAction("T6-END-1", "the game is not over")
        return _result(state, state.rules)

    def observation(self, state: State, player: int) -> dict[str, Any]:
        """What ``player`` may see: their own hand (kids: only their pile's size), the rows, penalties, the
        face-up logic pool, revealed cards awaiting placement, and only *whether* others have selected."""
        rules = state.rules
        n = state.players
        if not 0 <= player < n:
            raise InputError("player", f"expected a seat 0..{n - 1}, got {show(player)}")
        flip = rules.play == "flip"
        obs: dict[str, Any] = {
            "game": "take6",
            "variant": state.variant,
            "players": n,
            "player": player,
            "round": state.round,
            "phase": state.phase,
            "to_act": list(state.to_act),
            "rows": [list(r) for r in state.rows],
            "row_bullheads": [_bullheads_of(r) for r in state.rows],
            "hand": None if flip else list(state.hands[player]),
            "hand_sizes": [len(h) for h in state.hands],
            "selected": [bool(c) for c in state.selected],
            "my_selection": state.selected[player] or None,
            "pending": [[c, p] for c, p in state.pending],
            "piles": [list(x) for x in state.piles],
            "penalties": list(state.penalties),
            "pool": list(state.stock) if state.phase == "draft" else None,
            "stock_size": len(state.stock),
        }
        if rules.countdown_from is not None:
            obs["points_left"] = [rules.countdown_from - x for x in state.penalties]
        return obs

    def state_to_json(self, state: State) -> dict[str, Any]:
        """Canonical JSON form of the whole state (``to_act`` is derived, so not stored)."""
        return {
            "game": "take6",
            "variant": state.variant,
            "players": state.players,
            "seed": state.seed,
            "options": dict(state.options),
            "round": state.round,
            "phase": state.phase,
            "rows": [list(r) for r in state.rows],
            "pending": [[c, p] for c, p in state.pending],
            "piles": [list(x) for x in state.piles],
            "penalties": list(state.penalties),
            "stock": list(state.stock),
            "start": state.start,
            "deals": [_setup_to_json(x) for x in state.deals],
            "hands": [list(h) for h in state.hands],
            "selected": [c or None for c in state.selected],
        }

    def state_from_json(self, data: Any) -> State:
        """Parse and validate a JSON state (InputError naming the field): types and ranges, every card of
        the deck in exactly one place, rows ascending within capacity, the phase consistent with the hands."""
        return _state_from_json(data)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        """Canonical JSON form: ``{"type": ..., "player": ..., ...}``."""
        if isinstance(action, Select):
            return {"type": "select", "player": action.player, "card": action.card}
        if isinstance(action, TakeRow):
            return {"type": "take_row", "player": action.player, "row": action.row}
        if isinstance(action, Draft):
            return {"type": "draft", "player": action.player, "card": action.card}
        return {"type": "flip", "player": action.player}

    def action_from_json(self, data: Any) -> Action:
        """Parse and validate a JSON action (InputError naming the field).

        >>> GAME.action_from_json({"type": "select", "player": 1, "card": 33})
        Select(player=1, card=33)
        >>> GAME.action_from_json({"type": "select", "player": 1, "card": 0})
        Traceback (most recent call last):
        ...
        engine.errors.InputError: card: expected an integer from 1 to 104, got 0
        """
        if not isinstance(data, dict):
            raise InputError("action", f"expected an object, got {type(data).__name__}")
        kind = data.get("type")
        if kind == "select":
            d = _obj(data, "", ("type", "player", "card"))
            return Select(_int(d["player"], "player", 0, _MAXP - 1), _int(d["card"], "card", 1, _MAXC))
        if kind == "take_row":
            d = _obj(data, "", ("type", "player", "row"))
            return TakeRow(
                _int(d["player"], "player", 0, _MAXP - 1), _int(d["row"], "row", 0, len(_TAKE[0]) - 1)
            )
        if kind == "draft":
            d = _obj(data, "", ("type", "player", "card"))
            return Draft(_int(d["player"], "player", 0, _MAXP - 1), _int(d["card"], "card", 1, _MAXC))
        if kind == "flip":
            d = _obj(data, "", ("type", "player"))
            return Flip(_int(d["player"], "player", 0, _MAXP - 1))
        raise InputError("type", f"expected select, take_row, draft or flip, got {show(kind)}")

    def narrate(self, before: State, action: Action, after: State) -> tuple[str, ...]:
        """Readable lines for one step, from re-running the transition with a log: the selection (hidden)
        or the reveal, where each card goes and why, rows taken with their bullheads, the low-card choice,
        round scores, the next deal, final standings."""
        log: list[str] = []
        _step(before, action, log)
        return tuple(log)

    def describe_state(self, state: State) -> tuple[str, ...]:
        """The public position: round and phase, the rows with their bullheads, the totals."""
        rules = state.rules
        waiting = ", ".join(f"P{p}" for p in state.to_act) or "nobody"
        lines = [f"Round {state.round}, {state.phase}: waiting for {waiting}."]
        if state.phase == "draft":
            lines.append(f"  Face-up pool: {_names(state.stock)}")
        for i, r in enumerate(state.rows):
            lines.append(f"  Row {i}: {_names(r):<20} ({_plural(_bullheads_of(r), 'bullhead')})")
        label = "Points left" if rules.display == "countdown" else "Bullheads taken"
        lines.append(
            f"  {label}: " + ", ".join(f"P{p} {_shown(rules, x)}" for p, x in enumerate(state.penalties))
        )
        return tuple(lines)


GAME = Take6()
