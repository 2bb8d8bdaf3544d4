"""``random``: a uniformly random legal bid (the hook respected), then a uniformly random legal card."""

import numpy as np
from numba import njit

from ....core.rng import pick_bit, pick_card
from ..engine import BID, BID_BASE, S_HAND, S_LED, S_PHASE, hooked

NAME = "random"
PARAMS: dict = {}


@njit(cache=True, inline="always")
def bid(v):
    """A uniform bid among the legal ones (0 to the hand size, less the hooked one)."""
    t = v.table
    legal = 0  # bit b: bid b allowed
    for b in range(t.s[S_HAND] + 1):
        if not hooked(t, b):
            legal |= np.int64(1) << b
    return BID_BASE + pick_bit(v.own.rng, 0, legal)


@njit(cache=True, inline="always")
def card(own, led):
    """A uniform card among those the seat may play to a trick led in ``led`` (-1: it leads)."""
    if led >= 0:
        m = own.bits[led]
        if m != 0:
            return led * 13 + pick_bit(own.rng, 0, m)
    return pick_card(own.rng, 0, own.bits, -1)


@njit(cache=True, inline="always")
def decide(v):
    if v.table.s[S_PHASE] == BID:
        return bid(v)
    return card(v.own, v.table.s[S_LED])
