"""The rule reference: clauses by game and topic, one clause with its citations and the checks that cite it,
the table of rulings where the seeds disagree or are silent, and the generated ``docs/rules/`` pages.

Everything here reads the clause books the engine itself loads (:func:`engine.spec.load_clauses`), so the
reference cannot describe a rule the engine does not have.

>>> from engine.spec import parse_clauses
>>> book = parse_clauses("take6", {"clause": [{"id": "T6-DEMO-1", "topic": "demo",
...     "text": "Cards are numbered.",
...     "cites": [{"seed": "004", "where": "Резюме", "quote": "В игре 104 карты"}]}]})
>>> print("\\n".join(list_lines(list(book.values()), width=80)))
take6 · demo (1)
  T6-DEMO-1  Cards are numbered.
"""

from __future__ import annotations

import difflib
import functools
import re
import stat
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from engine import outputs
from engine.errors import InputError
from engine.game import facets, game_names
from engine.query.model import cite_json
from engine.query.render import quote_line, table, wrap
from engine.spec import Clause, all_clauses, game_of_clause, load_clauses, seed_index, spec_dir

__all__ = [
    "Check",
    "checks_for",
    "clause_json",
    "clause_lines",
    "disputed",
    "disputed_lines",
    "docs_pages",
    "find_clause",
    "games_with_clauses",
    "list_lines",
    "near_clauses",
    "select",
    "stale_pages",
    "topics",
    "vectors_for",
    "write_docs",
]

CLAUSE_ID_IN_TEXT = re.compile(r"\b(?:T6|SP)-[A-Z0-9]+(?:-[A-Z0-9]+)*-\d+\b")


def games_with_clauses() -> tuple[str, ...]:
    """The games whose ``spec/<game>/clauses.toml`` exists, in registry order."""
    return tuple(g for g in game_names() if (spec_dir(g) / "clauses.toml").is_file())


def _book(game: str | None) -> list[Clause]:
    if game is None:
        return list(all_clauses(game_names()).values())
    if game not in game_names():
        raise InputError("--game", f"unknown game {game!r} (known: {', '.join(game_names())})")
    if game not in games_with_clauses():
        return []
    return list(load_clauses(game).values())


def topics(game: str | None = None) -> tuple[str, ...]:
    """The topics of a game's clauses (all games when ``None``), in file order."""
    return tuple(dict.fromkeys(c.topic for c in _book(game)))


def select(game: str | None = None, topic: str | None = None, *, disputed_only: bool = False) -> list[Clause]:
    """Clauses of ``game`` (all when ``None``), optionally of one ``topic`` and/or only the rulings.

    An unknown game or topic raises :class:`InputError` naming ``--game`` / ``--topic``.
    """
    clauses = _book(game)
    if topic is not None:
        known = topics(game)
        if topic not in known:
            hint = difflib.get_close_matches(topic, known, n=3)
            extra = f"; did you mean {', '.join(hint)}?" if hint else f" (known: {', '.join(known)})"
            raise InputError("--topic", f"no clauses with topic {topic!r}{extra}")
        clauses = [c for c in clauses if c.topic == topic]
    if disputed_only:
        clauses = [c for c in clauses if c.disputed]
    return clauses


def find_clause(clause_id: str) -> Clause:
    """The clause with this id (case-insensitive); an unknown id raises InputError naming ``ID``.

    >>> find_clause("T6-NOPE-99")
    Traceback (most recent call last):
    ...
    engine.errors.InputError: ID: unknown clause 'T6-NOPE-99'...
    """
    book = all_clauses(game_names())
    key = clause_id.strip().upper()
    if key in book:
        return book[key]
    hint = near_clauses(clause_id)
    extra = f"; did you mean {', '.join(hint)}?" if hint else " (see 'arbiter rules' for the list)"
    raise InputError("ID", f"unknown clause {clause_id!r}{extra}")


def near_clauses(clause_id: str) -> list[str]:
    """Up to three clause ids spelled like ``clause_id`` (what an unknown id may have meant).

    >>> near_clauses("T6-PLACE-9")
    ['T6-PLACE-3', 'T6-PLACE-2', 'T6-PLACE-1']
    """
    book = all_clauses(game_names())
    return difflib.get_close_matches(clause_id.strip().upper(), list(book), n=3, cutoff=0.6)


def disputed(game: str | None = None) -> list[Clause]:
    """Every ruling: clauses where the seeds disagree or are silent (those with a ``ruling`` field)."""
    return [c for c in _book(game) if c.disputed]


# --------------------------------------------------------------------------------------------------
# Checks that cite a clause: tests and properties (when running from the repository), conformance vectors


@frozen
class Check:
    """A place that checks a clause: a test or property function (file, line, name) or a vector."""

    kind: str
    where: str
    name: str
    line: int = 0

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"kind": self.kind, "where": self.where, "name": self.name, "line": self.line}


def repo_root() -> Path | None:
    """The repository root when running from a checkout (it has ``tests/``), else ``None``."""
    root = Path(__file__).resolve().parent.parent.parent
    return root if (root / "tests").is_dir() and (root / "spec").is_dir() else None


_DEF = re.compile(r"^\s*(?:async\s+)?def\s+(\w+)|^\s*class\s+(\w+)")


@functools.cache
def _test_index(root: Path) -> dict[str, tuple[Check, ...]]:
    found: dict[str, dict[tuple[str, str], Check]] = {}
    for folder in ("tests", "properties"):
        base = root / folder
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            current = "(module)"
            current_line = 1
            for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                m = _DEF.match(text)
                if m:
                    current = m.group(1) or m.group(2)
                    current_line = number
                for cid in CLAUSE_ID_IN_TEXT.findall(text):
                    kind = "property" if folder == "properties" else "test"
                    check = Check(kind, rel, current, current_line)
                    found.setdefault(cid, {}).setdefault((rel, current), check)
    return {cid: tuple(v.values()) for cid, v in found.items()}


def checks_for(clause_id: str, root: Path | None = None) -> tuple[Check, ...]:
    """The test/property functions whose source mentions ``clause_id`` (``()`` outside a checkout)."""
    base = root or repo_root()
    if base is None:
        return ()
    return _test_index(base).get(clause_id, ())


def vectors_for(clause_id: str) -> tuple[Check, ...]:
    """The conformance kit's hand-picked vectors that exercise ``clause_id`` (``()`` without the kit).

    The generated vectors are mined from seeded games at export time (``arbiter vectors export``), too slow
    to build for a lookup; the hand-picked ones are the independent oracle and are listed here.
    """
    import importlib

    game = game_of_clause(clause_id)
    if game is None:
        return ()
    try:
        vec_mod = importlib.import_module("engine.conformance.vectors.suite")
        cases = vec_mod.hand_picked_cases(game)
    except Exception:  # the kit is optional here; a failing kit must not break the rule reference
        return ()
    where = f"engine/conformance/vectors/cases/{game}.json"
    return tuple(Check("vector", where, str(c.id)) for c in cases if clause_id in c.clauses)


# --------------------------------------------------------------------------------------------------
# Text and JSON views


def clause_json(clause: Clause, *, checks: Sequence[Check] = ()) -> dict[str, Any]:
    """One clause as JSON: id, game, topic, wording, citations, ruling, alternative, variants, the clause
    whose step it restates for them, checks."""
    return {
        "id": clause.id,
        "game": clause.game,
        "topic": clause.topic,
        "text": clause.text,
        "cites": [cite_json(c) for c in clause.cites],
        "ruling": clause.ruling,
        "rejects": clause.rejects,
        "alternative": clause.alternative,
        "variants": list(clause.variants),
        "restates": clause.restates,
        "checked_by": [c.to_json() for c in checks],
    }


def list_lines(clauses: Sequence[Clause], *, width: int) -> list[str]:
    """Clauses grouped by game and topic: ``id  wording`` with the wording wrapped; rulings marked."""
    out: list[str] = []
    groups: dict[tuple[str, str], list[Clause]] = {}
    for c in clauses:
        groups.setdefault((c.game, c.topic), []).append(c)
    id_width = max((len(c.id) for c in clauses), default=8)
    for (game, topic), members in groups.items():
        if out:
            out.append("")
        out.append(f"{game} · {topic} ({len(members)})")
        for c in members:
            marks = []
            if c.variants:
                marks.append(f"[variants: {', '.join(c.variants)}]")
            if c.disputed:
                marks.append("[ruling" + (f"; other reading: {c.alternative}]" if c.alternative else "]"))
            text = c.text + ("  " + " ".join(marks) if marks else "")
            out.extend(wrap(text, width, indent=" " * (id_width + 4), first=f"  {c.id.ljust(id_width)}  "))
    return out


def clause_lines(clause: Clause, *, width: int, checks: Sequence[Check] = ()) -> list[str]:
    """One clause in full: wording, game/topic, variants, ruling and alternative, citations, checks."""
    seeds = seed_index()
    out = [f"{clause.id}  ({facets(clause.game).title} · {clause.topic})"]
    out.extend(wrap(clause.text, width, indent="  "))
    if clause.variants:
        out.append(f"  applies only in: {', '.join(clause.variants)}"
                   + (f" (there, the step of {clause.restates})" if clause.restates else ""))
    if clause.ruling is not None:
        out.append("")
        lead = "  Ruling (seeds disagree or are silent): "
        out.extend(wrap(clause.ruling, width, indent="    ", first=lead))
        if clause.rejects:
            out.extend(wrap(clause.rejects, width, indent="    ", first="  Rejected reading: "))
        if clause.alternative:
            out.append(f"  Other reading: variant/option {clause.alternative!r}")
    out.append("")
    out.append("  Cited from:")
    for cite in clause.cites:
        title = seeds[cite.seed].title if cite.seed in seeds else cite.seed
        out.extend(wrap(f"{cite.seed} — {title}", width, indent="      ", first="    "))
        out.extend(quote_line(cite.seed, cite.where, cite.quote, width, indent="      "))
    out.append("")
    if checks:
        out.append("  Checked by:")
        out.extend(
            table(["kind", "where", "name"], [[c.kind, f"{c.where}:{c.line}" if c.line else c.where, c.name]
                                              for c in checks], indent="    ")
        )
    else:
        out.append("  Checked by: (no test, property or vector found that names this clause)")
    return out


def disputed_rows(clauses: Iterable[Clause]) -> list[list[str]]:
    """Rows ``[id, ruling (what the engine does), why, rejected reading, option for it]`` of the disputed
    table."""
    return [[c.id, c.text, c.ruling or "", c.rejects or "",
             c.alternative or "(none: no variant reads it otherwise)"] for c in clauses if c.disputed]


def disputed_lines(clauses: Sequence[Clause], *, width: int) -> list[str]:
    """The rulings as readable blocks: the point, why the engine rules so, the other reading's variant."""
    out: list[str] = []
    for c in clauses:
        if not c.disputed:
            continue
        if out:
            out.append("")
        out.append(f"{c.id}  ({c.game} · {c.topic})")
        out.extend(wrap(c.text, width, indent="      ", first="  rule: "))
        out.extend(wrap(c.ruling or "", width, indent="      ", first="  why:  "))
        out.extend(wrap(c.rejects or "(not stated)", width, indent="      ", first="  rejects: "))
        alt = f"variant/option {c.alternative!r}" if c.alternative else "none (no variant reads it otherwise)"
        out.append(f"  selected by: {alt}")
        seeds = ", ".join(dict.fromkeys(f"{x.seed} ({x.where})" for x in c.cites))
        out.extend(wrap(seeds, width, indent="      ", first="  seeds: "))
    if not out:
        out.append("(no rulings: the seeds agree on every clause loaded)")
    return out


# --------------------------------------------------------------------------------------------------
# docs/rules/ — generated from spec/ only (so the pages change exactly when the spec does)



def _md_escape(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _md_clause(c: Clause) -> list[str]:
    seeds = seed_index()
    out = [f"### {c.id}", "", " ".join(c.text.split()), ""]
    if c.variants:
        out += [f"*Applies only in:* {', '.join(f'`{v}`' for v in c.variants)}"
                + (f" (there, the step of [{c.restates}](#{c.restates.lower()}))" if c.restates else ""), ""]
    if c.ruling is not None:
        out += [f"**Ruling** (the seeds disagree or are silent): {' '.join(c.ruling.split())}", ""]
        if c.rejects:
            out += [f"*Rejected reading:* {' '.join(c.rejects.split())}", ""]
        if c.alternative:
            out += [f"*Other reading:* variant/option `{c.alternative}`", ""]
    for cite in c.cites:
        title = seeds[cite.seed].title if cite.seed in seeds else cite.seed
        out.append(f"> **{cite.seed}** ({title}) — {' '.join(cite.where.split())}:")
        out.append(f"> “{' '.join(cite.quote.split())}”")
        out.append("")
    return out


def _game_page(game: str, clauses: Sequence[Clause]) -> str:
    title = facets(game).title
    out = ["", f"# {title} — rules by clause", ""]
    out.append(f"{len(clauses)} clauses; each cites the seed passage it rests on (see `seeds/README.md`). "
               f"Look one up with `arbiter rules ID`.")
    out.append("")
    by_topic: dict[str, list[Clause]] = {}
    for c in clauses:
        by_topic.setdefault(c.topic, []).append(c)
    out.append("| topic | clauses |")
    out.append("|---|---|")
    for topic, members in by_topic.items():
        out.append(f"| [{topic}](#{_anchor(topic)}) | {', '.join(m.id for m in members)} |")
    out.append("")
    for topic, members in by_topic.items():
        out += [f"## {topic}", ""]
        for c in members:
            out += _md_clause(c)
    return "\n".join(out).rstrip() + "\n"


def _anchor(text: str) -> str:
    return re.sub(r"[^a-z0-9 -]", "", text.lower()).strip().replace(" ", "-")


def _disputed_page(clauses: Sequence[Clause]) -> str:
    out = ["", "# Where the seeds disagree or are silent", ""]
    out.append("Every point on which the seed documents disagree, or say nothing, is a clause with a "
               "`ruling`: the engine's reading, why, and (where one exists) the variant or option that "
               "selects the other reading. The same table prints with `arbiter rules --disputed`.")
    out.append("")
    out.append("| clause | game | what the engine does | why | rejected reading | selected by |")
    out.append("|---|---|---|---|---|---|")
    for c in clauses:
        if c.disputed:
            alt = f"`{c.alternative}`" if c.alternative else "—"
            out.append(f"| [{c.id}]({c.game}.md#{c.id.lower()}) | {c.game} | {_md_escape(c.text)} | "
                       f"{_md_escape(c.ruling or '')} | {_md_escape(c.rejects or '')} | {alt} |")
    return "\n".join(out).rstrip() + "\n"


def _index_page(books: Mapping[str, Sequence[Clause]]) -> str:
    seeds = seed_index()
    out = ["", "# Rules reference", ""]
    out.append("The rules of both games as the engine runs them: one clause per rule, each with a stable id, "
               "our one-sentence wording and the seed passage it cites. These pages are written from `spec/` "
               "by `arbiter rules --write-docs docs/rules`; a test fails when they are stale.")
    out.append("")
    out.append("| game | clauses | rulings | page |")
    out.append("|---|---|---|---|")
    for game, clauses in books.items():
        rulings = sum(1 for c in clauses if c.disputed)
        out.append(f"| {facets(game).title} | {len(clauses)} | {rulings} | [{game}.md]({game}.md) |")
    out.append("")
    out.append("Rulings where the seeds disagree or are silent: [disputed.md](disputed.md).")
    out.append("")
    out.append("## Seed documents")
    out.append("")
    out.append("| key | title | language |")
    out.append("|---|---|---|")
    for key, seed in seeds.items():
        out.append(f"| `{key}` | {seed.title} | {seed.language} |")
    return "\n".join(out).rstrip() + "\n"


def docs_pages(books: Mapping[str, Sequence[Clause]] | None = None) -> dict[str, str]:
    """The ``docs/rules/`` pages (file name → Markdown), written from the clause books only, each sealed as
    this command's page (:data:`engine.outputs.RULES_DOCS`: a first line saying how it is written, with
    the seal that lets the command replace it later)."""
    if books is None:
        books = {g: list(load_clauses(g).values()) for g in games_with_clauses()}
    pages = {"README.md": _index_page(books)}
    for game, clauses in books.items():
        pages[f"{game}.md"] = _game_page(game, clauses)
    pages["disputed.md"] = _disputed_page([c for cs in books.values() for c in cs])
    return {name: outputs.RULES_DOCS.mark(text) for name, text in pages.items()}


def write_docs(folder: Path, pages: Mapping[str, str] | None = None) -> list[str]:
    """Write the pages into ``folder`` (created if needed), remove pages no longer generated; return what
    changed.  A page is replaced, or removed, only when this command can prove it wrote it as it is (its
    seal, :mod:`engine.outputs`): another file of the same name, or a page edited since, stops it, naming
    the file, before anything is written; no link in the folder is followed."""
    pages = docs_pages() if pages is None else {n: outputs.RULES_DOCS.mark(t) for n, t in pages.items()}
    with outputs.Folder(folder, source="--write-docs", create=True) as out:
        changed = stale_pages(folder, pages)
        todo = [name for name, text in pages.items() if _page(out, name) != text]
        for name in todo:  # every page first: a page this command did not write stops it before any write
            out.check(name, kind=outputs.RULES_DOCS)
        for name in todo:
            out.write(name, pages[name], kind=outputs.RULES_DOCS)
        for name in _retired(out, pages):
            out.remove(name, kind=outputs.RULES_DOCS)
    return changed


def _page(out: outputs.Folder, name: str) -> str | None:
    """The text of the page ``name`` in the folder (``None``: none there, or not a regular file)."""
    status = out.status(name)
    if status is None or not stat.S_ISREG(status.st_mode):
        return None
    return out.read(name).decode("utf-8")


def _retired(out: outputs.Folder, pages: Mapping[str, str]) -> list[str]:
    """The pages in the folder this command wrote (proven by their seal) that it no longer generates;
    other pages are never reported nor removed."""
    return [name for name in out.names() if name.endswith(".md") and name not in pages
            and out.refusal(name, kind=outputs.RULES_DOCS)[0] is None]


def stale_pages(folder: Path, pages: Mapping[str, str] | None = None) -> list[str]:
    """Names of pages missing, different, or no longer generated in ``folder`` (``[]`` when fresh)."""
    pages = docs_pages() if pages is None else {n: outputs.RULES_DOCS.mark(t) for n, t in pages.items()}
    out: list[str] = []
    with outputs.Folder(folder, source="--check-docs") as docs:
        for name, text in pages.items():
            found = _page(docs, name)
            if found is None:
                out.append(f"{name} (missing)")
            elif found != text:
                out.append(f"{name} (out of date)")
        out.extend(f"{name} (no longer generated)" for name in _retired(docs, pages))
    return out
