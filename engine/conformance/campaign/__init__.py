"""Differential fuzzing (``arbiter fuzz``): the reference and a peer play the same generated games.

* :mod:`engine.conformance.campaign.setups`: what a generated game starts from, per game;
* :mod:`engine.conformance.campaign.draws`: Hypothesis draws that depend on the seed only;
* :mod:`engine.conformance.campaign.divergence`: a divergence and its record;
* :mod:`engine.conformance.campaign.duel`: one differential game, compared after every step;
* :mod:`engine.conformance.campaign.positions`: replaying a divergence from its position (the peer's
  ``position`` capability) and shrinking it there;
* :mod:`engine.conformance.campaign.fuzz`: one peer, games until the first divergence, shrunk;
* :mod:`engine.conformance.campaign.report`: a campaign's classes, records, summary and Markdown report;
* :mod:`engine.conformance.campaign.runner`: a campaign — every divergence class, on all cores or Ray;
* :mod:`engine.conformance.campaign.cli`: the ``arbiter fuzz`` command line;
  :mod:`engine.conformance.campaign.bench`: ``arbiter bench fuzz`` and ``arbiter bench check``.
"""
