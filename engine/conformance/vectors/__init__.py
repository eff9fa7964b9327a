"""Test vectors: a language-neutral conformance suite (``arbiter vectors``).

* :mod:`engine.conformance.vectors.suite`: the case model, the reference runner of a case, the reader of a
  vectors file, the hand-picked cases (``cases/<game>.json``);
* :mod:`engine.conformance.vectors.mine`: the cases mined from seeded games;
* :mod:`engine.conformance.vectors.coverage`: the cases of every clause, and the exemptions
  (``coverage.toml``);
* :mod:`engine.conformance.vectors.perft`: perft counts (``data/perft.jsonl``);
* :mod:`engine.conformance.vectors.export`: writing the suite; :mod:`engine.conformance.vectors.cli`: the
  command line.
"""
