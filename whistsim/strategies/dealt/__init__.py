"""Players of the dealt games (Scotch Whist, French Whist, Whist), chosen by id.

Numba never reuses a cached kernel that takes a function as an argument, so the
built-ins are picked by an integer id in a static switch and the batch kernel
stays cached. A player module has ``PARAMS`` (name -> (default, doc)) and an
``@njit decide(view)`` returning a card (see ``games.dealt.engine.DealtView``).
"""

from numba import njit

from . import dd, heuristic, pimc, random

BUILTINS = {"random": random, "heuristic": heuristic, "pimc": pimc, "dd": dd}
RANDOM, HEURISTIC, PIMC, DD = range(4)


@njit(cache=True, inline="always")  # inlined: the random player's calls cost more than its work
def decide(sid, v):
    """The card strategy ``sid`` plays for the seat that ``v`` views."""
    if sid == HEURISTIC:
        return heuristic.decide(v)
    if sid == PIMC:
        return pimc.decide(v)
    if sid == DD:
        return dd.decide(v)
    return random.decide(v)
