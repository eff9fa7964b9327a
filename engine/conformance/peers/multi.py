"""A wrong peer with several independent defects, each switchable: the test bed of campaigns.

``python -m engine.conformance.peers.multi [--defects NAME,NAME...]`` (default: every defect).  Each defect
breaks a different rule and shows as a different kind of divergence, so one campaign must report each as
its own class (and waiving one must leave the others).  Some are confined to one variant so that an early
defect does not end every game before a later one can show (a game stops at its first divergence); the two
frequent early ones, ``low-card`` and ``second-select``, stay off in the tactics, countdown and kids variants,
where the score defects show:

=================  ==========  ================  ===========================================================
defect             game        kind              what the peer does wrong
=================  ==========  ================  ===========================================================
``low-card``       6 nimmt!    to_act            standard, professional, logic: takes the cheapest row for a
                                                 low card instead of asking its player (T6-PLACE-3 /
                                                 T6-PRO-5)
``second-select``  6 nimmt!    accepted-illegal  standard, professional, logic: accepts (and ignores) a
                                                 second selection in one turn (T6-SELECT-2)
``logic-draft``    6 nimmt!    legal-missing     logic variant: never offers drafting the pool's highest
                                                 card (T6-LOGIC-1)
``bull-55``        6 nimmt!    scores            countdown variant: counts card 55 as 1 bullhead instead
                                                 of 7 (T6-BULL-1, subject ``55``)
``fifth-card``     6 nimmt!    scores            tactics variant: a row is taken at its 5th card, not its
                                                 6th (T6-PLACE-2)
``eleven``         6 nimmt!    scores            kids variant: counts the multiples of 11 but 55 as 2
                                                 bullheads instead of 5 (T6-BULL-2, subject ``x11``)
``min-cost``       St. Pet.    claim (money)     forgets the minimum cost of 1 rouble (SP-COST-6)
``hand-limit``     St. Pet.    legal-extra       second edition: offers taking a card into a full hand
                                                 (SP-HAND-2)
``smelter``        St. Pet.    claim (money)     never applies the Gold Smelter's discount on a red card it
                                                 buys (SP-COST-4, subject ``Gold Smelter``)
``patriarch``      St. Pet.    legal-extra       prices the Patriarch 4 roubles too cheap when deciding
                                                 what it may buy (SP-COST-1, subject ``Patriarch``)
``czar``           St. Pet.    legal-missing     never offers buying a green trading card displacing Czar
                                                 and Carpenter, the wildcard (SP-TRADE-4)
``potjomkin``      St. Pet.    legal-missing     values Potjomkin's Village at its printed 2 when deciding
                                                 what buying a trading card displacing it costs (SP-POTJ-1)
``tied-discount``  St. Pet.    claim (money)     drops the lower-row discount of a blue card the
                                                 Carpenter Workshop also reduces: a tie of two 1-rouble
                                                 reductions (``SP-COST-3|SP-COST-4``)
=================  ==========  ================  ===========================================================

The Saint Petersburg price defects each touch their own cards, so that all of them can show in one
campaign; a candidate set that another position discriminates is one class
(``engine.conformance.campaign.grouping``).

>>> peer = MultiDefectPeer({"min-cost"})
>>> sorted(peer.defects)
['min-cost']
>>> try:
...     MultiDefectPeer({"nonsense"})
... except ValueError as exc:
...     print(str(exc)[:60])
unknown defect 'nonsense' (known: low-card, second-select, l
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import Any, ClassVar

from attrs import evolve

from engine.conformance.peers.base import ReferencePeer, serve
from engine.conformance.peers.petersburg_free_cards import FreeCardsPeer
from engine.conformance.peers.protocol import canonical
from engine.conformance.peers.take6_fewest_heads import FewestHeadsPeer
from engine.errors import InputError, RuleViolation
from engine.petersburg import Buy, cost_breakdown
from engine.petersburg.catalog import PARAMS
from engine.take6.layout import replace
from engine.take6.model import TakeRow
from engine.take6.rules import bullheads

__all__ = ["DEFECTS", "MultiDefectPeer", "main"]

DEFECTS: dict[str, str] = {
    "low-card": "6 nimmt!: takes the cheapest row for a low card instead of asking its player",
    "second-select": "6 nimmt!: accepts (and ignores) a second selection in one turn",
    "logic-draft": "6 nimmt! logic: never offers drafting the pool's highest card",
    "bull-55": "6 nimmt! countdown: counts card 55 as 1 bullhead instead of 7",
    "fifth-card": "6 nimmt! tactics: takes a row at its 5th card instead of its 6th",
    "eleven": "6 nimmt! kids: counts the multiples of 11 but 55 as 2 bullheads instead of 5",
    "min-cost": "Saint Petersburg: forgets the minimum cost of 1 rouble",
    "hand-limit": "Saint Petersburg, second edition: offers taking a card into a full hand",
    "smelter": "Saint Petersburg: never applies the Gold Smelter's discount",
    "patriarch": "Saint Petersburg: prices the Patriarch 4 roubles too cheap when deciding what it may buy",
    "czar": "Saint Petersburg: never offers a green trading card displacing Czar and Carpenter",
    "potjomkin": "Saint Petersburg: values Potjomkin's Village at its printed cost when it is displaced",
    "tied-discount": "Saint Petersburg: drops the lower-row discount of a blue card the Carpenter Workshop "
    "reduces",
}
"""Defect name → what it does wrong."""

QUIET_VARIANTS = ("tactics", "countdown", "kids")
"""6 nimmt! variants where ``low-card`` and ``second-select`` stay off, so the score defects can show."""


class MultiDefectPeer(FreeCardsPeer, FewestHeadsPeer):
    """The reference with the chosen ``defects`` (default: all of :data:`DEFECTS`); the ``min-cost`` and
    ``low-card`` defects are those of the single-defect peers it builds on."""

    def __init__(self, defects: Iterable[str] | None = None) -> None:
        super().__init__()
        chosen = set(DEFECTS) if defects is None else set(defects)
        for name in chosen:
            if name not in DEFECTS:
                raise ValueError(f"unknown defect {name!r} (known: {', '.join(DEFECTS)})")
        self.defects = frozenset(chosen)
        self.name = "multi-defect peer (" + ", ".join(d for d in DEFECTS if d in self.defects) + ")"
        self.miscount: list[int] = []
        """6 nimmt! score defects: per seat, what the peer's wrong bullhead values add to the true total."""

    # -- 6 nimmt! score defects ---------------------------------------------------------------------------

    _WRONG: ClassVar[dict[str, tuple[str, Any, int]]] = {
        "bull-55": ("countdown", lambda c: c == 55, 1),
        "eleven": ("kids", lambda c: c % 11 == 0 and c != 55, 2),
    }
    """Score defect → (its variant, the cards it misvalues, the value it gives them)."""

    def do_new(self, game: str, variant: str, players: int, options: Any, setup: Any) -> None:
        super().do_new(game, variant, players, options, setup)
        self.miscount = [0] * players
        self._fifth_card()

    def do_position(self, game: str, notation: str, state: Any) -> None:
        """The reference's position, the defects kept: a row's capacity one short again (``fifth-card``);
        the wrong bullhead counts carried on (a peer keeping its own running totals, which a campaign
        counts from the resync point) unless the seats changed."""
        super().do_position(game, notation, state)
        if len(self.miscount) != self.players:
            self.miscount = [0] * self.players
        self._fifth_card()

    def _fifth_card(self) -> None:
        if "fifth-card" in self.defects and self._game() == "take6" and self.state.rules.variant == "tactics":
            rules = self.state.rules
            self.state = replace(self.state, rules=evolve(rules, capacity=rules.capacity - 1))

    def _take6_apply(self, action: Any) -> None:
        """Apply a parsed 6 nimmt! action, counting the cards it takes with the peer's wrong values (the
        engine's own derivation of the step names them)."""
        assert self.game is not None
        before = self.state
        self.state = self.game.apply(before, action)
        variant = self.state.rules.variant
        wrong = [(f, v) for d, (where, f, v) in self._WRONG.items() if d in self.defects and where == variant]
        if not wrong:
            return
        for root in self.game.derive(before, action):  # type: ignore[attr-defined]
            for taken in root.find(says="taken"):
                for card in taken.data["cards"]:
                    for misvalued, value in wrong:
                        if misvalued(card):
                            self.miscount[taken.data["seat"]] += value - bullheads(card)

    def report(self) -> dict[str, Any]:
        out = super().report()
        if self._game() == "take6" and any(self.miscount):
            scores = [s + m for s, m in zip(out["scores"], self.miscount, strict=True)]
            out["scores"] = scores
            out["claims"] = {**out["claims"], "scores": scores}
            if "winners" in out:
                best = max(scores) if self.state.rules.winner == "highest" else min(scores)
                out["winners"] = [p for p, s in enumerate(scores) if s == best]
        return out

    def _game(self) -> str:
        return self.game.name if self.game is not None else ""

    def _loud(self) -> bool:
        """Whether the frequent early 6 nimmt! defects are on in this game (not in QUIET_VARIANTS)."""
        return self.state.rules.variant not in QUIET_VARIANTS

    def legal(self, player: int) -> list[Any]:
        actions = super().legal(player)
        if "logic-draft" in self.defects and self._game() == "take6" and self.state.phase == "draft":
            pool = [a["card"] for a in actions if a.get("type") == "draft"]
            if pool:
                actions = [a for a in actions if not (a.get("type") == "draft" and a["card"] == max(pool))]
        if (
            "hand-limit" in self.defects
            and self._game() == "petersburg"
            and self.state.rules.variant == "second"
        ):
            actions += self._full_hand_takes(player, actions)
        if self._game() == "petersburg":
            actions = self._petersburg_legal(player, actions)
        return actions

    # -- Saint Petersburg price defects -------------------------------------------------------------------

    _PATRIARCH_DISCOUNT = 4
    _POTJ = "Potjomkin's Village"

    def _quote(self, action: Any) -> Any:
        """The reference's cost derivation of a buy or play in the peer's position (``None``: none)."""
        source = action.source if isinstance(action, Buy) else "hand"
        try:
            return cost_breakdown(
                self.state, action.player, action.card, source=source, displace=action.displace
            )
        except RuleViolation:
            return None

    def _petersburg_legal(self, player: int, actions: list[Any]) -> list[Any]:
        """The ``czar`` and ``potjomkin`` actions dropped, the ``patriarch`` ones added."""
        game = self.game
        assert game is not None
        out = []
        money = self.state.money[player] if 0 <= player < self.players else 0
        for value in actions:
            if value.get("type") == "buy":
                d = value.get("displace")
                if "czar" in self.defects and d == "Czar and Carpenter":
                    continue
                if "potjomkin" in self.defects and d == self._POTJ:
                    quote = self._quote(game.action_from_json(value))
                    if quote is not None and max(PARAMS["minimum_cost"], quote.raw + 4) > money:
                        continue
            out.append(value)
        acting = tuple(game.to_act(self.state)) == (player,)
        if "patriarch" in self.defects and acting and self.state.drawn < 0:
            out += self._cheap_patriarchs(player, money)
        return out

    def _cheap_patriarchs(self, player: int, money: int) -> list[Any]:
        s = self.state
        game = self.game
        assert game is not None
        names = s.rules.names
        area = {names[k] for k in s.areas[player]}
        found = []
        for source, row in (("upper", s.upper), ("lower", s.lower)):
            if not any(names[k] == "Patriarch" for k in row):
                continue
            for target in sorted(area):
                value = {"type": "buy", "player": player, "card": "Patriarch", "source": source,
                         "displace": target}
                try:
                    game.apply(s, game.action_from_json(value))
                except RuleViolation as exc:
                    quote = self._quote(game.action_from_json(value))
                    if (exc.clause == "SP-BUY-2" and quote is not None
                            and quote.cost - self._PATRIARCH_DISCOUNT <= money):
                        found.append(game.action_to_json(game.action_from_json(value)))
        return found

    def _overcharge(self, action: Any) -> int:
        """The roubles the ``smelter`` / ``tied-discount`` defects charge beyond the reference's price."""
        if not isinstance(action, Buy):
            return 0
        quote = self._quote(action)
        if quote is None:
            return 0
        dropped = 0
        by_card = {r.card: r for r in quote.reductions}
        if "smelter" in self.defects and "Gold Smelter" in by_card:
            dropped += by_card["Gold Smelter"].amount
        if ("tied-discount" in self.defects and "Carpenter Workshop" in by_card
                and any(r.clause == "SP-COST-3" for r in quote.reductions)):
            dropped += 1
        return max(PARAMS["minimum_cost"], quote.raw + dropped) - quote.cost if dropped else 0

    def _full_hand_takes(self, player: int, actions: list[Any]) -> list[Any]:
        """Takes the rules refuse only because the hand is full (SP-HAND-2)."""
        s, game = self.state, self.game
        if game is None or tuple(game.to_act(s)) != (player,):
            return []
        names = s.rules.names
        offered = {canonical(a) for a in actions}
        out = []
        for source, row in (("upper", s.upper), ("lower", s.lower)):
            for k in row:
                take = game.action_from_json(
                    {"type": "take", "player": player, "card": names[k], "source": source}
                )
                value = game.action_to_json(take)
                if canonical(value) in offered:
                    continue
                try:
                    game.apply(s, take)
                except RuleViolation as exc:
                    if exc.clause == "SP-HAND-2":
                        offered.add(canonical(value))
                        out.append(value)
        return out

    def do_apply(self, player: int, action: Any) -> None:
        game = self._game()
        if (
            "second-select" in self.defects
            and self._loud()
            and game == "take6"
            and isinstance(action, dict)
            and action.get("type") == "select"
            and 0 <= player < self.players
            and self.state.phase == "select"
            and self.state.selected[player]
        ):
            return  # accepts a second selection and ignores it
        if game == "take6":
            assert self.game is not None
            parsed = self.game.action_from_json(action)
            named = self.kit.action_player(parsed)
            if named != player:
                raise InputError("player", f"the action names seat {named}, not {player}")
            self._take6_apply(parsed)
        else:
            extra = 0
            if self._game() == "petersburg" and isinstance(action, dict) and self.game is not None:
                try:
                    extra = self._overcharge(self.game.action_from_json(action))
                except (InputError, TypeError):
                    extra = 0
            if "min-cost" in self.defects:
                super().do_apply(player, action)  # FreeCardsPeer's (a purchase below the minimum is refunded)
            else:
                ReferencePeer.do_apply(self, player, action)
            if extra:
                money = list(self.state.money)
                money[player] -= extra
                self.state = self.state._replace(money=tuple(money))

    def after_apply(self) -> None:
        if "low-card" not in self.defects or self._game() != "take6" or not self._loud():
            return
        # FewestHeadsPeer's defect (a low card's row is chosen for the player), its rows taken counted
        game = self.game
        assert game is not None
        while not game.is_terminal(self.state):
            acting = game.to_act(self.state)
            choices = [a for a in game.legal_actions(self.state, acting[0]) if isinstance(a, TakeRow)]
            if len(acting) != 1 or not choices:
                return
            rows = self.state.rows
            self._take6_apply(min(choices, key=lambda a: (sum(bullheads(c) for c in rows[a.row]), a.row)))


def main(argv: list[str] | None = None) -> int:
    """Serve the protocol on stdin/stdout with the defects named by ``--defects`` (default: all)."""
    parser = argparse.ArgumentParser(prog="python -m engine.conformance.peers.multi")
    parser.add_argument(
        "--defects",
        default=",".join(DEFECTS),
        help=f"comma-separated defects to switch on (default: all of {', '.join(DEFECTS)})",
    )
    args = parser.parse_args(argv)
    chosen = [d for d in args.defects.split(",") if d]
    try:
        peer = MultiDefectPeer(chosen)
    except ValueError as exc:
        parser.error(str(exc))
    return serve(peer)


if __name__ == "__main__":
    sys.exit(main())
