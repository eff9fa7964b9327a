"""Positions as SVG pictures (like python-chess's ``chess.svg``): the shared drawing primitives and
:func:`board_svg`, which draws a state of any game by its name.

Each game's drawing lives in its own package, as pgx keeps ``dwg/<game>.py``: :mod:`engine.take6.drawing`
(the 6 nimmt! table) and :mod:`engine.petersburg.drawing` (the Saint Petersburg board).  Each exports
``draw(state, *, viewer, hand, costs_for, game)``; :func:`board_svg` loads the drawing of the game named,
through the game registry (the ``drawing`` facet, :func:`engine.game.facet_module`), as
:func:`engine.game.get_game` loads the game itself.  This module names no game: it holds the SVG writer
(:class:`Svg`), the text metrics (:func:`text_width`, :func:`wrap`), and the checks every drawing shares.
Nothing here is loaded by ``import engine``: a state's ``_repr_svg_`` imports it when a notebook first
asks for a picture.

The drawings read a position through the game's own views, never its internal layout: with a ``viewer``
they draw :meth:`~engine.game.Game.observation` of that seat (so nothing the seat may not see can appear
in the picture), without one the whole :meth:`~engine.game.Game.state_to_json`.  The output is
deterministic: the same position and arguments give the same bytes, with no random ids, no clock and no
fonts embedded.

>>> from engine.game import get_game
>>> state = get_game("take6").new_game(3, seed=1)
>>> picture = board_svg("take6", state, viewer=0)
>>> picture.startswith("<svg") and "Row 0" in picture
True
>>> board_svg("take6", state) == board_svg("take6", get_game("take6").new_game(3, seed=1))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol
from xml.sax.saxutils import escape, quoteattr

from engine.errors import InputError
from engine.game import facet_module
from engine.game import game_of as _game_of

__all__ = [
    "FONT",
    "INK",
    "WIN",
    "Drawing",
    "Svg",
    "board_svg",
    "check_seat",
    "drawing_of",
    "game_of",
    "game_over",
    "header",
    "n",
    "plural",
    "repr_svg",
    "result_box",
    "text_width",
    "who",
    "winner_mark",
    "wrap",
]

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#222"
"""The colour of text that names no other (set once, on the picture)."""

# Advance widths of DejaVu Sans (the first font the pictures name), in thousandths of an em, for the
# printable ASCII characters 32..126, then the few others the pictures use (—, ·, ▶, ×, …, ’); read from
# the font files with fontTools.  Any other character counts as 1.0 em (1.103 bold, the widest glyph):
# measured widths are never below the rendered ones in this font.
_EXTRA = "—·▶×…’"
_REGULAR = (
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636,
    636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295,
    295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838,
    500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521,
    392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838, 1000, 318, 769, 838, 1000, 318,
)  # fmt: skip
_BOLD = (
    348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696,
    696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372,
    372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838,
    500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595,
    478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838, 1000, 380, 769, 838, 1000, 380,
)  # fmt: skip
_CHARS = "".join(chr(c) for c in range(32, 127)) + _EXTRA
_WIDTHS = {
    "normal": dict(zip(_CHARS, _REGULAR, strict=True)),
    "bold": dict(zip(_CHARS, _BOLD, strict=True)),
}
_WIDEST = {"normal": 1000, "bold": 1103}


def text_width(text: str, size: float, weight: str = "normal") -> float:
    """The width in pixels of ``text`` set in DejaVu Sans at ``size`` px (``weight`` normal or bold).

    >>> round(text_width("Customs House", 11, "bold"), 1)
    95.7
    """
    table = _WIDTHS["bold" if weight == "bold" else "normal"]
    widest = _WIDEST["bold" if weight == "bold" else "normal"]
    return sum(table.get(ch, widest) for ch in text) * size / 1000


def wrap(text: str, width: float, size: float, weight: str = "normal", lines: int = 3) -> list[str]:
    """``text`` broken at spaces into at most ``lines`` lines, each no wider than ``width`` px when it can
    be (a single word wider than ``width`` stays whole: shrink the size instead).

    >>> wrap("Czar and Carpenter", 84, 11, "bold")
    ['Czar and', 'Carpenter']
    """
    out: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if line and text_width(candidate, size, weight) > width:
            out.append(line)
            line = word
        else:
            line = candidate
    out.append(line)
    if len(out) > lines:
        out = [*out[: lines - 1], " ".join(out[lines - 1 :])]
    return out


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 rouble``, ``2 roubles``: a count and its noun.

    >>> plural(1, "player"), plural(3, "player"), plural(0, "card")
    ('1 player', '3 players', '0 cards')
    """
    return f"{count} {word if count == 1 else (many or word + 's')}"


class Svg:
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
        """A rectangle (rounded by ``rx``; ``dash`` draws its outline dashed; a ``width`` of 1 is SVG's
        default and not written)."""
        extra = f' stroke-width="{n(width)}"' if width != 1 else ""
        extra += ' stroke-dasharray="4 3"' if dash else ""
        extra += f' class="{cls}"' if cls else ""
        self.parts.append(
            f'<rect x="{n(x)}" y="{n(y)}" width="{n(w)}" height="{n(h)}" rx="{rx}" fill="{fill}" '
            f'stroke="{stroke}"{extra}/>'
        )

    def text(
        self,
        x: float,
        y: float,
        content: str,
        *,
        size: float = 12,
        weight: str = "normal",
        anchor: str = "start",
        fill: str = INK,
        cls: str | None = None,
    ) -> None:
        """One line of text, its baseline at ``y`` (``anchor``: start, middle or end at ``x``).  What is
        SVG's default (normal weight, start anchor) or the picture's (the ink colour :data:`INK`, set on
        the whole picture) is not written: a long game's viewer page holds thousands of texts."""
        extra = f' font-weight="{weight}"' if weight != "normal" else ""
        extra += f' text-anchor="{anchor}"' if anchor != "start" else ""
        extra += f' fill="{fill}"' if fill != INK else ""
        extra += f' class="{cls}"' if cls else ""
        self.parts.append(
            f'<text x="{n(x)}" y="{n(y)}" font-size="{n(size)}"{extra}>{escape(content)}</text>'
        )

    def circle(self, x: float, y: float, r: float, *, fill: str, stroke: str = "none") -> None:
        """A disc of radius ``r`` centred at ``(x, y)``."""
        self.parts.append(f'<circle cx="{n(x)}" cy="{n(y)}" r="{n(r)}" fill="{fill}" stroke="{stroke}"/>')

    def open_group(self, at: tuple[float, float] | None = None, **attrs: str) -> None:
        """Open a ``<g>``; ``cls`` is its class, ``data_x`` its ``data-x`` attribute; ``at`` moves its
        origin there (``transform="translate(x,y)"``), so what is drawn inside is placed relative to it
        and is the same text wherever the group stands (a card, a player's panel)."""
        names = {"cls": "class"}
        shown = "".join(
            f" {names.get(k, k.replace('_', '-'))}={quoteattr(v)}" for k, v in sorted(attrs.items())
        )
        if at is not None and at != (0, 0):
            shown += f' transform="translate({n(at[0])},{n(at[1])})"'
        self.parts.append(f"<g{shown}>")

    def close_group(self) -> None:
        """Close the last ``<g>``."""
        self.parts.append("</g>")

    def done(self, height: int | None = None) -> str:
        """The document, ``height`` tall (default: the height given at the start)."""
        h = height if height is not None else self.height
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{h}" '
            f'viewBox="0 0 {self.width} {h}" font-family="{FONT}" fill="{INK}">'
        )
        return (
            head
            + f'<rect width="{self.width}" height="{h}" fill="#fbfaf6"/>'
            + "".join(self.parts)
            + "</svg>"
        )


def header(svg: Svg, title: str, acting: str, viewer: int | None) -> None:
    """The title line (bold, left), who acts (right) and ``as seen by`` the viewer; who acts moves under
    the title when both do not fit on one line."""
    svg.text(20, 26, title, size=16, weight="bold")
    fits = text_width(title, 16, "bold") + text_width(acting, 13) + 60 <= svg.width
    svg.text(svg.width - 20, 26 if fits else 44, acting, size=13, anchor="end", cls="to-act")
    if viewer is not None:
        if fits:
            svg.text(svg.width - 20, 44, f"as seen by P{viewer}", size=11, anchor="end", fill="#666")
        else:
            svg.text(20, 44, f"as seen by P{viewer}", size=11, fill="#666")


WIN = "#a87a00"
"""The colour that marks the winners of a finished game (their frame, their mark, the result's box)."""


def game_over(winners: Sequence[int]) -> str:
    """What the title line says of a finished game: who won.

    >>> game_over([2]), game_over([0, 3])
    ('game over · winner P2', 'game over · winners P0, P3')
    """
    return f"game over · {'winner' if len(winners) == 1 else 'winners'} {who(winners)}"


def winner_mark(result: Any, seat: int) -> str:
    """The mark of a winner's seat in a finished game's picture (``""`` for the others, and while the
    game goes on: ``result`` None).

    >>> from engine.game import Result
    >>> winner_mark(Result((3, 9), (0,), (0, 1)), 0), winner_mark(Result((3, 3), (0, 1), (0, 1)), 1)
    ('★ winner', '★ winner (shared)')
    """
    if result is None or seat not in result.winners:
        return ""
    return "★ winner (shared)" if len(result.winners) > 1 else "★ winner"


def result_box(svg: Svg, y: float, lines: Sequence[str]) -> float:
    """A finished game's result under the title: a box framed in :data:`WIN`, its first line (who won)
    bold, the others (the rules that decided it) below, each wrapped to the picture; the y below it.

    >>> svg = Svg(400, 0, "t")
    >>> result_box(svg, 54, ["Winner: P1", "the fewest bullheads wins [T6-END-2]"])
    114.0
    """
    inner = svg.width - 40 - 2 * 10
    rows = [
        (part, 14 if i == 0 else 12, "bold" if i == 0 else "normal")
        for i, line in enumerate(lines)
        for part in wrap(line, inner, 14 if i == 0 else 12, "bold" if i == 0 else "normal", lines=99)
    ]
    height = 12 + sum(size + 6 for _, size, _ in rows)
    svg.open_group((20, y), cls="result")
    svg.rect(0, 0, svg.width - 40, height, fill="#fff8dc", stroke=WIN, width=2)
    top = 6.0
    for text, size, weight in rows:
        top += size + 6
        svg.text(10, top - 4, text, size=size, weight=weight, fill=WIN if weight == "bold" else INK)
    svg.close_group()
    return y + height + 10.0


def n(value: float) -> str:
    """A coordinate as text: integers stay integers, others keep one decimal (deterministic).

    >>> n(12.0), n(7.25)
    ('12', '7.2')
    """
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def check_seat(data: Mapping[str, Any], seat: int | None, key: str = "viewer") -> None:
    """InputError naming ``key`` unless ``seat`` is None or a seat of the position ``data`` (its JSON)."""
    if seat is None:
        return
    players = data["players"]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise InputError(key, f"expected a seat 0..{players - 1}, got {seat!r}")


def who(seats: Iterable[int]) -> str:
    """``P0, P2`` (or ``nobody``)."""
    return ", ".join(f"P{p}" for p in seats) or "nobody"


# --------------------------------------------------------------------------------------------------
# Any game


class Drawing(Protocol):
    """What a game's ``drawing`` module provides."""

    def draw(
        self,
        state: Any,
        *,
        viewer: int | None = None,
        hand: int | None = None,
        costs_for: int | None = None,
        game: Any = None,
    ) -> str: ...


def game_of(state: Any) -> str:
    """The name of the game a state belongs to (InputError for anything else): :func:`engine.game.game_of`.

    >>> from engine.game import get_game
    >>> game_of(get_game("petersburg").new_game(2))
    'petersburg'
    """
    return _game_of(state)


def drawing_of(game: str) -> Drawing:
    """The drawing module of ``game``: its registration's ``drawing`` facet (InputError for an unknown
    game)."""
    module: Drawing = facet_module(game, "drawing")
    return module


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
    return drawing_of(game).draw(state, viewer=viewer, hand=hand, costs_for=costs_for)


def repr_svg(state: Any) -> str:
    """The whole position as SVG: what a state's ``_repr_svg_`` returns (a notebook shows it).

    >>> from engine.game import get_game
    >>> repr_svg(get_game("take6").new_game(2)).endswith("</svg>")
    True
    """
    return board_svg(game_of(state), state)
