"""Every answer marks the rulings it rests on (issue 27, item 1).

The answers are generated, not hand-picked: every ``arbiter ask`` question kind of both games is asked
with its own examples and with questions built from the tables (every player count, variant and option
value, every card, random scores and turns), and ``arbiter explain`` is asked about legal and illegal
actions of random games.  For each answer whose chain applies a ruling's clause (a clause the clause book
gives a ``ruling``), the answer must carry that ruling as data (the step's ``ruling``, ``Answer.rulings``,
the JSON ``rulings`` field) and show it in text (a marked line naming it).  Every ruling of ``arbiter rules
--disputed`` must be reached by some generated answer that applies it — apart from the listing questions
(``disputed``, ``rule``, ``mentions``, ``search``), which name every ruling without resting on it — or be
one of the few rulings no answer can rest on, each with its reason.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine.derivation import Ruling, Step, Trace, ruling_of
from engine.errors import InputError, RuleViolation
from engine.game import get_game
from engine.query import rulesref
from engine.query.explain import explain
from engine.query.model import Answer
from engine.query.questions import all_questions, ask
from engine.query.render import render_answer

LISTINGS = {"disputed", "rule", "mentions", "search"}
"""Question kinds that list clauses (every ruling among them) rather than rest on them."""

NO_ANSWER_RESTS_ON = {
    "T6-SETUP-4": "the seeded shuffle: no question deals a game (ask setup states the deal's sizes)",
    "T6-SETUP-5": "checking an explicit deal: a bad deal is refused (InputError), never answered",
    "SP-SETUP-5": "what an observation hides: no question asks for a player's observation",
    "SP-SETUP-6": "checking an explicit set-up: a bad set-up is refused (InputError), never answered",
    "SP-SETUP-7": "the seeded shuffle: no question deals a game (ask setup states the deal's sizes)",
}


def _commands() -> Iterator[str]:
    """Command lines: every question kind's examples, then questions built from the tables."""
    catalog = importlib.import_module("engine.petersburg.catalog")
    from engine.take6 import rules as t6

    for q in all_questions().values():
        yield from q.examples
    for variant in t6.VARIANTS:
        yield f"arbiter ask end take6 --variant {variant}"
        for n in (2, 5, 7, 10):
            yield f"arbiter ask setup take6 {n} --variant {variant}"
        for o in t6.OPTIONS.values():
            if variant in o.variants:
                for value in o.values:
                    yield f"arbiter ask setup take6 6 --variant {variant} --option {o.name}={value}"
    for n in catalog.SETUPS:
        yield f"arbiter ask setup petersburg {n}"
    for o in catalog.OPTIONS.values():
        for setting in ("true", "false"):
            yield f"arbiter ask end petersburg --option {o.name}={setting}"
    rng = random.Random(27)
    for _ in range(40):
        n = rng.randint(1, 4)
        vp = [rng.randint(20, 24) for _ in range(n)]
        money = [rng.choice([5, 19, 30, 31]) for _ in range(n)]
        keep = rng.choice(["", " --option keep_roubles=false"])
        yield (f"arbiter ask standings petersburg --scores {' '.join(map(str, vp))} "
               f"--money {' '.join(map(str, money))}{keep}")
        m = rng.randint(2, 6)
        scores = [rng.choice([12, 12, 40, 66, 70]) for _ in range(m)]
        variant = rng.choice(["standard", "kids", "countdown", "tactics"])
        yield f"arbiter ask standings take6 --scores {' '.join(map(str, scores))} --variant {variant}"
        rows = sorted(rng.sample(range(1, 105), 4))
        cards = rng.sample([c for c in range(1, 105) if c not in rows], 3)
        yield f"arbiter ask turn --rows {' '.join(map(str, rows))} --cards {' '.join(map(str, cards))}"
        for variant in ("standard", "professional"):
            for option in ("", " --option professional_tie=start" if variant == "professional" else ""):
                yield (f"arbiter ask row {cards[0]} --rows {' '.join(map(str, rows))} --variant {variant}"
                       + option)
    yield "arbiter ask turn --rows 20 30 40 50 --cards 3 7 45 --choose 3=1"
    yield "arbiter ask row 25 --rows 20 30 50 60 --variant professional"
    yield "arbiter ask row 25 --rows 20 30 50 60 --variant professional --option professional_tie=start"
    rs = importlib.import_module("engine.petersburg").ruleset("first")
    for name in sorted(set(rs.names)):
        yield f'arbiter ask card "{name}"'
    for owns in ("", ' --owns "Carpenter Workshop"', ' --owns "Gold Smelter"'):
        for option in ("", " --option trading_discount=false"):
            yield f"arbiter ask cost Bank --displace \"Potjomkin's Village\"{owns}{option}"
            yield f'arbiter ask cost Author{owns}{option}'
    for n in (3, 10, 12):
        yield f"arbiter ask bonus {n}"
    yield "arbiter ask final --owns Author Administrator Pope --money 27 --hand Market"


def _explanations() -> Iterator[Answer]:
    """``explain`` answers on random games of both games (every variant): a random legal action and an
    action of a seat that must not act now, every few steps."""
    for name, variants, players in (("take6", ("standard", "professional", "logic", "kids"), (2, 4)),
                                    ("petersburg", ("first", "second"), (1, 2, 3, 4))):
        game = get_game(name)
        for seed, (variant, n) in enumerate((v, n) for v in variants for n in players):
            rng = random.Random(seed)
            options: dict[str, Any] = {}
            if variant == "professional":
                options = {"professional_tie": "start"} if seed % 2 else {}
            elif variant == "logic" and seed % 2:
                options = {"logic_start": "rotate"}
            elif name == "petersburg" and seed % 2:
                options = {"trading_discount": False}
            state = game.new_game(n, seed=seed, variant=variant, options=options)
            for step in range(400):
                if game.is_terminal(state):
                    break
                acting = game.to_act(state)
                seat = rng.choice(acting)
                actions = game.legal_actions(state, seat)
                action = rng.choice(actions)
                shown = game.action_to_json(action)
                if "row" in shown:  # a row choice: also one naming no row on the table
                    yield explain(name, state, {**shown, "row": 9})
                if step % 9 == 0:
                    yield explain(name, state, shown)
                    idle = [p for p in range(n) if p not in acting]
                    if idle:
                        other = game.action_to_json(game.legal_actions(state, seat)[0])
                        other["player"] = idle[0]
                        with contextlib.suppress(InputError):  # a seat the action's form refuses
                            yield explain(name, state, other)
                state = game.apply(state, action)


@functools.cache
def _answers() -> tuple[Answer, ...]:
    from engine.query.cli import answer_for_command

    out: list[Answer] = []
    for command in dict.fromkeys(_commands()):
        try:
            out.append(answer_for_command(command))
        except InputError:
            continue  # e.g. a random turn whose cards the variant's deck does not hold
    out.extend(_explanations())
    return tuple(out)


def _ruling_clauses() -> dict[str, Any]:
    return {c.id: c for c in rulesref.disputed(None)}


def test_every_step_applying_a_ruling_carries_it() -> None:
    """Each step of a generated answer whose clause is a ruling carries that ruling (its id, the reading it
    rejects, the option for the other reading), and no other step carries one."""
    rulings = _ruling_clauses()
    for answer in _answers():
        for step in answer.steps:
            if step.clause in rulings:
                assert step.ruling is not None and step.ruling.id == step.clause, (answer.question, step)
                if not step.ruling.chosen:
                    assert step.ruling.rejects == (rulings[step.clause].rejects or "")
            elif step.ruling is not None:
                assert step.ruling.chosen, (answer.question, step)


def test_every_answer_resting_on_a_ruling_marks_it_in_text_and_json() -> None:
    """An answer whose chain applies a ruling shows it: a marked line naming the ruling in the text answer
    (``--brief`` too), and the JSON ``rulings`` field and the step's ``ruling`` field."""
    for answer in _answers():
        data = answer.to_json()
        brief = "\n".join(render_answer(answer, width=100, brief=True))
        for ruling in answer.rulings:
            assert f"ruling {ruling.id}" in brief, (answer.question, ruling.id, brief)
            assert ruling.to_json() in data["rulings"]
            assert any(s["ruling"] == ruling.to_json() for s in data["steps"])
        if not answer.rulings:
            assert data["rulings"] == [] and "! ruling" not in brief


def test_every_ruling_is_reached_and_marked() -> None:
    """Every ruling of ``rules --disputed`` is applied, and marked, by some generated answer of a question
    that rests on it (not a listing question), in both games; only the rulings no answer can rest on are
    left, each with its reason."""
    reached: set[str] = set()
    for answer in _answers():
        if answer.kind not in LISTINGS:
            reached.update(r.id for r in answer.rulings)
    missing = sorted(set(_ruling_clauses()) - reached - set(NO_ANSWER_RESTS_ON))
    assert missing == [], f"rulings no generated answer rests on: {missing}"
    assert not reached & set(NO_ANSWER_RESTS_ON), "listed as unreachable but reached: drop it from the list"
    kinds = {a.kind for a in _answers() if a.rulings}
    assert {"setup", "standings", "explain", "turn", "row", "cost", "end", "bullheads"} <= kinds


def test_every_question_kind_is_walked() -> None:
    """The walk asks every registered question kind (both games' and the shared ones) and explain."""
    asked = {a.kind for a in _answers()}
    assert set(all_questions()) | {"explain"} <= asked


@pytest.mark.parametrize(("command", "ruling", "line"), [
    ("arbiter ask setup petersburg 3", "SP-SETUP-3", "! ruling SP-SETUP-3: start-player markers"),
    ("arbiter ask standings petersburg --scores 23 23 --money 30 19", "SP-END-6",
     "the other reading: `--option keep_roubles=false`"),
    ("arbiter ask standings take6 --scores 30 30 70", "T6-END-3", "! ruling T6-END-3: P0 and P1 are tied"),
])
def test_the_known_cases_say_which_ruling_they_rest_on(command: str, ruling: str, line: str) -> None:
    """Issue 27's three answers that stated more than their quotes now mark the ruling they rest on."""
    from engine.query.cli import answer_for_command

    answer = answer_for_command(command)
    assert ruling in [r.id for r in answer.rulings]
    text = " ".join(" ".join(render_answer(answer, width=200)).split())
    assert line in text


def test_an_options_other_reading_is_marked_as_chosen() -> None:
    """SP-END-6, SP-COST-5, T6-PRO-3: with the option that selects a ruling's other reading, the answer
    says it applies that option (``chosen``) instead of the ruling."""
    kept = ask("standings", {"game": "petersburg", "scores": [23, 23], "money": [30, 19],
                             "option": ["keep_roubles=false"]})
    assert [(r.id, r.option, r.chosen) for r in kept.rulings] == [("SP-END-6", "keep_roubles=false", True)]
    cost = ask("cost", {"card": "Bank", "displace": "Potjomkin's Village",
                        "owns": ["Carpenter Workshop"], "option": ["trading_discount=false"]})
    assert ("SP-COST-5", True) in [(r.id, r.chosen) for r in cost.rulings]
    row = ask("row", {"card": 25, "rows": [[20], [30], [50], [60]], "variant": "professional",
                      "option": ["professional_tie=start"]})
    assert [(r.id, r.chosen) for r in row.rulings] == [("T6-PRO-3", True)]


def test_a_derivation_step_round_trips_its_ruling() -> None:
    """Step.to_json / Step.from_json keep the ruling (the clause book's, an option's chosen one, and none
    where a step was made without it); a malformed ruling is refused naming the field."""
    trace = Trace()
    with trace.step("SP-END-8", "result"):
        trace.add("SP-END-6", "tiebreak-money", {"seat": 0}, chosen="keep_roubles=false")
        trace.add("SP-END-9", "shared")
    root = trace.steps[0]
    bare = Step("SP-END-9", "shared", ruling=None)
    for step in (root, bare, Step("T6-DECK-1", "deck")):
        assert Step.from_json(step.to_json()) == step
    assert [r.id for r in root.rulings()] == ["SP-END-6", "SP-END-9"]
    assert root.steps[0].ruling == ruling_of("SP-END-6", "keep_roubles=false")
    with pytest.raises(InputError) as err:
        Step.from_json({"clause": "SP-END-6", "says": "x", "ruling": {"id": "SP-END-6", "rejects": 3}})
    assert err.value.field == "step.ruling.rejects"
    assert Ruling.from_json(ruling_of("T6-PRO-3").to_json()) == ruling_of("T6-PRO-3")  # type: ignore[union-attr]


def test_each_option_names_its_ruling_and_each_ruling_its_option() -> None:
    """The options tables and the clause book agree: an option's clause is a ruling whose ``alternative``
    names that option with a value other than its default (``option NAME=VALUE``), and a ruling naming an
    option names one that exists for it."""
    catalog = importlib.import_module("engine.petersburg.catalog")
    from engine.take6 import rules as t6

    defaults = {o.name: (o.clause, str(o.default).lower()) for o in catalog.OPTIONS.values()}
    defaults.update({o.name: (o.clause, o.default) for o in t6.OPTIONS.values()})
    for name, (clause, default) in defaults.items():
        ruling = ruling_of(clause)
        assert ruling is not None and ruling.option is not None, clause
        opt, _sep, value = ruling.option.partition("=")
        assert opt == name and value != default, (clause, ruling.option)
    for clause in _ruling_clauses():
        ruling = ruling_of(clause)
        assert ruling is not None
        if ruling.option is not None:
            assert ruling.option.partition("=")[0] in defaults, clause


def test_a_refusal_resting_on_a_ruling_is_marked() -> None:
    """T6-CHOOSE-1: explain refuses a row choice while no card waits; the refusal rests on the ruling and
    says so."""
    game = get_game("take6")
    state = game.new_game(2, seed=1)
    answer = explain("take6", state, {"type": "take_row", "player": 0, "row": 0})
    assert answer.value["legal"] is False
    assert answer.value["clause"] in [r.id for r in answer.rulings]
    with pytest.raises(RuleViolation):
        game.apply(state, game.action_from_json({"type": "take_row", "player": 0, "row": 0}))
