"""``dd``: open-hand (double-dummy) search over sampled deals, as the strong bridge programs play.

For each decision it samples deals of the unseen cards that agree with all the
seat has seen (as ``pimc`` does: its own hand, the cards played, the turn-up,
the hand sizes, every void shown), solves each sampled deal with every hand open
(``whistsim.solver``) after each legal card, and plays the card with the best
total open-hand value over the samples: Whist its side's tricks, Scotch Whist
its side's margin in points. Whist and Scotch Whist with two sides and one hand
each; under other Scotch Whist rules (three sides or more, two or three
players) it plays as ``pimc``. With ``tricks`` below the hand's size it plays as
``heuristic`` until that many tricks are left (a full deal's open-hand search
costs far more than an ending's). It never revokes. Its randomness is its own
stream.
"""

import numpy as np
from numba import njit

from ....core.bits import nth
from ....core.strategy import Param
from .. import search as se
from ..engine import MAX_PLAYERS, R_PLAYERS, R_SETS, R_TEAMS, S_SET, copy_table, from_power
from . import heuristic, pimc

NAME = "dd"
PARAMS = {
    # bounded so that a decision ends (Whist's opening lead: a median 0.06 s a world, one deal
    # 2.8 s; docs/solver.md) and its table fits in memory
    "worlds": Param(8.0, "deals sampled per decision, each agreeing with what the seat has seen",
                    low=1.0, high=16.0, integer=True),
    "table": Param(16.0, "log2 of the entries of the search's transposition table",
                   low=8.0, high=22.0, integer=True),
    "tricks": Param(13.0, "search only when at most this many tricks are left; before that, play as heuristic",
                    low=1.0, high=13.0, integer=True),
}  # fmt: skip


@njit(cache=True)
def _as_heuristic(v):
    """``heuristic``'s card, with its own default parameters in the seat's slots for the call."""
    own = v.own
    saved = own.params.copy()
    for i in range(len(heuristic.DEFAULTS)):
        own.params[i] = heuristic.DEFAULTS[i]
    card = heuristic.decide(v)
    for i in range(saved.shape[0]):
        own.params[i] = saved[i]
    return card


# inlined into the players' switch, its one caller: compiled on its own, its module (the solver
# and pimc) was optimised once more (about 5 s of the every-player kernel's cold compile)
@njit(cache=True, inline="always")
def decide(v):
    own = v.own
    led = v.led
    t = v.table
    r = t.rules
    if r[R_TEAMS] != 2 or r[R_SETS] != 1:
        return pimc.decide(v)
    cands, n, only = pimc.legal_cards(own, led)
    if n == 1:
        return only
    if own.n > own.params[2]:
        return _as_heuristic(v)
    worlds = max(1, int(own.params[0]))
    log2 = min(22, max(8, int(own.params[1])))
    sc = v.scratch
    copy_table(sc.table, t)
    pts_rank = np.zeros((4, 13), np.int64)
    se.card_points(sc, pts_rank)
    p = r[R_PLAYERS]
    cur = t.s[S_SET]
    sign = 1 if t.team[v.seat] == 0 else -1
    slot_bits = np.zeros((pimc.MAX_SLOTS, 4), np.int64)
    hands = np.zeros((MAX_PLAYERS, 4), np.int64)
    X = np.zeros(se.N_X, np.int64)
    tt = np.zeros(((1 << log2) + 1, se.TT_COLS), np.int64)  # the last row: new_table's generations
    mv = np.zeros((se.MAX_DEPTH, se.MOVE_SLOTS), np.int64)
    out = np.zeros(64, np.int64)
    total = np.zeros(52, np.int64)
    guess = np.int64(0)  # typed: a literal 0 would compile move_values for it too
    work = pimc._work()
    for _ in range(worlds):
        pimc._deal_unseen(v, slot_bits, work)
        for q in range(p):
            for suit in range(4):
                hands[q, suit] = own.bits[suit] if q == v.seat else slot_bits[cur * MAX_PLAYERS + q, suit]
        se.load(t, hands, pts_rank, X)
        se.move_values(X, tt, mv, out, guess)
        for i in range(64):
            if out[i] < se.INF:
                guess = out[i]
                suit = i // 16
                total[suit * 13 + from_power(i % 16)] += sign * out[i]
    best = -1
    for suit in range(4):
        m = cands[suit]
        while m:
            card = suit * 13 + nth(m, 0)
            m &= m - 1
            if best < 0 or total[card] > total[best]:
                best = card
    return best
