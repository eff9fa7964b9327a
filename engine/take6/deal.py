"""Dealing a round of 6 nimmt!: the seeded shuffle (T6-SETUP-4), explicit deals (T6-SETUP-5), the logic
draft's start (T6-LOGIC-1, T6-LOGIC-3), and the chance step when a round's deal is not known in advance.

>>> from engine.take6.rules import rules_for
>>> deal_order(rules_for("standard", 2), 0, 1)[:3]
[18, 73, 98]
"""

from __future__ import annotations

import functools
import random
from _random import Random as _Random
from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from engine.derivation import Trace
from engine.errors import IllegalSetup
from engine.take6.layout import ALL, EMPTY, ONE, ZEROS, build, new
from engine.take6.model import SELECTS, Deal, DraftStart, Select, Setup, State, selects_of
from engine.take6.rules import Rules

__all__ = [
    "SEED_STRIDE",
    "awaiting_deal",
    "check_setup",
    "deal_order",
    "deal_round",
    "derived_seed",
    "with_seed",
]

SEED_STRIDE = 65536


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

    >>> from engine.take6.rules import rules_for
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


def deal_round(
    rules: Rules,
    s_seed: int | None,
    rnd: int,
    penalties: tuple[int, ...],
    deals: tuple[Setup, ...],
    *,
    prev_start: int,
    trace: Trace | None,
) -> State:
    """The state at the start of round ``rnd``: its deal (T6-SETUP-4, T6-SETUP-5) or its logic draft.

    The deal is the next of ``deals`` if any is left, else the seeded one; without a seed (``None``) the
    round waits in phase ``deal`` for its deal as a chance step (:func:`awaiting_deal`)."""
    n = rules.players
    explicit: Setup | None = None
    if deals:
        explicit, deals = deals[0], deals[1:]
    elif s_seed is None and not (rules.deal == "draft" and rnd > 1 and _rotates(rules)):
        return awaiting_deal(rules, rnd, penalties, prev_start)
    if rules.deal == "draft":
        if isinstance(explicit, DraftStart):
            start, how = explicit.player, "given"
        elif rnd > 1 and _rotates(rules):
            start, how = (prev_start + 1) % n, "rotates"
        else:
            assert s_seed is not None
            start, how = random.Random(derived_seed(s_seed, rnd)).randrange(n), "seeded"
        if trace is not None:
            trace.add(
                "T6-LOGIC-1" if how == "given" or rnd == 1 else "T6-LOGIC-3",
                "draft-starts",
                {"round": rnd, "start": start, "how": how},
                note=f"Round {rnd}: cards {rules.deck[0]}..{rules.deck[-1]} lie face up; "
                f"P{start} drafts first",
                chosen="logic_start=rotate" if how == "rotates" else None,
            )
        empty = EMPTY[n]
        return build(
            rules=rules,
            fixed=(s_seed, rnd, rules.deck, start, deals),
            phase="draft",
            rows=(),
            ends=(),
            pending=(),
            piles=empty,
            penalties=penalties,
            held=empty,
            selects=selects_of(rules, empty),
            selected=ZEROS[n],
            to_act=(start,),
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
        assert s_seed is not None
        order = _draw(rules.deck, n * h + rules.rows, s_seed * SEED_STRIDE + rnd)
        row_cards = order[n * h :]
        source = ""  # named in the derivation only
        if flip:
            hands = tuple(tuple(order[p * h : (p + 1) * h]) for p in range(n))
        elif h > 1 and trace is None:  # the hot path: each hand sorted, its selections picked in one C call
            dealt: list[tuple[int, ...]] = []
            moves: list[tuple[Select, ...]] = []
            a = 0
            for interned in SELECTS[:n]:
                hand = order[a : a + h]
                hand.sort()
                dealt.append(tuple(hand))
                moves.append(itemgetter(*hand)(interned))
                a += h
            # the hot path's positional form, in the layout's field order (see layout.build)
            return new(
                State,
                (
                    rules,
                    (s_seed, rnd, None, 0, deals),
                    "select",
                    tuple(map(ONE.__getitem__, row_cards)),
                    tuple(row_cards),
                    (),
                    EMPTY[n],
                    penalties,
                    tuple(dealt),
                    tuple(moves),
                    ZEROS[n],
                    ALL[n],
                ),
            )
        else:
            hands = tuple(tuple(sorted(order[p * h : (p + 1) * h])) for p in range(n))
    rows = tuple(map(ONE.__getitem__, row_cards))
    phase, to_act = ("flip", (0,)) if flip else ("select", ALL[n])  # the round opens with flips or selections
    if trace is not None:
        what = "face-down piles" if flip else "hands"
        source = source or f"seeded deal {derived_seed(s_seed or 0, rnd)}"
        with trace.step(
            "T6-SETUP-5" if isinstance(explicit, Deal) else "T6-SETUP-4",
            "dealt",
            {
                "round": rnd,
                "hands": [list(hand) for hand in hands],
                "rows": list(row_cards),
                "source": source,
                "phase": phase,
                "to_act": list(to_act),
            },
            note=f"Round {rnd}: {n} {what} of {h} cards ({source}); rows start with "
            f"{', '.join(str(c) for c in row_cards)}",
        ):
            trace.add("T6-SETUP-2", "hands", {"players": n, "hand_size": h})
            trace.add("T6-SETUP-3", "rows", {"rows": list(row_cards)})
    return build(
        rules=rules,
        fixed=(s_seed, rnd, None, 0, deals),
        phase=phase,
        rows=rows,
        ends=tuple(row_cards),
        pending=(),
        piles=EMPTY[n],
        penalties=penalties,
        held=hands,
        selects=() if flip else selects_of(rules, hands),
        selected=ZEROS[n],
        to_act=to_act,
    )


def _rotates(rules: Rules) -> bool:
    """Logic with ``logic_start=rotate``: rounds after the first need no random start (T6-LOGIC-3)."""
    return rules.option_map.get("logic_start") == "rotate"


def awaiting_deal(rules: Rules, rnd: int, penalties: tuple[int, ...], start: int) -> State:
    """Round ``rnd`` of a game without a seed, before its deal: phase ``deal``, nobody to act; the next step
    is the chance outcome, a :class:`Deal` (logic: a :class:`DraftStart`) given to ``GAME.apply``.

    >>> from engine.take6.rules import rules_for
    >>> s = awaiting_deal(rules_for("standard", 2), 2, (5, 0), 0)
    >>> s.phase, s.to_act, s.rows, s.penalties
    ('deal', (), (), (5, 0))
    """
    n = rules.players
    stock = rules.deck if rules.deal == "draft" else None
    return build(
        rules=rules,
        fixed=(None, rnd, stock, start, ()),
        phase="deal",
        rows=(),
        ends=(),
        pending=(),
        piles=EMPTY[n],
        penalties=penalties,
        held=EMPTY[n],
        selects=selects_of(rules, EMPTY[n]),
        selected=ZEROS[n],
        to_act=(),
    )


def check_setup(rules: Rules, setup: object) -> tuple[Setup, ...]:
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


def with_seed(state: State, seed: int) -> State:
    """The same position with the later rounds dealt from ``seed`` (T6-SETUP-4); a round waiting for its
    deal is dealt from the seed at once.

    >>> from engine.take6 import GAME
    >>> s = with_seed(GAME.new_game(2, seed=None), 3)
    >>> s.seed, s.phase
    (3, 'select')
    """
    if state.phase == "deal":
        rules, rnd, penalties = state.rules, state.round, state.penalties
        return deal_round(rules, seed, rnd, penalties, (), prev_start=state.start, trace=None)
    fields: list[Any] = [seed if name == "seed" else getattr(state, name) for name in State.FIELDS]
    return State(*fields)
