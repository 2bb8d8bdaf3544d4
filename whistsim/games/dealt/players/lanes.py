"""Whist play-outs in lockstep: many sampled deals played out at once by ``heuristic``.

pimc plays every candidate card out in every sampled deal, and in Whist every play-out of a
decision plays the same number of cards from the same trick position. So they can go card by
card together, one lane per (deal, candidate), each lane's choice made without a branch: the
lane loops compile to vector instructions (four or eight lanes an instruction) where a lone
play-out waits on a mispredicted branch at almost every card.

The lanes play as ``heuristic`` plays Whist with its defaults (as pimc's play-out seats do): the
same card in every position (tests/test_pimc_lanes.py plays both ways). The trick's power is the
engine's ``suit_power``. A lane's state is one column of a 1-D array, a row per field at a fixed
stride (``LANES``), so that the compiler sees the rows cannot overlap.
"""

import numpy as np
from numba import njit

from ....core.bits import highest, lowest, popcount
from ....core.cards import JACK, TEN
from ..engine import suit_power
from . import heuristic

LANES = 64  # lanes a pass plays (a row's stride)
SUIT = 0x1FFF
# rows of the lanes' state: the four hands (52-bit masks), the cards played, the voids shown
# (bit 4 * seat + suit), the seats' first leads (3 bits a seat from bit 3 * seat: the suit + 1,
# 0 none yet), the suit led, the trick's best power and its place, the trick's leader, tricks
# taken by the searching seat's side
H, GONE, VOID, FIRST, LED, BEST_POWER, BEST, LEADER, TAKEN = 0, 4, 5, 6, 7, 8, 9, 10, 11
ROWS = 12
DRAW_TRUMPS = int(heuristic.DEFAULTS[3])  # the play-out seats' own


@njit(cache=True, inline="always")
def _all(c):
    """All bits set when ``c``: a mask for selecting without a branch."""
    return -np.int64(c)


@njit(cache=True, inline="always")
def _of_seat(S, row, q, x):
    """Row ``row + q`` of lane ``x``, read from all four rows (no load waits on ``q``)."""
    return (
        (S[row * LANES + x] & _all(q == 0))
        | (S[(row + 1) * LANES + x] & _all(q == 1))
        | (S[(row + 2) * LANES + x] & _all(q == 2))
        | (S[(row + 3) * LANES + x] & _all(q == 3))
    )


@njit(cache=True, inline="always")
def _suit(h, suit):
    return (h >> (13 * suit)) & SUIT


@njit(cache=True, inline="always")
def _out(h, gone, suit):
    """Ranks of ``suit`` neither held nor played (``heuristic.outstanding``)."""
    return SUIT & ~((gone | h) >> (13 * suit))


@njit(cache=True, inline="always")
def _top_equal(held, out):
    """``heuristic._top_equal`` for Whist: the rank of the lowest of the seat's cards equal to its
    best, or -1 when a higher card is out."""
    h = highest(held)
    p = highest((~held | out) & ((np.int64(1) << h) - 1)) + 1
    return p if (held != 0) & ((out == 0) | (highest(out) < h)) else -1


@njit(cache=True, inline="always")
def _lead(trump, h, gone, partner_first):
    """``heuristic._lead`` for Whist with its defaults: draw trumps, return partner's lead, cash a
    winner, lead low from the longest suit, else a low trump."""
    tm = _suit(h, trump)
    tout = _out(h, gone, trump)
    sure = _top_equal(tm, tout)
    draw = trump * 13 + (sure if sure >= 0 else lowest(tm))
    ps = partner_first
    pm = _suit(h, ps & 3)  # ps -1: any suit, unused
    back = ps * 13 + (highest(pm) if popcount(pm) <= 2 else lowest(pm))
    cash = -1
    longest = -1
    n_long = 0
    for suit in range(4):
        held = _suit(h, suit)
        out = _out(h, gone, suit)
        plain = (suit != trump) & (held != 0)
        top = _top_equal(held, out)
        cash = suit * 13 + top if plain & (out != 0) & (top >= 0) & (cash < 0) else cash
        n = popcount(held)
        longer = plain & (n > n_long)
        longest = suit if longer else longest
        n_long = n if longer else n_long
    c = trump * 13 + lowest(tm)
    c = longest * 13 + lowest(_suit(h, longest & 3)) if longest >= 0 else c
    c = cash if cash >= 0 else c
    c = back if (ps >= 0) & (ps != trump) & (pm != 0) else c
    return draw if (popcount(tm) >= DRAW_TRUMPS) & (tout != 0) else c


@njit(cache=True, inline="always")
def _follow(i, trump, teams, h, gone, voids, s, leader, led, bp, best):
    """``heuristic._follow`` for Whist with its defaults, the ``i``-th card of the trick."""
    last = i == 3
    tm = _suit(h, trump)
    tout = _out(h, gone, trump)
    mine = _suit(h, led)
    cur = bp - 64 if led == trump else bp
    wins = 0 if (bp >= 64) & (led != trump) else mine & ~((np.int64(2) << cur) - 1)
    low = led * 13 + lowest(mine)
    # the discard: the lowest plain card, from the longest suit on ties (heuristic.discard)
    none = 1 << 12
    key = none
    for suit in range(4):
        m = _suit(h, suit)
        k = (lowest(m) << 6) | ((15 - popcount(m)) << 2) | suit
        key = min(key, none if (suit == trump) | (m == 0) else k)
    discard = (key & 3) * 13 + (key >> 6) if key < none else trump * 13 + lowest(tm)
    # is the card winning the trick partner's, and sure to win it? (heuristic._partner_sure)
    bseat = (leader + best) & 3
    partner = ((teams >> bseat) & 1) == ((teams >> s) & 1)
    bsuit = trump if bp >= 64 else led
    brank = bp & 63
    bout = _out(h, gone, bsuit)
    beaten = (bout != 0) & (highest(bout) > brank)
    after = 0  # the void bits, in the suit led, of the seats still to play
    for k in range(1, 4):
        after |= (np.int64(1) << (((s + k) & 3) * 4 + led)) & _all(k <= 3 - i)
    ruffed = (bsuit != trump) & (tout != 0) & ((voids & after) != 0)
    sure = partner & (last | ((not beaten) & (not ruffed)))
    # following suit
    top = _top_equal(mine, _out(h, gone, led))
    c = led * 13 + (top if top >= 0 else highest(wins))  # third hand high
    c = led * 13 + lowest(wins) if last else c  # win cheaply last
    second = (i == 1) | (partner & ((bsuit != led) | (brank >= JACK)))
    c = low if sure | ((not last) & second) | (wins == 0) else c
    # void in the suit led, holding trumps: ruff low enough to win, or discard
    over = tm & ~((np.int64(2) << ((bp - 64) & 63)) - 1)
    ruff = discard if over == 0 else trump * 13 + lowest(over)
    lt = trump * 13 + lowest(tm)
    v = ruff if bp >= 64 else (discard if (lt == trump * 13 + TEN) & (not last) else lt)
    v = discard if sure | (tm == 0) else v
    return c if mine != 0 else v


@njit(cache=True, inline="always")
def _take(S, x, c, s):
    """The card leaves seat ``s``'s hand for the trick (one store per hand row, no branch)."""
    bit = np.int64(1) << c
    for q in range(4):
        S[(H + q) * LANES + x] ^= bit & _all(s == q)
    S[GONE * LANES + x] |= bit
    suit = (c * 5042) >> 16  # c // 13 for 0 <= c < 52
    return suit, c - 13 * suit


@njit(cache=True, inline="always")
def _put_lead(S, x, c, s, trump):
    """Lane ``x``'s seat ``s`` leads card ``c`` (the engine's ``lead``: the seat's first lead kept)."""
    suit, rank = _take(S, x, c, s)
    S[LED * LANES + x] = suit
    S[BEST_POWER * LANES + x] = suit_power(suit, rank, trump, suit, False)
    S[BEST * LANES + x] = 0
    f = S[FIRST * LANES + x]
    S[FIRST * LANES + x] = f | ((suit + 1) << (3 * s)) & _all(((f >> (3 * s)) & 7) == 0)


@njit(cache=True, inline="always")
def _put_follow(S, x, c, i, s, trump, led, bp, best):
    """Lane ``x``'s seat ``s`` plays card ``c`` as the ``i``-th of the trick (the engine's
    ``follow``: a seat not following shows out; of equal cards the first played wins)."""
    suit, rank = _take(S, x, c, s)
    S[VOID * LANES + x] |= np.int64(suit != led) << (s * 4 + led)
    pw = suit_power(suit, rank, trump, led, False)
    wins = pw > bp
    S[BEST * LANES + x] = i if wins else best
    S[BEST_POWER * LANES + x] = pw if wins else bp


@njit(cache=True)
def _lead_lanes(S, n, trump):
    for x in range(n):
        s = S[LEADER * LANES + x]
        h = _of_seat(S, H, s, x)
        c = _lead(trump, h, S[GONE * LANES + x], ((S[FIRST * LANES + x] >> (3 * ((s + 2) & 3))) & 7) - 1)
        _put_lead(S, x, c, s, trump)


@njit(cache=True)
def _follow_lanes(S, n, trump, teams, i):
    for x in range(n):
        leader = S[LEADER * LANES + x]
        s = (leader + i) & 3
        h = _of_seat(S, H, s, x)
        led = S[LED * LANES + x]
        bp = S[BEST_POWER * LANES + x]
        best = S[BEST * LANES + x]
        c = _follow(i, trump, teams, h, S[GONE * LANES + x], S[VOID * LANES + x], s, leader, led, bp, best)
        _put_follow(S, x, c, i, s, trump, led, bp, best)


@njit(cache=True)
def _end_lanes(S, n, side_seats):
    for x in range(n):
        winner = (S[LEADER * LANES + x] + S[BEST * LANES + x]) & 3
        S[TAKEN * LANES + x] += (side_seats >> winner) & 1
        S[LEADER * LANES + x] = winner


@njit(cache=True)
def play_lanes(S, n, cards, trump, teams, side_seats, i0, seat, tricks):
    """Play lane ``x``'s card ``cards[x]`` for ``seat`` as the ``i0``-th card of the trick, then
    the deal out, ``tricks`` more tricks after this one; ``S``'s rows hold each lane's deal and
    the trick so far. ``teams``: bit q set for seats of team 1; ``side_seats``: bit q set for the
    searching seat's side. Adds the tricks that side takes to row ``TAKEN``."""
    if i0 == 0:
        for x in range(n):
            _put_lead(S, x, cards[x], seat, trump)
    else:
        for x in range(n):
            bp = S[BEST_POWER * LANES + x]
            _put_follow(S, x, cards[x], i0, seat, trump, S[LED * LANES + x], bp, S[BEST * LANES + x])
    for i in range(i0 + 1, 4):
        _follow_lanes(S, n, trump, teams, i)
    _end_lanes(S, n, side_seats)
    for _ in range(tricks):
        _lead_lanes(S, n, trump)
        for i in range(1, 4):
            _follow_lanes(S, n, trump, teams, i)
        _end_lanes(S, n, side_seats)
