"""The search's position as one int64 array ``X``, and its moves' scratch ``mv``: their layout,
loading a position from the engine, the seat to play, its legal cards, and playing a card.

(:mod:`whistsim.solver.position` is the Python side: a record's or a hand's position, loaded
into these arrays and solved.)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ....core.bits import lowest
from ..engine import (
    MAX_PLAYERS,
    P_HONOURS,
    R_KIND,
    R_PLAYERS,
    S_BEST,
    S_LED,
    S_SEAT,
    S_TRICK_LEN,
    S_TRUMP,
    SCOTCH,
    power,
    score_deal,
    to_power_mask,
)
from .intrinsics import _bare, _inline, _reader, _u

INF = 1 << 20
NOCUT = 1 << 30  # no cutoff from a bound (or the table)
MAX_DEPTH = 64  # cards left to play, at most

# Scalars of a position, X[...]
(
    SP,  # players
    STRUMP,
    SW0,  # a trick won by side 0 adds W0 + its points; by side 1, W1 - its points
    SW1,
    SLEN,  # cards in the trick so far
    SLEADER,
    SLED,  # suit led, -1 at the start of a trick
    SBSEAT,  # seat winning the trick so far
    SBPOW,  # its power (engine.power)
    STPTS,  # points of the cards in the trick
    SLEFT,  # cards left in the hands
    SRPTS,  # points left in the hands
    SDEPTH,  # plies below the root
    SNODES,  # nodes searched
    SSCOTCH,
    STRICKS,  # tricks completed in the search: the trick starts reached (DDS's node count)
) = range(16)
N_S = 16
# The whole position is one int64 array X: the scalars, then the hands (power masks
# [seat, suit]), the cards of the trick so far per suit, the sides, the points per
# [suit, power bit]. One array: a recursive call passes one reference, not five.
OH = N_S
OTM = OH + 4 * MAX_PLAYERS
OTEAM = OTM + 4
OPTS = OTEAM + MAX_PLAYERS
OPM = OPTS + 4 * 16  # per suit, the power bits of the cards that carry points
OREM = OPM + 4  # per suit, the cards left in the hands (kept as cards are played)
N_X = OREM + 4

# Per-depth scratch in ``mv[d]``: moves first (at most 52), then these.
OSCR = 52  # 4: relevant cards of a bound; in _ab, after the bounds, the trick's cards at its last card
OREL = 56  # 4: the node's relevant cards (power masks per suit), see alphabeta._ab
OCODE = 60  # 4: the owner code of each suit, lowest card in the low bits
MOVE_SLOTS = 64
KILLER = 60  # a row of mv past any depth (at most 53): per depth, the last move that cut off
# 5 rows of mv past any depth: per depth, what memo._probe leaves for alphabeta._ab and
# memo._store (the stored lead, the bucket, the key as stored), not returned as a tuple
PROBED = 54


@njit(cache=True)
def card_points(c, out):
    """Points each card carries to the side that wins it, by the engine's own scoring:
    ``out[suit, rank]`` is the honours part of a deal in which one side took that card
    alone (0 throughout for Whist, whose honours are the cards dealt, not won).
    ``c`` is a scratch deal whose rules, sides and trump are set; its tricks are cleared."""
    t = c.table
    r = t.rules
    p = r[R_PLAYERS]
    for suit in range(4):
        for rank in range(13):
            out[suit, rank] = 0
    if r[R_KIND] != SCOTCH:
        return
    for q in range(p):
        t.won_n[q] = 0
        t.tricks[q] = 0
        for suit in range(4):
            t.won_bits[q, suit] = 0
    c.n_revokes = 0
    side = t.team[0]
    for suit in range(4):
        for rank in range(13):
            t.won_bits[0, suit] = 1 << rank
            score_deal(c)
            out[suit, rank] = c.result[P_HONOURS, side]
        t.won_bits[0, suit] = 0


@njit(cache=True)
def load(t, hands, pts_rank, X):
    """Set up the search position from a table (TABLE_DTYPE) and every seat's current hand
    (rank masks ``hands[seat, suit]``); ``pts_rank`` from :func:`card_points`.

    Returns the value already secured by side 0 before the trick in progress: Whist 0
    (tricks are counted from the trick in progress), Scotch the margin of honours and cards
    taken so far."""
    r = t.rules
    p = r[R_PLAYERS]
    scotch = r[R_KIND] == SCOTCH
    trump = t.s[S_TRUMP]
    for i in range(X.shape[0]):
        X[i] = 0
    X[SP] = p
    X[STRUMP] = trump
    X[SSCOTCH] = scotch
    if scotch:
        X[SW0] = p // 2
        X[SW1] = -(p // 2)
    else:
        X[SW0] = 1
        X[SW1] = 0
    for q in range(MAX_PLAYERS):
        X[OTEAM + q] = t.team[q] if q < p else 0
    for suit in range(4):
        X[OTM + suit] = 0
        X[OPM + suit] = 0
        for b in range(16):
            X[OPTS + 16 * (suit) + b] = 0
        for rank in range(13):
            pb = _pbit(rank, suit, trump, scotch)
            X[OPTS + 16 * (suit) + pb] = pts_rank[suit, rank]
            if pts_rank[suit, rank] != 0:
                X[OPM + suit] |= 1 << pb
    left = 0
    rpts = 0
    for q in range(MAX_PLAYERS):
        for suit in range(4):
            X[OH + 4 * (q) + suit] = 0
    for q in range(p):
        for suit in range(4):
            m = to_power_mask(hands[q, suit], suit == trump, scotch)
            X[OH + 4 * (q) + suit] = m
            X[OREM + suit] |= m
            while m:
                b = lowest(m)
                m &= m - 1
                left += 1
                rpts += X[OPTS + 16 * (suit) + b]
    X[SLEFT] = left
    X[SRPTS] = rpts
    n = t.s[S_TRICK_LEN]
    X[SLEN] = n
    X[SLED] = t.s[S_LED] if n > 0 else -1
    X[SLEADER] = t.s[S_SEAT] if n == 0 else t.trick_seat[0]
    tp = 0
    for i in range(n):
        card = t.trick_card[i]
        suit = card // 13
        b = _pbit(card % 13, suit, trump, scotch)
        X[OTM + suit] |= 1 << b
        tp += X[OPTS + 16 * (suit) + b]
    X[STPTS] = tp
    if n > 0:
        best = t.s[S_BEST]
        X[SBSEAT] = t.trick_seat[best]
        X[SBPOW] = power(t.trick_card[best], trump, X[SLED], scotch)
    secured = 0
    if scotch:
        for q in range(p):
            sign = 1 if X[OTEAM + q] == 0 else -1
            won = 0
            for suit in range(4):
                m = t.won_bits[q, suit]
                while m:
                    rank = lowest(m)
                    m &= m - 1
                    won += pts_rank[suit, rank]
            secured += sign * (won * 2 + t.won_n[q])
        secured //= 2  # p is even: each side's cards taken differ by a multiple of 2
    return secured


@njit(cache=True, inline="always")
def _pbit(rank, suit, trump, scotch):
    """Power bit of a card (the engine's power order within its suit)."""
    return lowest(to_power_mask(1 << rank, suit == trump, scotch))


@_inline
def _tricks(cards, p):
    """Tricks in ``cards`` cards of ``p`` players (a shift with four: a division costs more)."""
    return cards >> 2 if p == 4 else cards // p


_held = _reader(OH, 4)  # _held(X, q, suit): seat q's cards of suit (a power mask)
_side = _reader(OTEAM)  # _side(X, q): seat q's side


@_bare
def seat_to_play(X):
    return (X[SLEADER] + X[SLEN]) % X[SP]


@njit(cache=True)
def legal_bits(X, seat):
    """The seat's cards it may play, as power masks per suit (follow suit when able)."""
    out = np.zeros(4, np.int64)
    n = X[SLEN]
    led = X[SLED]
    if n > 0 and X[OH + 4 * (seat) + led] != 0:
        out[led] = X[OH + 4 * (seat) + led]
    else:
        for suit in range(4):
            out[suit] = X[OH + 4 * (seat) + suit]
    return out


@_inline
def _step(X, seat, suit, bit, p, n, trump):
    """``seat`` plays a card (``suit``, power bit) to the trick of ``n`` cards so far (``p``
    players, ``trump``): out of its hand, into the trick; with the trick's last card the trick
    goes to its winner, who leads next. Returns what a finished trick adds to the value, else
    0. The winner's seat and power are left in ``X`` when the trick ends (the search reads them)."""
    bb = 1 << bit
    pc = X[_u(OPTS + 16 * suit + bit)]
    X[_u(OH + 4 * seat + suit)] ^= bb
    X[_u(OREM + suit)] ^= bb
    X[SLEFT] -= 1
    X[SRPTS] -= pc
    X[_u(OTM + suit)] |= bb
    if n == 0:
        X[SLED] = suit
        X[SBSEAT] = seat
        X[SBPOW] = 64 + bit if suit == trump else bit
        X[STPTS] = pc
    else:
        pw = 64 + bit if suit == trump else (bit if suit == X[SLED] else -1)
        if pw > X[SBPOW]:
            X[SBSEAT] = seat
            X[SBPOW] = pw
        X[STPTS] += pc
    if n + 1 < p:
        X[SLEN] = n + 1
        return 0
    winner = X[SBSEAT]
    gain = X[SW0] + X[STPTS] if _side(X, winner) == 0 else X[SW1] - X[STPTS]
    X[_u(OTM + 0)] = X[_u(OTM + 1)] = X[_u(OTM + 2)] = X[_u(OTM + 3)] = 0
    X[SLEADER] = winner
    X[SLEN] = 0
    X[SLED] = -1
    return gain


@_bare
def play(X, seat, suit, bit):
    """Play one card for good (no undo); returns what a finished trick adds to the value."""
    return _step(X, seat, suit, bit, X[SP], X[SLEN], X[STRUMP])
