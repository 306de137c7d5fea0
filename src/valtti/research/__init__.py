"""Marjapussi for learning programs: PettingZoo, Gymnasium and OpenSpiel environments.

Install with ``pip install 'valtti[research]'``. Each environment is its own module, imported
on its own so that nothing here pulls in the libraries it does not use:

- ``valtti.research.pettingzoo``: ``env()``, ``raw_env``, ``parallel_env()`` (all four seats);
- ``valtti.research.gymnasium``: ``valtti/Marjapussi-v0`` (one learner seat, the other three
  any player ``valtti.players.make_player`` takes) and its vector form, whose tables
  ``batched=True`` steps in C (``valtti.research.batched``);
- ``valtti.research.openspiel``: the pyspiel game ``python_marjapussi``.

All of them step the engine through ``valtti.research.episode.Episode`` and encode positions
with ``valtti.engine.tensors`` (docs/TENSORS.md), which a trainer can also use directly.
"""
