"""A diagnosis in the spec's words: for each fault of a class, the table row and field it changes, the
reference's value and the peer's apparent value, the clause the row states with our wording, and the seed
passage that clause rests on — what a report, ``arbiter check`` and the assistant lead with.

>>> d = described(["petersburg:edit:phases/param/lower_row_discount/value=2"])[0]
>>> d["table"], d["row"], d["field"], d["rules"], d["peer"], d["clause"]
('phases.toml', 'param lower_row_discount', 'value', 1, 2, 'SP-COST-3')
>>> lines(["petersburg:edit:phases/param/lower_row_discount/value=2"])[0]
'behaves as if phases.toml param lower_row_discount value were 2 (the rules: 1, SP-COST-3)'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.conformance.diagnosis.faults import COLUMN_KINDS, Fault, parse
from engine.errors import ArbiterError
from engine.spec import load_clauses

__all__ = ["described", "lines"]


def _fault(signature: str | Fault) -> Fault | None:
    if isinstance(signature, Fault):
        return signature
    try:
        return parse(signature)
    except ArbiterError:
        return None


def described(faults: Sequence[str | Fault]) -> list[dict[str, Any]]:
    """Each fault as a JSON object: ``signature``, ``kind``, ``describe`` (one line), the ``table``, ``row``
    and ``field`` it changes (``None`` for a reading, option or skipped step), ``rules`` (the reference's
    value) and ``peer`` (the peer's apparent value), the ``clause`` with its ``wording``, and the clause's
    first seed passage (``seed``: ``{seed, where, quote}``; ``None`` without one)."""
    out: list[dict[str, Any]] = []
    for signature in faults:
        f = _fault(signature)
        if f is None:
            out.append({"signature": str(signature), "kind": "?", "describe": str(signature), "table": None,
                        "row": None, "field": None, "rules": None, "peer": None, "clause": None,
                        "wording": None, "seed": None})
            continue
        table = row = fld = None
        if f.kind in COLUMN_KINDS:  # every row: the table (``*``: every table's effects) and the field
            parts = f.target.split("/")
            table = "*" if parts[0] == "*" else f"{parts[0]}.toml"
            row, fld = " ".join(parts[1:-1]), parts[-1]
        elif f.kind in ("edit", "swap", "drop"):
            parts = f.target.split("/")
            table = f"{parts[0]}.toml"
            if f.kind == "drop" and len(parts) == 2 + (len(parts) > 3):
                row = " ".join(parts[1:])
            else:
                row, fld = " ".join(parts[1:-1]), parts[-1]
        book = load_clauses(f.game)
        clause = book[f.clause] if f.clause in book.ids() else None
        cite = clause.cites[0] if clause is not None and clause.cites else None
        out.append(
            {
                "signature": f.signature,
                "kind": f.kind,
                "describe": f.describe(),
                "table": table,
                "row": row,
                "field": fld,
                "rules": f.shipped,
                "peer": f.value if f.kind in ("edit", "option", "bound", *COLUMN_KINDS) else None,
                "clause": f.clause or None,
                "wording": clause.text if clause is not None else None,
                "seed": {"seed": cite.seed, "where": cite.where, "quote": cite.quote} if cite else None,
            }
        )
    return out


def lines(faults: Sequence[str | Fault], *, passages: bool = False) -> list[str]:
    """Readable lines of a diagnosis: one per fault (what the peer behaves as if, and the rules' value),
    and with ``passages`` its clause's wording and seed passage beneath it."""
    out: list[str] = []
    for d in described(faults):
        out.append(d["describe"])
        if passages and d["clause"] and d["wording"]:
            out.append(f"  {d['clause']}: {d['wording']}")
            if d["seed"]:
                s = d["seed"]
                out.append(f"  seed {s['seed']}, {s['where']}: \"{s['quote']}\"")
    return out
