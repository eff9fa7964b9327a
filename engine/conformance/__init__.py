"""Conformance kit: check other implementations of 6 nimmt! and Saint Petersburg against this engine.

* :mod:`engine.conformance.records`: the game record format (JSON Lines) — reader, writer, schemas.
* :mod:`engine.conformance.kits`: per-game conformance adapters — explicit set-up JSON, claimable facts.
* :mod:`engine.conformance.check`: ``arbiter check RECORD...`` — replay records, report the first divergence.
* :mod:`engine.conformance.vectors`: ``arbiter vectors export DIR`` — language-neutral test vectors and
  perft counts.

The JSON Schemas live in ``engine/conformance/schemas/`` and ship with the package.
"""
