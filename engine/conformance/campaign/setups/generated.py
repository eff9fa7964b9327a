"""Generated set-ups of differential games: player counts per variant, and the Hypothesis strategy.

>>> player_counts({"take6": ("standard",)}, [2, 3])
{'take6/standard': (2, 3)}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from attrs import evolve
from hypothesis import strategies as st

from engine.conformance.campaign.setups.base import GameSetup, SetupMaker
from engine.errors import InputError
from engine.game import facet_module, get_game

__all__ = ["player_counts", "setup_maker", "setups"]


def setup_maker(game: str) -> SetupMaker:
    """The set-up maker of ``game``: the ``SETUPS`` of the module its registration names as its
    ``fuzz_setups`` facet (``engine/conformance/campaign/setups/<game>.py``).

    >>> type(setup_maker("take6")).__name__
    'Take6Setups'
    """
    maker: SetupMaker = facet_module(game, "fuzz_setups").SETUPS
    return maker


def player_counts(
    offered: Mapping[str, Sequence[str]], players: Sequence[int] | None = None,
    ranges: Mapping[tuple[str, str], tuple[int, int]] | None = None,
) -> dict[str, tuple[int, ...]]:
    """``"game/variant"`` → the player counts to generate: the game's range, narrowed to the range the
    peer's ``hello`` gives for that variant (if any) and to ``players`` (if given).  A variant left with
    no count is dropped; none left at all is an InputError naming ``--players``."""
    out: dict[str, tuple[int, ...]] = {}
    for name, variants in offered.items():
        game = get_game(name)
        for variant in variants:
            lo, hi = (ranges or {}).get((name, variant), (game.min_players, game.max_players))
            counts = tuple(n for n in range(max(lo, game.min_players), min(hi, game.max_players) + 1)
                           if not players or n in players)
            if counts:
                out[f"{name}/{variant}"] = counts
    if not out:
        raise InputError("--players", f"no player count left to generate (asked {list(players or [])}; "
                         "the peer's and the games' ranges exclude them)")
    return out


def setups(
    offered: Mapping[str, Sequence[str]], players: Sequence[int] | None = None, max_steps: int = 1000,
    counts: Mapping[str, Sequence[int]] | None = None,
) -> st.SearchStrategy[GameSetup]:
    """Game set-ups for the games/variants ``offered`` (shrinking: first game, first variant, fewest
    players, then the maker's own draws); ``counts`` (see :func:`player_counts`) gives each variant's
    player counts."""
    from engine.conformance.kits.base import get_kit

    table = dict(counts) if counts is not None else player_counts(offered, players)
    playable = {g: [v for v in vs if f"{g}/{v}" in table] for g, vs in offered.items()}
    playable = {g: vs for g, vs in playable.items() if vs}

    @st.composite
    def draw(data: st.DrawFn) -> GameSetup:
        name = data(st.sampled_from(sorted(playable)))
        game = get_game(name)
        variant = data(st.sampled_from(playable[name]))
        n = data(st.sampled_from(list(table[f"{name}/{variant}"])))
        base = GameSetup(name, variant, n, None)
        maker = setup_maker(name)
        return evolve(base, setup=maker.draw(data, game, get_kit(name), base, max_steps))

    return draw()

