"""A user's Welsh Whist strategy that fails as its ``fault`` says. The tests of how a failing
user's function is reported seat this one function, each with its fault, so that its kernel (a
user's function has a kernel of its own) is compiled once for them all, not once per test."""

import numpy as np
from numba import njit

from whistsim.core.strategy import Param
from whistsim.games.welsh.engine import PASS
from whistsim.games.welsh.players.random import decide as random_decide

FAULTS = {"index": 0.0, "raise": 1.0, "pass": 2.0, "table": 3.0}
PARAMS = {
    "fault": Param(
        0.0,
        "index: reads out of bounds; raise: raises ValueError; pass: always passes; "
        "table: writes the table (a point more for itself, as issue 36 tried)",
        words=FAULTS,
        numbers=False,
    )
}
A = np.zeros(2, np.int64)


@njit
def decide(v):
    fault = v.own.params[0]
    if fault == 0.0:
        return A[v.seat + 5]
    if fault == 1.0:
        if v.seat >= 0:
            raise ValueError("no more")
        return 0
    if fault == 2.0:
        return PASS
    v.table.won[v.seat, 8] += 1
    return random_decide(v)
