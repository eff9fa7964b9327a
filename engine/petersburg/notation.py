"""Saint Petersburg position notation: one line a person can type and read, like FEN in chess.

Fields are separated by single spaces, in this order (grammar in docs/positions.md)::

    variant round phase turn passes markers upper lower stacks discard SEAT... [last]

* ``variant``: ``first`` or ``second``; options that differ from the default follow in brackets:
  ``first[trading_discount=false]``.
* ``round``: from 1.  ``phase``: ``worker``, ``building``, ``aristocrat``, ``trading``, ``over``,
  ``pub:S.S`` (Pub decisions pending; the seats still to decide, the first decides now) or
  ``observatory:CARD`` (the card an Observatory drew), ``reveal`` (a card refilled into the upper row from
  a stack of unknown order awaits its reveal) or ``reveal:?STACK`` (the Observatory's card does).
  ``turn``: the seat to act.  ``passes``: the consecutive passes so far.  ``markers``: the seats holding
  the worker/building/aristocrat/trading start-player markers, separated by ``/``.
* Card lists (``upper``, ``lower``, ``discard``, each stack, a seat's hand, area and turned Observatories)
  are card codes separated by ``,`` (``-``: empty); ``CODE*N`` is N copies in a row.  A card's code is its
  name without spaces or punctuation (``GoldMiner``, ``PotjomkinsVillage``), any case; any edition's name
  or a known alias works.  Rows, stacks (top card first) and the discard pile keep their order.
* ``stacks``: the worker/building/aristocrat/trading stacks, separated by ``/`` (``-``: all four empty).
  A stack of unknown order (SP-REVEAL-1) is ``KNOWN~UNKNOWN``: its known top cards (``-`` or nothing:
  none), ``~``, then the multiset of its other cards in kind order (``~Market*5,Pub*2``).  A card drawn
  from it and not yet revealed is ``?STACK`` (``?building``) in the upper row, still listed in the
  stack's multiset.
* One ``SEAT`` per player: ``money:vp:hand:area:turned``.
* ``last``: the game ends after this round (a stack ran out).  Cards written nowhere are out of the game.

>>> text = ("first 3 building 1 0 0/1/0/1 Market,Pub Lumberjack - - "
...         "12:4:-:Lumberjack*2,Shepherd:- 30:2:Bank:GoldMiner:-")
>>> state = from_notation(text)
>>> state.phase, state.turn, state.cards("area", 0), state.cards("hand", 1)
('building', 1, ('Lumberjack', 'Lumberjack', 'Shepherd'), ('Bank',))
>>> to_notation(state) == text
True
>>> from_notation(text.replace("12:4", "12:x"))
Traceback (most recent call last):
...
engine.errors.InputError: seat 0 (token 11 '12:x:-:Lumberjack*2,Shepherd:-'): expected a number, got 'x'
"""

from __future__ import annotations

import functools
import re

from engine.errors import InputError
from engine.jsonio import show
from engine.petersburg.catalog import OPTIONS, STACKS, VARIANTS
from engine.petersburg.model import State, card_name
from engine.petersburg.names import resolve_card
from engine.petersburg.position import position
from engine.petersburg.ruleset import Ruleset, ruleset
from engine.position_input import Tokens

__all__ = ["FIELDS", "card_code", "from_notation", "to_notation"]

FIELDS: tuple[str, ...] = (
    "variant",
    "round",
    "phase",
    "turn",
    "passes",
    "markers",
    "upper",
    "lower",
    "stacks",
    "discard",
)
"""The fixed fields of a notation line, in order; one seat field per player and ``last`` follow."""


def card_code(name: str) -> str:
    """A card's notation code: its name without spaces or punctuation.

    >>> card_code("Potjomkin's Village"), card_code("Czar & Carpenter")
    ('PotjomkinsVillage', 'CzarCarpenter')
    """
    return re.sub(r"[^0-9A-Za-z]", "", name)


@functools.cache
def _codes() -> dict[str, int]:
    """Every edition's codes (lower case) -> card kind."""
    out: dict[str, int] = {}
    for variant in VARIANTS:
        rs = ruleset(variant)
        for k, name in enumerate(rs.names):
            out.setdefault(card_code(name).lower(), k)
    return out


def _list(rs: Ruleset, kinds: tuple[int, ...]) -> str:
    out: list[str] = []
    i = 0
    while i < len(kinds):
        j = i
        while j + 1 < len(kinds) and kinds[j + 1] == kinds[i]:
            j += 1
        k = kinds[i]
        code = card_code(rs.names[k]) if k < len(rs.names) else card_name(rs, k)
        out.append(code if j == i else f"{code}*{j - i + 1}")
        i = j + 1
    return ",".join(out) or "-"


def _stack(state: State, i: int) -> str:
    rs = state.rules
    known = _list(rs, tuple(k for k in state.stacks[i] if k < len(rs.names)))
    if not state.hidden or not state.hidden[i]:
        return known
    return ("" if known == "-" else known) + "~" + _list(rs, state.hidden[i])


def to_notation(state: State) -> str:
    """The notation line of ``state`` (exact: :func:`from_notation` gives back an equal state).

    >>> from engine.petersburg import GAME
    >>> to_notation(GAME.new_game(2, seed=1)).split()[:7]
    ['first', '1', 'worker', '0', '0', '0/0/1/1', 'Shepherd,ShipBuilder,GoldMiner,FurTrapper']
    """
    rs = state.rules
    defaults = dict(ruleset(rs.variant).options)
    changed = [f"{k}={str(v).lower()}" for k, v in rs.options if defaults.get(k) != v]
    variant = rs.variant + (f"[{','.join(changed)}]" if changed else "")
    phase = state.phase
    if phase == "pub":
        phase += ":" + ".".join(map(str, state.pub_queue))
    elif phase == "observatory":
        phase += ":" + card_code(rs.names[state.drawn])
    elif phase == "reveal" and state.drawn >= 0:
        phase += ":" + card_name(rs, state.drawn)
    fields = [
        variant,
        str(state.round),
        phase,
        str(state.turn),
        str(state.passes),
        "/".join(map(str, state.markers)),
        _list(rs, state.upper),
        _list(rs, state.lower),
        "/".join(_stack(state, i) for i in range(len(STACKS))) if any(state.stacks) or state.hidden else "-",
        _list(rs, state.discard),
    ]
    for p in range(state.players):
        seat = (
            str(state.money[p]),
            str(state.vp[p]),
            _list(rs, state.hands[p]),
            _list(rs, state.areas[p]),
            _list(rs, state.turned[p]),
        )
        fields.append(":".join(seat))
    if state.last_round:
        fields.append("last")
    return " ".join(fields)


class _Reader(Tokens):
    """Reads one Saint Petersburg notation line token by token; errors name the token."""

    def switch(self, text: str, option: str, index: int) -> bool:
        """An option's value: ``true`` or ``false``."""
        if option not in OPTIONS:
            raise self.fail("variant", index, f"unknown option {show(option)} (known: {', '.join(OPTIONS)})")
        if text not in ("true", "false"):
            raise self.fail("variant", index, f"expected {option}=true or {option}=false, got {show(text)}")
        return text == "true"

    def card(self, code: str, name: str, index: int) -> str:
        if code.startswith("?"):
            if code[1:] not in STACKS or name not in ("upper", "phase"):
                raise self.fail(
                    name, index, f"an unknown drawn card is ?STACK in the upper row, got {show(code)}"
                )
            return code
        k = _codes().get(code.lower())
        if k is None:
            k = resolve_card(code)
        if k is None:
            raise self.fail(name, index, f"no Saint Petersburg card with the code {show(code)}")
        return ruleset().names[k]

    def cards(self, text: str, name: str, index: int) -> list[str]:
        if text == "-":
            return []
        out: list[str] = []
        for item in text.split(","):
            code, star, count = item.partition("*")
            times = self.number(count, name, index) if star else 1
            if times < 1 or times > 40:
                raise self.fail(name, index, f"a count is 1 to 40, got {times}")
            out.extend([self.card(code, name, index)] * times)
        return out


def from_notation(text: str) -> State:
    """Read a notation line; a malformed token raises InputError and a position that breaks a rule
    PositionError, both naming the token (number and text) and, for a rule, the clause."""
    r = _Reader(text)
    tokens = r.tokens
    if len(tokens) < len(FIELDS) + 1:
        missing = FIELDS[len(tokens)] if len(tokens) < len(FIELDS) else "seat"
        raise InputError(
            "position", f"{len(tokens)} fields, expected at least {len(FIELDS) + 1}: {missing} is missing"
        )
    last = tokens[-1] == "last"
    seats = tokens[len(FIELDS) : len(tokens) - last]
    head, options = r.variant(tuple(VARIANTS), r.switch)
    phase, colon, detail = tokens[2].partition(":")
    drawn: str | None = None
    queue: list[int] = []
    if phase == "pub" and colon:
        queue = [r.number(q, "phase", 2) for q in detail.split(".")]
    elif phase in ("observatory", "reveal") and colon:
        drawn = r.card(detail, "phase", 2)
    elif colon:
        raise r.fail("phase", 2, "only pub:SEATS, observatory:CARD and reveal:?STACK carry a detail")
    marks = [r.number(m, "markers", 5) for m in tokens[5].split("/")]
    stack_lists = ["-"] * len(STACKS) if tokens[8] == "-" else tokens[8].split("/")
    if len(stack_lists) != len(STACKS):
        raise r.fail("stacks", 8, f"expected {len(STACKS)} stacks separated by '/' ({', '.join(STACKS)})")
    stacks: dict[str, list[str]] = {}
    unknown: dict[str, list[str]] = {}
    for name, t in zip(STACKS, stack_lists, strict=True):
        known, tilde, rest = t.partition("~")
        stacks[name] = r.cards(known or "-", "stacks", 8)
        if tilde:
            unknown[name] = r.cards(rest, "stacks", 8)
    money, vp, hands, areas, turned = [], [], [], [], []
    for p, tok in enumerate(seats):
        i = len(FIELDS) + p
        parts = tok.split(":")
        if len(parts) != 5:
            raise r.fail(f"seat {p}", i, "expected money:vp:hand:area:turned")
        money.append(r.number(parts[0], f"seat {p}", i))
        vp.append(r.number(parts[1], f"seat {p}", i, signed=True))
        hands.append(r.cards(parts[2], f"seat {p}", i))
        areas.append(r.cards(parts[3], f"seat {p}", i))
        turned.append(r.cards(parts[4], f"seat {p}", i))
    where = {name: i for i, name in enumerate(FIELDS)}
    where.update({"pub_queue": 2, "drawn": 2, "unknown": 8})  # (last_round is read as a bool: never refused)
    for key in ("money", "vp", "hands", "areas", "turned"):
        where[key] = len(FIELDS)
    return r.rebuilt(
        lambda: position(
            players=len(seats),
            variant=head,
            options=options,
            round=r.number(tokens[1], "round", 1),
            phase=phase,
            turn=r.number(tokens[3], "turn", 3),
            passes=r.number(tokens[4], "passes", 4),
            markers=marks,
            upper=r.cards(tokens[6], "upper", 6),
            lower=r.cards(tokens[7], "lower", 7),
            stacks=stacks,
            unknown=unknown,
            discard=r.cards(tokens[9], "discard", 9),
            money=money,
            vp=vp,
            hands=hands,
            areas=areas,
            turned=turned,
            drawn=drawn,
            pub_queue=queue,
            last_round=last,
        ),
        where,
        seats=("money", "vp", "hands", "areas", "turned"),
        first_seat=len(FIELDS),
    )
