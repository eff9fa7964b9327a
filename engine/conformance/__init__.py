"""Conformance kit: check other implementations of 6 nimmt! and Saint Petersburg against this engine.

One subpackage per concern, each importing only those above it in this list (docs/architecture.md):

* :mod:`engine.conformance.kits`: the per-game conformance adapters (explicit set-up JSON, claimable facts,
  the reference derivation of a step) and ``arbiter names``;
* :mod:`engine.conformance.attribution`: which clauses a divergence names (the deciding step);
* :mod:`engine.conformance.peers`: the line protocol a peer speaks, starting a peer, and the shipped
  example peers (``python -m engine.conformance.peers.NAME``);
* :mod:`engine.conformance.records`: the game record format (JSON Lines) and its schemas, and ``arbiter
  check RECORD...`` (replay records, report the first divergence);
* :mod:`engine.conformance.vectors`: ``arbiter vectors`` — language-neutral test vectors and perft counts;
* :mod:`engine.conformance.campaign`: ``arbiter fuzz`` — differential fuzzing of a peer process, one game
  or a campaign, its set-ups, its report, its benchmark.

The JSON Schemas live in ``engine/conformance/records/schemas/`` and ship with the package.
"""
