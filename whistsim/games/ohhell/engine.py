"""The rules of Oh Hell, once, in Numba: deal, turn-up, bids and the hook, follow suit,
the trick's winner, a round's score, the next round, the end of the game.

A game is a schedule of rounds (hands of a given size), the deal passing to the left.
Every round's hands are dealt before play (:func:`deal_round`, into ``g.hands``), so that
simulation, replay and ``show`` all play a game through the same calls: read who owes a
move (``c.table.s[S_SEAT]``), :func:`check` it (0 or why it is illegal) and :func:`apply`
it. A move is a bid (``BID_BASE + n``) or a card (its code, 0..51).

The round being played is one record (``ROUND_DTYPE``): its ``table`` is what every
player sees, each seat's record its own hand, strategy and random stream. A strategy
gets an :data:`OhView`: the table, its own record and a scratch round it may deal and
play out (search players), nothing else. Hands are per-suit rank masks, as in the
dealt games.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ...core.strategy import MAX_PARAMS
from ...harness import events as ev
from ...harness.events import EVENT_FIELDS, emit

MAX_PLAYERS = 7
MAX_ROUNDS = 64
BID_BASE = 64  # a bid of n is the action BID_BASE + n (cards are 0..51)

SCORINGS = ("ten_plus_bid", "trick_plus_ten", "minus_difference")
TEN_PLUS_BID, TRICK_PLUS_TEN, MINUS_DIFFERENCE = range(3)
MADE_BONUS = 10

# Positions of the rules in the int64 array the kernels read.
R_PLAYERS, R_ROUNDS, R_HOOK, R_SCORING, R_PER_TRICK, R_SUITS, R_RANKS, R_CARDS = range(8)
N_RULES = 8

BID, PLAY, DONE, OVER = range(4)  # S_PHASE: bidding, playing, the round scored, the game over

OK, E_OVER, E_BID_OWED, E_BAD_BID, E_HOOK, E_CARD_OWED, E_NOT_A_CARD, E_NOT_HELD, E_MUST_FOLLOW = range(9)
ENGINE_ERRORS = {
    E_OVER: "the game is over",
    E_BID_OWED: "a bid is owed, not a card",
    E_BAD_BID: "a bid must be from 0 to the number of cards in the hand",
    E_HOOK: "the hook: the dealer may not bid so that the bids add up to the number of tricks",
    E_CARD_OWED: "a card is owed, not a bid",
    E_NOT_A_CARD: "not a card",
    E_NOT_HELD: "the player does not hold that card",
    E_MUST_FOLLOW: "the player can follow suit",
}

# Public scalars, positions in c.table.s.
(
    S_PHASE,
    S_SEAT,  # who owes the next move
    S_DEALER,
    S_FIRST_DEALER,  # the dealer of the game's first round
    S_ROUND,  # rounds played before this one
    S_HAND,  # cards in each hand this round (= tricks)
    S_TRUMP,  # trump suit, -1: no trump
    S_TURNUP,  # the card turned for trump, -1: none
    S_BIDS_N,  # bids made this round
    S_BID_SUM,
    S_LED,  # suit led to the current trick, -1 before the lead
    S_TRICK_LEN,
    S_BEST,  # index in the trick of the card winning so far
    S_BEST_POWER,
    S_LEADER,
    S_TRICK,  # tricks completed this round
    S_WINNER,  # winner of the last trick
) = range(17)
N_SCALARS = 17

# Per-seat game totals (g.seat_acc rows) and per-game ones (g.game_acc): the batch's columns.
SEAT_COLUMNS = ("points", "made", "tricks", "bids")
A_POINTS, A_MADE, A_TRICKS, A_BIDS = range(4)
GAME_COLUMNS = ("first", "moves", "rounds", "bids_over", "bids_under", "bids_exact", "dealer_points")
G_FIRST, G_MOVES, G_ROUNDS, G_OVER, G_UNDER, G_EXACT, G_DEALER_POINTS = range(7)

TABLE_DTYPE = np.dtype(
    [
        ("rules", np.int64, (N_RULES,)),
        ("s", np.int64, (N_SCALARS,)),
        ("pack", np.int64, (4,)),  # the pack's cards per suit (rank masks)
        ("bids", np.int64, (MAX_PLAYERS,)),  # -1: not yet bid
        ("tricks", np.int64, (MAX_PLAYERS,)),  # taken this round
        ("hand_n", np.int64, (MAX_PLAYERS,)),  # cards left in each hand
        ("played", np.int64, (4,)),  # cards played this round, per suit
        ("trick_card", np.int64, (MAX_PLAYERS,)),  # the current trick (kept after it is won)
        ("trick_seat", np.int64, (MAX_PLAYERS,)),
        ("void", np.int8, (MAX_PLAYERS, 4)),  # showed out of the suit this round
        ("round_points", np.int64, (MAX_PLAYERS,)),  # the last round scored
        ("score", np.int64, (MAX_PLAYERS,)),  # the game's points so far
    ],
    align=True,
)
SEAT_DTYPE = np.dtype(
    [
        ("bits", np.int64, (4,)),  # the hand
        ("n", np.int64),
        ("strategy", np.int64),
        ("params", np.float64, (MAX_PARAMS,)),
        ("rng", np.uint64, (1,)),
    ],
    align=True,
)
ROUND_DTYPE = np.dtype(
    [("table", TABLE_DTYPE), ("seats", SEAT_DTYPE, (MAX_PLAYERS,)), *EVENT_FIELDS], align=True
)
STATE_DTYPE = np.dtype(
    [
        ("round", ROUND_DTYPE),  # the round being played
        ("scratch", ROUND_DTYPE),  # for search players
        ("sizes", np.int64, (MAX_ROUNDS,)),  # the schedule: cards per hand in each round
        ("no_trump", np.int8, (MAX_ROUNDS,)),  # rounds played without trumps by rule
        ("hands", np.int64, (MAX_ROUNDS, MAX_PLAYERS, 4)),  # every round's hands, dealt
        ("turnups", np.int64, (MAX_ROUNDS,)),  # every round's turned card, -1: none
        ("deck", np.int8, (52,)),
        ("rng", np.uint64, (1,)),  # the deals' stream
        ("ahead", np.uint64, (MAX_PLAYERS, 2)),  # the seats' streams a number ahead, in the own loop
        ("seat_acc", np.int64, (len(SEAT_COLUMNS), MAX_PLAYERS)),
        ("game_acc", np.int64, (len(GAME_COLUMNS),)),
    ],
    align=True,
)

OhView = namedtuple(
    "OhView",
    [
        "seat",
        "table",  # the public record (TABLE_DTYPE)
        "own",  # this seat's record (SEAT_DTYPE): hand, params, rng
        "scratch",  # a ROUND_DTYPE record a search player may deal and play out
    ],
)


@njit(cache=True, inline="always")
def seat_view(c, seat, scratch):
    return OhView(seat, c.table, c.seats[seat], scratch)


# ---- cards ---------------------------------------------------------------


@njit(cache=True, inline="always")
def power(card, trump, led):
    """A card's power in a trick led in ``led``: trumps above the suit led; -1 cannot win."""
    suit = card // 13
    return suit_power(suit, card - 13 * suit, trump, led)


@njit(cache=True, inline="always")
def suit_power(suit, rank, trump, led):
    """:func:`power` of the card of ``rank`` in ``suit``."""
    if suit == trump:
        return 64 + rank
    if suit == led:
        return rank
    return -1


# ---- dealing -------------------------------------------------------------


@njit(cache=True)
def deal_round(g, k, deck, dealer):
    """Deal round ``k`` from the shuffled ``deck`` (top first), one card at a time from the
    dealer's left; the next card is turned for trump, unless none is left or the round is
    played without trumps by rule."""
    p = g.round.table.rules[R_PLAYERS]
    n = g.sizes[k]
    for q in range(p, MAX_PLAYERS):
        for suit in range(4):
            g.hands[k, q, suit] = 0
    # Card j goes to the (j % p)-th seat from the dealer's left: each hand gathered as one mask
    # (bit = card code) and split by suit; a read-modify-write of the hand per card cost more
    # than the shuffle. The seat by a test, not %, and a while loop: LLVM vectorized the strided
    # range into gathers that cost more than the 48 cards' shifts.
    q = dealer
    for j in range(p):
        q = q + 1 if q + 1 < p else 0
        m = np.int64(0)
        x = j
        while x < p * n:
            m |= np.int64(1) << np.int64(deck[x])
            x += p
        for suit in range(4):
            g.hands[k, q, suit] = (m >> np.int64(13 * suit)) & 0x1FFF
    g.turnups[k] = -1 if g.no_trump[k] or p * n >= deck.shape[0] else deck[p * n]


@njit(cache=True)
def start_round(g, k):
    """Round ``k``: the players take up their hands; the dealer's left bids first."""
    c = g.round
    t = c.table
    s = t.s
    p = t.rules[R_PLAYERS]
    dealer = (s[S_FIRST_DEALER] + k) % p
    s[S_ROUND] = k
    s[S_PHASE] = BID
    s[S_DEALER] = dealer
    s[S_HAND] = g.sizes[k]
    s[S_TURNUP] = g.turnups[k]
    s[S_TRUMP] = g.turnups[k] // 13 if g.turnups[k] >= 0 else -1
    s[S_BIDS_N] = 0
    s[S_BID_SUM] = 0
    s[S_LED] = -1
    s[S_TRICK_LEN] = 0
    s[S_BEST] = 0
    s[S_BEST_POWER] = -1
    s[S_TRICK] = 0
    s[S_WINNER] = -1
    elder = dealer + 1 if dealer + 1 < p else 0
    s[S_SEAT] = elder
    s[S_LEADER] = elder
    for q in range(p):
        own = c.seats[q]
        for suit in range(4):
            own.bits[suit] = g.hands[k, q, suit]
            t.void[q, suit] = 0
        own.n = g.sizes[k]
        t.hand_n[q] = g.sizes[k]
        t.bids[q] = -1
        t.tricks[q] = 0
        t.trick_card[q] = -1
        t.trick_seat[q] = -1
    for suit in range(4):
        t.played[suit] = 0
    emit(c, ev.SET, elder, k, 0)


@njit(cache=True)
def start_game(g, first):
    """A fresh game whose first round is dealt by the seat on ``first``'s right."""
    t = g.round.table
    p = t.rules[R_PLAYERS]
    for j in range(len(SEAT_COLUMNS)):
        for q in range(MAX_PLAYERS):
            g.seat_acc[j, q] = 0
    for j in range(len(GAME_COLUMNS)):
        g.game_acc[j] = 0
    for q in range(MAX_PLAYERS):
        t.score[q] = 0
        t.round_points[q] = 0
    t.s[S_FIRST_DEALER] = first - 1 if first > 0 else p - 1
    g.game_acc[G_FIRST] = first
    start_round(g, np.int64(0))


# ---- legality ------------------------------------------------------------


@njit(cache=True, inline="always")
def hooked_bid(t):
    """The bid the hook forbids the bidder to move, or -1: only the last bidder (the dealer) is
    bound, and may not make the bids add up to the number of tricks."""
    p = t.rules[R_PLAYERS]
    if t.rules[R_HOOK] != 0 and t.s[S_BIDS_N] == p - 1:
        return t.s[S_HAND] - t.s[S_BID_SUM]  # below 0 when the bids are already over: none
    return -1


@njit(cache=True, inline="always")
def hooked(t, bid):
    """Does the hook forbid this bid (0 or more)?"""
    return bid == hooked_bid(t)


@njit(cache=True)
def check(c, a):
    """0 if the seat to move may make move ``a``, else an error code."""
    t = c.table
    s = t.s
    phase = s[S_PHASE]
    if phase >= DONE:
        return E_OVER
    if phase == BID:
        if 0 <= a < 52:
            return E_BID_OWED
        bid = a - BID_BASE
        if bid < 0 or bid > s[S_HAND]:
            return E_BAD_BID
        return E_HOOK if hooked(t, bid) else OK
    if a >= BID_BASE:
        return E_CARD_OWED
    if a < 0 or a >= 52:
        return E_NOT_A_CARD
    own = c.seats[s[S_SEAT]]
    suit = a // 13
    if own.bits[suit] & (np.int64(1) << np.int64(a % 13)) == 0:
        return E_NOT_HELD
    led = s[S_LED]
    if led >= 0 and suit != led and own.bits[led] != 0:
        return E_MUST_FOLLOW
    return OK


@njit(cache=True, inline="always")
def legal_mask(own, led, suit):
    """The seat's cards of ``suit`` it may play now."""
    if led < 0 or suit == led or own.bits[led] == 0:
        return own.bits[suit]
    return 0


# ---- playing a round -------------------------------------------------------


@njit(cache=True, inline="always")
def make_bid(t, seat, bid):
    """``seat`` bids ``bid`` tricks and the bidding passes left; after the last bid the dealer's
    left leads, as it bid first."""
    s = t.s
    p = t.rules[R_PLAYERS]
    t.bids[seat] = bid
    s[S_BID_SUM] += bid
    s[S_BIDS_N] += 1
    s[S_SEAT] = seat + 1 if seat + 1 < p else 0
    if s[S_BIDS_N] == p:
        s[S_PHASE] = PLAY


@njit(cache=True, inline="always")
def follow(t, seat, n, suit, rank, led, trump, best, best_power):
    """``seat`` plays the card of ``rank`` in ``suit``, the ``n``-th of a trick led in ``led``,
    ``best`` (of power ``best_power``) winning it so far: a seat that does not follow suit shows
    out of the suit led. Returns (the place in the trick of the card now winning it, that card's
    power): of equal powers the first played wins."""
    if suit != led:
        t.void[seat, led] = 1
    pw = suit_power(suit, rank, trump, led)
    if pw > best_power:
        return n, pw
    return best, best_power


@njit(cache=True, inline="always")
def to_trick(c, seat, n, suit, rank, led, trump, best, best_power):
    """``seat`` lays the card of ``rank`` in ``suit`` as the ``n``-th card of the trick: it leads
    (``n`` 0) or follows (:func:`follow`), and the card leaves the hand for the trick, without the
    counts :func:`count_card` keeps (see :func:`round_played`). The one step of a card played,
    for :func:`apply_round` and the own loop (kernels.py), which keeps the trick's running values
    in locals: given and returned as (the suit led, the place in the trick of the card winning
    it, that card's power)."""
    t = c.table
    if n == 0:
        led = suit
        best = 0
        best_power = suit_power(suit, rank, trump, suit)
    else:
        best, best_power = follow(t, seat, n, suit, rank, led, trump, best, best_power)
    c.seats[seat].bits[suit] &= ~(np.int64(1) << np.int64(rank))
    t.trick_card[n] = suit * 13 + rank
    t.trick_seat[n] = seat
    return led, best, best_power


@njit(cache=True, inline="always")
def count_card(c, seat, suit, rank):
    """The counts of a card played: the cards left in ``seat``'s hand, the cards played."""
    t = c.table
    c.seats[seat].n -= 1
    t.hand_n[seat] -= 1
    t.played[suit] |= np.int64(1) << np.int64(rank)


@njit(cache=True, inline="always")
def win_trick(t, winner):
    """The trick is counted to ``winner``: of :func:`take_trick`, the count the round's score
    reads."""
    t.tricks[winner] += 1


@njit(cache=True, inline="always")
def take_trick(c, winner):
    """The trick goes to ``winner``, who leads the next; after the round's last trick the round
    is scored and its phase is DONE."""
    t = c.table
    s = t.s
    win_trick(t, winner)
    s[S_WINNER] = winner
    s[S_TRICK] += 1
    s[S_TRICK_LEN] = 0
    s[S_LED] = -1
    s[S_SEAT] = winner
    s[S_LEADER] = winner
    if s[S_TRICK] == s[S_HAND]:
        s[S_PHASE] = DONE
        score_round(c)


@njit(cache=True)
def round_played(g, winner, best, best_power):
    """Every card of round ``S_ROUND`` laid by :func:`to_trick` and every trick but the last
    counted by :func:`win_trick`, the last won by ``winner`` (its ``best``-th card, of power
    ``best_power``): the counts :func:`count_card` keeps per card and the trick's running values
    :func:`apply_round` keeps, as its last card leaves them (every hand empty, every card dealt
    played); then the last trick taken by :func:`take_trick`, which scores the round."""
    c = g.round
    t = c.table
    s = t.s
    k = s[S_ROUND]
    p = t.rules[R_PLAYERS]
    for q in range(p):
        c.seats[q].n = 0
        t.hand_n[q] = 0
    for suit in range(4):
        m = np.int64(0)
        for q in range(p):
            m |= g.hands[k, q, suit]
        t.played[suit] = m
    s[S_BEST] = best
    s[S_BEST_POWER] = best_power
    s[S_TRICK] = s[S_HAND] - 1
    take_trick(c, winner)


@njit(cache=True)
def apply_round(c, a):
    """Make a legal move (see :func:`check`) within the round; after its last trick the
    round is scored and its phase is DONE."""
    t = c.table
    s = t.s
    p = t.rules[R_PLAYERS]
    seat = s[S_SEAT]
    if s[S_PHASE] == BID:
        make_bid(t, seat, a - BID_BASE)
        return
    suit = a // 13
    rank = a - 13 * suit
    n = s[S_TRICK_LEN]
    if n == 0:
        emit(c, ev.LEAD, seat, a, suit)
        s[S_LEADER] = seat
    else:
        emit(c, ev.FOLLOW, seat, a, 0)
    s[S_LED], s[S_BEST], s[S_BEST_POWER] = to_trick(
        c, seat, n, suit, rank, s[S_LED], s[S_TRUMP], s[S_BEST], s[S_BEST_POWER]
    )
    count_card(c, seat, suit, rank)
    if n + 1 < p:
        s[S_TRICK_LEN] = n + 1
        s[S_SEAT] = seat + 1 if seat + 1 < p else 0
        return
    winner = t.trick_seat[s[S_BEST]]
    emit(c, ev.TRICK, winner, p, 0)
    take_trick(c, winner)


@njit(cache=True, inline="always")
def bid_points(rules, bid, took):
    """One seat's points for a round: it bid ``bid`` and took ``took`` tricks."""
    per = rules[R_PER_TRICK]
    scoring = rules[R_SCORING]
    if scoring == TEN_PLUS_BID:
        return MADE_BONUS + bid if took == bid else 0
    if scoring == TRICK_PLUS_TEN:
        return per * took + (MADE_BONUS if took == bid else 0)
    return MADE_BONUS + per * bid if took == bid else -per * abs(took - bid)


@njit(cache=True)
def score_round(c):
    t = c.table
    for q in range(t.rules[R_PLAYERS]):
        t.round_points[q] = bid_points(t.rules, t.bids[q], t.tricks[q])


# ---- the game --------------------------------------------------------------


@njit(cache=True)
def _tally_round(g):
    """Add a scored round to the game's totals."""
    t = g.round.table
    s = t.s
    p = t.rules[R_PLAYERS]
    for q in range(p):
        pts = t.round_points[q]
        t.score[q] += pts
        g.seat_acc[A_POINTS, q] += pts
        g.seat_acc[A_MADE, q] += t.tricks[q] == t.bids[q]
        g.seat_acc[A_TRICKS, q] += t.tricks[q]
        g.seat_acc[A_BIDS, q] += t.bids[q]
    acc = g.game_acc
    acc[G_ROUNDS] += 1
    if s[S_BID_SUM] > s[S_HAND]:
        acc[G_OVER] += 1
    elif s[S_BID_SUM] < s[S_HAND]:
        acc[G_UNDER] += 1
    else:
        acc[G_EXACT] += 1
    acc[G_DEALER_POINTS] += t.round_points[s[S_DEALER]]


@njit(cache=True)
def next_round(g):
    """A scored round is added to the game's totals; the next round starts, or the game ends."""
    c = g.round
    _tally_round(g)
    k = c.table.s[S_ROUND] + 1
    if k < c.table.rules[R_ROUNDS]:
        start_round(g, k)
    else:
        c.table.s[S_PHASE] = OVER
        emit(c, ev.OVER, -1, 0, 0)


@njit(cache=True, inline="always")
def apply(g, a):
    """Make a legal move; a round's last card scores it and starts the next, or ends the game."""
    apply_round(g.round, a)
    if g.round.table.s[S_PHASE] == DONE:
        next_round(g)


# ---- copies, for search players ------------------------------------------


@njit(cache=True)
def copy_table(dst, src):
    """Copy a public record field by field (Numba cannot assign whole records)."""
    for k in range(N_RULES):
        dst.rules[k] = src.rules[k]
    for k in range(N_SCALARS):
        dst.s[k] = src.s[k]
    for suit in range(4):
        dst.pack[suit] = src.pack[suit]
        dst.played[suit] = src.played[suit]
    for q in range(MAX_PLAYERS):
        dst.bids[q] = src.bids[q]
        dst.tricks[q] = src.tricks[q]
        dst.hand_n[q] = src.hand_n[q]
        dst.trick_card[q] = src.trick_card[q]
        dst.trick_seat[q] = src.trick_seat[q]
        dst.round_points[q] = src.round_points[q]
        dst.score[q] = src.score[q]
        for suit in range(4):
            dst.void[q, suit] = src.void[q, suit]
