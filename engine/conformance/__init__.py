"""Conformance kit: check other implementations of 6 nimmt! and Saint Petersburg against this engine.

* :mod:`engine.conformance.records`: the game record format (JSON Lines) — reader, writer, schemas.
* :mod:`engine.conformance.kits`: per-game conformance adapters — explicit set-up JSON, claimable facts.
* :mod:`engine.conformance.check`: ``arbiter check RECORD...`` — replay records, report the first divergence
  (with every differing fact of its line).
* :mod:`engine.conformance.vectors`: ``arbiter vectors export DIR`` — language-neutral test vectors (with
  ``vectors_mine``, ``vectors_coverage``, ``vectors_perft`` for the perft counts, ``vectors_export``).
* :mod:`engine.conformance.fuzz` and :mod:`engine.conformance.campaign`: ``arbiter fuzz`` — differential
  fuzzing of a peer process (``fuzz_game``, ``fuzz_divergence``, ``fuzz_setups`` with ``setup_<game>``,
  ``fuzz_peers``, ``fuzz_positions`` for the ``position`` capability, ``fuzz_draws``).
* Command lines: ``cli_check``, ``cli_vectors``, ``cli_fuzz``.

The JSON Schemas live in ``engine/conformance/schemas/`` and ship with the package.
"""
