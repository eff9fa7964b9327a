"""Round three, class 1: a number written in text is read by one function (:func:`engine.digits.read_int`),
ASCII digits only; superscript, subscript, circled or another script's digits are refused with one line
naming the field, exit code 2, never a ``ValueError`` from ``int`` (docs/robustness.md, "Round three")."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cli import main
from engine.digits import MAX_DIGITS, number, read_int
from engine.errors import InputError
from engine.game import get_game

STRANGE_DIGITS = ["¹", "²³", "⁵⁵", "₇", "①", "٣", "５", "𝟠", "߂", "1_0", " 5", "+5", "--5", "-"]
"""Digits ``str.isdigit`` accepts and ``int`` refuses (or reads although they are not ASCII), and forms
``int`` reads that are not plain digits."""

PLAIN = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")


@given(text=st.one_of(st.text(max_size=25), st.from_regex(r"\A-?[0-9]{1,22}\Z"),
                      st.lists(st.sampled_from([*STRANGE_DIGITS, "0", "7", "-"]), max_size=4).map("".join)),
       signed=st.booleans())
def test_read_int_accepts_exactly_ascii_digits(text: str, signed: bool) -> None:
    """Property: ``read_int`` returns ``int(text)`` exactly when the text is ASCII digits (a leading ``-``
    where signed) of at most 19 digits; anything else is an InputError naming the field, nothing else."""
    plain = PLAIN.fullmatch(text) is not None and (signed or not text.startswith("-"))
    assert (number(text, signed=signed) is not None) == plain
    try:
        value = read_int(text, "field", signed=signed)
    except InputError as exc:
        assert not plain and exc.field == "field"
        return
    assert plain and value == int(text)


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str], field: str) -> None:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse refuses a flag's value itself
        code = exc.code if isinstance(exc.code, int) else 2
    err = capsys.readouterr().err
    assert code == 2, (argv, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("arbiter: error: "), err
    assert field in lines[0] and "Traceback" not in err, lines[0]


TAKE6_LINE = "standard 2 select 3.10/22/40.41.45/90 23.8.60/7.9.70 - - 12/0"


@pytest.mark.parametrize("digit", ["¹", "²³", "⁵⁵", "₇", "①", "٣"])
@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["ask", "row", "5", "--rows", "{}", "22", "40", "90"], "rows"),
        (["ask", "row", "{}", "--rows", "55", "22", "40", "90"], "card"),
        (["ask", "turn", "--rows", "20", "30", "40", "50", "--cards", "3", "5", "--choose", "3={}"],
         "choose"),
        (["play", "take6", "--from", TAKE6_LINE.replace("23.8", "{}.8")], "hands (token 5"),
        (["play", "take6", "--from", TAKE6_LINE.replace("12/0", "{}/0")], "totals (token 8"),
        (["play", "take6", "--from", TAKE6_LINE.replace(" 2 ", " {} ")], "round (token 2"),
        (["explain", "take6", "--position", TAKE6_LINE.replace("3.10", "{}.10"), "--action", "{{}}"], "rows"),
        (["show", "take6", "--position", TAKE6_LINE + " seed={}"], "seed (token 9"),
        (["ask", "row", "5", "--position", TAKE6_LINE + " start={}"], "start (token 9"),
        (["play", "take6", "--seed", "{}"], "--seed"),
        (["play", "take6", "--players", "{}"], "--players"),
        (["ask", "bullheads", "{}"], "CARD"),
    ],
)
def test_unicode_digits_are_refused_naming_the_field(
    capsys: pytest.CaptureFixture[str], argv: list[str], field: str, digit: str
) -> None:
    """Class 1: every number of an argument, an ``ask`` parameter or a position's notation, written with
    digits ``int`` refuses (or reads although not ASCII), is one error line naming the field, exit code 2."""
    _refused(capsys, [a.format(digit) for a in argv], field)


def test_search_with_a_superscript_digit_answers(capsys: pytest.CaptureFixture[str]) -> None:
    """Class 1 (the fresh clone's failure): ``ask search ¹`` looks the word up instead of crashing."""
    assert main(["ask", "search", "¹"]) == 0
    assert "nothing matches" in capsys.readouterr().out


@pytest.mark.parametrize("game", ["take6", "petersburg"])
def test_every_number_of_a_notation_line_refuses_unicode_digits(game: str) -> None:
    """Class 1: each number of a real position's notation line, replaced by a superscript, subscript or
    circled digit, is an InputError naming its token (the notation readers, ``play --from``, ``show``,
    the assistant's tools all read through them)."""
    g = get_game(game)
    rng = random.Random(24)
    state = g.new_game(players=3, seed=5)
    for _ in range(12):
        if g.is_terminal(state):
            break
        state = g.apply(state, rng.choice(g.legal_actions(state)))
    line = g.to_notation(state)
    spans = [m.span() for m in re.finditer(r"[0-9]+", line)]
    assert len(spans) > 5
    for start, end in spans:
        for strange in ("¹", "₇", "①", "٣"):
            with pytest.raises(InputError) as err:
                g.from_notation(line[:start] + strange + line[end:])
            assert "(token " in err.value.field, err.value


def test_the_assistant_refuses_unicode_digits_as_input() -> None:
    """Class 1: the assistant's tools answered ``internal: ValueError``; now the position's error."""
    from engine.assistant.tools import call

    calls: list[tuple[str, dict[str, Any]]] = [
        ("legal_actions", {"game": "take6", "position": TAKE6_LINE.replace("23.8", "²³.8")}),
        ("ask_row", {"card": 5, "rows": "⁵⁵ 22 40 90"}),
    ]
    for name, args in calls:
        with pytest.raises(InputError):
            call(name, args)
