"""``arbiter bench GAME | check | fuzz | envs``: speed figures, as median CPU time over repeated runs.

* ``arbiter bench GAME``: full random games on both API tiers.  The random policy picks uniformly among the
  legal actions of the first player who must act; the checked tier applies every action through
  :meth:`Game.apply` (validated), the unchecked tier through :meth:`Game.apply_unchecked`.
* ``arbiter bench check``: ``arbiter check`` on records with actions only and with every fact claimed after
  every action (:mod:`engine.conformance.campaign.bench`).
* ``arbiter bench fuzz``: a campaign against the reference peer as a subprocess, with one job and with two.
* ``arbiter bench envs``: the PettingZoo environments' steps/s beside the bare engine loop's
  (:mod:`engine.envs.bench`; needs the ``pettingzoo`` extra).
* ``arbiter bench search``: the plain-language search's recall@3 over its question set, and its speed
  (:mod:`engine.query.bench_search`; ``--questions FILE`` for another set).
* ``arbiter bench mcp``: ``arbiter mcp`` under load, 40 drawings at scale 8 and 40 rule lookups: answer
  times, memory (:mod:`engine.assistant.bench`; needs the ``mcp`` extra).
* ``arbiter bench diagnosis``: how often a campaign's diagnosis names the defect of a generated peer (one
  edit of the rules, two at once, a code mutant of a rule module), with the median diagnosis CPU per class
  (:mod:`engine.conformance.diagnosis.rates`; ``--faults``, ``--pairs``, ``--mutants``, ``--games``,
  ``--seed``, ``--max-steps``).  Rates, not speed: each draw runs once.

Every line is measured ``--repeat`` times on the same work and prints the **median CPU time** of a run with
its spread (``±`` half the range, relative to the median) and the rate per core (work / median CPU time).
A loaded machine stretches wall-clock time, not the CPU time a run consumes, so these figures compare
across runs; wall-clock rates are printed only where parallelism is the point (``fuzz``).  Figures are
printed, never asserted: speed is measured here, not in a timed test.
"""

from __future__ import annotations

import argparse
import importlib
import random
from collections.abc import Sequence
from typing import Any

from engine import cliargs
from engine.bots import playout
from engine.conformance.campaign import bench as bench_conformance
from engine.errors import InputError
from engine.game import Game, facets, game_names, get_game
from engine.measure import Runs, calibrate, cpu_runs, header, line

SUITES = ("check", "fuzz", "envs", "search", "mcp", "diagnosis")
"""Benchmarks that are not a game."""

FUZZ_GAMES = 48
"""``bench fuzz``: games per campaign unless ``--games`` says."""


def measure(
    game: Game,
    players: int,
    *,
    checked: bool,
    seconds: float,
    repeats: int = 5,
    seed: int = 0,
    variant: str | None = None,
) -> Runs:
    """Full random games from fixed seeds (set-up included), ``repeats`` runs of about ``seconds /
    repeats`` CPU seconds each."""

    def one(i: int) -> int:
        state = game.new_game(players, seed=seed + i, variant=variant)
        _final, n = playout(game, state, random.Random(seed + i), checked=checked)
        return n

    games = calibrate(one, seconds / max(1, repeats))

    def run() -> int:
        return sum(one(i) for i in range(games))

    runs = cpu_runs(run, repeats)
    return Runs(runs.seconds, games, runs.actions)


def _bench_envs(args: argparse.Namespace) -> int:
    """``arbiter bench envs``: the PettingZoo environments' steps/s beside the engine's (needs the extra)."""
    try:
        envs_bench = importlib.import_module("engine.envs.bench")
    except ImportError:
        raise InputError(
            "bench envs", "needs the pettingzoo extra: pip install 'arbiter-rules[pettingzoo]'"
        ) from None
    argv = ["--repeats", str(args.repeat)]
    if args.players:
        argv += ["--players", str(args.players[0])]
    code: int = envs_bench.main(argv)
    return code


def run(args: argparse.Namespace) -> int:
    """Entry point of ``arbiter bench``."""
    if not 0 < args.seconds <= 3600:  # also refuses nan
        raise InputError("--seconds", f"expected a duration in (0, 3600], got {args.seconds}")
    if args.game == "envs":
        return _bench_envs(args)
    if args.game == "search":
        code: int = importlib.import_module("engine.query.bench_search").run(args)
        return code
    if args.game == "mcp":
        code = importlib.import_module("engine.assistant.bench").main([])
        return code
    if args.game == "diagnosis":
        code = importlib.import_module("engine.conformance.diagnosis.rates").bench(args)
        return code
    if args.games is None:
        args.games = FUZZ_GAMES
    if args.game in SUITES:
        return bench_conformance.run(args)
    game = get_game(args.game)
    counts: tuple[int, ...] = (
        tuple(args.players)
        if args.players
        else facets(game.name).default_players
    )
    print(
        f"{game.title}: random games to the end; {args.repeat} runs of ~{args.seconds / args.repeat:.2g} "
        f"CPU s per line (median, ± half the range)"
    )
    print(f"{'players':>7}  {'tier':<9}  {'games/run':>9}  {header('games')}")
    for n in counts:
        for checked in (False, True):
            runs = measure(
                game, n, checked=checked, seconds=args.seconds, repeats=args.repeat, variant=args.variant
            )
            tier = "checked" if checked else "unchecked"
            print(f"{n:>7}  {tier:<9}  {runs.work:>9}  {line(runs)}")
    return 0


def register(sub: Any) -> None:
    """Add ``bench`` to the command line."""
    p = sub.add_parser(
        "bench",
        help="speed figures (median CPU time over repeated runs): games, check, fuzz, envs; search recall; "
        "mcp under load; the diagnosis's rates",
        description="Speed figures, as median CPU time over repeated runs with the spread: a game's "
        "playouts (GAME), record checking (check), fuzz campaigns (fuzz), the PettingZoo environments "
        "beside the bare engine loop (envs, needs the pettingzoo extra), the plain-language search's "
        "recall over its question set with its speed (search), or the assistant's answer times under load "
        "(mcp, needs the mcp extra; more options: python -m engine.assistant.bench --help), or how often a "
        "campaign's diagnosis names the defect of generated peers (diagnosis).",
    )
    choices: Sequence[str] = (*game_names(), *SUITES)
    p.add_argument(
        "game",
        choices=choices,
        metavar="GAME|check|fuzz|envs|search|mcp|diagnosis",
        help=f"a game ({', '.join(game_names())}), or check, fuzz, envs (the PettingZoo environments), "
        "search (the plain-language search's recall), mcp (the assistant under load), diagnosis (its rates)",
    )
    p.add_argument("--players", type=cliargs.count("--players", hi=cliargs.MAX_SEAT + 1), action="append",
                   help="player count (repeatable)")
    p.add_argument("--seconds", type=cliargs.seconds("--seconds", hi=3600), default=3.0,
                   help="CPU seconds per line, all runs (default 3)")
    p.add_argument("--repeat", type=cliargs.count("--repeat"), default=5, help="runs per line (default 5)")
    p.add_argument("--variant", default=None, help="a game's variant (default: the standard game)")
    p.add_argument("--games", type=cliargs.count("--games"), default=None,
                   help=f"fuzz: games per campaign (default {FUZZ_GAMES}); diagnosis: games per campaign "
                   "(default 8)")
    p.add_argument("--faults", type=cliargs.count("--faults", lo=0), default=None,
                   help="diagnosis: single edits drawn, the games in turn (default 40)")
    p.add_argument("--pairs", type=cliargs.count("--pairs", lo=0), default=None,
                   help="diagnosis: pairs of edits drawn (default 16)")
    p.add_argument("--mutants", type=cliargs.count("--mutants", lo=0), default=None,
                   help="diagnosis: code mutants of the rule modules drawn (default 60)")
    p.add_argument("--max-steps", type=cliargs.count("--max-steps"), default=None,
                   help="diagnosis: actions per game at most (default 300)")
    p.add_argument("--seed", type=cliargs.seed("--seed"), default=None,
                   help="diagnosis: the draw's seed (default 1)")
    p.add_argument("--again", metavar="REPORT", action="append", default=None,
                   help="diagnosis: run again the code mutants a saved report (both streams) counted, each "
                   "with its campaign seed, instead of a draw (repeatable)")
    p.add_argument("--questions", metavar="FILE", default=None,
                   help="search: the question set (default tests/data/search-questions.toml)")
    p.set_defaults(run=run)
