"""Table mutants: an edit of one value of a rule table (a TOML file of ``spec/``).

An integer moved by one, a boolean flipped, a string value replaced by another value the same key takes in
the same file (a variant's ``deck = "tactics"`` becomes ``"full"``).  Prose, identity and presentation keys
(:data:`PROSE_KEYS`) are not edited; an edit that no longer parses as TOML is dropped.  Each mutant's
``build()`` gives the whole edited text of the file, so the edits serve any tool that runs the rules on
changed tables, not only the mutation run.

>>> [m.describe() for m in table_mutants("t.toml", "[a]\\nrows = 4\\nopen = true\\n")]
['t.toml:2: rows = 4 -> rows = 5', 't.toml:3: open = true -> open = false']
"""

from __future__ import annotations

import functools
import re
import tomllib

from engine.mutation.mutant import Mutant

__all__ = ["PROSE_KEYS", "table_mutants"]

PROSE_KEYS = frozenset(
    # prose and identity: a changed title or id is not a changed rule (a duplicated id fails to load anyway)
    [
        "title",
        "text",
        "quote",
        "ruling",
        "note",
        "notes",
        "description",
        "doc",
        "name",
        "id",
        "help",
        "summary",
        "source",
        "reading",
        "why",
        "example",
        "seed",
        "citation",
        "wording",
        "label",
        "alternative",
        "rejects",
        # presentation and search: the reference's topics, card colours, translated names, seed file names
        "topic",
        "colour",
        "de",
        "ru",
        "en",
        "seed_terms",
        "language",
        "file",
    ]
)
"""Keys whose values are not mutated: prose, identity and presentation, which no rule reads."""
_ASSIGN = re.compile(r'^(\s*)([A-Za-z0-9_."-]+)(\s*=\s*)(.*)$')
_VALUE = re.compile(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'|-?\b\d+\b(?![.\d])|\btrue\b|\bfalse\b')


def table_mutants(path: str, text: str) -> list[Mutant]:
    """Every table mutant of one TOML file: integers +1, booleans flipped, enum-like strings swapped."""
    lines = text.split("\n")
    values_of: dict[str, set[str]] = {}
    spans: list[tuple[int, str, list[re.Match[str]]]] = []
    in_multiline = False
    for number, line in enumerate(lines):
        if line.count('"""') % 2 == 1 or line.count("'''") % 2 == 1:
            in_multiline = not in_multiline
            continue
        if in_multiline or line.lstrip().startswith("#"):
            continue
        m = _ASSIGN.match(line)
        key = m.group(2) if m else ""
        if key in PROSE_KEYS:
            continue
        body_start = m.start(4) if m else 0
        body = line[body_start:].split(" #")[0]
        matches = [v for v in _VALUE.finditer(line, body_start, body_start + len(body))]
        spans.append((number, key, matches))
        for v in matches:
            if v.group().startswith('"') and key:
                values_of.setdefault(key, set()).add(v.group())
    out: list[Mutant] = []
    for number, key, matches in spans:
        line = lines[number]
        for v in matches:
            token = v.group()
            if token in ("true", "false"):
                replacements = ["false" if token == "true" else "true"]
            elif token.startswith(("'", '"')):
                others = sorted(values_of.get(key, set()) - {token}) if len(matches) == 1 else []
                replacements = others[:1]
            else:
                replacements = [str(int(token) + 1)]
            for new in replacements:
                mutated_line = line[: v.start()] + new + line[v.end() :]
                mutated = "\n".join([*lines[:number], mutated_line, *lines[number + 1 :]])
                try:
                    tomllib.loads(mutated)
                except tomllib.TOMLDecodeError:
                    continue
                out.append(
                    Mutant(
                        path, number + 1, line.strip(), mutated_line.strip(), functools.partial(str, mutated)
                    )
                )
    return out
