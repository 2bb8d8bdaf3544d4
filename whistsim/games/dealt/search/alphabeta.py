"""The search: fail-soft alpha-beta with partition search over the position (:mod:`.encoding`),
the table (:mod:`.memo`) and the bounds (:mod:`.bounds`); MTD(f) at the root."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....core.bits import lowest
from .bounds import _bound_cut, _won_trick_cut
from .encoding import (
    INF,
    KILLER,
    MAX_DEPTH,
    MOVE_SLOTS,
    N_X,
    NOCUT,
    OH,
    OPM,
    OPTS,
    OREL,
    OREM,
    OSCR,
    OTEAM,
    OTM,
    PROBED,
    SBPOW,
    SBSEAT,
    SDEPTH,
    SLEADER,
    SLED,
    SLEFT,
    SLEN,
    SNODES,
    SP,
    SRPTS,
    STPTS,
    STRICKS,
    STRUMP,
    SW0,
    SW1,
    _side,
    _step,
    _tricks,
    legal_bits,
    play,
    seat_to_play,
)
from .intrinsics import _bare, _ptr, _u, _view
from .memo import BUCKET, GENERATIONS, TT_COLS, _arrays, _probe, _store
from .moves import _first_last, _gen

BOUNDS_FIRST = 4  # tricks left at most: the sure tricks' bounds before the table


@_bare
def _ab(xp, tp, mp, ntt, alpha, beta):
    """Null-window (``beta == alpha + 1``), fail-soft alpha-beta: a bound on the value of
    the rest of the deal for side 0.

    Partition search: besides the bound, every node leaves in ``mv[d, OREL + suit]`` the
    cards (power masks) whose owners decide it. The bound holds for every position with the
    same primary key (hand lengths, leader, trump, counting cards left) in which, per suit,
    the cards from the highest down to the lowest relevant one have the same owners (by
    relative rank): the cards below are small cards that only their number in each hand
    matters for. A trick's winner is relevant when it beat a card of its own suit; a cutoff
    needs its one move's cards, a node that fails needs all its moves'. Positions at the
    start of a trick are stored with that pattern, and a stored bound serves every position
    matching it.

    ``xp``, ``tp``, ``mp``: the data of X, the table (``ntt`` entries) and the moves."""
    X, tt, mv = _arrays(xp, tp, mp, ntt)
    p = X[SP]
    n = X[SLEN]
    d = X[SDEPTH]
    X[SNODES] += 1
    for s in range(4):
        mv[d, OREL + s] = 0
    probed = False
    tt_move = -1
    if n == 0:
        left = X[SLEFT]
        if left == 0:
            return 0
        tricks = _tricks(left, p)
        if tricks == 1:
            # one card each: the play is forced
            return _last_trick(xp, mp, d)
        if tricks * X[SW1] - X[SRPTS] >= beta:
            return tricks * X[SW1] - X[SRPTS]
        if tricks * X[SW0] + X[SRPTS] <= alpha:
            return tricks * X[SW0] + X[SRPTS]
        # The sure tricks' bounds after the table (it answers more often, and cheaper), but
        # before it in the last BOUNDS_FIRST tricks, where their cuts save more nodes than
        # they cost (docs/benchmarks.md, fourteenth pass). (A loop with one call site of each
        # compiled 6 s slower.)
        first = tricks <= BOUNDS_FIRST
        if first:
            v = _bound_cut(xp, mp, d, alpha, beta, tricks)
            if v != NOCUT:
                return v
        v = _probe(xp, tp, mp, ntt, d, alpha, beta)
        if v != NOCUT:
            return v
        probed = True
        tt_move = mv[PROBED, d]
        if not first:
            v = _bound_cut(xp, mp, d, alpha, beta, tricks)
            if v != NOCUT:
                return v
    else:
        v = _won_trick_cut(X, mv, d, alpha, beta)
        if v != NOCUT:
            return v
    seat = X[SLEADER] + n
    seat = seat - p if seat >= p else seat
    # at the trick's last card the first move cuts off four times in five: the rest are
    # ordered only when it does not
    cnt = _first_last(xp, seat, mp, d) if n + 1 == p else 0
    lazy = cnt == 2
    if cnt == 0:
        cnt = _gen(xp, seat, mp, d, tt_move)
    maxing = _side(X, seat) == 0
    best = -INF if maxing else INF
    best_move = -1
    trump = X[STRUMP]
    X[SDEPTH] = d + 1
    # The node's relevant cards gather in its own row, mv[d, OREL + suit] (the bounds may have
    # left some there), the child's in row d + 1: in memory, not in 4 + 4 locals chosen by
    # chains of selects and live across the call.
    mv[d, OREL], mv[d, OREL + 1], mv[d, OREL + 2], mv[d, OREL + 3] = 0, 0, 0, 0
    # Per suit, the cards below this power are small cards like one already searched: below
    # every card that decided its bound (and every card that carries points), so any of them
    # gives the same (DDS's rule). One byte a suit, the power plus one (0: none yet).
    wpk = 0
    # the trick's state, the same before each move (each is taken back): read once; the trick's
    # cards, which its last card clears, kept in the row's scratch (the bounds' words, free now)
    s_led, s_bseat, s_bpow, s_tpts, s_leader = X[SLED], X[SBSEAT], X[SBPOW], X[STPTS], X[SLEADER]
    last = n + 1 == p
    if last:
        mv[d, OSCR], mv[d, OSCR + 1] = X[_u(OTM + 0)], X[_u(OTM + 1)]
        mv[d, OSCR + 2], mv[d, OSCR + 3] = X[_u(OTM + 2)], X[_u(OTM + 3)]
    k = 0
    while k < cnt:
        m = mv[d, k] & 255
        low = (mv[d, k] >> 8) & 15  # the lowest card of the move's class
        k += 1
        suit = m >> 4
        bit = m & 15
        wb = (wpk >> (suit << 3)) & 255
        if bit + 1 < wb:
            continue
        bb = 1 << bit
        pc = X[_u(OPTS + 16 * suit + bit)]
        gain = _step(X, seat, suit, bit, p, n, trump)
        wsuit = -1
        wbit = 0
        if last:
            # the trick's winner is relevant when it beat a card of its own suit
            wsuit = trump if X[SBPOW] >= 64 else s_led
            wbit = X[SBPOW] & 63
            tw = mv[d, _u(OSCR + wsuit)]
            if ((tw | (bb if suit == wsuit else 0)) & ~(1 << wbit)) == 0:
                wsuit = -1  # it beat no card of its suit: its rank did not matter
            X[STRICKS] += 1
        # one call site for both (gain is 0 inside a trick): a call's result slot and its
        # exception slot are zeroed on every entry of this frame, one pair a call site
        v = gain + _ab(xp, tp, mp, ntt, alpha - gain, beta - gain)
        if last:
            X[SLEADER] = s_leader
            X[_u(OTM + 0)], X[_u(OTM + 1)] = mv[d, OSCR], mv[d, OSCR + 1]
            X[_u(OTM + 2)], X[_u(OTM + 3)] = mv[d, OSCR + 2], mv[d, OSCR + 3]
        else:
            X[_u(OTM + suit)] ^= bb
        X[SLEN] = n
        # the card taken back
        X[SLED], X[SBSEAT], X[SBPOW], X[STPTS] = s_led, s_bseat, s_bpow, s_tpts
        X[SRPTS] += pc
        X[SLEFT] += 1
        X[_u(OH + 4 * (seat) + suit)] ^= bb
        X[_u(OREM + suit)] ^= bb
        if wsuit >= 0:
            mv[d + 1, _u(OREL + wsuit)] |= 1 << wbit
        if low != bit:
            # Where the cards that decide the move reach its class, the whole class must be
            # kept: else a position whose small card stands in for the lower ones would not
            # behave like this one.
            cs = mv[d + 1, _u(OREL + suit)]
            if cs & ((2 << bit) - 1):
                mv[d + 1, _u(OREL + suit)] = cs | (1 << low)
        if (maxing and v > best) or (not maxing and v < best):
            best = v
            best_move = m
        if (maxing and v >= beta) or (not maxing and v <= alpha):
            # a cutoff: this move alone proves the bound
            mv[d, OREL], mv[d, OREL + 1] = mv[d + 1, OREL], mv[d + 1, OREL + 1]
            mv[d, OREL + 2], mv[d, OREL + 3] = mv[d + 1, OREL + 2], mv[d + 1, OREL + 3]
            mv[KILLER, d] = m
            break
        if lazy:
            lazy = False
            cnt = _gen(xp, seat, mp, d, tt_move)  # its first move is the one just searched
        mv[d, OREL] |= mv[d + 1, OREL]
        mv[d, OREL + 1] |= mv[d + 1, OREL + 1]
        mv[d, OREL + 2] |= mv[d + 1, OREL + 2]
        mv[d, OREL + 3] |= mv[d + 1, OREL + 3]
        if wb == 0:
            rx = mv[d, _u(OREL + suit)] | X[_u(OPM + suit)]
            if (rx & ((2 << bit) - 1)) == 0:
                wpk |= ((lowest(rx) + 1) if rx else 17) << (suit << 3)
    X[SDEPTH] = d
    if probed:
        _store(xp, tp, mp, ntt, d, best, alpha, beta, best_move)
    return best


@_bare
def _last_trick(xp, mp, d):
    """The value of a last trick, every card forced; its winner is relevant when it beat a
    card of its own suit. X and the moves by their data pointers (an array is passed field by
    field: seven or nine words a call)."""
    X, mv = _view(xp, 1, N_X)[0], _view(mp, MAX_DEPTH, MOVE_SLOTS)
    p = X[SP]
    trump = X[STRUMP]
    leader = X[SLEADER]
    led = -1
    bseat = -1
    bpow = -1
    tp = 0
    for i in range(p):
        q = leader + i
        q = q - p if q >= p else q
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
    wsuit = trump if bpow >= 64 else led
    same = 0
    for q in range(p):
        same += X[OH + 4 * q + wsuit] != 0
    if same > 1:
        mv[d, OREL + wsuit] = 1 << (bpow & 63)
    return X[SW0] + tp if X[OTEAM + bseat] == 0 else X[SW1] - tp


@njit(cache=True, nogil=True)
def playout(X, mv):
    """A quick guess at the value for side 0 of the rest of the deal, to start :func:`mtdf`
    from: the position played out by every seat's first card in the search's move order (no
    search), plus one. MTD(f) needs two null-window searches when its guess is the value ``v``
    or ``v + 1`` (a search that fails low at ``v + 1`` returns ``v`` itself), a third, as dear,
    for each step further. On 160 random Whist deals this guess was ``v`` or ``v + 1`` in 64%
    (the play-out errs low more often than high), half the tricks left (the guess before) in
    26%. Uses ``mv``'s first row; leaves ``X`` as it was."""
    X2 = X.copy()
    v = 1
    while X2[SLEFT] > 0:
        seat = seat_to_play(X2)
        _gen(_ptr(X2), seat, _ptr(mv), np.int64(0), np.int64(-1))  # typed: a literal compiles _gen again
        m = mv[0, 0] & 255
        v += play(X2, seat, m >> 4, m & 15)
    return v


@njit(cache=True, _nrt=False, nogil=True)  # threads may solve several deals at once (solver.luck)
def mtdf(X, tt, mv, guess):
    """The exact value for side 0 of the rest of the deal, by null-window searches from ``guess``."""
    ntt = tt.shape[0] - 1  # the last row: the table's generations (memo.new_table)
    if X.shape[0] != N_X or tt.shape[1] != TT_COLS or mv.shape[0] != MAX_DEPTH or mv.shape[1] != MOVE_SLOTS:
        raise ValueError("mtdf: X, the table or the moves is not of the search's shape")
    # a generation past 16 bits would run into the key's bits (memo._stored)
    if ntt <= 0 or ntt % BUCKET or not 0 <= tt[ntt, 0] < GENERATIONS - 1:
        raise ValueError(
            "mtdf: the table is not of new_table's shape, or its generations' count is out of range"
        )
    g = guess
    lo = -INF
    hi = INF
    X[SDEPTH] = 0
    while lo < hi:
        beta = g + 1 if g == lo else g
        # each search starts without the last one's killers (DDS resets its own): their cutoffs
        # proved the other side's bound; over 100 deals 0.8% fewer nodes
        for i in range(MAX_DEPTH):
            mv[KILLER, i] = -1
        g = _ab(_ptr(X), _ptr(tt), _ptr(mv), ntt, beta - 1, beta)
        if g < beta:
            hi = g
        else:
            lo = g
    return g


@njit(cache=True, nogil=True)
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
