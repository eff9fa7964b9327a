"""Setting up a Saint Petersburg game: the explicit :class:`Setup` (stack orders and start-player markers),
the seeded one (SP-SETUP-7), and the first state of a game (SP-SETUP-1..6).

>>> s = Setup.seeded(3, seed=1)
>>> [len(x) for x in s.stacks], sorted(s.markers.count(p) for p in range(3))
([31, 28, 27, 30], [1, 1, 2])
"""

from __future__ import annotations

import random
from typing import Any

from attrs import frozen

from engine.derivation import Trace
from engine.errors import IllegalSetup
from engine.petersburg.catalog import PHASES, SHIPPED, STACKS, Book
from engine.petersburg.model import State
from engine.petersburg.names import resolve_card
from engine.petersburg.ruleset import Ruleset, ruleset

__all__ = ["Setup", "initial_state", "seeded_setup", "setup_spec"]


@frozen
class Setup:
    """An explicit set-up: each stack's order (top card first) and the seat holding each phase's marker.

    ``stacks`` = (worker, building, aristocrat, trading), card names of any edition or alias;
    ``markers`` = (worker, building, aristocrat, trading) -> seat.  ``GAME.new_game(n, setup=...)`` checks it
    against the catalog and the player-count table (IllegalSetup, SP-SETUP-6).  ``Setup.seeded`` gives the
    set-up a seed produces (SP-SETUP-7).

    >>> s = Setup.seeded(3, seed=1)
    >>> [len(x) for x in s.stacks], sorted(s.markers.count(p) for p in range(3))
    ([31, 28, 27, 30], [1, 1, 2])
    """

    stacks: tuple[tuple[str, ...], ...]
    markers: tuple[int, ...]

    @classmethod
    def seeded(cls, players: int, *, seed: int = 0, variant: str | None = None) -> Setup:
        """The set-up the seeded shuffle produces (see :func:`seeded_setup`)."""
        return seeded_setup(players, seed=seed, variant=variant)


def seeded_setup(players: int, *, seed: int = 0, variant: str | None = None, book: Book = SHIPPED) -> Setup:
    """The set-up a seed produces (SP-SETUP-7).

    ``rng = random.Random(f"petersburg:{seed}")``; for each stack in the order worker, building,
    aristocrat, trading: the catalog's cards of that stack in catalog order, each repeated ``copies``
    times, ``rng.shuffle``d (index 0 = top).  Then ``d = rng.randrange(players)``: seat ``(d + i) % players``
    gets the ``i``-th marker count of the set-up table; the seats are listed in seat order, each repeated
    by its count; ``phases = [0, 1, 2, 3]`` is ``rng.shuffle``d and marker ``phases[j]`` goes to the ``j``-th
    listed seat.

    >>> seeded_setup(2, seed=5) == seeded_setup(2, seed=5)
    True
    """
    rs = ruleset(variant, book=book)
    spec = setup_spec(players, book)
    rng = random.Random(f"petersburg:{seed}")
    stacks = []
    for kinds in rs.stack_kinds:
        cards = [k for k in kinds for _ in range(rs.cards[k].copies)]
        rng.shuffle(cards)
        stacks.append(tuple(rs.names[k] for k in cards))
    d = rng.randrange(players)
    counts = [0] * players
    for i, c in enumerate(spec.markers):
        counts[(d + i) % players] = c
    seats = [s for s in range(players) for _ in range(counts[s])]
    phases = list(range(len(PHASES)))
    rng.shuffle(phases)
    markers = [0] * len(PHASES)
    for j, ph in enumerate(phases):
        markers[ph] = seats[j]
    return Setup(stacks=tuple(stacks), markers=tuple(markers))


def setup_spec(players: int, book: Book = SHIPPED) -> Any:
    """The set-up table row of a player count in ``book`` (IllegalSetup SP-GAME-1 for any other count)."""
    if isinstance(players, bool) or not isinstance(players, int) or players not in book.setups:
        raise IllegalSetup(
            "SP-GAME-1",
            f"players must be {book.meta['min_players']}..{book.meta['max_players']}, got {players!r}",
        )
    return book.setups[players]


def initial_state(players: int, rs: Ruleset, setup: Setup, trace: Trace | None = None) -> State:
    """The state at the start of the first worker phase, from a checked explicit set-up (SP-SETUP-6).

    With ``trace``, each fact the set-up decides is recorded as a step saying that fact (the derivation
    :meth:`~engine.petersburg.game.PetersburgGame.derive_start` returns): the stacks (SP-SETUP-1), the
    workers drawn into the upper row (SP-SETUP-4), the roubles and the scoring track (SP-SETUP-2), the
    start-player markers (SP-SETUP-3)."""
    spec = setup_spec(players, rs.book)
    if not isinstance(setup, Setup):
        raise IllegalSetup("SP-SETUP-6", f"setup must be a Setup, got {type(setup).__name__}")
    if not isinstance(setup.stacks, tuple | list) or len(setup.stacks) != len(STACKS):
        raise IllegalSetup("SP-SETUP-6", f"setup.stacks must hold {len(STACKS)} stacks ({', '.join(STACKS)})")
    stacks: list[tuple[int, ...]] = []
    for st, cards in enumerate(setup.stacks):
        kinds = []
        for i, name in enumerate(cards):
            k = resolve_card(name) if isinstance(name, str) else None
            if k is None:
                raise IllegalSetup("SP-SETUP-6", f"setup.stacks[{STACKS[st]}][{i}]: unknown card {name!r}")
            if rs.stack[k] != st:
                raise IllegalSetup(
                    "SP-SETUP-6",
                    f"setup.stacks[{STACKS[st]}][{i}]: {rs.names[k]} belongs to the "
                    f"{STACKS[rs.stack[k]]} stack",
                )
            kinds.append(k)
        for k in rs.stack_kinds[st]:
            if kinds.count(k) != rs.cards[k].copies:
                raise IllegalSetup(
                    "SP-SETUP-6",
                    f"setup.stacks[{STACKS[st]}]: {kinds.count(k)} x {rs.names[k]}, "
                    f"the catalog has {rs.cards[k].copies}",
                )
        stacks.append(tuple(kinds))
    markers = tuple(setup.markers) if isinstance(setup.markers, tuple | list) else ()
    if len(markers) != len(PHASES) or not all(
        isinstance(m, int) and not isinstance(m, bool) and 0 <= m < players for m in markers
    ):
        raise IllegalSetup(
            "SP-SETUP-6",
            f"setup.markers must give a seat 0..{players - 1} for each of the "
            f"{len(PHASES)} phases, got {setup.markers!r}",
        )
    if sorted(markers.count(p) for p in range(players)) != sorted(spec.markers):
        raise IllegalSetup(
            spec.clause,
            f"setup.markers: with {players} players the seats hold "
            f"{sorted(spec.markers)} markers, got {sorted(markers.count(p) for p in range(players))}",
        )
    workers = stacks[0]
    n0 = spec.first_workers
    stacks[0] = workers[n0:]
    opening, phase_index, turn = 1, 0, markers[0]  # round 1, its first phase, the phase's marker's holder
    if trace is not None:
        names = rs.names
        trace.add("SP-SETUP-1", "stacks", {"stacks": [len(st) for st in stacks]},
                  note="the four stacks, shuffled face down, less the workers drawn")
        trace.add("SP-SETUP-4", "upper", {"upper": [names[k] for k in workers[:n0]]},
                  note=f"{n0} workers drawn from the worker stack into the upper row")
        trace.add("SP-SETUP-2", "money", {"money": [spec.money] * players},
                  note=f"each player takes {spec.money} roubles")
        trace.add("SP-SETUP-2", "scores", {"scores": [0] * players}, note="each figure on space 0")
        trace.add("SP-SETUP-3", "markers", {"markers": list(markers)}, note="the start-player markers dealt")
        first = rs.book.phases[phase_index].name
        trace.add("SP-PHASE-1", "opens", {"round": opening, "phase": first},
                  note=f"the first round opens with the {first} phase")
        trace.add("SP-PHASE-2", "first", {"to_act": [turn]},
                  note=f"the {first} phase's start-player marker's holder acts first")
    return State(
        rules=rs,
        players=players,
        round=opening,
        phase_index=phase_index,
        turn=turn,
        passes=0,
        stacks=tuple(stacks),
        upper=workers[:n0],
        lower=(),
        discard=(),
        money=(spec.money,) * players,
        vp=(0,) * players,
        hands=((),) * players,
        areas=((),) * players,
        turned=((),) * players,
        markers=markers,
        drawn=-1,
        pub_queue=(),
        last_round=False,
        over=False,
    )
