"""``arbiter names GAME [--variant V] [--json]``: every card's canonical name and aliases, per edition.

For adapter writers: a peer and a record must spell cards exactly as the engine does in its JSON forms.  The
canonical name is the one states, facts, legal actions and records use; the aliases are other spellings
the engine accepts on input (another edition's name, the names table's translations; any case) but never
writes.  6 nimmt! cards are plain numbers; the table gives their bullheads, and the player counts a card
is dealt with where the deck depends on them (tactics, logic).

>>> rows = names_table("petersburg", "second")
>>> next(r for r in rows if r["name"] == "Czar & Carpenter")["aliases"][0]
'Czar and Carpenter'
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from engine.conformance.kits.base import get_kit
from engine.errors import InputError
from engine.game import game_names, get_game

__all__ = ["names_table", "register", "run"]


def names_table(game: str, variant: str | None = None) -> list[dict[str, Any]]:
    """The name table of ``game``'s ``variant`` (default: the first variant); raises InputError."""
    g = get_game(game)
    chosen = variant or g.variants[0]
    if chosen not in g.variants:
        raise InputError("--variant", f"unknown variant {chosen!r} (known: {', '.join(g.variants)})")
    return get_kit(game).card_names(chosen)


def run(args: argparse.Namespace) -> int:
    """Entry point of ``arbiter names``."""
    g = get_game(args.game)
    variants = [args.variant] if args.variant else list(g.variants)
    tables = {v: names_table(args.game, v) for v in variants}
    if args.json:
        print(json.dumps({"game": args.game, "variants": tables}, ensure_ascii=False, indent=1))
        return 0
    for v, rows in tables.items():
        print(f"{g.title}, variant {v}: {len(rows)} cards")
        extra = list(dict.fromkeys(k for r in rows for k in r if k not in ("name", "aliases")))
        width = max((len(str(r["name"])) for r in rows), default=4)
        for r in rows:
            details = "  ".join(
                f"{k} {r[k] if not isinstance(r[k], list) else '-'.join(map(str, r[k]))}"
                for k in extra
                if k in r
            )
            aliases = f"  (also: {', '.join(r['aliases'])})" if r["aliases"] else ""
            print(f"  {r['name']!s:<{width}}  {details}{aliases}")
    return 0


def register(sub: Any) -> None:
    """Add ``names`` to the command line."""
    p = sub.add_parser("names", help="every card's canonical name and aliases, per edition (for adapters)")
    p.add_argument("game", choices=game_names())
    p.add_argument("--variant", default=None, help="one variant or edition (default: every one)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)
