"""Reinforcement-learning environments over the engine: PettingZoo and OpenSpiel (optional extras).

Install with ``pip install 'arbiter-rules[pettingzoo]'`` and/or ``'arbiter-rules[openspiel]'``.  Nothing
here is imported by the core package; each module imports its framework (and numpy) itself.

* :mod:`engine.envs.take6_v0` - 6 nimmt! as a PettingZoo AEC environment (``env``, wrapped as PettingZoo
  wraps its classic games, ``raw_env``) and a Parallel environment for the simultaneous selection
  (``parallel_env``).
* :mod:`engine.envs.petersburg_v0` - Saint Petersburg as PettingZoo AEC and Parallel environments.
* :mod:`engine.envs.aec` - what the environments share: the AEC loop, the Parallel environment,
  ``state()``, rendering, the wrappers.
* :mod:`engine.envs.illegal` - what a malformed or illegal action does (the classic illegal-move ending,
  or the strict refusal).
* :mod:`engine.envs.returns` - what a seat's return can be (bounds from the tables, the rank bonus, the
  return of an illegal move), for both frameworks.
* :mod:`engine.envs.take6_codec`, :mod:`engine.envs.petersburg_codec` - the fixed discrete action encodings
  and the observation layouts (the field tables live beside the code that fills them).
* :mod:`engine.envs.openspiel` - both games as OpenSpiel Python games, one module per game
  (``python_take6``, ``python_petersburg``), registered by importing the package;
  :mod:`engine.envs.openspiel_demo` runs MCTS and ISMCTS against random.
* :mod:`engine.envs.bench` - environment steps per second beside the bare engine loop.

The encodings, rewards and what is hidden from whom are described in ``docs/environments.md``.
"""
