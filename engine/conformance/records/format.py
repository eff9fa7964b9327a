"""Game records: a whole game as JSON Lines (format ``arbiter-record``, version 3; versions 1 and 2 are read
too).

A record is language-neutral: any implementation can write one, and ``arbiter check`` replays it on the
reference engine.  One JSON object per line::

    {"type": "header", "format": "arbiter-record", "version": 3, "game": "take6", "variant": "standard",
     "options": {}, "players": 3, "setup": <explicit set-up>, "seed": 7, "source": {...}}
    {"type": "action", "index": 0, "player": 0, "action": {...}, "claims": {"to_act": [1, 2]}}
    {"type": "action", "index": 1, "player": 1, "action": {...}}
    ...
    {"type": "action", "index": 20, "player": null, "action": {"type": "deal", ...}}     a chance line
    ...
    {"type": "result", "scores": [12, 70, 31], "winners": [0], "ranking": [0, 2, 1], "tiebreak": []}

* The **header** names the game, variant, options, player count and the explicit set-up (6 nimmt!: the deal
  of every round; Saint Petersburg: the stack orders and start-player markers), so the record replays with
  no shuffle.  ``seed`` and ``source`` are informational.  Optional ``claims`` describe the start position.
  A game that starts from a position carries it in the optional ``position`` (the game's notation line,
  docs/positions.md) with ``setup`` null: the position holds everything, the later deals included.
* Version 2 adds one claim, ``legal``: the legal sets of some seats as the recording implementation gives
  them (``[{"player": 1, "actions": [...]}]``); ``arbiter check`` reports each missing or extra action.
* Version 3 adds **chance lines**: an action line with ``player`` null is a chance step, its ``action`` the
  outcome in the game's JSON form (6 nimmt!: the ``deal`` / ``draft_start`` of a round, given when the round
  starts).  A record of a real game whose later deals were not known up front gives only the first round's
  deal in ``setup`` (or starts from a ``position`` without a seed) and each later deal as a chance line;
  the rounds the set-up does not deal wait for theirs (phase ``deal``), so a missing, early or wrong chance
  line is a divergence naming its clause.
* An **action** line says who acted (``player``), what (``action``, in the game's JSON form: plain card
  numbers and names), its position (``index`` 0, 1, 2 ... without gaps) and optional ``claims``: facts the
  recording implementation asserts after the action (scores, money, rows, hands, whose turn; the vocabulary
  of each game is in its schema and in :mod:`engine.conformance.kits.base`).
* The optional **result** line ends the record: the claimed outcome of a finished game.  A record without
  one is a game prefix (a shrunk fuzzing counterexample, say); nothing may follow it.

Every line is checked against the JSON Schemas shipped in ``engine/conformance/records/schemas/`` before
anything else (``record.schema.json`` for the line, ``<game>.schema.json`` for the set-up, action and claims);
a malformed line raises :class:`~engine.errors.InputError` whose field names the file, line and JSON path.

Public API
----------
* :class:`Header`, :class:`ActionLine`, :class:`ResultLine`: one parsed line each (frozen; ``to_json()``).
* :func:`iter_record` (path or text stream): streams the lines of one record, validated, one at a time; the
  file is never loaded whole.  :func:`read_record` returns a whole :class:`Record` (for small records).
* :class:`RecordWriter`: writes a record line by line to a text stream (``header``, ``action``,
  ``result``); :func:`write_record` writes a whole :class:`Record` to a path or stream.
* :func:`record_game`: the record of a game played by the reference engine from a seed, given its actions
  (replays it to capture the explicit set-up and, optionally, claims after every action).
* :func:`schema` / :func:`validator` / :func:`fast_check`: the shipped schemas, for other tools
  (``validator`` explains errors with ``jsonschema``; ``fast_check`` only answers yes or no, quickly).

>>> import io
>>> out = io.StringIO()
>>> w = RecordWriter(out)
>>> w.header(Header(game="take6", variant="standard", options={}, players=2, setup=[]))
>>> w.action(0, {"card": 5})
>>> [line.type for line in iter_record(io.StringIO(out.getvalue()), name="demo", validate_game=False)]
['header', 'action']
"""

from __future__ import annotations

import functools
import io
import json
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import IO, Any, Literal

from attrs import field, frozen
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match

from engine import outputs
from engine.conformance.records.fastschema import Check, compile_schema
from engine.errors import InputError
from engine.jsonio import loads, open_file, show

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "ActionLine",
    "Header",
    "Record",
    "RecordLine",
    "RecordWriter",
    "ResultLine",
    "check_claims",
    "dumps_line",
    "fast_check",
    "iter_record",
    "json_path",
    "read_record",
    "record_game",
    "record_text",
    "schema",
    "schema_error",
    "validator",
    "write_record",
]

RECORD_FORMAT = "arbiter-record"
RECORD_VERSION = 3
"""The version written.  Version 2 adds the ``legal`` claim, version 3 chance lines (``player`` null);
every version 1 and 2 record is read as before."""
RECORD_VERSIONS = (1, 2, 3)
"""The versions read."""
V2_CLAIMS = frozenset({"legal"})
"""Claims a version 1 record may not make."""
CHANCE_VERSION = 3
"""The first version with chance lines."""
MAX_LINE = 4 * 1024 * 1024
"""The longest record line read (characters); a longer one is malformed (``/dev/zero`` is refused, not
read into memory)."""

LineType = Literal["header", "action", "result"]


# --------------------------------------------------------------------------------------------------
# Schemas


@functools.cache
def schema(name: str) -> dict[str, Any]:
    """A schema shipped in ``engine/conformance/records/schemas/`` by file stem (``record``, ``take6`` ...).

    >>> schema("record")["$defs"]["header"]["properties"]["format"]
    {'const': 'arbiter-record'}
    """
    try:
        text = (
            resources.files("engine.conformance.records")
            .joinpath("schemas", f"{name}.schema.json")
            .read_text(encoding="utf-8")
        )
    except FileNotFoundError as exc:
        raise InputError("schema", f"no schema named {name!r}") from exc
    data: dict[str, Any] = json.loads(text)
    return data


def _strict_integer(_checker: Any, instance: Any) -> bool:
    """JSON Schema's ``integer`` as this project reads it: an integer literal, never ``2.0`` or ``true``."""
    return isinstance(instance, int) and not isinstance(instance, bool)


Validator = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_integer),
)
"""Draft 2020-12 with ``integer`` meaning an integer literal: the explanation side agrees with the fast
checker (:mod:`engine.conformance.records.fastschema`), which decides; ``2.0`` is malformed input
everywhere."""


@functools.cache
def validator(name: str, definition: str | None = None) -> Draft202012Validator:
    """A compiled validator for a schema file, or for one of its ``$defs`` entries.

    >>> validator("record", "result").is_valid({"type": "result", "scores": [1, 2], "winners": [0]})
    True
    """
    doc = schema(name)
    if definition is None:
        return Validator(doc)  # type: ignore[no-any-return]
    if definition not in doc.get("$defs", {}):
        raise InputError("schema", f"{name}.schema.json has no definition {definition!r}")
    return Validator({"$ref": f"#/$defs/{definition}", "$defs": doc["$defs"]})  # type: ignore[no-any-return]


MAX_KEY_SHOWN = 40
"""How many characters of a key :func:`json_path` names before it cuts (a key is the record's text)."""


def json_path(parts: Iterable[Any], prefix: str = "") -> str:
    """A JSON path as text: ``action.rows[2]``; a key longer than :data:`MAX_KEY_SHOWN` characters is cut
    (:func:`engine.jsonio.show`).

    >>> json_path(["claims", "rows", 2], "line 3: ")
    'line 3: claims.rows[2]'
    >>> json_path(["claims", "x" * 1000])
    "claims.'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (1000 characters)"
    """
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        text = str(part)
        if len(text) > MAX_KEY_SHOWN:
            text = show(text, MAX_KEY_SHOWN)
        if text.startswith("["):
            out += text
        else:
            out += f".{text}" if out else text
    return prefix + out if out else prefix.rstrip(": ")


def schema_error(v: Draft202012Validator, data: Any) -> tuple[str, str] | None:
    """The most relevant schema violation of ``data``: ``(json path, message)``, or ``None`` if valid."""
    if v.is_valid(data):
        return None
    error: ValidationError | None = best_match(v.iter_errors(data))
    if error is None:  # pragma: no cover - is_valid said otherwise
        return None
    path = deque(error.absolute_path)
    # oneOf over objects tagged by "type": explain against the branch the instance names
    branches = error.validator_value
    if error.validator == "oneOf" and isinstance(error.instance, dict) and isinstance(branches, list):
        defs = v.schema.get("$defs", {}) if isinstance(v.schema, dict) else {}
        for branch in branches:
            if not isinstance(branch, dict):
                continue
            tag = branch.get("properties", {}).get("type", {}).get("const")
            if tag is not None and tag == error.instance.get("type"):
                sub = Validator({**branch, "$defs": defs})
                inner = schema_error(sub, error.instance)
                if inner is not None:
                    return json_path([*path, *([inner[0]] if inner[0] else [])]), inner[1]
    # "x is a required property" is about the parent object: name the missing field itself.
    if error.validator == "required" and isinstance(error.instance, dict):
        wanted: list[str] = list(error.validator_value) if isinstance(error.validator_value, list) else []
        missing = [k for k in wanted if k not in error.instance]
        if missing:
            path.append(missing[0])
            return json_path(path), "required field missing"
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        extra = sorted(k for k in error.instance if k not in known)
        if extra:
            path.append(extra[0])
            return json_path(path), f"unknown field (known: {', '.join(known)})"
    message = error.message
    if len(message) > 160:
        message = message[:157] + "..."
    return json_path(path), message


@functools.cache
def fast_check(name: str, definition: str | None = None) -> Check:
    """A compiled yes/no checker (:mod:`engine.conformance.records.fastschema`) for a schema or a ``$defs``
    entry.

    >>> fast_check("record", "result")({"type": "result", "scores": [1], "winners": []})
    True
    """
    doc = schema(name)
    if definition is None:
        return compile_schema(doc)
    if definition not in doc.get("$defs", {}):
        raise InputError("schema", f"{name}.schema.json has no definition {definition!r}")
    return compile_schema({"$ref": f"#/$defs/{definition}"}, doc)


def _check(name: str, definition: str | None, data: Any, where: str, prefix: Sequence[Any] = ()) -> None:
    """The fast checker decides; ``jsonschema`` (same reading of every keyword) only explains a refusal."""
    if fast_check(name, definition)(data):
        return
    problem = schema_error(validator(name, definition), data)
    path, message = problem if problem is not None else ("", f"does not match {name}.schema.json")
    head = json_path(prefix)  # ``path`` is a JSON path already (its keys cut): joined, not cut again
    full = head + ("" if not path else path if not head or path.startswith("[") else f".{path}")
    raise InputError(f"{where}: {full}" if full else where, message)


# --------------------------------------------------------------------------------------------------
# Lines


def _with_optional(out: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """Add the optional fields that are set (mappings as dicts, tuples as lists); leave out the ``None``s."""
    for name, value in fields.items():
        if value is None:
            continue
        if isinstance(value, Mapping):
            out[name] = dict(value)
        elif isinstance(value, tuple):
            out[name] = list(value)
        else:
            out[name] = value
    return out


@frozen
class Header:
    """The first line of a record.  ``setup`` and ``claims`` are JSON values in the game's vocabulary.

    >>> Header(game="take6", variant="standard", options={}, players=4, setup=[]).to_json()["format"]
    'arbiter-record'
    """

    game: str
    variant: str
    options: Mapping[str, Any]
    players: int
    setup: Any
    seed: int | None = None
    source: Mapping[str, Any] | None = None
    claims: Mapping[str, Any] | None = None
    comment: str | None = None
    position: str | None = None
    line: int = field(default=1, eq=False)
    version: int = field(default=RECORD_VERSION, eq=False)
    type: LineType = field(default="header", init=False)

    def to_json(self) -> dict[str, Any]:
        """The header line as a JSON object."""
        out: dict[str, Any] = {
            "type": "header",
            "format": RECORD_FORMAT,
            "version": self.version,
            "game": self.game,
            "variant": self.variant,
            "options": dict(self.options),
            "players": self.players,
            "setup": self.setup,
        }
        return _with_optional(
            out, seed=self.seed, source=self.source, claims=self.claims, comment=self.comment,
            position=self.position,
        )


@frozen
class ActionLine:
    """One action line: ``index`` (0-based), ``player`` (``None``: a chance step), ``action`` (game JSON),
    optional ``claims``.

    >>> ActionLine(3, None, {"type": "draft_start", "player": 1}).chance
    True
    """

    index: int
    player: int | None
    action: Mapping[str, Any]
    claims: Mapping[str, Any] | None = None
    comment: str | None = None
    line: int = field(default=0, eq=False)
    type: LineType = field(default="action", init=False)

    @property
    def chance(self) -> bool:
        """A chance line: the action is a chance outcome (a round's deal), not a seat's move."""
        return self.player is None

    def to_json(self) -> dict[str, Any]:
        """The action line as a JSON object (``player`` null for a chance line)."""
        out: dict[str, Any] = {"type": "action", "index": self.index, "player": self.player,
                               "action": dict(self.action)}
        return _with_optional(out, claims=self.claims, comment=self.comment)


@frozen
class ResultLine:
    """The optional last line: the claimed outcome (``ranking`` and ``tiebreak`` may be omitted)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    ranking: tuple[int, ...] | None = None
    tiebreak: tuple[int, ...] | None = None
    comment: str | None = None
    line: int = field(default=0, eq=False)
    type: LineType = field(default="result", init=False)

    @classmethod
    def from_result(cls, result: Any) -> ResultLine:
        """From an :class:`engine.game.Result`."""
        return cls(tuple(result.scores), tuple(result.winners), tuple(result.ranking), tuple(result.tiebreak))

    def to_json(self) -> dict[str, Any]:
        """The result line as a JSON object."""
        out: dict[str, Any] = {"type": "result", "scores": list(self.scores), "winners": list(self.winners)}
        return _with_optional(out, ranking=self.ranking, tiebreak=self.tiebreak, comment=self.comment)


RecordLine = Header | ActionLine | ResultLine


@frozen
class Record:
    """A whole record held in memory (use :func:`iter_record` to stream a large one)."""

    header: Header
    actions: tuple[ActionLine, ...]
    result: ResultLine | None = None

    def lines(self) -> Iterator[RecordLine]:
        """The lines in file order."""
        yield self.header
        yield from self.actions
        if self.result is not None:
            yield self.result


def dumps_line(data: Mapping[str, Any]) -> str:
    """One record line as text (no newline): compact, UTF-8 names kept readable, keys in writing order.

    >>> dumps_line({"type": "action", "index": 0})
    '{"type":"action","index":0}'
    """
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


# --------------------------------------------------------------------------------------------------
# Reading


def _parse_line(raw: str, where: str) -> dict[str, Any]:
    if len(raw) - raw.endswith("\n") > MAX_LINE:
        raise InputError(where, f"a line longer than {MAX_LINE} characters")
    try:
        data = loads(raw.rstrip("\r\n"), source=where)
    except InputError as exc:  # one line: its column says where
        raise InputError(where, exc.message.replace(" at line 1 column ", " at column ")) from None
    if not isinstance(data, dict):
        raise InputError(where, f"expected a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    if kind not in ("header", "action", "result"):
        raise InputError(f"{where}: type", f"expected 'header', 'action' or 'result', got {show(kind)}")
    return data


def iter_record(
    source: str | Path | IO[str], *, name: str | None = None, validate_game: bool = True,
    validate_claims: bool = True,
) -> Iterator[RecordLine]:
    """Stream the validated lines of one record from a path or a text stream.

    Checks, line by line, before yielding: valid JSON, the line schema, the game's schema for set-up, action
    and claims (``validate_game``), the structure (one header first, actions indexed 0, 1, 2 ... by seats of
    the game or, from version 3, ``null`` for a chance line; at most one result, last; a result has one score
    per seat). Blank lines are skipped. Raises :class:`InputError` with field
    ``"<name> line <n>: <json path>"``. A line longer than :data:`MAX_LINE` characters is refused without
    being read whole. ``validate_claims=False`` leaves the claims' schema to the caller
    (:func:`check_claims`; ``arbiter check`` validates a claim only when it differs from the rules' facts,
    since a claim equal to them is valid).

    >>> import io
    >>> list(iter_record(io.StringIO('{"type": "action"}'), name="x.jsonl"))
    Traceback (most recent call last):
    ...
    engine.errors.InputError: x.jsonl line 1: type: the first line must be the header, got 'action'
    """
    if isinstance(source, str | Path):
        label = name or str(source)
        # the one file reader: a regular file the policy in force allows (engine.jsonio.current_access)
        with io.TextIOWrapper(open_file(source, source=label), encoding="utf-8") as fh:
            yield from _iter_lines(fh, label, validate_game, validate_claims)
    else:
        yield from _iter_lines(source, name or "<stream>", validate_game, validate_claims)


def check_claims(game: str, claims: Any, where: str, version: int = RECORD_VERSION) -> None:
    """Validate claims against ``<game>.schema.json`` and the record version; raises InputError."""
    _check(game, "claims", claims, where, ["claims"])
    _check_version(claims, version, where)


def _iter_lines(fh: IO[str], label: str, validate_game: bool,
                validate_claims: bool) -> Iterator[RecordLine]:
    header: Header | None = None
    result_seen = False
    expected_index = 0
    game: str | None = None
    lineno = 0
    version = RECORD_VERSION
    line_ok = fast_check("record", "action")
    action_ok = line_ok
    try:
        for lineno, raw in enumerate(iter(lambda: fh.readline(MAX_LINE + 1), ""), start=1):
            if not raw.strip():
                continue
            where = f"{label} line {lineno}"
            data = _parse_line(raw, where)
            kind = data["type"]
            if result_seen:
                raise InputError(f"{where}: type", f"nothing may follow the result line, got {kind!r}")
            if header is None:
                if kind != "header":
                    raise InputError(f"{where}: type", f"the first line must be the header, got {kind!r}")
                _check("record", "header", data, where)
                version = data["version"]
                if validate_game:
                    game = data["game"]
                    action_ok = fast_check(game, "action")
                    if "position" not in data:
                        _check(data["game"], "setup", data["setup"], where, ["setup"])
                    elif data["setup"] is not None:
                        raise InputError(
                            f"{where}: setup",
                            "with a position the setup is null (the position holds the later deals)",
                        )
                    if "claims" in data and validate_claims:
                        check_claims(data["game"], data["claims"], where, version)
                header = Header(
                    game=data["game"], variant=data["variant"], options=data["options"],
                    players=data["players"], setup=data["setup"], seed=data.get("seed"),
                    source=data.get("source"), claims=data.get("claims"), comment=data.get("comment"),
                    position=data.get("position"), line=lineno, version=version,
                )
                yield header
            elif kind == "header":
                raise InputError(f"{where}: type", "a second header line (one record per file)")
            elif kind == "action":
                if not line_ok(data):
                    _check("record", "action", data, where)
                if data["index"] != expected_index:
                    raise InputError(f"{where}: index", f"expected {expected_index}, got {data['index']}")
                if data["player"] is None:
                    if version < CHANCE_VERSION:
                        raise InputError(f"{where}: player", f"a chance line (player null) needs record "
                                         f"version {CHANCE_VERSION} (the header says {version})")
                elif data["player"] >= header.players:
                    raise InputError(f"{where}: player",
                                     f"seat {data['player']} in a {header.players}-player game")
                if game is not None:
                    if not action_ok(data["action"]):
                        _check(game, "action", data["action"], where, ["action"])
                    if "claims" in data and validate_claims:
                        check_claims(game, data["claims"], where, version)
                expected_index += 1
                yield ActionLine(data["index"], data["player"], data["action"], data.get("claims"),
                                 data.get("comment"), line=lineno)
            else:
                _check("record", "result", data, where)
                for key in ("scores", "ranking", "tiebreak"):
                    if key in data and key != "tiebreak" and len(data[key]) != header.players:
                        raise InputError(f"{where}: {key}",
                                         f"expected {header.players} entries, got {len(data[key])}")
                for key in ("winners", "ranking"):
                    for i, seat in enumerate(data.get(key, [])):
                        if seat >= header.players:
                            raise InputError(f"{where}: {key}[{i}]",
                                             f"seat {seat} in a {header.players}-player game")
                result_seen = True
                yield ResultLine(
                    tuple(data["scores"]), tuple(data["winners"]),
                    tuple(data["ranking"]) if "ranking" in data else None,
                    tuple(data["tiebreak"]) if "tiebreak" in data else None,
                    data.get("comment"), line=lineno,
                )
    except UnicodeDecodeError as exc:
        raise InputError(f"{label} line {lineno + 1}", f"not UTF-8 text ({exc.reason})") from None
    if header is None:
        raise InputError(label, "empty record: no header line")


def _check_version(claims: Mapping[str, Any], version: int, where: str) -> None:
    if version < 2:
        for name in V2_CLAIMS:
            if name in claims:
                raise InputError(f"{where}: claims.{name}",
                                 f"needs record version 2 (the header says {version})")


def read_record(source: str | Path | IO[str], *, name: str | None = None) -> Record:
    """Read and validate a whole record (see :func:`iter_record` for the checks)."""
    lines = iter_record(source, name=name)
    header = next(lines)
    assert isinstance(header, Header)
    actions: list[ActionLine] = []
    result: ResultLine | None = None
    for line in lines:
        if isinstance(line, ActionLine):
            actions.append(line)
        elif isinstance(line, ResultLine):
            result = line
    return Record(header, tuple(actions), result)


# --------------------------------------------------------------------------------------------------
# Writing


class RecordWriter:
    """Write a record line by line to a text stream; indexes are counted for you.

    >>> import io
    >>> out = io.StringIO()
    >>> w = RecordWriter(out)
    >>> w.header(Header(game="take6", variant="standard", options={}, players=2, setup=[]))
    >>> w.action(1, {"card": 12}, claims={"to_act": [0]})
    >>> out.getvalue().splitlines()[1]
    '{"type":"action","index":0,"player":1,"action":{"card":12},"claims":{"to_act":[0]}}'
    """

    def __init__(self, stream: IO[str]) -> None:
        self._out = stream
        self._index = 0
        self._started = False

    def _write(self, data: Mapping[str, Any]) -> None:
        self._out.write(dumps_line(data) + "\n")

    def header(self, header: Header) -> None:
        """Write the header line (first, once)."""
        if self._started:
            raise InputError("header", "the header must be the first line, written once")
        self._started = True
        self._write(header.to_json())

    def action(self, player: int | None, action: Mapping[str, Any], claims: Mapping[str, Any] | None = None,
               comment: str | None = None) -> None:
        """Write the next action line (``player`` ``None``: a chance line, the action a chance outcome)."""
        if not self._started:
            raise InputError("action", "write the header first")
        self._write(ActionLine(self._index, player, action, claims, comment).to_json())
        self._index += 1

    def result(self, result: ResultLine) -> None:
        """Write the result line (last)."""
        self._write(result.to_json())


def record_text(record: Record) -> str:
    """A whole record as the text of its file."""
    text = io.StringIO()
    write_record(text, record)
    return text.getvalue()


def write_record(target: str | Path | IO[str], record: Record) -> None:
    """Write a whole record to a path or a text stream; an existing file is replaced only when this engine
    can prove it wrote it (its seal, :data:`engine.outputs.RECORD`)."""
    if isinstance(target, str | Path):  # a file this engine did not write is not replaced (engine.outputs)
        outputs.write(target, record_text(record), source=outputs.shown(target), kind=outputs.RECORD)
        return
    w = RecordWriter(target)
    w.header(record.header)
    for line in record.actions:
        w.action(line.player, line.action, line.claims, line.comment)
    if record.result is not None:
        w.result(record.result)


def record_game(
    game_name: str,
    *,
    players: int,
    actions: Sequence[Any],
    seed: int = 0,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    claims: bool = False,
    source: Mapping[str, Any] | None = None,
    position: str | None = None,
    chance: bool = False,
) -> Record:
    """The record of a game the reference engine played from ``seed`` (or from ``position``, a notation line:
    then the header carries it), given its action objects (chance steps among them are written as chance
    lines).

    The game is replayed to capture the explicit set-up that reproduces it (every round's deal, the stack
    orders), and with ``claims`` the facts after every action.  The result line is written when the game
    is over.  ``chance=True`` writes the record of a table whose later deals were not known up front: the
    header's set-up holds only the first round's deal, and each later round's deal (the seeded game's) is a
    chance line where the round starts (6 nimmt! only; the claims are those of that record's replay).

    >>> rec = record_game("take6", players=2, seed=5, actions=[], chance=True)
    >>> len(rec.header.setup), rec.header.version
    (1, 3)

    >>> import random
    >>> from engine.bots import playout
    >>> from engine.game import get_game
    >>> g = get_game("take6")
    >>> s = g.new_game(2, seed=5)
    >>> acts = []
    >>> while not g.is_terminal(s):
    ...     a = g.legal_actions(s, g.to_act(s)[0])[0]
    ...     acts.append(a)
    ...     s = g.apply(s, a)
    >>> rec = record_game("take6", players=2, seed=5, actions=acts)
    >>> rec.result is not None and len(rec.actions) == len(acts)
    True
    """
    from engine.conformance.kits.base import get_kit
    from engine.game import get_game

    game = get_game(game_name)
    kit = get_kit(game_name)
    chosen = variant or game.variants[0]
    opts = dict(options or {})
    if position is not None:
        state = game.from_notation(position)
        json_form = game.state_to_json(state)
        chosen, opts = json_form["variant"], dict(json_form["options"])
    else:
        state = game.new_game(players, seed=seed, variant=chosen, options=opts)
    states = [state]
    table = state  # the position the record's reader replays: the game itself, or without its later deals
    if chance:
        if position is not None or kit.chance_outcome(state) is None:
            raise InputError("chance", f"chance lines are written for {game_name} games from a seed only")
        table = game.new_game(players, seed=None, variant=chosen, options=opts,
                              setup=kit.explicit_setup(states))
    lines: list[ActionLine] = []
    for action in actions:
        state = game.apply(state, action)
        states.append(state)
        table = game.apply(table, action) if chance else state
        lines.append(ActionLine(len(lines), kit.action_player(action), game.action_to_json(action),
                                kit.facts(table) if claims else None))
        if chance and not game.to_act(table) and not game.is_terminal(table):
            outcome = kit.chance_outcome(state)
            table = game.apply(table, outcome)
            lines.append(ActionLine(len(lines), None, game.action_to_json(outcome),
                                    kit.facts(table) if claims else None))
    header = Header(
        game=game_name, variant=chosen, options=opts, players=players,
        setup=None if position is not None else kit.setup_to_json(kit.explicit_setup(states[:1] if chance
                                                                                     else states)),
        seed=seed, position=position,
        source=dict(source) if source is not None else _default_source(),
        claims=kit.facts(states[0]) if claims else None,
    )
    result = ResultLine.from_result(game.result(table)) if game.is_terminal(table) else None
    return Record(header, tuple(lines), result)


def _default_source() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    try:
        ver = version("arbiter-rules")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        ver = "unknown"
    return {"implementation": "arbiter-rules", "version": ver}
