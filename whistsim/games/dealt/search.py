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
the cards gone in finished tricks, are one move (the highest stands for them);
in Scotch Whist a counting card is a move of its own. The root is searched by
MTD(f): null-window searches that close in on the value. Positions at the start
of a trick go into a transposition table by partition search (see :func:`_ab`):
a bound is stored with the owners of the cards that decided it, and serves
every position with the same hand lengths whose such cards have the same owners.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

from ...bits import FAST_PDEP, _pdep, highest, lowest, popcount
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

# The search's own functions run without Numba's reference counting: they allocate nothing,
# and counting the references of every array passed to a helper (atomic operations) took a
# quarter of the time.
_bare = njit(cache=True, _nrt=False)
_inline = njit(cache=True, _nrt=False, inline="always")  # small helpers: a call costs more

INF = 1 << 20
NOCUT = 1 << 30  # no cutoff from a bound
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
OPM = OPTS + 4 * 16  # per suit, the power bits of the cards that carry points
OREM = OPM + 4  # per suit, the cards left in the hands (kept as cards are played)
N_X = OREM + 4

# A table entry: the position's primary key (hand lengths, leader, trump and, in Scotch
# Whist, which high cards are left), its bounds, best lead, its rank for replacement, and per
# suit the owner pattern of the cards that decided the result (mask over the owner code, and
# code). T_A is never 0 in an entry (every hand holds cards at a trick start stored), so 0
# marks an empty one.
T_A, T_B, T_C, T_LO, T_HI, T_MOVE = range(6)
T_RANK = 6  # cards left << 40 | when it was stored (nodes searched): the smallest is replaced
T_M = 7  # 4 columns: per suit, the mask of the owner code that must match
T_K = 11  # 4 columns: per suit, the owner code under that mask
TT_COLS = 15
BUCKET = 64  # entries probed per primary key

# Per-depth scratch in ``mv[d]``: moves first (at most 52), then these.
OSCR = 52  # 4: relevant cards of a bound
OREL = 56  # 4: the node's relevant cards (power masks per suit), see _ab
OCODE = 60  # 4: the owner code of each suit, lowest card in the low bits
MOVE_SLOTS = 64
KILLER = 60  # a row of mv past any depth (at most 53): per depth, the last move that cut off


HUGE_PAGE = 2 << 20  # bytes


def new_table(log2: int = 18) -> np.ndarray:
    """An empty transposition table of ``2**log2`` entries (``2**log2 / BUCKET`` buckets; each
    bucket's rows hold its entries column by column, see :func:`_w`).

    It starts on a 2 MB boundary: a probe's 64-byte loads then never straddle two cache lines,
    and the huge pages numpy asks Linux for (a probe reads a random bucket, so with small pages
    it misses the address cache too) start where the table does. About 5% of a full deal's
    time against numpy's own alignment (16 bytes)."""
    rows = 1 << max(log2, 6)
    raw = np.zeros(rows * TT_COLS + HUGE_PAGE // 8, np.int64)
    off = (-raw.ctypes.data % HUGE_PAGE) // 8
    return raw[off : off + rows * TT_COLS].reshape(rows, TT_COLS)


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


@intrinsic
def _pext(typingctx, x, mask):
    """The bits of ``x`` at the set bits of ``mask``, packed into the low bits (x86 BMI2)."""
    if not (isinstance(x, types.Integer) and isinstance(mask, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pext.64"
        )
        a = context.cast(builder, args[0], sig.args[0], types.int64)
        b = context.cast(builder, args[1], sig.args[1], types.int64)
        return builder.call(fn, [a, b])

    return types.int64(x, mask), codegen


# The search's own functions pass its three arrays (X, the table, the moves) as data pointers
# and view them again inside: an array is passed field by field (seven or nine words) and a
# recursive call paid for all three.
@intrinsic
def _ptr(typingctx, arr):
    """The data pointer of a C-ordered int64 array."""
    if not (isinstance(arr, types.Array) and arr.dtype == types.int64 and arr.layout == "C"):
        return None

    def codegen(context, builder, sig, args):
        return context.make_array(sig.args[0])(context, builder, args[0]).data

    return types.CPointer(types.int64)(arr), codegen


@intrinsic
def _view(typingctx, ptr, rows, cols):
    """The int64 array (``rows`` x ``cols``, C order) at a data pointer, owned by its caller."""
    if not isinstance(ptr, types.CPointer):
        return None
    retty = types.Array(types.int64, 2, "C")

    def codegen(context, builder, sig, args):
        p, r, c = args
        ary = context.make_array(retty)(context, builder)
        eight = ir.Constant(ir.IntType(64), 8)
        populate_array(
            ary, data=p, shape=[r, c], strides=[builder.mul(c, eight), eight], itemsize=eight, meminfo=None
        )
        return ary._getvalue()

    return retty(ptr, rows, cols), codegen


def _compare8(op, masked=False):
    """An intrinsic comparing one column of 8 table entries at once (a vector load and compare):
    bit ``i`` of the result is ``tt[idx + i] op value``, or with ``masked``
    ``(tt[idx + i] & value) op tt[idx2 + i]``. A probe then tests a bucket's entries without a
    branch per entry, whose outcome no predictor can guess."""

    def typer(typingctx, ptr, idx, value, idx2):
        if not isinstance(ptr, types.CPointer):
            return None

        def codegen(context, builder, sig, args):
            p, i, v, i2 = args
            i64 = ir.IntType(64)
            vt = ir.VectorType(i64, 8)

            def load(k, kt):
                at = builder.gep(p, [context.cast(builder, k, kt, types.int64)])
                return builder.load(builder.bitcast(at, vt.as_pointer()), align=8)

            x = load(i, sig.args[1])
            one = builder.insert_element(
                ir.Constant(vt, ir.Undefined),
                context.cast(builder, v, sig.args[2], types.int64),
                ir.Constant(ir.IntType(32), 0),
            )
            splat = builder.shuffle_vector(
                one, ir.Constant(vt, ir.Undefined), ir.Constant(ir.VectorType(ir.IntType(32), 8), [0] * 8)
            )
            if masked:
                c = builder.icmp_signed(op, builder.and_(x, splat), load(i2, sig.args[3]))
            else:
                c = builder.icmp_signed(op, x, splat)
            return builder.zext(builder.bitcast(c, ir.IntType(8)), i64)

        return types.int64(ptr, idx, value, idx2), codegen

    return intrinsic(typer)


_eq8 = _compare8("==")
_ne8 = _compare8("!=")
_ge8 = _compare8(">=")
_le8 = _compare8("<=")
_meq8 = _compare8("==", masked=True)


@_inline
def _u(i):
    """An index as unsigned: Numba tests every signed index for wrapping around (a negative one
    counts from the end), a test and a select on every read of X in the search."""
    return np.uint64(i)


@_inline
def _tricks(cards, p):
    """Tricks in ``cards`` cards of ``p`` players (a shift with four: a division costs more)."""
    return cards >> 2 if p == 4 else cards // p


@_inline
def _held(X, q, suit):
    """Seat ``q``'s cards of ``suit`` (a power mask)."""
    return X[_u(OH + 4 * q + suit)]


@_inline
def _side(X, q):
    """Seat ``q``'s side."""
    return X[_u(OTEAM + q)]


@_inline
def _arrays(xp, tp, mp, ntt):
    """X, the table (flat, its words indexed by :func:`_w`) and the moves again from their
    pointers (``ntt``: the table's entries)."""
    return _view(xp, 1, N_X)[0], _view(tp, 1, ntt * TT_COLS)[0], _view(mp, MAX_DEPTH, MOVE_SLOTS)


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
def _others(X, seat, suit):
    """The cards of ``suit`` left in the hands but ``seat``'s."""
    return X[_u(OREM + suit)] & ~_held(X, seat, suit)


@_inline
def _toprun(X, p, seat, suit):
    """How many of the highest cards left in ``suit`` ``seat`` holds, unbroken."""
    mine = _held(X, seat, suit)
    if mine == 0:
        return 0
    others = _others(X, seat, suit)
    if others == 0:
        return popcount(mine)
    return popcount(mine >> (highest(others) + 1))


@_inline
def _mark_run(X, p, seat, suit, rel, off, d):
    """Mark ``seat``'s top run in ``suit`` as relevant: the cards above every other hand's (no
    mark when no other hand holds the suit: the lengths say so)."""
    others = _others(X, seat, suit)
    if others != 0:
        top = highest(others) + 1
        rel[d, off + suit] |= (_held(X, seat, suit) >> top) << top


@_inline
def _longest_other(X, p, seat, suit):
    """The most cards any other hand holds in ``suit``."""
    n = 0
    for q in range(p):
        if q != seat:
            n = max(n, popcount(_held(X, q, suit)))
    return n


@_bare
def _cashable(X, leader, rel, off, d):
    """Tricks ``leader``, on lead, is sure to take by cashing its top cards: its top trumps;
    every top run when they draw the opponents' trumps (and then every card of a suit whose
    top run outlasts every other hand's length in it); else the top runs of plain suits
    that every opponent still holding trumps must follow. The top cards counted are marked
    in ``rel[d, off + suit]`` (the rest is lengths)."""
    p = X[SP]
    trump = X[STRUMP]
    tq = _toprun(X, p, leader, trump)
    most = 0
    for q in range(p):
        if _side(X, q) != _side(X, leader):
            most = max(most, popcount(_held(X, q, trump)))
    for s in range(4):
        rel[d, off + s] = 0
    if tq > 0:
        _mark_run(X, p, leader, trump, rel, off, d)
    all_runs = 0
    cash = 0
    draw = tq >= most
    for suit in range(4):
        if suit == trump:
            continue
        run = _toprun(X, p, leader, suit)
        if draw and run > 0 and _longest_other(X, p, leader, suit) <= run:
            all_runs += popcount(_held(X, leader, suit))  # the others are out of it by then
        else:
            all_runs += run
        k = run
        for q in range(p):
            if _side(X, q) != _side(X, leader) and _held(X, q, trump) != 0:
                k = min(k, popcount(_held(X, q, suit)))
        cash += k
        if (run > 0 and draw) or k > 0:
            _mark_run(X, p, leader, suit, rel, off, d)
    if draw:
        if tq > 0 and _longest_other(X, p, leader, trump) <= tq:
            tq = popcount(_held(X, leader, trump))
        return tq + all_runs
    return tq + cash


@_bare
def _quick_tricks(X, rel, d):
    """Tricks the side on lead is sure to take: the leader's cashable tricks and (four players)
    partner's, when the leader can reach partner's top card in a suit no opponent can ruff.
    The cards that decide it are marked in ``rel[d, OSCR + suit]``.

    Both count when partner keeps its counted cards through the leader's cashes: the suits
    differ (each counts a suit only where it holds the top card), trump-holding opponents
    follow every round the leader counts (so keep their lengths and the entry safe), and
    partner, one card to each of the leader's tricks, can spare them when the two counts
    leave it that many other cards (``qt + qp`` at most the tricks left)."""
    p = X[SP]
    leader = X[SLEADER]
    qt = _cashable(X, leader, rel, OSCR, d)
    if p != 4:
        return qt
    partner = (leader + 2) % 4
    trump = X[STRUMP]
    for suit in range(4):
        if _held(X, leader, suit) == 0 or _toprun(X, p, partner, suit) == 0:
            continue
        safe = True
        if suit != trump:
            for q in range(p):
                if q != leader and q != partner and _held(X, q, suit) == 0 and _held(X, q, trump) != 0:
                    safe = False
        if safe:
            # partner's top card in the suit is the entry; scratch above the move slots
            keep0, keep1, keep2, keep3 = rel[d, OSCR], rel[d, OSCR + 1], rel[d, OSCR + 2], rel[d, OSCR + 3]
            qp = _cashable(X, partner, rel, OSCR, d)
            if qp > 0 and qt + qp <= X[SLEFT] >> 2:
                _mark_run(X, p, partner, suit, rel, OSCR, d)
                rel[d, OSCR] |= keep0
                rel[d, OSCR + 1] |= keep1
                rel[d, OSCR + 2] |= keep2
                rel[d, OSCR + 3] |= keep3
                return qt + qp
            if qp > qt:
                _mark_run(X, p, partner, suit, rel, OSCR, d)
                return qp
            rel[d, OSCR], rel[d, OSCR + 1], rel[d, OSCR + 2], rel[d, OSCR + 3] = keep0, keep1, keep2, keep3
            return qt
    return qt


@_inline
def _trump_control(X):
    """Tricks each side is sure of by its trumps: a player's trumps above every trump of the
    other side each win the trick they fall in, one trick each. Also each side's top trump
    power bit (-1 without trumps): the cards that decide the other side's count."""
    p = X[SP]
    trump = X[STRUMP]
    top0 = -1
    top1 = -1
    for q in range(p):
        m = _held(X, q, trump)
        if m:
            if _side(X, q) == 0:
                top0 = max(top0, highest(m))
            else:
                top1 = max(top1, highest(m))
    c0 = 0
    c1 = 0
    for q in range(p):
        m = _held(X, q, trump)
        if _side(X, q) == 0:
            c0 = max(c0, popcount(m >> (top1 + 1)))
        else:
            c1 = max(c1, popcount(m >> (top0 + 1)))
    return c0, c1, top0, top1


@_inline
def _later_loser(X, mv, d):
    """DDS's "later tricks" loser: the side on lead holds no trump and, in every suit the
    leader holds, an opponent holds the highest card left, so the side on lead loses this
    trick whatever it leads (the top card, played to it, is beaten by nothing but a trump of
    the opponents). When true, those top cards are marked in ``mv[d, OREL + suit]``."""
    p = X[SP]
    trump = X[STRUMP]
    leader = X[SLEADER]
    side = _side(X, leader)
    for q in range(p):
        if _side(X, q) == side and _held(X, q, trump) != 0:
            return False
    for s in range(4):
        if _held(X, leader, s) == 0:
            continue
        top = highest(X[_u(OREM + s)])
        for q in range(p):
            if (_held(X, q, s) >> top) & 1 and _side(X, q) == side:
                return False
    for s in range(4):
        mv[d, OREL + s] = 0
        if _held(X, leader, s) != 0:
            mv[d, OREL + s] = 1 << highest(X[_u(OREM + s)])
    return True


@_bare
def _bound_cut(X, mv, d, alpha, beta, tricks):
    """A cutoff from the sure tricks of either side at the start of a trick, with the cards
    that decide it in ``mv[d, OREL + suit]``; ``NOCUT`` when there is none."""
    trump = X[STRUMP]
    c0, c1, top0, top1 = _trump_control(X)
    # the bound each side's trumps give needs the trumps down to the other side's top one
    lo_tc = c0 * X[SW0] + (tricks - c0) * X[SW1] - X[SRPTS]
    hi_tc = (tricks - c1) * X[SW0] + c1 * X[SW1] + X[SRPTS]
    if c0 > 0 and lo_tc >= beta:
        if top1 >= 0:
            mv[d, OREL + trump] = 1 << top1
        return lo_tc
    if c1 > 0 and hi_tc <= alpha:
        if top0 >= 0:
            mv[d, OREL + trump] = 1 << top0
        return hi_tc
    lt = _later_loser(X, mv, d)
    if lt:
        if _side(X, X[SLEADER]) == 0:
            hi = (tricks - 1) * X[SW0] + X[SW1] + X[SRPTS]
            if hi <= alpha:
                return hi
        else:
            lo = (tricks - 1) * X[SW1] + X[SW0] - X[SRPTS]
            if lo >= beta:
                return lo
        for s in range(4):
            mv[d, OREL + s] = 0
    qt = _quick_tricks(X, mv, d)
    if qt > 0:
        if _side(X, X[SLEADER]) == 0:
            lo = qt * X[SW0] + (tricks - qt) * X[SW1] - X[SRPTS]
            if lo >= beta:
                for s in range(4):
                    mv[d, OREL + s] = mv[d, OSCR + s]
                return lo
        else:
            hi = (tricks - qt) * X[SW0] + qt * X[SW1] + X[SRPTS]
            if hi <= alpha:
                for s in range(4):
                    mv[d, OREL + s] = mv[d, OSCR + s]
                return hi
    return NOCUT


@_inline
def _covers(X, last, third):
    """Is ``last``, the trick's last hand, sure to take it over the card winning so far and
    whatever ``third`` can play?"""
    led = X[SLED]
    trump = X[STRUMP]
    bp = X[SBPOW]
    mine = _held(X, last, led)
    theirs = _held(X, third, led)
    if mine != 0:
        top = highest(mine)
        if (64 + top if led == trump else top) <= bp:
            return False
        if theirs != 0:
            return highest(theirs) < top
        return led == trump or _held(X, third, trump) == 0
    mine = _held(X, last, trump)
    if led == trump or mine == 0 or bp >= 64:  # (a ruff already in the trick: not counted)
        return False
    if theirs != 0 or _held(X, third, trump) == 0:
        return True
    return highest(_held(X, third, trump)) < highest(mine)


@_inline
def _taken_bound(X, seat, alpha, beta, tricks):
    """The bound when ``seat``'s side takes the trick in progress and the worst of the rest,
    if it cuts; else ``NOCUT``."""
    if _side(X, seat) == 0:
        v = X[SW0] + X[STPTS] + (tricks - 1) * X[SW1] - X[SRPTS]
        return v if v >= beta else NOCUT
    v = X[SW1] - X[STPTS] + (tricks - 1) * X[SW0] + X[SRPTS]
    return v if v <= alpha else NOCUT


@_bare
def _covered(X, mv, d):
    """At second hand (four players): does the last hand, second hand's partner, take the trick
    over the card led and whatever third hand plays? Its card decides it where its rank is
    compared (with the card led, or with third hand's cards): marked then. A call of its own,
    made only when the bound would cut: inlined, it made every node's frame larger."""
    leader = X[SLEADER]
    last = (leader + 3) & 3
    third = (leader + 2) & 3
    if not _covers(X, last, third):
        return False
    led = X[SLED]
    trump = X[STRUMP]
    if _held(X, last, led) != 0:
        mv[d, OREL + led] = 1 << highest(_held(X, last, led))
    elif _held(X, third, led) == 0 and _held(X, third, trump) != 0:
        mv[d, OREL + trump] = 1 << highest(_held(X, last, trump))
    return True


@_inline
def _won_trick_cut(X, mv, d, alpha, beta):
    """A cutoff in a trick whose card winning so far beats whatever its opponents still to play
    to it can play: its side takes the trick, and at least the worst of the rest (DDS's quick
    trick at second hand, at every hand after the lead); ``NOCUT`` when there is none. The
    winning card decides it when its rank is compared with another card's (the cards above it
    keep their owners; voids are in the lengths)."""
    n = X[SLEN]
    p = X[SP]
    bs = X[SBSEAT]
    bp = X[SBPOW]
    tricks = _tricks(X[SLEFT] + n, p)
    if n == 1 and p == 4:
        # second hand's partner, last to play, may take it whatever third hand does
        v = _taken_bound(X, (X[SLEADER] + 1) & 3, alpha, beta, tricks)
        if v != NOCUT and _covered(X, mv, d):
            return v
    v = _taken_bound(X, bs, alpha, beta, tricks)
    if v == NOCUT:
        return NOCUT
    bit = bp & 63
    wsuit = X[STRUMP] if bp >= 64 else X[SLED]
    sure, compared = _sure_compared(X, bs, wsuit, bit, n - 1)  # from the seat to play on
    if not sure:
        return NOCUT
    # its rank decided it if it was compared with a card: one an opponent still to play holds,
    # or one of its suit in the trick (as when a trick is taken)
    if compared or (X[_u(OTM + wsuit)] & ~(1 << bit)) != 0:
        mv[d, OREL + wsuit] = 1 << bit
    return v


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
def _sure_compared(X, seat, suit, bit, n):
    """Does ``seat``'s card (``suit``, power bit) beat whatever the opponents still to play to
    this trick can play (led suit ``X[SLED]``, or ``suit`` when it leads)? And, when it does,
    was its rank compared with a card one of them holds (else voids alone decide it)?"""
    p = X[SP]
    trump = X[STRUMP]
    led = suit if n == 0 else X[SLED]
    compared = False
    for i in range(n + 1, p):
        q = X[SLEADER] + i  # no % p in the search: a division costs more than the rest of a step
        q = q - p if q >= p else q
        if _side(X, q) == _side(X, seat):
            continue
        if _held(X, q, led) != 0:
            if suit == led:
                compared = True
                if highest(_held(X, q, led)) > bit:
                    return False, compared
        elif led != trump and _held(X, q, trump) != 0:
            if suit != trump:
                return False, compared
            compared = True
            if highest(_held(X, q, trump)) > bit:
                return False, compared
    return True, compared


@_inline
def _sure(X, seat, suit, bit, n):
    """:func:`_sure_compared`'s first answer."""
    return _sure_compared(X, seat, suit, bit, n)[0]


@_bare
def _gen(xp, seat, mp, d, tt_move):
    """The moves of ``seat``, one per class of equivalent cards, best first, into ``mv[d]``;
    each is ``score << 12 | lowest card of the class << 8 | suit << 4 | power bit`` (the
    class's highest card). Returns how many."""
    X = _view(xp, 1, N_X)[0]
    mv = _view(mp, MAX_DEPTH, MOVE_SLOTS)
    p = X[SP]
    n = X[SLEN]
    led = X[SLED]
    trump = X[STRUMP]
    cnt = 0
    lo_suit, hi_suit = 0, 4
    m = _held(X, seat, led) if n > 0 else 0
    if m != 0:
        lo_suit, hi_suit = led, led + 1
        if m & (m - 1) == 0:
            # one card of the suit led: forced, nothing to order (one node in six)
            b = lowest(m)
            mv[d, 0] = (2000 << 12) | (b << 8) | (led << 4) | b
            return 1
    partner_wins = False
    partner_sure = False
    if n > 0 and _side(X, X[SBSEAT]) == _side(X, seat):
        partner_wins = True
        bs = X[SBSEAT]
        bp = X[SBPOW]
        partner_sure = _sure(X, bs, trump if bp >= 64 else led, bp & 63, n)
    partner = (seat + 2) & 3 if p == 4 else -1
    rho = (seat + 3) & 3  # the player after partner (used with four players only)
    if n == 1 and p == 4 and _covers(X, partner, (seat + 1) & 3):
        # partner, last to play, takes the trick whatever third hand does: play as if it won it already
        partner_wins = True
        partner_sure = True
    for suit in range(lo_suit, hi_suit):
        m = _held(X, seat, suit)
        if m == 0:
            continue
        o = X[_u(OTM + suit)]
        opp = 0
        opp_ruff = False
        if n == 0:
            o |= X[_u(OREM + suit)] & ~m
            for q in range(p):
                if _side(X, q) != _side(X, seat):
                    opp |= _held(X, q, suit)
                    if _held(X, q, suit) == 0 and _held(X, q, trump) != 0 and suit != trump:
                        opp_ruff = True
        else:
            # after the lead only a class's gaps use o, and the seat's own cards are in none
            o |= X[_u(OREM + suit)]
        rep = -1
        low = -1
        x = m
        while True:
            b = highest(x) if x else -1
            if b >= 0 and rep >= 0:
                between = ((1 << low) - 1) & ~((1 << (b + 1)) - 1)
                if (
                    X[_u(OPTS + 16 * (suit) + b)] == 0
                    and X[_u(OPTS + 16 * (suit) + low)] == 0
                    and (o & between) == 0
                ):
                    # same class: the highest stands for it (a lower one could fall below the cards
                    # that partition search keeps, the highest is in them whenever any is)
                    low = b
                    x &= ~(1 << b)
                    continue
            if rep >= 0:
                pc = X[_u(OPTS + 16 * (suit) + rep)]
                if n == 0:
                    top = (o >> (rep + 1)) == 0
                    if opp_ruff:
                        sc = 0 - rep
                    elif top:
                        sc = 60 + 2 * pc - (8 if suit == trump else 0)
                    elif (
                        partner >= 0
                        and _held(X, partner, suit) != 0
                        and (opp >> (highest(_held(X, partner, suit)) + 1)) == 0
                    ):
                        sc = 65 - rep  # to partner's winner
                    elif (
                        partner >= 0
                        and suit != trump
                        and _held(X, partner, suit) == 0
                        and _held(X, partner, trump) != 0
                    ):
                        sc = 62 - rep  # for partner to ruff
                    elif (
                        partner >= 0
                        and _held(X, partner, suit) != 0
                        and (_held(X, rho, suit) >> (highest(_held(X, partner, suit)) + 1)) == 0
                    ):
                        sc = 55 - rep  # toward partner's tenace: only second hand holds more
                    else:
                        # short suits first, and a sequence (its class holds more than one card)
                        sc = 20 - 3 * popcount(m) - rep - 4 * pc + (12 if low != rep else 0)
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
                elif n == 0 and mvc == mv[KILLER, d]:
                    sc += 30
                mv[d, cnt] = ((sc + 2000) << 12) | (low << 8) | mvc
                cnt += 1
            if b < 0:
                break
            rep = b
            low = b
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
    """The table's answer at the start of a trick: (a cutoff's bound or ``NOCUT``, the best lead
    stored (-1: none), the bucket and the primary key). Apart from :func:`_ab`, whose frame
    every recursive call pays for.

    The bucket is read 8 entries at a time, each test a bit mask over them: the first entry of
    the same key whose pattern matches and whose bound cuts answers; else the first of the same
    key and pattern gives its lead, else the first of the same key."""
    X, tt, mv = _arrays(xp, tp, mp, ntt)
    ka, kb, kc = _primary(X)
    _codes(X, mv, d)
    base = _slot(ka, kb, kc, ntt // BUCKET) * BUCKET
    c0, c1, c2, c3 = mv[d, OCODE], mv[d, OCODE + 1], mv[d, OCODE + 2], mv[d, OCODE + 3]
    any_i = -1
    move_i = -1
    for ch in range(0, BUCKET, 8):
        filled = _ne8(tp, _w(base, T_A, ch), 0, 0)
        key = _eq8(tp, _w(base, T_A, ch), ka, 0)
        if key:
            key &= _eq8(tp, _w(base, T_B, ch), kb, 0) & _eq8(tp, _w(base, T_C, ch), kc, 0)
        if key:
            if any_i < 0:
                any_i = ch + lowest(key)  # the same lengths: its best lead is a fair guess
            pat = (
                key
                & _meq8(tp, _w(base, T_M, ch), c0, _w(base, T_K, ch))
                & _meq8(tp, _w(base, T_M + 1, ch), c1, _w(base, T_K + 1, ch))
                & _meq8(tp, _w(base, T_M + 2, ch), c2, _w(base, T_K + 2, ch))
                & _meq8(tp, _w(base, T_M + 3, ch), c3, _w(base, T_K + 3, ch))
            )
            if pat:
                cut = pat & (_ge8(tp, _w(base, T_LO, ch), beta, 0) | _le8(tp, _w(base, T_HI, ch), alpha, 0))
                if cut:
                    i = ch + lowest(cut)
                    _rel_of_entry(X, mv, d, tt, base, i)
                    lo = tt[_w(base, T_LO, i)]
                    v = lo if lo >= beta else tt[_w(base, T_HI, i)]
                    _to_front(tt, base, i)
                    return v, -1, base, ka, kb, kc
                if move_i < 0:
                    move_i = ch + lowest(pat)
        if filled != 255:
            break  # a bucket fills from its start and entries are only replaced
    tt_move = -1
    if move_i >= 0:
        tt_move = _abs_move(X, tt[_w(base, T_MOVE, move_i)])
    elif any_i >= 0:
        tt_move = _abs_move(X, tt[_w(base, T_MOVE, any_i)])
    return NOCUT, tt_move, base, ka, kb, kc


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
    base = -1
    ka = kb = kc = 0
    tt_move = -1
    if n == 0:
        left = X[SLEFT]
        if left == 0:
            return 0
        tricks = _tricks(left, p)
        if tricks == 1:
            # one card each: the play is forced
            return _last_trick(X, mv, d)
        if tricks * X[SW1] - X[SRPTS] >= beta:
            return tricks * X[SW1] - X[SRPTS]
        if tricks * X[SW0] + X[SRPTS] <= alpha:
            return tricks * X[SW0] + X[SRPTS]
        v, tt_move, base, ka, kb, kc = _probe(xp, tp, mp, ntt, d, alpha, beta)
        if v != NOCUT:
            return v
        # the sure tricks' bounds after the table: it answers more often, and cheaper
        v = _bound_cut(X, mv, d, alpha, beta, tricks)
        if v != NOCUT:
            return v
    else:
        v = _won_trick_cut(X, mv, d, alpha, beta)
        if v != NOCUT:
            return v
    seat = X[SLEADER] + n
    seat = seat - p if seat >= p else seat
    cnt = _gen(xp, seat, mp, d, tt_move)
    maxing = _side(X, seat) == 0
    best = -INF if maxing else INF
    best_move = -1
    trump = X[STRUMP]
    X[SDEPTH] = d + 1
    r0 = r1 = r2 = r3 = 0
    # Per suit, the cards below this power are small cards like one already searched: below
    # every card that decided its bound (and every card that carries points), so any of them
    # gives the same (DDS's rule).
    w0 = w1 = w2 = w3 = -1
    for k in range(cnt):
        m = mv[d, k] & 255
        low = (mv[d, k] >> 8) & 15  # the lowest card of the move's class
        suit = m >> 4
        bit = m & 15
        ws = w0 if suit == 0 else (w1 if suit == 1 else (w2 if suit == 2 else w3))
        if bit < ws:
            continue
        bb = 1 << bit
        pc = X[_u(OPTS + 16 * (suit) + bit)]
        s_led, s_bseat, s_bpow, s_tpts = X[SLED], X[SBSEAT], X[SBPOW], X[STPTS]
        X[_u(OH + 4 * (seat) + suit)] ^= bb
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
            pw = 64 + bit if suit == trump else (bit if suit == s_led else -1)
            if pw > s_bpow:
                X[SBSEAT] = seat
                X[SBPOW] = pw
            X[STPTS] = s_tpts + pc
        wsuit = -1
        wbit = 0
        if n + 1 == p:
            winner = X[SBSEAT]
            gain = X[SW0] + X[STPTS] if _side(X, winner) == 0 else X[SW1] - X[STPTS]
            wsuit = trump if X[SBPOW] >= 64 else X[SLED]
            wbit = X[SBPOW] & 63
            if (X[_u(OTM + wsuit)] & ~(1 << wbit)) == 0:
                wsuit = -1  # it beat no card of its suit: its rank did not matter
            s_leader = X[SLEADER]
            t0, t1, t2, t3 = X[_u(OTM + 0)], X[_u(OTM + 1)], X[_u(OTM + 2)], X[_u(OTM + 3)]
            X[_u(OTM + 0)] = X[_u(OTM + 1)] = X[_u(OTM + 2)] = X[_u(OTM + 3)] = 0
            X[SLEADER] = winner
            X[SLEN] = 0
            X[SLED] = -1
            v = gain + _ab(xp, tp, mp, ntt, alpha - gain, beta - gain)
            X[SLEN] = n
            X[SLEADER] = s_leader
            X[_u(OTM + 0)], X[_u(OTM + 1)], X[_u(OTM + 2)], X[_u(OTM + 3)] = t0, t1, t2, t3
        else:
            X[SLEN] = n + 1
            v = _ab(xp, tp, mp, ntt, alpha, beta)
            X[SLEN] = n
        X[_u(OTM + suit)] ^= bb
        X[SLED], X[SBSEAT], X[SBPOW], X[STPTS] = s_led, s_bseat, s_bpow, s_tpts
        X[SRPTS] += pc
        X[SLEFT] += 1
        X[_u(OH + 4 * (seat) + suit)] ^= bb
        X[_u(OREM + suit)] ^= bb
        c0, c1, c2, c3 = mv[d + 1, OREL], mv[d + 1, OREL + 1], mv[d + 1, OREL + 2], mv[d + 1, OREL + 3]
        if wsuit == 0:
            c0 |= 1 << wbit
        elif wsuit == 1:
            c1 |= 1 << wbit
        elif wsuit == 2:
            c2 |= 1 << wbit
        elif wsuit == 3:
            c3 |= 1 << wbit
        if low != bit:
            # Where the cards that decide the move reach its class, the whole class must be
            # kept: else a position whose small card stands in for the lower ones would not
            # behave like this one.
            reach = (2 << bit) - 1
            if suit == 0 and c0 & reach:
                c0 |= 1 << low
            elif suit == 1 and c1 & reach:
                c1 |= 1 << low
            elif suit == 2 and c2 & reach:
                c2 |= 1 << low
            elif suit == 3 and c3 & reach:
                c3 |= 1 << low
        if (maxing and v > best) or (not maxing and v < best):
            best = v
            best_move = m
        if (maxing and v >= beta) or (not maxing and v <= alpha):
            # a cutoff: this move alone proves the bound
            r0, r1, r2, r3 = c0, c1, c2, c3
            mv[KILLER, d] = m
            break
        r0 |= c0
        r1 |= c1
        r2 |= c2
        r3 |= c3
        below = (2 << bit) - 1
        if suit == 0:
            rx = r0 | X[OPM]
            if w0 < 0 and (rx & below) == 0:
                w0 = lowest(rx) if rx else 16
        elif suit == 1:
            rx = r1 | X[_u(OPM + 1)]
            if w1 < 0 and (rx & below) == 0:
                w1 = lowest(rx) if rx else 16
        elif suit == 2:
            rx = r2 | X[_u(OPM + 2)]
            if w2 < 0 and (rx & below) == 0:
                w2 = lowest(rx) if rx else 16
        else:
            rx = r3 | X[_u(OPM + 3)]
            if w3 < 0 and (rx & below) == 0:
                w3 = lowest(rx) if rx else 16
    X[SDEPTH] = d
    mv[d, OREL], mv[d, OREL + 1], mv[d, OREL + 2], mv[d, OREL + 3] = r0, r1, r2, r3
    if base >= 0:
        _store(xp, tp, mp, ntt, d, base, ka, kb, kc, best, alpha, beta, best_move)
    return best


@_inline
def _rel_of_entry(X, mv, d, tt, base, i):
    """The relevant cards of a stored entry in this position: per suit, the top cards its
    owner mask covers (the lowest of them marks them all)."""
    p = X[SP]
    width = 2 if p <= 4 else 3
    for s in range(4):
        k = popcount(tt[_w(base, T_M + s, i)]) // width
        if k == 0:
            continue
        rem = X[_u(OREM + s)]
        for _ in range(k - 1):
            rem ^= 1 << highest(rem)
        mv[d, OREL + s] = 1 << highest(rem)


@_bare
def _store(xp, tp, mp, ntt, d, base, ka, kb, kc, best, alpha, beta, best_move):
    """Store a node's bound under its pattern: per suit, the owners of the cards from the top
    down to its lowest relevant card (in Scotch Whist every counting card is relevant)."""
    X, tt, mv = _arrays(xp, tp, mp, ntt)
    p = X[SP]
    width = 2 if p <= 4 else 3
    lo = -INF
    hi = INF
    if best <= alpha:
        hi = best
    if best >= beta:
        lo = best
    m0 = m1 = m2 = m3 = 0
    k0 = k1 = k2 = k3 = 0
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
        mask = 0
        if r:
            k = popcount(rem >> lowest(r))  # the top k cards, at the code's high end
            mask = ((1 << (width * k)) - 1) << (width * (popcount(rem) - k))
        code = mv[d, OCODE + s] & mask
        if s == 0:
            m0, k0 = mask, code
        elif s == 1:
            m1, k1 = mask, code
        elif s == 2:
            m2, k2 = mask, code
        else:
            m3, k3 = mask, code
    left = X[SLEFT]
    victim = -1
    lowest_rank = 1 << 62  # of the entries seen, cards left << 40 | age (nodes, far below 2^40)
    for ch in range(0, BUCKET, 8):
        filled = _ne8(tp, _w(base, T_A, ch), 0, 0)
        same = _eq8(tp, _w(base, T_A, ch), ka, 0)
        if same:
            same &= (
                _eq8(tp, _w(base, T_B, ch), kb, 0)
                & _eq8(tp, _w(base, T_C, ch), kc, 0)
                & _eq8(tp, _w(base, T_M, ch), m0, 0)
                & _eq8(tp, _w(base, T_M + 1, ch), m1, 0)
                & _eq8(tp, _w(base, T_M + 2, ch), m2, 0)
                & _eq8(tp, _w(base, T_M + 3, ch), m3, 0)
                & _eq8(tp, _w(base, T_K, ch), k0, 0)
                & _eq8(tp, _w(base, T_K + 1, ch), k1, 0)
                & _eq8(tp, _w(base, T_K + 2, ch), k2, 0)
                & _eq8(tp, _w(base, T_K + 3, ch), k3, 0)
            )
        if same:
            # the same pattern: tighten its bounds
            i = ch + lowest(same)
            tt[_w(base, T_LO, i)] = max(tt[_w(base, T_LO, i)], lo)
            tt[_w(base, T_HI, i)] = min(tt[_w(base, T_HI, i)], hi)
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
    tt[_w(base, T_LO, 0)] = lo
    tt[_w(base, T_HI, 0)] = hi
    tt[_w(base, T_MOVE, 0)] = _rel_move(X, best_move)
    tt[_w(base, T_RANK, 0)] = (left << 40) | X[SNODES]
    tt[_w(base, T_M, 0)], tt[_w(base, T_M + 1, 0)] = m0, m1
    tt[_w(base, T_M + 2, 0)], tt[_w(base, T_M + 3, 0)] = m2, m3
    tt[_w(base, T_K, 0)], tt[_w(base, T_K + 1, 0)] = k0, k1
    tt[_w(base, T_K + 2, 0)], tt[_w(base, T_K + 3, 0)] = k2, k3


@_bare
def _last_trick(X, mv, d):
    """The value of a last trick, every card forced; its winner is relevant when it beat a
    card of its own suit."""
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
        _gen(_ptr(X2), seat, _ptr(mv), 0, -1)
        m = mv[0, 0] & 255
        v += play(X2, seat, m >> 4, m & 15)
    return v


@njit(cache=True, _nrt=False, nogil=True)  # threads may solve several deals at once (solver.luck)
def mtdf(X, tt, mv, guess):
    """The exact value for side 0 of the rest of the deal, by null-window searches from ``guess``."""
    if X.shape[0] != N_X or tt.shape[1] != TT_COLS or mv.shape[0] != MAX_DEPTH or mv.shape[1] != MOVE_SLOTS:
        raise ValueError("mtdf: X, the table or the moves is not of the search's shape")
    g = guess
    lo = -INF
    hi = INF
    X[SDEPTH] = 0
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = _ab(_ptr(X), _ptr(tt), _ptr(mv), tt.shape[0], beta - 1, beta)
        if g < beta:
            hi = g
        else:
            lo = g
    return g


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


@_bare
def play(X, seat, suit, bit):
    """Play one card for good (no undo); returns what a finished trick adds to the value."""
    p = X[SP]
    n = X[SLEN]
    trump = X[STRUMP]
    bb = 1 << bit
    pc = X[OPTS + 16 * (suit) + bit]
    X[OH + 4 * (seat) + suit] ^= bb
    X[OREM + suit] ^= bb
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
