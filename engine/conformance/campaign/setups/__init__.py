"""The set-ups of generated games.

* :mod:`engine.conformance.campaign.setups.base`: :class:`~engine.conformance.campaign.setups.base.GameSetup`
  and the generic :class:`~engine.conformance.campaign.setups.base.SetupMaker` (a seed; the reference deals);
* :mod:`engine.conformance.campaign.setups.take6`, :mod:`engine.conformance.campaign.setups.petersburg`:
  each game's maker (the ``fuzz_setups`` facet a game registers, engine/game.py);
* :mod:`engine.conformance.campaign.setups.generated`: the player counts per variant and the Hypothesis
  strategy of a campaign's set-ups.
"""
