"""Rules-clarification queries: answers with the rules behind them.

Every answer comes from the same spec tables and engine functions the games run, and names the clauses it
applies (id, our wording, the seed passage).  The parts:

* :mod:`engine.query.questions` — structured questions (:func:`ask`) shared by the CLI and the FAQ;
* :mod:`engine.query.explain` — is an action legal in a state, and why (:func:`explain`);
* :mod:`engine.query.search` — keyword search over clauses, card names and seed passages;
* :mod:`engine.query.rulesref` — the rule reference, the disputed table and ``docs/rules/``;
* :mod:`engine.query.render` — aligned terminal output and JSON;
* :mod:`engine.query.cli` — ``arbiter rules``, ``arbiter ask``, ``arbiter explain``.

>>> from engine.query import ask
>>> ask("rule", {"clause_id": "T6-DECK-1"}).value
'T6-DECK-1'
"""

from __future__ import annotations

from engine.query.model import Answer, Step
from engine.query.questions import ask

__all__ = ["Answer", "Step", "ask"]
