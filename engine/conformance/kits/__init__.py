"""Per-game conformance kits: what records, vectors and campaigns need of a game beyond the ``Game`` protocol.

* :mod:`engine.conformance.kits.base`: the :class:`~engine.conformance.kits.base.GameKit` protocol, the
  shared :class:`~engine.conformance.kits.base.KitBase` and :func:`~engine.conformance.kits.base.get_kit`
  (which reads a game's ``kit`` facet from the registry, engine/game.py);
* :mod:`engine.conformance.kits.take6`, :mod:`engine.conformance.kits.petersburg`: each game's kit;
* :mod:`engine.conformance.kits.names`: ``arbiter names GAME`` — every card's canonical name and aliases.
"""
