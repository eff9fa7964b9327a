"""``arbiter bench check`` and ``arbiter bench fuzz``: the conformance kit's speed, as median CPU time.

``check``: one random full game per game and player count is recorded twice, with actions only and with
every fact claimed after every action; each run checks the record (from memory) enough times to fill its
share of ``--seconds``.  Printed: median CPU time per run, spread, **actions/s per core** (the targets:
50,000 on actions-only records, 20,000 with every fact claimed).

``fuzz``: a campaign of ``--games`` games against the reference peer as a subprocess
(``python -m engine.conformance.peers.reference``), no shrinking, with ``--jobs 1`` and ``--jobs 2``.  CPU
time here is the harness's and every peer's (children included, via ``resource``); the wall-clock games/s
and the speed-up of two jobs over one are printed too, since using more cores is the point (on a loaded
machine the speed-up reflects the load).
"""

from __future__ import annotations

import argparse
import io
import os
import random
import resource
import statistics
import sys
import time

from engine.conformance.records.check import check_record
from engine.conformance.records.format import record_game, write_record
from engine.game import facets, game_names, get_game
from engine.measure import Runs, calibrate, cpu_runs, header, line

__all__ = ["record_text", "run"]


def check_cases() -> tuple[tuple[str, int], ...]:
    """The records ``bench check`` replays: every game at its two largest bench player counts (its
    ``default_players`` facet), e.g. 6 nimmt! at 4 and 10 players."""
    return tuple((g, n) for g in game_names() for n in facets(g).default_players[-2:])

TARGETS = {False: 50_000, True: 20_000}
"""actions/s per core that ``arbiter check`` should reach: actions only, every fact claimed."""


def record_text(game_name: str, players: int, *, claims: bool, seed: int = 1) -> str:
    """A random full game's record as text (every fact claimed after every action with ``claims``)."""
    game = get_game(game_name)
    state = game.new_game(players, seed=seed)
    rng = random.Random(seed)
    actions = []
    while not game.is_terminal(state):
        action = rng.choice(game.legal_actions(state, game.to_act(state)[0]))
        actions.append(action)
        state = game.apply(state, action)
    out = io.StringIO()
    write_record(out, record_game(game_name, players=players, seed=seed, actions=actions, claims=claims))
    return out.getvalue()


def bench_check(seconds: float, repeats: int) -> None:
    """Print the ``check`` figures."""
    print(
        f"arbiter check: one random full game per line, records read from memory; {repeats} runs of "
        f"~{seconds / repeats:.2g} CPU s per line"
    )
    print(
        f"{'game':<10}  {'players':>7}  {'claims':<6}  {'actions':>7}  {'checks/run':>10}  "
        f"{header('records')}  {'target':>7}"
    )
    for game, players in check_cases():
        for claims in (False, True):
            text = record_text(game, players, claims=claims)

            def one(_i: int, text: str = text) -> int:
                report = check_record(io.StringIO(text), name="bench.jsonl")
                assert report.status == "ok", report.error or report.divergence
                return report.actions

            n = calibrate(one, seconds / repeats)

            def many(n: int = n, text: str = text) -> int:
                return sum(check_record(io.StringIO(text), name="bench.jsonl").actions for _ in range(n))

            raw = cpu_runs(many, repeats)
            runs = Runs(raw.seconds, n, raw.actions)
            target = TARGETS[claims]
            mark = "ok" if runs.actions_per_core >= target else "BELOW"
            print(
                f"{game:<10}  {players:>7}  {'all' if claims else 'none':<6}  {raw.actions // n:>7}  "
                f"{n:>10}  {line(runs)}  {target // 1000:>4}k {mark}"
            )


def _cpu_with_children() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def bench_fuzz(games: int, repeats: int) -> None:
    """Print the ``fuzz`` figures: a campaign on one job and on two."""
    from engine.conformance.campaign.fuzz import subprocess_peer
    from engine.conformance.campaign.runner import run_campaign

    peer = subprocess_peer(f"{sys.executable} -m engine.conformance.peers.reference")
    print(
        f"arbiter fuzz campaign: {games} games against the reference peer (a Python subprocess), no "
        f"shrinking; {repeats} runs per line; CPU includes the peers"
    )
    print(f"{'jobs':>4}  {header('games')}  {'wall games/s':>12}")
    walls: dict[int, float] = {}
    per_game: dict[int, float] = {}
    for jobs in (1, 2):
        wall: list[float] = []
        steps = 0

        def campaign(jobs: int = jobs, wall: list[float] = wall) -> int:
            start = time.monotonic()
            report = run_campaign(peer, games=games, jobs=jobs, seed=7, shrink=False)
            wall.append(time.monotonic() - start)
            assert report.games == games and not report.classes
            return report.steps

        raw = cpu_runs(campaign, repeats, clock=_cpu_with_children)
        steps = raw.actions
        runs = Runs(raw.seconds, games, steps)
        walls[jobs] = games / statistics.median(wall)
        per_game[jobs] = runs.median / games
        print(f"{jobs:>4}  {line(runs)}  {walls[jobs]:>12.2f}")
    load = os.getloadavg()[0]
    print(
        f"speed-up of 2 jobs over 1: {walls[2] / walls[1]:.2f}x measured on the wall clock (load average "
        f"{load:.1f} on {os.cpu_count()} cores); {2 * per_game[1] / per_game[2]:.2f}x on 2 idle cores, "
        f"from the CPU time per game (2 x CPU/game with 1 job / CPU/game with 2 jobs); target >= 1.7x"
    )


def run(args: argparse.Namespace) -> int:
    """``arbiter bench check`` / ``arbiter bench fuzz``."""
    if args.game == "check":
        bench_check(args.seconds, args.repeat)
    else:
        bench_fuzz(args.games, min(args.repeat, 3) if args.repeat == 5 else args.repeat)
    return 0
