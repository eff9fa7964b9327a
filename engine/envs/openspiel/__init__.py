"""Both games as OpenSpiel Python games, one module per game (as OpenSpiel's ``open_spiel/python/games``):
:mod:`~engine.envs.openspiel.take6` (``python_take6``) and :mod:`~engine.envs.openspiel.petersburg`
(``python_petersburg``); :mod:`~engine.envs.openspiel.base` holds what they share.

Importing this package registers both games (``pyspiel.register_game``), as importing
``open_spiel.python.games`` registers OpenSpiel's own Python games; OpenSpiel has no other way to find a
game written in Python (no plug-in discovery), so this one import is all a program needs::

    >>> import pyspiel
    >>> import engine.envs.openspiel
    >>> pyspiel.load_game("python_take6", {"players": 4}).num_players()
    4
    >>> sorted(n for n in pyspiel.registered_names() if n in GAMES)
    ['python_petersburg', 'python_take6']

Both are imperfect-information general-sum games whose rewards are the PettingZoo environments' (6 nimmt!:
minus the bullheads taken, kids plus; Saint Petersburg: VP gained; plus the optional rank bonus at the end).
Actions use the encodings of :mod:`engine.envs.take6_codec` and :mod:`engine.envs.petersburg_codec`;
observation tensors are the environments' vectors, and ``make_observation(game).dict`` names their
fields.  The information state adds what a player remembers beyond the current observation: 6 nimmt!,
which seat played which card this round; Saint Petersburg, the cards each seat was seen to take into its
hand and has not played.  Observation strings are one short line; an information-state string is that
line and a digest of everything the player saw of the history.  Every chance outcome and action is
checked before the state changes.  States pickle and serialize as their action history and their few
attributes (OpenSpiel's way for Python games).
"""

from __future__ import annotations

from engine.envs.openspiel import petersburg, take6
from engine.envs.openspiel.base import TurnBasedResampler, parse_options

__all__ = ["GAMES", "TurnBasedResampler", "parse_options", "petersburg", "take6"]

GAMES = ("python_take6", "python_petersburg")
"""The names the package registers."""
