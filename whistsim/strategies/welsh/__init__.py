"""Welsh Whist players, compiled into the kernel by a static switch on their id.

Numba never reuses a cached kernel that takes a function as an argument, so
built-in strategies are chosen by an integer id here; the batch kernel stays
cached. Add a built-in player: write its module with ``PARAMS`` and an
``@njit decide(view)`` (see ``games.welsh.engine.WelshView``), then list it in ``BUILTINS`` and in
the switch below.
"""

from numba import njit

from . import random

BUILTINS = {"random": random}
RANDOM = 0


@njit(cache=True, inline="always")  # a call would copy the view: inline the switch
def decide(sid, v):
    """The decision of strategy ``sid`` for the seat that ``v`` views."""
    return random.decide(v)
