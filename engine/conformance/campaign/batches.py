"""A campaign's unit of work: a batch of games played on the peer and the reference, each game's divergences
diagnosed where it was played.

Batch ``b`` is one Hypothesis run of :data:`BATCH` games seeded from ``(seed, b)``, so it plays the same games
wherever it runs (a worker process, a Ray task, the main process).  A game's divergences are diagnosed in the
job that played it (:mod:`engine.conformance.diagnosis`: the reference states stay there); a batch reports
the first divergence of each class key with the number of its kind.

>>> from engine.conformance.peers.launch import in_process
>>> from engine.conformance.peers.base import ReferencePeer
>>> spec = CampaignSpec(in_process(ReferencePeer), "ref", {"take6": ("standard",)}, {"take6/standard": (2,)},
...                     max_steps=20, seed=1)
>>> play_batch(spec, 0, 2).games
2
"""

from __future__ import annotations

import hashlib
import multiprocessing.util
import os
import random
import signal
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from types import FrameType
from typing import Any

from attrs import evolve, field, frozen
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from engine.conformance.campaign.divergence import Divergence, DivergenceFound
from engine.conformance.campaign.draws import seed_only_draws
from engine.conformance.campaign.duel import FAILURE_KINDS, Chooser, play_game
from engine.conformance.campaign.setups.generated import setups
from engine.conformance.diagnosis.evidence import Seen
from engine.conformance.diagnosis.faults import Fault
from engine.conformance.diagnosis.search import Diagnoser
from engine.conformance.peers.launch import PeerFactory
from engine.conformance.peers.protocol import Transport, canonical

__all__ = [
    "BATCH",
    "BatchResult",
    "CampaignSpec",
    "class_key",
    "close_kept_peers",
    "play_batch",
    "worker_init",
]

BATCH = 4
"""Games per batch: the unit of work sent to a job (and replayed to shrink a class)."""


@frozen
class CampaignSpec:
    """Everything a job needs to play a batch (picklable: it travels to worker processes and Ray tasks)."""

    peer: PeerFactory
    peer_name: str
    offered: Mapping[str, tuple[str, ...]]
    counts: Mapping[str, tuple[int, ...]]
    """``"game/variant"`` → player counts (see
    :func:`~engine.conformance.campaign.setups.generated.player_counts`)."""
    max_steps: int = 1000
    seed: int = 0
    reuse: bool = True
    positions: bool = False
    """The peer declares the ``position`` capability and the campaign uses it: a divergence does not end
    its game (the peer is put back on the reference's position) and classes shrink as positions."""
    diagnose: bool = True
    """Diagnose every divergence (:mod:`engine.conformance.diagnosis`): classes by diagnosis."""
    campaign: str = ""
    """The campaign's own id: what a process's diagnoser learns (the faults found so far) serves this
    campaign only, so a campaign's classes never depend on the campaigns run before it in a process."""

    def batch_seed(self, batch: int) -> int:
        """The Hypothesis seed of batch ``batch``: a function of the campaign seed and the index only."""
        return random.Random(f"arbiter-campaign:{self.seed}:{batch}").getrandbits(64)


@frozen
class BatchResult:
    """What one batch played and found: ``found`` holds ``(ordinal, divergence)`` in play order, the first
    of each signature."""

    batch: int
    games: int
    steps: int
    probes: int
    aborted: int
    found: tuple[tuple[int, Divergence], ...]
    cpu: float = 0.0
    """CPU seconds of the job (harness side; the peer's own processes not included)."""
    digest: str = ""
    """A digest of the games played (set-ups, actions, probes): equal digests, the same games."""
    counts: Mapping[str, int] = field(factory=dict)
    """Class key (:func:`class_key`) → divergences of the batch (``found`` keeps only the first of each key:
    with positions a game may record a hundred)."""


def _refuted_elsewhere(
    diagnoser: Diagnoser, games: Sequence[Sequence[Seen]], sets: Sequence[tuple[tuple[Fault, ...], ...]]
) -> set[tuple[Fault, ...]]:
    """The explaining sets, among those of several choices for one divergence (``sets``), that a step the
    peer agreed on in any of ``games`` refutes (a divergence's own game refuted them already: another
    game's steps may tell a card's price of 2 from one of 0 that its own never did)."""
    choices = {fs for found in sets if len(found) > 1 for fs in found}
    out: set[tuple[Fault, ...]] = set()
    for steps in games:  # one game's steps at a time: the diagnoser remembers answers per agreed list
        for fs in choices - out:
            if diagnoser.refuted(fs, steps):
                out.add(fs)
    return out


def _named(found: tuple[tuple[Fault, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """Explaining sets by the faults' signatures."""
    return tuple(tuple(f.signature for f in fs) for fs in found)


def _settings(examples: int, phases: Sequence[Phase]) -> Any:
    return settings(
        max_examples=examples,
        database=None,
        deadline=None,
        derandomize=False,
        phases=list(phases),
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        print_blob=False,
    )


class _Games:
    """One batch's games on a kept or fresh peer: the body of the Hypothesis test, with the counters."""

    def __init__(self, spec: CampaignSpec, count: int, batch: int = 0) -> None:
        self.spec = spec
        self.count = count
        self.batch = batch
        self.strategy = setups(spec.offered, None, spec.max_steps, spec.counts)
        # a peer that played properly serves the next batches of this process too (``new`` resets it)
        self.kept: list[Transport] = _KEPT.setdefault(spec.peer, []) if spec.reuse else []
        self.games = self.steps = self.probes = self.aborted = 0
        self.digest = hashlib.sha256()
        self.second: dict[int, tuple[str, Divergence, list[Seen], tuple[tuple[Fault, ...], ...]]] = {}
        """The diagnosed divergences of the batch, by the id of the one returned: their game, the divergence
        with its evidence, the game's agreed steps and what explained it (:meth:`rediagnosed`)."""

    def play(self, data: st.DataObject) -> list[Divergence]:
        """Play one game; its divergences (with positions every one, else at most the one ending it)."""
        setup = data.draw(self.strategy, label="set-up")
        chooser = Chooser(data.draw)
        transport = self.kept.pop() if self.kept else self.spec.peer()
        healthy, finished = True, False
        tally = {"steps": 0, "probes": 0}
        found: list[Divergence] = []
        actions: list[tuple[int, Any]] = []
        agreed: list[Seen] = []
        try:
            play_game(
                setup,
                chooser,
                transport,
                max_steps=self.spec.max_steps,
                peer_name=self.spec.peer_name,
                tally=tally,
                found=found if self.spec.positions else None,
                actions=actions,
                evidence=agreed,
            )
            finished = True
            return self.diagnosed(setup.game, found, agreed)
        except DivergenceFound as exc:
            finished = True
            healthy = exc.divergence.kind not in FAILURE_KINDS
            return self.diagnosed(setup.game, [*found, exc.divergence], agreed)
        finally:
            self.digest.update(canonical([setup.game, setup.variant, setup.players, setup.setup, actions,
                                          tally["probes"]]).encode())
            self.steps += tally["steps"]
            self.probes += tally["probes"]
            if finished:
                self.games += 1
            else:
                self.aborted += 1
            if self.spec.reuse and healthy:
                self.kept.append(transport)
            else:
                transport.close()

    def diagnosed(self, game: str, found: list[Divergence], agreed: list[Seen]) -> list[Divergence]:
        """``found`` with each divergence's diagnosis (its evidence dropped: it holds the game's states)."""
        out = []
        for div in found:
            if not (self.spec.diagnose and div.evidence):
                out.append(evolve(div, evidence=(), explanations=()))
                continue
            sets = diagnoser_for(game, self.spec.campaign, self.batch).diagnose(
                div.evidence, agreed, div.signature)
            out.append(evolve(div, evidence=(), explanations=_named(sets)))
            self.second[id(out[-1])] = (game, div, agreed, sets)
        return out

    def rediagnosed(self, found: list[tuple[int, Divergence]]) -> list[tuple[int, Divergence]]:
        """``found`` with a second look, at the batch's end, at each divergence diagnosed when its game
        ended, with every fault the batch's divergences found (two defects acting in one step, the second
        found later, in a later game or later in the same one): :meth:`~engine.conformance.diagnosis.search.
        Diagnoser.second_look`; then what is still unexplained against what explained the others of its
        game (:meth:`~engine.conformance.diagnosis.search.Diagnoser.among`); then, of several explanations,
        those another game's agreed steps refute dropped.  Its evidence is dropped then."""
        sets: dict[int, tuple[tuple[Fault, ...], ...]] = {}  # by position in found
        held: dict[int, tuple[str, Divergence, list[Seen], tuple[tuple[Fault, ...], ...]]] = {}
        for i, (_ordinal, div) in enumerate(found):
            h = self.second.pop(id(div), None)
            if h is not None:
                game, shown, agreed, first = held[i] = h
                sets[i] = diagnoser_for(game, self.spec.campaign, self.batch).second_look(
                    shown.evidence, agreed, first, div.signature)
        for game in dict.fromkeys(h[0] for h in held.values()):
            diagnoser = diagnoser_for(game, self.spec.campaign, self.batch)
            mine = [i for i, h in held.items() if h[0] == game]
            likeliest = [fs for fs, _n in Counter(fs for i in mine for fs in sets[i]).most_common()]
            for i in mine:  # what the search left unexplained, against what explained the others
                if not sets[i] and likeliest:
                    sets[i] = diagnoser.among(held[i][1].evidence, held[i][2], likeliest)
            games = list({id(held[i][2]): held[i][2] for i in mine}.values())
            refuted = _refuted_elsewhere(diagnoser, games, [sets[i] for i in mine])
            for i in mine:
                sets[i] = tuple(fs for fs in sets[i] if fs not in refuted) or sets[i]
        return [(ordinal, evolve(div, explanations=_named(sets[i])) if i in sets else div)
                for i, (ordinal, div) in enumerate(found)]

    def close(self) -> None:
        """Stop the peers unless they are kept for the next batch of this process."""
        if not self.spec.reuse:
            for transport in self.kept:
                transport.close()
            self.kept.clear()


_KEPT: dict[Any, list[Transport]] = {}
"""Peers kept between the batches one process plays (a worker process, or the main one), by factory."""

_DIAGNOSERS: dict[tuple[str, str], tuple[int, Diagnoser]] = {}
"""One diagnoser per game and campaign in each process, with the batch it last served (it keeps the worlds
it built; the faults found so far only within a batch); only the current campaign's are kept."""

new_diagnoser: Callable[[str], Diagnoser] = Diagnoser
"""Makes a campaign's diagnoser of a game (the diagnosis benchmark puts a timed one here)."""


def diagnoser_for(game: str, campaign: str, batch: int = 0) -> Diagnoser:
    """The diagnoser of ``game`` for ``campaign`` in this process: a fresh one for a new campaign (those of
    earlier campaigns are dropped); for another batch than the last it served, the same one with the faults
    found before forgotten (:meth:`~engine.conformance.diagnosis.search.Diagnoser.forget`), so what a batch
    finds does not depend on which process played it."""
    key = (game, campaign)
    held = _DIAGNOSERS.get(key)
    if held is None:
        for old in [k for k in _DIAGNOSERS if k[1] != campaign]:
            del _DIAGNOSERS[old]
        held = _DIAGNOSERS[key] = (batch, new_diagnoser(game))
    elif held[0] != batch:
        held[1].forget()
        held = _DIAGNOSERS[key] = (batch, held[1])
    return held[1]


def class_key(div: Divergence) -> str:
    """What makes two divergences of a batch one entry: their diagnosis (every explaining set) when they
    have one, else their signature."""
    if div.explanations:
        return " | ".join(sorted("+".join(fs) for fs in div.explanations))
    return div.signature


def close_kept_peers() -> None:
    """Stop every peer kept between batches (at the end of a campaign, and when a worker exits)."""
    for transports in _KEPT.values():
        for transport in transports:
            transport.close()
        transports.clear()
    _KEPT.clear()


def worker_init() -> None:
    """A worker process: Ctrl-C reaches only the parent, and kept peers are stopped at exit, also when the
    parent ends the worker in the middle of a batch (SIGTERM, after Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _ended)
    multiprocessing.util.Finalize(None, close_kept_peers, exitpriority=10)


def _ended(signum: int, frame: FrameType | None) -> None:
    """SIGTERM in a worker: stop its kept peers and exit at once (no batch is finished, nothing is sent)."""
    close_kept_peers()
    os._exit(128 + signum)


def play_batch(spec: CampaignSpec, batch: int, count: int, deadline: float | None = None) -> BatchResult:
    """Play batch ``batch`` (``count`` games; none started after the wall-clock ``deadline``)."""
    cpu = time.process_time()
    runner = _Games(spec, count, batch)
    found: list[tuple[int, Divergence]] = []

    def body(data: st.DataObject) -> None:
        if runner.games >= count or (deadline is not None and time.time() >= deadline):
            return
        ordinal = runner.games
        found.extend((ordinal, div) for div in runner.play(data))

    test = hypothesis_seed(spec.batch_seed(batch))(_settings(count, [Phase.generate])(given(st.data())(body)))
    try:
        with seed_only_draws():
            test()
    except HypothesisException:  # pragma: no cover - e.g. a search space exhausted early: keep what ran
        pass
    finally:
        runner.close()
    found = runner.rediagnosed(found)
    firsts: dict[str, tuple[int, Divergence]] = {}
    counts: dict[str, int] = {}
    for ordinal, div in found:
        key = class_key(div)
        firsts.setdefault(key, (ordinal, div))
        counts[key] = counts.get(key, 0) + 1
    return BatchResult(
        batch,
        runner.games,
        runner.steps,
        runner.probes,
        runner.aborted,
        tuple(firsts.values()),
        time.process_time() - cpu,
        runner.digest.hexdigest()[:16],
        counts,
    )


