"""``random``: a uniformly random legal card, with a revoke rate when revokes are allowed."""

from numba import njit

from ....core.bits import popcount
from ....core.rng import pick_bit, pick_card, uniform
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
def decide(v):
    own = v.own
    led = v.led
    if led >= 0:
        m = own.bits[led]
        if m != 0:
            if v.table.rules[R_REVOKES] and own.n > popcount(m) and uniform(own.rng, 0) < own.params[0]:
                return pick_card(own.rng, 0, own.bits, led)
            return led * 13 + pick_bit(own.rng, 0, m)
    return pick_card(own.rng, 0, own.bits, -1)
