"""Game records and ``arbiter check``.

* :mod:`engine.conformance.records.format`: the record format (JSON Lines) — reader, writer, the shipped
  schemas (``schemas/``, also the schemas of vectors, perft counts and campaign reports);
* :mod:`engine.conformance.records.fastschema`: a fast yes/no checker for those schemas;
* :mod:`engine.conformance.records.check`: replay a record on the reference, report the first divergence;
* :mod:`engine.conformance.records.cli`: the ``arbiter check`` command line.
"""
