"""Counterexamples for faults drawn at random from the fault space: how small, how many verified, how fast.

``python -m engine.conformance.diagnosis.drawn [--faults N] [--seed S] [--game GAME ...]`` draws ``N`` faults
of each game from its whole fault space (:func:`~engine.conformance.diagnosis.space.fault_space`, a seeded
draw), finds where each first shows (:func:`first_difference`: seeded random games of the reference, every
variant in turn, compared at every step with the rules under the fault: the position's facts, the legal
sets, the outcome of the action played), makes the counterexample from there
(:func:`~engine.conformance.diagnosis.counterexample.counterexample`) and prints, per game, how many faults
gave a verified counterexample, how many changed nothing on the positions tried (skipped), and why the
others gave none; the sizes (seats and cards in play) at the start and at the end; and the **median CPU
time per counterexample** over the faults, and the CPU time of making them all again over ``--repeats``
runs with its spread (the search for the start not included).

>>> results = trial(["petersburg:edit:cards/Lumberjack/cost=4"], seed=1)
>>> [(r.outcome, r.counterexample.size) for r in results if r.counterexample]
[('verified', (1, 3))]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from attrs import frozen

from engine.conformance.diagnosis.counterexample import (
    Counterexample,
    NoCounterexample,
    Oracle,
    counterexample,
)
from engine.conformance.diagnosis.evidence import Seen
from engine.conformance.diagnosis.faults import Fault, World, parse
from engine.conformance.diagnosis.space import fault_space
from engine.conformance.peers.protocol import canonical
from engine.errors import ArbiterError, InputError
from engine.game import game_names, get_game
from engine.measure import Runs

__all__ = ["Drawn", "draw", "first_difference", "main", "summary", "timing", "trial"]

GAMES_PER_FAULT = 2
"""Seeded random games per variant tried for a fault's first difference."""

MAX_STEPS = 300
"""The most actions of one such game."""

_UNPLAYABLE = (ArbiterError, IndexError, KeyError, ValueError, TypeError, ZeroDivisionError)


@frozen
class Drawn:
    """One drawn fault and what came of it: ``outcome`` ``verified`` (``counterexample`` set),
    ``no difference`` (the fault changes nothing on the positions tried: skipped), ``unverified`` (no
    counterexample: ``why``) or ``unplayable`` (the fault's rules do not load or cannot start a game)."""

    fault: Fault
    outcome: str
    why: str = ""
    counterexample: Counterexample | None = None
    start: Seen | None = None
    """Where the fault first showed (the counterexample's start)."""


def draw(game: str, count: int, rng: random.Random) -> list[Fault]:
    """``count`` faults of ``game`` drawn from its whole fault space (without repeats)."""
    space = fault_space(game)
    return rng.sample(space, min(count, len(space)))


def first_difference(world: World, seed: int, *, games: int = GAMES_PER_FAULT, max_steps: int = MAX_STEPS
                     ) -> Seen | None:
    """Where the rules of ``world`` first differ from the reference in seeded random games of the reference
    (``games`` per variant, player counts drawn): the position's facts or the outcome of the action played
    (a :class:`Seen` of kind ``after``), or a seat's legal set (``legal``); ``None`` when they never do."""
    name = world.name
    game: Any = get_game(name)
    oracle = Oracle(name, world)
    rng = random.Random(seed)
    for attempt in range(games * len(game.variants)):
        variant = game.variants[attempt % len(game.variants)]
        players = rng.randint(game.min_players, min(game.max_players, 5))
        state = game.new_game(players, seed=rng.randrange(2**31), variant=variant)
        for _ in range(max_steps):
            seats = game.to_act(state)
            if game.is_terminal(state) or not seats:
                break
            seat = rng.choice(seats)
            legal = game.legal_actions(state, seat)
            try:
                theirs = world.game.legal_actions(world.adopt(state), seat)
            except _UNPLAYABLE:
                break
            if {canonical(game.action_to_json(a)) for a in legal} != {
                    canonical(world.game.action_to_json(a)) for a in theirs}:
                return Seen("legal", state, None, seat)
            action = rng.choice(legal)
            if oracle.difference(state, action) is not None:
                return Seen("after", state, action)
            state = game.apply(state, action)
    return None


def _one(fault: Fault, seed: int) -> Drawn:
    try:
        world = World(fault.game, [fault])
    except InputError as exc:
        return Drawn(fault, "unplayable", exc.message)
    try:
        start = first_difference(world, seed)
    except _UNPLAYABLE as exc:
        return Drawn(fault, "unplayable", f"{type(exc).__name__}: {exc}")
    if start is None:
        return Drawn(fault, "no difference")
    try:
        found = counterexample(fault.game, [fault], start)
    except NoCounterexample as exc:
        return Drawn(fault, "unverified", exc.reason, start=start)
    return Drawn(fault, "verified", counterexample=found, start=start)


def trial(faults: Iterable[Fault | str], seed: int = 1) -> list[Drawn]:
    """The counterexample of each fault (or signature), each from its first difference in games seeded
    from ``seed``."""
    return [_one(f if isinstance(f, Fault) else parse(f), seed + i) for i, f in enumerate(faults)]


def timing(results: Sequence[Drawn], repeats: int = 3) -> dict[str, Runs]:
    """Per game, the CPU time of making again every verified counterexample of ``results`` from its start,
    ``repeats`` times (``Runs``: the seconds of each repetition, ``work`` the counterexamples made)."""
    out: dict[str, Runs] = {}
    for name in dict.fromkeys(r.fault.game for r in results):
        done = [r for r in results if r.fault.game == name and r.counterexample is not None and r.start]
        seconds = []
        for _ in range(max(1, repeats)):
            began = time.process_time()
            for r in done:
                assert r.start is not None
                counterexample(name, [r.fault], r.start)
            seconds.append(time.process_time() - began)
        out[name] = Runs(tuple(seconds), len(done))
    return out


def summary(results: Sequence[Drawn], runs: Mapping[str, Runs] | None = None) -> list[str]:
    """The figures of a trial, per game: outcomes, sizes before and after, the CPU time per
    counterexample (its median over the faults, and with ``runs`` the mean over repeated runs of them
    all with its spread); then every fault without a verified counterexample and why."""
    lines: list[str] = []
    for name in dict.fromkeys(r.fault.game for r in results):
        mine = [r for r in results if r.fault.game == name]
        found = [r.counterexample for r in mine if r.counterexample is not None]
        counts = {o: sum(r.outcome == o for r in mine) for o in ("verified", "no difference", "unverified",
                                                                    "unplayable")}
        lines.append(f"{name}: {len(mine)} faults drawn: {counts['verified']} verified counterexamples, "
                     f"{counts['no difference']} changed nothing on the positions tried (skipped), "
                     f"{counts['unverified']} unverified, {counts['unplayable']} unplayable")
        if not found:
            continue
        each = sorted(c.seconds for c in found)
        seats = [c.start_size[0] for c in found], [c.size[0] for c in found]
        cards = [c.start_size[1] for c in found], [c.size[1] for c in found]
        smaller = sum(c.size < c.start_size for c in found)
        lines.append(
            f"  seats {statistics.median(seats[0]):g} -> {statistics.median(seats[1]):g}, cards in play "
            f"{statistics.median(cards[0]):g} -> {statistics.median(cards[1]):g} (medians; "
            f"{smaller}/{len(found)} smaller than their start; largest after: {max(cards[1])} cards)")
        tries = statistics.median(c.tries for c in found)
        lines.append(f"  per counterexample: median CPU {statistics.median(each) * 1000:.0f} ms (quartiles "
                     f"{_quartile(each, 1) * 1000:.0f}-{_quartile(each, 3) * 1000:.0f} ms, most "
                     f"{each[-1] * 1000:.0f} ms), {tries:g} candidate positions tried (median)")
        timed = (runs or {}).get(name)
        if timed is not None and timed.work:
            lines.append(f"  all {timed.work} again, {len(timed.seconds)} runs: median CPU "
                         f"{timed.median:.2f} s ±{timed.spread * 100:.0f}%, "
                         f"{timed.median / timed.work * 1000:.0f} ms per counterexample")
        kinds: dict[str, int] = {}
        for c in found:
            kinds[c.kind] = kinds.get(c.kind, 0) + 1
        lines.append("  kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    for r in results:
        if r.outcome in ("unverified", "unplayable"):
            lines.append(f"  {r.outcome}: {r.fault.signature}: {r.why}")
    return lines


def _quartile(ordered: Sequence[float], q: int) -> float:
    return ordered[min(len(ordered) - 1, len(ordered) * q // 4)]


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures of a trial of ``--faults`` drawn faults per game."""
    parser = argparse.ArgumentParser(prog="python -m engine.conformance.diagnosis.drawn",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--faults", type=int, default=30, help="faults drawn per game (default 30)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the draw and the games (default 1)")
    parser.add_argument("--game", action="append", choices=game_names(), help="a game (default: both)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs of making every counterexample again, for the timing (default 3)")
    args = parser.parse_args(argv)
    for name, value in (("--faults", args.faults), ("--repeats", args.repeats)):
        if value < 1:
            sys.stderr.write(f"error: {name}: expected a positive number, got {value}\n")
            return 2
    rng = random.Random(args.seed)
    faults = [f for name in (args.game or game_names()) for f in draw(name, args.faults, rng)]
    began = time.process_time()
    results = trial(faults, args.seed)
    print(*summary(results, timing(results, args.repeats)), sep="\n")
    spent = time.process_time() - began
    print(f"{len(faults)} faults in {spent:.1f} s CPU (the search for each start included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
