"""6 nimmt! questions: bullheads of a card, where a card goes on given rows, a whole turn's resolution, set-up
and end of game — each answered by the engine's own tables and functions (``engine.take6.rules`` and the
pure placement function ``engine.take6.placement.place`` that the engine resolves every card with).

>>> from engine.query.questions import ask
>>> ask("bullheads", {"cards": [55]}).value
7
>>> ask("row", {"card": 33, "rows": [[12, 14, 19], [30], [29, 41, 52, 60, 71], [88]]}).value["row"]
1
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

import attrs

from engine.errors import InputError, RuleViolation
from engine.game import Game
from engine.query.explain import Explanation, register_explainer
from engine.query.model import Answer, Step
from engine.query.questions import Param, Question, game_handler, register
from engine.query.standings import check_scores, places, seat_names
from engine.query.take6_common import (
    GAME,
    _check_card,
    _check_rows,
    _parse_options,
    _place,
    _row_table,
    _rules_for,
    _rules_module,
    bullhead_rule,
    chosen_option,
    placement_steps,
    placement_value,
)
from engine.query.take6_turn import explain_action, resolve_turn
from engine.spec import load_clauses

importlib.import_module("engine.query.suggest")  # registers the shared search question


def _title(variant: str | None) -> str:
    rules = _rules_module()
    name = variant or rules.GAME_INFO.default_variant
    return f"{name} ({rules.VARIANTS[name].title})" if name in rules.VARIANTS else name


POSITION = Param("position", str, "the rows of a position instead (notation line, JSON state or @FILE)",
                 required=False, metavar="TEXT")
VARIANT = Param("variant", str, "variant (default standard)", required=False)
OPTION = Param("option", str, "a variant option NAME=VALUE (repeatable)", required=False, many=True,
               metavar="NAME=VALUE")


# --------------------------------------------------------------------------------------------------
# bullheads


def _bullheads(cards: list[int]) -> Answer:
    steps = []
    total = 0
    for card in cards:
        _check_card(card, "cards")
        value, clause = bullhead_rule(card)
        total += value
        steps.append(Step.of(clause, f"card {card}: {value} bullhead{'s' if value != 1 else ''}", value))
    steps.append(Step.of("T6-BULL-6", "the first matching rule of the table decides"))
    if len(cards) == 1:
        question = f"How many bullheads does card {cards[0]} carry?"
        summary = f"{total} bullhead{'s' if total != 1 else ''}"
    else:
        question = f"How many bullheads do cards {', '.join(map(str, cards))} carry together?"
        summary = f"{total} bullheads in all"
    return Answer(kind="bullheads", game=GAME, question=question, summary=summary, value=total, steps=steps)


register(Question(
    "bullheads", GAME, "bullheads of one card, or the total of several (a row you would take)",
    (Param("cards", int, "card number(s)", many=True, metavar="CARD"),),
    _bullheads,
    ("arbiter ask bullheads 55", "arbiter ask bullheads 21 22 25 30 33"),
))


# --------------------------------------------------------------------------------------------------
# row: where one card goes


def _position_rows(text: str) -> tuple[list[list[int]], str, dict[str, Any]]:
    """The rows, variant and options of a position (notation line, JSON state or @FILE)."""
    state = importlib.import_module("engine.positions").load_position(GAME, text, source="position")
    return [list(r) for r in state.rows], state.variant, dict(state.options)


def _row(card: int, rows: list[list[int]], variant: str | None, option: list[str],
         position: str | None = None) -> Answer:
    _check_card(card)
    options = _parse_options(option)
    if position is not None:
        rows, variant, options = _position_rows(position)
    rules = _rules_for(variant, _rules_module().GAME_INFO.min_players, options)
    if not rows:
        raise InputError("rows", "give the rows on the table, e.g. --rows '12 14 19' 30 '29 41' 88")
    clean = _check_rows(rows, card, rules.capacity)
    placement = _place(clean, card, variant, options)
    value = placement_value(clean, placement)
    if placement.row is None:
        summary = f"{card} fits no row: its player must choose a row to take, and {card} starts it"
    elif placement.sixth:
        summary = (f"row {placement.row}, as its 6th card: the player takes {value['takes']} "
                   f"({value['penalty']} bullheads) and {card} starts row {placement.row}")
    else:
        where = "after" if placement.side == "end" else "before"
        neighbour = clean[placement.row][-1] if placement.side == "end" else clean[placement.row][0]
        summary = f"row {placement.row}, {where} {neighbour}"
    shown = " | ".join(" ".join(map(str, r)) for r in clean)
    notes = []
    if variant not in (None, "standard"):
        notes.append(f"Variant: {_title(variant)}.")
    return Answer(
        kind="row", game=GAME, question=f"Where does card {card} go on the rows {shown}?", summary=summary,
        value=value, steps=placement_steps(clean, placement, rules.capacity, options),
        headers=("row", "cards", "n", "bullheads", "fits"), rows=_row_table(clean, placement), notes=notes,
    )


register(Question(
    "row", GAME, "which row a card goes to on given rows (candidates, differences, 6th card, low card)",
    (Param("card", int, "the card played"),
     Param("rows", list, "the rows on the table, each as its cards in order ('12 14 19')", required=False,
           many=True, metavar="ROW"),
     VARIANT, OPTION, POSITION),
    _row,
    ("arbiter ask row 33 --rows '12 14 19' 30 '29 41 52 60 71' 88",
     "arbiter ask row 10 --rows 20 '30 40' 50 60 --variant professional"),
))


# --------------------------------------------------------------------------------------------------
# turn: the cards of one turn resolved together (through the engine itself)


def _turn(rows: list[list[int]], cards: list[int], choose: list[str], variant: str | None,
          option: list[str], *, position: str | None = None) -> Answer:
    options = _parse_options(option)
    if len(cards) == 1 and not choose:  # one card alone: its placement, by the same placement function
        single = _row(cards[0], rows, variant, option, position)
        return attrs.evolve(single, kind="turn", notes=(*single.notes, "One card: where it goes on these "
                            "rows; give every player's card to resolve a whole turn."))
    if position is not None:
        rows, variant, options = _position_rows(position)
    return resolve_turn(rows, cards, choose, variant, options)


register(Question(
    "turn", GAME, "a whole turn: the revealed cards placed in ascending order on given rows, low cards "
    "waiting for their player's row choice",
    (Param("rows", list, "the rows on the table ('12 14 19')", many=True, required=False, metavar="ROW"),
     Param("cards", int, "the cards revealed this turn, one per player (seat order)", many=True,
           required=False, metavar="CARD"),
     Param("choose", str, "a low card's row choice CARD=ROW (repeatable)", many=True, required=False,
           metavar="CARD=ROW"),
     VARIANT, OPTION, POSITION),
    _turn,
    ("arbiter ask turn --rows 20 30 40 50 --cards 3 7 45",
     "arbiter ask turn --rows 20 30 40 50 --cards 3 7 45 --choose 3=0 7=1"),
))


# --------------------------------------------------------------------------------------------------
# set-up, end, variants


@game_handler("setup", GAME)
def setup_answer(players: int, variant: str | None, options: Mapping[str, Any]) -> Answer:
    """Set-up of a 6 nimmt! game for ``players`` in ``variant``, from the resolved rule tables."""
    r = _rules_for(variant, players, options)
    rules = _rules_module()
    spec = rules.VARIANTS[r.variant]
    book = load_clauses(GAME)
    steps = [Step.of("T6-SETUP-1", f"{players} players (the game takes {rules.GAME_INFO.min_players} to "
                     f"{rules.GAME_INFO.max_players})")]
    steps.append(Step.of(r.deck_clause, f"deck: cards {r.deck[0]} to {r.deck[-1]} ({len(r.deck)} cards, "
                         f"{sum(rules.bullheads(c) for c in r.deck)} bullheads)", len(r.deck)))
    hand = "a face-down pile" if r.play == "flip" else "a hand"
    how = "drafted face up one card at a time" if r.deal == "draft" else "dealt from the shuffled deck"
    steps.append(Step.of("T6-KIDS-1" if r.play == "flip" else "T6-SETUP-2",
                         f"each player gets {hand} of {r.hand_size} cards, {how}", r.hand_size))
    steps.append(Step.of("T6-KIDS-1" if r.play == "flip" else "T6-SETUP-3",
                         f"{r.rows} cards start {r.rows} rows", r.rows))
    steps.append(Step.of("T6-PLACE-2", f"a row holds at most {r.capacity} cards", r.capacity))
    left = len(r.deck) - r.cards_dealt
    for cid in spec.clauses:
        done = {s.clause for s in steps}
        if cid not in done and cid in book and book[cid].topic in ("logic", "kids", "tactics"):
            steps.append(Step.of(cid, book[cid].topic, chosen=chosen_option(cid, r.option_map)))
    value = {"variant": r.variant, "players": players, "deck": [r.deck[0], r.deck[-1]],
             "deck_size": len(r.deck), "bullheads": sum(rules.bullheads(c) for c in r.deck),
             "hand_size": r.hand_size, "rows": r.rows, "row_capacity": r.capacity, "left_over": left,
             "deal": r.deal, "play": r.play}
    return Answer(
        kind="setup", game=GAME,
        question=f"How is a {players}-player game of 6 nimmt! set up ({_title(variant)})?",
        summary=f"{r.hand_size} cards each, {r.rows} rows of one card, deck {r.deck[0]}..{r.deck[-1]}; "
                f"{left} card(s) stay out of play",
        value=value, steps=steps,
    )


@game_handler("end", GAME)
def end_answer(variant: str | None, options: Mapping[str, Any]) -> Answer:
    """When a 6 nimmt! game ends and who wins, in ``variant``, from the resolved end table."""
    rules = _rules_module()
    r = _rules_for(variant, rules.GAME_INFO.min_players, options)
    steps: list[Step] = []
    if r.end == "threshold":
        if r.display == "countdown":
            steps.append(Step.of("T6-COUNT-1", f"everyone starts at {r.countdown_from} points and loses one "
                                 "per bullhead; the game ends after a round in which someone is at 0 or "
                                 "below"))
        steps.append(Step.of("T6-ROUND-2", "each round's bullheads are added to the players' totals"))
        steps.append(Step.of("T6-END-1", "the game ends after a round in which a total reaches "
                             f"{r.threshold}", r.threshold))
        if r.display == "countdown":
            left = r.countdown_from - r.threshold
            summary = (f"after the round in which some player is at {left} points or below "
                       f"({r.threshold} bullheads taken); the most points left wins, ties share")
        else:
            summary = (f"after the round in which some player's total reaches {r.threshold} bullheads; "
                       f"the {r.winner} total wins, ties share")
    else:
        steps.append(Step.of("T6-KIDS-3", f"the game is {r.rounds} round; it ends when every pile is "
                             "played out", r.rounds))
        summary = f"after {r.rounds} round, when every pile is played; the {r.winner} total wins, ties share"
    steps.append(Step.of("T6-KIDS-4" if r.winner == "highest" else "T6-END-2",
                         f"the {'most' if r.winner == 'highest' else 'fewest'} bullheads win"))
    steps.append(Step.of("T6-END-3", "tied players share the win"))
    value = {"variant": r.variant, "kind": r.end, "threshold": r.threshold, "rounds": r.rounds,
             "winner": r.winner, "ties": "share"}
    return Answer(kind="end", game=GAME, question=f"When does a game of 6 nimmt! end, and who wins "
                  f"({_title(variant)})?", summary=summary, value=value, steps=steps)


@game_handler("variants", GAME)
def variants_answer() -> Answer:
    """The 6 nimmt! variants and options, from the variants and options tables."""
    rules = _rules_module()
    rows = []
    for name, spec in rules.VARIANTS.items():
        opts = [f"{o.name} ({'/'.join(o.values)})" for o in rules.OPTIONS.values() if name in o.variants]
        rows.append([name, spec.title, ", ".join(opts) or "—", ", ".join(spec.clauses)])
    steps = [Step.of("T6-VAR-1", "each variant is a row of the variants table")]
    steps += [Step.of(o.clause, f"option {o.name} = {' | '.join(o.values)}: {o.doc}")
              for o in rules.OPTIONS.values()]
    return Answer(kind="variants", game=GAME, question="Which variants and options does 6 nimmt! have?",
                  summary=", ".join(rules.VARIANTS), value=list(rules.VARIANTS), steps=steps,
                  headers=("variant", "what changes", "options", "clauses"), rows=rows)


# --------------------------------------------------------------------------------------------------
# explain: a 6 nimmt! action in a state


@register_explainer(GAME)
def explain_take6(game: Game, state: Any, action: Any, refusal: RuleViolation | None) -> Explanation:
    """Where a selected card will go on the current rows, or what a row choice takes."""
    result: Explanation = explain_action(game, state, action, refusal)
    return result


# --------------------------------------------------------------------------------------------------
# standings


@game_handler("standings", GAME)
def standings_answer(position: str | None, scores: list[int], money: list[int], variant: str | None,
                     option: list[str]) -> Answer:
    """Rank the seats of a 6 nimmt! position or of plain scores, through the engine's own ``rank``
    (T6-END-2, T6-END-3; kids T6-KIDS-4, countdown T6-COUNT-1)."""
    if money:
        raise InputError("money", "6 nimmt! has no money: give --scores only")
    narration = importlib.import_module("engine.take6.narration")
    scoring = importlib.import_module("engine.take6.scoring")
    notes: list[str] = []
    if position is not None:
        load = importlib.import_module("engine.positions").load_position
        state = load("take6", position, source="position")
        rules = state.rules
        taken = tuple(int(x) for x in state.penalties)
        over = state.phase == "over"
        source = f"the position (round {state.round})"
    else:
        check_scores(scores, "scores")
        rules = _rules_for(variant, len(scores), _parse_options(option))
        if rules.countdown_from is not None:
            taken = tuple(rules.countdown_from - s for s in scores)
            source = "points left " + " ".join(map(str, scores))
        else:
            taken = tuple(scores)
            source = "bullheads " + " ".join(map(str, scores))
        # plain scores of a threshold game are final once a total reached it; the kids game's are final
        over = rules.end != "threshold" or any(t >= rules.threshold for t in taken)
    result = scoring.rank(taken, rules)
    shown = [narration.shown(rules, t) for t in taken]
    unit = "points left" if rules.display == "countdown" else "bullheads"
    steps: list[Step] = []
    if rules.display == "countdown":
        steps.append(Step.of("T6-COUNT-1", f"countdown: each player's {rules.countdown_from} points minus "
                             "the bullheads taken; the most points left wins"))
    if rules.winner == "highest":
        steps.append(Step.of("T6-KIDS-4", "kids: the most bullheads taken wins"))
    else:
        steps.append(Step.of("T6-END-2", "the fewest bullheads taken wins"))
    place = places(result.ranking, {p: taken[p] for p in result.ranking})
    tied = [p for p in result.ranking if sum(1 for q in result.ranking if place[q] == place[p]) > 1]
    if tied:
        steps.append(Step.of("T6-END-3", f"{seat_names(tied)} are tied: they share the place (no tie-break)"))
    else:
        steps.append(Step(None, "no two seats are tied: every place is one seat's"))
    if rules.end == "threshold":
        reached = [p for p in range(len(taken)) if taken[p] >= rules.threshold]
        if reached:
            steps.append(Step.of("T6-END-1", f"{seat_names(reached)} reached {rules.threshold} bullheads: "
                                 "the game ends after that round", rules.threshold))
        else:
            steps.append(Step.of("T6-END-1", f"no total has reached {rules.threshold}: the game goes on "
                                 "(standings so far)", rules.threshold))
    elif not over:
        steps.append(Step.of("T6-KIDS-3", "the game ends when every pile is played out (standings so far)"))
    if not over:
        notes.append("The game is not over: these are the standings so far.")
    rows = [[str(place[p]), f"P{p}", str(shown[p]), "winner" if p in result.winners else ""]
            for p in result.ranking]
    win = seat_names(result.winners)
    lead = "win" if over else "lead"
    summary = (f"{win} {lead + ('' if len(result.winners) > 1 else 's')}"
               + (" (tied, shared)" if len(result.winners) > 1 else "")
               + f"; order {' > '.join(f'P{p}' for p in result.ranking)} by {unit}")
    value = {"game": "take6", "variant": rules.variant, "ranking": list(result.ranking),
             "winners": list(result.winners), "over": over,
             "places": [{"seat": p, "place": place[p], "score": shown[p], "bullheads": taken[p]}
                        for p in result.ranking]}
    return Answer(kind="standings", game="take6", question=f"Who wins 6 nimmt! ({rules.variant}) from "
                  f"{source}?", summary=summary, value=value, steps=steps,
                  headers=("place", "seat", unit, "result"), rows=rows, notes=notes)
