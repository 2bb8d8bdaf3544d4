"""``greedy``: wins tricks holding a Ten or a Taffy cheaply, else plays low; leads only Aces
(sure) and Kings (likely), drawing otherwise."""

from numba import njit

from ..engine import DRAW, S_STOCK, S_TOP, TURN
from ..rules import R_SCORING
from .common import (
    challenge_param,
    cheat_param,
    cheat_policy_params,
    follow_greedy,
    lead_aces_kings,
    lead_low,
)

NAME = "greedy"
PARAMS = {"cheat": cheat_param(policy=True), "challenge": challenge_param(), **cheat_policy_params()}


@njit(cache=True)
def turn(t, own):
    if own.types == 0:
        return DRAW
    a = lead_aces_kings(own)
    if a >= 0:
        return a
    if t.s[S_TOP] < t.s[S_STOCK]:
        return DRAW
    return lead_low(own, t.rules[R_SCORING])


@njit(cache=True, inline="always")
def decide(v):
    if v.phase == TURN:
        return turn(v.table, v.own)
    return follow_greedy(v.table, v.own, v.seat)
