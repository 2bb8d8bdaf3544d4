"""``random``: uniform over legal decisions, with draw, false-pass and challenge rates."""

from numba import njit

from ...cards import POPCOUNT13, TAFFY
from ...games.welsh.engine import (
    CHALLENGE_SEAT,
    DRAW,
    FOLLOW,
    NO_CHALLENGE,
    PASS,
    TAFFY_LEAD,
    TURN,
)
from ...games.welsh.rules import R_REVOKES
from ...rng import randbelow, uniform

PARAMS = {
    "draw": (0.5, "chance of drawing when the player could also lead"),
    "false_pass": (0.25, "chance of a false pass when able to follow (only if revokes are allowed)"),
    "challenge": (0.5, "chance of challenging after a trick with a pass (only under a challenge rule)"),
}


@njit(cache=True, inline="always")
def nth_bit(mask, k):
    """The position of the ``k``-th (0-based) set bit of ``mask``."""
    for _ in range(k):
        mask &= mask - 1
    r = 0
    while not mask & (1 << r):
        r += 1
    return r


@njit(cache=True, inline="always")
def lead_uniform(v):
    """Any held card type, uniformly; a Taffy names a uniform suit."""
    pick = randbelow(v.own.rng, 0, v.own.types)
    for suit in range(4):
        n = POPCOUNT13[v.own.bits[suit]]
        if pick < n:
            return suit * 13 + nth_bit(v.own.bits[suit], pick)
        pick -= n
    return TAFFY_LEAD + randbelow(v.own.rng, 0, 4)


@njit(cache=True, inline="always")
def follow_uniform(v):
    """A card of the suit led or a Taffy, uniformly over held types; else pass."""
    mask = v.own.bits[v.led_suit]
    n = POPCOUNT13[mask]
    taffy = v.own.hand[TAFFY] > 0
    if n + taffy == 0:
        return PASS
    pick = randbelow(v.own.rng, 0, n + taffy)
    if pick == n:
        return TAFFY
    return v.led_suit * 13 + nth_bit(mask, pick)


@njit(cache=True)
def challenge_uniform(v):
    n = 0
    for q in range(v.players):
        n += v.table.passed[q]
    pick = randbelow(v.own.rng, 0, n)
    for q in range(v.players):
        if v.table.passed[q]:
            if pick == 0:
                return CHALLENGE_SEAT + q
            pick -= 1
    return NO_CHALLENGE


@njit(cache=True, inline="always")
def decide(v):
    if v.phase == TURN:
        if v.stock_left > 0 and (v.own.types == 0 or uniform(v.own.rng, 0) < v.own.params[0]):
            return DRAW
        return lead_uniform(v)
    if v.phase == FOLLOW:
        if v.table.rules[R_REVOKES] and uniform(v.own.rng, 0) < v.own.params[1]:
            return PASS
        return follow_uniform(v)
    if uniform(v.own.rng, 0) < v.own.params[2]:
        return challenge_uniform(v)
    return NO_CHALLENGE
