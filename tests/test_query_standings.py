"""``arbiter ask standings``: every seat ranked, from a position or from scores, by the engine's own ranking,
with the tie-break clauses of the variant and options asked about."""

from __future__ import annotations

import pytest

from engine.assistant.tools import call
from engine.errors import InputError
from engine.game import get_game
from engine.query.cli import answer_for_command
from engine.query.questions import ask


def test_money_tie_break_follows_the_keep_roubles_option() -> None:
    """SP-END-8, SP-END-6: VP 23/23 with 30/19 roubles — seat 0 wins with the roubles kept; with
    keep_roubles=false the roubles left after converting (0 and 9) give seat 1 the win."""
    kept = answer_for_command("arbiter ask standings petersburg --scores 23 23 --money 30 19")
    assert kept.value["winners"] == [0] and kept.value["ranking"] == [0, 1]
    assert {"SP-END-8", "SP-END-6"} <= set(kept.clauses)
    assert "SP-END-9" not in kept.clauses  # nobody is tied on VP and roubles: the shared place is not applied
    left = answer_for_command(
        "arbiter ask standings petersburg --scores 23 23 --money 30 19 --option keep_roubles=false")
    assert left.value["winners"] == [1]
    assert [p["tiebreak"] for p in left.value["places"]] == [9, 0]


def test_petersburg_full_tie_shares_the_place() -> None:
    """SP-END-9: tied on VP and roubles, both seats share first place; a third seat is third; the answer
    rests on the ruling SP-END-9 and says so."""
    a = ask("standings", {"game": "petersburg", "scores": [30, 30, 12], "money": [5, 5, 40]})
    assert a.value["winners"] == [0, 1]
    assert [p["place"] for p in a.value["places"]] == [1, 1, 3]
    assert "SP-END-9" in [r.id for r in a.rulings]


@pytest.mark.parametrize(("variant", "scores", "winners"), [
    (None, [40, 12, 70], [1]),
    ("tactics", [12, 12, 66], [0, 1]),
    ("professional", [3, 70], [0]),
    ("logic", [66, 10], [1]),
    ("kids", [10, 30, 30], [1, 2]),
    ("countdown", [26, 54, 0], [1]),
])
def test_take6_standings_in_every_variant(variant: str | None, scores: list[int], winners: list[int]) -> None:
    """T6-END-2, T6-END-3, T6-KIDS-4, T6-COUNT-1: the fewest bullheads win (kids: the most; countdown scores
    are the points left, the most left wins); ties share."""
    params: dict[str, object] = {"game": "take6", "scores": scores}
    if variant:
        params["variant"] = variant
    a = ask("standings", params)
    assert a.value["winners"] == winners
    tied = len(set(scores)) < len(scores)
    assert ("T6-END-3" in a.clauses) == tied  # the shared place is applied only to a tie
    assert ("T6-KIDS-4" if variant == "kids" else "T6-END-2") in a.clauses
    if variant == "countdown":
        assert "T6-COUNT-1" in a.clauses and a.value["places"][0]["bullheads"] == 12


def test_standings_from_a_finished_position_match_the_games_result() -> None:
    """SP-END-8, T6-END-2: from a finished game's position the ranking is the game's own result."""
    from engine.play import play_game

    for name in ("take6", "petersburg"):
        game = get_game(name)
        _log, final = play_game(name, players=3, seed=5)
        a = ask("standings", {"game": name, "position": game.to_notation(final)})
        result = game.result(final)
        assert a.value["ranking"] == list(result.ranking)
        assert a.value["winners"] == list(result.winners)
        assert a.value["over"] is True


def test_standings_refuse_bad_input_naming_the_field() -> None:
    """Input: scores without money (Saint Petersburg), money for 6 nimmt!, both or neither of position and
    scores, negative scores."""
    with pytest.raises(InputError) as e:
        ask("standings", {"game": "petersburg", "scores": [20, 10]})
    assert e.value.field == "money"
    with pytest.raises(InputError) as e:
        ask("standings", {"game": "take6", "scores": [20, 10], "money": [1, 1]})
    assert e.value.field == "money"
    with pytest.raises(InputError) as e:
        ask("standings", {"game": "take6"})
    assert e.value.field == "--position/--scores"
    with pytest.raises(InputError) as e:
        ask("standings", {"game": "take6", "scores": [-1, 3]})
    assert e.value.field == "scores"


def test_the_assistant_tool_gives_the_same_answer() -> None:
    """The MCP tool ask_standings answers as the command line does."""
    r = call("ask_standings", {"game": "petersburg", "scores": [23, 23], "money": [30, 19],
                               "option": ["keep_roubles=false"]})
    assert r.data["value"]["winners"] == [1]
    assert "SP-END-6" in r.data["clauses"]


@pytest.mark.parametrize("variant", ["first", "second"])
def test_petersburg_standings_in_both_editions(variant: str) -> None:
    """SP-END-8, SP-VARIANT-1: both editions rank by VP, then roubles."""
    a = ask("standings", {"game": "petersburg", "scores": [10, 12, 12], "money": [0, 4, 7],
                          "variant": variant})
    assert a.value["ranking"] == [2, 1, 0] and a.value["variant"] == variant


def test_the_standings_table_labels_every_column() -> None:
    """SP-END-8, SP-END-6: the table's last column is labelled; with the roubles kept, no tie-break column
    repeats them; with keep_roubles=false the roubles left are their own labelled column; no step says a
    place is shared by nobody."""
    kept = ask("standings", {"game": "petersburg", "scores": [23, 23], "money": [30, 19]})
    assert kept.headers == ("place", "seat", "VP", "roubles", "result")
    left = ask("standings", {"game": "petersburg", "scores": [23, 23], "money": [30, 19],
                             "option": ["keep_roubles=false"]})
    assert left.headers == ("place", "seat", "VP", "roubles", "roubles left (tie-break)", "result")
    take6 = ask("standings", {"game": "take6", "scores": [40, 12, 70]})
    assert take6.headers[-1] == "result" and all(h for h in take6.headers)
    for answer in (kept, left, take6):
        assert not any("nobody" in s.detail for s in answer.steps)


def test_the_player_count_refusal_names_its_clause() -> None:
    """SP-GAME-1, T6-SETUP-1: a set-up for a player count the game does not take is refused naming the
    rule, in both games."""
    for game, players, clause in (("petersburg", 5, "SP-GAME-1"), ("take6", 11, "T6-SETUP-1")):
        with pytest.raises(InputError) as err:
            ask("setup", {"game": game, "players": players})
        assert err.value.field == "players" and err.value.message.startswith(f"{clause}: ")


def test_one_bullhead_is_singular() -> None:
    """T6-PLACE-3: a turn whose player takes one bullhead says '1 bullhead', not '1 bullheads'."""
    answer = ask("turn", {"rows": [[21], [30], [40], [50]], "cards": [3, 60], "choose": ["3=0"]})
    assert "P0 took 1 bullhead" in answer.summary and "1 bullheads" not in answer.summary
