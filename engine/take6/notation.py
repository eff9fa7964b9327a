"""6 nimmt! position notation: one line a person can type and read, like FEN in chess.

Fields are separated by single spaces, in this order (grammar in docs/positions.md)::

    variant round phase rows hands pending piles totals [seed=N] [start=SEAT] [deals=DEAL;DEAL...]

* ``variant``: ``standard``, ``tactics``, ``logic``, ``professional``, ``kids`` or ``countdown``; options
  that differ from the default follow in brackets: ``professional[professional_tie=start]``.
* ``round``: the round number, from 1.  ``phase``: ``select``, ``choose``, ``draft``, ``flip``, ``deal``
  (the round waits for its deal) or ``over``.
* ``rows``: rows separated by ``/``, a row's cards by ``.``, in row order (``-``: no rows yet).
* ``hands``: one per seat, separated by ``/`` (the number of hands is the number of players); cards by
  ``.`` (kids: the pile, top card first); ``*C`` after a hand: the card the seat has secretly selected;
  ``-`` an empty hand.
* ``pending``: revealed cards waiting to be placed, ``CARD@SEAT`` separated by ``.``, lowest first (``-``).
* ``piles``: the cards each seat took this round, one per seat separated by ``/`` (``-``: none at all).
* ``totals``: each seat's bullheads from earlier rounds, separated by ``/``.
* ``seed=N``: later rounds are dealt from seed N; without it each later round waits for its deal.
  ``start=SEAT``: the logic draft's first drafter (logic only).  ``deals=``: the explicit deals of the
  coming rounds, separated by ``;``: ``HANDS|ROWCARDS`` (hands as above, row cards by ``.``), logic
  ``@SEAT``.

>>> text = "standard 2 select 3.10/22/40.41.45/90 5.8.60*61/7.9.70.71 - - 12/0"
>>> state = from_notation(text)
>>> state.hands, state.selected, state.totals_before_round, state.turn
(((5, 8, 60), (7, 9, 70, 71)), (61, 0), (12, 0), 7)
>>> to_notation(state) == text
True
>>> from_notation("standard 2 select 3.10/22/40.41.45/90 5.8.60*61/7.9.70.71 - - 12")
Traceback (most recent call last):
...
engine.errors.PositionError: totals (token 8 '12'): expected 2 entries (one per player), got 1 [T6-ROUND-2]
"""

from __future__ import annotations

from typing import Any

from engine.errors import InputError
from engine.jsonio import show
from engine.position_input import Tokens
from engine.take6.model import Deal, DraftStart, Setup, State
from engine.take6.position import position
from engine.take6.rules import VARIANTS, rules_for

__all__ = ["FIELDS", "from_notation", "to_notation"]

FIELDS: tuple[str, ...] = ("variant", "round", "phase", "rows", "hands", "pending", "piles", "totals")
"""The positional fields of a notation line, in order; ``seed=``, ``start=``, ``deals=`` may follow."""
_EXTRAS = ("seed", "start", "deals")


def _cards(cards: tuple[int, ...]) -> str:
    return ".".join(map(str, cards)) or "-"


def _hands(hands: tuple[tuple[int, ...], ...], selected: tuple[int, ...] | None = None) -> str:
    out = []
    for p, h in enumerate(hands):
        c = selected[p] if selected else 0
        text = ".".join(map(str, h))
        out.append(text + f"*{c}" if c else text or "-")
    return "/".join(out)


def _deal_text(item: Setup) -> str:
    if isinstance(item, DraftStart):
        return f"@{item.player}"
    return _hands(item.hands) + "|" + ".".join(map(str, item.rows))


def to_notation(state: State) -> str:
    """The notation line of ``state`` (exact: :func:`from_notation` gives back an equal state).

    >>> from engine.take6 import GAME
    >>> to_notation(GAME.new_game(2, seed=1)).split()[:4]
    ['standard', '1', 'select', '30/33/81/78']
    """
    rules = state.rules
    defaults = dict(rules_for(rules.variant, rules.players).options)
    changed = [f"{k}={v}" for k, v in rules.options if defaults.get(k) != v]
    variant = rules.variant + (f"[{','.join(changed)}]" if changed else "")
    rows = "/".join(_cards(r) for r in state.rows) or "-"
    pending = ".".join(f"{c}@{p}" for c, p in state.pending) or "-"
    piles = "/".join(_cards(x) for x in state.piles) if any(state.piles) else "-"
    totals = "/".join(map(str, state.totals_before_round))
    fields = [
        variant,
        str(state.round),
        state.phase,
        rows,
        _hands(state.hands, state.selected),
        pending,
        piles,
        totals,
    ]
    if state.seed is not None:
        fields.append(f"seed={state.seed}")
    if rules.deal == "draft":
        fields.append(f"start={state.start}")
    if state.deals:
        fields.append("deals=" + ";".join(_deal_text(d) for d in state.deals))
    return " ".join(fields)


class _Reader(Tokens):
    """Reads one 6 nimmt! notation line token by token; errors name the token (its number and text)."""

    def cards(self, text: str, name: str, index: int) -> tuple[int, ...]:
        if text in ("-", ""):
            return ()
        return tuple(self.number(c, name, index) for c in text.split("."))

    def hands(self, text: str, name: str, index: int) -> tuple[list[tuple[int, ...]], list[int | None]]:
        hands: list[tuple[int, ...]] = []
        selected: list[int | None] = []
        for part in text.split("/"):
            hand, star, sel = part.partition("*")
            hands.append(self.cards(hand, name, index))
            selected.append(self.number(sel, name, index) if star else None)
        return hands, selected


def from_notation(text: str) -> State:
    """Read a notation line; a malformed token raises InputError and a position that breaks a rule
    PositionError, both naming the token (number and text) and, for a rule, the clause."""
    r = _Reader(text)
    tokens = r.tokens
    if len(tokens) < len(FIELDS):
        missing = FIELDS[len(tokens)]
        raise InputError("position", f"{len(tokens)} fields, expected {len(FIELDS)}: {missing} is missing")
    index = {name: i for i, name in enumerate(FIELDS)}
    index.update(players=4, selected=4, options=0)
    head, options = r.variant(tuple(VARIANTS), lambda text, _key, _i: text)
    rnd = r.number(tokens[1], "round", 1)
    rows = [r.cards(t, "rows", 3) for t in tokens[3].split("/")] if tokens[3] != "-" else []
    hands, selected = r.hands(tokens[4], "hands", 4)
    pending = []
    if tokens[5] != "-":
        for item in tokens[5].split("."):
            card, at, seat = item.partition("@")
            if not at:
                raise r.fail("pending", 5, f"expected CARD@SEAT, got {show(item)}")
            pending.append((r.number(card, "pending", 5), r.number(seat, "pending", 5)))
    piles = None if tokens[6] == "-" else [r.cards(t, "piles", 6) for t in tokens[6].split("/")]
    totals = [r.number(t, "totals", 7) for t in tokens[7].split("/")]
    extras: dict[str, Any] = {}
    for i in range(len(FIELDS), len(tokens)):
        key, eq, value = tokens[i].partition("=")
        if not eq or key not in _EXTRAS:
            raise r.fail("extra", i, f"expected seed=, start= or deals=, got {show(tokens[i])}")
        if key in extras:
            raise r.fail(key, i, f"{key}= is given twice")
        index[key] = i
        if key == "deals":
            extras[key] = [_read_deal(r, part, i) for part in value.split(";")]
        else:
            extras[key] = r.number(value, key, i)
    return r.rebuilt(
        lambda: position(
            variant=head,
            options=options,
            round=rnd,
            phase=tokens[2],
            rows=rows,
            hands=hands,
            selected=selected,
            pending=pending,
            piles=piles,
            totals=totals,
            seed=extras.get("seed"),
            start=extras.get("start", 0),
            deals=extras.get("deals", ()),
        ),
        index,
    )


def _read_deal(r: _Reader, part: str, index: int) -> Setup:
    if part.startswith("@"):
        return DraftStart(r.number(part[1:], "deals", index))
    hands, bar, rows = part.partition("|")
    if not bar:
        raise r.fail("deals", index, f"expected HANDS|ROWCARDS or @SEAT, got {show(part)}")
    held, selected = r.hands(hands, "deals", index)
    if any(c is not None for c in selected):
        raise r.fail("deals", index, "a deal has no selected cards")
    return Deal(hands=held, rows=r.cards(rows, "deals", index))
