"""Generated set-ups of differential games: player counts per variant, and the Hypothesis strategy.

>>> player_counts({"take6": ("standard",)}, [2, 3])
{'take6/standard': (2, 3)}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from attrs import evolve
from hypothesis import strategies as st

from engine.conformance.setup_base import GameSetup, SetupMaker
from engine.conformance.setup_petersburg import PetersburgSetups
from engine.conformance.setup_take6 import Take6Setups
from engine.errors import InputError
from engine.game import get_game

__all__ = ["SETUP_MAKERS", "player_counts", "setup_maker", "setups"]

SETUP_MAKERS: dict[str, SetupMaker] = {"take6": Take6Setups(), "petersburg": PetersburgSetups()}
"""Game name → its set-up maker (``setup_<game>.py``); a game not listed uses the generic seeded
:class:`~engine.conformance.setup_base.SetupMaker`."""


def setup_maker(game: str) -> SetupMaker:
    """The set-up maker of ``game``."""
    return SETUP_MAKERS.get(game) or SetupMaker()


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
    from engine.conformance.kits import get_kit

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

