"""Test vectors mined from seeded random games: the ``generated`` cases of ``arbiter vectors export``.

The kit tags every step of a game with the clauses it exercises and tries illegal actions at every
position; the shortest examples per clause and kind are kept (see :mod:`engine.conformance.vectors.suite`
for the case format).

>>> cases = generate_cases("take6", per_clause=1, games_per_config=1, hunt_games=0, players=[2])
>>> all(c.origin == "generated" for c in cases), len(cases) > 10
(True, True)
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from importlib import resources
from typing import Any

from attrs import frozen

from engine.conformance.kits.base import GameKit, get_kit
from engine.conformance.vectors.coverage import exemptions
from engine.conformance.vectors.suite import Case, Kind, setup_json, steps_json
from engine.errors import InputError, RuleViolation
from engine.game import Game, get_game
from engine.spec import load_clauses

__all__ = ["generate_cases"]


@frozen
class _Found:
    clause: str
    kind: Kind
    description: str
    setup: dict[str, Any]
    prelude: tuple[dict[str, Any], ...]
    actions: tuple[dict[str, Any], ...]
    expect: dict[str, Any]
    given: dict[str, Any]


def _mine_game(game: Game, kit: GameKit, variant: str, players: int, seed: int, *,
               want: dict[tuple[str, str], int], per_clause: int) -> Iterator[_Found]:
    """Play one seeded random game; yield positive and negative examples for clauses still wanted."""
    rng = random.Random(f"vectors:{game.name}:{variant}:{players}:{seed}")
    state = game.new_game(players, seed=seed, variant=variant)
    states = [state]
    actions: list[Any] = []
    options: dict[str, Any] = {}
    while not game.is_terminal(state):
        acting = game.to_act(state)
        # negatives at this position
        for action_json, description in kit.illegal_candidates(game, state, rng):
            try:
                illegal = game.action_from_json(action_json)
                game.apply(state, illegal)
            except RuleViolation as exc:
                if want.get((exc.clause, "reject"), 0) >= per_clause:
                    continue
                setup = setup_json(kit, variant, players, options, states)
                yield _Found(exc.clause, "reject", f"{description}: refused ({exc.message})", setup,
                             steps_json(game, kit, actions),
                             ({"player": kit.action_player(illegal), "action": action_json},),
                             {"reject": {"index": 0, "clause": exc.clause}, "facts": kit.facts(state)},
                             kit.facts(state))
            except InputError:
                continue
        player = acting[rng.randrange(len(acting))]
        legal = game.legal_actions(state, player)
        action = legal[rng.randrange(len(legal))]
        after = game.apply(state, action)
        tags = [c for c in kit.step_clauses(game, state, action, after)
                if want.get((c, "accept"), 0) < per_clause]
        if tags:
            setup = setup_json(kit, variant, players, options, [*states, after])
            text = " ".join(game.narrate(state, action, after))[:300] or "a legal action"
            for clause in tags:
                yield _Found(clause, "accept", text, setup, steps_json(game, kit, actions),
                             steps_json(game, kit, [action]), {"facts": kit.facts(after)}, kit.facts(state))
        actions.append(action)
        states.append(after)
        state = after
    # a finished game refuses every action
    if want.get((kit.game_over_clause, "reject"), 0) < per_clause:
        last = actions[-1]
        setup = setup_json(kit, variant, players, options, states)
        try:
            game.apply(state, last)
        except RuleViolation as exc:
            yield _Found(exc.clause, "reject", "an action after the end of the game", setup,
                         steps_json(game, kit, actions[:-1]), steps_json(game, kit, [actions[-1], last]),
                         {"reject": {"index": 1, "clause": exc.clause}, "facts": kit.facts(state)},
                         kit.facts(states[-2]))


def _hand_picked_clauses(game_name: str) -> frozenset[str]:
    source = resources.files("engine.conformance.vectors").joinpath("cases", f"{game_name}.json")
    try:
        rows = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return frozenset()
    return frozenset(c for row in rows for c in row["clauses"])


def generate_cases(game_name: str, *, per_clause: int = 2, games_per_config: int = 3, hunt_games: int = 40,
                   players: Sequence[int] | None = None) -> list[Case]:
    """Mine seeded random games of every variant for up to ``per_clause`` accept and reject examples per
    clause, preferring the earliest positions (short preludes).  Deterministic."""
    game = get_game(game_name)
    kit = get_kit(game_name)
    counts: dict[tuple[str, str], int] = {}
    found: dict[tuple[str, str], list[_Found]] = {}
    span = players or sorted({game.min_players, max(game.min_players, 2), 3, game.max_players}
                             & set(range(game.min_players, game.max_players + 1)))
    configs = [(v, n) for v in game.variants for n in span]

    def mine(variant: str, n: int, seed: int) -> bool:
        try:
            mined = list(_mine_game(game, kit, variant, n, seed, want=counts, per_clause=per_clause))
        except RuleViolation:
            return False  # this variant does not take n players
        for f in mined:
            key = (f.clause, f.kind)
            if counts.get(key, 0) >= per_clause:
                continue
            counts[key] = counts.get(key, 0) + 1
            found.setdefault(key, []).append(f)
        return True

    playable = []
    for variant, n in configs:
        if mine(variant, n, 0):
            playable.append((variant, n))
            for seed in range(1, games_per_config):
                mine(variant, n, seed)
    # hunt: more seeded games while a testable clause still lacks a vector of a kind it can have
    ex = exemptions(game_name)
    book = load_clauses(game_name)

    def missing() -> bool:
        return any(counts.get((c, k), 0) == 0 and k not in ex.get(c, {}) and not (k == "reject" and
                   c in hand_only) for c in book for k in ("accept", "reject"))

    hand_only = _hand_picked_clauses(game_name)
    seed = games_per_config
    while playable and seed < games_per_config + hunt_games and missing():
        variant, n = playable[seed % len(playable)]
        mine(variant, n, seed)
        seed += 1
    out: list[Case] = []
    for (clause, kind), items in sorted(found.items()):
        for i, f in enumerate(items, start=1):
            out.append(Case(f"{game_name}/{clause}/{kind}/{i}", game_name, (clause,), f.kind, f.description,
                            "generated", f.setup, f.prelude, f.actions, f.expect, f.given))
    return out

