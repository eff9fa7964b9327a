"""Test vectors: a language-neutral conformance suite (``arbiter vectors export DIR``): the case model.

In the spirit of test262 and chess perft files, every case is one JSON object on one line of
``DIR/<game>.jsonl`` (schema: ``vector.schema.json``)::

    {"id": "take6/T6-PLACE-2/accept/1", "game": "take6", "clauses": ["T6-PLACE-2"], "kind": "accept",
     "description": "...", "origin": "generated",
     "setup": {"variant": "standard", "players": 2, "options": {}, "setup": <explicit set-up>},
                                                            (or "setup": null, "position": <notation line>)
     "prelude": [{"player": 0, "action": {...}}, ...],     legal actions leading to the tested position
     "given": {<facts of the tested position>},
     "actions": [{"player": 1, "action": {...}}],           the tested action(s)
     "expect": {"facts": {<facts after the actions>}}}      or {"reject": {"index": 0, "clause": "T6-..."},
                                                               "facts": {<unchanged facts>}}
                                                            or {"reject_setup": {"clause": "T6-SETUP-5"}}

An accept case whose actions finish the game may also expect the result: ``"expect": {"facts": {...},
"result": {"winners": [0, 1]}}`` (the seats sharing first place, ascending) — the facts alone cannot tell a
shared win from a tie broken by some further criterion.

An implementation passes a case when, starting from the explicit set-up, it accepts every prelude action,
reaches the ``given`` facts, then accepts the tested actions and reaches the expected facts (and, with
``expect.result``, a finished game with those winners) — or refuses the action at ``reject.index`` (citing
``reject.clause`` if it names rules at all) and stays where it was.  Facts
use the vocabulary of :mod:`engine.conformance.kits.base` (documented in ``docs/conformance.md``).

Cases come from two sources: **hand-picked** edge cases (``engine/conformance/vectors/cases/<game>.json``: a
set-up, actions and hand-written expected facts that the engine must reproduce at export — an independent
oracle) and
**generated** ones, mined from seeded random games: the kit tags every step with the clauses it exercises
and tries illegal actions at every position, keeping the shortest examples per clause.

``DIR/perft.jsonl`` (schema ``perft.schema.json``) holds perft counts: the number of distinct legal action
sequences of length 1, 2, ... d from named positions, a checksum of another implementation's move

This module holds the case model, the reference runner of a case (:func:`run_case`), the reader of a
vectors file and the hand-picked cases. :mod:`engine.conformance.vectors.mine` mines the generated cases,
:mod:`engine.conformance.vectors.coverage` counts the cases of every clause,
:mod:`engine.conformance.vectors.perft` holds the perft counts and :mod:`engine.conformance.vectors.export`
writes the suite; ``arbiter vectors`` is :mod:`engine.conformance.vectors.cli`.

>>> run_case(hand_picked_cases("take6")[0].to_json()).passed
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Protocol

from attrs import frozen

from engine import jsonio
from engine.conformance.kits.base import GameKit, get_kit
from engine.conformance.records.format import fast_check, schema_error, validator
from engine.errors import InputError, RuleViolation, SpecError
from engine.game import Game, get_game
from engine.jsonio import NO_FILES
from engine.positions import load_position
from engine.spec import load_clauses

__all__ = [
    "Case",
    "CaseOutcome",
    "Rules",
    "hand_picked_cases",
    "json_lines",
    "position_case",
    "read_vectors",
    "run_case",
    "setup_json",
    "start_position",
    "steps_json",
    "vector_problem",
]

Kind = Literal["accept", "reject", "reject-setup"]


# --------------------------------------------------------------------------------------------------
# Cases


@frozen
class Case:
    """One test vector (see the module docstring for the JSON form)."""

    id: str
    game: str
    clauses: tuple[str, ...]
    kind: Kind
    description: str
    origin: Literal["hand-picked", "generated"]
    setup: Mapping[str, Any]
    prelude: tuple[Mapping[str, Any], ...]
    actions: tuple[Mapping[str, Any], ...]
    expect: Mapping[str, Any]
    given: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The case as one JSON object (key order fixed for readable files)."""
        out: dict[str, Any] = {
            "id": self.id, "game": self.game, "clauses": list(self.clauses), "kind": self.kind,
            "description": self.description, "origin": self.origin, "setup": dict(self.setup),
            "prelude": [dict(s) for s in self.prelude],
        }
        if self.given is not None:
            out["given"] = dict(self.given)
        out["actions"] = [dict(s) for s in self.actions]
        out["expect"] = dict(self.expect)
        return out


@frozen
class CaseOutcome:
    """The outcome of running one case against the reference engine."""

    id: str
    passed: bool
    message: str = ""


class Rules(Protocol):
    """Other rules a case can be run under (:func:`run_case`'s ``under``): the game playing by them,
    a position put under them, a new game started by them (a
    :class:`~engine.conformance.diagnosis.faults.World` is one)."""

    @property
    def game(self) -> Game:
        """The game playing by these rules."""
        ...  # pragma: no cover - a protocol

    def adopt(self, state: Any) -> Any:
        """``state`` (a reference position) under these rules."""
        ...  # pragma: no cover - a protocol

    def new_game(self, players: int, **kwargs: Any) -> Any:
        """A new game under these rules (``GAME.new_game``'s keyword arguments)."""
        ...  # pragma: no cover - a protocol


def start_position(game: Game, kit: GameKit, setup: Mapping[str, Any], prelude: Iterable[Mapping[str, Any]],
                   under: Rules | None = None) -> Any:
    """The state after the explicit set-up (or the ``position``, a notation line, when the case starts from
    one) and the prelude (each prelude action through the checked tier); ``under``: played by other rules
    (``game`` is then theirs)."""
    if setup.get("position") is not None:
        state = load_position(game.name, setup["position"], source="setup.position", access=NO_FILES)
        if under is not None:
            state = under.adopt(state)
    else:
        start = under.new_game if under is not None else game.new_game
        state = start(setup["players"], variant=setup["variant"], options=setup["options"],
                      setup=kit.setup_from_json(setup["setup"]))
    for step in prelude:
        state = game.apply(state, game.action_from_json(step["action"]))
    return state


def _diff(expected: Mapping[str, Any], facts: Mapping[str, Any]) -> str | None:
    for name, value in expected.items():
        if facts.get(name) != value:
            return f"{name}: expected {json.dumps(value)}, got {json.dumps(facts.get(name))}"
    return None


def run_case(data: Mapping[str, Any], *, under: Rules | None = None) -> CaseOutcome:
    """Run one case (its JSON form) against the reference engine, as an implementer's runner would;
    ``under``: against the rules of a fault model instead (a case the reference passes and they fail shows
    them wrong).

    Uses only the public protocol and the kit: explicit set-up, ``action_from_json``, ``apply``, facts.
    """
    cid = str(data.get("id"))
    game = under.game if under is not None else get_game(data["game"])
    kit = get_kit(data["game"])
    expect = data["expect"]
    setup = data["setup"]
    if "reject_setup" in expect:
        try:
            start_position(game, kit, setup, (), under)
        except RuleViolation as exc:
            if exc.clause != expect["reject_setup"]["clause"]:
                return CaseOutcome(cid, False, f"set-up refused by {exc.clause}, expected "
                                               f"{expect['reject_setup']['clause']}")
            return CaseOutcome(cid, True)
        return CaseOutcome(cid, False, "set-up accepted, expected a refusal")
    try:
        state = start_position(game, kit, setup, data["prelude"], under)
    except RuleViolation as exc:
        return CaseOutcome(cid, False, f"prelude refused: {exc}")
    if data.get("given") is not None:
        problem = _diff(data["given"], kit.facts(state))
        if problem:
            return CaseOutcome(cid, False, f"given position differs: {problem}")
    reject = expect.get("reject")
    for index, step in enumerate(data["actions"]):
        action = game.action_from_json(step["action"])
        if reject is not None and index == reject["index"]:
            before = kit.facts(state)
            try:
                game.apply(state, action)
            except RuleViolation as exc:
                if exc.clause != reject["clause"]:
                    return CaseOutcome(cid, False, f"refused by {exc.clause}, expected {reject['clause']}")
                if kit.facts(state) != before:
                    return CaseOutcome(cid, False, "a refused action changed the state")
                break
            return CaseOutcome(cid, False, f"action {index} accepted, expected refusal by {reject['clause']}")
        try:
            state = game.apply(state, action)
        except RuleViolation as exc:
            return CaseOutcome(cid, False, f"action {index} refused: {exc}")
    problem = _diff(expect.get("facts", {}), kit.facts(state))
    if problem:
        return CaseOutcome(cid, False, problem)
    if "result" in expect:
        if not game.is_terminal(state):
            return CaseOutcome(cid, False, "result: expected a finished game, the game goes on")
        winners = sorted(game.result(state).winners)
        if winners != expect["result"]["winners"]:
            return CaseOutcome(cid, False, f"winners: expected {json.dumps(expect['result']['winners'])}, "
                                           f"got {json.dumps(winners)}")
    return CaseOutcome(cid, True)


def vector_problem(data: Mapping[str, Any]) -> tuple[str, str] | None:
    """The first schema violation of a case: the vector schema, then the game's schemas for the set-up,
    every action and the facts; ``(json path, message)`` or ``None``."""
    problem = schema_error(validator("vector"), data)
    if problem:
        return problem
    game = data["game"]
    parts: list[tuple[str, str, Any]] = []
    if data["setup"].get("position") is None:
        parts.append(("setup.setup", "setup", data["setup"]["setup"]))
    for key in ("prelude", "actions"):
        parts += [(f"{key}[{i}].action", "action", s["action"]) for i, s in enumerate(data[key])]
    if "given" in data:
        parts.append(("given", "claims", data["given"]))
    if "facts" in data["expect"]:
        parts.append(("expect.facts", "claims", data["expect"]["facts"]))
    for path, definition, value in parts:
        if not fast_check(game, definition)(value):
            sub = schema_error(validator(game, definition), value)
            if sub:
                return (f"{path}.{sub[0]}" if sub[0] else path), sub[1]
    return None


MAX_LINE_BYTES = 1024 * 1024
"""The longest line of a vectors or perft file read (the longest exported case is a few kilobytes)."""


def json_lines(path: str | Path) -> Iterator[tuple[str, Any]]:
    """``(where, value)`` for every non-blank line of a JSON Lines file, each through :func:`jsonio.loads`
    (UTF-8, no byte-order mark, depth, integer-digit and length limits); ``where`` is ``PATH line N``."""
    try:
        handle = Path(path).open("rb")  # noqa: SIM115 - closed by the with below, errors named here
    except OSError as exc:
        raise InputError(str(path), f"cannot read: {exc.strerror or exc}") from None
    with handle:
        lineno = 0
        while True:
            raw = handle.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            lineno += 1
            where = f"{path} line {lineno}"
            if len(raw) > MAX_LINE_BYTES:
                raise InputError(where, f"longer than the {MAX_LINE_BYTES} bytes accepted for one line")
            if raw.strip():
                yield where, jsonio.loads(raw, source=where)


def read_vectors(path: str | Path) -> Iterator[dict[str, Any]]:
    """Stream the cases of a ``<game>.jsonl`` vectors file, each checked against ``vector.schema.json``."""
    for where, data in json_lines(path):
        problem = vector_problem(data)
        if problem:
            raise InputError(f"{where}: {problem[0]}" if problem[0] else where, problem[1])
        yield data


# --------------------------------------------------------------------------------------------------
# Building cases


def steps_json(game: Game, kit: GameKit, actions: Iterable[Any]) -> tuple[dict[str, Any], ...]:
    """The ``{"player", "action"}`` steps of a case (prelude or tested actions) for ``actions``."""
    return tuple({"player": kit.action_player(a), "action": game.action_to_json(a)} for a in actions)


def setup_json(kit: GameKit, variant: str, players: int, options: Mapping[str, Any], states: Sequence[Any]
               ) -> dict[str, Any]:
    """The ``setup`` of a case: variant, players, options and the explicit set-up dealing ``states``."""
    return {"variant": variant, "players": players, "options": dict(options),
            "setup": kit.setup_to_json(kit.explicit_setup(states))}


def position_case(
    game_name: str, notation: str, action: tuple[int, Any] | None, *, clauses: Sequence[str],
    description: str, case_id: str,
) -> Case:
    """The case of one position (``notation``, no prelude) and one action (``(seat, action JSON)``, or
    ``None``: the position's facts alone): the reference's facts after it (and the winners, when it ends
    the game), or its refusal with the position's facts unchanged; generated, citing ``clauses``.

    >>> case = position_case("take6", "standard 2 select 3.10/22/40.41.45/90 5.8.60/7.9.70 - - 12/0",
    ...                      (0, {"type": "select", "player": 0, "card": 6}), clauses=["T6-SELECT-1"],
    ...                      description="a card not held", case_id="take6/T6-SELECT-1/example/1")
    >>> case.kind, case.expect["reject"], run_case(case.to_json()).passed
    ('reject', {'index': 0, 'clause': 'T6-SELECT-1'}, True)
    """
    game = get_game(game_name)
    kit = get_kit(game_name)
    state = game.from_notation(notation)
    given = kit.facts(state)
    json_state = game.state_to_json(state)
    setup = {
        "variant": json_state["variant"],
        "players": json_state["players"],
        "options": dict(json_state.get("options", {})),
        "setup": None,
        "position": notation,
    }
    actions: tuple[dict[str, Any], ...] = ()
    expect: dict[str, Any] = {"facts": given}
    kind: Kind = "accept"
    if action is not None:
        seat, value = action
        actions = ({"player": seat, "action": value},)
        try:
            after = game.apply(state, game.action_from_json(value))
        except RuleViolation as exc:
            kind = "reject"
            expect = {"reject": {"index": 0, "clause": exc.clause}, "facts": given}
        else:
            expect = {"facts": kit.facts(after)}
            if game.is_terminal(after):
                expect["result"] = {"winners": sorted(game.result(after).winners)}
    return Case(case_id, game_name, tuple(clauses), kind, description, "generated", setup, (), actions,
                expect, given)


def hand_picked_cases(game_name: str) -> list[Case]:
    """The hand-picked edge cases of ``engine/conformance/vectors/cases/<game>.json``, with the full expected
    facts computed by the engine — which must agree with every fact the file states by hand (else SpecError).

    A case row holds ``name``, ``clauses``, ``description``, ``setup``, optional ``prelude`` (legal actions
    leading to the tested position) and ``actions``, and either ``expect`` (hand-written facts after the
    actions), ``reject`` (the clause refusing the last action) or ``reject_setup``.  An accept row whose
    actions finish the game may state ``winners`` by hand; its vector then expects ``result.winners`` (every
    accept row finishing the game gets it, stated or not)."""
    game = get_game(game_name)
    kit = get_kit(game_name)
    source = resources.files("engine.conformance.vectors").joinpath("cases", f"{game_name}.json")
    where = f"conformance/vectors/cases/{game_name}.json"
    try:
        rows = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    book = load_clauses(game_name)
    out: list[Case] = []
    for n, row in enumerate(rows, start=1):
        at = f"{where} case {n} ({row.get('name')})"
        unknown = set(row) - {"name", "clauses", "description", "setup", "prelude", "actions", "expect",
                              "reject", "reject_setup", "winners"}
        if unknown:
            raise SpecError(f"{at}: unknown field {sorted(unknown)[0]!r}")
        for clause in row["clauses"]:
            if clause not in book:
                raise SpecError(f"{at}: unknown clause {clause!r}")
        setup = row["setup"]
        prelude = tuple(row.get("prelude", ()))
        actions = tuple(row.get("actions", ()))
        cid = f"{game_name}/edge/{row['name']}"
        if "reject_setup" in row:
            case = Case(cid, game_name, tuple(row["clauses"]), "reject-setup", row["description"],
                        "hand-picked", setup, (), (), {"reject_setup": {"clause": row["reject_setup"]}})
        else:
            try:
                state = start_position(game, kit, setup, prelude)
            except (RuleViolation, InputError) as exc:
                raise SpecError(f"{at}: set-up or prelude refused: {exc}") from None
            given = kit.facts(state)
            expect: dict[str, Any]
            if "reject" in row:
                expect = {"reject": {"index": len(actions) - 1, "clause": row["reject"]}, "facts": {}}
                for step in actions[:-1]:
                    state = game.apply(state, game.action_from_json(step["action"]))
                expect["facts"] = kit.facts(state)
                kind: Kind = "reject"
            else:
                for i, step in enumerate(actions):
                    try:
                        state = game.apply(state, game.action_from_json(step["action"]))
                    except RuleViolation as exc:
                        raise SpecError(f"{at}: action {i} refused: {exc}") from None
                expect = {"facts": kit.facts(state)}
                if game.is_terminal(state):
                    expect["result"] = {"winners": sorted(game.result(state).winners)}
                kind = "accept"
            case = Case(cid, game_name, tuple(row["clauses"]), kind, row["description"], "hand-picked",
                        setup, prelude, actions, expect, given)
        outcome = run_case(case.to_json())
        if not outcome.passed:
            raise SpecError(f"{at}: the engine does not reproduce the case: {outcome.message}")
        stated = row.get("expect", {})
        problem = _diff(stated, case.expect.get("facts", {}))
        if problem:
            raise SpecError(f"{at}: hand-written expectation differs from the engine: {problem}")
        if "winners" in row and row["winners"] != case.expect.get("result", {}).get("winners"):
            raise SpecError(f"{at}: hand-written winners {row['winners']} differ from the engine: "
                            f"{case.expect.get('result', {}).get('winners', 'the game is not over')}")
        out.append(case)
    return out

