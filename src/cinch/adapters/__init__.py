"""Adapters to reinforcement-learning and search frameworks (the optional extra ``cinch[rl]``).

- :mod:`cinch.adapters.openspiel`: importing it registers the OpenSpiel game ``python_cinch``.
- :mod:`cinch.adapters.pettingzoo`: ``env(rules="pagat")``, a PettingZoo AEC environment.
- :mod:`cinch.adapters.ismcts_bot`: the ``openspiel-ismcts`` bot (OpenSpiel's IS-MCTS on a
  world sampled from the bot's view).

Both frameworks see the same 188 distinct actions and the same observation vector
(:mod:`cinch.adapters._core`), at every table size the rules' ``players`` option sets (2 to 6).
Nothing here is imported by the engine.
"""
