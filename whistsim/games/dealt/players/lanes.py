"""Whist and Scotch Whist play-outs in lockstep: many sampled deals played out at once by
``heuristic``.

pimc plays every candidate card out in every sampled deal, and every play-out of a decision
plays the same number of cards from the same trick position. So they can go card by
card together, one lane per (deal, candidate), each lane's choice made without a branch: the
lane loops compile to vector instructions (four or eight lanes an instruction) where a lone
play-out waits on a mispredicted branch at almost every card.

The lanes play as ``heuristic`` plays with its defaults (as pimc's play-out seats do), Whist and
four-handed Scotch Whist in one set of hands: the same card in every position
(tests/test_pimc_lanes.py plays both ways). The trick's power and the Scotch trump Jack's place
are the engine's (``suit_power``, ``to_power_mask``, ``from_power``), and so are the counting
cards' points. A lane's state is one column of a 1-D array, a row per field at a fixed
stride (``LANES``), so that the compiler sees the rows cannot overlap.
"""

import numpy as np
from numba import njit

from ....core.bits import all_when, highest, lowest, one_of_four, popcount
from ....core.calls import inlined
from ....core.cards import ACE, JACK, KING, QUEEN, TEN
from ..engine import (
    ACE_POINTS,
    DIAMONDS,
    FRENCH_TEN_POINTS,
    JACK_POINTS,
    KING_POINTS,
    QUEEN_POINTS,
    TEN_POINTS,
    from_power,
    suit_power,
    to_power_mask,
)
from . import heuristic
from .heuristic import low_trump_rank, plain_discard, tenace_held, top_rank

LANES = 64  # lanes a pass plays (a row's stride)
SUIT = 0x1FFF
# rows of the lanes' state: the four hands (52-bit masks), the cards played, the voids shown
# (bit 4 * seat + suit), the seats' first leads (3 bits a seat from bit 3 * seat: the suit + 1,
# 0 none yet), the suit led, the trick's best power and its place, the trick's leader, tricks
# taken by the searching seat's side, the trick's cards, the cards that side has taken, and the
# seats' trump leads (4 bits a seat from bit 4 * seat)
H = 0
GONE, VOID, FIRST, LED, BEST_POWER, BEST, LEADER, TAKEN, TRICK, WON, TRUMP_LEADS = range(4, 15)
ROWS = 15
DRAW_TRUMPS = int(heuristic.DEFAULTS[3])  # the play-out seats' own


@njit(cache=True, inline="always")
def _of_seat(S, row, q, x):
    """Row ``row + q`` of lane ``x``, read from all four rows (no load waits on ``q``)."""
    return one_of_four(
        S[row * LANES + x], S[(row + 1) * LANES + x], S[(row + 2) * LANES + x], S[(row + 3) * LANES + x], q
    )


@njit(cache=True, inline="always")
def _suit(h, suit):
    return (h >> (13 * suit)) & SUIT


@njit(cache=True, inline="always")
def _out(h, gone, pack, suit):
    """Ranks of ``suit`` in the pack neither held nor played (``heuristic.outstanding``)."""
    return (pack >> (13 * suit)) & SUIT & ~((gone | h) >> (13 * suit))


@njit(cache=True, inline="always")
def _longest_and_cash(trump, h, gone, pack, cash_ok):
    """The plain suits' part of a lead: the first plain winner to cash (its card, -1 none; only
    with ``cash_ok``) and the lowest card of the longest plain suit (-1 none)."""
    cash = -1
    longest = -1
    n_long = 0
    for suit in range(4):
        held = _suit(h, suit)
        out = _out(h, gone, pack, suit)
        plain = (suit != trump) & (held != 0)
        top = top_rank(held, out, False)
        cash = suit * 13 + top if plain & cash_ok & (out != 0) & (top >= 0) & (cash < 0) else cash
        n = popcount(held)
        longer = plain & (n > n_long)
        longest = suit if longer else longest
        n_long = n if longer else n_long
    low = longest * 13 + lowest(_suit(h, longest & 3)) if longest >= 0 else -1
    return cash, low


@njit(cache=True, inline="always")
def _partner_sure(i, trump, teams, h, gone, pack, voids, s, leader, led, bp, best, scotch):
    """Is the card winning the trick partner's and sure to win it (``heuristic._partner_sure``),
    and that card's suit, its place in its suit's power, its rank."""
    bseat = (leader + best) & 3
    partner = ((teams >> bseat) & 1) == ((teams >> s) & 1)
    bsuit = trump if bp >= 64 else led
    bpow = bp & 63
    bout = to_power_mask(_out(h, gone, pack, bsuit), bsuit == trump, scotch)
    beaten = (bout != 0) & (highest(bout) > bpow)
    after = 0  # the void bits, in the suit led, of the seats still to play
    for k in range(1, 4):
        after |= (np.int64(1) << (((s + k) & 3) * 4 + led)) & all_when(k <= 3 - i)
    ruffed = (bsuit != trump) & (_out(h, gone, pack, trump) != 0) & ((voids & after) != 0)
    sure = partner & ((i == 3) | ((not beaten) & (not ruffed)))
    return sure, partner, bsuit, from_power(bpow) if scotch else bpow


@njit(cache=True, inline="always")
def _lead(trump, h, gone, partner_first):
    """``heuristic._lead`` for Whist with its defaults: draw trumps, return partner's lead, cash a
    winner, lead low from the longest suit, else a low trump."""
    pack = np.int64((1 << 52) - 1)
    tm = _suit(h, trump)
    tout = _out(h, gone, pack, trump)
    sure = top_rank(tm, tout, False)
    draw = trump * 13 + (sure if sure >= 0 else lowest(tm))
    ps = partner_first
    pm = _suit(h, ps & 3)  # ps -1: any suit, unused
    back = ps * 13 + (highest(pm) if popcount(pm) <= 2 else lowest(pm))
    cash, longest = _longest_and_cash(trump, h, gone, pack, True)
    c = trump * 13 + lowest(tm)
    c = longest if longest >= 0 else c
    c = cash if cash >= 0 else c
    c = back if (ps >= 0) & (ps != trump) & (pm != 0) else c
    return draw if (popcount(tm) >= DRAW_TRUMPS) & (tout != 0) else c


@njit(cache=True, inline="always")
def _follow(i, trump, teams, h, gone, voids, s, leader, led, bp, best):
    """``heuristic._follow`` for Whist with its defaults, the ``i``-th card of the trick."""
    pack = np.int64((1 << 52) - 1)
    last = i == 3
    tm = _suit(h, trump)
    mine = _suit(h, led)
    cur = bp - 64 if led == trump else bp
    wins = 0 if (bp >= 64) & (led != trump) else mine & ~((np.int64(2) << cur) - 1)
    low = led * 13 + lowest(mine)
    discard = plain_discard(_suit(h, 0), _suit(h, 1), _suit(h, 2), _suit(h, 3), trump)
    discard = discard if discard >= 0 else trump * 13 + lowest(tm)
    sure, partner, bsuit, brank = _partner_sure(
        i, trump, teams, h, gone, pack, voids, s, leader, led, bp, best, False
    )
    # following suit
    top = top_rank(mine, _out(h, gone, pack, led), False)
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


# ---- Scotch Whist (Catch the Ten): the trump Jack above the Ace, counting cards -------------


@njit(cache=True, inline="always")
def honours(m):
    """The points of the trump ranks in ``m`` (the engine's counting cards)."""
    return (
        JACK_POINTS * ((m >> JACK) & 1)
        + TEN_POINTS * ((m >> TEN) & 1)
        + ACE_POINTS * ((m >> ACE) & 1)
        + KING_POINTS * ((m >> KING) & 1)
        + QUEEN_POINTS * ((m >> QUEEN) & 1)
    )


@njit(cache=True, inline="always")
def _lead_scotch(trump, h, gone, pack, own_first, trump_leads):
    """``heuristic._lead`` for Scotch Whist with its defaults: two rounds of trumps from J A or
    A K, keep off the lead with a tenace, cash a winner, low from the longest suit, a low trump."""
    tm = _suit(h, trump)
    j = (tm >> JACK) & 1
    a = (tm >> ACE) & 1
    k = (tm >> KING) & 1
    first = (trump_leads == 0) & (((j & a) | (a & k)) != 0)
    second = (trump_leads == 1) & (own_first == trump) & ((a | k) != 0)
    top = trump * 13 + from_power(highest(to_power_mask(tm, True, True)))
    cash, longest = _longest_and_cash(trump, h, gone, pack, not tenace_held(tm))
    c = trump * 13 + low_trump_rank(tm)
    c = longest if longest >= 0 else c
    c = cash if cash >= 0 else c
    return top if (first | second) & (_out(h, gone, pack, trump) != 0) else c


@njit(cache=True, inline="always")
def _follow_scotch(i, trump, teams, h, gone, pack, voids, trick, s, leader, led, bp, best):
    """``heuristic._follow`` for Scotch Whist with its defaults, the ``i``-th card of the trick."""
    last = i == 3
    tm = _suit(h, trump)
    mine = _suit(h, led)
    is_t = led == trump
    cur = bp - 64 if is_t else bp
    wins = 0 if (bp >= 64) & (not is_t) else to_power_mask(mine, is_t, True) & ~((np.int64(2) << cur) - 1)
    has_ten = ((tm >> TEN) & 1) != 0
    ten = trump * 13 + TEN
    ten_in = has_ten & is_t
    low_trump = trump * 13 + low_trump_rank(tm)
    low = low_trump if is_t else led * 13 + lowest(mine)
    discard = plain_discard(_suit(h, 0), _suit(h, 1), _suit(h, 2), _suit(h, 3), trump)
    discard = discard if discard >= 0 else low_trump
    sure, partner, bsuit, brank = _partner_sure(
        i, trump, teams, h, gone, pack, voids, s, leader, led, bp, best, True
    )
    stake = honours((trick >> (13 * trump)) & SUIT)  # counting cards in the trick so far
    # following suit, the rules taken last to first (the first that holds wins)
    top = top_rank(mine, _out(h, gone, pack, led), is_t)
    hw = highest(wins)
    rest = wins & ~(np.int64(1) << TEN)
    spare_ten = is_t & (hw == TEN)  # do not offer the Ten to be caught
    c = led * 13 + from_power(highest(rest) if spare_ten else hw)  # third hand high
    c = low if spare_ten & (rest == 0) else c
    c = led * 13 + top if top >= 0 else c
    c = low if partner & ((bsuit != led) | (brank >= JACK)) else c  # partner's trump or high card
    c = low if (stake == 0) & tenace_held(tm) else c  # keep off the lead
    c = low if (i == 1) & (stake == 0) else c  # second hand low
    c = led * 13 + from_power(lowest(wins)) if last else c
    c = low if wins == 0 else c
    c = (ten if ten_in else low) if sure else c  # the Ten into partner's hand
    c = low if (wins == 0) & (not ten_in) else c
    # void in the suit led, holding trumps
    over = to_power_mask(tm, True, True) & ~((np.int64(2) << ((bp - 64) & 63)) - 1)
    ruff = trump * 13 + from_power(lowest(over))
    ruff = ten if has_ten & last & (((over >> TEN) & 1) != 0) else ruff  # save the Ten
    ruff = discard if over == 0 else ruff
    under = ten if has_ten & last else (discard if (low_trump == ten) & (not last) else low_trump)
    v = ruff if bp >= 64 else under
    v = (ten if has_ten else discard) if sure else v
    v = discard if tm == 0 else v
    return c if mine != 0 else v


@njit(cache=True, inline="always")
def points(won, trump, french, dealt):
    """A side's points in Scotch (or French) Whist from the cards it took (one 52-bit mask) and
    the cards dealt to its seats (the engine's ``score_with``: counting cards, and the cards
    taken beyond those dealt)."""
    x = honours((won >> (13 * trump)) & SUIT)
    x += FRENCH_TEN_POINTS * ((won >> (13 * DIAMONDS + TEN)) & 1) if french and trump != DIAMONDS else 0
    return x + max(0, popcount(won) - dealt)


# ---- the lanes ---------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _take(S, x, c, s):
    """The card leaves seat ``s``'s hand for the trick (one store per hand row, no branch)."""
    bit = np.int64(1) << c
    for q in range(4):
        S[(H + q) * LANES + x] ^= bit & all_when(s == q)
    S[GONE * LANES + x] |= bit
    suit = (c * 5042) >> 16  # c // 13 for 0 <= c < 52
    return suit, c - 13 * suit, bit


@njit(cache=True, inline="always")
def _put_lead(S, x, c, s, trump, scotch):
    """Lane ``x``'s seat ``s`` leads card ``c`` (the engine's ``lead``: the seat's leads kept)."""
    suit, rank, bit = _take(S, x, c, s)
    S[LED * LANES + x] = suit
    S[BEST_POWER * LANES + x] = suit_power(suit, rank, trump, suit, scotch)
    S[BEST * LANES + x] = 0
    S[TRICK * LANES + x] = bit
    f = S[FIRST * LANES + x]
    S[FIRST * LANES + x] = f | ((suit + 1) << (3 * s)) & all_when(((f >> (3 * s)) & 7) == 0)
    S[TRUMP_LEADS * LANES + x] += np.int64(suit == trump) << (4 * s)


@njit(cache=True, inline="always")
def _put_follow(S, x, c, i, s, trump, led, bp, best, scotch):
    """Lane ``x``'s seat ``s`` plays card ``c`` as the ``i``-th of the trick (the engine's
    ``follow``: a seat not following shows out; of equal cards the first played wins)."""
    suit, rank, bit = _take(S, x, c, s)
    S[TRICK * LANES + x] |= bit
    S[VOID * LANES + x] |= np.int64(suit != led) << (s * 4 + led)
    pw = suit_power(suit, rank, trump, led, scotch)
    wins = pw > bp
    S[BEST * LANES + x] = i if wins else best
    S[BEST_POWER * LANES + x] = pw if wins else bp


@njit(cache=True, inline="always")
def _follower(S, x, i):
    """Lane ``x``'s ``i``-th player of the trick: the trick's leader, the seat, its hand, the suit
    led, the trick's best power and that card's place."""
    leader = S[LEADER * LANES + x]
    s = (leader + i) & 3
    return leader, s, _of_seat(S, H, s, x), S[LED * LANES + x], S[BEST_POWER * LANES + x], S[BEST * LANES + x]


@njit(cache=True)
def _lead_lanes(S, n, trump):
    for x in range(n):
        s = S[LEADER * LANES + x]
        h = _of_seat(S, H, s, x)
        c = _lead(trump, h, S[GONE * LANES + x], ((S[FIRST * LANES + x] >> (3 * ((s + 2) & 3))) & 7) - 1)
        _put_lead(S, x, c, s, trump, False)


@njit(cache=True)
def _follow_lanes(S, n, trump, teams, i):
    for x in range(n):
        leader, s, h, led, bp, best = _follower(S, x, i)
        c = _follow(i, trump, teams, h, S[GONE * LANES + x], S[VOID * LANES + x], s, leader, led, bp, best)
        _put_follow(S, x, c, i, s, trump, led, bp, best, False)


@njit(cache=True)
def _lead_lanes_scotch(S, n, trump, pack):
    for x in range(n):
        s = S[LEADER * LANES + x]
        h = _of_seat(S, H, s, x)
        first = ((S[FIRST * LANES + x] >> (3 * s)) & 7) - 1
        trump_leads = (S[TRUMP_LEADS * LANES + x] >> (4 * s)) & 15
        c = _lead_scotch(trump, h, S[GONE * LANES + x], pack, first, trump_leads)
        _put_lead(S, x, c, s, trump, True)


@njit(cache=True)
def _follow_lanes_scotch(S, n, trump, teams, pack, i):
    for x in range(n):
        leader, s, h, led, bp, best = _follower(S, x, i)
        gone = S[GONE * LANES + x]
        voids = S[VOID * LANES + x]
        trick = S[TRICK * LANES + x]
        c = _follow_scotch(i, trump, teams, h, gone, pack, voids, trick, s, leader, led, bp, best)
        _put_follow(S, x, c, i, s, trump, led, bp, best, True)


@njit(cache=True)
def _end_lanes(S, n, side_seats):
    for x in range(n):
        winner = (S[LEADER * LANES + x] + S[BEST * LANES + x]) & 3
        ours = (side_seats >> winner) & 1
        S[TAKEN * LANES + x] += ours
        S[WON * LANES + x] |= S[TRICK * LANES + x] & all_when(ours)
        S[LEADER * LANES + x] = winner


@njit(cache=True)
def play_lanes(S, n, cards, trump, teams, side_seats, i0, seat, tricks, scotch, pack):
    """Play lane ``x``'s card ``cards[x]`` for ``seat`` as the ``i0``-th card of the trick, then
    the deal out, ``tricks`` more tricks after this one, in Scotch Whist (``scotch``, its pack's
    cards ``pack``) or Whist; ``S``'s rows hold each lane's deal and the trick so far. ``teams``:
    bit q set for seats of team 1; ``side_seats``: bit q set for the searching seat's side. Adds
    the tricks that side takes to row ``TAKEN`` and their cards to row ``WON``. One loop over the
    cards still to play, each lane loop compiled into it once (``inlined``): a call per card and
    lane loop cost as much as a few lanes' cards."""
    if i0 == 0:
        for x in range(n):
            _put_lead(S, x, cards[x], seat, trump, scotch)
    else:
        for x in range(n):
            bp = S[BEST_POWER * LANES + x]
            _put_follow(S, x, cards[x], i0, seat, trump, S[LED * LANES + x], bp, S[BEST * LANES + x], scotch)
    for k in range(i0 + 1, 4 * (tricks + 1) + 1):
        i = k & 3
        if i == 0:
            inlined(_end_lanes, S, n, side_seats)
            if k == 4 * (tricks + 1):
                break
            if scotch:
                inlined(_lead_lanes_scotch, S, n, trump, pack)
            else:
                inlined(_lead_lanes, S, n, trump)
        elif scotch:
            inlined(_follow_lanes_scotch, S, n, trump, teams, pack, i)
        else:
            inlined(_follow_lanes, S, n, trump, teams, i)
