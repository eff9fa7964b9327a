"""Test vectors: a language-neutral conformance suite (``arbiter vectors export DIR``), and perft counts.

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
use the vocabulary of :mod:`engine.conformance.kits` (documented in ``docs/conformance.md``).

Cases come from two sources: **hand-picked** edge cases (``engine/conformance/cases/<game>.json``: a set-up,
actions and hand-written expected facts that the engine must reproduce at export — an independent oracle) and
**generated** ones, mined from seeded random games: the kit tags every step with the clauses it exercises
and tries illegal actions at every position, keeping the shortest examples per clause.

``DIR/perft.jsonl`` (schema ``perft.schema.json``) holds perft counts: the number of distinct legal action
sequences of length 1, 2, ... d from named positions, a checksum of another implementation's move
generator.  The counts ship in ``engine/conformance/data/perft.jsonl``; the test suite recomputes them.

>>> from engine.game import get_game
>>> g = get_game("take6")
>>> perft_counts(g, g.new_game(2, seed=1), 2)
[20, 200]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from attrs import frozen

from engine import cliargs, jsonio
from engine.conformance.kits import GameKit, get_kit
from engine.conformance.records import dumps_line, fast_check, schema, schema_error, validator
from engine.errors import InputError, RuleViolation, SpecError
from engine.game import Game, game_names, get_game
from engine.jsonio import NO_FILES
from engine.positions import load_position
from engine.spec import load_clauses, read_toml

__all__ = [
    "Case",
    "CaseOutcome",
    "Coverage",
    "coverage",
    "exemptions",
    "export_vectors",
    "generate_cases",
    "hand_picked_cases",
    "perft_counts",
    "perft_positions",
    "read_vectors",
    "run_case",
    "shipped_perft",
    "start_position",
    "vector_problem",
]

Kind = Literal["accept", "reject", "reject-setup"]
FORMAT_VERSION = 1


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


def start_position(game: Game, kit: GameKit, setup: Mapping[str, Any], prelude: Iterable[Mapping[str, Any]]
                   ) -> Any:
    """The state after the explicit set-up (or the ``position``, a notation line, when the case starts from
    one) and the prelude (each prelude action through the checked tier)."""
    if setup.get("position") is not None:
        state = load_position(game.name, setup["position"], source="setup.position", access=NO_FILES)
    else:
        state = game.new_game(setup["players"], variant=setup["variant"], options=setup["options"],
                              setup=kit.setup_from_json(setup["setup"]))
    for step in prelude:
        state = game.apply(state, game.action_from_json(step["action"]))
    return state


def _diff(expected: Mapping[str, Any], facts: Mapping[str, Any]) -> str | None:
    for name, value in expected.items():
        if facts.get(name) != value:
            return f"{name}: expected {json.dumps(value)}, got {json.dumps(facts.get(name))}"
    return None


def run_case(data: Mapping[str, Any]) -> CaseOutcome:
    """Run one case (its JSON form) against the reference engine, as an implementer's runner would.

    Uses only the public protocol and the kit: explicit set-up, ``action_from_json``, ``apply``, facts.
    """
    cid = str(data.get("id"))
    game = get_game(data["game"])
    kit = get_kit(data["game"])
    expect = data["expect"]
    setup = data["setup"]
    if "reject_setup" in expect:
        try:
            start_position(game, kit, setup, ())
        except RuleViolation as exc:
            if exc.clause != expect["reject_setup"]["clause"]:
                return CaseOutcome(cid, False, f"set-up refused by {exc.clause}, expected "
                                               f"{expect['reject_setup']['clause']}")
            return CaseOutcome(cid, True)
        return CaseOutcome(cid, False, "set-up accepted, expected a refusal")
    try:
        state = start_position(game, kit, setup, data["prelude"])
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


def _json_lines(path: str | Path) -> Iterator[tuple[str, Any]]:
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
    for where, data in _json_lines(path):
        problem = vector_problem(data)
        if problem:
            raise InputError(f"{where}: {problem[0]}" if problem[0] else where, problem[1])
        yield data


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
    for where, data in _json_lines(path):
        problem = perft_problem(data)
        if problem:
            raise InputError(f"{where}: {problem[0]}" if problem[0] else where, problem[1])
        if sum(data["counts"]) > MAX_PERFT_SEQUENCES:
            raise InputError(f"{where}: counts", f"more than the {MAX_PERFT_SEQUENCES} sequences recounted")
        yield data


# --------------------------------------------------------------------------------------------------
# Building cases


def _steps(game: Game, kit: GameKit, actions: Iterable[Any]) -> tuple[dict[str, Any], ...]:
    return tuple({"player": kit.action_player(a), "action": game.action_to_json(a)} for a in actions)


def _setup_json(kit: GameKit, variant: str, players: int, options: Mapping[str, Any], states: Sequence[Any]
                ) -> dict[str, Any]:
    return {"variant": variant, "players": players, "options": dict(options),
            "setup": kit.setup_to_json(kit.explicit_setup(states))}


def hand_picked_cases(game_name: str) -> list[Case]:
    """The hand-picked edge cases of ``engine/conformance/cases/<game>.json``, with the full expected facts
    computed by the engine — which must agree with every fact the file states by hand (else SpecError).

    A case row holds ``name``, ``clauses``, ``description``, ``setup``, optional ``prelude`` (legal actions
    leading to the tested position) and ``actions``, and either ``expect`` (hand-written facts after the
    actions), ``reject`` (the clause refusing the last action) or ``reject_setup``.  An accept row whose
    actions finish the game may state ``winners`` by hand; its vector then expects ``result.winners`` (every
    accept row finishing the game gets it, stated or not)."""
    game = get_game(game_name)
    kit = get_kit(game_name)
    source = resources.files("engine.conformance").joinpath("cases", f"{game_name}.json")
    where = f"conformance/cases/{game_name}.json"
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


@frozen
class _Found:
    clause: str
    kind: Kind
    description: str
    setup: dict[str, Any]
    prelude: tuple[dict[str, Any], ...]
    actions: tuple[dict[str, Any], ...]
    expect: dict[str, Any]
    given: dict[str, Any]


def _mine_game(game: Game, kit: GameKit, variant: str, players: int, seed: int, *,
               want: dict[tuple[str, str], int], per_clause: int) -> Iterator[_Found]:
    """Play one seeded random game; yield positive and negative examples for clauses still wanted."""
    rng = random.Random(f"vectors:{game.name}:{variant}:{players}:{seed}")
    state = game.new_game(players, seed=seed, variant=variant)
    states = [state]
    actions: list[Any] = []
    options: dict[str, Any] = {}
    while not game.is_terminal(state):
        acting = game.to_act(state)
        # negatives at this position
        for action_json, description in kit.illegal_candidates(game, state, rng):
            try:
                illegal = game.action_from_json(action_json)
                game.apply(state, illegal)
            except RuleViolation as exc:
                if want.get((exc.clause, "reject"), 0) >= per_clause:
                    continue
                setup = _setup_json(kit, variant, players, options, states)
                yield _Found(exc.clause, "reject", f"{description}: refused ({exc.message})", setup,
                             _steps(game, kit, actions),
                             ({"player": kit.action_player(illegal), "action": action_json},),
                             {"reject": {"index": 0, "clause": exc.clause}, "facts": kit.facts(state)},
                             kit.facts(state))
            except InputError:
                continue
        player = acting[rng.randrange(len(acting))]
        legal = game.legal_actions(state, player)
        action = legal[rng.randrange(len(legal))]
        after = game.apply(state, action)
        tags = [c for c in kit.step_clauses(game, state, action, after)
                if want.get((c, "accept"), 0) < per_clause]
        if tags:
            setup = _setup_json(kit, variant, players, options, [*states, after])
            text = " ".join(game.narrate(state, action, after))[:300] or "a legal action"
            for clause in tags:
                yield _Found(clause, "accept", text, setup, _steps(game, kit, actions),
                             _steps(game, kit, [action]), {"facts": kit.facts(after)}, kit.facts(state))
        actions.append(action)
        states.append(after)
        state = after
    # a finished game refuses every action
    if want.get((kit.game_over_clause, "reject"), 0) < per_clause:
        last = actions[-1]
        setup = _setup_json(kit, variant, players, options, states)
        try:
            game.apply(state, last)
        except RuleViolation as exc:
            yield _Found(exc.clause, "reject", "an action after the end of the game", setup,
                         _steps(game, kit, actions[:-1]), _steps(game, kit, [actions[-1], last]),
                         {"reject": {"index": 1, "clause": exc.clause}, "facts": kit.facts(state)},
                         kit.facts(states[-2]))


def _hand_picked_clauses(game_name: str) -> frozenset[str]:
    source = resources.files("engine.conformance").joinpath("cases", f"{game_name}.json")
    try:
        rows = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return frozenset()
    return frozenset(c for row in rows for c in row["clauses"])


def generate_cases(game_name: str, *, per_clause: int = 2, games_per_config: int = 3, hunt_games: int = 40,
                   players: Sequence[int] | None = None) -> list[Case]:
    """Mine seeded random games of every variant for up to ``per_clause`` accept and reject examples per
    clause, preferring the earliest positions (short preludes).  Deterministic."""
    game = get_game(game_name)
    kit = get_kit(game_name)
    counts: dict[tuple[str, str], int] = {}
    found: dict[tuple[str, str], list[_Found]] = {}
    span = players or sorted({game.min_players, max(game.min_players, 2), 3, game.max_players}
                             & set(range(game.min_players, game.max_players + 1)))
    configs = [(v, n) for v in game.variants for n in span]

    def mine(variant: str, n: int, seed: int) -> bool:
        try:
            mined = list(_mine_game(game, kit, variant, n, seed, want=counts, per_clause=per_clause))
        except RuleViolation:
            return False  # this variant does not take n players
        for f in mined:
            key = (f.clause, f.kind)
            if counts.get(key, 0) >= per_clause:
                continue
            counts[key] = counts.get(key, 0) + 1
            found.setdefault(key, []).append(f)
        return True

    playable = []
    for variant, n in configs:
        if mine(variant, n, 0):
            playable.append((variant, n))
            for seed in range(1, games_per_config):
                mine(variant, n, seed)
    # hunt: more seeded games while a testable clause still lacks a vector of a kind it can have
    ex = exemptions(game_name)
    book = load_clauses(game_name)

    def missing() -> bool:
        return any(counts.get((c, k), 0) == 0 and k not in ex.get(c, {}) and not (k == "reject" and
                   c in hand_only) for c in book for k in ("accept", "reject"))

    hand_only = _hand_picked_clauses(game_name)
    seed = games_per_config
    while playable and seed < games_per_config + hunt_games and missing():
        variant, n = playable[seed % len(playable)]
        mine(variant, n, seed)
        seed += 1
    out: list[Case] = []
    for (clause, kind), items in sorted(found.items()):
        for i, f in enumerate(items, start=1):
            out.append(Case(f"{game_name}/{clause}/{kind}/{i}", game_name, (clause,), f.kind, f.description,
                            "generated", f.setup, f.prelude, f.actions, f.expect, f.given))
    return out


# --------------------------------------------------------------------------------------------------
# Coverage


@frozen
class Coverage:
    """Per clause: how many accept / reject vectors test it, and any documented exemption."""

    clause: str
    accept: int
    reject: int
    exempt_accept: str | None
    exempt_reject: str | None

    @property
    def complete(self) -> bool:
        """Both kinds present or exempted with a reason."""
        return (self.accept > 0 or self.exempt_accept is not None) and (
            self.reject > 0 or self.exempt_reject is not None
        )


def exemptions(game_name: str) -> dict[str, dict[str, str]]:
    """Clauses not vector-testable one way or the other, with the reason (``coverage.toml``).

    Returns ``{clause: {"accept": reason, "reject": reason}}``; a ``[[topic]]`` row covers a whole topic.
    """
    path = Path(str(resources.files("engine.conformance").joinpath("coverage.toml")))
    doc = read_toml(path)
    book = load_clauses(game_name)
    out: dict[str, dict[str, str]] = {}
    for i, row in enumerate(doc.get("topic", []), start=1):
        if set(row) - {"game", "topic", "accept", "reject"} or "topic" not in row or "game" not in row:
            raise SpecError(f"coverage.toml [[topic]] row {i}: fields are game, topic, accept, reject")
        if row["game"] != game_name:
            continue
        ids = [c.id for c in book.values() if c.topic == row["topic"]]
        if not ids:
            raise SpecError(f"coverage.toml [[topic]] row {i}: no {game_name} clause of topic {row['topic']}")
        for cid in ids:
            out.setdefault(cid, {}).update({k: row[k] for k in ("accept", "reject") if k in row})
    for i, row in enumerate(doc.get("clause", []), start=1):
        if set(row) - {"id", "accept", "reject"} or "id" not in row:
            raise SpecError(f"coverage.toml [[clause]] row {i}: fields are id, accept, reject")
        if row["id"].split("-")[0] != {"take6": "T6", "petersburg": "SP"}[game_name]:
            continue
        if row["id"] not in book:
            raise SpecError(f"coverage.toml [[clause]] row {i}: unknown clause {row['id']!r}")
        out.setdefault(row["id"], {}).update({k: row[k] for k in ("accept", "reject") if k in row})
    return out


def coverage(game_name: str, cases: Iterable[Case | Mapping[str, Any]]) -> list[Coverage]:
    """Coverage of every clause of the game by ``cases``, in clause-book order."""
    accept: dict[str, int] = {}
    reject: dict[str, int] = {}
    for case in cases:
        data = case.to_json() if isinstance(case, Case) else case
        bucket = accept if data["kind"] == "accept" else reject
        for clause in data["clauses"]:
            bucket[clause] = bucket.get(clause, 0) + 1
    ex = exemptions(game_name)
    return [Coverage(cid, accept.get(cid, 0), reject.get(cid, 0), ex.get(cid, {}).get("accept"),
                     ex.get(cid, {}).get("reject"))
            for cid in load_clauses(game_name)]


# --------------------------------------------------------------------------------------------------
# Perft


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
        setup = _setup_json(kit, variant, players, {}, [*states, *tail[1:]])
        out.append(PerftPosition(f"{game_name}/{variant}-{players}p-seed{seed}-ply{len(actions)}", game_name,
                                 description, setup, _steps(game, kit, actions), tuple(counts)))
    return out


def shipped_perft() -> list[dict[str, Any]]:
    """The perft positions shipped in ``engine/conformance/data/perft.jsonl`` (schema-checked)."""
    v = validator("perft")
    text = resources.files("engine.conformance").joinpath("data", "perft.jsonl").read_text(encoding="utf-8")
    out = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if raw.strip():
            data = json.loads(raw)
            problem = schema_error(v, data)
            if problem:
                raise SpecError(f"conformance/data/perft.jsonl line {lineno}: {problem[0]}: {problem[1]}")
            out.append(data)
    return out


def recount_perft(data: Mapping[str, Any], *, bounded: bool = False) -> list[int]:
    """Recompute the counts of one perft position (its JSON form) on the reference engine; ``bounded``
    stops the walk where a count exceeds the claimed one (see :func:`perft_counts`)."""
    game = get_game(data["game"])
    kit = get_kit(data["game"])
    state = start_position(game, kit, data["setup"], data["prelude"])
    return perft_counts(game, state, len(data["counts"]), data["counts"] if bounded else None)


# --------------------------------------------------------------------------------------------------
# Export


def all_cases(game_name: str, *, per_clause: int = 2, games_per_config: int = 3) -> list[Case]:
    """Hand-picked then generated cases of a game, ids unique."""
    cases = hand_picked_cases(game_name) + generate_cases(game_name, per_clause=per_clause,
                                                          games_per_config=games_per_config)
    seen: set[str] = set()
    for case in cases:
        if case.id in seen:
            raise SpecError(f"duplicate vector id {case.id!r}")
        seen.add(case.id)
    return cases


def export_vectors(directory: str | Path, *, games: Iterable[str] | None = None, per_clause: int = 2,
                   games_per_config: int = 3) -> dict[str, int]:
    """Write the suite to ``directory``: ``<game>.jsonl``, ``perft.jsonl``, ``schemas/``, ``manifest.json``.

    Every case and perft line is validated against its schema before it is written.  Returns the number
    of cases per game.
    """
    out = Path(directory)
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "schemas").mkdir(exist_ok=True)
    except OSError as exc:
        raise InputError(str(directory), f"cannot create: {exc.strerror or exc}") from None
    names = list(games or game_names())
    counts: dict[str, int] = {}
    for name in names:
        cases = all_cases(name, per_clause=per_clause, games_per_config=games_per_config)
        with (out / f"{name}.jsonl").open("w", encoding="utf-8") as fh:
            for case in cases:
                data = case.to_json()
                problem = vector_problem(data)
                if problem:
                    raise SpecError(f"vector {case.id}: {problem[0]}: {problem[1]}")
                fh.write(dumps_line(data) + "\n")
        counts[name] = len(cases)
    with (out / "perft.jsonl").open("w", encoding="utf-8") as fh:
        for data in shipped_perft():
            if data["game"] in names:
                fh.write(dumps_line(data) + "\n")
    for stem in ("record", "vector", "perft", *names):
        (out / "schemas" / f"{stem}.schema.json").write_text(
            json.dumps(schema(stem), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    manifest = {"format": "arbiter-vectors", "version": FORMAT_VERSION, "cases": counts,
                "files": [f"{n}.jsonl" for n in names] + ["perft.jsonl"]}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return counts


# --------------------------------------------------------------------------------------------------
# Command line


def _run_export(args: argparse.Namespace) -> int:
    if not 1 <= args.per_clause <= 50:
        raise InputError("--per-clause", f"expected 1 to 50 cases per clause and kind, got {args.per_clause}")
    start = time.perf_counter()
    counts = export_vectors(args.dir, games=args.game, per_clause=args.per_clause)
    for name, n in counts.items():
        print(f"{name:<12} {n:>6} cases   {Path(args.dir) / (name + '.jsonl')}")
    print(f"{'perft':<12} {len([d for d in shipped_perft() if d['game'] in counts]):>6} positions"
          f"   {Path(args.dir) / 'perft.jsonl'}")
    print(f"written in {time.perf_counter() - start:.1f} s; schemas in {Path(args.dir) / 'schemas'}")
    return 0


def _run_run(args: argparse.Namespace) -> int:
    directory = Path(args.dir)
    try:
        found = directory.is_dir()
    except (OSError, ValueError):
        found = False
    if not found:
        raise InputError(jsonio.show(args.dir), "not a directory")
    files = sorted(p for p in directory.glob("*.jsonl") if p.name != "perft.jsonl")
    if not files:
        raise InputError(str(directory), "no <game>.jsonl vectors file here (run 'arbiter vectors export')")
    perft_file = directory / "perft.jsonl"
    # every file is read and validated against its schema before any case runs
    cases = [(path, data) for path in files for data in read_vectors(path)]
    positions = list(read_perft(perft_file)) if perft_file.is_file() and not args.no_perft else []
    failed: list[CaseOutcome] = []
    start = time.perf_counter()
    for path, data in cases:
        try:
            outcome = run_case(data)
        except InputError as exc:
            raise InputError(f"{path}: case {jsonio.show(data['id'])}", str(exc)) from None
        if not outcome.passed:
            failed.append(outcome)
    total = len(cases)
    perft_bad: list[tuple[str, Any, Any]] = []
    perft_n = len(positions)
    for data in positions:
        try:
            got: Any = recount_perft(data, bounded=True)
        except (RuleViolation, InputError) as exc:
            got = f"no position: {exc}"
        if got != data["counts"]:
            perft_bad.append((data["id"], data["counts"], got))
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"cases": total, "failed": [{"id": o.id, "message": o.message} for o in failed],
                          "perft": perft_n, "perft_failed": [{"id": i, "expected": e, "got": g}
                                                             for i, e, g in perft_bad],
                          "seconds": round(seconds, 3)}, indent=1))
    else:
        for o in failed:
            print(f"FAIL  {o.id:<48}  {o.message}")
        for pid, expected, got in perft_bad:
            print(f"FAIL  {pid:<48}  perft expected {expected}, got {got}")
        print(f"{total} cases, {len(failed)} failed; {perft_n} perft positions, {len(perft_bad)} failed "
              f"({seconds:.1f} s)")
    return 1 if failed or perft_bad else 0


def _run_perft(args: argparse.Namespace) -> int:
    if args.write:
        jsonio.check_writable(args.write, source="--write")
    positions = perft_positions(args.game)
    if args.write:
        path = Path(args.write)
        path.write_text("".join(dumps_line(p.to_json()) + "\n" for p in positions), encoding="utf-8")
        print(f"wrote {len(positions)} positions to {path}")
        return 0
    shipped = {d["id"]: d["counts"] for d in shipped_perft()}
    bad = 0
    for p in positions:
        mark = "ok" if shipped.get(p.id) == list(p.counts) else "DIFFERS"
        bad += mark != "ok"
        print(f"{p.id:<44} {' '.join(f'{c:>8}' for c in p.counts)}   {mark}")
    return 1 if bad else 0


def register_vectors(sub: Any) -> None:
    """Add ``vectors`` (``export``, ``run``, ``perft``) to the command line."""
    p = sub.add_parser("vectors", help="language-neutral conformance test vectors and perft counts")
    vsub = p.add_subparsers(dest="vectors_command", metavar="ACTION", parser_class=type(p))
    vsub.required = True
    e = vsub.add_parser("export", help="write the test vectors, perft counts and schemas to DIR")
    e.add_argument("dir", metavar="DIR")
    e.add_argument("--game", action="append", choices=game_names(), help="only this game (repeatable)")
    e.add_argument("--per-clause", type=cliargs.count("--per-clause"), default=2,
                   help="generated cases per clause and kind")
    e.set_defaults(run=_run_export)
    r = vsub.add_parser("run", help="run exported vectors against the reference engine")
    r.add_argument("dir", metavar="DIR")
    r.add_argument("--no-perft", action="store_true", help="skip the perft recount")
    r.add_argument("--json", action="store_true", help="machine-readable output")
    r.set_defaults(run=_run_run)
    f = vsub.add_parser("perft", help="recompute the perft counts and compare them with the shipped file")
    f.add_argument("--game", action="append", choices=game_names())
    f.add_argument("--write", metavar="FILE", help="write the recomputed positions to FILE instead")
    f.set_defaults(run=_run_perft)

