"""The open-hand search: alpha-beta with a transposition table over a compact position.

Every hand is visible and both sides play their best. The value searched is
additive over tricks, from the trick in progress (counted) to the end of the
deal, for side 0 (side 1 plays to make it small):

- Whist: the tricks side 0 takes.
- Scotch Whist with two sides: the margin of side 0 over side 1 in points:
  each trick adds ``+/- (p/2 + points of its counting cards)`` for a trick of
  ``p`` cards. With two sides dealt the same number of cards, the cards part
  (cards taken above those dealt, at least 0) of the winner less the loser's is
  half the difference in cards taken, so the margin is additive though each
  side's cards part is not.

The position (one array, ``X``) is per-seat per-suit *power* masks (the
engine's ``to_power_mask``: the Scotch trump Jack is bit 13), the trick so far
and a few scalars. Cards adjacent in power within one hand, or made adjacent by
the cards gone in finished tricks, are one move (the lowest stands for them);
in Scotch Whist a counting card is a move of its own. Positions at the start of
a trick are stored in the table kept exactly (the owners of the cards left, by relative rank, the cards left per suit and the leader), with a lower and an upper bound
on their value and the best lead found. The root is searched by MTD(f):
null-window searches that close in on the value.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...bits import highest, lowest, popcount
from .engine import (
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

INF = 1 << 20
MAX_DEPTH = 64  # cards left to play, at most
MAX_MOVES = 16  # moves at one node: at most one suit's 14 power bits when following, else 52
MOVE_SLOTS = 56

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
    SUNUSED,
    SLEFT,  # cards left in the hands
    SRPTS,  # points left in the hands
    SDEPTH,  # plies below the root
    SNODES,  # nodes searched
    SSCOTCH,
) = range(16)
N_S = 16
# The whole position is one int64 array X: the scalars, then the hands (power masks
# [seat, suit]), the cards of the trick so far per suit, the sides, the points per
# [suit, power bit]. One array: a recursive call passes one reference, not five.
OH = N_S
OTM = OH + 4 * MAX_PLAYERS
OTEAM = OTM + 4
OPTS = OTEAM + MAX_PLAYERS
N_X = OPTS + 4 * 16

# Columns of a table entry.
T_A, T_B, T_C, T_LO, T_HI, T_MOVE, T_LEFT = range(7)
TT_COLS = 7


def new_table(log2: int = 20) -> np.ndarray:
    """An empty transposition table of ``2**log2`` entries."""
    return np.zeros((1 << log2, TT_COLS), np.int64)


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
        for b in range(16):
            X[OPTS + 16 * (suit) + b] = 0
        for rank in range(13):
            pb = _pbit(rank, suit, trump, scotch)
            X[OPTS + 16 * (suit) + pb] = pts_rank[suit, rank]
    left = 0
    rpts = 0
    for q in range(MAX_PLAYERS):
        for suit in range(4):
            X[OH + 4 * (q) + suit] = 0
    for q in range(p):
        for suit in range(4):
            m = to_power_mask(hands[q, suit], suit == trump, scotch)
            X[OH + 4 * (q) + suit] = m
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


@njit(cache=True)
def _key(X):
    """The exact table key of a position at the start of a trick, by relative ranks: per suit,
    the owners of the cards left from the highest down (cards gone close up), the leader, the
    trump and, where cards carry points, which of the high cards are left (so the points of
    every card left are known). Returns three words."""
    p = X[SP]
    width = 2 if p <= 4 else 3
    a = 0
    b = 0
    c = X[SLEADER] | (X[STRUMP] << 3)
    for suit in range(4):
        rem = 0
        for q in range(p):
            rem |= X[OH + 4 * (q) + suit]
        if X[SSCOTCH]:
            hp = 0
            for bit in range(8, 14):
                hp |= X[OPTS + 16 * (suit) + bit] != 0
            if hp:
                c |= (rem >> 8) << (5 + 6 * suit)
        c |= popcount(rem) << (32 + 4 * suit)
        code = 0
        for q in range(1, p):  # seat 0 is code 0
            x = X[OH + 4 * (q) + suit]
            while x:
                bit = lowest(x)
                x &= x - 1
                code |= q << (width * popcount(rem >> (bit + 1)))
        # a suit's codes take at most 13 * 2 (Whist) or 9 * 3 (Scotch) bits: two suits a word
        if suit < 2:
            a |= code << (30 * suit)
        else:
            b |= code << (30 * (suit - 2))
    return a, b, c


@njit(cache=True, inline="always")
def _slot(a, b, c, size):
    h = (a * -7046029254386353131) ^ (b * -4658895280553007687) ^ (c * 3266489917)
    h ^= h >> 29
    return h & (size - 1)


@njit(cache=True)
def _toprun(X, p, seat, suit):
    """How many of the highest cards left in ``suit`` ``seat`` holds, unbroken."""
    mine = X[OH + 4 * (seat) + suit]
    if mine == 0:
        return 0
    others = 0
    for q in range(p):
        if q != seat:
            others |= X[OH + 4 * (q) + suit]
    if others == 0:
        return popcount(mine)
    top_other = highest(others)
    return popcount(mine >> (top_other + 1))


@njit(cache=True)
def _cashable(X, leader):
    """Tricks ``leader``, on lead, is sure to take by cashing its top cards: its top trumps;
    every top run when they draw the opponents' trumps; else the top runs of plain suits
    that every opponent still holding trumps must follow."""
    p = X[SP]
    trump = X[STRUMP]
    tq = _toprun(X, p, leader, trump)
    most = 0
    for q in range(p):
        if X[OTEAM + q] != X[OTEAM + leader]:
            most = max(most, popcount(X[OH + 4 * (q) + trump]))
    all_runs = 0
    cash = 0
    for suit in range(4):
        if suit == trump:
            continue
        run = _toprun(X, p, leader, suit)
        all_runs += run
        k = run
        for q in range(p):
            if X[OTEAM + q] != X[OTEAM + leader] and X[OH + 4 * (q) + trump] != 0:
                k = min(k, popcount(X[OH + 4 * (q) + suit]))
        cash += k
    if tq >= most:
        return tq + all_runs
    return tq + cash


@njit(cache=True)
def _quick_tricks(X):
    """Tricks the side on lead is sure to take: the leader's cashable tricks, or (four
    players) partner's, when the leader can reach partner's top card in a suit no opponent
    can ruff."""
    p = X[SP]
    leader = X[SLEADER]
    qt = _cashable(X, leader)
    if p != 4:
        return qt
    partner = (leader + 2) % 4
    trump = X[STRUMP]
    for suit in range(4):
        if X[OH + 4 * leader + suit] == 0 or _toprun(X, p, partner, suit) == 0:
            continue
        safe = True
        if suit != trump:
            for q in range(p):
                if q != leader and q != partner and X[OH + 4 * q + suit] == 0 and X[OH + 4 * q + trump] != 0:
                    safe = False
        if safe:
            return max(qt, _cashable(X, partner))
    return qt


@njit(cache=True)
def _trump_control(X):
    """Tricks each side is sure of by its trumps: a player's trumps above every trump of the
    other side each win the trick they fall in, one trick each."""
    p = X[SP]
    trump = X[STRUMP]
    top0 = -1
    top1 = -1
    for q in range(p):
        m = X[OH + 4 * q + trump]
        if m:
            if X[OTEAM + q] == 0:
                top0 = max(top0, highest(m))
            else:
                top1 = max(top1, highest(m))
    c0 = 0
    c1 = 0
    for q in range(p):
        m = X[OH + 4 * q + trump]
        if X[OTEAM + q] == 0:
            c0 = max(c0, popcount(m >> (top1 + 1)))
        else:
            c1 = max(c1, popcount(m >> (top0 + 1)))
    return c0, c1


@njit(cache=True)
def _rel_move(X, p, m):
    """A move as (suit, how many cards left in the suit are above it): valid in every
    position of the same relative ranks."""
    if m < 0:
        return -1
    suit = m >> 4
    bit = m & 15
    rem = 0
    for q in range(p):
        rem |= X[OH + 4 * (q) + suit]
    return (suit << 4) | popcount(rem >> (bit + 1))


@njit(cache=True)
def _abs_move(X, p, rm):
    if rm < 0:
        return -1
    suit = rm >> 4
    k = rm & 15
    x = 0
    for q in range(p):
        x |= X[OH + 4 * (q) + suit]
    for _ in range(k):
        x ^= 1 << highest(x)
    return (suit << 4) | highest(x) if x else -1


@njit(cache=True)
def _sure(X, seat, suit, bit, n):
    """Does ``seat``'s card (``suit``, power bit) beat whatever the opponents still to play to
    this trick can play (led suit ``X[SLED]``, or ``suit`` when it leads)?"""
    p = X[SP]
    trump = X[STRUMP]
    led = suit if n == 0 else X[SLED]
    for i in range(n + 1, p):
        q = (X[SLEADER] + i) % p
        if X[OTEAM + q] == X[OTEAM + seat]:
            continue
        if X[OH + 4 * (q) + led] != 0:
            if suit == led and highest(X[OH + 4 * (q) + led]) > bit:
                return False
        elif led != trump and X[OH + 4 * (q) + trump] != 0:
            if suit != trump or highest(X[OH + 4 * (q) + trump]) > bit:
                return False
    return True


@njit(cache=True)
def _gen(X, seat, mv, d, tt_move):
    """The moves of ``seat``, one per class of equivalent cards, best first, into ``mv[d]``;
    each is ``score << 8 | suit << 4 | power bit``. Returns how many."""
    p = X[SP]
    n = X[SLEN]
    led = X[SLED]
    trump = X[STRUMP]
    cnt = 0
    lo_suit, hi_suit = 0, 4
    if n > 0 and X[OH + 4 * (seat) + led] != 0:
        lo_suit, hi_suit = led, led + 1
    partner_wins = False
    partner_sure = False
    if n > 0 and X[OTEAM + X[SBSEAT]] == X[OTEAM + seat]:
        partner_wins = True
        bs = X[SBSEAT]
        bp = X[SBPOW]
        partner_sure = _sure(X, bs, trump if bp >= 64 else led, bp & 63, n)
    partner = (seat + p // 2) % p if p == 4 else -1
    for suit in range(lo_suit, hi_suit):
        m = X[OH + 4 * (seat) + suit]
        if m == 0:
            continue
        o = X[OTM + suit]
        opp = 0
        opp_ruff = False
        for q in range(p):
            if q != seat:
                o |= X[OH + 4 * (q) + suit]
                if X[OTEAM + q] != X[OTEAM + seat]:
                    opp |= X[OH + 4 * (q) + suit]
                    if X[OH + 4 * (q) + suit] == 0 and X[OH + 4 * (q) + trump] != 0 and suit != trump:
                        opp_ruff = True
        rep = -1
        x = m
        while True:
            b = highest(x) if x else -1
            if b >= 0 and rep >= 0:
                between = ((1 << rep) - 1) & ~((1 << (b + 1)) - 1)
                if X[OPTS + 16 * (suit) + b] == 0 and X[OPTS + 16 * (suit) + rep] == 0 and (o & between) == 0:
                    rep = b  # same class: the lowest stands for it
                    x &= ~(1 << b)
                    continue
            if rep >= 0:
                pc = X[OPTS + 16 * (suit) + rep]
                if n == 0:
                    top = (o >> (rep + 1)) == 0
                    if opp_ruff:
                        sc = 0 - rep
                    elif top:
                        sc = 60 + 2 * pc - (8 if suit == trump else 0)
                    elif (
                        partner >= 0
                        and X[OH + 4 * (partner) + suit] != 0
                        and (opp >> (highest(X[OH + 4 * (partner) + suit]) + 1)) == 0
                    ):
                        sc = 65 - rep  # to partner's winner
                    elif (
                        partner >= 0
                        and suit != trump
                        and X[OH + 4 * (partner) + suit] == 0
                        and X[OH + 4 * (partner) + trump] != 0
                    ):
                        sc = 62 - rep  # for partner to ruff
                    else:
                        sc = 20 - 3 * popcount(m) - rep - 4 * pc
                else:
                    if suit == trump:
                        pw = 64 + rep
                    elif suit == led:
                        pw = rep
                    else:
                        pw = -1
                    if partner_wins and (partner_sure or pw <= X[SBPOW]):
                        # partner takes it: our cheapest card, or points for partner (Scotch)
                        sc = 60 - rep + 4 * pc - (20 if suit == trump and led != trump else 0)
                    elif pw > X[SBPOW]:
                        if _sure(X, seat, suit, rep, n):
                            sc = 90 - rep + 2 * pc
                        else:
                            sc = (55 if n == p - 2 else 40) + rep - 4 * pc
                    else:
                        sc = 50 - rep - 4 * pc - (20 if suit == trump else 0)
                mvc = (suit << 4) | rep
                if mvc == tt_move:
                    sc += 1000
                mv[d, cnt] = ((sc + 2000) << 8) | mvc
                cnt += 1
            if b < 0:
                break
            rep = b
            x &= ~(1 << b)
    # insertion sort, best first
    for i in range(1, cnt):
        key = mv[d, i]
        j = i - 1
        while j >= 0 and mv[d, j] < key:
            mv[d, j + 1] = mv[d, j]
            j -= 1
        mv[d, j + 1] = key
    return cnt


@njit(cache=True)
def _ab(X, tt, mv, alpha, beta):
    """Fail-soft alpha-beta: the value of the rest of the deal for side 0."""
    p = X[SP]
    n = X[SLEN]
    X[SNODES] += 1
    idx = -1
    ka = kb = kc = 0
    tt_move = -1
    lo = -INF
    hi = INF
    if n == 0:
        left = X[SLEFT]
        if left == 0:
            return 0
        tricks = left // p
        hi = tricks * X[SW0] + X[SRPTS]
        lo = tricks * X[SW1] - X[SRPTS]
        if tricks == 1:
            # one card each: the play is forced
            return _last_trick(X)
        qt = _quick_tricks(X)
        c0, c1 = _trump_control(X)
        if X[OTEAM + X[SLEADER]] == 0:
            c0 = max(c0, qt)
        else:
            c1 = max(c1, qt)
        if c0 > 0:
            lo = max(lo, c0 * X[SW0] + (tricks - c0) * X[SW1] - X[SRPTS])
        if c1 > 0:
            hi = min(hi, (tricks - c1) * X[SW0] + c1 * X[SW1] + X[SRPTS])
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        ka, kb, kc = _key(X)
        idx = _slot(ka, kb, kc, tt.shape[0])
        if not (tt[idx, T_A] == ka and tt[idx, T_B] == kb and tt[idx, T_C] == kc):
            idx ^= 1  # two entries a bucket
        if tt[idx, T_A] == ka and tt[idx, T_B] == kb and tt[idx, T_C] == kc:
            lo = max(lo, tt[idx, T_LO])
            hi = min(hi, tt[idx, T_HI])
            tt_move = _abs_move(X, X[SP], tt[idx, T_MOVE])
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
    seat = (X[SLEADER] + n) % p
    d = X[SDEPTH]
    cnt = _gen(X, seat, mv, d, tt_move)
    maxing = X[OTEAM + seat] == 0
    best = -INF if maxing else INF
    best_move = -1
    a, b_ = alpha, beta
    trump = X[STRUMP]
    X[SDEPTH] = d + 1
    for k in range(cnt):
        m = mv[d, k] & 255
        suit = m >> 4
        bit = m & 15
        bb = 1 << bit
        pc = X[OPTS + 16 * (suit) + bit]
        s_led, s_bseat, s_bpow, s_tpts = X[SLED], X[SBSEAT], X[SBPOW], X[STPTS]
        X[OH + 4 * (seat) + suit] ^= bb
        X[SLEFT] -= 1
        X[SRPTS] -= pc
        X[OTM + suit] |= bb
        if n == 0:
            X[SLED] = suit
            X[SBSEAT] = seat
            X[SBPOW] = 64 + bit if suit == trump else bit
            X[STPTS] = pc
        else:
            pw = 64 + bit if suit == trump else (bit if suit == s_led else -1)
            if pw > s_bpow:
                X[SBSEAT] = seat
                X[SBPOW] = pw
            X[STPTS] = s_tpts + pc
        if n + 1 == p:
            winner = X[SBSEAT]
            gain = X[SW0] + X[STPTS] if X[OTEAM + winner] == 0 else X[SW1] - X[STPTS]
            s_leader = X[SLEADER]
            t0, t1, t2, t3 = X[OTM + 0], X[OTM + 1], X[OTM + 2], X[OTM + 3]
            X[OTM + 0] = X[OTM + 1] = X[OTM + 2] = X[OTM + 3] = 0
            X[SLEADER] = winner
            X[SLEN] = 0
            X[SLED] = -1
            v = gain + _ab(X, tt, mv, a - gain, b_ - gain)
            X[SLEN] = n
            X[SLEADER] = s_leader
            X[OTM + 0], X[OTM + 1], X[OTM + 2], X[OTM + 3] = t0, t1, t2, t3
        else:
            X[SLEN] = n + 1
            v = _ab(X, tt, mv, a, b_)
            X[SLEN] = n
        X[OTM + suit] ^= bb
        X[SLED], X[SBSEAT], X[SBPOW], X[STPTS] = s_led, s_bseat, s_bpow, s_tpts
        X[SRPTS] += pc
        X[SLEFT] += 1
        X[OH + 4 * (seat) + suit] ^= bb
        if maxing:
            if v > best:
                best = v
                best_move = m
            if best > a:
                a = best
        else:
            if v < best:
                best = v
                best_move = m
            if best < b_:
                b_ = best
        if a >= b_:
            break
    X[SDEPTH] = d
    if idx >= 0:
        if best <= alpha:
            hi = best
        elif best >= beta:
            lo = best
        else:
            lo = hi = best
        if tt[idx, T_A] == ka and tt[idx, T_B] == kb and tt[idx, T_C] == kc:
            lo = max(lo, tt[idx, T_LO])
            hi = min(hi, tt[idx, T_HI])
        else:
            # a new entry replaces the one of the bucket over the smaller search (fewer cards left)
            other = idx ^ 1
            if tt[other, T_C] == 0 or (tt[idx, T_C] != 0 and tt[other, T_LEFT] < tt[idx, T_LEFT]):
                idx = other
        tt[idx, T_LEFT] = X[SLEFT]
        tt[idx, T_A] = ka
        tt[idx, T_B] = kb
        tt[idx, T_C] = kc
        tt[idx, T_LO] = lo
        tt[idx, T_HI] = hi
        tt[idx, T_MOVE] = _rel_move(X, X[SP], best_move)
    return best


@njit(cache=True)
def _last_trick(X):
    """The value of a last trick, every card forced."""
    p = X[SP]
    trump = X[STRUMP]
    leader = X[SLEADER]
    led = -1
    bseat = -1
    bpow = -1
    tp = 0
    for i in range(p):
        q = (leader + i) % p
        for suit in range(4):
            m = X[OH + 4 * (q) + suit]
            if m:
                bit = lowest(m)
                tp += X[OPTS + 16 * (suit) + bit]
                if i == 0:
                    led = suit
                pw = 64 + bit if suit == trump else (bit if suit == led else -1)
                if pw > bpow:
                    bpow = pw
                    bseat = q
    return X[SW0] + tp if X[OTEAM + bseat] == 0 else X[SW1] - tp


@njit(cache=True)
def mtdf(X, tt, mv, guess):
    """The exact value for side 0 of the rest of the deal, by null-window searches from ``guess``."""
    g = guess
    lo = -INF
    hi = INF
    X[SDEPTH] = 0
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = _ab(X, tt, mv, beta - 1, beta)
        if g < beta:
            hi = g
        else:
            lo = g
    return g


@njit(cache=True)
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


@njit(cache=True)
def play(X, seat, suit, bit):
    """Play one card for good (no undo); returns what a finished trick adds to the value."""
    p = X[SP]
    n = X[SLEN]
    trump = X[STRUMP]
    bb = 1 << bit
    pc = X[OPTS + 16 * (suit) + bit]
    X[OH + 4 * (seat) + suit] ^= bb
    X[SLEFT] -= 1
    X[SRPTS] -= pc
    X[OTM + suit] |= bb
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
    gain = X[SW0] + X[STPTS] if X[OTEAM + winner] == 0 else X[SW1] - X[STPTS]
    for suit in range(4):
        X[OTM + suit] = 0
    X[SLEADER] = winner
    X[SLEN] = 0
    X[SLED] = -1
    return gain


@njit(cache=True)
def move_values(X, tt, mv, out, guess=0):
    """The value for side 0 of the rest of the deal after each legal card of the seat to
    play: ``out[suit * 16 + power bit]`` (INF where the card is not legal). ``guess``, a
    likely value, starts the first search. Returns the seat to play."""
    for i in range(out.shape[0]):
        out[i] = INF
    seat = seat_to_play(X)
    legal = legal_bits(X, seat)
    X2 = X.copy()
    for suit in range(4):
        m = legal[suit]
        while m:
            bit = lowest(m)
            m &= m - 1
            for i in range(X.shape[0]):
                X2[i] = X[i]
            gain = play(X2, seat, suit, bit)
            v = gain + mtdf(X2, tt, mv, guess - gain)
            guess = v
            out[suit * 16 + bit] = v
    return seat
