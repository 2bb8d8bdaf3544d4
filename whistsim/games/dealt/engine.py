"""The rules of the dealt games (Scotch Whist, French Whist, Whist), once, in Numba.

Both games deal the whole pack one card at a time from the dealer's left,
turn the dealer's last card for trump, make players follow suit when able and
let the winner of a trick lead the next. A deal is played through the same
calls by the batch kernel, by replay and by ``show``: read who plays next
(``c.table.s[S_SEAT]``), :func:`check` a card (0 or why it is illegal) and
:func:`apply` it. At the end of the deal ``c.result`` holds its score.

The state of a deal is one numpy record (``CORE_DTYPE``) whose nested arrays
carry no reference counts. Its ``table`` is what every player sees; each
seat's record (``seats[q]``) is that seat's hand, strategy and random stream;
the rest (hands of sets not yet taken up, the revokes) is hidden. A strategy
gets a :class:`DealtView`: the table, its own record and a scratch deal it may
play out (search players), nothing else.

Hands are per-suit rank masks: ``bits[suit]`` has bit ``rank`` set (rank 0..12
is 2..A), so following suit, winning and sampling are a few bit operations.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ...core.bits import lowest
from ...core.cards import ACE, JACK, KING, QUEEN, TEN
from ...core.rng import next_u64
from ...core.strategy import MAX_PARAMS
from ...harness import events as ev
from ...harness.events import EVENT_FIELDS, emit
from .rules import (
    CLAIM_ONE,
    MAX_PLAYERS,
    N_RULES,
    R_ASIDE,
    R_CLAIM,
    R_DEDUCT,
    R_FRENCH,
    R_HAND,
    R_HONOURS,
    R_KIND,
    R_LOSS,
    R_PENALTY,
    R_PLAYERS,
    R_REVOKES,
    R_SETS,
    R_TARGET,
    R_TEAMS,
    SCOTCH,
)

MAX_TEAMS = 8
MAX_SETS = 3
MAX_REVOKES = 52  # at most one per card played
DIAMONDS = 1

PLAY, OVER = 0, 1

# Why a play is illegal (0: it is legal).
OK, E_OVER, E_NOT_A_CARD, E_NOT_HELD, E_MUST_FOLLOW = range(5)
ENGINE_ERRORS = {
    E_OVER: "the deal is over",
    E_NOT_A_CARD: "not a card",
    E_NOT_HELD: "the player does not hold that card",
    E_MUST_FOLLOW: "the player can follow suit, and revokes are not allowed",
}

# Public scalars, positions in c.table.s.
(
    S_PHASE,
    S_SEAT,  # who plays next
    S_LEADER,  # leader of the current (or last) trick
    S_LED,  # suit led to the current trick, -1 before the lead
    S_TRICK_LEN,
    S_BEST,  # index in the trick of the card winning so far
    S_BEST_POWER,
    S_ALL_FOLLOWED,  # everyone so far followed the suit led
    S_TRUMP,  # trump suit
    S_TURNUP,  # the turned card, in the dealer's hand of the last set
    S_ASIDE_CARD,  # the card shown and laid aside, or -1
    S_DEALER,
    S_SET,  # the set of hands being played
    S_TRICK,  # tricks completed in the deal
    S_SET_TRICK,  # tricks completed in the set
    S_WINNER,  # winner of the last completed trick
    S_ROUND_TWICE,  # a plain suit went round (everyone followed) twice in one set
    S_DEAL,  # deals played before this one in the game
) = range(18)
N_SCALARS = 18

# Scotch Whist's counting cards, once: what each trump won in tricks counts (by rank, 2..A; the
# harness's deal constraints get this table in their program), and French Whist's ten of diamonds.
TRUMP_POINTS = np.zeros(13, np.int64)
TRUMP_POINTS[[JACK, TEN, ACE, KING, QUEEN]] = 11, 10, 4, 3, 2
FRENCH_TEN_POINTS = 10
TRUMP_POINTS.flags.writeable = False
JACK_POINTS, ACE_POINTS, KING_POINTS, QUEEN_POINTS, TEN_POINTS = (
    int(TRUMP_POINTS[r]) for r in (JACK, ACE, KING, QUEEN, TEN)
)

# Rows of c.result: the score of a finished deal, per side.
(
    P_HONOURS,  # Scotch: trump honours (and French ten of diamonds) won; Whist: honours held
    P_CARDS,  # Scotch: cards taken above the number dealt
    P_POINTS,
    P_TRICKS,
    P_TRICK_POINTS,  # Whist: tricks above six
    P_PENALTY,  # Whist: revoke penalties received
    P_TEN,  # Scotch count-out parts: the Ten of trumps,
    P_TEN_DIAMONDS,  # the French ten of diamonds when diamonds are not trumps,
    P_ACE,  # then A, K, Q of trumps
    P_KING,
    P_QUEEN,
    P_JACK,
    P_TEN_DEALT,  # Scotch: 1 for the side the Ten of trumps was dealt to
) = range(13)
N_PARTS = 13

TABLE_DTYPE = np.dtype(
    [
        ("rules", np.int64, (N_RULES,)),
        ("team", np.int8, (MAX_PLAYERS,)),  # side of each seat
        ("score", np.int64, (MAX_TEAMS,)),  # game score before this deal
        ("hand_n", np.int8, (MAX_PLAYERS,)),  # cards left in the current hand
        ("trick_card", np.int8, (MAX_PLAYERS,)),  # the current trick (kept after it is won)
        ("trick_seat", np.int8, (MAX_PLAYERS,)),
        ("played", np.int64, (4,)),  # cards played in the deal, per suit
        ("won_bits", np.int64, (MAX_PLAYERS, 4)),  # cards taken in tricks, per seat and suit
        ("won_n", np.int16, (MAX_PLAYERS,)),
        ("tricks", np.int16, (MAX_PLAYERS,)),
        ("void", np.int8, (MAX_PLAYERS, 4)),  # showed out of the suit in this set
        ("leads", np.int8, (MAX_PLAYERS, 4)),  # tricks led per seat and suit in this deal
        ("first_lead", np.int8, (MAX_PLAYERS,)),  # suit of the seat's first lead, -1
        ("rounds", np.int8, (4,)),  # times each suit went round in this set
        ("s", np.int64, (N_SCALARS,)),
    ],
    align=True,
)

SEAT_DTYPE = np.dtype(
    [
        ("bits", np.int64, (4,)),  # the current hand
        ("n", np.int64),
        ("strategy", np.int64),
        ("params", np.float64, (MAX_PARAMS,)),
        ("rng", np.uint64, (1,)),
    ],
    align=True,
)

CORE_DTYPE = np.dtype(
    [
        ("table", TABLE_DTYPE),
        ("seats", SEAT_DTYPE, (MAX_PLAYERS,)),
        ("sets", np.int64, (MAX_SETS, MAX_PLAYERS, 4)),  # every hand dealt
        ("dealt", np.int64, (MAX_PLAYERS, 4)),  # all cards dealt to each seat
        ("revokes", np.int16, (MAX_REVOKES, 2)),  # (seat, trick index)
        ("n_revokes", np.int64),
        ("result", np.int64, (N_PARTS, MAX_TEAMS)),
        *EVENT_FIELDS,  # what each play made happen, when asked (harness.events)
    ],
    align=True,
)

DealtView = namedtuple(
    "DealtView",
    [
        "seat",
        "players",
        "trump",
        "led",  # suit led, -1 when this seat leads
        "trick_len",  # cards already in the trick: the seat plays (trick_len + 1)-th
        "table",  # the public record (TABLE_DTYPE)
        "own",  # this seat's record (SEAT_DTYPE): hand, params, rng
        "scratch",  # a CORE_DTYPE record a search player may deal and play out
    ],
)


@njit(cache=True, inline="always")
def seat_view(c, seat, scratch):
    t = c.table
    return DealtView(
        seat, t.rules[R_PLAYERS], t.s[S_TRUMP], t.s[S_LED], t.s[S_TRICK_LEN], t, c.seats[seat], scratch
    )


# ---- cards ---------------------------------------------------------------


@njit(cache=True, inline="always")
def rank_power(rank, trump_suit, scotch):
    """Order within one suit: Scotch trumps rank J A K Q T 9 8 7 6."""
    if scotch and trump_suit and rank == JACK:
        return 13
    return rank


@njit(cache=True, inline="always")
def power(card, trump, led, scotch):
    """Trick-taking power of a card played to a trick led in ``led``; -1 cannot win."""
    suit = card // 13
    return suit_power(suit, card - 13 * suit, trump, led, scotch)


@njit(cache=True, inline="always")
def suit_power(suit, r, trump, led, scotch):
    """:func:`power` of the card of rank ``r`` in ``suit``."""
    if suit == trump:
        return 64 + rank_power(r, True, scotch)
    if suit == led:
        return r
    return -1


@njit(cache=True, inline="always")
def to_power_mask(mask, trump_suit, scotch):
    """A rank mask with the Scotch trump Jack moved above the Ace (bit 13)."""
    if scotch and trump_suit:
        return (mask & ~(1 << JACK)) | (((mask >> JACK) & 1) << 13)
    return mask


@njit(cache=True, inline="always")
def from_power(p):
    """The rank at power-mask bit ``p`` (bit 13 is the Scotch trump Jack)."""
    return JACK if p == 13 else p


# ---- dealing -------------------------------------------------------------


@njit(cache=True)
def deal_from_deck(c, deck, dealer):
    """Deal ``deck`` (top first) one card at a time from the dealer's left, set by set.

    The last card dealt, the dealer's, is the turn-up; with ``R_ASIDE`` the next
    card is shown and laid aside.
    """
    r = c.table.rules
    p = r[R_PLAYERS]
    hand = r[R_HAND]
    per_set = p * hand
    for k in range(r[R_SETS]):
        for j in range(p):
            # the j-th card of each round goes to the j-th seat from the dealer's left;
            # a hand is gathered as one 52-bit mask (bit = card), then split by suit
            q = dealer + 1 + j
            q = q - p if q >= p else q
            m = 0
            for x in range(k * per_set + j, (k + 1) * per_set, p):
                m |= np.int64(1) << np.int64(deck[x])
            for suit in range(4):
                c.sets[k, q, suit] = (m >> (13 * suit)) & 0x1FFF
    n = per_set * r[R_SETS]
    start_deal(c, dealer, deck[n - 1], deck[n] if r[R_ASIDE] else -1)


@njit(cache=True)
def start_deal(c, dealer, turnup, aside):
    """Start the deal whose hands are in ``c.sets``: the elder hand leads the first set."""
    t = c.table
    s = t.s
    p = t.rules[R_PLAYERS]
    deal = s[S_DEAL]
    for k in range(N_SCALARS):
        s[k] = 0
    s[S_DEAL] = deal
    for q in range(p):
        t.won_n[q] = 0
        t.tricks[q] = 0
        t.first_lead[q] = -1
        for suit in range(4):
            t.won_bits[q, suit] = 0
            t.leads[q, suit] = 0
            m = 0
            for k in range(t.rules[R_SETS]):
                m |= c.sets[k, q, suit]
            c.dealt[q, suit] = m
    for suit in range(4):
        t.played[suit] = 0
    c.n_revokes = 0
    s[S_PHASE] = PLAY
    s[S_DEALER] = dealer
    s[S_TRUMP] = turnup // 13
    s[S_TURNUP] = turnup
    s[S_ASIDE_CARD] = aside
    s[S_LED] = -1
    s[S_WINNER] = -1
    elder = dealer + 1 if dealer + 1 < p else 0
    s[S_SEAT] = elder
    s[S_LEADER] = elder
    load_set(c, np.int64(0))


@njit(cache=True)
def load_set(c, k):
    """The players take up their ``k``-th hands."""
    t = c.table
    p = t.rules[R_PLAYERS]
    for q in range(p):
        own = c.seats[q]
        for suit in range(4):
            own.bits[suit] = c.sets[k, q, suit]
            t.void[q, suit] = 0
        own.n = t.rules[R_HAND]
        t.hand_n[q] = t.rules[R_HAND]
    for suit in range(4):
        t.rounds[suit] = 0
    t.s[S_SET] = k
    t.s[S_SET_TRICK] = 0


# ---- legality ------------------------------------------------------------


@njit(cache=True, inline="always")
def legal_mask(own, led, suit, revokes):
    """The seat's cards of ``suit`` it may play now: follow suit when able, unless revokes are allowed."""
    if led < 0 or suit == led or revokes or own.bits[led] == 0:
        return own.bits[suit]
    return 0


@njit(cache=True, inline="always")
def check_card(own, card, led, revokes):
    """0 if a seat holding ``own`` may play ``card`` to a trick led in ``led`` (-1: it leads), else
    an error code."""
    if card < 0 or card >= 52:
        return E_NOT_A_CARD
    suit = card // 13
    if own.bits[suit] & (1 << (card - 13 * suit)) == 0:
        return E_NOT_HELD
    if legal_mask(own, led, suit, revokes) == 0:
        return E_MUST_FOLLOW
    return OK


@njit(cache=True, inline="always")
def check(c, card):
    """0 if the seat to play may play ``card``, else an error code."""
    t = c.table
    s = t.s
    if s[S_PHASE] == OVER:
        return E_OVER
    return check_card(c.seats[s[S_SEAT]], card, s[S_LED], t.rules[R_REVOKES])


# ---- the steps of a trick --------------------------------------------------
# Each rule once, as small functions over the table and the trick's running values (the card
# winning it so far, its power): :func:`apply` keeps those values in ``c.table.s``; the kernels'
# own loops (kernels.py) and pimc's play-outs keep them in locals; all play a card by :func:`to_trick`.


@njit(cache=True, inline="always")
def lead(t, seat, suit, rank, trump, scotch):
    """``seat`` leads the card of ``rank`` in ``suit``: the lead is recorded (per seat and suit, and
    the seat's first); returns the card's power, the best so far."""
    t.leads[seat, suit] += 1
    if t.first_lead[seat] < 0:
        t.first_lead[seat] = suit
    return suit_power(suit, rank, trump, suit, scotch)


@njit(cache=True, inline="always")
def follow(t, seat, i, suit, rank, led, trump, scotch, best, best_power):
    """``seat`` plays the ``i``-th card of a trick led in ``led``, ``best`` (of power ``best_power``)
    winning it so far: a seat that does not follow suit shows out of the suit led. Returns (1 if it
    followed suit, the place in the trick of the card now winning it, that card's power): of equal
    cards the first played wins."""
    # selects, not branches: whether it follows and whether it wins are the play-outs' coin tosses
    followed = np.int64(suit == led)
    t.void[seat, led] |= 1 - followed
    pw = suit_power(suit, rank, trump, led, scotch)
    wins = pw > best_power
    return followed, i if wins else best, pw if wins else best_power


@njit(cache=True, inline="always")
def to_trick(t, own, seat, i, suit, rank, led, trump, scotch, best, best_power, followed, won, upkeep):
    """``seat``, holding ``own``, plays the card of ``rank`` in ``suit`` as the ``i``-th card of
    the trick: it leads (``i`` 0) or follows (:func:`lead`, :func:`follow`), and the card leaves
    the hand for the trick. The one step of a card played, for :func:`apply` and the own loops
    (kernels.py, pimc's play-outs), which keep the trick's running values in locals: given and
    returned as (the suit led, the place in the trick of the card winning it, that card's power,
    1 while every card followed suit, the trick's cards one bit each). With ``upkeep`` the table
    also keeps the cards played and, when this card wins the trick so far, its place and power
    (the players read them)."""
    card = suit * 13 + rank
    if i == 0:
        led = suit
        best_power = lead(t, seat, suit, rank, trump, scotch)
        best = 0
        followed = 1
        won = np.int64(0)
    else:
        f, best, best_power = follow(t, seat, i, suit, rank, led, trump, scotch, best, best_power)
        followed &= f
    bit = np.int64(1) << rank
    if upkeep:
        # stored whether or not this card wins: the callers' values came from these fields
        t.s[S_BEST] = best
        t.s[S_BEST_POWER] = best_power
        t.played[suit] |= bit
    own.bits[suit] &= ~bit
    own.n -= 1
    t.trick_card[i] = card
    t.trick_seat[i] = seat
    return led, best, best_power, followed, won | (np.int64(1) << np.int64(card))


@njit(cache=True, inline="always")
def only_card(own):
    """The one card left in a hand."""
    b = own.bits
    suit = np.int64(b[1] != 0) + 2 * np.int64(b[2] != 0) + 3 * np.int64(b[3] != 0)
    return suit * 13 + lowest(b[suit])


@njit(cache=True, inline="always")
def take_trick(t, winner, won, p, led, trump, followed):
    """The trick's cards (``won``: one bit per card code) go to ``winner``; a suit led that everyone
    followed went round once more in this set. Returns 1 when that makes a plain suit go round
    twice in the set, else 0."""
    for suit in range(4):
        t.won_bits[winner, suit] |= (won >> (13 * suit)) & 0x1FFF
    t.won_n[winner] += p
    t.tricks[winner] += 1
    if followed:
        t.rounds[led] += 1
        if t.rounds[led] >= 2 and led != trump:
            return 1
    return 0


@njit(cache=True, inline="always")
def end_deal(c):
    """The last trick is taken: the deal is over and scored."""
    c.table.s[S_PHASE] = OVER
    score_deal(c)


# ---- playing -------------------------------------------------------------


@njit(cache=True)
def apply(c, card):
    """Play a legal card (see :func:`check`) and move on to the next player."""
    t = c.table
    s = t.s
    seat = s[S_SEAT]
    own = c.seats[seat]
    suit = card // 13
    n = s[S_TRICK_LEN]
    led = s[S_LED]
    if n == 0:
        emit(c, ev.LEAD, seat, card, suit)
        s[S_LEADER] = seat
    else:
        emit(c, ev.FOLLOW, seat, card, 0)
        if suit != led and own.bits[led] != 0 and c.n_revokes < MAX_REVOKES:  # it could have followed
            emit(c, ev.REVOKE, seat, s[S_TRICK], 0)
            c.revokes[c.n_revokes, 0] = seat
            c.revokes[c.n_revokes, 1] = s[S_TRICK]
            c.n_revokes += 1
    led, _, _, followed, _ = to_trick(
        t, own, seat, n, suit, card - 13 * suit, led, s[S_TRUMP], t.rules[R_KIND] == SCOTCH, s[S_BEST],
        s[S_BEST_POWER], s[S_ALL_FOLLOWED], 0, True,
    )  # fmt: skip
    s[S_LED] = led
    s[S_ALL_FOLLOWED] = followed
    t.hand_n[seat] -= 1
    p = t.rules[R_PLAYERS]
    if n + 1 < p:
        s[S_TRICK_LEN] = n + 1
        s[S_SEAT] = seat + 1 if seat + 1 < p else 0
    else:
        _settle(c, p)


@njit(cache=True)
def _settle(c, p):
    t = c.table
    s = t.s
    winner = t.trick_seat[s[S_BEST]]
    won = np.int64(0)
    for i in range(p):
        won |= np.int64(1) << np.int64(t.trick_card[i])
    if take_trick(t, winner, won, p, s[S_LED], s[S_TRUMP], s[S_ALL_FOLLOWED]):
        s[S_ROUND_TWICE] = 1
    if c.ev_on:
        worth = 0
        for k in range(2 * p):  # trumps first, then the French ten
            card = t.trick_card[k % p]
            points = card_points(card, s[S_TRUMP], t.rules)
            if points > 0 and (card // 13 == s[S_TRUMP]) == (k < p):
                emit(c, ev.COUNT, winner, card, points)
                worth += points
        emit(c, ev.TRICK, winner, p, worth)
    s[S_WINNER] = winner
    s[S_TRICK] += 1
    s[S_SET_TRICK] += 1
    s[S_TRICK_LEN] = 0
    s[S_LED] = -1
    if s[S_SET_TRICK] == t.rules[R_HAND]:
        if s[S_SET] + 1 < t.rules[R_SETS]:
            load_set(c, s[S_SET] + 1)  # the winner of a set's last trick leads the next
            emit(c, ev.SET, winner, s[S_SET], 0)
        else:
            end_deal(c)
            emit(c, ev.OVER, -1, 0, 0)
            return
    s[S_SEAT] = winner
    s[S_LEADER] = winner


# ---- scoring -------------------------------------------------------------


@njit(cache=True)
def card_points(card, trump, rules):
    """What one card counts to the side that takes it in Scotch (and French) Whist; 0 in Whist."""
    if rules[R_KIND] != SCOTCH:
        return 0
    suit, rank = card // 13, card % 13
    if suit == trump:
        return TRUMP_POINTS[rank]
    if rules[R_FRENCH] and suit == DIAMONDS and rank == TEN:
        return FRENCH_TEN_POINTS
    return 0


@njit(cache=True)
def score_deal(c):
    """The deal's score per side into ``c.result`` (docs/records.md ``result``)."""
    score_with(c, -1, 0)


@njit(cache=True, inline="always")  # one body with score_deal: no call more per deal
def score_with(c, winner, trick):
    """:func:`score_deal`, with the cards of ``trick`` (one bit per card code) counted as taken by
    seat ``winner`` (-1: none), as when the deal's last trick is still in the hands."""
    t = c.table
    r = t.rules
    p = r[R_PLAYERS]
    res = c.result
    for k in range(N_PARTS):
        for side in range(MAX_TEAMS):  # every side, the unused ones 0 anyway: one fixed-size clear
            res[k, side] = 0
    trump = t.s[S_TRUMP]
    for q in range(p):
        side = t.team[q]
        res[P_TRICKS, side] += t.tricks[q] + (q == winner)
    if r[R_KIND] == SCOTCH:
        dealt_per_seat = r[R_HAND] * r[R_SETS]
        for q in range(p):
            side = t.team[q]
            w = t.won_bits[q, trump]
            d = t.won_bits[q, DIAMONDS]
            won = t.won_n[q]
            if q == winner:
                w |= (trick >> (13 * trump)) & 0x1FFF
                d |= (trick >> (13 * DIAMONDS)) & 0x1FFF
                won += p
            res[P_CARDS, side] += won - dealt_per_seat
            res[P_JACK, side] += JACK_POINTS * ((w >> JACK) & 1)
            res[P_ACE, side] += ACE_POINTS * ((w >> ACE) & 1)
            res[P_KING, side] += KING_POINTS * ((w >> KING) & 1)
            res[P_QUEEN, side] += QUEEN_POINTS * ((w >> QUEEN) & 1)
            res[P_TEN, side] += TEN_POINTS * ((w >> TEN) & 1)
            res[P_TEN_DEALT, side] += (c.dealt[q, trump] >> TEN) & 1
            if r[R_FRENCH] and trump != DIAMONDS:
                res[P_TEN_DIAMONDS, side] += FRENCH_TEN_POINTS * ((d >> TEN) & 1)
        for side in range(r[R_TEAMS]):
            res[P_HONOURS, side] = (
                res[P_JACK, side] + res[P_ACE, side] + res[P_KING, side] + res[P_QUEEN, side]
                + res[P_TEN, side] + res[P_TEN_DIAMONDS, side]
            )  # fmt: skip
            res[P_CARDS, side] = max(0, res[P_CARDS, side])
            res[P_POINTS, side] = res[P_HONOURS, side] + res[P_CARDS, side]
    else:
        for q in range(p):
            m = c.dealt[q, trump]  # honours count as held by the side they were dealt to
            res[P_HONOURS, t.team[q]] += (
                ((m >> ACE) & 1) + ((m >> KING) & 1) + ((m >> QUEEN) & 1) + ((m >> JACK) & 1)
            )
        for i in range(c.n_revokes):
            revoker = t.team[c.revokes[i, 0]]
            for side in range(r[R_TEAMS]):
                if side != revoker:
                    res[P_PENALTY, side] += r[R_PENALTY]
        for side in range(r[R_TEAMS]):
            held = res[P_HONOURS, side]
            res[P_HONOURS, side] = 0
            if r[R_HONOURS]:
                res[P_HONOURS, side] = 4 if held == 4 else (2 if held == 3 else 0)
            res[P_TRICK_POINTS, side] = max(0, res[P_TRICKS, side] - 6)
            res[P_POINTS, side] = res[P_TRICK_POINTS, side] + res[P_HONOURS, side] + res[P_PENALTY, side]


# ---- games: revoke claims, count-out, the result ---------------------------

# Points count out in this order when several sides pass the target in one deal.
SCOTCH_ORDER = (P_TEN, P_TEN_DIAMONDS, P_CARDS, P_ACE, P_KING, P_QUEEN, P_JACK)
WHIST_ORDER = (P_PENALTY, P_TRICK_POINTS, P_HONOURS)  # the revoke, tricks, honours (by choice)


@njit(cache=True)
def claimed(rules, rng):
    """Is a revoke noticed and claimed? A draw on the claim stream ``rng``, none when the chance is one."""
    claim = rules[R_CLAIM]
    return claim >= CLAIM_ONE or (next_u64(rng, 0) >> np.uint64(11)) < np.uint64(claim)


@njit(cache=True)
def claims(c, rng):
    """The adversaries claim the finished deal's revokes, drawing on ``rng``. Scotch Whist: the
    revoker of the first claimed revoke, whose side (or, by rule, who alone) loses the game before
    the deal is scored (by choice); -1: none. Whist: each revoke's penalty as the game scores it,
    into ``c.result``: the deal's record adds it to the other side; an unclaimed revoke scores
    nothing, and ``R_DEDUCT`` takes it from the revokers instead; returns -1."""
    t = c.table
    r = t.rules
    if r[R_KIND] == SCOTCH:
        for j in range(c.n_revokes):
            if claimed(r, rng):
                return c.revokes[j, 0]
        return -1
    if c.n_revokes == 0 or (r[R_CLAIM] >= CLAIM_ONE and r[R_DEDUCT] == 0):
        return -1  # the deal's own score stands (and no claim is drawn)
    res = c.result
    pen = r[R_PENALTY]
    for j in range(c.n_revokes):
        revoker = t.team[c.revokes[j, 0]]
        was_claimed = claimed(r, rng)
        if was_claimed and r[R_DEDUCT] == 0:
            continue
        for side in range(r[R_TEAMS]):
            if side != revoker:
                res[P_PENALTY, side] -= pen
                res[P_POINTS, side] -= pen
        if was_claimed:
            res[P_PENALTY, revoker] -= pen
            res[P_POINTS, revoker] -= pen
    return -1


@njit(cache=True, inline="always")
def count_order(team, p, dealer, order):
    """The sides in count-out turn, into ``order``: in turn from the dealer's left (by choice).
    Returns how many."""
    n = 0
    q = dealer
    for _ in range(p):
        q = q + 1 if q + 1 < p else 0  # no division: this runs once per deal
        side = team[q]
        seen = False
        for i in range(n):
            if order[i] == side:
                seen = True
        if not seen:
            order[n] = side
            n += 1
    return n


@njit(cache=True, inline="always")
def add_parts(score, parts, rows, order, n, target):
    """Add ``parts[row, side]`` to ``score`` row by row (``rows``, in count-out order), within a row
    the ``n`` sides in ``order``; the side that first reaches ``target`` wins (-1: none)."""
    winner = -1
    for row in rows:
        for i in range(n):
            side = order[i]
            score[side] += parts[row, side]
            if winner < 0 and score[side] >= target:
                winner = side
    return winner


@njit(cache=True)
def count_out(c, dealer, order):
    """Add the finished deal's points to the game score in count-out order (``order``: scratch
    for the sides' turn); the side that first reaches the target wins (-1: none)."""
    t = c.table
    r = t.rules
    count_order(t.team, r[R_PLAYERS], dealer, order)
    if r[R_KIND] == SCOTCH:
        return add_parts(t.score, c.result, SCOTCH_ORDER, order, r[R_TEAMS], r[R_TARGET])
    return add_parts(t.score, c.result, WHIST_ORDER, order, r[R_TEAMS], r[R_TARGET])


@njit(cache=True)
def end_game(t, winner, revoker, side_won, seat_won, seat_lost):
    """Who won and who lost the game that ``winner`` won (-1: none) or ``revoker`` lost (-1: none):
    1 in ``side_won`` per side, ``seat_won`` and ``seat_lost`` per seat."""
    r = t.rules
    p = r[R_PLAYERS]
    if revoker >= 0:
        # The revoker's side (or, by rule, the revoker alone) pays every adversary as if beaten.
        loser_side = t.team[revoker]
        for side in range(r[R_TEAMS]):
            side_won[side] = side != loser_side
        for q in range(p):
            if t.team[q] != loser_side:
                seat_won[q] = 1
            elif q == revoker or r[R_LOSS] == 0:
                seat_lost[q] = 1
        return
    if winner < 0:
        return
    side_won[winner] = 1
    for q in range(p):
        if t.team[q] == winner:
            seat_won[q] = 1
        else:
            seat_lost[q] = 1


# ---- copies, for search players ------------------------------------------


@njit(cache=True)
def copy_table(dst, src):
    """Copy a public record field by field (Numba cannot assign whole records)."""
    for k in range(N_RULES):
        dst.rules[k] = src.rules[k]
    for k in range(N_SCALARS):
        dst.s[k] = src.s[k]
    for side in range(MAX_TEAMS):
        dst.score[side] = src.score[side]
    for q in range(MAX_PLAYERS):
        dst.team[q] = src.team[q]
        dst.hand_n[q] = src.hand_n[q]
        dst.trick_card[q] = src.trick_card[q]
        dst.trick_seat[q] = src.trick_seat[q]
        dst.won_n[q] = src.won_n[q]
        dst.tricks[q] = src.tricks[q]
        dst.first_lead[q] = src.first_lead[q]
        for suit in range(4):
            dst.won_bits[q, suit] = src.won_bits[q, suit]
            dst.void[q, suit] = src.void[q, suit]
            dst.leads[q, suit] = src.leads[q, suit]
    for suit in range(4):
        dst.played[suit] = src.played[suit]
        dst.rounds[suit] = src.rounds[suit]
