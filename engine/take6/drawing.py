"""The 6 nimmt! table as an SVG picture (:func:`take6_svg`), drawn with the primitives of :mod:`engine.svg`.

The rows with card numbers and bullhead marks, each row's total, the revealed cards waiting to be placed
(and, in the ``choose`` phase, what taking each row would cost), each player's bullheads, hand size and
face-down selection, and optionally one player's hand.  Numbers shown come from the engine's own
functions (``bullheads``, ``rules_for``); a ``viewer`` sees only its :meth:`~engine.game.Game.observation`.

>>> from engine.game import get_game
>>> picture = take6_svg(get_game("take6").new_game(3, seed=1), viewer=0)
>>> picture.startswith("<svg") and "Row 0" in picture and "as seen by P0" in picture
True
"""

from __future__ import annotations

from typing import Any

from engine.derivation import Trace
from engine.errors import InputError
from engine.game import Game, get_game
from engine.svg import WIN, Svg, check_seat, game_over, header, plural, result_box, who, winner_mark
from engine.take6.rules import bullheads, rules_for
from engine.take6.scoring import result_of

__all__ = ["BULL_FILL", "draw", "take6_svg"]

# Card face colours by bullheads, as on the printed cards (1 plain, 2 blue, 3 yellow, 5 red, 7 violet).
BULL_FILL = {1: "#ffffff", 2: "#cfe3ff", 3: "#fff1a8", 5: "#ffc2b3", 7: "#e2c6ff"}

#   y=0    title: 6 nimmt! · round · phase · who acts
#   y=54   Row 0  [c][c][c][c][c] [6th]   total          the 6th slot is dashed: a card there takes the row
#          ... one band of CARD_H + GAP + 4 per row
#          waiting: the revealed cards, lowest first, each with its seat under it (the first is placed
#          next / chooses a row); in the choose phase the red caption below the seat labels
#          players: P0 bullheads taken · hand size · selection (face down, or its number when visible)
#          hand: one player's cards, when asked for (or the viewer's)

CARD_W, CARD_H, GAP = 52, 72, 8
LABEL = 16
"""The height of the seat label under a revealed card."""


def _bull_card(
    svg: Svg, x: float, y: float, card: int, heads: int, *, highlight: bool = False, label: str | None = None
) -> None:
    """One 6 nimmt! card: its number, and one mark per bullhead along the top edge."""
    fill = BULL_FILL.get(heads, "#ffffff")
    svg.open_group((x, y), cls="card", data_card=str(card), data_bullheads=str(heads))  # drawn from 0, 0
    svg.rect(
        0,
        0,
        CARD_W,
        CARD_H,
        fill=fill,
        stroke="#b3261e" if highlight else "#444",
        width=3 if highlight else 1,
    )
    svg.text(CARD_W / 2, 46, str(card), size=22, weight="bold", anchor="middle")
    step = (CARD_W - 10) / 7
    start = CARD_W / 2 - (heads - 1) * step / 2
    for i in range(heads):
        svg.circle(start + i * step, 12, 3.2, fill="#7a1f1f")
    svg.text(CARD_W / 2, CARD_H - 7, f"{heads}", size=10, anchor="middle", fill="#7a1f1f")
    if label:
        svg.text(CARD_W / 2, CARD_H + 13, label, size=11, anchor="middle", cls="seat")
    svg.close_group()


def _ordinal(n: int) -> str:
    """``6th``, ``21st``: the place of the card that takes a row.

    >>> _ordinal(6), _ordinal(21), _ordinal(12)
    ('6th', '21st', '12th')
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _hidden_card(svg: Svg, x: float, y: float, w: float = CARD_W, h: float = CARD_H) -> None:
    svg.rect(x, y, w, h, fill="#5b6b7a", stroke="#333")
    svg.text(x + w / 2, y + h / 2 + 5, "?", size=16, anchor="middle", fill="#ffffff")


def _result_lines(state: Any) -> list[str]:
    """Who won a finished game and why, from the engine's derivation of the result (the winner rule of
    the variant, a shared first place): its notes with their clauses, the places left out (the players'
    lines show each total)."""
    trace = Trace()
    result_of(state, state.rules, trace)
    steps = [s for s in trace.steps[0].walk() if s.says != "place"]
    return [f"{s.note} [{s.clause}]" for s in steps if s.note]


def draw(
    state: Any,
    *,
    viewer: int | None = None,
    hand: int | None = None,
    costs_for: int | None = None,
    game: Game | None = None,
) -> str:
    """The table (what :func:`engine.svg.board_svg` calls); ``costs_for`` is refused naming it."""
    if costs_for is not None:
        raise InputError("costs_for", "only Saint Petersburg pictures show costs")
    return take6_svg(state, viewer=viewer, hand=hand, game=game)


def take6_svg(
    state: Any, *, viewer: int | None = None, hand: int | None = None, game: Game | None = None
) -> str:
    """The 6 nimmt! table as SVG.

    ``viewer`` draws only what that seat sees (its own hand and selection; others' hand sizes and whether
    they have selected); without it everything is drawn.  ``hand`` adds one player's hand (default: the
    viewer's); asking a viewer for another seat's hand raises InputError naming ``hand``.  A finished game's
    table shows its result under the title (the winners by the variant's rule, a shared place) and marks
    the winners' lines.

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
    check_seat(full, viewer)
    check_seat(full, hand, "hand")
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
    svg = Svg(width, 0, f"6 nimmt! round {full['round']}, {phase}")
    title = f"6 nimmt! · {full['variant']} · round {full['round']} · {phase}"
    result = g.result(state) if phase == "over" else None
    header(svg, title, game_over(result.winners) if result else f"to act: {who(to_act)}", viewer)
    y: float = 54
    if result:
        y = result_box(svg, y, _result_lines(state))
    choosing = pending[0] if phase == "choose" and pending else None
    for i, row in enumerate(rows):
        svg.open_group(cls="row", data_row=str(i))
        svg.text(20, y + CARD_H / 2 + 5, f"Row {i}", size=13, weight="bold")
        for j, card in enumerate(row):
            _bull_card(svg, 80 + j * (CARD_W + GAP), y, card, bullheads(card))
        for j in range(len(row), limit):
            x = 80 + j * (CARD_W + GAP)
            if j == limit - 1:
                svg.open_group(cls="slot taker")
                svg.rect(x, y, CARD_W, CARD_H, stroke="#b3261e", dash=True)
                svg.text(
                    x + CARD_W / 2, y + CARD_H / 2 - 2, _ordinal(limit), size=15, weight="bold",
                    anchor="middle", fill="#b3261e",
                )  # fmt: skip
                svg.text(
                    x + CARD_W / 2, y + CARD_H / 2 + 15, "takes", size=12, anchor="middle", fill="#b3261e"
                )
                svg.close_group()
            else:
                svg.rect(x, y, CARD_W, CARD_H, stroke="#ccc", dash=True)
        total = sum(bullheads(c) for c in row)
        tx = 80 + limit * (CARD_W + GAP) + 6
        svg.text(tx, y + 30, plural(total, "bullhead"), size=13, weight="bold", cls="row-total")
        if choosing is not None:
            svg.text(tx, y + 50, f"P{choosing[1]} takes {total}", size=11, fill="#b3261e")
        svg.close_group()
        y += CARD_H + GAP + 4
    y += 6
    if pending:
        svg.text(20, y + 14, "Revealed, waiting to be placed (lowest first):", size=13, weight="bold")
        y += 22
        per_line = (width - 100) // (CARD_W + GAP)
        for j, (card, player) in enumerate(pending):
            x = 80 + (j % per_line) * (CARD_W + GAP)
            yy = y + (j // per_line) * (CARD_H + LABEL + 6)
            _bull_card(svg, x, yy, card, bullheads(card), highlight=j == 0, label=f"P{player}")
        y += ((len(pending) + per_line - 1) // per_line) * (CARD_H + LABEL + 6)  # below the seat labels
        if choosing is not None:
            svg.text(
                20,
                y + 12,
                f"P{choosing[1]} chooses a row for {choosing[0]}: it fits no row (T6-PLACE-3); "
                "the card starts the row taken.",
                size=12,
                fill="#b3261e",
                cls="choice",
            )
            y += 22
    y += 8
    svg.text(20, y + 12, "Players", size=13, weight="bold")
    y += 20
    for p in range(players):
        marker = "▶ " if p in to_act else ""
        svg.open_group((0, y), cls="player", data_player=str(p))  # drawn from y = 0
        svg.text(20, 14, f"{marker}P{p}", size=13, weight="bold" if p in to_act else "normal")
        taken = full["penalties"][p]
        svg.text(80, 14, f"{plural(taken, 'bullhead')} taken", size=12, cls="penalty")
        svg.text(250, 14, f"{plural(sizes[p], 'card')} in hand", size=12)
        sel = chosen[p]
        if winner_mark(result, p):
            svg.text(380, 14, winner_mark(result, p), size=12, weight="bold", fill=WIN, cls="winner")
        elif sel is True:
            _hidden_card(svg, 380, 0, 14, 20)
            svg.text(400, 14, "selected (face down)", size=12)
        elif isinstance(sel, int) and sel:
            svg.text(380, 14, f"selected {sel}", size=12, weight="bold")
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
