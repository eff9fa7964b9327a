"""A divergence between a peer and the rules: its kinds, its signature (class) and its record.

>>> from engine.conformance.campaign.setups.base import GameSetup
>>> d = Divergence("scores", "the peer's scores differ", GameSetup("take6", "standard", 2, []), ())
>>> d.signature
'take6:scores:-:-'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import evolve, field, frozen

from engine.action_input import text_of_json
from engine.conformance.campaign.setups.base import GameSetup
from engine.conformance.kits.base import get_kit
from engine.conformance.peers.protocol import canonical
from engine.conformance.records.format import ActionLine, Header, Record, ResultLine
from engine.errors import InputError, RuleViolation
from engine.game import get_game
from engine.jsonio import show

__all__ = [
    "DIVERGENCE_KINDS",
    "Difference",
    "Divergence",
    "DivergenceFound",
    "Origin",
    "found_error",
    "same_class_and_not_larger",
]

DIVERGENCE_KINDS: Mapping[str, str] = {
    "terminal": "the peer and the rules disagree on whether the game is over",
    "to_act": "the peer and the rules disagree on who must act",
    "scores": "the peer's scores differ",
    "winners": "the peer's winners differ",
    "claim": "a fact the peer claims differs",
    "legal-extra": "the peer offers an action the rules refuse",
    "legal-missing": "the peer does not offer an action the rules allow",
    "refused-legal": "the peer refuses a legal action",
    "accepted-illegal": "the peer accepts an illegal action",
    "setup": "the peer refuses the set-up",
    "crash": "the peer process died",
    "timeout": "the peer did not answer in time",
    "garbage": "the peer's reply is not a valid protocol message",
}
"""Every kind of divergence, with a one-line meaning."""


@frozen
class Difference:
    """One differing fact of a divergence: its kind, what it is about (a fact's name, an action's canonical
    text, ``-``), what differs and the clauses the reference names.  A divergence keeps every one."""

    kind: str
    about: str
    message: str
    clauses: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """JSON form (an entry of a campaign report's ``differences``)."""
        return {"kind": self.kind, "about": self.about, "message": self.message,
                "clauses": list(self.clauses)}


@frozen
class Origin:
    """Where a divergence can be shown from one position: the reference's position (``notation`` and JSON
    ``state``) and the one action (``(seat, action JSON)``, ``None`` when the position alone differs)."""

    notation: str
    state: Mapping[str, Any] = field(eq=False)
    action: tuple[int, Any] | None = None


@frozen
class Divergence:
    """The first difference between the peer and the rules in one game.

    ``actions`` are the ``(player, action JSON)`` pairs both sides applied before it; ``trigger`` the action
    being applied when it happened (``None`` for a difference in a position); ``peer_claims`` the facts the
    peer claimed in that position; ``clauses`` the clause ids the reference named, if any.
    """

    kind: str
    message: str
    setup: GameSetup
    actions: tuple[tuple[int, Any], ...]
    trigger: tuple[int, Any] | None = None
    peer_claims: Mapping[str, Any] | None = None
    clauses: tuple[str, ...] = ()
    peer_name: str = ""
    peer_result: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    """The peer's ``(scores, winners)`` of a finished game, when they are what differs."""
    peer_legal: tuple[int, tuple[Any, ...]] | None = field(default=None, eq=False)
    """``(seat, actions)``: the seat's legal set as the peer gives it (legal-set divergences), written to
    the record as a ``legal`` claim so that ``arbiter check`` names every missing or extra action."""
    probes: int = field(default=0, eq=False)
    """Illegal probes tried in the game, the one that found the divergence included."""
    differences: tuple[Difference, ...] = field(default=(), eq=False)
    """Every differing fact at that point, the one the divergence is named after first."""
    origin: Origin | None = field(default=None, eq=False)
    """The reference position and the one action showing it (a peer with the ``position`` capability)."""
    start: str | None = field(default=None, eq=False)
    """The notation line the game started from (a counterexample replayed from a position), else ``None``:
    the set-up's start."""
    subject: str = ""
    """The card or effect the deciding step of the reference derivation names (``55``), if any."""
    evidence: tuple[Any, ...] = field(default=(), eq=False)
    """What the peer showed there (:class:`~engine.conformance.diagnosis.evidence.Seen` values, reference
    states inside): what a diagnosis explains.  Dropped once diagnosed (it does not travel to reports)."""
    explanations: tuple[tuple[str, ...], ...] = field(default=(), eq=False)
    """Its diagnosis: every smallest set of faults (their signatures) under which the reference does what
    the peer did here and wherever it agreed (``()``: nothing explains it, or not diagnosed)."""
    lost_position: bool = field(default=False, eq=False)
    """The peer failed (refused, garbled, hung, exited) while being put back on the reference's position
    after an earlier divergence (the ``position`` capability): the rest of its game was not played."""

    @property
    def steps(self) -> int:
        """Actions applied before the divergence."""
        return len(self.actions)

    @property
    def detail(self) -> str:
        """What the divergence is about: the claimed fact, the type of the action involved, or for a peer's
        own failure the request it failed on (``position`` for a failed return to the reference's position,
        whatever request of it failed; ``-`` for none)."""
        if self.kind == "claim" and self.peer_claims:
            return next(iter(self.peer_claims))
        if self.lost_position:
            return "position"
        if self.kind in ("crash", "timeout", "garbage"):
            found = _REQUEST_IN_TEXT.search(self.message)
            return found.group(1) if found else "-"
        if self.trigger is not None and self.kind not in ("crash", "timeout", "garbage"):
            kind = self.trigger[1].get("type") if isinstance(self.trigger[1], dict) else None
            return str(kind) if kind else "-"
        return "-"

    @property
    def signature(self) -> str:
        """The stable class of the divergence: ``game:kind:deciding clause:detail`` (``-`` for none), then
        ``:subject`` when the deciding step names a card or effect.

        Two divergences with one signature are taken for one defect: a campaign shrinks and reports each
        signature once, and a waiver names signatures (shell-style patterns allowed)."""
        parts = (self.setup.game, self.kind, self.clauses[0] if self.clauses else "-", self.detail)
        return ":".join((*parts, self.subject) if self.subject else parts)

    @property
    def size(self) -> tuple[int, int]:
        """What shrinking makes smaller: ``(actions, players)``; a shrunk record is never larger."""
        return (len(self.actions), self.setup.players)

    def to_record(self) -> Record:
        """The game as a record ``arbiter check`` replays (see the module docstring for what it shows)."""
        s = self.setup
        comment = f"arbiter fuzz: {self.kind}: {self.message}"
        source = {"implementation": self.peer_name or "peer", "version": "fuzzed"}
        lines = [ActionLine(i, p, a) for i, (p, a) in enumerate(self.actions)]
        header_claims: Mapping[str, Any] | None = None
        if self.peer_legal is not None:
            seat, offered = self.peer_legal
            legal = {"legal": [{"player": seat, "actions": list(offered)}]}
            if lines:
                lines[-1] = evolve(lines[-1], claims=legal, comment=comment)
            else:
                header_claims = legal
        elif self.trigger is not None:
            p, a = self.trigger
            lines.append(ActionLine(len(lines), p, a, comment=comment))
        elif self.peer_claims:
            if lines:
                last = lines[-1]
                lines[-1] = evolve(last, claims=dict(self.peer_claims), comment=comment)
            else:
                header_claims = dict(self.peer_claims)
        elif lines and self.peer_result is None:
            lines[-1] = evolve(lines[-1], comment=comment)
        header = Header(game=s.game, variant=s.variant, options=dict(s.options), players=s.players,
                        setup=None if self.start is not None else s.setup, source=source,
                        claims=header_claims, comment=comment if not lines else None, position=self.start)
        result = None
        if self.peer_result is not None:
            result = ResultLine(self.peer_result[0], self.peer_result[1], comment=comment)
        return Record(header, tuple(lines), result)

    def describe(self) -> list[str]:
        """Readable lines for a terminal."""
        s = self.setup
        where = f"after {self.steps} action{'s' if self.steps != 1 else ''}"
        lines = [f"divergence ({self.kind}) {where}: {self.message}",
                 f"  game: {s.game}, variant {s.variant}, {s.players} players"]
        if self.clauses:
            lines.append(f"  clauses: {', '.join(self.clauses)}")
        lines.append(f"  signature: {self.signature}")
        for other in self.differences[1:]:
            lines.append(f"  also differs: {other.kind} ({other.about}): {other.message}")
        if self.trigger is not None:
            lines.append(f"  action: {self.action_shown()}")
        return lines

    def action_shown(self) -> str | None:
        """The action the divergence happened on, for a person: ``seat 1: 'P1 4' {json}``, its text in the
        reference's position there (replayed from the start: what ``arbiter explain --action`` takes) before
        its canonical JSON; ``None`` when no action was being applied."""
        if self.trigger is None:
            return None
        seat, value = self.trigger
        text = None
        game, kit = get_game(self.setup.game), get_kit(self.setup.game)
        try:
            if self.start is not None:
                state = game.from_notation(self.start)
            else:
                state = game.new_game(self.setup.players, variant=self.setup.variant,
                                      options=dict(self.setup.options),
                                      setup=kit.setup_from_json(self.setup.setup))
            for _seat, action in self.actions:
                state = game.apply(state, game.action_from_json(action))
            text = text_of_json(game, state, value, seat)
        except (InputError, RuleViolation):  # a start the reference refuses: the JSON alone
            pass
        return f"seat {seat}: " + (canonical(value) if text is None else f"{show(text)} {canonical(value)}")


def same_class_and_not_larger(div: Divergence, found: Sequence[Divergence]) -> bool:
    """Whether ``div`` may replace the first divergence while shrinking: same signature, no larger."""
    best = min(found, key=lambda d: d.size)
    return div.signature == found[0].signature and div.size <= best.size


_REQUEST_IN_TEXT = re.compile(r"(?:reply to|replying to|sending|refused) '(\w+)'")


class DivergenceFound(Exception):
    """Raised inside a Hypothesis example so it fails and shrinks; carries the divergence."""

    def __init__(self, divergence: Divergence) -> None:
        super().__init__(f"{divergence.kind}: {divergence.message}")
        self.divergence = divergence


# One exception class per kind, so shrinking keeps the kind of the divergence it started from.
_FOUND: dict[str, type[DivergenceFound]] = {
    kind: type(f"Divergence_{kind.replace('-', '_')}", (DivergenceFound,), {}) for kind in DIVERGENCE_KINDS
}


def found_error(div: Divergence) -> DivergenceFound:
    """The exception carrying ``div``, of its kind's own class (so shrinking keeps the kind)."""
    return _FOUND[div.kind](div)

