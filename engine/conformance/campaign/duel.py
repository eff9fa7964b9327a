"""One differential game: the reference and the peer side by side, compared after every step.

>>> from engine.conformance.peers.launch import in_process
>>> from engine.conformance.peers.base import ReferencePeer
>>> from engine.conformance.campaign.setups.base import GameSetup
>>> from engine.conformance.kits.base import get_kit
>>> from engine.game import get_game
>>> from engine.conformance.campaign.setups.base import seeded_setup
>>> s = GameSetup("petersburg", "first", 2, None)
>>> s = GameSetup("petersburg", "first", 2, seeded_setup(get_game("petersburg"), get_kit("petersburg"), s, 1))
>>> steps, probes = play_game(s, Chooser(lambda strategy: 0), in_process(ReferencePeer)(), max_steps=20)
>>> steps
20
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from attrs import evolve
from hypothesis import strategies as st

from engine.action_input import text_of_json
from engine.conformance.attribution import Attribution, action_clauses, attribute, refusing
from engine.conformance.campaign.denials import (
    offered_elsewhere,
    offers_nothing,
    parted_from_offered,
    refused_alike,
    turn_elsewhere,
    unresolved,
)
from engine.conformance.campaign.differences import Pending, leading, named_clauses
from engine.conformance.campaign.divergence import (
    Difference,
    Divergence,
    DivergenceFound,
    Origin,
    found_error,
)
from engine.conformance.campaign.setups.base import GameSetup
from engine.conformance.campaign.setups.generated import setup_maker
from engine.conformance.diagnosis.evidence import Seen
from engine.conformance.kits.base import EVERY_FACT, Trial
from engine.conformance.peers.protocol import (
    Hello,
    LegalReport,
    PeerFailure,
    Refusal,
    StateReport,
    Transport,
    apply_request,
    canonical,
    hello_request,
    legal_request,
    new_request,
    position_request,
    state_request,
)
from engine.derivation import Step
from engine.errors import InputError, NotYourTurn, RuleViolation
from engine.game import get_game
from engine.jsonio import show

__all__ = [
    "FAILURE_KINDS",
    "MAX_PER_GAME",
    "PROBE_ONE_IN",
    "Chooser",
    "Duel",
    "play_game",
    "position_origin",
    "refusal_text",
]

FAILURE_KINDS = ("crash", "timeout", "garbage")
"""The peer's own failures: they end a game (and a peer process is not reused after one)."""

MAX_PER_GAME = 100
"""The most divergences one game records with positions (the game ends at the last one)."""

PROBE_ONE_IN = 8
"""About one step in this many tries an illegal probe (when the game offers one)."""


class Chooser:
    """Where the harness's choices come from (Hypothesis draws in :func:`fuzz`)."""

    def __init__(self, draw: Callable[[st.SearchStrategy[Any]], Any]) -> None:
        self._draw = draw

    def index(self, n: int) -> int:
        """A number in ``range(n)``."""
        return 0 if n <= 1 else int(self._draw(st.integers(0, n - 1)))

    def probe(self) -> bool:
        """Whether to try an illegal action now."""
        return int(self._draw(st.integers(0, PROBE_ONE_IN - 1))) == PROBE_ONE_IN - 1


class Duel:
    """The state of one game on both sides."""

    def __init__(self, setup: GameSetup, transport: Transport, peer_name: str, state: Any = None) -> None:
        from engine.conformance.kits.base import get_kit

        self.setup = setup
        self.game = get_game(setup.game)
        self.kit = get_kit(setup.game)
        self.transport = transport
        self.peer_name = peer_name
        self.start: str | None = None
        """The notation line the game starts from (``None``: the set-up's start)."""
        if state is not None:
            self.state = state
            self.start = self.game.to_notation(state)
        else:
            self.state = self.game.new_game(
                setup.players,
                variant=setup.variant,
                options=dict(setup.options),
                setup=self.kit.setup_from_json(setup.setup),
            )
        self.actions: list[tuple[int, Any]] = []
        self.seen: dict[str, Any] = {}
        self.probes = 0
        self.step_taken: tuple[Any, Any, Any] | None = None
        """``(before, action, after)`` of the last action applied, for naming the deciding clause."""
        self.offered: dict[int, tuple[Any, ...]] = {}
        """The peer's last legal set per seat."""
        self.tally: dict[str, int] = {"steps": 0, "probes": 0}
        self.positions = False
        """Whether the peer declares the ``position`` capability (divergences then carry their origin)."""
        self.peer_view: dict[str, Any] = {}
        """Every fact the peer reported in its last ``state`` reply (for attribution)."""
        self.peer_facts: dict[str, Any] = {}
        """The facts the peer claimed in its last ``state`` reply (a divergence's record carries them)."""
        self.trials = False
        """Whether attribution may show the peer discriminating positions (the campaign uses positions)."""
        self.carried: tuple[int, ...] = ()
        """Per seat, what the peer's scores carried past the last resync (its scores there less the
        position's): scores are compared counted from the resync point, so one wrong step is counted once."""
        self.placed = False
        """The peer was put on the current position (a resync): its facts there are ours, no evidence."""
        self.agreed: list[Seen] = []
        """Every comparison where the peer agreed with the reference (the evidence that refutes a fault
        whose rules would have gone otherwise there: :mod:`engine.conformance.diagnosis`)."""

    def diverge(
        self,
        kind: str,
        message: str,
        *,
        trigger: tuple[int, Any] | None = None,
        claims: Mapping[str, Any] | None = None,
        clauses: Sequence[str] | Attribution = (),
        result: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
        legal: tuple[int, tuple[Any, ...]] | None = None,
        differences: Sequence[Difference] = (),
        evidence: Sequence[Seen] = (),
    ) -> DivergenceFound:
        subject = clauses.subject if isinstance(clauses, Attribution) else ""
        clauses = clauses.clauses if isinstance(clauses, Attribution) else tuple(clauses)
        if claims is not None:  # the record carries every fact the peer claimed, the divergent one first
            claims = {**claims, **{k: v for k, v in self.peer_facts.items() if k not in claims}}
        if not differences:
            about = (
                next(iter(claims))
                if kind == "claim" and claims
                else (canonical(trigger[1]) if trigger is not None else "-")
            )
            differences = (Difference(kind, about, message, tuple(clauses)),)
        origin = self.origin(trigger) if self.positions and kind not in FAILURE_KINDS else None
        div = Divergence(
            kind,
            message,
            self.setup,
            tuple(self.actions),
            trigger,
            claims,
            tuple(clauses),
            self.peer_name,
            result,
            peer_legal=legal,
            probes=self.probes,
            differences=tuple(differences),
            origin=origin,
            start=self.start,
            subject=subject,
            evidence=tuple(evidence),
        )
        return found_error(div)

    def origin(self, trigger: tuple[int, Any] | None) -> Origin | None:
        """The reference position a divergence shows from, with its one action: the current position and
        the trigger; else the position before the last action and that action; else the position alone."""
        if trigger is not None:
            return position_origin(self.game, self.state, trigger)
        if self.step_taken is not None and self.actions:
            return position_origin(self.game, self.step_taken[0], self.actions[-1])
        return position_origin(self.game, self.state, None)

    def resync(self) -> None:
        """Put the peer on the reference's position (the ``position`` capability), then read the peer's scores
        there: what they carry beyond the position's (a peer keeping its own running totals) is
        :attr:`carried`, taken off every later score it reports, so a score difference is counted from the
        resync point and an earlier wrong step is not attributed again to a later one.

        A peer failing here (refusing the position, answering garbage, hanging, exiting) ends the game with
        a divergence marked :attr:`~engine.conformance.campaign.divergence.Divergence.lost_position`: the
        rest of the game is not played, which the campaign reports as lost coverage."""
        self.placed = True
        try:
            report = self._put_back()
        except DivergenceFound as exc:
            lost = evolve(exc.divergence, lost_position=True,
                          message=f"while put back on the reference's position: {exc.divergence.message}")
            raise found_error(lost) from None
        ours = self.kit.facts(self.state).get("scores")
        self.carried = ()
        if isinstance(ours, list) and len(ours) == len(report.scores):
            carried = tuple(p - r for p, r in zip(report.scores, ours, strict=True))
            self.carried = carried if any(carried) else ()

    def _put_back(self) -> StateReport:
        """Send ``position`` with the reference's position, then ``state``; the peer's state report there."""
        notation = self.game.to_notation(self.state)
        reply = self.ask(position_request(self.setup.game, notation, self.game.state_to_json(self.state)))
        if isinstance(reply, Refusal):
            raise self.diverge(
                "garbage",
                f"the peer refused 'position' (a capability it declares): {reply.error}: {reply.message}",
            )
        report = self.ask(state_request())
        if isinstance(report, Refusal):
            raise self.diverge("garbage", f"the peer refused 'state': {report.error}: {report.message}")
        if not isinstance(report, StateReport):  # pragma: no cover - parse_reply returns the right type
            raise self.diverge("garbage", "unexpected reply to 'state'")
        return report

    def counted_from_resync(self, reply: StateReport) -> StateReport:
        """``reply`` with its scores (and a ``scores`` claim) less what they carried past the last resync."""
        if not self.carried or len(reply.scores) != len(self.carried):
            return reply
        scores = tuple(s - c for s, c in zip(reply.scores, self.carried, strict=True))
        claims = reply.claims
        old = claims.get("scores") if claims is not None else None
        if claims is not None and isinstance(old, list) and len(old) == len(scores):
            claims = {**claims, "scores": [
                v - c if isinstance(v, int) and not isinstance(v, bool) else v
                for v, c in zip(old, self.carried, strict=True)
            ]}
        return evolve(reply, scores=scores, claims=claims)

    def fact_clauses(self, fact: str, claimed: Any = None) -> Attribution:
        """The clauses behind a divergent fact in the current position (as ``arbiter check`` names them),
        attributed with every fact the peer reported there (:mod:`engine.conformance.attribution`)."""
        return attribute(
            self.game,
            self.kit,
            fact,
            self.step_taken,
            self.setup.variant,
            claimed=claimed,
            claims=self.peer_view,
            trial=self.trial if self.trials else None,
            start=self.start_args() if self.step_taken is None and self.start is None and not self.placed
            else None,
        )

    def start_args(self) -> dict[str, Any]:
        """``new_game``'s keyword arguments for the set-up's start position."""
        s = self.setup
        return {"players": s.players, "variant": s.variant, "options": dict(s.options),
                "setup": self.kit.setup_from_json(s.setup)}

    def trial(self, trial: Trial) -> Any:
        """Show the peer a discriminating position: put it there, apply the trial's action, read the fact
        (scores counted from that position; every fact it claims for :data:`~engine.conformance.kits.base.
        EVERY_FACT`); ``None`` when it refuses.  The peer is put back afterwards."""
        with self.elsewhere(trial.state):
            reply = self.ask(apply_request(self.kit.action_player(trial.action) or 0,
                                           self.game.action_to_json(trial.action)))
            if isinstance(reply, Refusal):
                return None
            report = self.ask(state_request())
            if not isinstance(report, StateReport):
                return None
            report = self.counted_from_resync(report)
            if trial.fact == "scores":
                return list(report.scores)
            claims = self.peer_claims(report)
            return claims if trial.fact == EVERY_FACT else claims.get(trial.fact)

    @property
    def players(self) -> int:
        """How many seats the game has."""
        return self.setup.players

    def offers(self, seat: int) -> tuple[Any, ...]:
        """The actions (JSON) the peer offers ``seat`` in the current position; ``()`` when it refuses to
        say (asking does not move it)."""
        reply = self.ask(legal_request(seat))
        return tuple(reply.values) if isinstance(reply, LegalReport) else ()

    def accepts(self, seat: int, value: Any) -> bool:
        """Whether the peer, put on the current position, accepts action ``value`` (JSON) of ``seat``; it is
        put back there afterwards."""
        with self.elsewhere(self.state):
            return not isinstance(self.ask(apply_request(seat, value)), Refusal)

    @contextlib.contextmanager
    def elsewhere(self, state: Any) -> Iterator[None]:
        """The peer put on ``state`` for the block, then back on the current position (the position compared
        is the one it was: what its scores carry, whether it was put there)."""
        carried, placed = self.carried, self.placed
        try:
            here = self.state
            self.state = state
            try:
                self.resync()
            finally:
                self.state = here
            yield
        finally:
            self.resync()
            self.carried, self.placed = carried, placed

    def action_clauses(self, value: Any, violated: str | None = None) -> tuple[str, ...]:
        """The clauses behind a divergence on one action (JSON form)."""
        try:
            action = self.game.action_from_json(value)
        except (InputError, RuleViolation):
            return (violated,) if violated else ()
        return action_clauses(
            self.game, self.kit, action, self.setup.variant, violated=violated, state=self.state
        )

    def ask(self, message: Mapping[str, Any], trigger: tuple[int, Any] | None = None) -> Any:
        try:
            return self.transport.request(message, self.setup.players)
        except PeerFailure as exc:
            raise self.diverge(exc.kind, str(exc), trigger=trigger) from None

    # -- comparing ---------------------------------------------------------------------------------------

    def compare(self) -> bool:
        """Compare the positions; returns whether the game is over."""
        reply = self.ask(state_request())
        if isinstance(reply, Refusal):
            raise self.diverge("garbage", f"the peer refused 'state': {reply.error}: {reply.message}")
        if not isinstance(reply, StateReport):  # pragma: no cover - parse_reply returns the right type
            raise self.diverge("garbage", "unexpected reply to 'state'")
        reply = self.counted_from_resync(reply)
        game, state = self.game, self.state
        facts = self.kit.facts(state)
        claims = self.peer_claims(reply)
        self.peer_facts = claims
        self.peer_view = {
            **claims,
            "scores": list(reply.scores),
            "to_act": sorted(reply.to_act),
            "over": reply.terminal,
        }
        terminal = game.is_terminal(state)
        to_act = tuple(game.to_act(state))
        scores = tuple(facts["scores"]) if "scores" in facts else reply.scores
        found: list[Pending] = []
        if reply.terminal != terminal:
            say = "over" if reply.terminal else "not over"
            rules = "over" if terminal else f"not over (seats {list(to_act)} must act)"
            found.append(
                Pending(
                    "terminal",
                    "over",
                    f"the peer says the game is {say}; the rules say it is {rules}",
                    self.fact_clauses("over", reply.terminal),
                    claims={"over": reply.terminal} if "over" in self.kit.fact_names else None,
                )
            )
        if tuple(sorted(reply.to_act)) != tuple(sorted(to_act)):
            found.append(
                Pending(
                    "to_act",
                    "to_act",
                    f"the peer says seats {list(reply.to_act)} must act; the rules say {list(to_act)}",
                    self.fact_clauses("to_act", list(reply.to_act)),
                    claims={"to_act": list(reply.to_act)},
                )
            )
        if reply.scores != scores:
            found.append(
                Pending(
                    "scores",
                    "scores",
                    f"the peer's scores are {list(reply.scores)}; the rules say {list(scores)}"
                    + (" (counted from the position it was last put on)" if self.carried else ""),
                    self.fact_clauses("scores", list(reply.scores)),
                    claims={"scores": list(reply.scores)},
                )
            )
        if terminal and reply.terminal and not self.carried:
            # a peer carrying wrong totals past a resync ranks by them: its winners follow from score
            # differences already recorded, so they are compared only where its scores count from the position
            winners = tuple(sorted(game.result(state).winners))
            assert reply.winners is not None
            if tuple(sorted(reply.winners)) != winners:
                found.append(
                    Pending(
                        "winners",
                        "winners",
                        f"the peer's winners are {sorted(reply.winners)}; the rules say {list(winners)}",
                        self.fact_clauses("winners", list(reply.winners)),
                        result=(reply.scores, reply.winners),
                    )
                )
        for name, value in claims.items():
            if value != facts.get(name) and not any(p.about == name for p in found):
                found.append(
                    Pending(
                        "claim",
                        name,
                        f"the peer claims {name} = {_short(value)}; the rules say {_short(facts.get(name))}",
                        self.fact_clauses(name, value),
                        claims={name: value},
                    )
                )
        seen = self.after_seen(reply)
        if found:
            raise self.diverge_all([evolve(p, seen=seen) for p in found])
        self.agreed.extend(seen)
        if terminal:
            return True
        for seat in to_act:
            found += self.compare_legal(seat)
        if found:
            raise self.diverge_all(found)
        return False

    def after_seen(self, reply: StateReport) -> tuple[Seen, ...]:
        """What the peer showed after the last step (or at the set-up's start) as evidence: every fact it
        reported, its winners where they are compared; ``()`` at a start position (a position the rules of
        any fault take as given)."""
        if self.placed:
            return ()
        shown = dict(self.peer_view)
        if reply.terminal and reply.winners is not None and not self.carried:
            shown["winners"] = sorted(reply.winners)
        if self.step_taken is not None:
            before, action, _after = self.step_taken
            return (Seen("after", before, action, shown=shown),)
        if self.start is None:
            return (Seen("start", None, self.start_args(), shown=shown),)
        return ()

    def diverge_all(self, found: Sequence[Pending]) -> DivergenceFound:
        """One divergence named after the first difference, recording every one (the peer's claims of all
        of them go to the record, so ``arbiter check`` reports each)."""
        order: tuple[Step, ...] = ()
        if self.step_taken is not None and len(found) > 1:
            before, action, _after = self.step_taken
            try:  # the reference derivation of the step, in causal order
                order = tuple(s for root in self.kit.derive(self.game, before, action) for s in root.walk())
            except Exception:  # naming clauses is advisory: never let it hide the divergence itself
                order = ()
        first = leading(found, order)
        found = [first, *(p for p in found if p is not first)]
        claims: dict[str, Any] = {}
        evidence: list[Seen] = []
        for p in found:
            claims.update(p.claims or {})
            # once each (by identity: a start's evidence holds a dict, which has no hash)
            evidence += [s for s in p.seen if not any(s is e for e in evidence)]
        differences = tuple(
            Difference(p.kind, p.about, p.message, named_clauses(p.clauses)) for p in found
        )
        return self.diverge(
            first.kind,
            first.message,
            trigger=first.trigger,
            claims=claims or None,
            clauses=first.clauses,
            result=first.result,
            legal=first.legal,
            differences=differences,
            evidence=tuple(evidence),
        )

    def peer_claims(self, reply: StateReport) -> dict[str, Any]:
        from engine.conformance.records.format import check_claims, json_path

        raw = reply.claims or {}
        out: dict[str, Any] = {}
        if raw:
            facts = {k: v for k, v in raw.items() if k in self.kit.fact_names}
            try:  # the record schema: 2.0 is not a round number here either
                check_claims(self.setup.game, facts, "reply to 'state'")
            except InputError as exc:
                raise self.diverge("garbage", str(exc)) from None
        for name, value in raw.items():
            if name not in self.kit.fact_names:
                known = ", ".join(self.kit.fact_names)
                where = json_path(["claims", name])
                raise self.diverge("garbage", f"reply to 'state': {where}: unknown fact (known: {known})")
            try:
                out[name] = self.kit.normalise(name, value)
            except InputError as exc:
                where = json_path(["claims", name])
                raise self.diverge("garbage", f"reply to 'state': {where}: {exc.message}") from None
        return out

    def compare_legal(self, seat: int) -> list[Pending]:
        """The differences of ``seat``'s legal set: every extra action, then every missing one."""
        reply = self.ask(legal_request(seat))
        if isinstance(reply, Refusal):
            raise self.diverge("garbage", f"the peer refused 'legal' for seat {seat}: {reply.message}")
        assert isinstance(reply, LegalReport)
        ours = {
            canonical(self.game.action_to_json(a)): self.game.action_to_json(a)
            for a in self.game.legal_actions(self.state, seat)
        }
        self.seen.update(ours)
        theirs = dict(zip(reply.actions, reply.values, strict=True))
        self.offered[seat] = tuple(reply.values)
        extra = [t for t in reply.actions if t not in ours]
        missing = [t for t in ours if t not in theirs]
        legal = (seat, tuple(reply.values))
        seen: tuple[Seen, ...] = (Seen("legal", self.state, None, seat, frozenset(reply.actions)),)
        if not extra and not missing:
            self.agreed.extend(seen)
        out: list[Pending] = []
        for i, text in enumerate(extra):
            value = theirs[text]
            why, clauses = self.why_illegal(seat, value)
            out.append(
                Pending(
                    "legal-extra",
                    text,
                    f"the peer offers seat {seat} {self.said(seat, value)}, which the rules "
                    f"refuse ({why})" + (_others(len(extra) - 1, "more extra") if i == 0 else ""),
                    clauses,
                    trigger=(seat, value),
                    legal=legal if clauses else None,
                    seen=seen,
                )
            )
        nothing = offers_nothing(self, seat) if missing and not theirs else None
        turned = offered_elsewhere(self, seat) if missing and not theirs and nothing is None else None
        if turned is not None:
            nothing, seen = turned.attribution, (*seen, turned.seen)
        elif missing and not theirs and nothing is None:
            nothing = unresolved(self, seat, self.game.action_from_json(ours[missing[0]]), refused=False)[0]
        for i, text in enumerate(missing):
            value = ours[text]
            parted = (parted_from_offered(self, self.game.action_from_json(value), reply.values)
                      if theirs and nothing is None else None)
            out.append(
                Pending(
                    "legal-missing",
                    text,
                    f"the peer does not offer seat {seat} {self.said(seat, value)}, which the "
                    "rules allow" + (_others(len(missing) - 1, "more missing") if i == 0 else "")
                    + ("; it offers none of the seat's legal actions" if nothing and i == 0 else "")
                    + (f", and seat {turned.seat} {self.said(turned.seat, turned.value)}, which the rules "
                       "refuse" if turned and i == 0 else ""),
                    nothing or parted or self.action_clauses(value),
                    trigger=(seat, value),
                    legal=legal,
                    seen=seen,
                )
            )
        return out

    def said(self, seat: int, value: Any) -> str:
        """``seat``'s action for a person: its text in the reference's position (what ``arbiter explain
        --action`` takes there), quoted, then its canonical JSON (the JSON alone for no action)."""
        text = text_of_json(self.game, self.state, value, seat)
        return canonical(value) if text is None else f"{show(text)} {canonical(value)}"

    def why_illegal(self, seat: int, value: Any) -> tuple[str, tuple[str, ...] | Attribution]:
        try:
            action = self.game.action_from_json(value)
        except InputError as exc:  # no action of the game: named by what the engine refuses a non-action by
            return f"not an action of this game: {exc}", (self.kit.forms_clause,)
        try:
            self.game.apply(self.state, action)
        except RuleViolation as exc:
            return str(exc), refusing(self.game, self.kit, self.state, action, exc.clause,
                                      out_of_turn=isinstance(exc, NotYourTurn))
        return "the rules accept it", ()  # pragma: no cover - it was not in the legal set

    # -- acting ------------------------------------------------------------------------------------------

    def step(self, chooser: Chooser) -> None:
        to_act = self.game.to_act(self.state)
        if chooser.probe() and self.try_probe(chooser):
            return
        seat = to_act[chooser.index(len(to_act))]
        legal = self.game.legal_actions(self.state, seat)
        action = legal[chooser.index(len(legal))]
        self.apply_legal(seat, action, self.game.action_to_json(action))

    def apply_given(self, seat: int, value: Any) -> None:
        """Apply one given action (JSON) on both sides, a counterexample's: the peer must accept it if the
        rules do, else refuse it and stay where it was."""
        action = self.game.action_from_json(value)
        try:
            self.game.apply(self.state, action)
        except RuleViolation as why:
            self.apply_illegal(seat, value, why)
            return
        self.apply_legal(seat, action, value)

    def apply_illegal(self, seat: int, value: Any, why: RuleViolation) -> None:
        """Send an action the rules refuse (``why``); the peer must refuse it too."""
        reply = self.ask(apply_request(seat, value), trigger=(seat, value))
        action = self.game.action_from_json(value)
        if not isinstance(reply, Refusal):
            raise self.diverge(
                "accepted-illegal",
                f"the peer accepts an illegal action of seat {seat} ({self.said(seat, value)}): {why}",
                trigger=(seat, value),
                clauses=refusing(self.game, self.kit, self.state, action, why.clause,
                                 out_of_turn=isinstance(why, NotYourTurn)),
                evidence=(Seen("apply", self.state, action, shown=True),),
            )
        self.agreed.append(Seen("apply", self.state, action, shown=False))

    def apply_legal(self, seat: int, action: Any, value: Any) -> None:
        """Apply a legal action on both sides; a refusal is a divergence (raised once the reference has
        applied it)."""
        reply = self.ask(apply_request(seat, value), trigger=(seat, value))
        refused = None
        if isinstance(reply, Refusal):
            # in effect the action is missing from the peer's legal set: the record claims the set without it
            offered = tuple(v for v in self.offered.get(seat, ()) if canonical(v) != canonical(value))
            alike, others = refused_alike(self, seat, action)
            turned = None if alike or others else turn_elsewhere(self, seat, action)
            guess, more = (None, ()) if alike or others or turned else unresolved(
                self, seat, action, refused=True)
            refused = self.diverge(
                "refused-legal",
                f"the peer refuses a legal action of seat {seat} ({self.said(seat, value)}): {reply.error}: "
                f"{reply.message}" + ("; and the seat's other legal actions too" if alike else "")
                + ("; and another of the seat's actions (all of one kind) too" if more else "")
                + (f"; it {'offers' if turned.seen.kind == 'legal' else 'accepts'} seat {turned.seat}'s "
                   f"{self.said(turned.seat, turned.value)} there, which the rules refuse" if turned else ""),
                trigger=(seat, value),
                clauses=alike or (turned.attribution if turned else guess or self.action_clauses(value)),
                legal=(seat, offered),
                evidence=tuple(Seen("apply", self.state, a, shown=False) for a in (action, *others, *more))
                + ((turned.seen,) if turned else ()),
            )
        self.advance(seat, action, value)
        if refused is not None:
            raise refused  # the reference has applied it: a campaign with positions goes on from there

    def advance(self, seat: int, action: Any, value: Any) -> None:
        """Apply ``action`` on the reference side."""
        before = self.state
        self.state = self.game.apply_unchecked(self.state, action)
        self.step_taken = (before, action, self.state)
        self.placed = False
        self.actions.append((seat, value))
        self.tally["steps"] += 1

    def try_probe(self, chooser: Chooser) -> bool:
        """Try an action seen earlier in the game that the rules refuse now; ``False`` if there is none."""
        candidates: list[tuple[Any, Any, RuleViolation]] = []
        for value in self.seen.values():
            action = self.game.action_from_json(value)
            try:
                self.game.apply(self.state, action)
            except RuleViolation as err:
                candidates.append((value, action, err))
        if not candidates:
            return False
        value, action, why = candidates[chooser.index(len(candidates))]
        seat = self.kit.action_player(action)
        if seat is None:  # a chance outcome is no seat's action to probe with
            return False
        self.probes += 1
        self.tally["probes"] += 1
        self.apply_illegal(seat, value, why)
        return True


def position_origin(game: Any, state: Any, action: tuple[int, Any] | None) -> Origin | None:
    """The :class:`Origin` of ``state`` (its notation and JSON state) and ``action``; ``None`` when the
    state has no notation."""
    try:
        notation = game.to_notation(state)
    except (InputError, RuleViolation, ValueError):  # pragma: no cover - every reachable state has one
        return None
    return Origin(notation, game.state_to_json(state), action)


def _short(value: Any, limit: int = 100) -> str:
    text = canonical(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _others(n: int, what: str) -> str:
    return f" (and {n} {what})" if n else ""


def play_game(
    setup: GameSetup,
    chooser: Chooser,
    transport: Transport,
    *,
    max_steps: int = 1000,
    peer_name: str = "",
    tally: dict[str, int] | None = None,
    found: list[Divergence] | None = None,
    actions: list[tuple[int, Any]] | None = None,
    evidence: list[Seen] | None = None,
) -> tuple[int, int]:
    """Play one game on the peer and the reference; returns ``(steps, probes)``; raises DivergenceFound.

    ``tally`` (when given) holds ``steps`` and ``probes`` however the game ends, so a game Hypothesis
    stops half-way still counts what it played; ``actions`` (when given) receives the actions applied;
    ``evidence`` (when given) every comparison where the peer agreed with the reference.

    With ``found`` (a list) and a peer declaring the ``position`` capability, a divergence does not end the
    game: it is appended to ``found``, the peer is put back on the reference's position and the game goes
    on, so every defect the game meets is seen.  The peer's own failures (crash, timeout, garbage) still
    end it."""
    g = Duel(setup, transport, peer_name)
    if tally is not None:
        g.tally = tally
    if actions is not None:
        g.actions = actions
    if evidence is not None:
        g.agreed = evidence
    hello = g.ask(hello_request())
    if not isinstance(hello, Hello):
        raise g.diverge("garbage", f"the peer refused 'hello': {refusal_text(hello)}")
    g.positions = "position" in hello.capabilities
    resync = found is not None and g.positions
    g.trials = resync
    reply = g.ask(new_request(setup.game, setup.variant, setup.players, setup.setup, setup.options))
    if isinstance(reply, Refusal):
        raise g.diverge("setup", f"the peer refuses the set-up: {reply.error}: {reply.message}")
    maker = setup_maker(setup.game)
    compared = False  # the current position was compared already (a divergence there, then a resync)
    while len(g.actions) < max_steps and maker.covers(setup, g.state):
        stage = "step" if compared else "compare"
        try:
            if stage == "compare" and g.compare():
                break
            stage, compared = "step", False
            if g.game.is_terminal(g.state):
                break
            g.step(chooser)
        except DivergenceFound as exc:
            kind = exc.divergence.kind
            if found is None or not resync or kind in FAILURE_KINDS:
                raise
            found.append(exc.divergence)
            if len(found) >= MAX_PER_GAME:
                break
            g.resync()
            compared = stage == "compare"
    return len(g.actions), g.probes


def refusal_text(reply: Any) -> str:
    """A refusal as ``error: message`` (else the reply's type), for a message."""
    return f"{reply.error}: {reply.message}" if isinstance(reply, Refusal) else type(reply).__name__
