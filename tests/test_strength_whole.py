"""Rules and guards the whole-set mutation run found unpinned (``python -m engine.mutation --budget 5
--journal ...``, docs/robustness.md): each test here kills a mutant that survived the tests selected for it,
and says which rule or guard it pins."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import InputError
from engine.game import facets, get_game
from engine.take6.codec import action_from_json, state_from_json, state_to_json
from engine.take6.layout import MAXP


@pytest.mark.parametrize("patch", [{"start": 3}, {"start": 4}, {"pending": [[5, 3]]}, {"pending": [[5, 4]]}])
def test_a_take6_json_state_names_a_seat_beyond_the_table(patch: dict[str, Any]) -> None:
    """T6-SETUP-1: a 3-player JSON state whose start player or pending card's owner is seat 3 or 4 is
    refused by the codec naming that field (seats are 0 to 2), before any builder sees it."""
    data = {**state_to_json(get_game("take6").new_game(3, seed=1)), **patch}
    field = "start" if "start" in patch else "pending[0][1]"
    with pytest.raises(InputError) as err:
        state_from_json(data)
    assert err.value.field == field and "from 0 to 2" in str(err.value)


@pytest.mark.parametrize("kind", ["select", "take_row", "draft", "flip"])
@pytest.mark.parametrize("seat", [MAXP, MAXP + 1])
def test_a_take6_json_action_names_a_seat_no_table_has(kind: str, seat: int) -> None:
    """T6-SETUP-1: an action's ``player`` beyond the largest table (seats 0 to MAXP - 1) is refused by the
    codec naming ``player``."""
    data: dict[str, Any] = {"type": kind, "player": seat}
    data.update({"select": {"card": 5}, "draft": {"card": 5}, "take_row": {"row": 0}}.get(kind, {}))
    with pytest.raises(InputError) as err:
        action_from_json(data)
    assert err.value.field == "player" and f"from 0 to {MAXP - 1}" in str(err.value)


@pytest.mark.parametrize("name", ["take6", "petersburg"])
def test_the_benchmark_player_counts_are_player_counts_of_the_game(name: str) -> None:
    """The registry's ``default_players`` (what ``arbiter bench`` measures) are distinct, ascending and
    each a number of players the game allows."""
    counts = facets(name).default_players
    game = get_game(name)
    assert list(counts) == sorted(set(counts))
    for n in counts:
        game.new_game(n, seed=1)  # raises for a count the game does not allow
    with pytest.raises(Exception, match="player"):
        game.new_game(max(counts) + 1, seed=1)
