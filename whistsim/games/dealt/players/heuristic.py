"""``heuristic``: Catch the Ten's advice for Scotch Whist and plain sound play for Whist.

Scotch Whist (Catch the Ten): with J A or A K of trumps lead two rounds of trumps at
once; with a tenace (J K, A Q) keep off the lead so it falls on the left; play
the Ten into partner's hand when partner is sure to win the trick; save the Ten
by trumping in as last player; win cards as well as honours.

Two parameters, off by default, play otherwise than the book advises or more
closely to one piece of it. ``place_left``: holding a trump tenace, place the
lead on the left-hand opponent: never overtake a card of theirs that is winning
the trick (play low, or discard rather than trump), and lead the lowest card of
a plain suit where the top card out is not this seat's (first a suit the
left-hand opponent has shown out of, where it may trump, and no partner of this
seat has; else the suit with the most cards out above this seat's best). ``ten_only``:
play for the Ten alone, as the anxious players the book warns of: lead trumps
from the top while holding a court card (J A K Q) and the Ten is out; never cash
a plain-suit winner (lead a low card instead); never win a plain-suit trick,
following or trumping, unless the Ten of trumps is in it (to catch it) or it
saves its own Ten by trumping in last.

Whist (the whist pages): second hand low, third hand high, win cheaply last, return
partner's lead, draw trumps when long in them, ruff low when void.

Only the view is read: the table, the seat's own hand and what has been played.
"""

import numpy as np
from numba import njit

from ....core.bits import highest, lowest, popcount
from ....core.calls import inlined
from ....core.cards import ACE, JACK, KING, QUEEN, TEN
from ....core.rng import uniform
from ....core.strategy import Param
from ..engine import (
    R_ASIDE,
    R_KIND,
    R_PLAYERS,
    R_REVOKES,
    S_ASIDE_CARD,
    S_BEST,
    S_BEST_POWER,
    SCOTCH,
    TRUMP_POINTS,
    from_power,
    only_card,
    to_power_mask,
)

NAME = "heuristic"
PARAMS = {
    "two_rounds": Param(1.0, "Scotch: with J A or A K of trumps lead two rounds of trumps at once (1) or not (0)",
                        low=0.0, high=1.0, integer=True),
    "tenace": Param(1.0, "Scotch: with a trump tenace (J K or A Q) keep off the lead, placing it on the left "
                    "(1) or not (0)", low=0.0, high=1.0, integer=True),
    "ten_to_partner": Param(1.0, "Scotch: play the Ten of trumps into a trick partner is sure to win (1) or not (0)",
                            low=0.0, high=1.0, integer=True),
    # at least one: a seat with no trumps never leads one
    "draw_trumps": Param(5.0, "Whist: lead trumps when holding at least this many", low=1.0, high=13.0,
                         integer=True),
    "revoke": Param(0.0, "chance of trumping, though able to follow, a trick it cannot win by following "
                    "(a deliberate revoke; only if revokes are allowed)", low=0.0, high=1.0),
    "place_left": Param(0.0, "Scotch: with a trump tenace place the lead on the left (1): never overtake the "
                        "left-hand opponent's winning card, lead a suit it may win; or not (0)",
                        low=0.0, high=1.0, integer=True),
    "ten_only": Param(0.0, "Scotch: play only for the Ten (1): lead trumps from the top with a court card while "
                      "the Ten is out, never cash or win plain-suit tricks except to catch or save the Ten; "
                      "or not (0)", low=0.0, high=1.0, integer=True),
}  # fmt: skip
DEFAULTS = (1.0, 1.0, 1.0, 5.0, 0.0, 0.0, 0.0)  # PARAMS' defaults, for players a search plays out
P_PLACE_LEFT, P_TEN_ONLY = 5, 6
COURT = (1 << JACK) | (1 << ACE) | (1 << KING) | (1 << QUEEN)  # trump court cards: any one wins the Ten

J_POWER = 13  # the Scotch trump Jack's place in a power mask
LOW_LED, DISCARD = -2, -3  # _follow_card's answers for low(v, led) and discard(v) (cards are >= 0)


@njit(cache=True, inline="always")
def pack_bits(v, suit):
    """Ranks of ``suit`` in this deal's pack, less a card laid aside (it is shown)."""
    r = v.table.rules
    if r[R_KIND] != SCOTCH:
        m = 0x1FFF
    elif r[R_PLAYERS] == 8:
        m = 0x1FE0  # no sixes
    elif (r[R_PLAYERS] == 5 or r[R_PLAYERS] == 7) and r[R_ASIDE] == 0 and suit == 3:
        m = 0x1FE0  # the six of spades removed
    else:
        m = 0x1FF0
    aside = v.table.s[S_ASIDE_CARD]
    if aside >= 0 and aside // 13 == suit:
        m &= ~(1 << (aside % 13))
    return m


@njit(cache=True, inline="always")
def outstanding(v, suit):
    """Cards of ``suit`` neither played nor held by this seat (as a rank mask)."""
    return pack_bits(v, suit) & ~v.table.played[suit] & ~v.own.bits[suit]


@njit(cache=True, inline="always")
def pm(v, mask, suit):
    """``mask`` as a power mask (the Scotch trump Jack above the Ace)."""
    return to_power_mask(mask, suit == v.trump, v.table.rules[R_KIND] == SCOTCH)


@njit(cache=True, inline="always")
def card_of(v, suit, p):
    return suit * 13 + from_power(p)


@njit(cache=True, inline="always")
def counting(v, card):
    """Scotch points a card carries (trump honours, the Ten; French ten of diamonds)."""
    r = v.table.rules
    if r[R_KIND] != SCOTCH:
        return 0
    suit = card // 13
    if suit == v.trump:
        return TRUMP_POINTS[card % 13]
    return 0


@njit(cache=True, inline="always")
def low(v, suit):
    """The card of ``suit`` cheapest to give away (Scotch trumps: counting cards last)."""
    m = v.own.bits[suit]
    if v.table.rules[R_KIND] == SCOTCH and suit == v.trump:
        return suit * 13 + low_trump_rank(m)
    return suit * 13 + lowest(m)


@njit(cache=True, inline="always")
def low_trump_rank(m):
    """:func:`low`'s rank in Scotch trumps ``m`` (not empty): the lowest plain trump, else the Q,
    K, A, T, J in that order. Without a branch: pimc's lanes ask it too."""
    plain = m & ~((1 << TEN) | (1 << QUEEN) | (1 << KING) | (1 << ACE) | (1 << JACK))
    r = JACK
    r = TEN if (m >> TEN) & 1 else r
    r = ACE if (m >> ACE) & 1 else r
    r = KING if (m >> KING) & 1 else r
    r = QUEEN if (m >> QUEEN) & 1 else r
    return lowest(plain) if plain != 0 else r


@njit(cache=True, inline="always")
def top_equal(v, suit):
    """The lowest of this seat's cards equal to its best in ``suit`` given what is out, or -1
    when its best is not the highest card still out."""
    return _top_equal(v, suit, v.own.bits[suit], outstanding(v, suit))


@njit(cache=True, inline="always")
def _top_equal(v, suit, held, unseen):
    """:func:`top_equal` with the seat's cards of ``suit`` and those out given (rank masks)."""
    r = top_rank(held, unseen, v.table.rules[R_KIND] == SCOTCH and suit == v.trump)
    return suit * 13 + r if r >= 0 else -1


@njit(cache=True, inline="always")
def top_rank(held, unseen, jack_high):
    """The rank of the lowest of the cards ``held`` equal to their best given the cards
    ``unseen`` (rank masks of one suit), or -1 when a higher card is unseen (or none is held).
    ``jack_high``: Scotch trumps, the Jack above the Ace, and never the Ten where a higher equal
    card will do. Without a branch: pimc's lanes ask it too."""
    mine = to_power_mask(held, jack_high, True)
    out = to_power_mask(unseen, jack_high, True)
    h = highest(mine)
    # Down from the best while the next lower card is ours and not out: a sequence. It ends
    # just above the highest card below the best that is not ours or is out (highest(0) is -1).
    p = highest((~mine | out) & ((np.int64(1) << h) - 1)) + 1
    up = lowest(mine & ~((np.int64(2) << TEN) - 1))  # the next of its cards above the Ten
    p = up if jack_high & (p == TEN) & (p != h) else p
    return from_power(p) if (held != 0) & ((out == 0) | (highest(out) < h)) else -1


@njit(cache=True, inline="always")
def discard(v):
    """The lowest plain card, from the longest plain suit on ties; else the cheapest trump."""
    b = v.own.bits
    c = plain_discard(b[0], b[1], b[2], b[3], v.trump)
    return c if c >= 0 else low(v, v.trump)


@njit(cache=True, inline="always")
def plain_discard(m0, m1, m2, m3, trump):
    """:func:`discard`'s card among the plain suits (rank masks ``m0`` to ``m3``), -1 when none is
    held. One key per suit, the least wins: its lowest rank, then the longer suit, then the first
    suit; a minimum of four, not a branch per suit (which suit wins is data, mispredicted)."""
    none = 1 << 12
    best = none
    for suit, m in enumerate((m0, m1, m2, m3)):
        key = (lowest(m) << 6) | ((15 - popcount(m)) << 2) | suit
        best = min(best, none if (suit == trump) | (m == 0) else key)
    return (best & 3) * 13 + (best >> 6) if best < none else -1


@njit(cache=True, inline="always")
def trick_points(v):
    """Counting points already in the trick."""
    t = v.table
    if t.rules[R_KIND] != SCOTCH:
        return 0
    n = 0
    for i in range(v.trick_len):
        n += counting(v, t.trick_card[i])
    return n


@njit(cache=True)
def _partner_sure(v, best_card, last):
    """Is the card winning the trick sure to win it? (Last to play, or nothing out beats it
    and no one left to play has shown out of the suit led.)"""
    if last:
        return True
    suit = best_card // 13
    out = pm(v, outstanding(v, suit), suit)
    if out != 0 and highest(out) > highest(pm(v, 1 << (best_card % 13), suit)):
        return False
    if suit != v.trump and pm(v, outstanding(v, v.trump), v.trump) != 0:
        p = v.players
        q = v.seat
        for _ in range(p - 1 - v.trick_len):
            q = q + 1 if q + 1 < p else 0
            if v.table.void[q, v.led]:
                return False
    return True


@njit(cache=True)
def _ruff_instead(v, bp, partner_sure):
    """The lowest trump that takes a plain-suit trick this seat cannot win by following, with the
    chance ``revoke``; -1 to follow suit (partner wins it, following wins it, no trump wins it)."""
    own = v.own
    trump = v.trump
    if partner_sure:
        return -1
    if bp < 64 and pm(v, own.bits[v.led], v.led) & ~((2 << bp) - 1):
        return -1  # a card of the suit led wins it
    over = pm(v, own.bits[trump], trump)
    if bp >= 64:
        over &= ~((2 << (bp - 64)) - 1)
    if over == 0:
        return -1
    p = own.params[4]
    if p < 1.0 and uniform(own.rng, 0) >= p:
        return -1
    return card_of(v, trump, lowest(over))


@njit(cache=True)
def _follow(v):
    c = _follow_card(v)
    if c == LOW_LED:
        return low(v, v.led)
    if c == DISCARD:
        return discard(v)
    return c


@njit(cache=True, inline="always")
def _follow_card(v):
    """:func:`_follow`'s card, or ``LOW_LED`` or ``DISCARD`` for :func:`low` of the suit led or
    :func:`discard`, played by :func:`_follow`: each inlined once there, not at every answer."""
    own = v.own
    t = v.table
    trump = v.trump
    led = v.led
    scotch = t.rules[R_KIND] == SCOTCH
    bp = t.s[S_BEST_POWER]
    has_ten = scotch and (own.bits[trump] >> TEN) & 1
    give_ten = own.params[2] > 0.5
    mine = own.bits[led]
    # Cards that beat the best so far (none once a plain suit is trumped):
    cur = bp - 64 if led == trump else bp
    wins = 0 if bp >= 64 and led != trump else pm(v, mine, led) & ~((2 << cur) - 1)
    ten_in = has_ten and led == trump and give_ten
    ruffs = mine != 0 and own.params[4] > 0 and t.rules[R_REVOKES] and led != trump
    # Answered before the trick's winner is read: the commonest follows, and cheap.
    if mine != 0 and wins == 0 and not ten_in and not ruffs:
        return LOW_LED  # cannot win it: low, whoever takes it
    if mine == 0 and own.bits[trump] == 0:
        return DISCARD  # void, no trumps
    p = v.players
    last = v.trick_len == p - 1
    best_i = t.s[S_BEST]
    best_card = t.trick_card[best_i]
    partner = t.team[t.trick_seat[best_i]] == t.team[v.seat]
    ten = trump * 13 + TEN
    if ruffs:
        c = _ruff_instead(v, bp, partner and _partner_sure(v, best_card, last))
        if c >= 0:
            return c
    # place_left: the left-hand opponent's winning card is left to win; ten_only: a plain trick is
    # won only to catch the Ten
    left_wins = scotch and own.params[P_PLACE_LEFT] > 0.5 and _left_wins(v, best_i) and _tenace(v)
    plain_only = scotch and own.params[P_TEN_ONLY] > 0.5 and led != trump and not _ten_in_trick(v)
    if mine != 0:
        # Following suit.
        if wins == 0 and not ten_in:
            return LOW_LED  # cannot win it (after a revoke not made)
        if left_wins or plain_only:
            return LOW_LED
        if partner and _partner_sure(v, best_card, last):
            return ten if ten_in else LOW_LED  # the Ten into partner's hand
        if wins == 0:
            return LOW_LED
        if last:
            w = card_of(v, led, lowest(wins))
            return w
        at_stake = trick_points(v)
        if v.trick_len == 1 and at_stake == 0:
            return LOW_LED  # second hand low
        if scotch and own.params[1] > 0.5 and at_stake == 0 and _tenace(v):
            return LOW_LED  # keep off the lead
        if partner and (best_card // 13 != led or best_card % 13 >= JACK):
            return LOW_LED  # partner's trump or high card: no need to overtake
        sure = top_equal(v, led)
        if sure >= 0:
            return sure
        h = highest(wins)
        if scotch and led == trump and h == TEN:
            rest = wins & ~(1 << TEN)
            if rest == 0:
                return LOW_LED  # do not offer the Ten to be caught
            h = highest(rest)
        return card_of(v, led, h)  # third hand high
    # Void in the suit led (so not trumps when it holds any: a trump lead finds it without),
    # holding trumps.
    tm = own.bits[trump]
    if partner and _partner_sure(v, best_card, last):
        if has_ten and give_ten:
            return ten
        return DISCARD
    if left_wins:
        return DISCARD
    tp = pm(v, tm, trump)
    if bp >= 64:
        over = tp & ~((2 << (bp - 64)) - 1)
        if over == 0:
            return DISCARD
        if has_ten and last and (pm(v, 1 << TEN, trump) & over):
            return ten  # save the Ten by trumping in last
        if plain_only:
            return DISCARD
        return card_of(v, trump, lowest(over))
    if has_ten and last:
        return ten
    if plain_only:
        return DISCARD
    c = low(v, trump)
    if c == ten and not last:
        return DISCARD
    return c


@njit(cache=True, inline="always")
def _tenace(v):
    """J K without the A, or A Q without the K, of trumps."""
    return tenace_held(v.own.bits[v.trump])


@njit(cache=True, inline="always")
def tenace_held(m):
    """:func:`_tenace` of the trump ranks ``m``, without a branch: pimc's lanes ask it too."""
    j = (m >> JACK) & 1
    a = (m >> ACE) & 1
    k = (m >> KING) & 1
    q = (m >> QUEEN) & 1
    return ((j & k & (1 - a)) | (a & q & (1 - k))) != 0


@njit(cache=True, inline="always")
def _left_wins(v, best_i):
    """The card winning the trick so far is the left-hand opponent's."""
    t = v.table
    left = v.seat + 1 if v.seat + 1 < v.players else 0
    return t.trick_seat[best_i] == left and t.team[left] != t.team[v.seat]


@njit(cache=True, inline="always")
def _ten_in_trick(v):
    """The Ten of trumps is in the trick so far."""
    ten = v.trump * 13 + TEN
    for i in range(v.trick_len):
        if v.table.trick_card[i] == ten:
            return True
    return False


@njit(cache=True)
def _lead_left(v):
    """``place_left``'s lead: the lowest card of a plain suit whose top card out is not this seat's,
    first one the left-hand opponent has shown out of (it may trump) while no partner has, else the
    one with the most cards out above this seat's best; -1 when no plain suit is so."""
    own = v.own
    t = v.table
    trump = v.trump
    seat = v.seat
    p = v.players
    left = seat + 1 if seat + 1 < p else 0
    if t.team[left] == t.team[seat]:
        return -1
    trumps_out = outstanding(v, trump) != 0
    best = -1
    best_score = -1
    for suit in range(4):
        held = own.bits[suit]
        if suit == trump or held == 0:
            continue
        out = outstanding(v, suit)
        if _top_equal(v, suit, held, out) >= 0:
            continue  # its best card is the top one out: it would win the trick
        score = popcount(pm(v, out, suit) & ~((2 << highest(pm(v, held, suit))) - 1))
        if trumps_out and t.void[left, suit]:
            ruffs = True
            for q in range(p):
                if q != seat and t.team[q] == t.team[seat] and t.void[q, suit]:
                    ruffs = False  # a partner out of it would trump it too
            if ruffs:
                score += 100
        if score > best_score:
            best = suit
            best_score = score
    if best < 0:
        return -1
    return best * 13 + lowest(own.bits[best])


@njit(cache=True)
def _lead(v):
    own = v.own
    t = v.table
    trump = v.trump
    scotch = t.rules[R_KIND] == SCOTCH
    tm = own.bits[trump]
    trumps_out = outstanding(v, trump) != 0
    if scotch:
        j = (tm >> JACK) & 1
        a = (tm >> ACE) & 1
        k = (tm >> KING) & 1
        led = t.leads[v.seat, trump]
        first = led == 0 and ((j and a) or (a and k))
        second = led == 1 and t.first_lead[v.seat] == trump and (a or k)  # A left of J A, K of A K
        ten_only = own.params[P_TEN_ONLY] > 0.5
        if ten_only and (outstanding(v, trump) >> TEN) & 1 and tm & COURT:
            return card_of(v, trump, highest(pm(v, tm, trump)))  # hunt the Ten from the top
        if own.params[0] > 0.5 and not ten_only and (first or second) and trumps_out:
            return card_of(v, trump, highest(pm(v, tm, trump)))  # two rounds at once
    elif popcount(tm) >= own.params[3] and trumps_out:
        sure = top_equal(v, trump)
        return sure if sure >= 0 else trump * 13 + lowest(tm)  # draw trumps
    if not scotch:
        partner = v.seat + 2 if v.seat + 2 < 4 else v.seat - 2
        ps = t.first_lead[partner]
        if ps >= 0 and ps != trump and own.bits[ps] != 0:
            m = own.bits[ps]
            return ps * 13 + (highest(m) if popcount(m) <= 2 else lowest(m))  # return partner's lead
    if scotch and own.params[P_PLACE_LEFT] > 0.5 and _tenace(v):
        c = _lead_left(v)
        if c >= 0:
            return c
    # keep off the lead with a tenace; ten_only never cashes a plain winner either
    keep_off = scotch and ((own.params[1] > 0.5 and _tenace(v)) or own.params[P_TEN_ONLY] > 0.5)
    longest = -1
    n_long = 0
    for suit in range(4):
        held = own.bits[suit]
        if suit == trump or held == 0:
            continue
        if not keep_off:
            out = outstanding(v, suit)
            if out != 0:
                sure = _top_equal(v, suit, held, out)
                if sure >= 0:
                    return sure  # cash a winner: cards count too
        n = popcount(held)
        if n > n_long:
            longest = suit
            n_long = n
    if longest >= 0:
        return longest * 13 + lowest(own.bits[longest])
    return low(v, trump)


@njit(cache=True)
def decide(v):
    if v.led >= 0:
        return _follow(v)
    return _lead(v)


@njit(cache=True, inline="always")
def no_choice(v):
    """With one card of the suit led, or one card left, that card; else -1."""
    own = v.own
    led = v.led
    m = own.bits[led] if led >= 0 else 0
    if m != 0 and m & (m - 1) == 0:
        return led * 13 + lowest(m)
    if own.n == 1:
        return only_card(own)
    return -1


@njit(cache=True, inline="always")
def choose(v):
    """:func:`decide` for a seat that cannot revoke (revokes not allowed, or ``revoke`` 0), as the
    own loops ask it: when no choice is left (:func:`no_choice`) that card, without asking (and no
    random number is drawn)."""
    c = no_choice(v)
    if c >= 0:
        return c
    return decide(v)


@njit(cache=True, inline="always")
def choose_inlined(v):
    """:func:`choose` with :func:`decide`'s follow and lead compiled into the caller (``inlined``),
    for pimc's play-outs, which ask the heuristic for most of their cards: no call passes the view
    on the stack or spills the loop's registers around it."""
    c = no_choice(v)
    if c >= 0:
        return c
    if v.led >= 0:
        return inlined(_follow, v)
    return inlined(_lead, v)
