"""Welsh Whist play-outs after the stock, in lockstep: many of pimc's play-outs played at once by
``counter``, three players.

Once the stock is out, pimc's play-out policy (``playout=model``) is ``counter`` for every seat,
with no chance left in it, and most of a play-out's tricks come then. Each play-out is a lane, a
column of a 1-D array with a row per field (``LANES`` apart), and the lanes go trick by trick
together, each lane's decision made without a branch, so that the lane loops compile to vector
instructions.

The lanes keep one order of play for all: seat 0 leads, seats 1 and 2 answer; then seat 1 leads;
then seat 2. A lane whose scheduled leader holds no cards sits that trick out, as the engine's
turn order passes over a seat out of play (the next seat in play after the leader leads next,
whoever took the trick); a lane that starts with another leader waits for its turn to come round.
So every step is one seat's in all lanes. The seats' rows sit in slots by their place in the
trick (the leader's first), and move a slot after each trick: each step's rows are constants,
and each step is compiled once. A step passes over every lane, a lane with no play-out left done
(it changes nothing): a constant count, all of it in vector instructions, 512 bits wide where the
CPU has them (``core.calls.wide_vectors``), on rows that start on 64-byte lines (:func:`lanes_array`).
What a step needs only at a play-out's end (the points for the cards kept) is counted then, once.

The counting is ``common``'s, asked by both (``top_unseen_of``, ``packed_count``, ``winner_in``);
what the lanes restate as selects: the order of ``counter``'s rules for a lead (``lead_sure``, else
``lead_low``) and an answer (``follow_counting``, a seat that cannot follow passing), the trick's
winner by the engine's ``power`` (of equal cards the first played), its points by ``card_value``,
and the deal's end (the last holder keeps its cards), under standard scoring.
``tests/test_welsh_pimc_lanes.py`` holds every lane's value to the engine's own play-out.
"""

import numpy as np
from numba import njit

from ....core.bits import all_when, lowest, one_of_four
from ....core.calls import inlined, wide_vectors
from ....core.cards import JACK, TAFFY, TEN
from ..engine import LOW_RANKS, PASS, S_SEAT, TAFFY_LEAD, TEN_VALUE
from .common import NOT_TEN, packed_count, top_unseen_of, winner_in

PLAYERS = 3
LANES = 32  # lanes a pass plays (a row's stride)
# rows of a seat: rank masks per suit, packed counts (engine.WORD_OF), cards per suit, Taffies,
# cards held, voids shown (bit suit; 4: Taffies)
BITS, HELD, SUIT_N, TAFFIES, HELD_N, VOID = 0, 4, 12, 16, 17, 18
SEAT_ROWS = 19
# the table's rows: cards gone (played or piled) packed, then Taffies gone; the trick (suit led,
# best power and its seat, points in it); the searching seat's points; the lane's end; its first
# leader (-1 once it has led); whether its scheduled seat led this trick
GONE = PLAYERS * SEAT_ROWS
LED, BEST_POWER, BEST_SEAT, TRICK_POINTS, POINTS, DONE, FIRST, LEADING = range(GONE + 9, GONE + 17)
ROWS = GONE + 17
TEN_SHIFT = 8 * (TEN - LOW_RANKS)  # a Ten's byte in its suit's high word


@njit(cache=True, inline="always")
def _at(row, x):
    # unsigned: no negative-index wrap-around, whose select kept LLVM from vectorising
    return np.uint64(row * LANES + x)


@njit(cache=True, inline="always")
def _of_suit(S, row, suit, x):
    """Row ``row + suit`` of lane ``x``."""
    return one_of_four(S[_at(row, x)], S[_at(row + 1, x)], S[_at(row + 2, x)], S[_at(row + 3, x)], suit)


@njit(cache=True, inline="always")
def _suit(c):
    return (c * 5042) >> 16  # c // 13 for 0 <= c <= 52, with no division


@njit(cache=True, inline="always")
def _rank(c):
    return c - 13 * _suit(c)


@njit(cache=True, inline="always")
def _power(card, tp):
    """The engine's ``power``: a Taffy's ``tp``, else twice the rank."""
    return tp if card == TAFFY else 2 * _rank(card)


@njit(cache=True, inline="always")
def _worth(card):
    """The engine's ``card_value`` under standard scoring."""
    return TEN_VALUE if (card == TAFFY) | (_rank(card) == TEN) else 1


@njit(cache=True, inline="always")
def _lead_suit(S, x, q, suit, tp, packs, taffies, top_taffy, open_suits, best, best_score, low, low_rank):
    """One suit's part of seat ``q``'s lead: ``lead_sure``'s sure card or Taffy there, scored, and
    ``lead_low``'s lowest card other than a Ten."""
    m = S[_at(q * SEAT_ROWS + BITS + suit, x)]
    gone_low = S[_at(GONE + 2 * suit, x)]
    gone_high = S[_at(GONE + 2 * suit + 1, x)]
    held_low = S[_at(q * SEAT_ROWS + HELD + 2 * suit, x)]
    held_high = S[_at(q * SEAT_ROWS + HELD + 2 * suit + 1, x)]
    top = max(top_unseen_of(packs, held_low, held_high, gone_low, gone_high), top_taffy)
    top = top if (open_suits >> suit) & 1 else -1
    above = m >> ((top + 1) >> 1)  # ranks no unseen card beats (ties go to the leader)
    r = ((top + 1) >> 1) + lowest(above)
    r = TEN if ((m >> TEN) & 1 == 1) & (r < TEN) else r
    ten = (above != 0) & (r == TEN)
    taffy = taffies & (tp >= top) & (not ten)  # a Taffy naming the suit banks itself
    banks = taffy | ten
    cand = TAFFY_LEAD + suit if taffy else suit * 13 + r
    # a bank first, then the suit with most unseen cards; a lead no one can answer gains nothing
    score = 13 * packs - S[_at(q * SEAT_ROWS + SUIT_N + suit, x)] - packed_count(gone_low, gone_high)
    score = score + (1000 if banks else 0) if banks | ((above != 0) & (top >= 0)) else -1
    best = cand if score > best_score else best
    best_score = max(score, best_score)
    plain = m & NOT_TEN
    lower = (plain != 0) & (lowest(plain) < low_rank)
    low = suit * 13 + lowest(plain) if lower else low
    low_rank = lowest(plain) if lower else low_rank
    return best, best_score, low, low_rank


@njit(cache=True, inline="always")
def _lead(S, x, q, hard, tp, packs, taffies_total):
    """``counter``'s lead for seat ``q``: ``lead_sure``, else ``lead_low``."""
    taffies = S[_at(q * SEAT_ROWS + TAFFIES, x)]
    top_taffy = tp if taffies_total - taffies - S[_at(GONE + 8, x)] > 0 else -1
    open_suits = np.int64(0)  # suits some other seat holding cards may answer
    for o in range(PLAYERS):
        there = (o != q) & (S[_at(o * SEAT_ROWS + HELD_N, x)] > 0)
        unknown = (~S[_at(o * SEAT_ROWS + VOID, x)] & 15) | (15 & all_when(not hard))
        open_suits |= unknown & all_when(there)
    best, best_score = np.int64(-1), np.int64(-1)
    low, low_rank = np.int64(-1), np.int64(99)
    for suit in range(4):
        best, best_score, low, low_rank = _lead_suit(
            S, x, q, suit, tp, packs, taffies > 0, top_taffy, open_suits, best, best_score, low, low_rank
        )
    ten = np.int64(-1)
    for suit in range(3, -1, -1):
        ten = suit * 13 + TEN if (S[_at(q * SEAT_ROWS + BITS + suit, x)] >> TEN) & 1 else ten
    low = low if low >= 0 else (ten if ten >= 0 else TAFFY_LEAD)
    return best if best >= 0 else low


@njit(cache=True, inline="always")
def _give(S, x, q, card, on):
    """Seat ``q`` plays ``card`` (0 to 51, or a Taffy) in the lanes where ``on``: its hand's rows
    and the cards gone, one store per row."""
    taffy = card == TAFFY
    suit = _suit(card)
    rank = card - 13 * suit
    high = np.int64(rank >= LOW_RANKS)
    word = 2 * suit + high
    shift = (8 * (rank - LOW_RANKS * high)) & 63
    one = np.int64(1) << shift
    suited = on & (not taffy)
    S[_at(q * SEAT_ROWS + TAFFIES, x)] -= on & taffy
    S[_at(GONE + 8, x)] += on & taffy
    left = np.int64(0)
    for w in range(8):
        this = one & all_when(suited & (w == word))
        held = S[_at(q * SEAT_ROWS + HELD + w, x)] - this
        S[_at(q * SEAT_ROWS + HELD + w, x)] = held
        S[_at(GONE + w, x)] += this
        left |= held & all_when(w == word)
    last = ((left >> shift) & 255) == 0  # the seat's last card of that rank
    bit = np.int64(1) << (rank & 63)
    for s in range(4):
        here = suited & (suit == s)
        S[_at(q * SEAT_ROWS + BITS + s, x)] &= ~(bit & all_when(here & last))
        S[_at(q * SEAT_ROWS + SUIT_N + s, x)] -= here
    S[_at(q * SEAT_ROWS + HELD_N, x)] -= on


@njit(cache=True)
def _lead_lanes(S, leader, hard, tp, packs, taffies_total):
    """Seat ``leader`` (slot 0) leads, in the lanes whose turn order has reached it and where it
    holds cards."""
    for x in range(LANES):
        first = S[_at(FIRST, x)]
        on = (S[_at(DONE, x)] == 0) & ((first < 0) | (first == leader))
        on &= S[_at(HELD_N, x)] > 0
        S[_at(FIRST, x)] = -1 if first == leader else first
        a = _lead(S, x, 0, hard, tp, packs, taffies_total)
        taffy = a >= TAFFY_LEAD
        card = TAFFY if taffy else a
        _give(S, x, 0, card, on)
        S[_at(LED, x)] = a - TAFFY_LEAD if taffy else _suit(a)
        S[_at(BEST_POWER, x)] = _power(card, tp)
        S[_at(BEST_SEAT, x)] = 0
        S[_at(TRICK_POINTS, x)] = _worth(card)
        S[_at(LEADING, x)] = on


@njit(cache=True)
def _answer_lanes(S, q, hard, tp, packs, taffies_total):
    """The seat in slot ``q`` (1 or 2) answers (``follow_counting``), or passes when it cannot
    follow, in the lanes where the trick was led and it holds cards."""
    after = 2  # the one seat still to answer after the first
    for x in range(LANES):
        on = (S[_at(LEADING, x)] == 1) & (S[_at(q * SEAT_ROWS + HELD_N, x)] > 0)
        led = S[_at(LED, x)]
        taffies = S[_at(q * SEAT_ROWS + TAFFIES, x)]
        can = _of_suit(S, q * SEAT_ROWS + SUIT_N, led, x) + taffies > 0
        m = _of_suit(S, q * SEAT_ROWS + BITS, led, x)
        plain = m & NOT_TEN
        low = led * 13 + TEN if m != 0 else (TAFFY if taffies > 0 else PASS)
        low = led * 13 + lowest(plain) if plain != 0 else low  # follow_low
        more = (q == 1) & (S[_at(after * SEAT_ROWS + HELD_N, x)] > 0)  # someone still to answer
        void = hard & (((S[_at(after * SEAT_ROWS + VOID, x)] >> led) & 1) == 1)
        held_low = _word(S, q * SEAT_ROWS + HELD, led, 0, x)
        held_high = _word(S, q * SEAT_ROWS + HELD, led, 1, x)
        top = top_unseen_of(packs, held_low, held_high, _word(S, GONE, led, 0, x), _word(S, GONE, led, 1, x))
        top_taffy = tp if taffies_total - taffies - S[_at(GONE + 8, x)] > 0 else -1
        threat = max(top, top_taffy) if more & (not void) else -1
        best_power = S[_at(BEST_POWER, x)]
        points = S[_at(TRICK_POINTS, x)]
        w = winner_in(m, led, max(best_power + 1, threat), taffies, tp)  # no one still to answer beats it
        cheap = winner_in(m, led, best_power + 1, taffies, tp)
        # follow_counting: win when the trick is worth it or the card is cheap or banks a Ten; with no
        # sure winner, greedy's: win a trick holding a Ten or Taffy, or for free as the last to answer
        b = w if (points >= 10) | (_rank(w) == TEN) | (_rank(w) < JACK) else low
        g = cheap if (points >= 10) | ((not more) & (_rank(cheap) <= TEN)) else low
        b = b if w >= 0 else (g if cheap >= 0 else low)
        play = on & can
        card = b if play else 0
        _give(S, x, q, card, play)
        S[_at(q * SEAT_ROWS + VOID, x)] |= ((np.int64(1) << led) | 16) & all_when(on & (not can))
        power = _power(card, tp)
        wins = play & (power > best_power)
        best_seat = S[_at(BEST_SEAT, x)]
        S[_at(BEST_POWER, x)] = power if wins else best_power
        S[_at(BEST_SEAT, x)] = q if wins else best_seat
        S[_at(TRICK_POINTS, x)] = points + (_worth(card) if play else 0)


@njit(cache=True, inline="always")
def _word(S, row, suit, high, x):
    """Packed word ``2 * suit + high`` from row ``row``."""
    return one_of_four(
        S[_at(row + high, x)],
        S[_at(row + 2 + high, x)],
        S[_at(row + 4 + high, x)],
        S[_at(row + 6 + high, x)],
        suit,
    )


@njit(cache=True)
def _end_lanes(S, me):
    """The trick to its winner (the searching seat's points counted; it sits in slot ``me``), then
    the deal's end once at most one seat holds cards (that seat keeps them: :func:`_kept`, once).
    Returns the lanes still playing."""
    playing = 0
    for x in range(LANES):
        on = S[_at(LEADING, x)] == 1
        ours = on & (S[_at(BEST_SEAT, x)] == me)
        points = S[_at(POINTS, x)] + (S[_at(TRICK_POINTS, x)] if ours else 0)
        holders = 0
        for q in range(PLAYERS):
            holders += S[_at(q * SEAT_ROWS + HELD_N, x)] > 0
        over = on & (holders <= 1)
        S[_at(POINTS, x)] = points
        done = S[_at(DONE, x)] | over
        S[_at(DONE, x)] = done
        S[_at(LEADING, x)] = 0
        playing += 1 - done
    return playing


@njit(cache=True, inline="always")
def _kept(S, x, me):
    """The points for the cards the searching seat (slot ``me``) holds at the deal's end (none
    unless it is the last holder): at their worth, as the engine's ``score`` counts them."""
    row = me * SEAT_ROWS
    tens = S[_at(row + TAFFIES, x)]  # Tens and Taffies
    for s in range(4):
        tens += (S[_at(row + HELD + 2 * s + 1, x)] >> TEN_SHIFT) & 255
    held = S[_at(row + HELD_N, x)]
    return TEN_VALUE * tens + held - tens


@njit(cache=True)
def _rotate(S):
    """Every seat a slot back: slot 1's seat leads the next trick from slot 0."""
    for x in range(LANES):
        for f in range(SEAT_ROWS):
            first = S[_at(f, x)]
            S[_at(f, x)] = S[_at(SEAT_ROWS + f, x)]
            S[_at(SEAT_ROWS + f, x)] = S[_at(2 * SEAT_ROWS + f, x)]
            S[_at(2 * SEAT_ROWS + f, x)] = first


@njit(cache=True)
def lanes_array():
    """An array for the lanes, its rows on 64-byte lines: a 512-bit load then never straddles two
    (Numba aligns an array to 32 bytes)."""
    buf = np.empty(ROWS * LANES + 8, np.int64)
    at = (-buf.ctypes.data % 64) // 8
    return buf[at : at + ROWS * LANES]


@njit(cache=True)
def play_lanes(S, pending, m, out, me, hard, tp, packs, taffies_total):
    """The ``m`` play-outs in ``pending`` (``ROWS`` values each, :func:`load`) played to their end,
    ``LANES`` at a time, a finished lane taking the next play-out; each one's points for seat ``me``
    into ``out``. ``hard``: revokes forbidden (a pass shows a void); ``tp`` the Taffy's power. Each
    step's lane loop is compiled in once (``inlined``), its slots constants there; it passes over
    every lane, a lane with no play-out left done: a constant count, all in vector instructions."""
    wide_vectors()
    if m == 0:
        return
    held = np.full(LANES, -1, np.int64)  # the play-out each lane holds (-1: none)
    for x in range(LANES):
        _take(S, x, pending, min(x, m - 1), 0)
        if x < m:
            held[x] = x
        else:
            S[_at(DONE, x)] = 1  # a copy of the last, never played
    active = min(m, LANES)  # lanes holding a play-out
    nxt = active
    leader = 0
    while True:
        inlined(_lead_lanes, S, leader, hard, tp, packs, taffies_total)
        inlined(_answer_lanes, S, np.int64(1), hard, tp, packs, taffies_total)
        inlined(_answer_lanes, S, np.int64(2), hard, tp, packs, taffies_total)
        playing = inlined(_end_lanes, S, (me - leader + PLAYERS) % PLAYERS)
        inlined(_rotate, S)
        leader = leader + 1 if leader + 1 < PLAYERS else 0
        if playing < active:
            mine = (me - leader + PLAYERS) % PLAYERS  # the searching seat's slot now
            for x in range(LANES):
                if S[_at(DONE, x)] == 1 and held[x] >= 0:
                    out[held[x]] = S[_at(POINTS, x)] + _kept(S, x, mine)
                    held[x] = -1
                    active -= 1
                    if nxt < m:
                        _take(S, x, pending, nxt, leader)
                        held[x] = nxt
                        nxt += 1
                        active += 1
            if active == 0:
                return


@njit(cache=True, inline="always")
def _take(S, x, pending, j, leader):
    """Play-out ``j`` into lane ``x``, its seats in slots from ``leader`` on."""
    at = j * ROWS
    for slot in range(PLAYERS):
        q = (leader + slot) % PLAYERS
        for f in range(SEAT_ROWS):
            S[_at(slot * SEAT_ROWS + f, x)] = pending[at + q * SEAT_ROWS + f]
    for row in range(GONE, ROWS):
        S[_at(row, x)] = pending[at + row]


@njit(cache=True)
def load(pending, j, g, me):
    """Play-out ``j`` of ``pending`` from the state ``g``: the stock out, a turn owed."""
    t = g.table
    at = j * ROWS
    for q in range(PLAYERS):
        own = g.seats[q]
        for s in range(4):
            pending[at + q * SEAT_ROWS + BITS + s] = own.bits[s]
            pending[at + q * SEAT_ROWS + SUIT_N + s] = own.suit_n[s]
        for w in range(8):
            pending[at + q * SEAT_ROWS + HELD + w] = own.held[w]
        pending[at + q * SEAT_ROWS + TAFFIES] = own.hand[TAFFY]
        pending[at + q * SEAT_ROWS + HELD_N] = t.hand_n[q]
        void = 0
        for s in range(5):
            void |= np.int64(t.void[q, s] == 1) << s
        pending[at + q * SEAT_ROWS + VOID] = void
    for w in range(9):
        pending[at + GONE + w] = t.gone[w]
    tens = t.won[me, TAFFY]
    for s in range(4):
        tens += t.won[me, s * 13 + TEN]
    pending[at + POINTS] = TEN_VALUE * tens + t.won_n[me] - tens
    pending[at + DONE] = 0
    pending[at + FIRST] = t.s[S_SEAT]
    pending[at + LEADING] = 0
