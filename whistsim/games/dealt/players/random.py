"""``random``: a uniformly random legal card, with a revoke rate when revokes are allowed."""

from numba import njit

from ....core.bits import nth, popcount
from ....core.rng import randbelow, uniform
from ....core.strategy import Param
from ..engine import R_REVOKES

NAME = "random"
PARAMS = {
    "revoke": Param(
        0.1,
        "chance of playing another suit when able to follow (only if revokes are allowed)",
        low=0.0,
        high=1.0,
    ),
}


@njit(cache=True, inline="always")
def pick_from(own, avoid, n):
    """A uniform card among the ``n`` held outside suit ``avoid`` (-1: none avoided)."""
    k = randbelow(own.rng, 0, n)
    for suit in range(4):
        if suit != avoid:
            m = own.bits[suit]
            c = popcount(m)
            if k < c:
                return suit * 13 + nth(m, k)
            k -= c
    return -1


@njit(cache=True, inline="always")
def decide(v):
    own = v.own
    led = v.led
    if led >= 0:
        m = own.bits[led]
        if m != 0:
            c = popcount(m)
            if v.table.rules[R_REVOKES] and own.n > c and uniform(own.rng, 0) < own.params[0]:
                return pick_from(own, led, own.n - c)
            return led * 13 + nth(m, randbelow(own.rng, 0, c))
    return pick_from(own, -1, own.n)
