"""``random``: uniform over legal decisions, with draw, cheat and challenge rates."""

import numpy as np
from numba import njit

from ....core.bits import hand_mask
from ....core.cards import TAFFY
from ....core.rng import below, chance_limit, pick_bit, randbelow
from ....core.strategy import Param
from ..engine import DRAW, PASS, S_LED_SUIT, S_STOCK, S_TOP, TAFFY_LEAD, TURN
from .common import challenge_param, cheat_param

NAME = "random"
PARAMS = {
    "cheat": cheat_param(0.25),
    "challenge": challenge_param(0.5),
    "draw": Param(0.5, "chance of drawing when the player could also lead", low=0.0, high=1.0),
}
P_DRAW = 2


# Each decision draws from ``rng``: the seat's stream ``own.rng``, or ``own.ahead``, the same
# stream a number ahead (core.rng.ahead_load), as Welsh Whist's own loop keeps it.


@njit(cache=True, inline="always")
def lead_uniform(own, rng):
    """Any held card type, uniformly (the Taffy as bit 52, its code); a Taffy names a uniform suit."""
    card = pick_bit(rng, 0, hand_mask(own.bits) | (np.int64(own.hand[TAFFY] > 0) << TAFFY))
    if card == TAFFY:
        return TAFFY_LEAD + randbelow(rng, 0, 4)
    return card


@njit(cache=True, inline="always")
def follow_uniform(own, suit, rng):
    """A card of the suit led or a Taffy (as rank 13), uniformly over held types; else pass."""
    mask = own.bits[suit] | (np.int64(own.hand[TAFFY] > 0) << 13)
    if mask == 0:
        return PASS
    r = pick_bit(rng, 0, mask)
    return TAFFY if r == 13 else suit * 13 + r


@njit(cache=True, inline="always")  # inlined: a call per decision costs more than the work
def play(t, own, phase):
    """A turn or an honest answer (cheating and challenges: ``common``)."""
    if phase == TURN:
        return turn_uniform(own, t.s[S_TOP] < t.s[S_STOCK], own.rng, draw_limit(own))
    return follow_uniform(own, t.s[S_LED_SUIT], own.rng)


@njit(cache=True, inline="always")
def draw_limit(own):
    """The seat's chance ``draw`` as :func:`turn_uniform` takes it (core.rng.chance_limit)."""
    return chance_limit(own.params[P_DRAW])


@njit(cache=True, inline="always")
def turn_uniform(own, stocked, rng, limit):
    """A turn: while the stock lasts (``stocked``) draw with chance ``draw`` (always with an empty
    hand; ``limit``: :func:`draw_limit`), else lead a uniform card."""
    if stocked and (own.types == 0 or below(rng, 0, limit)):
        return DRAW
    return lead_uniform(own, rng)


@njit(cache=True, inline="always")
def decide(v):
    return play(v.table, v.own, v.phase)
