"""``random``: uniform over legal decisions, with draw, cheat and challenge rates."""

import numpy as np
from numba import njit

from ....core.bits import hand_mask
from ....core.cards import TAFFY
from ....core.rng import (
    below_ahead,
    chance_limit,
    pick_bit,
    pick_bit_ahead,
    randbelow,
    randbelow_ahead,
    uniform,
)
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


# ``ahead``: draw from the seat's stream kept a number ahead (``own.ahead``, core.rng.ahead_load),
# as Welsh Whist's own loop keeps it, not from ``own.rng``: the same numbers, the same decisions.


@njit(cache=True, inline="always")
def _pick(own, mask, ahead):
    """A uniform set bit of ``mask`` from the seat's stream."""
    if ahead:
        return pick_bit_ahead(own.ahead, 0, mask)
    return pick_bit(own.rng, 0, mask)


@njit(cache=True, inline="always")
def _below(own, n, ahead):
    """A uniform integer in ``[0, n)`` from the seat's stream."""
    if ahead:
        return randbelow_ahead(own.ahead, 0, n)
    return randbelow(own.rng, 0, n)


@njit(cache=True, inline="always")
def lead_uniform(own, ahead):
    """Any held card type, uniformly (the Taffy as bit 52, its code); a Taffy names a uniform suit."""
    card = _pick(own, hand_mask(own.bits) | (np.int64(own.hand[TAFFY] > 0) << TAFFY), ahead)
    if card == TAFFY:
        return TAFFY_LEAD + _below(own, 4, ahead)
    return card


@njit(cache=True, inline="always")
def follow_uniform(own, suit, ahead):
    """A card of the suit led or a Taffy (as rank 13), uniformly over held types; else pass."""
    mask = own.bits[suit] | (np.int64(own.hand[TAFFY] > 0) << 13)
    if mask == 0:
        return PASS
    r = _pick(own, mask, ahead)
    return TAFFY if r == 13 else suit * 13 + r


@njit(cache=True, inline="always")  # inlined: a call per decision costs more than the work
def play(t, own, phase):
    """A turn or an honest answer (cheating and challenges: ``common``)."""
    if phase == TURN:
        return turn_uniform(own, t.s[S_TOP] < t.s[S_STOCK], False)
    return follow_uniform(own, t.s[S_LED_SUIT], False)


@njit(cache=True, inline="always")
def draw_limit(own):
    """The seat's chance ``draw`` as an integer threshold (core.rng.chance_limit), kept in
    ``own.draw_limit`` by the own loop, once a deal, for :func:`turn_uniform` with ``ahead``."""
    return chance_limit(own.params[P_DRAW])


@njit(cache=True, inline="always")
def turn_uniform(own, stocked, ahead):
    """A turn: while the stock lasts (``stocked``) draw with chance ``draw`` (always with an empty
    hand), else lead a uniform card."""
    if stocked:
        if own.types == 0:
            return DRAW
        if ahead:
            if below_ahead(own.ahead, 0, own.draw_limit):
                return DRAW
        elif uniform(own.rng, 0) < own.params[P_DRAW]:
            return DRAW
    return lead_uniform(own, ahead)


@njit(cache=True, inline="always")
def decide(v):
    return play(v.table, v.own, v.phase)
