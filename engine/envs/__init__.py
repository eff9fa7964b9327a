"""Reinforcement-learning environments over the engine: PettingZoo and OpenSpiel (optional extras).

Install with ``pip install 'arbiter-rules[pettingzoo]'`` and/or ``'arbiter-rules[openspiel]'``.  Nothing
here is imported by the core package; each module imports its framework (and numpy) itself.

* :mod:`engine.envs.take6_v0` - 6 nimmt! as a PettingZoo AEC environment (``env``, ``raw_env``) and a
  Parallel environment for the simultaneous selection (``parallel_env``).
* :mod:`engine.envs.petersburg_v0` - Saint Petersburg as a PettingZoo AEC environment.
* :mod:`engine.envs.take6_codec`, :mod:`engine.envs.petersburg_codec` - the fixed discrete action encodings
  and the observation layouts (the field tables live beside the code that fills them).
* :mod:`engine.envs.openspiel_games` - both games registered as OpenSpiel Python games
  (``python_take6``, ``python_petersburg``); :mod:`engine.envs.openspiel_demo` runs MCTS against random.
* :mod:`engine.envs.bench` - environment steps per second beside the bare engine loop.

The encodings, rewards and what is hidden from whom are described in ``docs/environments.md``.
"""
