"""``counter``: counts cards (what has been played, and who has shown a void) and leads cards
no one can beat; wins tricks with cards no one still to answer can beat."""

from numba import njit

from ..engine import DRAW, S_STOCK, S_TOP, TURN
from ..rules import R_SCORING
from .common import challenge_param, cheat_param, cheat_policy_params, follow_counting, lead_low, lead_sure

NAME = "counter"
PARAMS = {"cheat": cheat_param(policy=True), "challenge": challenge_param(), **cheat_policy_params()}


@njit(cache=True)
def turn(t, own, seat):
    if own.types == 0:
        return DRAW
    a = lead_sure(t, own, seat)
    if a >= 0:
        return a
    if t.s[S_TOP] < t.s[S_STOCK]:
        return DRAW
    return lead_low(own, t.rules[R_SCORING])


@njit(cache=True, inline="always")
def decide(v):
    if v.phase == TURN:
        return turn(v.table, v.own, v.seat)
    return follow_counting(v.table, v.own, v.seat)
