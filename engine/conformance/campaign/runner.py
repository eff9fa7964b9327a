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

import fnmatch
import hashlib
import math
import multiprocessing.util
import random
import signal
import time
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from attrs import evolve, field, frozen
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from engine.cliargs import available_cores, cap_jobs
from engine.conformance.campaign.divergence import Divergence, DivergenceFound
from engine.conformance.campaign.draws import seed_only_draws
from engine.conformance.campaign.duel import FAILURE_KINDS, Chooser, play_game
from engine.conformance.campaign.fuzz import offered_games, peer_hello
from engine.conformance.campaign.report import CampaignReport, DivergenceClass
from engine.conformance.campaign.setups.generated import player_counts, setups
from engine.conformance.diagnosis.classes import cover
from engine.conformance.diagnosis.evidence import Seen
from engine.conformance.diagnosis.faults import parse
from engine.conformance.diagnosis.search import Diagnoser
from engine.conformance.peers.launch import PeerFactory
from engine.conformance.peers.protocol import Transport, canonical
from engine.errors import InputError

__all__ = [
    "BATCH",
    "BatchResult",
    "CampaignReport",
    "CampaignSpec",
    "DivergenceClass",
    "Waiver",
    "load_waivers",
    "play_batch",
    "run_campaign",
    "shrink_class",
]

BATCH = 4
"""Games per batch: the unit of work sent to a job (and replayed to shrink a class)."""


# --------------------------------------------------------------------------------------------------------
# Waivers


@frozen
class Waiver:
    """A signature pattern (``fnmatch``: ``*`` and ``?``) set aside, with the reason."""

    signature: str
    reason: str

    def matches(self, signature: str) -> bool:
        """Whether the waiver covers ``signature``."""
        return fnmatch.fnmatchcase(signature, self.signature)


def load_waivers(path: str | Path) -> tuple[Waiver, ...]:
    """Read a waiver file: ``[[waiver]]`` tables with ``signature`` and ``reason`` (both non-empty strings).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "w.toml"
    >>> _ = p.write_text('[[waiver]]\\nsignature = "take6:to_act:*"\\nreason = "known"\\n')
    >>> load_waivers(p)
    (Waiver(signature='take6:to_act:*', reason='known'),)
    """
    where = f"--waive {path}"
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(where, f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError(where, "not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(where, f"not TOML: {exc}") from None
    extra = sorted(set(data) - {"waiver"})
    if extra:
        raise InputError(f"{where}: {extra[0]}", "unknown table (known: waiver)")
    entries = data.get("waiver", [])
    if not isinstance(entries, list):
        raise InputError(f"{where}: waiver", "expected [[waiver]] tables")
    out: list[Waiver] = []
    for i, entry in enumerate(entries):
        at = f"{where}: waiver[{i}]"
        if not isinstance(entry, dict):
            raise InputError(at, "expected a table")
        for key in entry:
            if key not in ("signature", "reason"):
                raise InputError(f"{at}.{key}", "unknown field (known: signature, reason)")
        for key in ("signature", "reason"):
            value = entry.get(key)
            if not isinstance(value, str) or not value.strip():
                raise InputError(f"{at}.{key}", "required: a non-empty string")
        out.append(Waiver(entry["signature"], entry["reason"]))
    return tuple(out)


# --------------------------------------------------------------------------------------------------------
# Work units


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

    def __init__(self, spec: CampaignSpec, count: int) -> None:
        self.spec = spec
        self.count = count
        self.strategy = setups(spec.offered, None, spec.max_steps, spec.counts)
        # a peer that played properly serves the next batches of this process too (``new`` resets it)
        self.kept: list[Transport] = _KEPT.setdefault(spec.peer, []) if spec.reuse else []
        self.games = self.steps = self.probes = self.aborted = 0
        self.digest = hashlib.sha256()

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
            explanations: tuple[tuple[str, ...], ...] = ()
            if self.spec.diagnose and div.evidence:
                diagnoser = _DIAGNOSERS.setdefault(game, Diagnoser(game))
                found_sets = diagnoser.diagnose(div.evidence, agreed, div.signature)
                explanations = tuple(tuple(f.signature for f in fs) for fs in found_sets)
            out.append(evolve(div, evidence=(), explanations=explanations))
        return out

    def close(self) -> None:
        """Stop the peers unless they are kept for the next batch of this process."""
        if not self.spec.reuse:
            for transport in self.kept:
                transport.close()
            self.kept.clear()


_KEPT: dict[Any, list[Transport]] = {}
"""Peers kept between the batches one process plays (a worker process, or the main one), by factory."""

_DIAGNOSERS: dict[str, Diagnoser] = {}
"""One diagnoser per game in each process (it keeps the worlds it built and the faults found so far)."""


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


def _worker_init() -> None:
    """A worker process: Ctrl-C reaches only the parent, and kept peers are stopped at exit."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    multiprocessing.util.Finalize(None, close_kept_peers, exitpriority=10)


def play_batch(spec: CampaignSpec, batch: int, count: int, deadline: float | None = None) -> BatchResult:
    """Play batch ``batch`` (``count`` games; none started after the wall-clock ``deadline``)."""
    cpu = time.process_time()
    runner = _Games(spec, count)
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


# --------------------------------------------------------------------------------------------------------
# Running


class _Inline:
    """Runs work in this process, at once (``jobs == 1``): the same functions as the pools."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args))
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            future.set_exception(exc)
        return future

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        return set(pending), set()

    def result(self, future: Any) -> Any:
        return future.result()

    def shutdown(self, wait: bool = True) -> None:
        """Stop the workers (``wait``: after they finish what they run)."""


class _Pool(_Inline):
    """Worker processes (``jobs > 1``); Ctrl-C reaches only the parent, which stops them."""

    def __init__(self, jobs: int) -> None:
        self._pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_init)

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        return self._pool.submit(fn, *args)

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        done, rest = wait(pending, return_when=FIRST_COMPLETED)
        return set(done), set(rest)

    def shutdown(self, wait: bool = True) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=True)


class _Ray(_Inline):
    """Ray tasks on an existing cluster (``--ray ADDRESS``) or a local Ray; Ray schedules them."""

    def __init__(self, address: str | None) -> None:
        try:
            import ray
        except ImportError:
            raise InputError("--ray", "needs Ray: pip install 'arbiter-rules[ray]'") from None
        self._ray = ray
        if not ray.is_initialized():
            try:
                ray.init(address=address or None, ignore_reinit_error=True, log_to_driver=False)
            except Exception as exc:  # connection refused, bad address ...: one line, exit 2
                raise InputError("--ray", f"cannot connect to Ray at {address or '(local)'}: {exc}") from None
        self._tasks: dict[Callable[..., Any], Any] = {}

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        if fn not in self._tasks:
            self._tasks[fn] = self._ray.remote(fn)
        return self._tasks[fn].remote(*args)

    def wait(self, pending: set[Any]) -> tuple[set[Any], set[Any]]:
        done, rest = self._ray.wait(list(pending), num_returns=1)
        return set(done), set(rest)

    def cpus(self) -> int:
        """The CPUs of the Ray cluster."""
        return int(self._ray.cluster_resources().get("CPU", 1))

    def result(self, future: Any) -> Any:
        return self._ray.get(future)

    def shutdown(self, wait: bool = True) -> None:
        """Stop the workers (``wait``: after they finish what they run)."""


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
) -> CampaignReport:
    """Run a campaign: ``games`` games, or as many as ``seconds`` allow, on ``jobs`` worker processes
    (default: every core) or on Ray (``ray``: an address, or ``True`` for the local/default cluster).

    Ctrl-C stops it: what finished batches found is reported (``interrupted``), unshrunk.  ``progress`` is
    called after every batch.  A peer that fails ``hello`` raises PeerFailure.

    With ``positions`` (the default) and a peer declaring the ``position`` capability, a divergence does not
    end its game: the peer is put back on the reference's position and the game goes on, and each class
    shrinks to one position and one action (exported as a test vector).
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
    )
    n_jobs = cap_jobs(jobs, math.ceil(games / BATCH) if games is not None else available_cores())
    executor: _Inline
    if ray is not None and ray is not False:
        ray_executor = _Ray(ray if isinstance(ray, str) else None)
        executor, kind, n_jobs = ray_executor, "ray", ray_executor.cpus()
    elif n_jobs > 1:
        executor, kind = _Pool(n_jobs), "processes"
    else:
        executor, kind = _Inline(), "inline"
    deadline = time.time() + seconds if seconds is not None else None
    results: dict[int, BatchResult] = {}
    counts: dict[int, int] = {}
    tracker = CampaignProgress(games, seconds, started)
    interrupted = False
    work = _batches(games, seconds)
    pending: dict[Any, int] = {}
    in_flight = n_jobs * 2 if kind != "inline" else 1
    try:
        exhausted = False
        while True:
            while not exhausted and len(pending) < in_flight and (deadline is None or time.time() < deadline):
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
        executor.shutdown(wait=False)
    play_seconds = time.monotonic() - started
    classes = _classes(results, waivers)
    if shrink and not interrupted:
        try:
            classes = _shrink_all(executor, spec, counts, classes, seconds=shrink_seconds, tracker=tracker,
                                  progress=progress)
        except KeyboardInterrupt:
            interrupted = True
            executor.shutdown(wait=False)
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


def _waiver_for(signature: str, waivers: Sequence[Waiver]) -> Waiver | None:
    return next((w for w in waivers if w.matches(signature)), None)


def _discriminated(sig: str, signatures: Iterable[str]) -> str:
    """The class a candidate-set signature belongs to: where the deciding entry names several clauses
    that explain a difference equally (``SP-COST-3|SP-COST-4``, subjects ``Gold Smelter|lower row``) and
    another divergence of the campaign, of the same kind and detail, was decided by fewer of them with its
    subjects among them (a position that discriminates them), the smallest such signature; else ``sig``.

    >>> _discriminated("sp:money:A-1|B-1:-:x|y", ["sp:money:B-1:-:y", "sp:money:A-1|B-1:-:x|y"])
    'sp:money:B-1:-:y'
    """
    parts = sig.split(":")
    if len(parts) < 4 or "|" not in parts[2]:
        return sig
    candidates = set(parts[2].split("|"))
    subjects = set(parts[4].split("|")) if len(parts) > 4 else set()
    best, size = sig, len(candidates)
    for other in signatures:
        o = other.split(":")
        if other == sig or len(o) < 4 or o[:2] != parts[:2] or o[3] != parts[3]:
            continue
        mine = set(o[2].split("|"))
        if mine < candidates and len(mine) < size and (len(o) < 5 or set(o[4].split("|")) <= subjects):
            best, size = other, len(mine)
    return best


def _classes(results: Mapping[int, BatchResult], waivers: Sequence[Waiver]) -> tuple[DivergenceClass, ...]:
    """Group every divergence into classes: by diagnosis, every divergence one set of faults explains in one
    class (:func:`~engine.conformance.diagnosis.classes.cover`), the largest first; the divergences nothing
    explains by signature (a candidate set another position discriminated joins that class).  A class's
    first occurrence is its lowest ``(batch, ordinal)``."""
    entries: dict[tuple[int, int, str], tuple[Divergence, int]] = {}
    for b in sorted(results):
        for ordinal, div in results[b].found:
            key = class_key(div)
            entries[(b, ordinal, key)] = (div, results[b].counts.get(key, 1))
    explained = {
        k: tuple(tuple(parse(s) for s in fs) for fs in d.explanations) for k, (d, _n) in entries.items()
    }
    unexplained = {k: d.signature for k, (d, _n) in entries.items() if not d.explanations}
    weights = {k: n for k, (_d, n) in entries.items()}
    found = cover(explained, unexplained, weights)
    merged: dict[str, str] = {}
    plain = [c.signature for c in found if not c.explained]
    for sig in plain:  # a candidate set another position discriminated: one class (_discriminated)
        merged[sig] = _discriminated(sig, plain)
    grouped: dict[str, list[tuple[int, int, str]]] = {}
    faults: dict[str, tuple[str, ...]] = {}
    for c in found:
        sig = merged.get(c.signature, c.signature)
        grouped.setdefault(sig, []).extend(c.members)  # type: ignore[arg-type]
        faults[sig] = tuple(f.signature for f in c.faults)
    out = []
    for sig, members in grouped.items():
        first = min(members)
        count = sum(weights[k] for k in members)
        div = entries[first][0]
        waiver = _waiver_for(sig, waivers) or (_waiver_for(div.signature, waivers) if faults[sig] else None)
        out.append(DivergenceClass(sig, count, div, waived=waiver.reason if waiver else None, batch=first[0],
                                   faults=faults[sig]))
    out.sort(key=lambda c: (not c.faults, -c.count, c.batch, min(k[1] for k in grouped[c.signature])))
    return tuple(out)


def _shrink_all(
    executor: _Inline,
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
        jobs[executor.submit(shrink_job, spec, c.batch, counts[c.batch], c.first, seconds)] = c.signature
    tracker.shrinking = len(jobs)
    pending = set(jobs)
    while pending:
        done, pending = executor.wait(pending)
        for future in done:
            sig = jobs[future]
            shrunk, spent = executor.result(future)
            vector = None
            if spec.positions:
                from engine.conformance.campaign.positions import origin_vector

                vector = origin_vector(shrunk, list(by_sig).index(sig) + 1)
            by_sig[sig] = evolve(by_sig[sig], shrunk=shrunk, shrink_seconds=spent, vector=vector)
            tracker.shrunk += 1
            if progress is not None:
                progress(tracker)
    return tuple(by_sig[c.signature] for c in classes)


class CampaignProgress:
    """Live counters of a running campaign (what the progress display shows).  Its classes are grouped as
    the report groups them (:func:`_classes`), so the last progress line and the summary agree."""

    def __init__(self, games: int | None, seconds: float | None, started: float) -> None:
        self.target_games = games
        self.target_seconds = seconds
        self.started = started
        self.games = self.steps = self.probes = 0
        self.results: dict[int, BatchResult] = {}
        self.waivers: Sequence[Waiver] = ()
        self.classes: tuple[DivergenceClass, ...] = ()
        """The classes so far, grouped and waived as in the report."""
        self.shrinking = self.shrunk = 0
        self._results: dict[int, BatchResult] = {}

    def add(self, result: BatchResult, waivers: Sequence[Waiver]) -> None:
        """Count a finished batch; the classes so far are those the summary would report now."""
        self.games += result.games
        self.steps += result.steps
        self.probes += result.probes
        self.results[result.batch] = result
        self.waivers = waivers
        self.classes = _classes(self.results, waivers)

    @property
    def open_classes(self) -> int:
        """Classes found so far that no waiver covers (the summary's count of classes)."""
        return sum(1 for c in self.classes if c.waived is None)

    @property
    def waived(self) -> int:
        """Classes found so far that a waiver covers."""
        return len(self.classes) - self.open_classes

    @property
    def elapsed(self) -> float:
        """Seconds since the start."""
        return time.monotonic() - self.started

    def line(self) -> str:
        """One plain progress line."""
        rate = self.games / self.elapsed if self.elapsed > 0 else 0.0
        head = f"{self.games}" + (f"/{self.target_games}" if self.target_games else "")
        shrink = f", shrinking {self.shrunk}/{self.shrinking}" if self.shrinking else ""
        return (
            f"campaign: {head} games, {self.steps} actions, {rate:.1f} games/s, "
            f"{self.open_classes} classes, {self.waived} waived, {self.elapsed:.0f} s{shrink}"
        )
