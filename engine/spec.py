"""Loading and checking the rule tables in ``spec/``.

The rules live as TOML tables; this module reads them and checks them against declared schemas before any
engine code runs, in the manner of a card-script linter: an unknown key, a missing or mistyped field, a
dangling clause id or a citation whose quote is not in its seed document fails loudly with a
:class:`~engine.errors.SpecError` naming the table, the row and the field.

Layout::

    spec/seeds.toml              the citable source documents (key -> file)
    spec/<game>/clauses.toml     every rule of a game as a clause: id, topic, wording, citations
    spec/<game>/*.toml           data tables (decks, scoring tables, set-up, variants ...)

A clause::

    [[clause]]
    id = "T6-PLACE-1"                      # stable id: GAME-TOPIC-N
    topic = "placement"
    text = "One sentence of our own wording."
    cites = [{ seed = "004", where = "Геймплей, rule 2", quote = "verbatim words from the seed" }]
    ruling = "..."                         # optional: the seeds disagree or are silent; why we ruled so
    rejects = "..."                        # with a ruling: the other reading, which the engine rejects
    alternative = "professional"           # optional: the variant/option selecting the other reading
    variants = ["professional"]            # optional: the clause applies only in these variants
    restates = "T6-PLACE-3"                # optional, with variants: the standard clause whose step this
                                           # clause states for its variants (T6-PRO-5: a card fitting no row)

>>> book = load_clauses("take6")
>>> book["T6-PLACE-1"].game
'take6'
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from engine.errors import SpecError

__all__ = [
    "Citation",
    "Clause",
    "ClauseBook",
    "Field",
    "Tables",
    "all_clauses",
    "check_rows",
    "clause_games",
    "clause_prefix",
    "data_root",
    "game_of_clause",
    "load_clauses",
    "load_table",
    "parse_clauses",
    "read_toml",
    "seed_document",
    "seed_index",
    "spec_dir",
]

CLAUSE_ID = re.compile(r"^[A-Z][A-Z0-9]*-[A-Z0-9]+(-[A-Z0-9]+)*-\d+$")


@functools.cache
def data_root() -> Path:
    """The folder holding ``spec/`` and ``seeds/``: inside the installed wheel, else the repository.

    >>> (data_root() / "spec" / "seeds.toml").is_file()
    True
    """
    packaged = Path(__file__).resolve().parent / "_data"
    if (packaged / "spec").is_dir():
        return packaged
    repo = Path(__file__).resolve().parent.parent
    if (repo / "spec").is_dir():
        return repo
    raise SpecError(f"spec tables not found in {packaged} or {repo}")


def spec_dir(game: str | None = None) -> Path:
    """The ``spec/`` folder, or one game's subfolder of it."""
    root = data_root() / "spec"
    return root / game if game else root


def read_toml(path: Path) -> dict[str, Any]:
    """Read a TOML file; a syntax error becomes a :class:`SpecError` naming the file."""
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError as exc:
        raise SpecError(f"{path.name}: table file missing ({path})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path.name}: not valid TOML: {exc}") from exc


# --------------------------------------------------------------------------------------------------
# The tables of one game, as data


@frozen(eq=False)
class Tables:
    """The data tables of one game's rules: each file of ``spec/<game>/`` (but ``clauses.toml``) as its
    parsed TOML document, by file name.  :meth:`shipped` is the tables as shipped; :meth:`replace` gives a
    copy with one document replaced (an edited rule table: a test, a fault model), labelled by ``edits``.
    The interpreters build their rules from a ``Tables`` value, so edited rules are built in-process,
    without writing a file or touching the shipped rules.  Two values are equal when they are of the same
    game with the same edit labels.  The documents are shared, never mutated: edit a deep copy.

    >>> t = Tables.shipped("take6")
    >>> t.doc("setup.toml")["setup"][0]["row_capacity"]
    5
    >>> doc = {"setup": [{**t.doc("setup.toml")["setup"][0], "row_capacity": 4}]}
    >>> e = t.replace("setup.toml", doc, "setup/standard/row_capacity=4")
    >>> e.edits, e.doc("setup.toml")["setup"][0]["row_capacity"], e == t
    (('setup/standard/row_capacity=4',), 4, False)
    """

    game: str
    docs: Mapping[str, Mapping[str, Any]]
    edits: tuple[str, ...] = ()

    @staticmethod
    def read(game: str) -> Tables:
        """Read every table file of ``spec/<game>/`` afresh (see :meth:`shipped` for the cached value)."""
        folder = spec_dir(game)
        names = sorted(p.name for p in folder.glob("*.toml") if p.name != "clauses.toml")
        return Tables(game, {name: read_toml(folder / name) for name in names})

    @staticmethod
    def shipped(game: str) -> Tables:
        """The game's tables as shipped in ``spec/<game>/``, read once."""
        return _shipped(game)

    def doc(self, filename: str) -> Mapping[str, Any]:
        """The parsed document of ``filename``; a file the game does not have raises SpecError."""
        try:
            return self.docs[filename]
        except KeyError:
            raise SpecError(f"{filename}: table file missing ({spec_dir(self.game) / filename})") from None

    def replace(self, filename: str, doc: Mapping[str, Any], edit: str) -> Tables:
        """These tables with ``filename``'s document replaced by ``doc``, labelled ``edit``."""
        return Tables(self.game, {**self.docs, filename: doc}, (*self.edits, edit))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tables) and (self.game, self.edits) == (other.game, other.edits)

    def __hash__(self) -> int:
        return hash((self.game, self.edits))

    def __repr__(self) -> str:
        edits = f", edits={list(self.edits)!r}" if self.edits else ""
        return f"Tables({self.game!r}{edits})"

    def __reduce__(self) -> tuple[Any, ...]:
        if not self.edits:
            return (Tables.shipped, (self.game,))
        return (Tables, (self.game, dict(self.docs), self.edits))


@functools.cache
def _shipped(game: str) -> Tables:
    return Tables.read(game)


# --------------------------------------------------------------------------------------------------
# Declarative row schemas


@frozen
class Field:
    """One field of a table row: its name, accepted type(s), whether required, and an optional check.

    ``check`` returns an error message (or ``None``) for a value of the right type.  ``clause_ref`` marks a
    field holding a clause id (or a list of them) that must exist in the game's clause book.

    >>> Field("cost", int, check=lambda v: None if v >= 0 else "must be >= 0").name
    'cost'
    """

    name: str
    type: type | tuple[type, ...]
    required: bool = True
    check: Callable[[Any], str | None] | None = None
    clause_ref: bool = False
    default: Any = None


def _type_name(t: type | tuple[type, ...]) -> str:
    if isinstance(t, tuple):
        return " or ".join(x.__name__ for x in t)
    return t.__name__


def check_rows(
    table: str,
    rows: object,
    fields: Sequence[Field],
    *,
    clause_ids: Iterable[str] | None = None,
    key: str | None = None,
) -> tuple[dict[str, Any], ...]:
    """Check a list of rows against a schema; return them with defaults filled in.

    Fails on a non-list, a non-table row, an unknown key, a missing required field, a wrong type, a failed
    ``check``, a clause reference not in ``clause_ids``, or (with ``key``) a duplicate key value.

    >>> check_rows("demo", [{"n": 1}], [Field("n", int), Field("tag", str, required=False, default="-")])
    ({'n': 1, 'tag': '-'},)
    >>> check_rows("demo", [{"n": 1, "x": 2}], [Field("n", int)])
    Traceback (most recent call last):
    ...
    engine.errors.SpecError: demo row 1: unknown field 'x' (known: n)
    """
    if not isinstance(rows, list):
        raise SpecError(f"{table}: expected a list of rows, got {type(rows).__name__}")
    known = {f.name: f for f in fields}
    ids = set(clause_ids) if clause_ids is not None else None
    out: list[dict[str, Any]] = []
    seen: set[Any] = set()
    for index, row in enumerate(rows, start=1):
        where = f"{table} row {index}"
        if not isinstance(row, dict):
            raise SpecError(f"{where}: expected a table, got {type(row).__name__}")
        if key is not None and key in row:
            where = f"{table} row {index} ({key}={row[key]!r})"
        for name in row:
            if name not in known:
                raise SpecError(f"{where}: unknown field {name!r} (known: {', '.join(known)})")
        clean: dict[str, Any] = {}
        for f in fields:
            if f.name not in row:
                if f.required:
                    raise SpecError(f"{where}: missing field {f.name!r}")
                clean[f.name] = f.default
                continue
            value = row[f.name]
            if isinstance(value, bool) and f.type is not bool and not (
                isinstance(f.type, tuple) and bool in f.type
            ):
                raise SpecError(f"{where}: field {f.name!r} must be {_type_name(f.type)}, got bool")
            if not isinstance(value, f.type):
                raise SpecError(
                    f"{where}: field {f.name!r} must be {_type_name(f.type)}, got {type(value).__name__}"
                )
            if f.check is not None:
                problem = f.check(value)
                if problem:
                    raise SpecError(f"{where}: field {f.name!r}: {problem}")
            if f.clause_ref and ids is not None:
                refs = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) \
                    else [value]
                for ref in refs:
                    if ref not in ids:
                        raise SpecError(f"{where}: field {f.name!r} names unknown clause {ref!r}")
            clean[f.name] = value
        _check_field_clauses(where, clean, known)
        if key is not None:
            if clean[key] in seen:
                raise SpecError(f"{where}: duplicate {key} {clean[key]!r}")
            seen.add(clean[key])
        out.append(clean)
    return tuple(out)


FIELD_CLAUSES = "field_clauses"
"""A row's optional map from its fields to the clause each states, among the row's ``clauses`` (a set-up
row cites the player count, the deal and the rows, but its ``row_capacity`` is the 6th-card rule's: a fault
changing that field names T6-PLACE-2, not the row's first clause)."""


def row_clauses(row: Mapping[str, Any]) -> tuple[str, ...]:
    """The clauses a table row cites: its ``clause``, then its ``clauses``.

    >>> row_clauses({"clause": "SP-OBS-1"}), row_clauses({"clauses": ["T6-SETUP-1", "T6-PLACE-2"]})
    (('SP-OBS-1',), ('T6-SETUP-1', 'T6-PLACE-2'))
    """
    many = row.get("clauses") or ()
    return tuple(c for c in (row.get("clause"), *many) if isinstance(c, str))


def field_clause(row: Mapping[str, Any], name: str = "") -> str:
    """The clause field ``name`` of ``row`` states: the row's ``field_clauses`` entry for it, else the
    row's clause (its first one); ``""`` for a row citing none.

    >>> row = {"clauses": ["T6-SETUP-1", "T6-PLACE-2"], "field_clauses": {"row_capacity": "T6-PLACE-2"}}
    >>> field_clause(row, "row_capacity"), field_clause(row, "rows"), field_clause(row)
    ('T6-PLACE-2', 'T6-SETUP-1', 'T6-SETUP-1')
    """
    stated = row.get(FIELD_CLAUSES) or {}
    return str(stated.get(name) or next(iter(row_clauses(row)), ""))


def _check_field_clauses(where: str, row: Mapping[str, Any], known: Mapping[str, Field]) -> None:
    """A row's ``field_clauses``: each key a field of the table, each value one of the row's clauses."""
    given = row.get(FIELD_CLAUSES)
    if not given:
        return
    cited = row_clauses(row)
    for name, clause in given.items():
        if name not in known or name in (FIELD_CLAUSES, "clauses", "clause"):
            raise SpecError(f"{where}: field {FIELD_CLAUSES!r}: {name!r} is no field of the table")
        if not isinstance(clause, str) or clause not in cited:
            raise SpecError(f"{where}: field {FIELD_CLAUSES!r}: {name} = {clause!r} is not one of the row's "
                            f"clauses ({', '.join(str(c) for c in cited)})")


def load_table(
    game: str,
    filename: str,
    array: str,
    fields: Sequence[Field],
    *,
    key: str | None = None,
    allowed_top: Iterable[str] = (),
    tables: Tables | None = None,
) -> tuple[dict[str, Any], ...]:
    """Load ``spec/<game>/<filename>``'s array of tables ``array`` and check it against ``fields``: from
    ``tables`` (default: the shipped tables).

    Clause references are checked against the game's clause book.  Top-level keys other than ``array`` and
    ``allowed_top`` are rejected.
    """
    doc = (tables if tables is not None else Tables.shipped(game)).doc(filename)
    allowed = {array, *allowed_top}
    for name in doc:
        if name not in allowed:
            known = ", ".join(sorted(allowed))
            raise SpecError(f"{game}/{filename}: unknown top-level key {name!r} (known: {known})")
    if array not in doc:
        raise SpecError(f"{game}/{filename}: missing [[{array}]] rows")
    book = load_clauses(game)
    return check_rows(f"{game}/{filename} [[{array}]]", doc[array], fields, clause_ids=book.ids(), key=key)


# --------------------------------------------------------------------------------------------------
# Seeds and clauses


@frozen
class Seed:
    """A citable source document."""

    key: str
    file: str
    language: str
    title: str
    games: tuple[str, ...]
    """The games whose rules the document describes."""


@functools.cache
def seed_index() -> dict[str, Seed]:
    """The citable documents by key (``000``, ``001``, ``003``, ``004``, ``ref``)."""
    doc = read_toml(spec_dir() / "seeds.toml")
    rows = check_rows(
        "seeds.toml [[seed]]",
        doc.get("seed"),
        [
            Field("key", str),
            Field("file", str),
            Field("language", str),
            Field("title", str),
            Field("games", list),
        ],
        key="key",
    )
    games = clause_games()
    for r in rows:
        if not r["games"] or any(g not in games for g in r["games"]):
            where = f"seeds.toml [[seed]] ({r['key']})"
            raise SpecError(f"{where}: field 'games' must list games of spec/ ({', '.join(games)})")
    return {r["key"]: Seed(r["key"], r["file"], r["language"], r["title"], tuple(r["games"])) for r in rows}


@functools.cache
def seed_document(key: str) -> str:
    """The full text of a seed document, by key.

    >>> "33" in seed_document("004")
    True
    """
    index = seed_index()
    if key not in index:
        raise SpecError(f"unknown seed {key!r} (known: {', '.join(index)})")
    path = data_root() / "seeds" / index[key].file
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise SpecError(f"seed {key!r}: file {path} missing") from exc


_WS = re.compile(r"\s+")


def _squash(text: str) -> str:
    return _WS.sub(" ", text).strip()


@functools.cache
def _squashed_seed(key: str) -> str:
    return _squash(seed_document(key))


@frozen
class Citation:
    """A passage of a seed document: its key, where in it, and the verbatim words."""

    seed: str
    where: str
    quote: str

    def locate(self) -> int:
        """Offset of the quote in the (whitespace-folded) seed text; -1 if absent."""
        return _squashed_seed(self.seed).find(_squash(self.quote))


@frozen
class Clause:
    """One rule: stable id, game, topic, our wording, citations, and (for rulings) why and the alternative."""

    id: str
    game: str
    topic: str
    text: str
    cites: tuple[Citation, ...]
    ruling: str | None = None
    alternative: str | None = None
    variants: tuple[str, ...] = ()
    rejects: str | None = None
    restates: str | None = None
    """A variant's clause stating, for its variants, the step a clause of every variant states (T6-PRO-5
    restates T6-PLACE-3: the row taken for a card that fits no row, where the professional rows fit)."""

    @property
    def disputed(self) -> bool:
        """True when the clause is a ruling where the seeds disagree or are silent."""
        return self.ruling is not None


class ClauseBook(Mapping[str, Clause]):
    """The clauses of one game, in file order, looked up by id."""

    def __init__(self, game: str, clauses: Sequence[Clause]) -> None:
        self.game = game
        self._by_id = {c.id: c for c in clauses}

    def __getitem__(self, key: str) -> Clause:
        return self._by_id[key]

    def __iter__(self) -> Any:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)

    def ids(self) -> frozenset[str]:
        """All clause ids of the game."""
        return frozenset(self._by_id)

    def require(self, clause_id: str) -> str:
        """Return ``clause_id`` if it exists, else fail: engine code names clauses through this."""
        if clause_id not in self._by_id:
            raise SpecError(f"{self.game}: engine refers to unknown clause {clause_id!r}")
        return clause_id

    def step_clause(self, clause_id: str) -> str:
        """The clause of every variant whose step ``clause_id`` states (its ``restates``), else
        ``clause_id`` itself (also for an id the book does not hold).

        >>> book = load_clauses("take6")
        >>> book.step_clause("T6-PRO-5"), book.step_clause("T6-KIDS-4"), book.step_clause("T6-PLACE-3")
        ('T6-PLACE-3', 'T6-END-2', 'T6-PLACE-3')
        """
        found = self._by_id.get(clause_id)
        return found.restates if found is not None and found.restates is not None else clause_id

    def restating(self, clause_id: str) -> tuple[str, ...]:
        """The variants' clauses that restate ``clause_id``'s step, in book order.

        >>> load_clauses("take6").restating("T6-PLACE-3")
        ('T6-PRO-5',)
        """
        return tuple(c.id for c in self._by_id.values() if c.restates == clause_id)


_CITE_FIELDS = [Field("seed", str), Field("where", str), Field("quote", str)]


def clause_games() -> tuple[str, ...]:
    """The games with a clause table (``spec/<game>/clauses.toml``), in name order.  The engine's own list
    of games is :data:`engine.game.GAME_PACKAGES`; this one is what the tables hold.

    >>> clause_games()
    ('petersburg', 'take6')
    """
    root = spec_dir()
    return tuple(sorted(p.name for p in root.iterdir() if (p / "clauses.toml").is_file()))


@functools.cache
def clause_prefix(game: str) -> str:
    """The prefix of every clause id of ``game``: the ``prefix`` key of ``spec/<game>/clauses.toml``.

    >>> clause_prefix("take6"), clause_prefix("petersburg")
    ('T6', 'SP')
    """
    path = spec_dir(game) / "clauses.toml"
    if not path.is_file():
        raise SpecError(f"{game}: no clause table {path}")
    prefix = read_toml(path).get("prefix")
    if not isinstance(prefix, str) or not re.fullmatch(r"[A-Z][A-Z0-9]*", prefix):
        raise SpecError(f"{game}/clauses.toml: top-level key 'prefix' must be upper-case letters, like T6")
    return prefix


def game_of_clause(clause_id: str) -> str | None:
    """The game whose clause ids start like ``clause_id`` (``None`` if none).

    >>> game_of_clause("SP-COST-4")
    'petersburg'
    """
    return next((g for g in clause_games() if clause_id.startswith(clause_prefix(g) + "-")), None)


def _check_clause_id(game: str, prefix: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if not CLAUSE_ID.match(value):
            return f"{value!r} is not a clause id like T6-PLACE-1"
        if prefix and not value.startswith(prefix + "-"):
            return f"{value!r} must start with {prefix}-"
        return None

    return check


def _nonempty(value: Any) -> str | None:
    return None if value.strip() else "must not be empty"


@functools.cache
def load_clauses(game: str) -> ClauseBook:
    """Load and check ``spec/<game>/clauses.toml`` (see :func:`parse_clauses`)."""
    return parse_clauses(game, read_toml(spec_dir(game) / "clauses.toml"))


def parse_clauses(game: str, doc: Mapping[str, Any]) -> ClauseBook:
    """Check a parsed clauses document: ids well formed and unique, every clause citing at least one
    passage, every citation's quote found verbatim (whitespace-folded) in its seed document.

    >>> doc = {"clause": [{"id": "T6-DEMO-1", "topic": "demo", "text": "Cards are numbered.",
    ...        "cites": [{"seed": "004", "where": "Резюме", "quote": "В игре 104 карты"}]}]}
    >>> parse_clauses("take6", doc)["T6-DEMO-1"].cites[0].seed
    '004'
    """
    table = f"{game}/clauses.toml [[clause]]"
    for name in doc:
        if name not in ("clause", "prefix"):
            raise SpecError(f"{game}/clauses.toml: unknown top-level key {name!r} (known: prefix, clause)")
    prefix = clause_prefix(game)
    if doc.get("prefix", prefix) != prefix:
        raise SpecError(f"{game}/clauses.toml: top-level key 'prefix' must be {prefix!r}")
    rows = check_rows(
        table,
        doc.get("clause"),
        [
            Field("id", str, check=_check_clause_id(game, prefix)),
            Field("topic", str, check=_nonempty),
            Field("text", str, check=_nonempty),
            Field("cites", list),
            Field("ruling", str, required=False),
            Field("rejects", str, required=False),
            Field("alternative", str, required=False),
            Field("variants", list, required=False, default=[]),
            Field("restates", str, required=False),
        ],
        key="id",
    )
    seeds = seed_index()
    clauses: list[Clause] = []
    for row in rows:
        where = f"{table} ({row['id']})"
        if not row["cites"]:
            raise SpecError(f"{where}: field 'cites' must name at least one seed passage")
        cites = check_rows(f"{where} cites", row["cites"], _CITE_FIELDS)
        citations = []
        for i, c in enumerate(cites, start=1):
            if c["seed"] not in seeds:
                raise SpecError(f"{where} cite {i}: unknown seed {c['seed']!r} (known: {', '.join(seeds)})")
            cit = Citation(c["seed"], c["where"], c["quote"])
            if not _squash(cit.quote):
                raise SpecError(f"{where} cite {i}: empty quote")
            if cit.locate() < 0:
                raise SpecError(f"{where} cite {i}: quote not found in seed {c['seed']}: {cit.quote[:60]!r}")
            citations.append(cit)
        for extra in ("alternative", "rejects"):
            if row[extra] is not None and row["ruling"] is None:
                raise SpecError(f"{where}: {extra!r} given without a 'ruling'")
        if not all(isinstance(v, str) for v in row["variants"]):
            raise SpecError(f"{where}: field 'variants' must be a list of strings")
        if row["restates"] is not None and not row["variants"]:
            raise SpecError(f"{where}: field 'restates' needs 'variants' (a variant's clause restates)")
        clauses.append(
            Clause(
                id=row["id"],
                game=game,
                topic=row["topic"],
                text=row["text"],
                cites=tuple(citations),
                ruling=row["ruling"],
                alternative=row["alternative"],
                variants=tuple(row["variants"]),
                rejects=row["rejects"],
                restates=row["restates"],
            )
        )
    by_id = {c.id: c for c in clauses}
    for made in clauses:  # what a clause restates is a clause of every variant
        if made.restates is None:
            continue
        target = by_id.get(made.restates)
        if target is None or target.variants:
            what = "names no clause" if target is None else "names a variant's clause"
            raise SpecError(f"{table} ({made.id}): field 'restates' {what}: {made.restates!r}")
    return ClauseBook(game, clauses)


def all_clauses(games: Iterable[str] | None = None) -> dict[str, Clause]:
    """Every clause of ``games`` (default: every game with a clause table, :func:`clause_games`), by id,
    game after game in the order given."""
    out: dict[str, Clause] = {}
    for game in clause_games() if games is None else games:
        out.update(load_clauses(game))
    return out
