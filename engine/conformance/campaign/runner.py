"""Conformance campaigns: every divergence of a peer in one run, on all cores or on a Ray cluster.

A campaign plays generated games (the differential games of :mod:`engine.conformance.campaign.fuzz`) until a
number of games or a time budget is spent.  A divergence ends its game, is recorded, and the campaign goes on.
Divergences are grouped into **classes** by their signature (``game:kind:deciding clause:detail``, see
:attr:`~engine.conformance.campaign.divergence.Divergence.signature`); each class is shrunk once, within a
time box, and reported with its count, its first occurrence and its shrunk record.

Work is cut into **batches** of :data:`BATCH` games.  Batch ``b`` is one Hypothesis run seeded from
``(seed, b)``, so it plays the same games wherever it runs: the set of games played and the classes found
depend on ``--seed`` and ``--games`` only, never on the number of jobs.  Batches run in worker processes
(``jobs``), or as Ray tasks (``ray``); shrinking a class replays the batch of its first occurrence with
Hypothesis's shrinker on, in parallel with the other classes.

**Waivers** set known, accepted differences aside: a TOML file of signatures (shell-style patterns) with
a reason each.  A waived divergence still ends its game and is counted, but it is reported as waived, is not
shrunk, and does not make the exit code 1::

    [[waiver]]
    signature = "petersburg:legal-extra:SP-PUB-2:pub"
    reason = "our Pub asks even when 0 VP is the only choice"

>>> from engine.conformance.campaign.fuzz import in_process
>>> from engine.conformance.peers.base import ReferencePeer
>>> report = run_campaign(in_process(ReferencePeer), games=4, jobs=1, seed=1, game_names=("take6",),
...                       max_steps=30)
>>> report.games, report.classes
(4, ())
"""

from __future__ import annotations

import hashlib
import math
import random
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from engine.cliargs import available_cores, cap_jobs
from engine.conformance.campaign.batches import (
    BATCH,
    BatchResult,
    CampaignSpec,
    close_kept_peers,
    play_batch,
)
from engine.conformance.campaign.executors import Executor, Inline, Pool, Ray
from engine.conformance.campaign.fuzz import offered_games, peer_hello
from engine.conformance.campaign.grouping import CampaignProgress, Waiver, group, load_waivers
from engine.conformance.campaign.report import CampaignReport, DivergenceClass
from engine.conformance.campaign.setups.generated import player_counts
from engine.conformance.campaign.shrinking import shrink_all, shrink_class
from engine.conformance.peers.launch import PeerFactory
from engine.errors import InputError

__all__ = [
    "BATCH",
    "BatchResult",
    "CampaignProgress",
    "CampaignReport",
    "CampaignSpec",
    "DivergenceClass",
    "Waiver",
    "load_waivers",
    "play_batch",
    "run_campaign",
    "shrink_class",
]


def _batches(games: int | None, seconds: float | None) -> Iterator[tuple[int, int]]:
    """``(batch, count)``: ``games`` cut into batches of :data:`BATCH`, or batches without end (a time
    budget stops them)."""
    if games is not None:
        for b in range(math.ceil(games / BATCH)):
            yield b, min(BATCH, games - b * BATCH)
        return
    b = 0
    while True:
        yield b, BATCH
        b += 1


def run_campaign(
    factory: PeerFactory,
    *,
    games: int | None = None,
    seconds: float | None = None,
    jobs: int | None = None,
    ray: str | bool | None = None,
    seed: int | None = None,
    waivers: Sequence[Waiver] = (),
    game_names: Sequence[str] | None = None,
    variants: Sequence[str] | None = None,
    players: Sequence[int] | None = None,
    max_steps: int = 1000,
    reuse: bool = True,
    shrink: bool = True,
    shrink_seconds: float = 60.0,
    progress: Callable[[CampaignProgress], None] | None = None,
    positions: bool = True,
    diagnose: bool = True,
) -> CampaignReport:
    """Run a campaign: ``games`` games, or as many as ``seconds`` allow, on ``jobs`` worker processes
    (default: every core) or on Ray (``ray``: an address, or ``True`` for the local/default cluster).

    Ctrl-C stops it: what finished batches found is reported (``interrupted``), unshrunk.  ``progress`` is
    called after every batch.  A peer that fails ``hello`` raises PeerFailure.

    With ``positions`` (the default) and a peer declaring the ``position`` capability, a divergence does not
    end its game: the peer is put back on the reference's position and the game goes on, and each class
    shrinks to one position and one action (exported as a test vector).

    With ``diagnose`` (the default) every divergence is diagnosed where its game was played
    (:mod:`engine.conformance.diagnosis`): the classes are the diagnoses, each with its counterexample;
    without, classes are by signature as before.
    """
    if (games is None) == (seconds is None):
        raise InputError("--games", "give exactly one of --games N and --time SECONDS")
    started, cpu_started = time.monotonic(), time.process_time()
    hello = peer_hello(factory)
    offered, skipped = offered_games(hello, game_names, variants)
    if not offered:
        raise InputError("--game", f"the peer offers no game to fuzz (it offers {dict(hello.games)})")
    base_seed = seed if seed is not None else random.SystemRandom().getrandbits(32)
    spec = CampaignSpec(
        factory,
        hello.name,
        offered,
        player_counts(offered, players, hello.players),
        max_steps,
        base_seed,
        reuse,
        positions and "position" in hello.capabilities,
        diagnose,
        uuid.uuid4().hex,
    )
    n_jobs = cap_jobs(jobs, math.ceil(games / BATCH) if games is not None else available_cores())
    executor: Executor
    if ray is not None and ray is not False:
        ray_executor = Ray(ray if isinstance(ray, str) else None)
        executor, kind, n_jobs = ray_executor, "ray", ray_executor.cpus()
    elif n_jobs > 1:
        executor, kind = Pool(n_jobs), "processes"
    else:
        executor, kind = Inline(), "inline"
    deadline = time.time() + seconds if seconds is not None else None
    results: dict[int, BatchResult] = {}
    counts: dict[int, int] = {}
    tracker = CampaignProgress(games, seconds, started)
    interrupted = False
    work = _batches(games, seconds)
    pending: dict[Any, int] = {}
    in_flight = n_jobs * 2 if kind != "inline" else 1
    try:
        try:
            exhausted = False
            while True:
                while not exhausted and len(pending) < in_flight and _in_time(deadline):
                    try:
                        b, count = next(work)
                    except StopIteration:
                        exhausted = True
                        break
                    counts[b] = count
                    pending[executor.submit(play_batch, spec, b, count, deadline)] = b
                if not pending:
                    break
                done, _rest = executor.wait(set(pending))
                for future in done:
                    result: BatchResult = executor.result(future)
                    results[pending.pop(future)] = result
                    tracker.add(result, waivers)
                    if progress is not None:
                        progress(tracker)
        except KeyboardInterrupt:
            interrupted = True
            executor.stop()
        play_seconds = time.monotonic() - started
        classes = group(results, waivers)
        if shrink and not interrupted:
            try:
                classes = shrink_all(executor, spec, counts, classes, seconds=shrink_seconds, tracker=tracker,
                                      progress=progress)
            except KeyboardInterrupt:
                interrupted = True
                executor.stop()
    finally:
        executor.shutdown()
    close_kept_peers()
    done_results = list(results.values())
    return CampaignReport(
        peer=hello.name,
        seed=base_seed,
        jobs=n_jobs,
        executor=kind,
        games=sum(r.games for r in done_results),
        steps=sum(r.steps for r in done_results),
        probes=sum(r.probes for r in done_results),
        aborted=sum(r.aborted for r in done_results),
        seconds=time.monotonic() - started,
        cpu=time.process_time() - cpu_started + (sum(r.cpu for r in done_results) if kind != "inline" else 0),
        classes=classes,
        interrupted=interrupted,
        skipped=tuple(skipped),
        waived_games=sum(c.count for c in classes if c.waived is not None),
        play_seconds=play_seconds,
        positions=spec.positions,
        digest=hashlib.sha256("".join(results[b].digest for b in sorted(results)).encode()).hexdigest()[:16],
    )


def _in_time(deadline: float | None) -> bool:
    """Whether a batch may still start before the wall-clock ``deadline`` (none: always)."""
    return deadline is None or time.time() < deadline
