"""Players of Oh Hell, listed once.

A player's id is its place in ``PLAYERS``. A player module has ``NAME``, ``PARAMS``
and an ``@njit decide(view)`` returning a move: a bid (``engine.BID_BASE + n``) or a
card (see ``games.ohhell.engine.OhView``). The kernel's switch on ids is generated
from this list (``whistsim.harness``), with only the players seated in a run.
"""

from . import heuristic, pimc, random

PLAYERS = (random, heuristic, pimc)
