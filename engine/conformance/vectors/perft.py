"""Perft counts: the number of distinct legal action sequences of length 1, 2, ... d from named positions.

``DIR/perft.jsonl`` of an exported suite (schema ``perft.schema.json``) holds them, a checksum of another
implementation's move generator.  The counts ship in ``engine/conformance/vectors/data/perft.jsonl``; the test
suite recomputes them.

>>> from engine.game import get_game
>>> g = get_game("take6")
>>> perft_counts(g, g.new_game(2, seed=1), 2)
[20, 200]
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from attrs import frozen

from engine.conformance.kits.base import get_kit
from engine.conformance.records.format import schema_error, validator
from engine.conformance.vectors.suite import json_lines, setup_json, start_position, steps_json
from engine.errors import InputError, SpecError
from engine.game import Game, game_names, get_game

__all__ = [
    "MAX_PERFT_SEQUENCES",
    "PERFT_PLAN",
    "PerftPosition",
    "perft_counts",
    "perft_positions",
    "read_perft",
    "recount_perft",
    "shipped_perft",
]

MAX_PERFT_SEQUENCES = 10_000_000
"""The most action sequences (summed over the depths) a perft line of ``arbiter vectors run`` may claim."""


def perft_counts(game: Game, state: Any, depth: int, limits: Sequence[int] | None = None) -> list[int]:
    """Counts of distinct legal action sequences of length 1..depth from ``state`` (every seat that must act,
    every legal action; sequences reaching the end early are not extended).

    With ``limits`` (the expected counts) the walk stops as soon as a count exceeds its limit: the result
    then differs from ``limits``, and a wrong claim costs no more time than a right one.

    >>> from engine.game import get_game
    >>> g = get_game("take6")
    >>> perft_counts(g, g.new_game(3, seed=2), 1)
    [30]
    >>> perft_counts(g, g.new_game(3, seed=2), 3, limits=[30, 5, 0])
    [10, 10, 0]
    """
    counts = [0] * depth
    with contextlib.suppress(_Exceeded):
        _perft_walk(game, state, depth, counts, limits)
    return counts


class _Exceeded(Exception):
    pass


def _perft_walk(game: Game, state: Any, depth: int, counts: list[int], limits: Sequence[int] | None) -> None:
    to_act = game.to_act
    legal = game.legal_actions
    apply = game.apply_unchecked

    def walk(node: Any, level: int) -> None:
        for seat in to_act(node):
            actions = legal(node, seat)
            counts[level] += len(actions)
            if limits is not None and counts[level] > limits[level]:
                raise _Exceeded
            if level + 1 < depth:
                for action in actions:
                    walk(apply(node, action), level + 1)

    walk(state, 0)


@frozen
class PerftPosition:
    """A named perft position: explicit set-up, prelude and its counts."""

    id: str
    game: str
    description: str
    setup: Mapping[str, Any]
    prelude: tuple[Mapping[str, Any], ...]
    counts: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON form (one line of perft.jsonl)."""
        return {"id": self.id, "game": self.game, "description": self.description, "setup": dict(self.setup),
                "prelude": [dict(s) for s in self.prelude], "counts": list(self.counts)}


PERFT_PLAN: tuple[tuple[str, str, int, int, int, int, str], ...] = (
    # (game, variant, players, seed, prelude length, depth, description)
    ("take6", "standard", 2, 1, 0, 4, "start of a 2-player game"),
    ("take6", "standard", 3, 2, 0, 3, "start of a 3-player game"),
    ("take6", "standard", 2, 3, 23, 3, "mid-round, 2 players"),
    ("take6", "professional", 2, 4, 0, 4, "professional start, 2 players"),
    ("take6", "tactics", 4, 5, 0, 3, "tactics start, 4 players"),
    ("take6", "logic", 2, 6, 0, 3, "logic: the draft"),
    ("petersburg", "first", 2, 1, 0, 4, "start of a 2-player game"),
    ("petersburg", "first", 4, 2, 0, 3, "start of a 4-player game"),
    ("petersburg", "first", 2, 3, 45, 4, "2 players, later in the game"),
    ("petersburg", "second", 3, 4, 0, 3, "second edition, 3 players"),
)
"""The named perft positions: a seeded game played ``prelude`` random legal steps, then counted."""


def perft_positions(games: Iterable[str] | None = None) -> list[PerftPosition]:
    """Compute the perft positions of :data:`PERFT_PLAN` (slow-ish: run by the regeneration command)."""
    out: list[PerftPosition] = []
    wanted = set(games or game_names())
    for game_name, variant, players, seed, plen, depth, description in PERFT_PLAN:
        if game_name not in wanted:
            continue
        game = get_game(game_name)
        if variant not in game.variants:
            continue
        kit = get_kit(game_name)
        rng = random.Random(f"perft:{game_name}:{variant}:{players}:{seed}")
        state = game.new_game(players, seed=seed, variant=variant)
        states = [state]
        actions: list[Any] = []
        for _ in range(plen):
            acting = game.to_act(state)
            if not acting:
                break
            legal = game.legal_actions(state, acting[0])
            action = legal[rng.randrange(len(legal))]
            actions.append(action)
            state = game.apply(state, action)
            states.append(state)
        counts = perft_counts(game, state, depth)
        # the set-up must hold every deal the counted sequences may reach: record the deals of a playout
        # continuing past the counted depth
        probe = state
        tail = [probe]
        for _ in range(depth):
            acting = game.to_act(probe)
            if not acting:
                break
            probe = game.apply_unchecked(probe, game.legal_actions(probe, acting[0])[0])
            tail.append(probe)
        setup = setup_json(kit, variant, players, {}, [*states, *tail[1:]])
        out.append(PerftPosition(f"{game_name}/{variant}-{players}p-seed{seed}-ply{len(actions)}", game_name,
                                 description, setup, steps_json(game, kit, actions), tuple(counts)))
    return out


def shipped_perft() -> list[dict[str, Any]]:
    """The perft positions shipped in ``engine/conformance/vectors/data/perft.jsonl`` (schema-checked)."""
    v = validator("perft")
    source = resources.files("engine.conformance.vectors").joinpath("data", "perft.jsonl")
    text = source.read_text(encoding="utf-8")
    out = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if raw.strip():
            data = json.loads(raw)
            problem = schema_error(v, data)
            if problem:
                where = f"conformance/vectors/data/perft.jsonl line {lineno}"
                raise SpecError(f"{where}: {problem[0]}: {problem[1]}")
            data.pop("seal", None)  # a file's seal is no part of its positions (engine.outputs)
            out.append(data)
    return out


def recount_perft(data: Mapping[str, Any], *, bounded: bool = False) -> list[int]:
    """Recompute the counts of one perft position (its JSON form) on the reference engine; ``bounded``
    stops the walk where a count exceeds the claimed one (see :func:`perft_counts`)."""
    game = get_game(data["game"])
    kit = get_kit(data["game"])
    state = start_position(game, kit, data["setup"], data["prelude"])
    return perft_counts(game, state, len(data["counts"]), data["counts"] if bounded else None)


def perft_problem(data: Any) -> tuple[str, str] | None:
    """The first schema violation of a perft line: ``perft.schema.json``, then the game's schemas for the
    set-up and every prelude action; ``(json path, message)`` or ``None``.

    >>> perft_problem([])
    ('', "[] is not of type 'object'")
    """
    problem = schema_error(validator("perft"), data)
    if problem:
        return problem
    parts = [("setup.setup", "setup", data["setup"]["setup"])]
    parts += [(f"prelude[{i}].action", "action", s["action"]) for i, s in enumerate(data["prelude"])]
    for path, definition, value in parts:
        sub = schema_error(validator(data["game"], definition), value)
        if sub:
            return (f"{path}.{sub[0]}" if sub[0] else path), sub[1]
    return None


def read_perft(path: str | Path) -> Iterator[dict[str, Any]]:
    """Stream the positions of a ``perft.jsonl`` file, each checked against ``perft.schema.json``."""
    for where, data in json_lines(path):
        problem = perft_problem(data)
        if problem:
            raise InputError(f"{where}: {problem[0]}" if problem[0] else where, problem[1])
        if sum(data["counts"]) > MAX_PERFT_SEQUENCES:
            raise InputError(f"{where}: counts", f"more than the {MAX_PERFT_SEQUENCES} sequences recounted")
        yield data

