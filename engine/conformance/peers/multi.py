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
=================  ==========  ================  ===========================================================

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
from engine.conformance.peers.take6_fewest_heads import FewestHeadsPeer
from engine.conformance.protocol import canonical
from engine.errors import InputError, RuleViolation
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
        return actions

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
        elif "min-cost" in self.defects:
            super().do_apply(player, action)  # FreeCardsPeer's (a purchase below the minimum is refunded)
        else:
            ReferencePeer.do_apply(self, player, action)

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
