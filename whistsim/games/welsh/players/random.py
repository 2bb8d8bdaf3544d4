"""``random``: uniform over legal decisions, with draw, cheat and challenge rates."""

from numba import njit

from ....core.bits import FAST_PDEP, nth, popcount
from ....core.cards import TAFFY
from ....core.rng import randbelow, uniform
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


if FAST_PDEP:

    @njit(cache=True, inline="always")
    def lead_uniform(own):
        """Any held card type, uniformly; a Taffy names a uniform suit."""
        pick = randbelow(own.rng, 0, own.types)
        b = own.bits
        held = b[0] | (b[1] << 13) | (b[2] << 26) | (b[3] << 39)  # bit = card code: suits in order
        if pick < popcount(held):
            return nth(held, pick)
        return TAFFY_LEAD + randbelow(own.rng, 0, 4)

else:

    @njit(cache=True, inline="always")
    def lead_uniform(own):
        """Any held card type, uniformly; a Taffy names a uniform suit."""
        pick = randbelow(own.rng, 0, own.types)
        for suit in range(4):
            n = popcount(own.bits[suit])
            if pick < n:
                return suit * 13 + nth(own.bits[suit], pick)
            pick -= n
        return TAFFY_LEAD + randbelow(own.rng, 0, 4)


@njit(cache=True, inline="always")
def follow_uniform(own, suit):
    """A card of the suit led or a Taffy, uniformly over held types; else pass."""
    mask = own.bits[suit]
    n = popcount(mask)
    taffy = own.hand[TAFFY] > 0
    if n + taffy == 0:
        return PASS
    pick = randbelow(own.rng, 0, n + taffy)
    if pick == n:
        return TAFFY
    return suit * 13 + nth(mask, pick)


@njit(cache=True, inline="always")  # inlined: a call per decision costs more than the work
def play(t, own, phase):
    """A turn or an honest answer (cheating and challenges: ``common``)."""
    if phase == TURN:
        if t.s[S_TOP] < t.s[S_STOCK] and (own.types == 0 or uniform(own.rng, 0) < own.params[P_DRAW]):
            return DRAW
        return lead_uniform(own)
    return follow_uniform(own, t.s[S_LED_SUIT])


@njit(cache=True, inline="always")
def decide(v):
    return play(v.table, v.own, v.phase)
