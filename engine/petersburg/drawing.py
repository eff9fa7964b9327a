"""The Saint Petersburg board as an SVG picture (:func:`petersburg_svg`), drawn with :mod:`engine.svg`.

The phase track with the start markers, the stacks left, the upper and lower rows with each card's
effective cost for one player (from the engine's ``cost_breakdown`` and ``displacement_targets``), and
each player's area grouped by colour, with VP, hand size and (where the viewer may see it) money and
hand.  A ``viewer`` sees only its :meth:`~engine.game.Game.observation`.

>>> from engine.game import get_game
>>> picture = petersburg_svg(get_game("petersburg").new_game(3, seed=1), viewer=1)
>>> "P1 pays" in picture, "25 roubles" in picture, picture.count("roubles")
(True, True, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.derivation import Trace
from engine.errors import IllegalAction, InputError
from engine.game import Game, get_game
from engine.petersburg import cost_breakdown, displacement_targets, ruleset
from engine.petersburg.scoring import standings
from engine.svg import (
    INK,
    WIN,
    Svg,
    check_seat,
    game_over,
    header,
    plural,
    result_box,
    text_width,
    who,
    winner_mark,
    wrap,
)

__all__ = ["SP_FILL", "SP_INK", "draw", "petersburg_svg"]

# Card colours (the phase whose scoring pays the card).
SP_FILL: Mapping[str, str] = {"green": "#cfe9c9", "blue": "#cddcf5", "red": "#f5d0cb"}
SP_INK: Mapping[str, str] = {"green": "#2e7d32", "blue": "#1f4e9c", "red": "#b3261e"}

#   y=0    title: round · phase · who acts · last round
#   y=54   phase track: worker | building | aristocrat | trading, the current one framed, each with its start
#          marker (P2 starts) and the cards left in its stack
#   then   Upper row: cards (stack, printed cost, name on up to 3 lines, effective cost for `costs_for`)
#          Lower row: the same, from the lower row (SP-COST-3)
#          one panel per player: VP, money (if visible), hand size, area in three colour columns, hand

SP_W, SP_H = 96, 92
PAD = 6
"""The margin inside a card: no text comes nearer its edges."""
NAME_SIZE = 11


def draw(
    state: Any,
    *,
    viewer: int | None = None,
    hand: int | None = None,
    costs_for: int | None = None,
    game: Game | None = None,
) -> str:
    """The board (what :func:`engine.svg.board_svg` calls); ``hand`` is refused naming it."""
    if hand is not None:
        raise InputError("hand", "only 6 nimmt! pictures show one hand; Saint Petersburg shows the viewer's")
    return petersburg_svg(state, viewer=viewer, costs_for=costs_for, game=game)


def _fit(text: str, width: float, size: float, weight: str = "normal", smallest: float = 8) -> float:
    """The largest size from ``size`` down to ``smallest`` (in half pixels) at which ``text`` fits."""
    while size > smallest and text_width(text, size, weight) > width:
        size -= 0.5
    return size


def _result_lines(state: Any, result: Any) -> list[str]:
    """Who won a finished game and how, from the engine's derivation of the standings (SP-END-8): the
    winners, the rule, each tie on VP with the roubles that broke it, a win still shared (SP-END-9)."""
    trace = Trace()
    standings(state, trace)
    root = trace.steps[0]
    vp, roubles = result.scores, result.tiebreak
    best = vp[result.winners[0]]
    names = " and ".join(f"P{p}" for p in result.winners)
    if len(result.winners) == 1:
        first = f"Winner: {names}, {best} VP"
    else:
        first = f"Winners: {names}, {best} VP and {plural(roubles[result.winners[0]], 'rouble')} each"
    rivals = [p for p in result.ranking if vp[p] == best and p not in result.winners]
    if rivals:  # tied on VP, ahead on roubles
        against = f"{roubles[result.winners[0]]} R against " + ", ".join(f"{roubles[p]} R" for p in rivals)
        first += f"; tied with {who(rivals)} on VP, ahead on roubles ({against})"
    lines = [first, f"{root.note} [{root.clause}]"]
    for step in root.find(says="tiebreak"):
        tied = [v for v in dict.fromkeys(vp[p] for p in result.ranking) if v in step.data["vp"]]
        ties = "; ".join(
            f"{v} VP: " + ", ".join(f"P{p} {roubles[p]} R" for p in result.ranking if vp[p] == v)
            for v in tied
        )
        lines.append(f"{step.note} [{step.clause}] — {ties}")
    lines += [f"{step.note} [{step.clause}]" for step in root.find(says="shared")]
    return lines


def _effective_cost(state: Any, player: int, name: str, source: str) -> tuple[int | None, str]:
    """What ``player`` pays for ``name`` from ``source`` (a trading card: its cheapest displacement),
    from the engine's own ``cost_breakdown``; ``None`` when a trading card has nothing to displace."""
    try:
        return cost_breakdown(state, player, name, source=source).cost, ""
    except IllegalAction:
        targets = displacement_targets(state, player, name)
        if not targets:
            return None, "none to displace"
        best = min(targets, key=lambda t: cost_breakdown(state, player, name, source=source, displace=t).cost)
        return cost_breakdown(state, player, name, source=source, displace=best).cost, f"for {best}"


def _sp_card(
    svg: Svg,
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
    inner = SP_W - 2 * PAD
    svg.open_group((x, y), cls="sp-card", data_card=card.name, data_source=source)  # drawn from 0, 0
    svg.rect(0, 0, SP_W, SP_H, fill=fill, stroke=ink, width=1.5)
    svg.text(PAD, 14, card.stack, size=9, fill=ink)
    svg.text(SP_W - PAD, 14, f"{card.cost}", size=12, weight="bold", anchor="end", cls="printed")
    lines = wrap(card.name, inner, NAME_SIZE, "bold")
    size = min(_fit(line, inner, NAME_SIZE, "bold") for line in lines)
    for i, line in enumerate(lines):
        svg.text(SP_W / 2, 32 + i * 13, line, size=size, weight="bold", anchor="middle", cls="name")
    if cost is not None and costs_for is not None:
        value, why = cost
        shown = "—" if value is None else str(value)
        colour = INK if value is None or afford is None or value <= afford else "#b3261e"
        svg.text(
            SP_W / 2,
            SP_H - 18,
            f"P{costs_for} pays {shown}",
            size=11,
            weight="bold",
            anchor="middle",
            fill=colour,
            cls="cost",
        )
        if why:
            small = _fit(why, inner, 9, smallest=6.5)
            if text_width(why, small) > inner:
                why = wrap(why, inner, small, lines=1)[0]
                while text_width(why + "…", small) > inner and " " in why:
                    why = why.rsplit(" ", 1)[0]
                why += "…"
            svg.text(SP_W / 2, SP_H - 6, why, size=small, anchor="middle", fill="#555", cls="why")
    svg.close_group()


def petersburg_svg(
    state: Any, *, viewer: int | None = None, costs_for: int | None = None, game: Game | None = None
) -> str:
    """The Saint Petersburg board as SVG.

    ``costs_for`` is the seat whose effective cost is printed under each card of the two rows (default: the
    viewer, else the player to act); ``viewer`` hides what that seat may not see (others' money and hands,
    an Observatory card drawn by another player).  Money and hands are drawn for every seat without a viewer.
    A finished game's board shows its result under the title (the winners, each tie on VP and the roubles
    that broke it: SP-END-8, SP-END-9), marks the winners' panels, shows every purse, and prints no price
    (``costs_for`` is not used: nothing is left to buy).

    >>> from engine.petersburg import GAME
    >>> s = GAME.new_game(3, seed=1)
    >>> picture = petersburg_svg(s, viewer=1)
    >>> "P1 pays" in picture, "25 roubles" in picture, picture.count("roubles")
    (True, True, 1)
    """
    g = game or get_game("petersburg")
    full = g.state_to_json(state)
    check_seat(full, viewer)
    check_seat(full, costs_for, "costs_for")
    players: int = full["players"]
    to_act = list(g.to_act(state))
    if costs_for is None:
        costs_for = viewer if viewer is not None else (to_act[0] if to_act else 0)
    cards = {c.name: c for c in ruleset(full["variant"], full["options"]).cards}
    result = g.result(state) if full["over"] else None
    pricing = None if result else costs_for  # a finished game has nothing left to buy: no prices
    if viewer is not None:
        obs = g.observation(state, viewer)
        money: list[int | None] = [obs["money"] if p == viewer else None for p in range(players)]
        if "final_money" in obs:  # the game is over: every purse is shown (the roubles break ties)
            money = list(obs["final_money"])
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
    svg = Svg(width, 0, f"Saint Petersburg round {full['round']}, {full['phase']} phase")
    last = " · last round" if full["last_round"] else ""
    title = f"Saint Petersburg · {full['variant']} edition · round {full['round']}{last}"
    header(svg, title, game_over(result.winners) if result else f"to act: {who(to_act)}", viewer)
    y: float = 54
    if result:
        y = result_box(svg, y, _result_lines(state, result))
    for i, (phase, start) in enumerate(full["markers"].items()):
        x = 20 + i * 150
        current = phase == full["phase"] and not full["over"]
        svg.open_group((x, y), cls="phase current" if current else "phase", data_phase=phase)
        svg.rect(
            0,
            0,
            140,
            44,
            fill="#fff7d6" if current else "#ffffff",
            stroke="#b3261e" if current else "#888",
            width=3 if current else 1,
        )
        svg.text(8, 18, phase, size=13, weight="bold")
        svg.text(8, 36, f"start: P{start}", size=11, cls="start")
        svg.text(132, 36, f"stack {stack_sizes.get(phase, 0)}", size=11, anchor="end", cls="stack")
        svg.close_group()
    y += 64
    afford = None if pricing is None else money[pricing]
    for label, source in (("Upper row", "upper"), ("Lower row", "lower")):
        names: list[str] = full[source]
        svg.text(20, y + 12, f"{label} ({len(names)})", size=13, weight="bold")
        if pricing is not None:
            svg.text(
                width - 20,
                y + 12,
                f"costs for P{pricing}"
                + (" (from the lower row: -1, SP-COST-3)" if source == "lower" else ""),
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
                cost=None if pricing is None else _effective_cost(state, pricing, name, source),
                costs_for=pricing,
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
            won=winner_mark(result, p),
        )
    return svg.done(int(y + 10))


def _sp_player(
    svg: Svg,
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
    won: str = "",
) -> float:
    area: list[str] = full["areas"][p]
    turned = set(full["turned"][p])
    groups: dict[str, dict[str, int]] = {c: {} for c in SP_FILL}
    for name in area:
        colour = cards[name].colour
        groups.setdefault(colour, {})
        groups[colour][name] = groups[colour].get(name, 0) + 1
    lines = max([len(v) for v in groups.values()] + [1])
    hand_lines = wrap("hand: " + ", ".join(hand), width - 60, 11, lines=99) if hand else []
    height = 52 + lines * 15 + 15 * len(hand_lines)
    svg.open_group((0, y), cls="player", data_player=str(p))  # drawn from y = 0
    svg.rect(
        20,
        0,
        width - 40,
        height,
        fill="#ffffff",
        stroke=WIN if won else "#b3261e" if acting else "#999",
        width=3 if won else 2 if acting else 1,
    )
    if won:
        svg.text(width - 30, 18, won, size=13, weight="bold", anchor="end", fill=WIN, cls="winner")
    marker = "▶ " if acting else ""
    svg.text(30, 18, f"{marker}P{p}", size=14, weight="bold")
    svg.text(80, 18, f"{full['vp'][p]} VP", size=13, weight="bold", cls="vp")
    if money is not None:
        svg.text(150, 18, plural(money, "rouble"), size=13, cls="money")
    svg.text(260, 18, f"{plural(size, 'card')} in hand", size=12, cls="hand-size")
    svg.text(400, 18, f"{len(area)} in play", size=12)
    column = (width - 60) // 3
    for i, (colour, counts) in enumerate(groups.items()):
        x = 30 + i * column
        svg.text(x, 36, f"{colour} ({sum(counts.values())})", size=11, weight="bold", fill=SP_INK[colour])
        for j, (name, count) in enumerate(sorted(counts.items())):
            mark = " (turned)" if name in turned else ""
            line = f"{name}{' ×' + str(count) if count > 1 else ''}{mark}"
            svg.text(x + 6, 51 + j * 15, line, size=_fit(line, column - 12, 11), cls="area-card")
    for i, line in enumerate(hand_lines):
        svg.text(30, height - 8 - 15 * (len(hand_lines) - 1 - i), line, size=11, cls="hand")
    svg.close_group()
    return y + height + 8
