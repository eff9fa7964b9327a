"""Which card a trading card may displace (SP-TRADE-1..5, SP-OBS-5): ever (the pairing and colour-rule
tables, compiled into ``rules.targets_of``) and now (the cards of the buyer's area that are not turned).

>>> can_displace("Fur Shop", "Fur Trapper")
(True, 'SP-TRADE-3', 'Fur Shop displaces Fur Trapper')
"""

from __future__ import annotations

from engine.petersburg.model import State
from engine.petersburg.names import kind_of
from engine.petersburg.ruleset import Ruleset, ruleset

__all__ = ["can_displace", "displaceable", "displacement_targets", "live_targets", "shows_every_symbol"]


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
    k = kind_of(rs, trading_card, "SP-TRADE-1")
    t = kind_of(rs, target, "SP-TRADE-1")
    return displaceable(rs, k, t)


def displaceable(rs: Ruleset, k: int, t: int) -> tuple[bool, str, str]:
    """:func:`can_displace` on kinds: ``(ok, clause id, reason)``."""
    name, tname = rs.names[k], rs.names[t]
    if not rs.is_trading[k]:
        return False, "SP-TRADE-1", f"{name} is not a trading card"
    if rs.is_trading[t]:
        return False, "SP-TRADE-5", f"{tname} is a trading card: a trading card never displaces another"
    if rs.colour[t] != rs.colour[k]:
        return False, "SP-TRADE-1", f"{name} displaces only a card of its colour; {tname} is another colour"
    if t not in rs.targets_of[k]:
        return False, "SP-TRADE-3", f"{name} displaces only a worker with its symbol, not {tname}"
    if shows_every_symbol(rs, t):
        return True, "SP-TRADE-4", f"{tname} shows every symbol: {name} may displace it"
    clause = "SP-TRADE-3" if rs.cards[t].symbols else "SP-TRADE-2"
    return True, clause, f"{name} displaces {tname}"


def shows_every_symbol(rs: Ruleset, t: int) -> bool:
    """Whether card ``t`` shows every worker symbol a card of the game shows (SP-TRADE-4: the Czar and
    Carpenter, which every green trading card may displace); a card showing some of them (two, in edited
    tables) is displaced by the trading cards of its symbols (SP-TRADE-3).

    >>> from engine.petersburg.ruleset import ruleset
    >>> rs = ruleset()
    >>> shows_every_symbol(rs, rs.kind["Czar and Carpenter"]), shows_every_symbol(rs, rs.kind["Lumberjack"])
    (True, False)
    """
    shown = rs.cards[t].symbols
    return bool(shown) and all(s in shown for c in rs.cards for s in c.symbols)


def displacement_targets(state: State, player: int, trading_card: str) -> tuple[str, ...]:
    """The distinct cards in ``player``'s area that ``trading_card`` may displace now (a turned
    Observatory cannot be displaced, SP-OBS-5).

    >>> from engine.petersburg import GAME
    >>> displacement_targets(GAME.new_game(2, seed=1), 0, "Fur Shop")
    ()
    """
    rs = state.rules
    k = kind_of(rs, trading_card, "SP-TRADE-1")
    return tuple(rs.names[t] for t in live_targets(rs, state.areas[player], state.turned[player], k))


def live_targets(rs: Ruleset, area: tuple[int, ...], turned: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The kinds in ``area`` the trading card ``k`` may displace now: those it ever may, owned, and not all
    of their copies turned (SP-OBS-5).  ``()`` for a card that is not a trading card."""
    out = []
    for t in rs.targets_of[k]:
        if t in area and (not turned or area.count(t) > turned.count(t)):
            out.append(t)
    return tuple(out)
