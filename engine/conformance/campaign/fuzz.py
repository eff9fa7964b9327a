"""Differential fuzzing: play Hypothesis-generated games on a peer and on the reference, step by step.

For every generated game the harness starts a fresh peer, sends ``hello`` and ``new`` (an explicit set-up,
so both sides deal the same cards), then repeats:

1. **compare the positions** — ``state``: terminal status, the seats that must act, the scores, the
   winners once over, and every fact the peer claims (the record vocabulary of
   :mod:`engine.conformance.kits.base`); then ``legal`` for each seat that must act: the two sets of actions
   must be equal (order does not matter);
2. **choose an action** — a legal one (drawn by Hypothesis among the reference's legal actions of a seat
   that must act), or now and then an *illegal probe*: an action seen earlier in the game that the
   reference refuses now; the peer must refuse it too and stay where it was;
3. **apply it** on both sides.

The first difference stops the game and raises a divergence, which names the deciding clause first
(:mod:`engine.conformance.attribution`, the same function ``arbiter check`` uses) and has a stable
:attr:`~Divergence.signature`.  Hypothesis then shrinks the game (fewer players, the first variant, smaller
set-up draws, earlier choices, fewer steps), keeping only divergences of the same signature and no larger,
and the harness reports the minimal one as a game record that ``arbiter check`` replays: the actions both
sides applied, then the peer's side of the disagreement as the record can express it — the peer's claimed
facts on the last action line (``check`` reports the wrong claim), the action the peer wrongly accepts
(``check`` reports it illegal), or the seat's legal set as the peer gave it, as a ``legal`` claim (``check``
names every missing or extra action).  A disagreement the record cannot express (the peer crashes, hangs or
prints garbage) is written as the game up to that point plus the action that triggered it, with a
``comment`` saying what the peer did.  :mod:`engine.conformance.campaign.runner` plays on after divergences.

A peer that crashes, exceeds the per-message timeout or prints something that is not a valid reply is a
divergence of kind ``crash`` / ``timeout`` / ``garbage``: the harness kills it and carries on with a new
process for the next game.

This module is the run (:func:`fuzz`); the parts live beside it: :mod:`~engine.conformance.campaign.duel`
(one game on both sides), :mod:`~engine.conformance.campaign.divergence` (a divergence, its signature and
record), :mod:`~engine.conformance.campaign.setups` (generated set-ups) and
:mod:`~engine.conformance.peers.launch` (peer factories).

>>> from engine.conformance.peers.base import ReferencePeer
>>> report = fuzz(in_process(ReferencePeer), games=("take6",), examples=3, max_steps=40, seed=1)
>>> report.divergence is None, report.games
(True, 3)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from attrs import frozen
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from engine.conformance.campaign.divergence import (
    DIVERGENCE_KINDS,
    Divergence,
    DivergenceFound,
    same_class_and_not_larger,
)
from engine.conformance.campaign.draws import seed_only_draws
from engine.conformance.campaign.duel import Chooser, play_game, refusal_text
from engine.conformance.campaign.setups.base import GameSetup
from engine.conformance.campaign.setups.generated import player_counts, setups
from engine.conformance.peers.launch import (
    InProcessPeer,
    PeerFactory,
    SubprocessPeer,
    in_process,
    subprocess_peer,
)
from engine.conformance.peers.protocol import Hello, ProtocolError, Transport, hello_request
from engine.errors import InputError
from engine.game import get_game

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
# The run


def peer_hello(factory: PeerFactory) -> Hello:
    """Start the peer once and ask what it plays; a broken peer raises PeerFailure."""
    transport = factory()
    try:
        reply = transport.request(hello_request())
    finally:
        transport.close()
    if not isinstance(reply, Hello):
        raise ProtocolError("reply to 'hello'", f"refused: {refusal_text(reply)}")
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
            if not found or same_class_and_not_larger(exc.divergence, found):
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
        with seed_only_draws():
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
