"""Differential fuzzing: play Hypothesis-generated games on a peer and on the reference, step by step.

For every generated game the harness starts a fresh peer, sends ``hello`` and ``new`` (an explicit set-up,
so both sides deal the same cards), then repeats:

1. **compare the positions** — ``state``: terminal status, the seats that must act, the scores, the
   winners once over, and every fact the peer claims (the record vocabulary of
   :mod:`engine.conformance.kits`); then ``legal`` for each seat that must act: the two sets of actions
   must be equal (order does not matter);
2. **choose an action** — a legal one (drawn by Hypothesis among the reference's legal actions of a seat
   that must act), or now and then an *illegal probe*: an action seen earlier in the game that the
   reference refuses now; the peer must refuse it too and stay where it was;
3. **apply it** on both sides.

The first difference stops the game and raises a divergence, which names the deciding clause first
(:mod:`engine.conformance.deciding`, the same function ``arbiter check`` uses) and has a stable
:attr:`~Divergence.signature`.  Hypothesis then shrinks the game (fewer players, the first variant, smaller
set-up draws, earlier choices, fewer steps), keeping only divergences of the same signature and no larger,
and the harness reports the minimal one as a game record that ``arbiter check`` replays: the actions both
sides applied, then the peer's side of the disagreement as the record can express it — the peer's claimed
facts on the last action line (``check`` reports the wrong claim), the action the peer wrongly accepts
(``check`` reports it illegal), or the seat's legal set as the peer gave it, as a ``legal`` claim (``check``
names every missing or extra action).  A disagreement the record cannot express (the peer crashes, hangs or
prints garbage) is written as the game up to that point plus the action that triggered it, with a
``comment`` saying what the peer did.  :mod:`engine.conformance.campaign` plays on after divergences.

A peer that crashes, exceeds the per-message timeout or prints something that is not a valid reply is a
divergence of kind ``crash`` / ``timeout`` / ``garbage``: the harness kills it and carries on with a new
process for the next game.

>>> from engine.conformance.peers.base import ReferencePeer
>>> report = fuzz(in_process(ReferencePeer), games=("take6",), examples=3, max_steps=40, seed=1)
>>> report.divergence is None, report.games
(True, 3)
"""

from __future__ import annotations

import re
import shlex
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from attrs import evolve, field, frozen
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from engine.conformance.deciding import Attribution, action_clauses, attribute
from engine.conformance.protocol import (
    Hello,
    InProcessTransport,
    LegalReport,
    PeerFailure,
    ProtocolError,
    Refusal,
    StateReport,
    SubprocessTransport,
    Transport,
    apply_request,
    canonical,
    hello_request,
    legal_request,
    new_request,
    state_request,
)
from engine.conformance.records import ActionLine, Header, Record, ResultLine
from engine.errors import InputError, RuleViolation
from engine.game import Game, get_game
from engine.jsonio import show

__all__ = [
    "DIVERGENCE_KINDS",
    "Divergence",
    "FuzzReport",
    "GameSetup",
    "InProcessPeer",
    "PeerFactory",
    "SubprocessPeer",
    "fuzz",
    "in_process",
    "offered_games",
    "play_game",
    "player_counts",
    "subprocess_peer",
]

PeerFactory = Callable[[], Transport]
"""Starts a fresh peer (one per game)."""

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

PROBE_ONE_IN = 8
"""About one step in this many tries an illegal probe (when the game offers one)."""


@frozen
class GameSetup:
    """What a generated game starts from: game, variant, player count, options and explicit set-up (JSON)."""

    game: str
    variant: str
    players: int
    setup: Any = field(eq=False)
    options: Mapping[str, Any] = field(factory=dict, eq=False)


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
    subject: str = ""
    """The card or effect the deciding step of the reference derivation names (``55``), if any."""

    @property
    def steps(self) -> int:
        """Actions applied before the divergence."""
        return len(self.actions)

    @property
    def detail(self) -> str:
        """What the divergence is about: the claimed fact, the type of the action involved, or for a peer's
        own failure the request it failed on (``-`` for none)."""
        if self.kind == "claim" and self.peer_claims:
            return next(iter(self.peer_claims))
        if self.kind in ("crash", "timeout", "garbage"):
            found = _REQUEST_IN_TEXT.search(self.message)
            return found.group(1) if found else "-"
        if self.trigger is not None and self.kind not in ("crash", "timeout", "garbage"):
            kind = self.trigger[1].get("type") if isinstance(self.trigger[1], dict) else None
            return str(kind) if kind else "-"
        return "-"

    @property
    def signature(self) -> str:
        """The stable class of the divergence: ``game:kind:deciding clause:detail`` (``-`` for none).

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
                        setup=s.setup, source=source, claims=header_claims,
                        comment=comment if not lines else None)
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
        if self.trigger is not None:
            lines.append(f"  action: seat {self.trigger[0]} {canonical(self.trigger[1])}")
        return lines


def _same_class_and_not_larger(div: Divergence, found: Sequence[Divergence]) -> bool:
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


@frozen
class FuzzReport:
    """What a fuzzing run did and found (``divergence`` is the shrunk one, ``None`` when none)."""

    peer: str
    games: int
    steps: int
    probes: int
    seconds: float
    divergence: Divergence | None = None
    first: Divergence | None = None
    """The divergence as first found, before shrinking."""
    shrunk: bool = False
    skipped: tuple[str, ...] = ()
    """Games requested but not offered by the peer."""
    aborted: int = 0
    """Games Hypothesis stopped half-way (their actions and probes are counted in ``steps``/``probes``)."""


# --------------------------------------------------------------------------------------------------------
# Peers


@frozen
class SubprocessPeer:
    """Starts ``command`` as a child process (a picklable factory: campaigns send it to worker processes)."""

    command: str | tuple[str, ...]
    timeout: float = 5.0
    cwd: str | None = None

    def __call__(self) -> Transport:
        return SubprocessTransport(self.command, timeout=self.timeout, cwd=self.cwd)


@frozen
class InProcessPeer:
    """Makes a peer object living in this process (anything with ``handle_line(str) -> str``); picklable
    when ``make`` is a module-level class or function."""

    make: Callable[[], Any]

    def __call__(self) -> Transport:
        return InProcessTransport(self.make().handle_line)


def subprocess_peer(
    command: str | Sequence[str], *, timeout: float = 5.0, cwd: str | None = None
) -> PeerFactory:
    """A factory starting ``command`` as a child process for every game.  A command that cannot be split
    (an unclosed quote) is refused at once (InputError naming ``--peer``)."""
    if isinstance(command, str):
        try:
            if not shlex.split(command):
                raise InputError("--peer", "empty command")
        except ValueError as exc:
            raise InputError("--peer", f"cannot split {show(command)} like a shell would: {exc}") from None
        return SubprocessPeer(command, timeout, cwd)
    return SubprocessPeer(tuple(command), timeout, cwd)


def in_process(make_peer: Callable[[], Any]) -> PeerFactory:
    """A factory for a peer object living in this process (anything with ``handle_line(str) -> str``)."""
    return InProcessPeer(make_peer)


# --------------------------------------------------------------------------------------------------------
# Set-ups


def seeded_setup(game: Game, kit: Any, setup: GameSetup, seed: int) -> Any:
    """The explicit set-up (JSON) the reference engine deals from ``seed``, read off the first state.

    This suits a game whose chance events are all decided when it starts (Saint Petersburg's stack
    orders and markers); a game that deals again later registers its own :class:`SetupMaker`.
    """
    state = game.new_game(setup.players, seed=seed, variant=setup.variant, options=dict(setup.options))
    return kit.setup_to_json(kit.explicit_setup([state]))


class SetupMaker:
    """How set-ups of one game are generated: the generic maker draws a seed and lets the reference deal
    (:func:`seeded_setup`); a game may register a finer one whose draws shrink card by card."""

    def draw(self, draw: st.DrawFn, game: Game, kit: Any, setup: GameSetup, max_steps: int) -> Any:
        """The explicit set-up (JSON) of one generated game."""
        return seeded_setup(game, kit, setup, draw(st.integers(0, 2**32 - 1)))

    def covers(self, setup: GameSetup, state: Any) -> bool:
        """Whether the set-up still decides every chance event up to ``state`` (else the game stops)."""
        return True


class Take6Setups(SetupMaker):
    """6 nimmt!: one deal per round, each a permutation of the variant's deck cut into hands then row
    starters (so shrinking moves toward hands 1..10, 11..20, ...); logic rounds draw the first drafter.

    The number of rounds is drawn too (shrinking toward one); the game stops when it would need a round
    the set-up does not deal, since the reference would then fall back to its seeded deal.
    """

    MAX_ROUNDS = 12

    def draw(self, draw: st.DrawFn, game: Game, kit: Any, setup: GameSetup, max_steps: int) -> Any:
        from engine.take6.rules import rules_for

        rules = rules_for(setup.variant, setup.players, dict(setup.options))
        n, h = setup.players, rules.hand_size
        most = max(1, min(self.MAX_ROUNDS, max_steps // max(1, n * h) + 1))
        rounds = draw(st.integers(1, most))
        out: list[dict[str, Any]] = []
        for _ in range(rounds):
            if rules.deal == "draft":
                out.append({"type": "draft_start", "player": draw(st.integers(0, n - 1))})
                continue
            order = draw(st.permutations(rules.deck))[: rules.cards_dealt]
            out.append({"type": "deal", "hands": [list(order[p * h : (p + 1) * h]) for p in range(n)],
                        "rows": list(order[n * h :])})
        return out

    def covers(self, setup: GameSetup, state: Any) -> bool:
        return int(state.round) <= len(setup.setup)


SETUP_MAKERS: dict[str, SetupMaker] = {"take6": Take6Setups()}
"""Game name → its set-up maker.  Others use the generic seeded :class:`SetupMaker`: for Saint Petersburg a
drawn seed shrank better (7 actions) than drawing each stack as a permutation (18 actions)."""


def player_counts(
    offered: Mapping[str, Sequence[str]], players: Sequence[int] | None = None,
    ranges: Mapping[tuple[str, str], tuple[int, int]] | None = None,
) -> dict[str, tuple[int, ...]]:
    """``"game/variant"`` → the player counts to generate: the game's range, narrowed to the range the
    peer's ``hello`` gives for that variant (if any) and to ``players`` (if given).  A variant left with
    no count is dropped; none left at all is an InputError naming ``--players``."""
    out: dict[str, tuple[int, ...]] = {}
    for name, variants in offered.items():
        game = get_game(name)
        for variant in variants:
            lo, hi = (ranges or {}).get((name, variant), (game.min_players, game.max_players))
            counts = tuple(n for n in range(max(lo, game.min_players), min(hi, game.max_players) + 1)
                           if not players or n in players)
            if counts:
                out[f"{name}/{variant}"] = counts
    if not out:
        raise InputError("--players", f"no player count left to generate (asked {list(players or [])}; "
                         "the peer's and the games' ranges exclude them)")
    return out


def setups(
    offered: Mapping[str, Sequence[str]], players: Sequence[int] | None = None, max_steps: int = 1000,
    counts: Mapping[str, Sequence[int]] | None = None,
) -> st.SearchStrategy[GameSetup]:
    """Game set-ups for the games/variants ``offered`` (shrinking: first game, first variant, fewest
    players, then the maker's own draws); ``counts`` (see :func:`player_counts`) gives each variant's
    player counts."""
    from engine.conformance.kits import get_kit

    table = dict(counts) if counts is not None else player_counts(offered, players)
    playable = {g: [v for v in vs if f"{g}/{v}" in table] for g, vs in offered.items()}
    playable = {g: vs for g, vs in playable.items() if vs}

    @st.composite
    def draw(data: st.DrawFn) -> GameSetup:
        name = data(st.sampled_from(sorted(playable)))
        game = get_game(name)
        variant = data(st.sampled_from(playable[name]))
        n = data(st.sampled_from(list(table[f"{name}/{variant}"])))
        base = GameSetup(name, variant, n, None)
        maker = SETUP_MAKERS.get(name, SetupMaker())
        return evolve(base, setup=maker.draw(data, game, get_kit(name), base, max_steps))

    return draw()


# --------------------------------------------------------------------------------------------------------
# One game


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


class _Game:
    """The state of one game on both sides."""

    def __init__(self, setup: GameSetup, transport: Transport, peer_name: str) -> None:
        from engine.conformance.kits import get_kit

        self.setup = setup
        self.game = get_game(setup.game)
        self.kit = get_kit(setup.game)
        self.transport = transport
        self.peer_name = peer_name
        self.state = self.game.new_game(setup.players, variant=setup.variant, options=dict(setup.options),
                                        setup=self.kit.setup_from_json(setup.setup))
        self.actions: list[tuple[int, Any]] = []
        self.seen: dict[str, Any] = {}
        self.probes = 0
        self.step_taken: tuple[Any, Any, Any] | None = None
        """``(before, action, after)`` of the last action applied, for naming the deciding clause."""
        self.offered: dict[int, tuple[Any, ...]] = {}
        """The peer's last legal set per seat."""
        self.peer_view: dict[str, Any] = {}
        """Every fact the peer reported in its last ``state`` reply (for attribution)."""
        self.peer_facts: dict[str, Any] = {}
        """The facts the peer claimed in its last ``state`` reply (a divergence's record carries them)."""
        self.tally: dict[str, int] = {"steps": 0, "probes": 0}

    def diverge(self, kind: str, message: str, *, trigger: tuple[int, Any] | None = None,
                claims: Mapping[str, Any] | None = None, clauses: Sequence[str] | Attribution = (),
                result: tuple[tuple[int, ...], tuple[int, ...]] | None = None,
                legal: tuple[int, tuple[Any, ...]] | None = None) -> DivergenceFound:
        subject = clauses.subject if isinstance(clauses, Attribution) else ""
        if claims is not None:  # the record carries every fact the peer claimed, the divergent one first
            claims = {**claims, **{k: v for k, v in self.peer_facts.items() if k not in claims}}
        named = clauses.clauses if isinstance(clauses, Attribution) else tuple(clauses)
        div = Divergence(kind, message, self.setup, tuple(self.actions), trigger, claims, named,
                         self.peer_name, result, peer_legal=legal, probes=self.probes, subject=subject)
        return _FOUND[kind](div)

    def fact_clauses(self, fact: str, claimed: Any = None) -> Attribution:
        """The clauses behind a divergent fact in the current position (as ``arbiter check`` names them),
        attributed with every fact the peer reported there (:mod:`engine.conformance.deciding`)."""
        return attribute(self.game, self.kit, fact, self.step_taken, self.setup.variant, claimed=claimed,
                         claims=self.peer_view)

    def action_clauses(self, value: Any, violated: str | None = None) -> tuple[str, ...]:
        """The clauses behind a divergence on one action (JSON form)."""
        try:
            action = self.game.action_from_json(value)
        except (InputError, RuleViolation):
            return (violated,) if violated else ()
        return action_clauses(self.game, self.kit, action, self.setup.variant, violated=violated,
                              state=self.state)

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
        game, state = self.game, self.state
        facts = self.kit.facts(state)
        claims = self.peer_claims(reply)
        self.peer_facts = claims
        self.peer_view = {**claims, "scores": list(reply.scores), "to_act": sorted(reply.to_act),
                          "over": reply.terminal}
        terminal = game.is_terminal(state)
        to_act = tuple(game.to_act(state))
        scores = tuple(facts["scores"]) if "scores" in facts else reply.scores
        if reply.terminal != terminal:
            say = "over" if reply.terminal else "not over"
            rules = "over" if terminal else f"not over (seats {list(to_act)} must act)"
            raise self.diverge("terminal", f"the peer says the game is {say}; the rules say it is {rules}",
                               claims={"over": reply.terminal} if "over" in self.kit.fact_names else None,
                               clauses=self.fact_clauses("over", reply.terminal))
        if tuple(sorted(reply.to_act)) != tuple(sorted(to_act)):
            raise self.diverge("to_act", f"the peer says seats {list(reply.to_act)} must act; "
                               f"the rules say {list(to_act)}", claims={"to_act": list(reply.to_act)},
                               clauses=self.fact_clauses("to_act", list(reply.to_act)))
        if reply.scores != scores:
            raise self.diverge("scores", f"the peer's scores are {list(reply.scores)}; the rules say "
                               f"{list(scores)}", claims={"scores": list(reply.scores)},
                               clauses=self.fact_clauses("scores", list(reply.scores)))
        if terminal:
            winners = tuple(sorted(game.result(state).winners))
            assert reply.winners is not None
            if tuple(sorted(reply.winners)) != winners:
                raise self.diverge("winners", f"the peer's winners are {sorted(reply.winners)}; "
                                   f"the rules say {list(winners)}", result=(reply.scores, reply.winners),
                                   clauses=self.fact_clauses("winners", list(reply.winners)))
        for name, value in claims.items():
            if value != facts.get(name):
                raise self.diverge("claim", f"the peer claims {name} = {_short(value)}; the rules say "
                                   f"{_short(facts.get(name))}", claims={name: value},
                                   clauses=self.fact_clauses(name, value))
        if terminal:
            return True
        for seat in to_act:
            self.compare_legal(seat)
        return False

    def peer_claims(self, reply: StateReport) -> dict[str, Any]:
        from engine.conformance.records import check_claims

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
                raise self.diverge("garbage",
                                   f"reply to 'state': claims.{name}: unknown fact (known: {known})")
            try:
                out[name] = self.kit.normalise(name, value)
            except InputError as exc:
                raise self.diverge("garbage", f"reply to 'state': claims.{name}: {exc.message}") from None
        return out

    def compare_legal(self, seat: int) -> None:
        reply = self.ask(legal_request(seat))
        if isinstance(reply, Refusal):
            raise self.diverge("garbage", f"the peer refused 'legal' for seat {seat}: {reply.message}")
        assert isinstance(reply, LegalReport)
        ours = {canonical(self.game.action_to_json(a)): self.game.action_to_json(a)
                for a in self.game.legal_actions(self.state, seat)}
        self.seen.update(ours)
        theirs = dict(zip(reply.actions, reply.values, strict=True))
        self.offered[seat] = tuple(reply.values)
        extra = [t for t in reply.actions if t not in ours]
        missing = [t for t in ours if t not in theirs]
        legal = (seat, tuple(reply.values))
        if extra:
            value = theirs[extra[0]]
            why, clauses = self.why_illegal(seat, value)
            raise self.diverge(
                "legal-extra", f"the peer offers seat {seat} {extra[0]}, which the rules refuse ({why})"
                + _others(len(extra) - 1, "more extra"), trigger=(seat, value), clauses=clauses,
                legal=legal if clauses else None)
        if missing:
            value = ours[missing[0]]
            raise self.diverge(
                "legal-missing", f"the peer does not offer seat {seat} {missing[0]}, which the rules allow"
                + _others(len(missing) - 1, "more missing"), trigger=(seat, value),
                clauses=self.action_clauses(value), legal=legal)

    def why_illegal(self, seat: int, value: Any) -> tuple[str, tuple[str, ...]]:
        try:
            action = self.game.action_from_json(value)
        except InputError as exc:
            return f"not an action of this game: {exc}", ()
        try:
            self.game.apply(self.state, action)
        except RuleViolation as exc:
            return str(exc), (exc.clause,)
        return "the rules accept it", ()  # pragma: no cover - it was not in the legal set

    # -- acting ------------------------------------------------------------------------------------------

    def step(self, chooser: Chooser) -> None:
        to_act = self.game.to_act(self.state)
        if chooser.probe() and self.try_probe(chooser):
            return
        seat = to_act[chooser.index(len(to_act))]
        legal = self.game.legal_actions(self.state, seat)
        action = legal[chooser.index(len(legal))]
        value = self.game.action_to_json(action)
        reply = self.ask(apply_request(seat, value), trigger=(seat, value))
        if isinstance(reply, Refusal):
            # in effect the action is missing from the peer's legal set: the record claims the set without it
            offered = tuple(v for v in self.offered.get(seat, ()) if canonical(v) != canonical(value))
            raise self.diverge("refused-legal", f"the peer refuses a legal action of seat {seat}: "
                               f"{reply.error}: {reply.message}", trigger=(seat, value),
                               clauses=self.action_clauses(value), legal=(seat, offered))
        before = self.state
        self.state = self.game.apply_unchecked(self.state, action)
        self.step_taken = (before, action, self.state)
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
        reply = self.ask(apply_request(seat, value), trigger=(seat, value))
        if not isinstance(reply, Refusal):
            raise self.diverge("accepted-illegal", f"the peer accepts an illegal action of seat {seat}: "
                               f"{why}", trigger=(seat, value),
                               clauses=self.action_clauses(value, why.clause))
        return True


def _short(value: Any, limit: int = 100) -> str:
    text = canonical(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _others(n: int, what: str) -> str:
    return f" (and {n} {what})" if n else ""


def play_game(setup: GameSetup, chooser: Chooser, transport: Transport, *, max_steps: int = 1000,
              peer_name: str = "", tally: dict[str, int] | None = None) -> tuple[int, int]:
    """Play one game on the peer and the reference; returns ``(steps, probes)``; raises DivergenceFound.

    ``tally`` (when given) holds ``steps`` and ``probes`` however the game ends, so a game Hypothesis
    stops half-way still counts what it played."""
    g = _Game(setup, transport, peer_name)
    if tally is not None:
        g.tally = tally
    hello = g.ask(hello_request())
    if not isinstance(hello, Hello):
        raise g.diverge("garbage", f"the peer refused 'hello': {_refusal(hello)}")
    reply = g.ask(new_request(setup.game, setup.variant, setup.players, setup.setup, setup.options))
    if isinstance(reply, Refusal):
        raise g.diverge("setup", f"the peer refuses the set-up: {reply.error}: {reply.message}")
    maker = SETUP_MAKERS.get(setup.game, SetupMaker())
    while len(g.actions) < max_steps and maker.covers(setup, g.state):
        if g.compare():
            break
        g.step(chooser)
    return len(g.actions), g.probes


def _refusal(reply: Any) -> str:
    return f"{reply.error}: {reply.message}" if isinstance(reply, Refusal) else type(reply).__name__


# --------------------------------------------------------------------------------------------------------
# The run


def peer_hello(factory: PeerFactory) -> Hello:
    """Start the peer once and ask what it plays; a broken peer raises PeerFailure."""
    transport = factory()
    try:
        reply = transport.request(hello_request())
    finally:
        transport.close()
    if not isinstance(reply, Hello):
        raise ProtocolError("reply to 'hello'", f"refused: {_refusal(reply)}")
    return reply


def fuzz(
    factory: PeerFactory,
    *,
    games: Sequence[str] | None = None,
    variants: Sequence[str] | None = None,
    players: Sequence[int] | None = None,
    examples: int = 100,
    max_steps: int = 1000,
    seed: int | None = None,
    shrink: bool = True,
    reuse: bool = False,
    progress: Callable[[str], None] | None = None,
) -> FuzzReport:
    """Fuzz the peer that ``factory`` starts; returns a report with the shrunk divergence, if any.

    ``games`` / ``variants`` / ``players`` restrict what is generated (default: everything the peer offers
    in its ``hello``); ``examples`` is the number of games generated before shrinking; ``max_steps`` caps a
    game's length; ``seed`` makes the run reproducible.  A peer that fails ``hello`` raises PeerFailure.

    Every game gets a fresh peer process, unless ``reuse``: then a peer that answered a whole game properly
    plays the next one too (``new`` must reset it completely), and only a failed one is restarted.
    """
    started = time.perf_counter()
    hello = peer_hello(factory)
    offered, skipped = offered_games(hello, games, variants)
    if not offered:
        raise InputError("--game", f"the peer offers no game to fuzz (it offers {dict(hello.games)})")
    counters = {"games": 0, "steps": 0, "probes": 0, "aborted": 0}
    found: list[Divergence] = []
    strategy = setups(offered, players, max_steps, player_counts(offered, players, hello.players))

    kept: list[Transport] = []

    def run_one(data: st.DataObject) -> None:
        setup = data.draw(strategy, label="set-up")
        chooser = Chooser(data.draw)
        transport = kept.pop() if kept else factory()
        healthy = True  # Hypothesis may stop an example between two requests: the peer is still in step
        tally = {"steps": 0, "probes": 0}
        finished = False
        try:
            play_game(setup, chooser, transport, max_steps=max_steps, peer_name=hello.name, tally=tally)
            finished = True
        except DivergenceFound as exc:
            finished = True
            healthy = exc.divergence.kind not in ("crash", "timeout", "garbage")
            if not found and progress is not None:
                what = "; shrinking ..." if shrink else ""
                progress(f"found: {exc.divergence.kind} after {exc.divergence.steps} actions{what}")
            if not found or _same_class_and_not_larger(exc.divergence, found):
                found.append(exc.divergence)
                raise
            # another class, or larger: not a step of this shrink, so Hypothesis sees a passing example
        finally:
            counters["steps"] += tally["steps"]
            counters["probes"] += tally["probes"]
            counters["games" if finished else "aborted"] += 1
            if reuse and healthy:
                kept.append(transport)
            else:
                transport.close()

    phases = [Phase.explicit, Phase.generate] + ([Phase.shrink] if shrink else [])
    test = settings(
        max_examples=examples,
        database=None,
        deadline=None,
        derandomize=False,
        phases=phases,
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        print_blob=False,
    )(given(st.data())(run_one))
    if seed is not None:
        test = hypothesis_seed(seed)(test)
    final: Divergence | None = None
    try:
        test()
    except (DivergenceFound, HypothesisException, ExceptionGroup):
        # Shrinking keeps only divergences of the first one's kind that are no larger: the smallest of them
        # is the answer, whatever Hypothesis ends on (a peer failing at random may not reproduce).
        if not found:
            raise
        final = min(found, key=lambda d: d.size)
    finally:
        for transport in kept:
            transport.close()
    return FuzzReport(
        peer=hello.name,
        games=counters["games"],
        steps=counters["steps"],
        probes=counters["probes"],
        aborted=counters["aborted"],
        seconds=time.perf_counter() - started,
        divergence=final,
        first=found[0] if found else None,
        shrunk=shrink and final is not None and final is not found[0],
        skipped=tuple(skipped),
    )


def offered_games(hello: Hello, games: Sequence[str] | None,
             variants: Sequence[str] | None) -> tuple[dict[str, tuple[str, ...]], list[str]]:
    """The games and variants to fuzz: those requested (default: all we know) that the peer offers,
    and the games skipped; an unknown game or variant is an InputError."""
    from engine.game import game_names

    known = game_names()
    wanted = list(games) if games else [g for g in known if g in hello.games]
    skipped: list[str] = []
    offered: dict[str, tuple[str, ...]] = {}
    for name in wanted:
        if name not in known:
            raise InputError("--game", f"unknown game {name!r} (known: {', '.join(known)})")
        if name not in hello.games:
            skipped.append(name)
            continue
        ours = get_game(name).variants
        theirs = [v for v in hello.games[name] if v in ours]
        if variants:
            bad = [v for v in variants if not any(v in get_game(g).variants for g in wanted)]
            if bad:
                raise InputError("--variant", f"unknown variant {bad[0]!r}")
            theirs = [v for v in theirs if v in variants]
        if theirs:
            offered[name] = tuple(theirs)
        else:
            skipped.append(name)
    return offered, skipped
