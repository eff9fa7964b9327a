"""A flat observation vector described field by field: names, offsets, sizes, bounds and meanings.

Each game's codec declares its :class:`Layout`; the environments fill vectors of ``layout.size`` float32
values, the observation space's bounds come from the same declaration, and :meth:`Layout.table` prints the
field table that ``docs/environments.md`` shows (a test checks the two agree).

>>> layout = Layout((Slot("hand", 3, 0, 1, "1 if the card is in my hand"), Slot("score", 1, -5, 5, "score")))
>>> layout.size, layout.offset("score"), layout.where("score")
(4, 3, slice(3, 4, None))
>>> print(layout.table())
| field | offset | size | range | meaning |
|---|---:|---:|---|---|
| `hand` | 0 | 3 | 0..1 | 1 if the card is in my hand |
| `score` | 3 | 1 | -5..5 | score |
"""

from __future__ import annotations

from attrs import frozen

__all__ = ["Layout", "Slot"]


@frozen
class Slot:
    """One field of an observation vector: ``size`` consecutive values in ``low..high``."""

    name: str
    size: int
    low: float
    high: float
    doc: str


class Layout:
    """Consecutive :class:`Slot` fields; ``offset(name)`` is where a field starts."""

    def __init__(self, slots: tuple[Slot, ...]) -> None:
        self.slots = tuple(s for s in slots if s.size > 0)
        self._offsets: dict[str, int] = {}
        at = 0
        for s in self.slots:
            if s.name in self._offsets:
                raise ValueError(f"field {s.name!r} is declared twice")
            self._offsets[s.name] = at
            at += s.size
        self.size = at

    def offset(self, name: str) -> int:
        """The index of the field's first value."""
        return self._offsets[name]

    def where(self, name: str) -> slice:
        """The field's values as a slice of the vector."""
        start = self._offsets[name]
        return slice(start, start + self.slot(name).size)

    def slot(self, name: str) -> Slot:
        """The field's declaration."""
        return next(s for s in self.slots if s.name == name)

    def names(self) -> tuple[str, ...]:
        """The field names, in vector order."""
        return tuple(s.name for s in self.slots)

    def bounds(self) -> tuple[list[float], list[float]]:
        """Per-value lower and upper bounds (for the observation space)."""
        low: list[float] = []
        high: list[float] = []
        for s in self.slots:
            low.extend([s.low] * s.size)
            high.extend([s.high] * s.size)
        return low, high

    def table(self) -> str:
        """The field table in Markdown."""
        lines = ["| field | offset | size | range | meaning |", "|---|---:|---:|---|---|"]
        for s in self.slots:
            lines.append(
                f"| `{s.name}` | {self._offsets[s.name]} | {s.size} | {_num(s.low)}..{_num(s.high)} "
                f"| {s.doc} |"
            )
        return "\n".join(lines)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)
