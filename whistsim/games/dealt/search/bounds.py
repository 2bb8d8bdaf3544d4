"""Bounds that end a search node without searching it: the tricks either side is sure of at
the start of a trick (top trumps, cashable top cards, a trick the side on lead must lose),
and a trick that the card winning it so far is sure to take. Each also marks, in ``mv[d,
OREL + suit]`` (or ``OSCR``), the cards whose owners decide it (partition search, see
:mod:`.alphabeta`)."""

from __future__ import annotations

from ....core.bits import highest, popcount
from .encoding import (
    MAX_DEPTH,
    MOVE_SLOTS,
    N_X,
    NOCUT,
    OREL,
    OREM,
    OSCR,
    OTM,
    SBPOW,
    SBSEAT,
    SLEADER,
    SLED,
    SLEFT,
    SLEN,
    SP,
    SRPTS,
    STPTS,
    STRUMP,
    SW0,
    SW1,
    _held,
    _side,
    _tricks,
)
from .intrinsics import _bare, _inline, _u, _view


@_inline
def _others(X, seat, suit):
    """The cards of ``suit`` left in the hands but ``seat``'s."""
    return X[_u(OREM + suit)] & ~_held(X, seat, suit)


@_inline
def _toprun(X, seat, suit):
    """How many of the highest cards left in ``suit`` ``seat`` holds, unbroken."""
    mine = _held(X, seat, suit)
    if mine == 0:
        return 0
    others = _others(X, seat, suit)
    if others == 0:
        return popcount(mine)
    return popcount(mine >> (highest(others) + 1))


@_inline
def _mark_run(X, seat, suit, rel, off, d):
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
def _cashable(X, leader, rel, off, d, need):
    """Tricks ``leader``, on lead, is sure to take by cashing its top cards: its top trumps;
    every top run when they draw the opponents' trumps (and then every card of a suit whose
    top run outlasts every other hand's length in it); else the top runs of plain suits
    that every opponent still holding trumps must follow. The top cards counted are marked
    in ``rel[d, off + suit]`` (the rest is lengths).

    Counting stops at the first suit that brings the count to ``need``: fewer marked cards make
    the bound, and every table entry stored above it, hold for more positions (DDS's
    QuickTricks stops at its cutoff too). Any part of the count is sure on its own."""
    p = X[SP]
    trump = X[STRUMP]
    tq = _toprun(X, leader, trump)
    most = 0
    for q in range(p):
        if _side(X, q) != _side(X, leader):
            most = max(most, popcount(_held(X, q, trump)))
    for s in range(4):
        rel[d, off + s] = 0
    if tq > 0:
        _mark_run(X, leader, trump, rel, off, d)
    draw = tq >= most
    if draw and tq > 0 and _longest_other(X, p, leader, trump) <= tq:
        tq = popcount(_held(X, leader, trump))
    total = tq
    for suit in range(4):
        if suit == trump:
            continue
        if total >= need:
            break
        run = _toprun(X, leader, suit)
        if run == 0:
            continue
        if draw:
            if _longest_other(X, p, leader, suit) <= run:
                total += popcount(_held(X, leader, suit))  # the others are out of it by then
            else:
                total += run
            _mark_run(X, leader, suit, rel, off, d)
        else:
            k = run
            for q in range(p):
                if _side(X, q) != _side(X, leader) and _held(X, q, trump) != 0:
                    k = min(k, popcount(_held(X, q, suit)))
            if k > 0:
                total += k
                _mark_run(X, leader, suit, rel, off, d)
    return total


@_bare
def _quick_tricks(X, rel, d, need):
    """Tricks the side on lead is sure to take: the leader's cashable tricks and (four players)
    partner's, when the leader can reach partner's top card in a suit no opponent can ruff.
    The cards that decide it are marked in ``rel[d, OSCR + suit]``; the count stops once it
    reaches ``need`` (see :func:`_cashable`).

    Both count when partner keeps its counted cards through the leader's cashes: the suits
    differ (each counts a suit only where it holds the top card), trump-holding opponents
    follow every round the leader counts (so keep their lengths and the entry safe), and
    partner, one card to each of the leader's tricks, can spare them when the two counts
    leave it that many other cards (``qt + qp`` at most the tricks left)."""
    p = X[SP]
    leader = X[SLEADER]
    qt = _cashable(X, leader, rel, OSCR, d, need)
    if p != 4 or qt >= need:
        return qt
    partner = (leader + 2) % 4
    trump = X[STRUMP]
    for suit in range(4):
        if _held(X, leader, suit) == 0 or _toprun(X, partner, suit) == 0:
            continue
        safe = True
        if suit != trump:
            for q in range(p):
                if q != leader and q != partner and _held(X, q, suit) == 0 and _held(X, q, trump) != 0:
                    safe = False
        if safe:
            # partner's top card in the suit is the entry; scratch above the move slots
            keep0, keep1, keep2, keep3 = rel[d, OSCR], rel[d, OSCR + 1], rel[d, OSCR + 2], rel[d, OSCR + 3]
            qp = _cashable(X, partner, rel, OSCR, d, need)
            if qp >= need:
                # partner's alone reach it: the leader's cashes need not be kept
                _mark_run(X, partner, suit, rel, OSCR, d)
                return qp
            if qp > 0 and qt + qp <= X[SLEFT] >> 2:
                _mark_run(X, partner, suit, rel, OSCR, d)
                rel[d, OSCR] |= keep0
                rel[d, OSCR + 1] |= keep1
                rel[d, OSCR + 2] |= keep2
                rel[d, OSCR + 3] |= keep3
                return qt + qp
            if qp > qt:
                _mark_run(X, partner, suit, rel, OSCR, d)
                return qp
            rel[d, OSCR], rel[d, OSCR + 1], rel[d, OSCR + 2], rel[d, OSCR + 3] = keep0, keep1, keep2, keep3
            return qt
    return qt


# ``_trump_tricks``'s power bit when no trump's owner decides its count: above every bit, so
# that it is preferred where the highest bit is (fewest marks)
NOMARK = 64


@_inline
def _trump_tricks(X, seat, opp, need):
    """Tricks ``seat``'s side is sure of by ``seat``'s trumps, ``opp`` the other side's trumps
    (a power mask): each of its trumps falls in a trick of its own, which its side takes unless
    an opponent plays a higher trump to it, and each trump of the opponents beats one at most.
    So of its top ``j`` trumps at least ``j`` less the opponents' trumps above the ``j``-th win,
    for every ``j``: the best of them, and the ``j``-th trump's power bit, down to which the
    trumps' owners decide it (-1 when it is 0). The first ``j`` that reaches ``need`` is taken:
    the fewer trumps whose owners decide it, the more positions the bound holds for. With
    no trump on the other side each trump wins, whatever its rank: the lengths decide it, no
    trump is marked (``NOMARK``, as DDS's later tricks mark none there)."""
    m = _held(X, seat, X[STRUMP])
    if opp == 0 and m != 0:
        return min(popcount(m), max(need, 1)), NOMARK
    best = 0
    at = -1
    j = 0
    while m:
        b = highest(m)
        m ^= 1 << b
        j += 1
        k = j - popcount(opp >> b)
        if k > best:
            best = k
            at = b
            if k >= need:
                break
    return best, at


@_inline
def _holder_of(X, p, suit, bit):
    """The seat holding the card (``suit``, power bit ``bit``); -1 for none."""
    for q in range(p):
        if (_held(X, q, suit) >> bit) & 1:
            return q
    return -1


@_inline
def _trump_control(X, need0, need1):
    """Tricks each side is sure of by its trumps (see :func:`_trump_tricks`; a trump above every
    trump of the other side wins a trick of its own, the case ``j`` of them above every one), and
    for each the power bit of the trump down to which the trumps' owners decide it; a side's
    count stops where it reaches its ``need`` (the highest such bit kept). Two rules of
    DDS's "later tricks" on the two highest trumps left (the owners of both decide them) add:

    - a side holding both, in two hands of which one holds another trump, takes two tricks: at
      the first trick where one of the two hands plays a trump it plays its top one (the other
      hand, when it must play a trump too, a small one), which wins there; the other top one is
      then the highest left;
    - the side not on lead holding the second, guarded, in the hand just after the highest's
      (the side on lead's) takes a trick: until it wins one, the side on lead leads, so the
      highest's hand plays before the second's in every trick; the second's hand plays it
      whenever the highest's hand played another card, and a small trump under the highest
      (it still holds its trumps then: it played none before, or won)."""
    p = X[SP]
    trump = X[STRUMP]
    t0 = 0
    t1 = 0
    for q in range(p):
        if _side(X, q) == 0:
            t0 |= _held(X, q, trump)
        else:
            t1 |= _held(X, q, trump)
    c0 = 0
    c1 = 0
    at0 = -1
    at1 = -1
    for q in range(p):
        if _side(X, q) == 0:
            k, at = _trump_tricks(X, q, t1, need0)
            if (k > c0 and c0 < need0) or (k >= need0 and at > at0):
                c0, at0 = k, at
        else:
            k, at = _trump_tricks(X, q, t0, need1)
            if (k > c1 and c1 < need1) or (k >= need1 and at > at1):
                c1, at1 = k, at
    rem = X[_u(OREM + trump)]
    if rem & (rem - 1):
        hi = highest(rem)
        second = highest(rem ^ (1 << hi))
        a = _holder_of(X, p, trump, hi)
        b = _holder_of(X, p, trump, second)
        sa = _side(X, a)
        if a != b and sa == _side(X, b):
            if (_held(X, a, trump) ^ (1 << hi)) != 0 or (_held(X, b, trump) ^ (1 << second)) != 0:
                if sa == 0 and c0 < 2 and c0 < need0:
                    c0, at0 = 2, second
                elif sa == 1 and c1 < 2 and c1 < need1:
                    c1, at1 = 2, second
        elif (
            sa == _side(X, X[SLEADER])
            and sa != _side(X, b)
            and b == (a + 1 if a + 1 < p else 0)
            and (_held(X, b, trump) ^ (1 << second)) != 0
        ):
            if sa == 0 and c1 < 1 and c1 < need1:
                c1, at1 = 1, second
            elif sa == 1 and c0 < 1 and c0 < need0:
                c0, at0 = 1, second
    return c0, c1, at0, at1


@_bare  # a call of its own: made only where its bound cuts (inlined, typed again at each use)
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
def _bound_cut(xp, mp, d, alpha, beta, tricks):
    """A cutoff from the sure tricks of either side at the start of a trick, with the cards
    that decide it in ``mv[d, OREL + suit]``; ``NOCUT`` when there is none. X and the moves by
    their data pointers (an array is passed field by field: seven or nine words a call)."""
    X, mv = _view(xp, 1, N_X)[0], _view(mp, MAX_DEPTH, MOVE_SLOTS)
    trump = X[STRUMP]
    # the fewest sure tricks of each side that would cut (the trivial bounds did not: both >= 1)
    dw = X[SW0] - X[SW1]
    n0 = beta - tricks * X[SW1] + X[SRPTS]
    n1 = tricks * X[SW0] + X[SRPTS] - alpha
    need0 = n0 if dw == 1 else (n0 + dw - 1) // dw
    need1 = n1 if dw == 1 else (n1 + dw - 1) // dw
    c0, c1, at0, at1 = _trump_control(X, need0, need1)
    # the bound each side's trumps give needs the trumps' owners down to the trump it counts to
    lo_tc = c0 * X[SW0] + (tricks - c0) * X[SW1] - X[SRPTS]
    hi_tc = (tricks - c1) * X[SW0] + c1 * X[SW1] + X[SRPTS]
    if c0 > 0 and lo_tc >= beta:
        mv[d, OREL + trump] = 0 if at0 == NOMARK else 1 << at0
        return lo_tc
    if c1 > 0 and hi_tc <= alpha:
        mv[d, OREL + trump] = 0 if at1 == NOMARK else 1 << at1
        return hi_tc
    # the side on lead losing a trick: tested only where its bound cuts
    if _side(X, X[SLEADER]) == 0:
        hi = (tricks - 1) * X[SW0] + X[SW1] + X[SRPTS]
        if hi <= alpha and _later_loser(X, mv, d):
            return hi
    else:
        lo = (tricks - 1) * X[SW1] + X[SW0] - X[SRPTS]
        if lo >= beta and _later_loser(X, mv, d):
            return lo
    qt = _quick_tricks(X, mv, d, need0 if _side(X, X[SLEADER]) == 0 else need1)
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


@_bare  # a call of its own: rare (Whist's four hands use DDS's weights there), compiled once
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
