"""``hoarder``: draws while the stock lasts, then plays as ``counter`` from its full hand."""

from numba import njit

from ..engine import DRAW, S_STOCK, S_TOP, TURN
from .common import challenge_param, cheat_param, follow_counting
from .counter import turn as counter_turn

NAME = "hoarder"
PARAMS = {"cheat": cheat_param(), "challenge": challenge_param()}


@njit(cache=True)
def turn(t, own, seat):
    if t.s[S_TOP] < t.s[S_STOCK]:
        return DRAW
    return counter_turn(t, own, seat)


@njit(cache=True, inline="always")
def decide(v):
    if v.phase == TURN:
        return turn(v.table, v.own, v.seat)
    return follow_counting(v.table, v.own, v.seat)
