"""A seat's moves at a node: one per class of equivalent cards, best first (the table's
lead, then cards sure to win, partner's winners, ruffs, ... ; see :func:`_gen`)."""

from __future__ import annotations

from ....core.bits import highest, lowest, popcount
from .bounds import _covers, _sure
from .encoding import (
    KILLER,
    MAX_DEPTH,
    MOVE_SLOTS,
    N_X,
    OPM,
    OPTS,
    OREM,
    OTM,
    SBPOW,
    SBSEAT,
    SLEADER,
    SLED,
    SLEFT,
    SLEN,
    SP,
    SSCOTCH,
    STRUMP,
    _held,
    _side,
)
from .intrinsics import _bare, _inline, _u, _view


@_inline
def _opponents_length(X, len_l, len_r):
    """DDS's measure of the opponents' length in a suit led, a void counted as the tricks left
    (as DDS counts it), scaled by 128 for its integer weights."""
    left = X[SLEFT] >> 2
    return ((left if len_l == 0 else len_l) + (left if len_r == 0 else len_r)) << 7


@_inline
def _top_three(hl, hp, hr, rem):
    """The power bits of the suit's best and second-best cards left (``rem``: its cards left; -1
    for none) and the places after the seat to lead (0 itself, 1 its left, 2 partner, 3 its
    right; -1 for none) of its three best cards, from the other three hands' cards of the suit.
    Four players: a place's two bits are where the card is in the left's or the right's hand
    and in partner's or the right's (no loop over the hands)."""
    lr = hl | hr
    pr = hp | hr
    wbit = highest(rem)
    rem2 = rem ^ (1 << wbit)
    sbit = highest(rem2) if rem2 else -1
    rem3 = rem2 ^ (1 << sbit) if sbit >= 0 else 0
    wh = ((lr >> wbit) & 1) | (((pr >> wbit) & 1) << 1)
    sh = ((lr >> sbit) & 1) | (((pr >> sbit) & 1) << 1) if sbit >= 0 else -1
    th = -1
    if rem3:
        tbit = highest(rem3)
        th = ((lr >> tbit) & 1) | (((pr >> tbit) & 1) << 1)
    return wbit, sbit, wh, sh, th


@_inline
def _div13(x):
    """``x // 13`` for 0 <= x < 8192 (a multiply: Numba's floor division of a signed value
    corrects for the sign)."""
    return (x * 10083) >> 17


@_inline
def _div19(x):
    """``x // 19`` for 0 <= x < 8192."""
    return (x * 6899) >> 17


@_inline
def _lead_dds_suit(X, seat, suit):
    """The score of a lead in Whist with four players, DDS's lead weights (its
    ``WeightAllocTrump0``, Bo Haglund's; :func:`_lead_dds_nt` once no trump is left): suits where
    the opponents hold few cards first (a smaller tree), leads that win the trick (a top card
    nobody ruffs, a lead to partner's winner or ruff) ranked by who holds the two top cards, the
    lead that last cut off at this depth (``killer``) well ahead and the table's lead a little.
    Over the bench's deals they search a fifth fewer nodes than the rules of :func:`_gen_lead`,
    which Scotch Whist (points to give) and 6 or 8 players keep.

    This is the part that is the suit's, not the card's (once a suit in :func:`_gen_lead`; the
    card's is :func:`_lead_dds_class`): the weight before the card's, after it when the lead
    loses, the suit's two best cards and their places (:func:`_top_three`), whether its top
    card wins, whether another wins, a singleton."""
    trump = X[STRUMP]
    lh = (seat + 1) & 3
    pa = (seat + 2) & 3
    rh = (seat + 3) & 3
    m = _held(X, seat, suit)
    hl = _held(X, lh, suit)
    hp = _held(X, pa, suit)
    hr = _held(X, rh, suit)
    tl = _held(X, lh, trump)
    tp = _held(X, pa, trump)
    tr = _held(X, rh, trump)
    len_l = popcount(hl)
    len_r = popcount(hr)
    len_p = popcount(hp)
    delta = -_div13(_opponents_length(X, len_l, len_r))
    bonus = 0
    plain = suit != trump
    if plain and ((hl == 0 and tl != 0) or (hr == 0 and tr != 0)):
        bonus = -12
    if plain and len_p == 0 and tp != 0 and len_r > 0:
        bonus += 17
    wbit, sbit, wh, sh, th = _top_three(hl, hp, hr, X[_u(OREM + suit)])
    if wh == 3 or sh == 3:
        if len_r != 1:
            bonus -= 12
    elif wh == 1 and sh == 2:
        if len_p != 1:
            bonus += 27
    if plain and popcount(m) == 1 and _held(X, seat, trump) != 0 and len_p > 1 and wh == 2:
        bonus += 19
    delta += bonus
    # the suit's top card led wins
    if plain:
        if len_p != 0 or tp == 0:
            win_top = (len_l != 0 or tl == 0) and (len_r != 0 or tr == 0)
        else:
            win_top = (len_l != 0 or tp > tl) and (len_r != 0 or tp > tr)
    else:
        win_top = True
    # another card led wins
    win_other = False
    if hp > (hl | hr):
        win_other = (len_l != 0 or tl == 0) and (len_r != 0 or tr == 0) if plain else True
    elif plain and len_p == 0 and tp != 0:
        if len_l == 0 and tl != 0 and len_r == 0 and tr != 0:
            win_other = tp > (tl | tr)
        elif len_l == 0 and tl != 0:
            win_other = tp > tl
        elif len_r == 0 and tr != 0:
            win_other = tp > tr
        else:
            win_other = True
    single = (len_l == 1 and wh == 1) or (len_r == 1 and wh == 3)
    lose = delta
    if sh == 2 and th == 2:
        lose += 20
    elif len_p > 1 and ((sh == 0 and th == 2) or (sh == 2 and th == 0)):
        lose += 13
    return delta, lose, wbit, sbit, wh, sh, int(win_top), int(win_other), int(single)


@_inline
def _lead_dds_class(X, seat, suit, rep, low, mvc, killer, tt_move, su):
    """DDS's lead weights' part that is the card's, from :func:`_lead_dds_suit`'s ``su``."""
    delta, lose, wbit, sbit, wh, sh, win_top, win_other, single = su
    r_rank = 1 + popcount(X[_u(OREM + suit)] >> (rep + 1))
    seq = low != rep
    win = win_top if rep == wbit else win_other
    if win:
        if single:
            w = delta + 35 + r_rank
        elif wh == 0:
            if sh == 2:
                w = delta + 48 + r_rank
            elif rep == wbit:
                w = delta + 31
            else:
                w = delta - 3 + r_rank
        elif wh == 2:
            w = delta + (42 if sh == 0 else 28) + r_rank
        elif seq and rep == sbit:
            w = delta + 40
        elif seq:
            w = delta + 22 + r_rank
        else:
            w = delta + 11 + r_rank
        if mvc == killer:
            w += 55
        elif mvc == tt_move:
            w += 18
    else:
        if single:
            w = lose + r_rank + 2
        elif wh == 0:
            if sh == 2:
                w = lose + 33 + r_rank
            elif rep == wbit:
                w = lose + 38
            else:
                w = lose - 14 + r_rank
        elif wh == 2:
            w = lose + 34 + r_rank
        elif seq and rep == sbit:
            w = lose + 35
        else:
            w = lose + 17 - (rep + 2)
        if mvc == killer:
            w += 18
    return w


@_inline
def _lead_dds_nt(X, seat, suit, rep, low, mvc, killer, tt_move):
    """The score of a lead in Whist with four players once no trump is left: DDS's no-trump
    lead weights (its ``WeightAllocNT0``, Bo Haglund's, which DDS uses wherever no trump is
    left): short suits of the opponents first, leads that win the trick (ours or partner's top
    card) ranked by who holds the second-best card, else leads toward partner's high cards;
    the lead that last cut off at this depth well ahead, the table's lead a little."""
    return _lead_dds_nt_class(X, seat, suit, rep, low, mvc, killer, tt_move, _lead_dds_nt_suit(X, seat, suit))


@_inline
def _lead_dds_nt_suit(X, seat, suit):
    """:func:`_lead_dds_nt`'s part that is the suit's (in :func:`_lead_dds_suit`'s shape): the
    weight of a lead that wins, of one that loses, the two best cards, the best card's place,
    whether partner's cards are above the opponents', a singleton."""
    lh = (seat + 1) & 3
    pa = (seat + 2) & 3
    rh = (seat + 3) & 3
    hl = _held(X, lh, suit)
    hp = _held(X, pa, suit)
    hr = _held(X, rh, suit)
    len_l = popcount(hl)
    len_r = popcount(hr)
    len_p = popcount(hp)
    delta = -_div19(_opponents_length(X, len_l, len_r))
    if len_p == 0:
        delta -= 9
    wbit, sbit, wh, sh, th = _top_three(hl, hp, hr, X[_u(OREM + suit)])
    # the trick is ours or partner's
    win = delta
    if sh == 3:
        if len_r != 1:
            win -= 1
    elif sh == 1:
        win += 22 if len_l != 1 else 16
    if (sh != 1 or len_l == 1) and (sh != 3 or len_r == 1):
        win += 45
    else:
        win += 18
    if wh == 3 or sh == 3:
        if len_r != 1:
            delta -= 10
    elif wh == 1 and sh == 2:
        if len_p != 1:
            delta += 31
    if sh == 2 and th == 2:
        delta += 35
    elif len_p > 1 and ((sh == 0 and th == 2) or (sh == 2 and th == 0)):
        delta += 25
    single = (len_l == 1 and wh == 1) or (len_r == 1 and wh == 3)
    return win, delta, wbit, sbit, wh, 0, int(hp > (hl | hr)), 0, int(single)


@_inline
def _lead_dds_nt_class(X, seat, suit, rep, low, mvc, killer, tt_move, su):
    """:func:`_lead_dds_nt`'s part that is the card's, from :func:`_lead_dds_nt_suit`'s ``su``."""
    win, delta, wbit, sbit, wh, _, over, _, single = su
    r_rank = 1 + popcount(X[_u(OREM + suit)] >> (rep + 1))
    if rep == wbit or over:
        w = win + r_rank
        if mvc == killer:
            w += 126
        elif mvc == tt_move:
            w += 32
        return w
    if single:
        w = delta + 28 + r_rank
    elif wh == 0:
        w = delta - 17 + r_rank
    elif low == rep:
        w = delta + 12 + r_rank
    elif rep == sbit:
        w = delta + 48
    else:
        w = delta + 29 - r_rank
    if mvc == killer:
        w += 47
    elif mvc == tt_move:
        w += 19
    return w


@_inline
def _pitch_add(X, seat, suit, cnt, div):
    """DDS's weight of a suit to let go at second hand: ``cnt`` cards of it, scaled by ``div``,
    less where the seat would bare its second-highest card (Kx)."""
    add = (cnt << 6) // div
    if div == 36 and cnt == 2:
        rem = X[_u(OREM + suit)]
        rest = rem ^ (1 << highest(rem))
        if rest and (_held(X, seat, suit) >> highest(rest)) & 1:
            add -= 4
    return add


@_inline
def _second_dds(X, seat, suit, rep, low):
    """The score of a card at second hand in Whist with four players: DDS's follower weights
    (its ``WeightAllocTrumpNotvoid1`` following suit, ``WeightAllocTrumpVoid1`` else; Bo
    Haglund's): a card that wins the trick for the side (its own, or partner's over the third
    hand) cheaply first, then cards that lose anyway, lowest first; void, a discard from a long
    suit where partner wins, else a ruff. Ranks as DDS counts them (2 to 14)."""
    trump = X[STRUMP]
    led = X[SLED]
    leader = X[SLEADER]
    third = (leader + 2) & 3
    pd = (leader + 3) & 3  # partner, last to play
    lb = X[SBPOW] & 63
    lr = lb + 2  # the card led
    r = rep + 2
    h3 = _held(X, third, led)
    hpd = _held(X, pd, led)
    t3 = _held(X, third, trump)
    tpd = _held(X, pd, trump)
    if suit == led:
        max3 = highest(h3) + 2 if h3 else 0
        maxpd = highest(hpd) + 2 if hpd else 0
        min3 = lowest(h3) + 2 if h3 else 0
        minpd = lowest(hpd) + 2 if hpd else 0
        r_rank = 1 + popcount(X[_u(OREM + suit)] >> (rep + 1))
        win = False
        if led == trump:
            win = (maxpd > lr and maxpd > max3) or (r > lr and r > max3)
        elif r > lr and r > max3:
            win = max3 != 0 or t3 == 0 or (maxpd == 0 and tpd != 0 and tpd > t3)
        elif maxpd > lr and maxpd > max3:
            win = max3 != 0 or t3 == 0
        elif lr > maxpd and lr > max3 and lr > r:
            if maxpd == 0 and tpd != 0:
                win = max3 != 0 or t3 == 0 or tpd > t3
        elif maxpd == 0 and tpd != 0:
            win = True
        if win:
            if min3 > r:
                return 40 + r_rank  # partner must be winning: we cannot
            if maxpd > lr and _held(X, leader, led) > hpd:
                return 41 + r_rank
            if r > lr:
                if r < maxpd:
                    return 78 - r
                if r > max3:
                    return 73 - r
                return (62 if low != rep else 49) - r
            return (47 if maxpd > 0 else 40) - r
        if r < min3 or r < minpd:
            return -9 + r_rank  # beaten anyway
        if r < lr:
            return -16 + r_rank  # beaten already
        return (22 if low != rep else 10) - r
    cnt = popcount(_held(X, seat, suit))
    led_bit = 1 << lb
    if led == trump:
        # a pitch on a trump lead
        if hpd > (h3 | led_bit):
            return _pitch_add(X, seat, suit, cnt, 44) - r
        return _pitch_add(X, seat, suit, cnt, 36) - r
    if suit != trump:
        # a discard on a side suit
        if h3 != 0:
            if hpd > (h3 | led_bit) or (hpd == 0 and tpd != 0):
                return 60 + _pitch_add(X, seat, suit, cnt, 44) - r
        elif (hpd == 0 and tpd > t3) or (t3 == 0 and hpd > led_bit):
            return 60 + _pitch_add(X, seat, suit, cnt, 44) - r
        return -2 + _pitch_add(X, seat, suit, cnt, 36) - r
    # a ruff
    if h3 != 0 or (hpd == 0 and tpd != 0 and tpd > t3) or (1 << rep) > t3:
        return 24 - r + _pitch_add(X, seat, suit, cnt, 44)
    return 15 - r + _pitch_add(X, seat, suit, cnt, 36)


@_inline
def _gen(xp, seat, mp, d, tt_move):
    """The moves of ``seat``, one per class of equivalent cards, best first, into ``mv[d]``;
    each is ``score << 12 | lowest card of the class << 8 | suit << 4 | power bit`` (the
    class's highest card). Returns how many. The lead's and the followers' are functions of
    their own (:func:`_gen_lead`, :func:`_gen_follow`): in one, the followers paid for the
    lead's constants spilled to the stack (2% of a full deal's time)."""
    X = _view(xp, 1, N_X)[0]
    if X[SLEN] == 0:
        return _gen_lead(xp, seat, mp, d, tt_move)
    return _gen_follow(xp, seat, mp, d, tt_move)


@_inline
def _next_class(x, stop, pm):
    """The highest class left in ``x`` (the seat's cards of a suit not yet taken): the seat's
    cards from its highest down to the next card of another hand or of the trick (``stop``), or
    to a card that carries points (``pm``; alone in its class). The highest card stands for it
    (a lower one could fall below the cards that partition search keeps, the highest is in
    them whenever any is). A class a step, not a card. Returns its highest card, its bits and
    its lowest card."""
    rep = highest(x)
    cls = 1 << rep
    if (pm >> rep) & 1 == 0:
        st = stop & (cls - 1)
        cls = x & ~((2 << highest(st)) - 1) if st else x
    return rep, cls, lowest(cls)


@_inline
def _class_stops(X, suit, m, o):
    """``suit``'s counting cards, and what ends a class of the seat's cards ``m`` there (for
    :func:`_next_class`): a card of another hand or of the trick (``o``), or one of the seat's own
    counting cards."""
    pm = X[_u(OPM + suit)]
    return pm, (o & ~m) | (pm & m)


@_inline
def _sort_moves(mv, d, cnt):
    """Insertion sort of ``mv[d, :cnt]``, best first."""
    for i in range(1, cnt):
        key = mv[d, i]
        j = i - 1
        while j >= 0 and mv[d, j] < key:
            mv[d, j + 1] = mv[d, j]
            j -= 1
        mv[d, j + 1] = key


@_bare
def _gen_lead(xp, seat, mp, d, tt_move):
    """:func:`_gen` at the trick's first card: DDS's lead weights in Whist with four players
    (:func:`_lead_dds_suit`, :func:`_lead_dds_nt`), else the rules below."""
    X = _view(xp, 1, N_X)[0]
    mv = _view(mp, MAX_DEPTH, MOVE_SLOTS)
    p = X[SP]
    trump = X[STRUMP]
    cnt = 0
    dds_lead = p == 4 and X[SSCOTCH] == 0
    no_trump = X[_u(OREM + trump)] == 0  # DDS's weights are its no-trump ones then
    partner = (seat + 2) & 3 if p == 4 else -1
    rho = (seat + 3) & 3  # the player after partner (used with four players only)
    su = (0, 0, 0, 0, 0, 0, 0, 0, 0)
    for suit in range(4):
        m = _held(X, seat, suit)
        if m == 0:
            continue
        if dds_lead:
            # DDS's lead weights: the suit's part once, not once a class
            su = _lead_dds_nt_suit(X, seat, suit) if no_trump else _lead_dds_suit(X, seat, suit)
        o = X[_u(OTM + suit)] | (X[_u(OREM + suit)] & ~m)
        opp = 0
        opp_ruff = False
        if not dds_lead:  # the opponents' cards: for the rules below, not DDS's weights
            for q in range(p):
                if _side(X, q) != _side(X, seat):
                    opp |= _held(X, q, suit)
                    if _held(X, q, suit) == 0 and _held(X, q, trump) != 0 and suit != trump:
                        opp_ruff = True
        pm, stop = _class_stops(X, suit, m, o)
        x = m
        while x:
            rep, cls, low = _next_class(x, stop, pm)
            x &= ~cls
            mvc = (suit << 4) | rep
            if dds_lead:
                if no_trump:
                    sc = _lead_dds_nt_class(X, seat, suit, rep, low, mvc, mv[KILLER, d], tt_move, su)
                else:
                    sc = _lead_dds_class(X, seat, suit, rep, low, mvc, mv[KILLER, d], tt_move, su)
            else:
                pc = X[_u(OPTS + 16 * (suit) + rep)]
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
                if mvc == tt_move:
                    sc += 1000
                elif mvc == mv[KILLER, d]:
                    sc += 30
            mv[d, cnt] = ((sc + 2000) << 12) | (low << 8) | mvc
            cnt += 1
    _sort_moves(mv, d, cnt)
    return cnt


@_bare
def _gen_follow(xp, seat, mp, d, tt_move):
    """:func:`_gen` after the trick's first card: DDS's second-hand weights in Whist with four
    players (:func:`_second_dds`), else the rules below."""
    X = _view(xp, 1, N_X)[0]
    mv = _view(mp, MAX_DEPTH, MOVE_SLOTS)
    p = X[SP]
    n = X[SLEN]
    led = X[SLED]
    trump = X[STRUMP]
    cnt = 0
    lo_suit, hi_suit = 0, 4
    m = _held(X, seat, led)
    if m != 0:
        lo_suit, hi_suit = led, led + 1
        if m & (m - 1) == 0:
            # one card of the suit led: forced, nothing to order (one node in six)
            b = lowest(m)
            mv[d, 0] = (2000 << 12) | (b << 8) | (led << 4) | b
            return 1
    dds_second = n == 1 and p == 4 and X[SSCOTCH] == 0
    whist = p == 4 and X[SSCOTCH] == 0  # DDS's follower rules below: Scotch Whist searched more with them
    partner_wins = False
    partner_sure = False
    if not dds_second and _side(X, X[SBSEAT]) == _side(X, seat):
        partner_wins = True
        bs = X[SBSEAT]
        bp = X[SBPOW]
        partner_sure = _sure(X, bs, trump if bp >= 64 else led, bp & 63, n)
    partner = (seat + 2) & 3 if p == 4 else -1
    if n == 1 and p == 4 and not dds_second and _covers(X, partner, (seat + 1) & 3):
        # partner, last to play, takes the trick whatever third hand does: play as if it won it already
        partner_wins = True
        partner_sure = True
    for suit in range(lo_suit, hi_suit):
        m = _held(X, seat, suit)
        if m == 0:
            continue
        # only a class's gaps use o, and the seat's own cards are in none
        o = X[_u(OTM + suit)] | X[_u(OREM + suit)]
        pm, stop = _class_stops(X, suit, m, o)
        x = m
        while x:
            rep, cls, low = _next_class(x, stop, pm)
            x &= ~cls
            if dds_second:
                sc = _second_dds(X, seat, suit, rep, low)
            else:
                pc = X[_u(OPTS + 16 * (suit) + rep)]
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
                        if whist and n == 2 and suit == led:
                            # third hand (DDS's): above fourth hand's second card (or it void) the
                            # cheapest forces its top card (or ruff) as well; its lone card wins
                            # anyway: lowest first
                            h4 = _held(X, (seat + 1) & 3, led)
                            if h4 == 0 or (h4 & (h4 - 1) and rep > highest(h4 ^ (1 << highest(h4)))):
                                sc = 75 - rep - 4 * pc
                            elif h4 & (h4 - 1) == 0:
                                sc = 50 - rep - 4 * pc
                else:
                    sc = 50 - rep - 4 * pc - (20 if suit == trump else 0)
                if whist and pw < 0:
                    # a discard from a long suit first (DDS's): 2 to 3% fewer nodes
                    sc += _pitch_add(X, seat, suit, popcount(m), 40)
                if ((suit << 4) | rep) == tt_move:
                    sc += 1000
            mv[d, cnt] = ((sc + 2000) << 12) | (low << 8) | (suit << 4) | rep
            cnt += 1
    _sort_moves(mv, d, cnt)
    return cnt


@_inline  # in _ab: as a call of its own about 1% slower on full deals
def _first_last(xp, seat, mp, d):
    """:func:`_gen`'s first move at the trick's last card, alone, into ``mv[d, 0]``, where no
    card carries points: four cards in five cut off at this hand with the first move, so the
    rest are ordered only when it does not. Returns 1 where it is the only move, 2 where
    :func:`_gen` may give more, 0 where it does not apply (points: call :func:`_gen`).

    At the last card every card that takes the trick is sure, so each suit's best class is its
    lowest (partner wins, or nothing wins) or its lowest that wins; a class is a run of the
    seat's cards with no card of another hand or of the trick between them."""
    X = _view(xp, 1, N_X)[0]
    mv = _view(mp, MAX_DEPTH, MOVE_SLOTS)
    if X[OPM] | X[_u(OPM + 1)] | X[_u(OPM + 2)] | X[_u(OPM + 3)]:
        return 0
    led = X[SLED]
    trump = X[STRUMP]
    bpow = X[SBPOW]
    lo_suit, hi_suit = 0, 4
    m = _held(X, seat, led)
    if m != 0:
        if m & (m - 1) == 0:
            b = lowest(m)
            mv[d, 0] = (2000 << 12) | (b << 8) | (led << 4) | b
            return 1
        lo_suit, hi_suit = led, led + 1
    partner_wins = _side(X, X[SBSEAT]) == _side(X, seat)
    whist = X[SP] == 4 and X[SSCOTCH] == 0
    best = -1
    for suit in range(lo_suit, hi_suit):
        m = _held(X, seat, suit)
        if m == 0:
            continue
        # the cards that take the trick: above thr
        thr = 16
        if not partner_wins:
            if suit == trump:
                thr = bpow - 64 if bpow >= 64 else -1
            elif suit == led and bpow < 64:
                thr = bpow
        win = (m >> (thr + 1)) << (thr + 1) if thr < 16 else 0
        low = lowest(win) if win else lowest(m)
        above = (X[_u(OTM + suit)] | X[_u(OREM + suit)]) & ~m & ~((2 << low) - 1)
        rep = highest(m & ((1 << lowest(above)) - 1)) if above else highest(m)
        if partner_wins:
            sc = 60 - rep - (20 if suit == trump and led != trump else 0)
        elif win:
            sc = 90 - rep
        else:
            sc = 50 - rep - (20 if suit == trump else 0)
        if whist and suit != trump and suit != led:
            sc += _pitch_add(X, seat, suit, popcount(m), 40)  # a discard: _gen's long-suit weight
        w = ((sc + 2000) << 12) | (low << 8) | (suit << 4) | rep
        if w > best:
            best = w
    mv[d, 0] = best
    return 2
