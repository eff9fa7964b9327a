"""Conformance campaigns: every divergence of a peer in one run, on all cores or on a Ray cluster.

A campaign plays generated games (the differential games of :mod:`engine.conformance.fuzz`) until a number
of games or a time budget is spent.  A divergence ends its game, is recorded, and the campaign goes on.
Divergences are grouped into **classes** by their signature (``game:kind:deciding clause:detail``, see
:attr:`~engine.conformance.fuzz.Divergence.signature`); each class is shrunk once, within a time box, and
reported with its count, its first occurrence and its shrunk record.

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

>>> from engine.conformance.fuzz import in_process
>>> from engine.conformance.peers.base import ReferencePeer
>>> report = run_campaign(in_process(ReferencePeer), games=4, jobs=1, seed=1, game_names=("take6",),
...                       max_steps=30)
>>> report.games, report.classes
(4, ())
"""

from __future__ import annotations

import fnmatch
import math
import multiprocessing.util
import random
import signal
import time
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from attrs import evolve, field, frozen
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from engine.cliargs import available_cores, cap_jobs
from engine.conformance.fuzz import (
    Chooser,
    Divergence,
    DivergenceFound,
    PeerFactory,
    offered_games,
    peer_hello,
    play_game,
    player_counts,
    setups,
)
from engine.conformance.protocol import Transport
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

FAILURE_KINDS = ("crash", "timeout", "garbage")
"""Kinds after which a peer process is not reused."""


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
    """``"game/variant"`` → player counts (see :func:`~engine.conformance.fuzz.player_counts`)."""
    max_steps: int = 1000
    seed: int = 0
    reuse: bool = True

    def batch_seed(self, batch: int) -> int:
        """The Hypothesis seed of batch ``batch``: a function of the campaign seed and the index only."""
        return random.Random(f"arbiter-campaign:{self.seed}:{batch}").getrandbits(64)


@frozen
class BatchResult:
    """What one batch played and found: ``found`` holds ``(ordinal, divergence)`` in play order."""

    batch: int
    games: int
    steps: int
    probes: int
    aborted: int
    found: tuple[tuple[int, Divergence], ...]
    cpu: float = 0.0
    """CPU seconds of the job (harness side; the peer's own processes not included)."""


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

    def play(self, data: st.DataObject) -> Divergence | None:
        """Play one game; its divergence, or ``None``."""
        setup = data.draw(self.strategy, label="set-up")
        chooser = Chooser(data.draw)
        transport = self.kept.pop() if self.kept else self.spec.peer()
        healthy, finished = True, False
        tally = {"steps": 0, "probes": 0}
        try:
            play_game(
                setup,
                chooser,
                transport,
                max_steps=self.spec.max_steps,
                peer_name=self.spec.peer_name,
                tally=tally,
            )
            finished = True
            return None
        except DivergenceFound as exc:
            finished = True
            healthy = exc.divergence.kind not in FAILURE_KINDS
            return exc.divergence
        finally:
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

    def close(self) -> None:
        """Stop the peers unless they are kept for the next batch of this process."""
        if not self.spec.reuse:
            for transport in self.kept:
                transport.close()
            self.kept.clear()


_KEPT: dict[Any, list[Transport]] = {}
"""Peers kept between the batches one process plays (a worker process, or the main one), by factory."""


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
        div = runner.play(data)
        if div is not None:
            found.append((ordinal, div))

    test = hypothesis_seed(spec.batch_seed(batch))(_settings(count, [Phase.generate])(given(st.data())(body)))
    try:
        test()
    except HypothesisException:  # pragma: no cover - e.g. a search space exhausted early: keep what ran
        pass
    finally:
        runner.close()
    return BatchResult(
        batch,
        runner.games,
        runner.steps,
        runner.probes,
        runner.aborted,
        tuple(found),
        time.process_time() - cpu,
    )


def shrink_class(spec: CampaignSpec, batch: int, count: int, first: Divergence, seconds: float) -> Divergence:
    """The smallest divergence of ``first``'s signature found by replaying its batch with Hypothesis's
    shrinker, within ``seconds`` (wall clock); ``first`` if nothing smaller turns up.

    Only divergences of the same signature and no larger (:attr:`Divergence.size`) are kept: shrinking
    never changes the class or grows the record.  Games of other classes pass, so Hypothesis does not
    shrink toward them.
    """
    deadline = time.monotonic() + seconds
    runner = _Games(spec, count)
    best = [first]

    def body(data: st.DataObject) -> None:
        if time.monotonic() >= deadline:
            return  # out of time: every further attempt passes, so the shrinker stops
        div = runner.play(data)
        if div is None or div.signature != first.signature:
            return
        if div.size <= best[0].size:
            best[0] = div
        raise DivergenceFound(div)

    test = hypothesis_seed(spec.batch_seed(batch))(
        _settings(count, [Phase.generate, Phase.shrink])(given(st.data())(body))
    )
    try:
        test()
    except (DivergenceFound, HypothesisException, ExceptionGroup):
        pass  # the answer is best[0], whatever Hypothesis ends on (a flaky replay after the time box)
    finally:
        runner.close()
    return best[0]


# --------------------------------------------------------------------------------------------------------
# The report


@frozen
class DivergenceClass:
    """One class of divergence: every occurrence shares ``signature``."""

    signature: str
    count: int
    first: Divergence
    """The first occurrence (lowest batch, then ordinal), unshrunk."""
    shrunk: Divergence | None = None
    waived: str | None = None
    """The waiver's reason, when waived."""
    shrink_seconds: float = 0.0
    record: str | None = None
    """Where the shrunk record was written."""
    first_record: str | None = None
    batch: int = 0
    """The batch of the first occurrence (replayed to shrink it)."""

    @property
    def kind(self) -> str:
        """The divergence kind."""
        return self.first.kind

    @property
    def clause(self) -> str | None:
        """The deciding clause, if any."""
        return self.first.clauses[0] if self.first.clauses else None

    @property
    def best(self) -> Divergence:
        """The shrunk divergence, else the first."""
        return self.shrunk or self.first


@frozen
class CampaignReport:
    """What a campaign played and found."""

    peer: str
    seed: int
    jobs: int
    executor: str
    games: int
    steps: int
    probes: int
    aborted: int
    seconds: float
    cpu: float
    classes: tuple[DivergenceClass, ...]
    interrupted: bool = False
    skipped: tuple[str, ...] = ()
    waived_games: int = field(default=0)
    play_seconds: float = 0.0
    """Wall-clock time of the games (``seconds`` includes shrinking)."""

    @property
    def games_per_second(self) -> float:
        """Games played per wall-clock second of play."""
        spent = self.play_seconds or self.seconds
        return self.games / spent if spent > 0 else 0.0

    @property
    def open_classes(self) -> tuple[DivergenceClass, ...]:
        """The classes not waived."""
        return tuple(c for c in self.classes if c.waived is None)

    @property
    def exit_code(self) -> int:
        """1 when a class is not waived, else 0."""
        return 1 if self.open_classes else 0

    def to_json(self, clause_text: Callable[[str, str], str] | None = None) -> dict[str, Any]:
        """The JSON report (``schemas/campaign-report.schema.json``)."""
        wording = clause_text or _clause_text

        def occurrence(d: Divergence, path: str | None) -> dict[str, Any]:
            return {
                "actions": d.steps,
                "players": d.setup.players,
                "variant": d.setup.variant,
                "message": d.message,
                "clauses": list(d.clauses),
                "record": path,
            }

        return {
            "format": "arbiter-campaign-report",
            "version": 1,
            "peer": self.peer,
            "seed": self.seed,
            "jobs": self.jobs,
            "executor": self.executor,
            "interrupted": self.interrupted,
            "games": self.games,
            "actions": self.steps,
            "probes": self.probes,
            "aborted": self.aborted,
            "seconds": round(self.seconds, 3),
            "play_seconds": round(self.play_seconds, 3),
            "cpu_seconds": round(self.cpu, 3),
            "games_per_second": round(self.games_per_second, 3),
            "waived_games": self.waived_games,
            "skipped": list(self.skipped),
            "classes": [
                {
                    "signature": c.signature,
                    "game": c.first.setup.game,
                    "kind": c.kind,
                    "clause": c.clause,
                    "clause_text": wording(c.first.setup.game, c.clause) if c.clause else None,
                    "detail": c.first.detail,
                    "count": c.count,
                    "waived": c.waived,
                    "first": occurrence(c.first, c.first_record),
                    "shrunk": None
                    if c.shrunk is None
                    else {**occurrence(c.shrunk, c.record), "seconds": round(c.shrink_seconds, 3)},
                }
                for c in self.classes
            ],
        }


def _clause_text(game: str, clause: str) -> str:
    from engine.game import get_game

    book = get_game(game).clauses
    return book[clause].text if clause in book else ""


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
) -> CampaignReport:
    """Run a campaign: ``games`` games, or as many as ``seconds`` allow, on ``jobs`` worker processes
    (default: every core) or on Ray (``ray``: an address, or ``True`` for the local/default cluster).

    Ctrl-C stops it: what finished batches found is reported (``interrupted``), unshrunk.  ``progress`` is
    called after every batch.  A peer that fails ``hello`` raises PeerFailure.
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
    )


def _waiver_for(signature: str, waivers: Sequence[Waiver]) -> Waiver | None:
    return next((w for w in waivers if w.matches(signature)), None)


def _classes(results: Mapping[int, BatchResult], waivers: Sequence[Waiver]) -> tuple[DivergenceClass, ...]:
    """Group every divergence by signature; the first occurrence is the lowest ``(batch, ordinal)``."""
    first: dict[str, tuple[int, int, Divergence]] = {}
    count: dict[str, int] = {}
    for b in sorted(results):
        for ordinal, div in results[b].found:
            sig = div.signature
            count[sig] = count.get(sig, 0) + 1
            if sig not in first:
                first[sig] = (b, ordinal, div)
    out = []
    for sig in sorted(first, key=lambda s: (-count[s], first[s][0], first[s][1])):
        waiver = _waiver_for(sig, waivers)
        out.append(
            DivergenceClass(
                sig, count[sig], first[sig][2], waived=waiver.reason if waiver else None, batch=first[sig][0]
            )
        )
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
    started: dict[str, float] = {}
    by_sig = {c.signature: c for c in classes}
    for c in classes:
        if c.waived is not None:
            continue
        started[c.signature] = time.monotonic()
        jobs[executor.submit(shrink_class, spec, c.batch, counts[c.batch], c.first, seconds)] = c.signature
    tracker.shrinking = len(jobs)
    pending = set(jobs)
    while pending:
        done, pending = executor.wait(pending)
        for future in done:
            sig = jobs[future]
            shrunk: Divergence = executor.result(future)
            by_sig[sig] = evolve(by_sig[sig], shrunk=shrunk, shrink_seconds=time.monotonic() - started[sig])
            tracker.shrunk += 1
            if progress is not None:
                progress(tracker)
    return tuple(by_sig[c.signature] for c in classes)


class CampaignProgress:
    """Live counters of a running campaign (what the progress display shows)."""

    def __init__(self, games: int | None, seconds: float | None, started: float) -> None:
        self.target_games = games
        self.target_seconds = seconds
        self.started = started
        self.games = self.steps = self.probes = self.waived = 0
        self.signatures: set[str] = set()
        self.shrinking = self.shrunk = 0

    def add(self, result: BatchResult, waivers: Sequence[Waiver]) -> None:
        """Count a finished batch."""
        self.games += result.games
        self.steps += result.steps
        self.probes += result.probes
        for _ordinal, div in result.found:
            if _waiver_for(div.signature, waivers):
                self.waived += 1
            else:
                self.signatures.add(div.signature)

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
            f"{len(self.signatures)} classes, {self.waived} waived, {self.elapsed:.0f} s{shrink}"
        )
