"""Toy's one player, ``random`` (any legal card, uniformly), and the list of players."""

import sys

from numba import njit

from whistsim.core.rng import randbelow

NAME, PARAMS = "random", {}


@njit(cache=True, inline="always")
def decide(v):
    led, hand, pick, seen = v.table.led, v.own.hand, -1, 0
    for suit in range(4):
        if led < 0 or hand[led] == 0 or suit == led:
            for r in range(13):
                if (hand[suit] >> r) & 1:
                    seen += 1
                    if randbelow(v.own.rng, 0, seen) == 0:  # reservoir sampling: one pass
                        pick = suit * 13 + r
    return pick


PLAYERS = (sys.modules[__name__],)
