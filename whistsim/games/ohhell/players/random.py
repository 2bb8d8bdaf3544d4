"""``random``: a uniformly random legal bid (the hook respected), then a uniformly random legal card."""

from numba import njit

from ....core.bits import nth, popcount
from ....core.rng import randbelow
from ..engine import BID, BID_BASE, S_HAND, S_LED, S_PHASE, hooked

NAME = "random"
PARAMS: dict = {}


@njit(cache=True, inline="always")
def bid(v):
    """A uniform bid among the legal ones (0 to the hand size, less the hooked one)."""
    t = v.table
    n = t.s[S_HAND]
    legal = n + 1
    for b in range(n + 1):
        if hooked(t, b):
            legal -= 1
    k = randbelow(v.own.rng, 0, legal)
    for b in range(n + 1):
        if not hooked(t, b):
            if k == 0:
                return BID_BASE + b
            k -= 1
    return BID_BASE


@njit(cache=True, inline="always")
def card(own, led):
    """A uniform card among those the seat may play to a trick led in ``led`` (-1: it leads)."""
    if led >= 0:
        m = own.bits[led]
        if m != 0:
            return led * 13 + nth(m, randbelow(own.rng, 0, popcount(m)))
    k = randbelow(own.rng, 0, own.n)
    for suit in range(4):
        m = own.bits[suit]
        c = popcount(m)
        if k < c:
            return suit * 13 + nth(m, k)
        k -= c
    return -1


@njit(cache=True, inline="always")
def decide(v):
    if v.table.s[S_PHASE] == BID:
        return bid(v)
    return card(v.own, v.table.s[S_LED])
