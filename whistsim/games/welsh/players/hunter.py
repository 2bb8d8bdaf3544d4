"""``hunter``: the play Akagiri 1995 reports: while the stock lasts, leads its high cards (Jack or better,
which beat Tens and Taffies) one after another to catch others' Tens and Taffies."""

from numba import njit

from ....cards import JACK
from ....strategy import Param
from ..engine import DRAW, S_STOCK, S_TOP, TURN
from .common import challenge_param, cheat_param, follow_greedy, lead_high
from .greedy import turn as greedy_turn

NAME = "hunter"
PARAMS = {
    "cheat": cheat_param(),
    "challenge": challenge_param(),
    "rank": Param(float(JACK), "the lowest rank it leads while the stock lasts (0=2 .. 12=A; 9=Jack)",
                  low=0.0, high=12.0, integer=True),
}  # fmt: skip
P_RANK = 2


@njit(cache=True)
def turn(t, own):
    if t.s[S_TOP] < t.s[S_STOCK]:
        if own.types == 0:
            return DRAW
        a = lead_high(own, int(own.params[P_RANK]))
        return a if a >= 0 else DRAW
    return greedy_turn(t, own)


@njit(cache=True, inline="always")
def decide(v):
    if v.phase == TURN:
        return turn(v.table, v.own)
    return follow_greedy(v.table, v.own, v.seat)
