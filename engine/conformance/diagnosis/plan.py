"""A game's fault-model plan: which rule values a fault may change (the data a conformance kit declares).

Kept apart from :mod:`engine.conformance.diagnosis.faults` so that the kits, which declare their plans, import
no part of the diagnosis that reads them.

>>> TableFaults("setup.toml", "setup", "name", fields=("row_capacity",)).fields
('row_capacity',)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attrs import field, frozen

__all__ = ["FaultPlan", "TableFaults"]


@frozen
class TableFaults:
    """Which faults one array of rows of a rule table may have: ``key`` names a row (a field, or
    ``FIELD@FIELD`` for two), ``fields`` are the rule values that may be edited, ``swaps`` the fields whose
    values may be exchanged between two rows, ``drop`` whether a row may be left out, ``effect`` the field
    holding an effect (left out, or a parameter edited), ``defaults`` the value of a field a row leaves out
    (as the table's loader fills it in); ``ordered``: the first row that matches decides (the bullhead
    rules), so a derivation that names one row read every row above it too."""

    file: str
    array: str
    key: str
    fields: tuple[str, ...] = ()
    swaps: tuple[str, ...] = ()
    drop: bool = False
    effect: str | None = None
    defaults: Mapping[str, Any] = field(factory=dict)
    ordered: bool = False


@frozen
class FaultPlan:
    """A game's fault-model space (its conformance kit's ``faults``): the table arrays, the values a string
    field or an effect parameter may take (``domains``: by field or parameter name; otherwise the values
    seen in the same column), the procedural steps the interpreter can leave out (``skips``: clause ids
    whose table form is an edit, or runtime skips the game's ``adopt`` takes) and those of an amount it can
    apply with the opposite sign (``negations``) or with a bound one off (``bounds``)."""

    tables: tuple[TableFaults, ...]
    domains: Mapping[str, tuple[Any, ...]] = field(factory=dict)
    skips: Mapping[str, tuple[str, ...]] = field(factory=dict)
    """Clause -> the edit signatures that leave its step out (``()``: a runtime skip)."""
    negations: tuple[str, ...] = ()
    """The clauses whose step of an amount the interpreter can apply with the opposite sign (runtime, as the
    game's ``adopt`` takes them: ``negated``)."""
    bounds: tuple[str, ...] = ()
    """The clauses whose step compares with a bound the interpreter can move by one either way (runtime:
    the game's ``adopt`` takes them as ``bounds``)."""
    aliases: Mapping[str, str] = field(factory=dict)
    """A name a derivation may give a row other than its key -> the key (an edition's name of a card:
    a second-edition derivation names the Abbot, the row is the Pope's)."""
