"""A user's Whist strategy that plays as the built-in random player and writes what its ``write``
says. Two tests seat this one function, each with its write, so that its kernel (a user's
function has a kernel of its own) is compiled once for both."""

from numba import njit

from whistsim.core.strategy import Param
from whistsim.games.dealt.players.random import decide as random_decide

PARAMS = {
    "write": Param(
        0.0,
        "scratch: its scratch deal (a search's own, its to write); own: its own hand (forgets its "
        "clubs: the next seat would be blamed for the misdeal)",
        words={"scratch": 0.0, "own": 1.0},
        numbers=False,
    )
}


@njit
def decide(v):
    if v.own.params[0] == 0.0:
        v.scratch.table.s[0] = 77
        return random_decide(v)
    a = random_decide(v)
    v.own.bits[0] = 0
    return a
