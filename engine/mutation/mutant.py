"""A mutant: one small change to one file of the rules (:mod:`engine.mutation.code` makes those of the code,
:mod:`engine.mutation.tables` those of the tables).

>>> m = Mutant("spec/take6/rows.toml", 2, "rows = 4", "rows = 5", lambda: "rows = 5\\n")
>>> m.describe(), m.games()
('spec/take6/rows.toml:2: rows = 4 -> rows = 5', ('take6',))
"""

from __future__ import annotations

from collections.abc import Callable

from attrs import field, frozen

from engine.game import game_names

__all__ = ["Mutant"]


@frozen
class Mutant:
    """One small change to one file: where, what it was, what it became; ``build()`` gives the mutated text
    (made on demand: a sample of a thousand mutants should not cost a thousand syntax-tree copies)."""

    path: str
    line: int
    before: str
    after: str
    build: Callable[[], str] = field(eq=False, repr=False)
    node: tuple[str, str] = field(default=("", ""), eq=False, repr=False)
    """The changed node alone, before and after (``before``/``after`` show it in its expression)."""

    def describe(self) -> str:
        """``path:line: before -> after``."""
        return f"{self.path}:{self.line}: {self.before} -> {self.after}"

    @property
    def key(self) -> str:
        """A stable name of the mutant (for the list of equivalent ones): the description."""
        return self.describe()

    def games(self) -> tuple[str, ...]:
        """The games whose tests judge this mutant."""
        found = tuple(g for g in game_names() if f"/{g}" in self.path)
        return found or game_names()
