"""Shrinking a campaign's classes: a diagnosed class gets its counterexample from the diagnosis (the smallest
position on which the diagnosed rules and the true ones differ, verified both ways and on the peer); a
class nothing explains is shrunk as before, from its position (a peer with the ``position`` capability) or
by replaying its batch with Hypothesis's shrinker, within a time box.

>>> SEARCH_ATTEMPTS
3
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from attrs import evolve
from hypothesis import Phase, given
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from engine.conformance.campaign.batches import CampaignSpec, _Games, _settings
from engine.conformance.campaign.divergence import Divergence, DivergenceFound
from engine.conformance.campaign.draws import seed_only_draws
from engine.conformance.campaign.executors import Executor
from engine.conformance.campaign.grouping import CampaignProgress
from engine.conformance.campaign.report import DivergenceClass

__all__ = [
    "SEARCH_ATTEMPTS",
    "SEARCH_EXAMPLES",
    "counterexample_job",
    "shrink_all",
    "shrink_class",
    "shrink_job",
]

def shrink_job(spec: CampaignSpec, batch: int, count: int, first: Divergence, seconds: float
               ) -> tuple[Divergence, float]:
    """Shrink one class where the job runs: from its position (:func:`~engine.conformance.campaign.positions.
    shrink_origin`) when the campaign uses positions, else by replaying its batch (:func:`shrink_class`);
    returns the result and the wall-clock seconds the shrinking itself took (no time waiting in a queue)."""
    started = time.monotonic()
    if spec.positions and first.origin is not None:
        from engine.conformance.campaign.positions import shrink_origin

        shrunk = shrink_origin(spec.peer, first, seconds)
    else:
        shrunk = shrink_class(spec, batch, count, first, seconds)
    return shrunk, time.monotonic() - started


SEARCH_EXAMPLES = 40
"""Short games played per search attempt while shrinking (see :func:`shrink_class`)."""

SEARCH_ATTEMPTS = 3
"""Search attempts in a row that find nothing smaller before shrinking stops."""


def shrink_class(spec: CampaignSpec, batch: int, count: int, first: Divergence, seconds: float) -> Divergence:
    """The smallest divergence of ``first``'s signature found within ``seconds`` (wall clock); ``first`` if
    nothing smaller turns up.

    First the batch of its first occurrence is replayed with Hypothesis's shrinker on.  A shrinker stuck in
    a long game (a Saint Petersburg deal drawn from a seed shrinks as a whole: a smaller seed is another
    deal) is then helped by a search: new games of the class's game and variant, no more players and
    fewer actions than the best so far (so each is cheap), each attempt seeded from the campaign seed, the
    batch and the attempt; a shorter occurrence is shrunk in turn.  The search stops after
    :data:`SEARCH_ATTEMPTS` attempts in a row without a smaller one, or at the time box.

    Only divergences of the same signature and no larger (:attr:`Divergence.size`) are kept: shrinking
    never changes the class or grows the record.  Games of other classes pass, so Hypothesis does not
    shrink toward them.
    """
    deadline = time.monotonic() + seconds
    best = [first]
    _shrink_run(spec, spec.batch_seed(batch), count, first.signature, best, deadline=deadline)
    misses, attempt = 0, 0
    while misses < SEARCH_ATTEMPTS and time.monotonic() < deadline and best[0].steps > 1:
        attempt += 1
        size = best[0].size
        setup = best[0].setup
        short = evolve(spec, max_steps=best[0].steps, offered={setup.game: (setup.variant,)},
                       counts={f"{setup.game}/{setup.variant}": tuple(
                           n for n in spec.counts.get(f"{setup.game}/{setup.variant}", (setup.players,))
                           if n <= setup.players) or (setup.players,)})
        seed = random.Random(f"arbiter-shrink:{spec.seed}:{batch}:{attempt}").getrandbits(64)
        _shrink_run(short, seed, SEARCH_EXAMPLES, first.signature, best, deadline=deadline)
        misses = 0 if best[0].size < size else misses + 1
    return best[0]


def _shrink_run(spec: CampaignSpec, seed: int, examples: int, signature: str, best: list[Divergence], *,
                deadline: float) -> None:
    """One Hypothesis run (generate, then shrink) keeping in ``best[0]`` the smallest divergence of
    ``signature``."""
    runner = _Games(spec, examples)

    def body(data: st.DataObject) -> None:
        if time.monotonic() >= deadline:
            return  # out of time: every further attempt passes, so the shrinker stops
        div = next((d for d in runner.play(data) if d.signature == signature), None)
        if div is None:
            return
        if div.size <= best[0].size:
            best[0] = div
        raise DivergenceFound(div)

    test = hypothesis_seed(seed)(_settings(examples, [Phase.generate, Phase.shrink])(given(st.data())(body)))
    try:
        with seed_only_draws():
            test()
    except (DivergenceFound, HypothesisException, ExceptionGroup):
        pass  # the answer is best[0], whatever Hypothesis ends on (a flaky replay after the time box)
    finally:
        runner.close()


def counterexample_job(  # noqa: PLR0917 (a job's arguments travel as one tuple to a worker)
    spec: CampaignSpec, batch: int, count: int, first: Divergence, faults: tuple[str, ...], seconds: float
) -> tuple[Divergence, float, dict[str, Any] | None, str]:
    """A diagnosed class's counterexample, where the job runs: the smallest position on which the rules under
    the class's ``faults`` and the true rules differ, from the first occurrence's position (or its game
    replayed), verified both ways (:func:`engine.conformance.diagnosis.counterexample.counterexample`) and,
    with positions, shown on the peer itself (which must diverge there too).  When there is none, the
    class is shrunk as an unexplained one is (:func:`shrink_job`), and the note says why.  Returns the
    divergence, the wall-clock seconds, the vector (``None``: the caller writes one) and the note."""
    from engine.conformance.diagnosis.counterexample import NoCounterexample, counterexample
    from engine.conformance.diagnosis.faults import parse
    from engine.errors import ArbiterError

    started = time.monotonic()
    game = first.setup.game
    parsed = [parse(f) for f in faults]
    note = "no position to start from"
    best = None
    for start in _starts(first, parsed):
        try:
            found = counterexample(game, parsed, start, seconds=seconds / 3)
        except (NoCounterexample, ArbiterError) as exc:
            note = str(exc)
            continue
        seen, why = _on_peer(spec, first, found.divergence)
        if not seen:
            note = why
        elif best is None or found.size < best.size:
            best = found
        if best is not None and best.size <= SMALL:
            break
    if best is not None:
        return best.divergence, time.monotonic() - started, best.vector, ""
    shrunk, _spent = shrink_job(spec, batch, count, first, max(0.0, seconds - (time.monotonic() - started)))
    return shrunk, time.monotonic() - started, None, note


SMALL = (2, 20)
"""A counterexample this small (seats, cards in play) needs no other start."""


def _starts(first: Divergence, faults: list[Any]) -> Iterator[Any]:
    """Where a class's counterexample may start: its first occurrence, then where the faults first show in
    seeded random games (the plainest variant first), for a first occurrence whose position does not
    shrink (a variant whose invariants hold every card in place)."""
    from engine.conformance.diagnosis.counterexample import start_of
    from engine.conformance.diagnosis.drawn import first_difference
    from engine.conformance.diagnosis.faults import World
    from engine.errors import ArbiterError

    start = start_of(first)
    if start is not None:
        yield start
    try:
        world = World(first.setup.game, faults)
    except ArbiterError:
        return
    for seed in (1, 2):
        found = first_difference(world, seed)
        if found is not None:
            yield found


def _on_peer(spec: CampaignSpec, first: Divergence, found: Divergence) -> tuple[bool, str]:
    """Whether the peer itself diverges on a counterexample's position (without the ``position``
    capability the diagnosed rules stand for it: ``True``)."""
    if not spec.positions or found.origin is None:
        return True, ""
    from engine.conformance.campaign.positions import replay_origin

    transport = spec.peer()
    try:
        again = replay_origin(transport, first.setup, found.origin, first.peer_name, found.kind, trials=False)
    except Exception as exc:  # the peer's own failure on the position: no counterexample shown on it
        return False, f"the peer failed on the counterexample's position: {exc}"
    finally:
        transport.close()
    if again is None:
        return False, "the peer does not diverge on the diagnosis's counterexample"
    return True, ""


def shrink_all(
    executor: Executor,
    spec: CampaignSpec,
    counts: Mapping[int, int],
    classes: tuple[DivergenceClass, ...],
    *,
    seconds: float,
    tracker: CampaignProgress,
    progress: Callable[[CampaignProgress], None] | None,
) -> tuple[DivergenceClass, ...]:
    """Shrink every open class (in parallel on the pool or Ray), each within ``seconds``."""
    jobs: dict[Any, str] = {}
    by_sig = {c.signature: c for c in classes}
    for c in classes:
        if c.waived is not None:
            continue
        if c.faults:
            args = (spec, c.batch, counts[c.batch], c.first, c.faults, seconds)
            job = executor.submit(counterexample_job, *args)
        else:
            job = executor.submit(shrink_job, spec, c.batch, counts[c.batch], c.first, seconds)
        jobs[job] = c.signature
    tracker.shrinking = len(jobs)
    pending = set(jobs)
    while pending:
        done, pending = executor.wait(pending)
        for future in done:
            sig = jobs[future]
            outcome = executor.result(future)
            shrunk, spent = outcome[0], outcome[1]
            vector = outcome[2] if len(outcome) > 2 else None
            note = outcome[3] if len(outcome) > 3 else ""
            if vector is None and spec.positions:
                from engine.conformance.campaign.positions import origin_vector

                vector = origin_vector(shrunk, list(by_sig).index(sig) + 1)
            by_sig[sig] = evolve(by_sig[sig], shrunk=shrunk, shrink_seconds=spent, vector=vector,
                                 counterexample_note=note)
            tracker.shrunk += 1
            if progress is not None:
                progress(tracker)
    return tuple(by_sig[c.signature] for c in classes)


