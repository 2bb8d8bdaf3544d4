"""Players of the dealt games (Scotch Whist, French Whist, Whist), listed once.

A player's id is its place in ``PLAYERS``. A player module has ``NAME``,
``PARAMS`` (name -> (default, doc) or ``Param``) and an ``@njit decide(view)``
returning a card (see ``games.dealt.engine.DealtView``). The kernel's switch on
ids is generated from this list (``whistsim.harness``), with only the players
seated in a run.
"""

from . import dd, heuristic, pimc, random

PLAYERS = (random, heuristic, pimc, dd)
