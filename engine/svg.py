"""Positions as SVG pictures (like python-chess's ``chess.svg``): a 6 nimmt! table, a Saint Petersburg board.

The drawing reads a position through the game's own views, never its internal layout: with a ``viewer``
it draws :meth:`~engine.game.Game.observation` of that seat (so nothing the seat may not see can appear in
the picture), without one the whole :meth:`~engine.game.Game.state_to_json` (every hand, every purse).
Numbers shown come from the engine's functions (``bullheads``; ``cost_breakdown`` and
``displacement_targets`` for the effective costs).  The output is deterministic: the same position and
arguments give the same bytes, with no random ids, no clock and no fonts embedded.

* :func:`take6_svg` — the rows with card numbers and bullhead marks, each row's total, the revealed cards
  waiting to be placed (and, in the ``choose`` phase, what taking each row would cost), each player's
  bullheads, hand size and face-down selection, and optionally one player's hand.
* :func:`petersburg_svg` — the phase track with the start markers, the stacks left, the upper and lower
  rows with each card's effective cost for one player, and each player's area grouped by colour, with VP,
  hand size and (where the viewer may see it) money and hand.
* :func:`board_svg` — either, chosen by game name; :func:`repr_svg` — the picture of a state, for
  notebooks (``_repr_svg_``).

>>> from engine.game import get_game
>>> game = get_game("take6")
>>> picture = take6_svg(game.new_game(3, seed=1), viewer=0)
>>> picture.startswith("<svg") and "Row 0" in picture
True
>>> take6_svg(game.new_game(3, seed=1)) == take6_svg(game.new_game(3, seed=1))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from engine.errors import IllegalAction, InputError
from engine.game import Game, get_game
from engine.game import game_of as _game_of
from engine.petersburg import cost_breakdown, displacement_targets, ruleset
from engine.petersburg.model import State as PetersburgState
from engine.take6 import bullheads, rules_for
from engine.take6.model import State as Take6State

__all__ = ["board_svg", "game_of", "petersburg_svg", "repr_svg", "take6_svg"]

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

# Card face colours by bullheads, as on the printed cards (1 plain, 2 blue, 3 yellow, 5 red, 7 violet).
BULL_FILL: Mapping[int, str] = {1: "#ffffff", 2: "#cfe3ff", 3: "#fff1a8", 5: "#ffc2b3", 7: "#e2c6ff"}

# Saint Petersburg card colours (the phase whose scoring pays the card).
SP_FILL: Mapping[str, str] = {"green": "#cfe9c9", "blue": "#cddcf5", "red": "#f5d0cb"}
SP_INK: Mapping[str, str] = {"green": "#2e7d32", "blue": "#1f4e9c", "red": "#b3261e"}


class _Svg:
    """A small SVG writer: elements are appended as text, attributes quoted, numbers written as integers."""

    def __init__(self, width: int, height: int, title: str) -> None:
        self.width = width
        self.height = height
        self.parts: list[str] = [f"<title>{escape(title)}</title>"]

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        fill: str = "none",
        stroke: str = "#333",
        rx: int = 4,
        dash: bool = False,
        width: float = 1,
        cls: str | None = None,
    ) -> None:
        extra = ' stroke-dasharray="4 3"' if dash else ""
        extra += f' class="{cls}"' if cls else ""
        self.parts.append(
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="{rx}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{_n(width)}"{extra}/>'
        )

    def text(
        self,
        x: float,
        y: float,
        content: str,
        *,
        size: int = 12,
        weight: str = "normal",
        anchor: str = "start",
        fill: str = "#222",
        cls: str | None = None,
    ) -> None:
        extra = f' class="{cls}"' if cls else ""
        self.parts.append(
            f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{fill}"{extra}>{escape(content)}</text>'
        )

    def circle(self, x: float, y: float, r: float, *, fill: str, stroke: str = "none") -> None:
        self.parts.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{fill}" stroke="{stroke}"/>')

    def open_group(self, **attrs: str) -> None:
        names = {"cls": "class"}
        shown = "".join(
            f" {names.get(k, k.replace('_', '-'))}={quoteattr(v)}" for k, v in sorted(attrs.items())
        )
        self.parts.append(f"<g{shown}>")

    def close_group(self) -> None:
        self.parts.append("</g>")

    def done(self, height: int | None = None) -> str:
        h = height if height is not None else self.height
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{h}" '
            f'viewBox="0 0 {self.width} {h}" font-family="{FONT}">'
        )
        return (
            head
            + f'<rect width="{self.width}" height="{h}" fill="#fbfaf6"/>'
            + "".join(self.parts)
            + "</svg>"
        )


def _n(value: float) -> str:
    """A coordinate as text: integers stay integers, others keep one decimal (deterministic)."""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def _seat(data: Mapping[str, Any], viewer: int | None, key: str = "viewer") -> None:
    if viewer is None:
        return
    players = data["players"]
    if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < players:
        raise InputError(key, f"expected a seat 0..{players - 1}, got {viewer!r}")


def _who(seats: Iterable[int]) -> str:
    return ", ".join(f"P{p}" for p in seats) or "nobody"


# --------------------------------------------------------------------------------------------------
# 6 nimmt!
#
#   y=0    title: 6 nimmt! · round · phase · who acts
#   y=40   Row 0  [c][c][c][c][c] [6th]   total          the 6th slot is dashed: a card there takes the row
#          ... one band of CARD_H + GAP per row
#          waiting: the revealed cards, lowest first (the first is placed next / chooses a row)
#          players: P0 bullheads taken · hand size · selection (face down, or its number when visible)
#          hand: one player's cards, when asked for (or the viewer's)

CARD_W, CARD_H, GAP = 52, 72, 8


def _bull_card(
    svg: _Svg, x: float, y: float, card: int, heads: int, *, highlight: bool = False, label: str | None = None
) -> None:
    """One 6 nimmt! card: its number, and one mark per bullhead along the top edge."""
    fill = BULL_FILL.get(heads, "#ffffff")
    svg.open_group(cls="card", data_card=str(card), data_bullheads=str(heads))
    svg.rect(
        x,
        y,
        CARD_W,
        CARD_H,
        fill=fill,
        stroke="#b3261e" if highlight else "#444",
        width=3 if highlight else 1,
    )
    svg.text(x + CARD_W / 2, y + 46, str(card), size=22, weight="bold", anchor="middle")
    step = (CARD_W - 10) / 7
    start = x + CARD_W / 2 - (heads - 1) * step / 2
    for i in range(heads):
        svg.circle(start + i * step, y + 12, 3.2, fill="#7a1f1f")
    svg.text(x + CARD_W / 2, y + CARD_H - 7, f"{heads}", size=10, anchor="middle", fill="#7a1f1f")
    if label:
        svg.text(x + CARD_W / 2, y + CARD_H + 13, label, size=11, anchor="middle")
    svg.close_group()


def _ordinal(n: int) -> str:
    """``6th``, ``21st``: the place of the card that takes a row."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _hidden_card(svg: _Svg, x: float, y: float, w: float = CARD_W, h: float = CARD_H) -> None:
    svg.rect(x, y, w, h, fill="#5b6b7a", stroke="#333")
    svg.text(x + w / 2, y + h / 2 + 5, "?", size=16, anchor="middle", fill="#ffffff")


def take6_svg(
    state: Any, *, viewer: int | None = None, hand: int | None = None, game: Game | None = None
) -> str:
    """The 6 nimmt! table as SVG.

    ``viewer`` draws only what that seat sees (its own hand and selection; others' hand sizes and whether
    they have selected); without it everything is drawn.  ``hand`` adds one player's hand (default: the
    viewer's); asking a viewer for another seat's hand raises InputError naming ``hand``.

    >>> from engine.take6 import GAME, Deal, Select
    >>> s = GAME.new_game(2, setup=Deal(hands=((33, 5, 60, 61, 62, 63, 64, 65, 66, 67),
    ...     (29, 1, 70, 71, 72, 73, 74, 75, 76, 77)), rows=(30, 20, 10, 40)))
    >>> s = GAME.apply(GAME.apply(s, Select(0, 33)), Select(1, 1))
    >>> picture = take6_svg(s)
    >>> "P1 chooses a row for 1" in picture
    True
    >>> take6_svg(s, viewer=0, hand=1)
    Traceback (most recent call last):
    ...
    engine.errors.InputError: hand: player 1's hand is hidden from viewer 0
    """
    g = game or get_game("take6")
    full = g.state_to_json(state)
    _seat(full, viewer)
    _seat(full, hand, "hand")
    view = g.observation(state, viewer) if viewer is not None else full
    players: int = full["players"]
    to_act = list(g.to_act(state))
    if viewer is not None:
        if hand is not None and hand != viewer:
            raise InputError("hand", f"player {hand}'s hand is hidden from viewer {viewer}")
        hand = viewer
        hands: list[list[int] | None] = [view["hand"] if p == viewer else None for p in range(players)]
        sizes = list(view["hand_sizes"])
        chosen: list[int | bool | None] = [
            (view["my_selection"] if p == viewer else bool(view["selected"][p])) or None
            for p in range(players)
        ]
    else:
        hands = [list(h) for h in full["hands"]]
        sizes = [len(h) for h in full["hands"]]
        chosen = [c or None for c in full["selected"]]
    rows: list[list[int]] = [list(r) for r in full["rows"]]
    pending: list[list[int]] = [list(p) for p in full["pending"]]
    phase = full["phase"]
    limit = rules_for(full["variant"], players, full["options"]).capacity + 1  # the card that takes the row
    width = 20 + 60 + limit * (CARD_W + GAP) + 150
    svg = _Svg(width, 0, f"6 nimmt! round {full['round']}, {phase}")
    title = f"6 nimmt! · {full['variant']} · round {full['round']} · {phase}"
    who = "game over" if phase == "over" else f"to act: {_who(to_act)}"
    svg.text(20, 26, title, size=16, weight="bold")
    svg.text(width - 20, 26, who, size=13, anchor="end", cls="to-act")
    if viewer is not None:
        svg.text(width - 20, 44, f"as seen by P{viewer}", size=11, anchor="end", fill="#666")
    y: float = 54
    choosing = pending[0] if phase == "choose" and pending else None
    for i, row in enumerate(rows):
        svg.open_group(cls="row", data_row=str(i))
        svg.text(20, y + CARD_H / 2 + 5, f"Row {i}", size=13, weight="bold")
        for j, card in enumerate(row):
            _bull_card(svg, 80 + j * (CARD_W + GAP), y, card, bullheads(card))
        for j in range(len(row), limit):
            x = 80 + j * (CARD_W + GAP)
            if j == limit - 1:
                svg.rect(x, y, CARD_W, CARD_H, stroke="#b3261e", dash=True)
                svg.text(
                    x + CARD_W / 2,
                    y + CARD_H / 2 + 4,
                    f"{_ordinal(limit)} takes",
                    size=9,
                    anchor="middle",
                    fill="#b3261e",
                )
            else:
                svg.rect(x, y, CARD_W, CARD_H, stroke="#ccc", dash=True)
        total = sum(bullheads(c) for c in row)
        tx = 80 + limit * (CARD_W + GAP) + 6
        svg.text(
            tx,
            y + 30,
            f"{total} bullhead{'s' if total != 1 else ''}",
            size=13,
            weight="bold",
            cls="row-total",
        )
        if choosing is not None:
            svg.text(tx, y + 50, f"P{choosing[1]} takes {total}", size=11, fill="#b3261e")
        svg.close_group()
        y += CARD_H + GAP + 4
    y += 6
    if pending:
        svg.text(20, y + 14, "Revealed, waiting to be placed (lowest first):", size=13, weight="bold")
        y += 22
        for j, (card, player) in enumerate(pending):
            _bull_card(
                svg, 80 + j * (CARD_W + GAP), y, card, bullheads(card), highlight=j == 0, label=f"P{player}"
            )
        y += CARD_H + 22
        if choosing is not None:
            svg.text(
                20,
                y,
                f"P{choosing[1]} chooses a row for {choosing[0]}: it fits no row (T6-PLACE-3); "
                "the card starts the row taken.",
                size=12,
                fill="#b3261e",
                cls="choice",
            )
            y += 20
    y += 8
    svg.text(20, y + 12, "Players", size=13, weight="bold")
    y += 20
    for p in range(players):
        marker = "▶ " if p in to_act else ""
        svg.open_group(cls="player", data_player=str(p))
        svg.text(20, y + 14, f"{marker}P{p}", size=13, weight="bold" if p in to_act else "normal")
        taken = full["penalties"][p]
        svg.text(80, y + 14, f"{taken} bullhead{'s' if taken != 1 else ''} taken", size=12, cls="penalty")
        svg.text(250, y + 14, f"{sizes[p]} card{'s' if sizes[p] != 1 else ''} in hand", size=12)
        sel = chosen[p]
        if sel is True:
            _hidden_card(svg, 380, y, 14, 20)
            svg.text(400, y + 14, "selected (face down)", size=12)
        elif isinstance(sel, int) and sel:
            svg.text(380, y + 14, f"selected {sel}", size=12, weight="bold")
        svg.close_group()
        y += 24
    if hand is not None:
        cards = hands[hand] or []
        y += 10
        svg.text(20, y + 12, f"P{hand}'s hand ({len(cards)})", size=13, weight="bold")
        y += 20
        per_line = 10
        hand_w = 20 + per_line * (CARD_W + 6)
        svg.width = max(svg.width, hand_w)
        svg.open_group(cls="hand", data_player=str(hand))
        for j, card in enumerate(cards):
            _bull_card(
                svg,
                20 + (j % per_line) * (CARD_W + 6),
                y + (j // per_line) * (CARD_H + 8),
                card,
                bullheads(card),
            )
        svg.close_group()
        y += ((len(cards) + per_line - 1) // per_line) * (CARD_H + 8)
    return svg.done(int(y + 16))


# --------------------------------------------------------------------------------------------------
# Saint Petersburg
#
#   y=0    title: round · phase · who acts · last round
#   y=40   phase track: worker | building | aristocrat | trading, the current one framed, each with its start
#          marker (P2 starts) — and the four stacks with the cards left
#   then   Upper row: cards (name, printed cost, effective cost for `costs_for`)
#          Lower row: the same, from the lower row (SP-COST-3)
#          one panel per player: VP, money (if visible), hand size or hand, area in three colour columns

SP_W, SP_H = 96, 92


def _wrap(name: str, limit: int = 14) -> list[str]:
    words, lines, line = name.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > limit:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    return lines[:3]


def _effective_cost(state: Any, player: int, name: str, source: str) -> tuple[int | None, str]:
    """What ``player`` pays for ``name`` from ``source`` (a trading card: its cheapest displacement),
    from the engine's own ``cost_breakdown``; ``None`` when a trading card has nothing to displace."""
    try:
        return cost_breakdown(state, player, name, source=source).cost, ""
    except IllegalAction:
        targets = displacement_targets(state, player, name)
        if not targets:
            return None, "none to displace"
        best = min(
            targets, key=lambda t: cost_breakdown(state, player, name, source=source, displace=t).cost
        )
        return cost_breakdown(state, player, name, source=source, displace=best).cost, f"for {best}"


def _sp_card(
    svg: _Svg,
    x: float,
    y: float,
    card: Any,
    *,
    cost: tuple[int | None, str] | None = None,
    costs_for: int | None = None,
    afford: int | None = None,
    source: str = "upper",
) -> None:
    fill = SP_FILL.get(card.colour, "#eeeeee")
    ink = SP_INK.get(card.colour, "#333")
    svg.open_group(cls="sp-card", data_card=card.name, data_source=source)
    svg.rect(x, y, SP_W, SP_H, fill=fill, stroke=ink, width=1.5)
    svg.text(x + 6, y + 14, card.stack, size=9, fill=ink)
    svg.text(x + SP_W - 6, y + 14, f"{card.cost}", size=12, weight="bold", anchor="end", cls="printed")
    for i, line in enumerate(_wrap(card.name)):
        svg.text(x + SP_W / 2, y + 32 + i * 13, line, size=11, weight="bold", anchor="middle")
    if cost is not None and costs_for is not None:
        value, why = cost
        shown = "—" if value is None else str(value)
        colour = "#222" if value is None or afford is None or value <= afford else "#b3261e"
        svg.text(
            x + SP_W / 2,
            y + SP_H - 16,
            f"P{costs_for} pays {shown}",
            size=11,
            weight="bold",
            anchor="middle",
            fill=colour,
            cls="cost",
        )
        if why:
            svg.text(x + SP_W / 2, y + SP_H - 5, why[:18], size=8, anchor="middle", fill="#555")
    svg.close_group()


def petersburg_svg(
    state: Any, *, viewer: int | None = None, costs_for: int | None = None, game: Game | None = None
) -> str:
    """The Saint Petersburg board as SVG.

    ``costs_for`` is the seat whose effective cost is printed under each card of the two rows (default: the
    viewer, else the player to act); ``viewer`` hides what that seat may not see (others' money and hands,
    an Observatory card drawn by another player).  Money and hands are drawn for every seat without a viewer.

    >>> from engine.petersburg import GAME
    >>> s = GAME.new_game(3, seed=1)
    >>> picture = petersburg_svg(s, viewer=1)
    >>> "P1 pays" in picture, "25 roubles" in picture, picture.count("roubles")
    (True, True, 1)
    """
    g = game or get_game("petersburg")
    full = g.state_to_json(state)
    _seat(full, viewer)
    _seat(full, costs_for, "costs_for")
    players: int = full["players"]
    to_act = list(g.to_act(state))
    if costs_for is None:
        costs_for = viewer if viewer is not None else (to_act[0] if to_act else 0)
    cards = {c.name: c for c in ruleset(full["variant"], full["options"]).cards}
    if viewer is not None:
        obs = g.observation(state, viewer)
        money: list[int | None] = [obs["money"] if p == viewer else None for p in range(players)]
        hands: list[list[str] | None] = [obs["hand"] if p == viewer else None for p in range(players)]
        sizes = list(obs["hand_sizes"])
        drawn = obs["drawn"]
        stack_sizes = dict(obs["stack_sizes"])
    else:
        money = list(full["money"])
        hands = [list(h) for h in full["hands"]]
        sizes = [len(h) for h in full["hands"]]
        drawn = full["drawn"]
        stack_sizes = {k: len(v) for k, v in full["stacks"].items()}
    width = 20 + 8 * (SP_W + 8) + 20
    svg = _Svg(width, 0, f"Saint Petersburg round {full['round']}, {full['phase']} phase")
    last = " · last round" if full["last_round"] else ""
    svg.text(
        20,
        26,
        f"Saint Petersburg · {full['variant']} edition · round {full['round']}{last}",
        size=16,
        weight="bold",
    )
    svg.text(
        width - 20,
        26,
        "game over" if full["over"] else f"to act: {_who(to_act)}",
        size=13,
        anchor="end",
        cls="to-act",
    )
    if viewer is not None:
        svg.text(width - 20, 44, f"as seen by P{viewer}", size=11, anchor="end", fill="#666")
    y: float = 54
    for i, (phase, start) in enumerate(full["markers"].items()):
        x = 20 + i * 150
        current = phase == full["phase"] and not full["over"]
        svg.open_group(cls="phase current" if current else "phase", data_phase=phase)
        svg.rect(
            x,
            y,
            140,
            44,
            fill="#fff7d6" if current else "#ffffff",
            stroke="#b3261e" if current else "#888",
            width=3 if current else 1,
        )
        svg.text(x + 8, y + 18, phase, size=13, weight="bold")
        svg.text(x + 8, y + 36, f"start: P{start}", size=11, cls="start")
        svg.text(x + 132, y + 36, f"stack {stack_sizes.get(phase, 0)}", size=11, anchor="end", cls="stack")
        svg.close_group()
    y += 64
    afford = money[costs_for]
    for label, source in (("Upper row", "upper"), ("Lower row", "lower")):
        names: list[str] = full[source]
        svg.text(20, y + 12, f"{label} ({len(names)})", size=13, weight="bold")
        svg.text(
            width - 20,
            y + 12,
            f"costs for P{costs_for}" + (" (from the lower row: -1, SP-COST-3)" if source == "lower" else ""),
            size=11,
            anchor="end",
            fill="#555",
        )
        y += 20
        if not names:
            svg.text(30, y + 20, "(empty)", size=11, fill="#777")
            y += 34
            continue
        for j, name in enumerate(names):
            x = 20 + (j % 8) * (SP_W + 8)
            yy = y + (j // 8) * (SP_H + 8)
            _sp_card(
                svg,
                x,
                yy,
                cards[name],
                cost=_effective_cost(state, costs_for, name, source),
                costs_for=costs_for,
                afford=afford,
                source=source,
            )
        y += ((len(names) + 7) // 8) * (SP_H + 8) + 6
    if drawn is not None:
        text = (
            "an Observatory card drawn (hidden)" if drawn == "hidden" else f"Observatory card drawn: {drawn}"
        )
        svg.text(20, y + 12, text, size=12, weight="bold", cls="drawn")
        y += 22
    for p in range(players):
        y = _sp_player(
            svg,
            y,
            p,
            full,
            cards,
            money=money[p],
            hand=hands[p],
            size=sizes[p],
            acting=p in to_act,
            width=width,
        )
    return svg.done(int(y + 10))


def _sp_player(
    svg: _Svg,
    y: float,
    p: int,
    full: Mapping[str, Any],
    cards: Mapping[str, Any],
    *,
    money: int | None,
    hand: Sequence[str] | None,
    size: int,
    acting: bool,
    width: int,
) -> float:
    area: list[str] = full["areas"][p]
    turned = set(full["turned"][p])
    groups: dict[str, dict[str, int]] = {c: {} for c in SP_FILL}
    for name in area:
        colour = cards[name].colour
        groups.setdefault(colour, {})
        groups[colour][name] = groups[colour].get(name, 0) + 1
    lines = max([len(v) for v in groups.values()] + [1])
    height = 52 + lines * 15 + (16 if hand else 0)
    svg.open_group(cls="player", data_player=str(p))
    svg.rect(
        20,
        y,
        width - 40,
        height,
        fill="#ffffff",
        stroke="#b3261e" if acting else "#999",
        width=2 if acting else 1,
    )
    marker = "▶ " if acting else ""
    svg.text(30, y + 18, f"{marker}P{p}", size=14, weight="bold")
    svg.text(80, y + 18, f"{full['vp'][p]} VP", size=13, weight="bold", cls="vp")
    if money is not None:
        svg.text(150, y + 18, f"{money} roubles", size=13, cls="money")
    svg.text(260, y + 18, f"{size} card{'s' if size != 1 else ''} in hand", size=12, cls="hand-size")
    svg.text(400, y + 18, f"{len(area)} in play", size=12)
    for i, (colour, counts) in enumerate(groups.items()):
        x = 30 + i * ((width - 60) // 3)
        svg.text(x, y + 36, f"{colour} ({sum(counts.values())})", size=11, weight="bold", fill=SP_INK[colour])
        for j, (name, n) in enumerate(sorted(counts.items())):
            mark = " (turned)" if name in turned else ""
            svg.text(
                x + 6,
                y + 51 + j * 15,
                f"{name}{' ×' + str(n) if n > 1 else ''}{mark}",
                size=11,
                cls="area-card",
            )
    if hand:
        svg.text(30, y + height - 8, "hand: " + ", ".join(hand), size=11, cls="hand")
    svg.close_group()
    return y + height + 8


# --------------------------------------------------------------------------------------------------
# Either game


def game_of(state: Any) -> str:
    """The name of the game a state belongs to (InputError for anything else): :func:`engine.game.game_of`.

    >>> from engine.game import get_game
    >>> game_of(get_game("petersburg").new_game(2))
    'petersburg'
    """
    return _game_of(state)


def board_svg(
    game: str, state: Any, *, viewer: int | None = None, hand: int | None = None, costs_for: int | None = None
) -> str:
    """The picture of ``state`` of ``game``; ``hand`` applies to 6 nimmt!, ``costs_for`` to Saint Petersburg
    (an option the game does not have raises InputError naming it).

    >>> from engine.game import get_game
    >>> board_svg("petersburg", get_game("petersburg").new_game(2), hand=0)
    Traceback (most recent call last):
    ...
    engine.errors.InputError: hand: only 6 nimmt! pictures show one hand; Saint Petersburg shows the viewer's
    """
    g = get_game(game)
    if game == "take6":
        if costs_for is not None:
            raise InputError("costs_for", "only Saint Petersburg pictures show costs")
        return take6_svg(state, viewer=viewer, hand=hand, game=g)
    if hand is not None:
        raise InputError("hand", "only 6 nimmt! pictures show one hand; Saint Petersburg shows the viewer's")
    return petersburg_svg(state, viewer=viewer, costs_for=costs_for, game=g)


def repr_svg(state: Any) -> str:
    """The whole position as SVG, for a notebook's ``_repr_svg_`` (attach as
    ``State._repr_svg_ = engine.svg.repr_svg``).

    >>> from engine.game import get_game
    >>> repr_svg(get_game("take6").new_game(2)).endswith("</svg>")
    True
    """
    return board_svg(game_of(state), state)


# Every state shows itself as its picture in a notebook (IPython calls ``_repr_svg_``).  The states are
# given the method here, where the pictures live, so the game modules never import this module;
# ``engine/__init__.py`` imports it, so any use of the package has it.
Take6State._repr_svg_ = repr_svg  # type: ignore[attr-defined]
PetersburgState._repr_svg_ = repr_svg  # type: ignore[attr-defined]
