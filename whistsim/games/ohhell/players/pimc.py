"""``pimc``: perfect-information Monte Carlo search, for bids and cards.

For each decision it samples deals of the unseen cards that agree with all the seat has
seen: its own hand, the turned card, the bids, the cards played, the hand sizes, and
every void a player has shown by not following suit (cards not dealt stay in the stock).
In each sampled deal it tries each legal bid or card and plays the round out with every
hand open to a fast player (``heuristic`` or ``random``), the same deal for every
candidate. It makes the move with the best total: its points for the round less the
others' average. Its randomness is its own stream. See docs/rules.md (Oh Hell).
"""

import numpy as np
from numba import njit

from ....core.bits import lowest
from ....core.rng import next_u64, randbelow
from ....core.strategy import Param
from ..engine import (
    BID,
    BID_BASE,
    DONE,
    MAX_PLAYERS,
    R_PLAYERS,
    S_HAND,
    S_LED,
    S_PHASE,
    S_SEAT,
    S_TURNUP,
    apply_round,
    copy_table,
    hooked,
    legal_mask,
    seat_view,
)
from . import heuristic
from . import random as random_player

NAME = "pimc"
PARAMS = {
    # bounded so that one decision stays well under a second
    "worlds": Param(16.0, "deals sampled per decision, each agreeing with what the seat has seen",
                    low=1.0, high=1000.0, integer=True),
    "rollout": Param(1.0, "who plays the sampled deals out: 1 heuristic players, 0 random players",
                     low=0.0, high=1.0, integer=True),
}  # fmt: skip
TRIES = 8  # deals drawn before the voids are let go (a deal that strands a card is drawn again)
STOCK = MAX_PLAYERS  # the slot of the cards not dealt


@njit(cache=True)
def _sample(v, cards, cap, slots):
    """Deal the unseen cards at random into the scratch round's other hands, the rest to the
    stock, keeping every void shown (after ``TRIES`` failed draws, voids are ignored)."""
    t = v.table
    sc = v.scratch
    p = t.rules[R_PLAYERS]
    rng = v.own.rng
    n = 0
    turnup = t.s[S_TURNUP]
    for suit in range(4):
        m = t.pack[suit] & ~t.played[suit] & ~v.own.bits[suit]
        if turnup >= 0 and turnup // 13 == suit:
            m &= ~(np.int64(1) << np.int64(turnup % 13))
        while m:
            cards[n] = suit * 13 + lowest(m)
            m &= m - 1
            n += 1
    for attempt in range(TRIES + 1):
        for i in range(n - 1, 0, -1):
            j = randbelow(rng, 0, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        dealt = 0
        for q in range(p):
            cap[q] = 0 if q == v.seat else t.hand_n[q]
            dealt += cap[q]
            for suit in range(4):
                slots[q, suit] = 0
        cap[STOCK] = n - dealt
        ok = True
        for i in range(n):
            c = cards[i]
            suit = c // 13
            total = 0
            for q in range(p):
                if cap[q] > 0 and (attempt == TRIES or t.void[q, suit] == 0):
                    total += cap[q]
            total += cap[STOCK]
            if total == 0:
                ok = False
                break
            x = randbelow(rng, 0, total)
            pick = STOCK
            for q in range(p):
                if cap[q] > 0 and (attempt == TRIES or t.void[q, suit] == 0):
                    if x < cap[q]:
                        pick = q
                        break
                    x -= cap[q]
            cap[pick] -= 1
            if pick < STOCK:
                slots[pick, suit] |= np.int64(1) << np.int64(c % 13)
        if ok:
            break
    for q in range(p):
        own = sc.seats[q]
        for suit in range(4):
            own.bits[suit] = v.own.bits[suit] if q == v.seat else slots[q, suit]
        own.n = t.hand_n[q]


@njit(cache=True)
def _reset(v, world, seeds):
    """The scratch round as the sampled ``world`` (hands) stands at the decision, each seat's
    random stream at ``seeds`` (every candidate meets the same draws)."""
    sc = v.scratch
    copy_table(sc.table, v.table)
    for q in range(v.table.rules[R_PLAYERS]):
        own = sc.seats[q]
        for suit in range(4):
            own.bits[suit] = world[q, suit]
        own.n = v.table.hand_n[q]
        own.params[0] = heuristic.DEFAULTS[0]
        own.params[1] = heuristic.DEFAULTS[1]
        own.rng[0] = seeds[q]


@njit(cache=True)
def _play_out(v, first, heuristic_rollout):
    """Make move ``first`` in the scratch round, play it to its end; the seat's points less
    the others' average."""
    sc = v.scratch
    t = sc.table
    apply_round(sc, first)
    while t.s[S_PHASE] < DONE:
        q = t.s[S_SEAT]
        w = seat_view(sc, q, sc)
        a = heuristic.decide(w) if heuristic_rollout else random_player.decide(w)
        apply_round(sc, a)
    p = t.rules[R_PLAYERS]
    mine = t.round_points[v.seat]
    others = 0.0
    for q in range(p):
        if q != v.seat:
            others += t.round_points[q]
    return mine - others / (p - 1)


@njit(cache=True)
def decide(v):
    t = v.table
    own = v.own
    p = t.rules[R_PLAYERS]
    worlds = max(1, int(own.params[0]))
    rollout = own.params[1] != 0
    moves = np.empty(53, np.int64)
    k = 0
    if t.s[S_PHASE] == BID:
        for b in range(t.s[S_HAND] + 1):
            if not hooked(t, b):
                moves[k] = BID_BASE + b
                k += 1
    else:
        led = t.s[S_LED]
        for suit in range(4):
            m = legal_mask(own, led, suit)
            while m:
                moves[k] = suit * 13 + lowest(m)
                m &= m - 1
                k += 1
    if k == 1:
        return moves[0]
    cards = np.empty(52, np.int64)
    cap = np.empty(MAX_PLAYERS + 1, np.int64)
    slots = np.empty((MAX_PLAYERS, 4), np.int64)
    world = np.empty((MAX_PLAYERS, 4), np.int64)
    seeds = np.empty(MAX_PLAYERS, np.uint64)
    total = np.zeros(k, np.float64)
    sc = v.scratch
    for _ in range(worlds):
        _sample(v, cards, cap, slots)
        for q in range(p):
            for suit in range(4):
                world[q, suit] = sc.seats[q].bits[suit]
            seeds[q] = next_u64(own.rng, 0)
        for i in range(k):
            _reset(v, world, seeds)
            total[i] += _play_out(v, moves[i], rollout)
    best = 0
    for i in range(1, k):
        if total[i] > total[best]:
            best = i
    return moves[best]
