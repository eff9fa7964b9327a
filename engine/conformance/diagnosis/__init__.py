"""Diagnosis: every divergence explained as the smallest change to the rules that makes the reference agree.

* :mod:`~engine.conformance.diagnosis.plan`: what a game's conformance kit declares a fault may change;
* :mod:`~engine.conformance.diagnosis.faults`: fault models (an edited table value, two values swapped, a
  row left out, a ruling's other reading, an option, a skipped step) and the :class:`World` they make;
* :mod:`~engine.conformance.diagnosis.space`: a game's whole fault space, and one divergence's candidates;
* :mod:`~engine.conformance.diagnosis.evidence`: what the peer showed (:class:`Seen`) and what a world
  predicts there;
* :mod:`~engine.conformance.diagnosis.search`: the smallest fault sets explaining a divergence, refuted by
  no step the peer agreed on;
* :mod:`~engine.conformance.diagnosis.classes`: classes by diagnosis;
* :mod:`~engine.conformance.diagnosis.counterexample`: a diagnosis's smallest position and action, as a
  record and a test vector verified both ways;
* :mod:`~engine.conformance.diagnosis.drawn`: counterexamples for faults drawn from the fault space, and
  their figures (``python -m engine.conformance.diagnosis.drawn``).
"""
