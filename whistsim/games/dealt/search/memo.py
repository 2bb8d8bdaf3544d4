"""The transposition table: positions at the start of a trick stored under their primary key
(hand lengths, leader, trump, counting cards left) with, per suit, the owners of the cards
that decided their bound (partition search, see :mod:`.alphabeta`), in buckets held column by
column so that a probe compares 8 entries at once."""

from __future__ import annotations

import numpy as np
from numba import njit

from ....core.bits import FAST_PDEP, _pdep, highest, lowest, popcount
from .encoding import (
    INF,
    MAX_DEPTH,
    MOVE_SLOTS,
    N_X,
    NOCUT,
    OCODE,
    OH,
    OPM,
    OPTS,
    OREL,
    OREM,
    PROBED,
    SLEADER,
    SLEFT,
    SNODES,
    SP,
    SSCOTCH,
    STRUMP,
)
from .intrinsics import SHIFT_AT, _bare, _beq8, _eq8, _hge8, _inline, _lle8, _pext, _seq8, _u, _view

# A table entry: the position's primary key (hand lengths, leader, trump and, in Scotch
# Whist, which high cards are left) with the table's generation in the low bits of T_A (see
# _stored), its two bounds in one word, best lead, its rank for replacement, and per suit the
# owner pattern of the cards that decided the result: the owner code's top cards, which are the
# code's high bits (its length is the primary key's), so one word holds the pattern: the code
# shifted down past the cards below them, and that shift in the top bits. 10 columns where a mask
# and a code per suit and a word per bound took 15: a probe that meets its key reads 5 cache
# lines fewer (docs/benchmarks.md, seventeenth pass). An entry of another generation than the
# table's counts as empty: emptying the table for a new deal is one increment of its generation
# (clear_table), and 0 (a zeroed entry) is none.
T_A, T_B, T_C, T_BOUNDS, T_MOVE = range(5)  # T_BOUNDS: lower << 32 | upper & 0xFFFFFFFF (see _bounds)
T_RANK = 5  # cards left << 40 | when it was stored (nodes searched): the smallest is replaced
T_P = 6  # 4 columns: per suit, shift << SHIFT_AT | owner code >> shift (see _seq8)
TT_COLS = 10
BUCKET = 64  # entries probed per primary key
GENERATIONS = 1 << 16  # T_A's low 16 bits: 1 to GENERATIONS - 1

HUGE_PAGE = 2 << 20  # bytes


def new_table(log2: int = 18) -> np.ndarray:
    """An empty transposition table of ``2**log2`` entries (``2**log2 / BUCKET`` buckets; each
    bucket's rows hold its entries column by column, see :func:`_w`), and one row more, the
    last: its first word counts the table's generations since it was last zeroed (the table's
    generation is that plus 1, so a table of zeros is an empty one).

    It starts on a 2 MB boundary: a probe's 64-byte loads then never straddle two cache lines,
    and the huge pages numpy asks Linux for (a probe reads a random bucket, so with small pages
    it misses the address cache too) start where the table does. About 5% of a full deal's
    time against numpy's own alignment (16 bytes)."""
    rows = (1 << max(log2, 6)) + 1
    raw = np.zeros(rows * TT_COLS + HUGE_PAGE // 8, np.int64)
    off = (-raw.ctypes.data % HUGE_PAGE) // 8
    return raw[off : off + rows * TT_COLS].reshape(rows, TT_COLS)


def clear_table(tt: np.ndarray) -> None:
    """Empty the table for a new deal: its next generation, whose entries are none yet (an
    entry of another counts as empty, and no other word of it is read: :func:`_probe`,
    :func:`_store`). Every ``GENERATIONS - 1``-th time the generations run out, and each entry's
    first key word is zeroed (0.1 ms for the default table, 0.6 ms for 2^20 entries, touching
    memory the search may never read) and the count starts again."""
    rows = tt.shape[0] - 1 if tt.ndim == 2 else -1
    if not tt.flags.c_contiguous or tt.shape[-1] != TT_COLS or rows <= 0 or rows % BUCKET:
        raise ValueError("not a transposition table of new_table's layout")
    if tt[rows, 0] + 2 < GENERATIONS:
        tt[rows, 0] += 1
        return
    buckets = tt[:rows].reshape(-1, TT_COLS * BUCKET)  # a view: one row per bucket, column by column
    buckets[:, T_A * BUCKET : (T_A + 1) * BUCKET] = 0
    tt[rows, 0] = 0


@_inline
def _primary(X):
    """The primary table key of a position at the start of a trick: every hand's length in
    every suit, the leader, the trump and, where cards carry points (Scotch Whist), which
    high cards are left (so the points and relative ranks of the counting cards are known).
    Returns three words."""
    p = X[SP]
    a = 0
    b = 0
    c = X[SLEADER] | (X[STRUMP] << 3)
    for q in range(p):
        for suit in range(4):
            n = popcount(X[OH + 4 * q + suit])
            if q < 4:
                a |= n << (16 * q + 4 * suit)
            else:
                b |= n << (16 * (q - 4) + 4 * suit)
    if X[SSCOTCH]:
        for suit in range(4):
            if X[OPM + suit] >> 8:  # high cards that carry points
                c |= (X[OREM + suit] >> 8) << (5 + 6 * suit)
    return a, b, c


@_inline
def _bounds(w):
    """The lower and upper bound of a T_BOUNDS word (signed, 32 bits each)."""
    return w >> 32, (w << 32) >> 32


@_inline
def _bounds_word(lo, hi):
    return (lo << 32) | (hi & 0xFFFFFFFF)


@_inline
def _stored(a, b, c, gen):
    """The primary key as stored, three words with the generation ``gen`` in the low bits of the
    first (one load then tells both an entry's generation and whether it has the key): every
    word shifted up by 16 bits, the top 16 of ``a`` (seat 3's lengths) into ``b``, of ``b``
    (seat 7's) into ``c`` above its 29 bits."""
    return (a << 16) | gen, (b << 16) | ((a >> 48) & 0xFFFF), c | (((b >> 48) & 0xFFFF) << 40)


@_inline
def _arrays(xp, tp, mp, ntt):
    """X, the table (flat, its words indexed by :func:`_w`; its generations' count at word
    ``ntt * TT_COLS``) and the moves again from their pointers (``ntt``: the table's entries)."""
    return _view(xp, 1, N_X)[0], _view(tp, 1, (ntt + 1) * TT_COLS)[0], _view(mp, MAX_DEPTH, MOVE_SLOTS)


@_inline
def _w(base, col, i):
    """The table word of column ``col`` of entry ``i`` of the bucket whose first entry is
    ``base``: a bucket holds its entries column by column, so 8 entries' column is one load."""
    return np.uint64(base * TT_COLS + col * BUCKET + i)


ODD_BITS = 0x5555555555555555
EVEN_BITS = -0x5555555555555556  # 0xAAAA...AAAA as an int64


@_inline
def _codes_loop(X, mv, d):
    """Per suit, the owners of the cards left from the lowest up (cards gone close up), 2
    bits a card (3 with more than 4 players), the lowest card in the low bits: ``mv[d, OCODE+s]``."""
    p = X[SP]
    width = 2 if p <= 4 else 3
    for suit in range(4):
        rem = X[OREM + suit]
        code = 0
        for q in range(1, p):  # seat 0 is code 0
            x = X[OH + 4 * q + suit]
            while x:
                bit = lowest(x)
                x &= x - 1
                code |= q << (width * popcount(rem & ((1 << bit) - 1)))
        mv[d, OCODE + suit] = code


@_inline
def _codes_pext(X, mv, d):
    """:func:`_codes_loop` by ``pext``/``pdep`` with four players: the cards of seats 1 and 3
    packed into the code's low bit of each card, of seats 2 and 3 into its high bit."""
    if X[SP] != 4:
        _codes_loop(X, mv, d)
        return
    for suit in range(4):
        h1 = X[OH + 4 + suit]
        h2 = X[OH + 8 + suit]
        h3 = X[OH + 12 + suit]
        rem = X[OREM + suit]
        lo = _pdep(_pext(h1 | h3, rem), ODD_BITS)
        hi = _pdep(_pext(h2 | h3, rem), EVEN_BITS)
        mv[d, OCODE + suit] = lo | hi


_codes = _codes_pext if FAST_PDEP else _codes_loop


@njit(cache=True, inline="always")
def _slot(a, b, c, size):
    h = (a * -7046029254386353131) ^ (b * -4658895280553007687) ^ (c * 3266489917)
    h ^= h >> 29
    return h & (size - 1)


@_inline
def _rel_move(X, m):
    """A move as (suit, how many cards left in the suit are above it): valid in every
    position of the same relative ranks."""
    if m < 0:
        return -1
    suit = m >> 4
    bit = m & 15
    return (suit << 4) | popcount(X[_u(OREM + suit)] >> (bit + 1))


@_inline
def _abs_move(X, rm):
    if rm < 0:
        return -1
    suit = rm >> 4
    k = rm & 15
    x = X[_u(OREM + suit)]
    for _ in range(k):
        x ^= 1 << highest(x)
    return (suit << 4) | highest(x) if x else -1


@_inline
def _to_front(tt, base, i):
    """Swap entry ``i`` of the bucket at ``base`` with its first. Every entry stored or
    tightened, and every entry that answers a probe, goes to the front: a probe meets it sooner
    the next time, and meets it first of its key, so a search that misses tries its lead."""
    if i > 0:
        for col in range(TT_COLS):
            e = _w(base, col, i)
            f = _w(base, col, 0)
            tt[e], tt[f] = tt[f], tt[e]


@_bare
def _probe(xp, tp, mp, ntt, d, alpha, beta):
    """The table's answer at the start of a trick: a cutoff's bound or ``NOCUT``; on ``NOCUT``
    it leaves in ``mv[PROBED:PROBED + 5, d]`` the best lead stored (-1: none), the bucket and the
    primary key as stored (:func:`_stored`), for the search and :func:`_store` (a returned tuple
    took a result slot in the caller's frame, zeroed on every call). Apart from
    :func:`.alphabeta._ab`, whose frame every recursive call pays for.

    The bucket is read 8 entries at a time, each test a bit mask over them: the first entry of
    the same key whose pattern matches and whose bound cuts answers; else the first of the same
    key and pattern gives its lead, else the first of the same key."""
    X, tt, mv = _arrays(xp, tp, mp, ntt)
    ka, kb, kc = _primary(X)
    _codes(X, mv, d)
    base = _slot(ka, kb, kc, ntt // BUCKET) * BUCKET
    gen = tt[_u(ntt * TT_COLS)] + 1
    ka, kb, kc = _stored(ka, kb, kc, gen)
    c0, c1, c2, c3 = mv[d, OCODE], mv[d, OCODE + 1], mv[d, OCODE + 2], mv[d, OCODE + 3]
    any_i = -1
    move_i = -1
    for ch in range(0, BUCKET, 8):
        filled = _beq8(tp, _w(base, T_A, ch), gen, GENERATIONS - 1)
        key = _eq8(tp, _w(base, T_A, ch), ka, 0)
        if key:
            key &= _eq8(tp, _w(base, T_B, ch), kb, 0) & _eq8(tp, _w(base, T_C, ch), kc, 0)
        if key:
            if any_i < 0:
                any_i = ch + lowest(key)  # the same lengths: its best lead is a fair guess
            pat = (
                key
                & _seq8(tp, _w(base, T_P, ch), c0, 0)
                & _seq8(tp, _w(base, T_P + 1, ch), c1, 0)
                & _seq8(tp, _w(base, T_P + 2, ch), c2, 0)
                & _seq8(tp, _w(base, T_P + 3, ch), c3, 0)
            )
            if pat:
                cut = pat & (
                    _hge8(tp, _w(base, T_BOUNDS, ch), beta, 0) | _lle8(tp, _w(base, T_BOUNDS, ch), alpha, 0)
                )
                if cut:
                    i = ch + lowest(cut)
                    _rel_of_entry(X, mv, d, tt, base, i)
                    lo, hi = _bounds(tt[_w(base, T_BOUNDS, i)])
                    v = lo if lo >= beta else hi
                    _to_front(tt, base, i)
                    return v
                if move_i < 0:
                    move_i = ch + lowest(pat)
        if filled != 255:
            break  # a bucket fills from its start and entries are only replaced
    tt_move = -1
    if move_i >= 0:
        tt_move = _abs_move(X, tt[_w(base, T_MOVE, move_i)])
    elif any_i >= 0:
        tt_move = _abs_move(X, tt[_w(base, T_MOVE, any_i)])
    mv[PROBED, d], mv[PROBED + 1, d], mv[PROBED + 2, d] = tt_move, base, ka
    mv[PROBED + 3, d], mv[PROBED + 4, d] = kb, kc
    return NOCUT


@_inline
def _rel_of_entry(X, mv, d, tt, base, i):
    """The relevant cards of a stored entry in this position: per suit, the top cards its
    pattern covers (the lowest of them marks them all)."""
    p = X[SP]
    width = 2 if p <= 4 else 3
    for s in range(4):
        rem = X[_u(OREM + s)]
        k = popcount(rem) - (tt[_w(base, T_P + s, i)] >> SHIFT_AT) // width
        if k == 0:
            continue
        for _ in range(k - 1):
            rem ^= 1 << highest(rem)
        mv[d, OREL + s] = 1 << highest(rem)


@_bare
def _store(xp, tp, mp, ntt, d, best, alpha, beta, best_move):
    """Store a node's bound under its pattern: per suit, the owners of the cards from the top
    down to its lowest relevant card (in Scotch Whist every counting card is relevant). The
    bucket and the key: :func:`_probe`'s, in ``mv[PROBED + 1:PROBED + 5, d]``."""
    X, tt, mv = _arrays(xp, tp, mp, ntt)
    base, ka, kb, kc = mv[PROBED + 1, d], mv[PROBED + 2, d], mv[PROBED + 3, d], mv[PROBED + 4, d]
    p = X[SP]
    width = 2 if p <= 4 else 3
    lo = -INF
    hi = INF
    if best <= alpha:
        hi = best
    if best >= beta:
        lo = best
    m0 = m1 = m2 = m3 = 0
    for s in range(4):
        rem = X[_u(OREM + s)]
        r = mv[d, OREL + s]
        if X[SSCOTCH]:
            x = rem
            while x:
                b = lowest(x)
                x &= x - 1
                if X[OPTS + 16 * s + b] != 0:
                    r |= 1 << b
        r &= rem
        k = popcount(rem >> lowest(r)) if r else 0  # the top k cards, at the code's high end
        shift = width * (popcount(rem) - k)
        pat = (shift << SHIFT_AT) | (mv[d, OCODE + s] >> shift)
        if s == 0:
            m0 = pat
        elif s == 1:
            m1 = pat
        elif s == 2:
            m2 = pat
        else:
            m3 = pat
    left = X[SLEFT]
    victim = -1
    lowest_rank = 1 << 62  # of the entries seen, cards left << 40 | age (nodes, far below 2^40)
    gen = ka & (GENERATIONS - 1)
    for ch in range(0, BUCKET, 8):
        filled = _beq8(tp, _w(base, T_A, ch), gen, GENERATIONS - 1)
        same = _eq8(tp, _w(base, T_A, ch), ka, 0)
        if same:
            same &= (
                _eq8(tp, _w(base, T_B, ch), kb, 0)
                & _eq8(tp, _w(base, T_C, ch), kc, 0)
                & _eq8(tp, _w(base, T_P, ch), m0, 0)
                & _eq8(tp, _w(base, T_P + 1, ch), m1, 0)
                & _eq8(tp, _w(base, T_P + 2, ch), m2, 0)
                & _eq8(tp, _w(base, T_P + 3, ch), m3, 0)
            )
        if same:
            # the same pattern: tighten its bounds
            i = ch + lowest(same)
            olo, ohi = _bounds(tt[_w(base, T_BOUNDS, i)])
            tt[_w(base, T_BOUNDS, i)] = _bounds_word(max(olo, lo), min(ohi, hi))
            if best_move >= 0:
                tt[_w(base, T_MOVE, i)] = _rel_move(X, best_move)
            _to_front(tt, base, i)
            return
        if filled != 255:
            victim = ch + lowest(~filled)  # the first empty entry: none is filled after it
            break
        for i in range(ch, ch + 8):
            rank = tt[_w(base, T_RANK, i)]
            if rank < lowest_rank:
                victim, lowest_rank = i, rank  # else the oldest entry over the smallest search
    # the new entry goes to the front (see _to_front): the front entry moves to the victim's place
    _to_front(tt, base, victim)
    tt[_w(base, T_A, 0)] = ka
    tt[_w(base, T_B, 0)] = kb
    tt[_w(base, T_C, 0)] = kc
    tt[_w(base, T_BOUNDS, 0)] = _bounds_word(lo, hi)
    tt[_w(base, T_MOVE, 0)] = _rel_move(X, best_move)
    tt[_w(base, T_RANK, 0)] = (left << 40) | X[SNODES]
    tt[_w(base, T_P, 0)], tt[_w(base, T_P + 1, 0)] = m0, m1
    tt[_w(base, T_P + 2, 0)], tt[_w(base, T_P + 3, 0)] = m2, m3
