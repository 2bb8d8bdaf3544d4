"""The rules of Welsh Whist, once, as Numba functions over a state record.

Simulation, replay and ``show`` all drive a deal through the same calls: read
who owes a decision (``g.table.s[S_SEAT]``, ``[S_PHASE]``), :func:`check` a
decision (0 or why it is illegal) and :func:`apply` it.

The state is a numpy record (``STATE_DTYPE``): its nested arrays carry no
reference counts, so Numba passes it between functions as one pointer. Its
``table`` is what every player may see; hands, the stock and the streams are
outside it. A strategy gets a :class:`WelshView`: the table, its own hand, its
parameters and its own random stream, and nothing else.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ...core.cards import FIVE, TAFFY, TEN
from ...core.strategy import MAX_PARAMS
from ...harness import events as ev
from ...harness.events import EVENT_FIELDS, emit
from .rules import (
    MAX_PACKS,
    MAX_PLAYERS,
    MAX_TAFFIES,
    N_RULES,
    R_CHALLENGE,
    R_PLAYERS,
    R_REVOKES,
    R_SCORING,
    R_TAFFY_EQUALS_TEN,
)

# Phases: whose decision is owed, and of which kind.
TURN, FOLLOW, CHALLENGE, OVER = 0, 1, 2, 3

# Actions. 0..52 play that card (a Taffy follows as 52); then:
TAFFY_LEAD = 53  # + suit: lead a Taffy naming that suit
DRAW = 57
PASS = 58
NO_CHALLENGE = 59
CHALLENGE_SEAT = 60  # + seat: challenge that passer
N_ACTIONS = CHALLENGE_SEAT + MAX_PLAYERS

# Scoring and challenge codes, as in rules.SCORINGS / rules.CHALLENGES.
STANDARD, FIVE_PENALTY, PILES = 0, 1, 2
TEN_VALUE, FIVE_PENALTY_VALUE = 10, -5  # a Ten or Taffy won; a Five won under five-penalty scoring
NO_CHALLENGES, PARLETT, AKAGIRI = 0, 1, 2

# Why a decision is illegal (0: it is legal).
(
    OK,
    E_OVER,
    E_NOT_AN_ACTION,
    E_NOT_HELD,
    E_STOCK_EMPTY,
    E_TAFFY_NEEDS_SUIT,
    E_FOLLOW_NAMES_SUIT,
    E_MUST_FOLLOW,
    E_WRONG_SUIT,
    E_NOT_ON_TURN,
    E_NOT_WHEN_FOLLOWING,
    E_NOT_WHEN_CHALLENGING,
    E_NOT_A_PASSER,
) = range(13)

ENGINE_ERRORS = {
    E_OVER: "the deal is over",
    E_NOT_AN_ACTION: "not a Welsh Whist decision",
    E_NOT_HELD: "the player does not hold that card",
    E_STOCK_EMPTY: "the stock is empty, so the player must lead",
    E_TAFFY_NEEDS_SUIT: "a Taffy lead must name its suit (X=S)",
    E_FOLLOW_NAMES_SUIT: "only a Taffy lead names a suit",
    E_MUST_FOLLOW: "the player can follow, and revokes are not allowed",
    E_WRONG_SUIT: "a follow must be of the suit led, or a Taffy",
    E_NOT_ON_TURN: "on a turn the player must draw or lead",
    E_NOT_WHEN_FOLLOWING: "when following the player must play a card or pass",
    E_NOT_WHEN_CHALLENGING: "after this trick the decision is challenge=<seat> or nochallenge",
    E_NOT_A_PASSER: "only a player who passed in this trick can be challenged",
}

# Public scalars, positions in g.table.s.
(
    S_TOP,  # stock cards drawn so far
    S_STOCK,  # stock size
    S_PHASE,
    S_SEAT,  # who owes the next decision
    S_LEADER,
    S_LED_SUIT,
    S_TRICK_LEN,
    S_BEST,  # index in the trick of the card winning so far
    S_BEST_POWER,
    S_NPASS,  # passes in the current trick
    S_WINNER,  # winner of the trick being settled
    S_TRICKS,
    S_TURNS,
    S_DRAWS,
    S_PASSES,
    S_CHALLENGES,
    S_CHALLENGES_WON,
    S_LAST_HOLDER,  # the seat that kept its cards at the end, or -1
    S_KEPT,  # cards the last holder kept
    S_FIRST,
    S_KEPT_TT,  # Tens and Taffies among the cards the last holder kept
    S_KEPT_FIVES,  # Fives among them (five-penalty scoring)
    S_MET,  # tricks in which a Taffy and a Ten met
    S_MET_TAFFY,  # ... won by a Taffy
    S_MET_TEN,  # ... won by a Ten
) = range(25)
N_SCALARS = 25

MAX_STOCK = 52 * MAX_PACKS + MAX_TAFFIES

# Suit and rank of each card code (the Taffy's "suit" is 4, its void column);
# a table load is cheaper than signed // and % in the hot paths.
SUIT_OF = np.array([c // 13 for c in range(52)] + [4], np.int64)
RANK_OF = np.array([c % 13 for c in range(52)] + [TEN], np.int64)

# Per-rank counts packed a byte per rank (at most 16 packs: a byte holds any count without
# carrying), two words per suit: word 2*suit ranks Two to Seven, 2*suit+1 Eight to Ace; a card
# adds BYTE_OF[card] to word WORD_OF[card] (the Taffy: word 8, counted by 1). Counting readers
# (players.common) then find a suit's highest unseen rank and its unseen cards in a few
# operations instead of a scan of 13 ranks. The steps that play and take cards keep them when
# their caller passes ``packed`` True: every loop but the own loop of ``random`` and ``greedy``
# seats (kernels._plain_deal), where no seat counts cards and the upkeep cost 5% of its speed.
LOW_RANKS = 6
WORD_OF = np.array([2 * (c // 13) + (c % 13 >= LOW_RANKS) for c in range(52)] + [8], np.int64)
BYTE_OF = np.array([1 << 8 * (c % 13 - LOW_RANKS * (c % 13 >= LOW_RANKS)) for c in range(52)] + [1], np.int64)

TABLE_DTYPE = np.dtype(
    [
        ("rules", np.int64, (N_RULES,)),
        ("hand_n", np.int16, (MAX_PLAYERS,)),  # cards held per seat
        ("won", np.int16, (MAX_PLAYERS, 53)),  # winnings piles, by card type
        ("won_n", np.int16, (MAX_PLAYERS,)),
        ("played", np.int16, (53,)),  # cards played to tricks so far
        ("trick_card", np.int8, (MAX_PLAYERS,)),
        ("trick_seat", np.int8, (MAX_PLAYERS,)),
        ("passed", np.int8, (MAX_PLAYERS,)),  # passed in the current trick
        ("void", np.int8, (MAX_PLAYERS, 5)),  # passed on suit (4: Taffy), no cards taken since
        ("piled", np.int16, (53,)),  # cards moved from a hand straight to a winnings pile
        ("gone", np.int64, (9,)),  # played + piled, packed (WORD_OF, BYTE_OF; see ``packed``)
        ("exposed", np.int16, (MAX_PLAYERS,)),  # false passes shown: caught, or a passed-on suit played
        ("drawn", np.int16, (MAX_PLAYERS,)),  # turns each seat drew on
        ("led", np.int16, (MAX_PLAYERS,)),  # turns each seat led on
        ("s", np.int64, (N_SCALARS,)),
    ],
    align=True,
)

# What one seat holds and is: its cards, its strategy and its random stream.
SEAT_DTYPE = np.dtype(
    [
        ("hand", np.int16, (53,)),  # cards held, by type
        ("suit_n", np.int16, (4,)),  # suited cards held per suit (no Taffies)
        ("bits", np.int64, (4,)),  # per suit, bit r set when rank r is held
        ("held", np.int64, (8,)),  # hand, suited cards packed (WORD_OF, BYTE_OF; see ``packed``)
        ("types", np.int64),  # distinct card types held
        ("revoked", np.int64),  # passed in this trick while able to follow
        ("strategy", np.int64),  # built-in strategy id
        ("params", np.float64, (MAX_PARAMS,)),
        ("rng", np.uint64, (1,)),
        ("ahead", np.uint64, (1, 2)),  # ``rng`` a number ahead in the own loop (core.rng.ahead_load)
        ("draw_limit", np.int64),  # random's chance to draw, set by the own loop (random.draw_limit)
    ],
    align=True,
)

STATE_DTYPE = np.dtype(
    [
        ("table", TABLE_DTYPE),  # public
        ("seats", SEAT_DTYPE, (MAX_PLAYERS,)),  # private to each seat
        ("deck", np.int8, (MAX_STOCK,)),  # the stock, top first
        ("rng", np.uint64, (1,)),  # the deck's stream
        ("false_passes", np.int64),
        ("points", np.int64, (MAX_PLAYERS,)),  # scratch for scoring a finished deal
        ("shuffles", np.int64),  # stocks shuffled for this deal (more than one under a constraint)
        *EVENT_FIELDS,  # what each move made happen, when asked (harness.events)
    ],
    align=True,
)

WelshView = namedtuple(
    "WelshView",
    [
        "seat",
        "players",
        "phase",  # TURN, FOLLOW or CHALLENGE
        "stock_left",
        "leader",
        "led_suit",
        "trick_len",
        "table",  # the public record (TABLE_DTYPE): piles, played cards, trick, voids
        "own",  # this seat's record (SEAT_DTYPE): hand, bits, params, rng (stream k=0)
    ],
)


def new_state(rules: np.ndarray | None = None) -> np.ndarray:
    """A one-record buffer; kernels work on ``buf[0]``."""
    buf = np.zeros(1, STATE_DTYPE)
    if rules is not None:
        buf[0]["table"]["rules"][:] = rules
    return buf


@njit(cache=True, inline="always")
def players(g):
    return g.table.rules[R_PLAYERS]


@njit(cache=True)
def reset(g, stock, first):
    """Empty hands and piles; the caller has filled ``g.deck[:stock]`` (top first)."""
    t = g.table
    # Loops, not slice assignment: the same work, and much less for Numba to compile.
    for q in range(players(g)):  # the rows past the players' stay as new_state made them
        t.hand_n[q] = 0
        t.won_n[q] = 0
        t.passed[q] = 0
        t.exposed[q] = 0
        t.drawn[q] = 0
        t.led[q] = 0
        for c in range(53):
            t.won[q, c] = 0
        for k in range(5):
            t.void[q, k] = 0
    for c in range(53):
        t.played[c] = 0
        t.piled[c] = 0
    for w in range(9):
        t.gone[w] = 0
    for k in range(N_SCALARS):
        t.s[k] = 0
    for q in range(players(g)):
        empty_hand(g, q)
        g.seats[q].revoked = 0
    g.false_passes = 0
    t.s[S_STOCK] = stock
    t.s[S_PHASE] = TURN
    t.s[S_SEAT] = first
    t.s[S_FIRST] = first
    t.s[S_LAST_HOLDER] = -1
    _check_end(g, stock > 0)


@njit(cache=True, inline="always")  # Numba cannot return a tuple holding a record
def seat_view(g, seat):
    t = g.table
    return WelshView(
        seat,
        players(g),
        t.s[S_PHASE],
        t.s[S_STOCK] - t.s[S_TOP],
        t.s[S_LEADER],
        t.s[S_LED_SUIT],
        t.s[S_TRICK_LEN],
        t,
        g.seats[seat],
    )


# ---- small helpers -------------------------------------------------------


@njit(cache=True, inline="always")
def power(card, taffy_equals_ten):
    """Trick-taking power within the suit led (the caller knows the card follows)."""
    if card == TAFFY:
        return 2 * TEN + (0 if taffy_equals_ten else 1)
    return 2 * RANK_OF[card]


@njit(cache=True, inline="always")
def can_follow(own, suit):
    return own.suit_n[suit] + own.hand[TAFFY] > 0


@njit(cache=True, inline="always")
def stock_lasts(t):
    return t.s[S_TOP] < t.s[S_STOCK]


@njit(cache=True, inline="always")
def in_play(t, seat, stocked):
    """Everyone is in play while the stock lasts (``stocked``: :func:`stock_lasts`, which a loop
    may keep in a register), then those holding cards."""
    return stocked or t.hand_n[seat] > 0


@njit(cache=True, inline="always")
def take_cards(g, seat, card, n, packed):
    """Add ``n`` cards of one type to a hand (``packed``: also to its packed counts)."""
    own = g.seats[seat]
    if own.hand[card] == 0:
        own.types += 1
        if card != TAFFY:
            own.bits[SUIT_OF[card]] |= 1 << RANK_OF[card]
    own.hand[card] += n
    g.table.hand_n[seat] += n
    if card != TAFFY:
        own.suit_n[SUIT_OF[card]] += n
        if packed:
            own.held[WORD_OF[card]] += n * BYTE_OF[card]


@njit(cache=True, inline="always")
def _give(g, seat, card, packed):
    """Remove one card from a hand (``packed``: also from its packed counts)."""
    own = g.seats[seat]
    own.hand[card] -= 1
    if own.hand[card] == 0:
        own.types -= 1
        if card != TAFFY:
            own.bits[SUIT_OF[card]] &= ~(1 << RANK_OF[card])
    g.table.hand_n[seat] -= 1
    if card != TAFFY:
        own.suit_n[SUIT_OF[card]] -= 1
        if packed:
            own.held[WORD_OF[card]] -= BYTE_OF[card]


@njit(cache=True)
def empty_hand(g, seat):
    own = g.seats[seat]
    for c in range(53):
        own.hand[c] = 0
    for suit in range(4):
        own.suit_n[suit] = 0
        own.bits[suit] = 0
    for w in range(8):
        own.held[w] = 0
    own.types = 0
    g.table.hand_n[seat] = 0


@njit(cache=True)
def _move_hand_to_hand(g, src, dst):
    hand = g.seats[src].hand
    for c in range(53):
        if hand[c] > 0:
            take_cards(g, dst, c, hand[c], True)
    empty_hand(g, src)
    g.table.void[dst, :] = 0


@njit(cache=True)
def _move_hand_to_pile(g, src, dst):
    t = g.table
    own = g.seats[src]
    hand = own.hand
    for c in range(53):  # no indexed store in the loop: LLVM makes it a few vector adds
        t.won[dst, c] += hand[c]
        t.piled[c] += hand[c]
    # the hand's packed counts are its cards' bytes (kept wherever ``gone`` is; see ``packed``)
    for w in range(8):
        t.gone[w] += own.held[w]
    t.gone[8] += hand[TAFFY]
    t.won_n[dst] += t.hand_n[src]
    empty_hand(g, src)


@njit(cache=True, inline="always")
def _next_in_play(t, seat, p, stocked):
    """The first seat in play clockwise after ``seat`` (``seat`` itself if no other)."""
    if stocked:  # while the stock lasts everyone is in play
        return seat + 1 if seat + 1 < p else 0
    for k in range(1, p + 1):
        q = (seat + k) % p
        if t.hand_n[q] > 0:
            return q
    return seat


@njit(cache=True, inline="always")
def _check_end(g, stocked):
    """End the deal once the stock is empty (not ``stocked``) and at most one player holds cards."""
    t = g.table
    s = t.s
    if stocked:
        return False
    holder = np.int64(-1)  # typed: a literal -1 would compile _move_hand_to_pile for it too
    for q in range(players(g)):
        if t.hand_n[q] > 0:
            if holder >= 0:
                return False
            holder = q
    if holder >= 0:
        s[S_KEPT] = t.hand_n[holder]
        hand = g.seats[holder].hand
        s[S_KEPT_TT] = count_tens(hand[:])  # an array, as score passes: one compile
        for suit in range(4):
            s[S_KEPT_FIVES] += hand[suit * 13 + FIVE]
        emit(g, ev.KEEP, holder, s[S_KEPT], 0)
        _move_hand_to_pile(g, holder, holder)
    s[S_LAST_HOLDER] = holder
    s[S_PHASE] = OVER
    emit(g, ev.OVER, -1, 0, 0)
    return True


# ---- legality ------------------------------------------------------------


@njit(cache=True, inline="always")
def forced(g):
    """The only legal decision when there is no choice (pass when unable to
    follow, draw with an empty hand), else -1: strategies are asked only to choose."""
    t = g.table
    seat = t.s[S_SEAT]
    phase = t.s[S_PHASE]
    if phase == FOLLOW and not can_follow(g.seats[seat], t.s[S_LED_SUIT]):
        return PASS
    if phase == TURN and must_draw(t, seat):
        return DRAW
    return -1


@njit(cache=True, inline="always")
def must_draw(t, seat):
    """On its turn a seat in play with an empty hand draws (the stock is not empty)."""
    return t.hand_n[seat] == 0


@njit(cache=True, inline="always")
def check(g, action):
    """0 if the seat owing a decision may take ``action``, else an error code."""
    t = g.table
    phase = t.s[S_PHASE]
    seat = t.s[S_SEAT]
    if phase == OVER:
        return E_OVER
    if action < 0 or action >= N_ACTIONS:
        return E_NOT_AN_ACTION
    if phase == TURN:
        if action == DRAW:
            return OK if t.s[S_TOP] < t.s[S_STOCK] else E_STOCK_EMPTY
        if action == TAFFY:
            return E_TAFFY_NEEDS_SUIT
        card = TAFFY if TAFFY_LEAD <= action < DRAW else action
        if card > TAFFY:
            return E_NOT_ON_TURN
        return OK if g.seats[seat].hand[card] > 0 else E_NOT_HELD
    if phase == FOLLOW:
        if action == PASS:
            if t.rules[R_REVOKES] == 0 and can_follow(g.seats[seat], t.s[S_LED_SUIT]):
                return E_MUST_FOLLOW
            return OK
        if TAFFY_LEAD <= action < DRAW:
            return E_FOLLOW_NAMES_SUIT
        if action > TAFFY:
            return E_NOT_WHEN_FOLLOWING
        if g.seats[seat].hand[action] == 0:
            return E_NOT_HELD
        if action != TAFFY and SUIT_OF[action] != t.s[S_LED_SUIT]:
            return E_WRONG_SUIT
        return OK
    # CHALLENGE
    if action == NO_CHALLENGE:
        return OK
    if action < CHALLENGE_SEAT:
        return E_NOT_WHEN_CHALLENGING
    target = action - CHALLENGE_SEAT
    if target >= players(g) or t.passed[target] == 0:
        return E_NOT_A_PASSER
    return OK


# ---- making decisions ----------------------------------------------------
# check, apply and the per-move helpers are inlined into their callers (Numba
# IR inlining): LLVM then sees one loop body and folds the repeated phase
# dispatch; worth 20% of the kernel's speed for 13 s more compilation.


@njit(cache=True, inline="always")
def apply(g, action):
    """Make a legal decision (see :func:`check`) and move on to the next one owed."""
    s = g.table.s
    phase = s[S_PHASE]
    seat = s[S_SEAT]
    if phase == TURN:
        s[S_TURNS] += 1
        if action == DRAW:
            _draw(g, seat)
        else:
            _lead(g, seat, action)
    elif phase == FOLLOW:
        if action == PASS:
            _pass(g, seat)
        else:
            _follow(g, seat, action)
        _next_follower(g)
    else:
        if action != NO_CHALLENGE:
            _challenge(g, seat, action - CHALLENGE_SEAT)
        else:
            emit(g, ev.NO_CHALLENGE, seat, 0, 0)
        end_trick(g, s[S_LEADER], s[S_NPASS], stock_lasts(g.table))


@njit(cache=True)
def try_apply(g, action):
    """:func:`check`, then :func:`apply` if the decision is legal: 0 or the error. A call, compiled
    once, for pimc's searched decision: inlined there, the rules took seconds to compile."""
    e = check(g, action)
    if e == OK:
        apply(g, action)
    return e


@njit(cache=True, inline="always")
def _draw(g, seat):
    s = g.table.s
    emit(g, ev.DRAW, seat, g.deck[s[S_TOP]], 0)
    top = draw(g, seat, s[S_TOP], True)
    turn_after(g, seat, top < s[S_STOCK])


@njit(cache=True, inline="always")
def draw(g, seat, top, packed):
    """``seat`` draws the stock's ``top``-th card (it takes cards, so its passes no longer show a
    void); returns the new top, which it also keeps in the table."""
    t = g.table
    take_cards(g, seat, g.deck[top], 1, packed)
    for k in range(5):  # a loop: Numba's slice assignment costs more than the work
        t.void[seat, k] = 0
    t.drawn[seat] += 1
    t.s[S_TOP] = top + 1
    t.s[S_DRAWS] = top + 1  # every draw takes the stock's top card
    return top + 1


@njit(cache=True, inline="always")
def turn_after(g, seat, stocked):
    """After ``seat``'s turn (or trick) the deal ends, or the first player in play after it owes
    the next decision: returns that seat, or -1 when the deal is over."""
    if _check_end(g, stocked):
        return -1
    q = _next_in_play(g.table, seat, players(g), stocked)
    g.table.s[S_SEAT] = q
    return q


# ---- the steps of a trick --------------------------------------------------
# Each rule once, as small functions over the state and the trick's running values (the card
# winning it so far, its power): :func:`apply` keeps those values in ``g.table.s``; the kernels'
# own loop (kernels.py) keeps them in locals and calls the same steps.


@njit(cache=True, inline="always")
def led_card(action):
    """The card a lead plays, and the suit it leads (a Taffy names its suit): (card, suit)."""
    if TAFFY_LEAD <= action < DRAW:
        return TAFFY, action - TAFFY_LEAD
    return action, SUIT_OF[action]


@njit(cache=True, inline="always")
def _to_trick(t, card, packed):
    """A card played to a trick: counted played (``packed``: and gone)."""
    t.played[card] += 1
    if packed:
        t.gone[WORD_OF[card]] += BYTE_OF[card]


@njit(cache=True, inline="always")
def lead(g, seat, card, suit, taffy_equals_ten, packed):
    """``seat`` leads ``card`` in ``suit``: a trick of one card; returns its power, the best so far."""
    t = g.table
    s = t.s
    _expose(t, seat, card)
    _give(g, seat, card, packed)
    _to_trick(t, card, packed)
    t.led[seat] += 1
    s[S_TRICKS] += 1
    s[S_LEADER] = seat
    s[S_LED_SUIT] = suit
    t.trick_card[0] = card
    t.trick_seat[0] = seat
    return power(card, taffy_equals_ten)


@njit(cache=True, inline="always")
def follow(g, seat, card, n, best, best_power, taffy_equals_ten, packed):
    """``seat`` follows with ``card`` (of the suit led, or a Taffy), the ``n``-th card of the trick,
    ``best`` (of power ``best_power``) winning it so far. Returns (the place in the trick of the
    card now winning it, that card's power): of equal cards the first played wins."""
    t = g.table
    _expose(t, seat, card)
    _give(g, seat, card, packed)
    _to_trick(t, card, packed)
    t.trick_card[n] = card
    t.trick_seat[n] = seat
    pw = power(card, taffy_equals_ten)
    if pw > best_power:
        return n, pw
    return best, best_power


@njit(cache=True, inline="always")
def pass_on(t, seat, suit):
    """``seat`` passes on a trick led in ``suit``: it shows out of the suit (and of Taffies) until
    it next takes cards."""
    t.passed[seat] = 1
    t.void[seat, suit] = 1
    t.void[seat, 4] = 1


@njit(cache=True, inline="always")
def play_card(g, seat, a, n, best, best_power, npass, suit, taffy_equals_ten, packed):
    """``seat`` plays decision ``a`` to the trick of ``n`` cards so far (0: ``a`` leads it), the
    trick's running values kept by the caller: the place in the trick of the card winning it
    (``best``), that card's power, the passes made in it and the suit led. A follow plays a card
    of that suit or a Taffy; PASS passes on it (counted in the table's passes). Returns the new (n, best, best_power, npass, suit)."""
    if n == 0:
        card, suit = led_card(a)
        return 1, 0, lead(g, seat, card, suit, taffy_equals_ten, packed), 0, suit
    if a == PASS:
        pass_on(g.table, seat, suit)
        g.table.s[S_PASSES] += 1
        return n, best, best_power, npass + 1, suit
    best, best_power = follow(g, seat, a, n, best, best_power, taffy_equals_ten, packed)
    return n + 1, best, best_power, npass, suit


@njit(cache=True, inline="always")
def close_trick(g, seat, n, best, best_power, npass):
    """The trick's last answer made (by ``seat``), its running values (:func:`play_card`) into the
    table as ``apply`` keeps them; the trick goes to its winner (:func:`take_trick`)."""
    s = g.table.s
    s[S_SEAT] = seat
    s[S_NPASS] = npass
    s[S_TRICK_LEN] = n
    s[S_BEST] = best
    s[S_BEST_POWER] = best_power
    take_trick(g, n, best)


@njit(cache=True, inline="always")
def _lead(g, seat, action):
    t = g.table
    s = t.s
    card, suit = led_card(action)
    emit(g, ev.LEAD, seat, card, suit)
    s[S_BEST_POWER] = lead(g, seat, card, suit, t.rules[R_TAFFY_EQUALS_TEN], True)
    s[S_TRICK_LEN] = 1
    s[S_BEST] = 0
    s[S_NPASS] = 0
    s[S_PHASE] = FOLLOW
    _next_follower(g)


@njit(cache=True, inline="always")
def _pass(g, seat):
    t = g.table
    s = t.s
    suit = s[S_LED_SUIT]
    s[S_NPASS] += 1
    s[S_PASSES] += 1
    able = can_follow(g.seats[seat], suit)
    emit(g, ev.PASS, seat, 0, able)
    if able:
        g.seats[seat].revoked = 1
        g.false_passes += 1
    pass_on(t, seat, suit)


@njit(cache=True, inline="always")
def _expose(t, seat, card):
    """A card of a suit (or a Taffy) the seat passed on, no cards taken since: that pass was false."""
    if t.void[seat, SUIT_OF[card]]:
        t.exposed[seat] += 1


@njit(cache=True, inline="always")
def _follow(g, seat, card):
    t = g.table
    s = t.s
    emit(g, ev.FOLLOW, seat, card, 0)
    n = s[S_TRICK_LEN]
    best, best_power = follow(g, seat, card, n, s[S_BEST], s[S_BEST_POWER], t.rules[R_TAFFY_EQUALS_TEN], True)
    s[S_TRICK_LEN] = n + 1
    s[S_BEST] = best
    s[S_BEST_POWER] = best_power


@njit(cache=True, inline="always")
def next_answer(t, q, leader, p, stocked):
    """The next player in play after ``q`` to answer the trick ``leader`` led (-1: all have)."""
    for _ in range(p):
        q = q + 1 if q + 1 < p else 0
        if q == leader:
            return -1
        if in_play(t, q, stocked):
            return q
    return -1


@njit(cache=True, inline="always")
def _next_follower(g):
    """The next player in play from the leader's left answers, or the trick is settled.

    Called with ``S_SEAT`` at the leader (after a lead) or at the last answer.
    """
    s = g.table.s
    q = next_answer(g.table, s[S_SEAT], s[S_LEADER], players(g), stock_lasts(g.table))
    if q >= 0:
        s[S_SEAT] = q
    else:
        _settle_trick(g)


@njit(cache=True, inline="always")
def take_trick(g, n, best):
    """The trick of ``n`` cards goes to the player of its ``best``-th card, into its winnings pile;
    returns that player."""
    t = g.table
    s = t.s
    winner = t.trick_seat[best]
    taffy, ten = False, False  # did a Taffy and a Ten meet (the study of the Taffy's rank)
    for i in range(n):
        c = t.trick_card[i]
        t.won[winner, c] += 1
        if c == TAFFY:
            taffy = True
        elif RANK_OF[c] == TEN:
            ten = True
    t.won_n[winner] += n
    if taffy and ten:
        top = t.trick_card[best]
        s[S_MET] += 1
        if top == TAFFY:
            s[S_MET_TAFFY] += 1
        elif RANK_OF[top] == TEN:
            s[S_MET_TEN] += 1
    s[S_WINNER] = winner
    return winner


@njit(cache=True)
def _settle_trick(g):
    t = g.table
    s = t.s
    winner = take_trick(g, s[S_TRICK_LEN], s[S_BEST])
    if g.ev_on:
        worth = 0
        for i in range(s[S_TRICK_LEN]):
            worth += is_ten(t.trick_card[i])
        emit(g, ev.TRICK, winner, s[S_TRICK_LEN], worth)
    rule = t.rules[R_CHALLENGE]
    if s[S_NPASS] > 0 and rule != NO_CHALLENGES:
        s[S_PHASE] = CHALLENGE
        s[S_SEAT] = s[S_LEADER] if rule == PARLETT else winner
    else:
        end_trick(g, s[S_LEADER], s[S_NPASS], stock_lasts(t))


@njit(cache=True)
def _challenge(g, challenger, target):
    t = g.table
    s = t.s
    s[S_CHALLENGES] += 1
    caught = g.seats[target].revoked == 1
    emit(g, ev.CHALLENGE, challenger, target, caught)
    if caught:
        s[S_CHALLENGES_WON] += 1
        t.exposed[target] += 1
    if t.rules[R_CHALLENGE] == PARLETT:
        # The loser's whole hand goes into the other's hand.
        if caught:
            _move_hand_to_hand(g, target, challenger)
        else:
            _move_hand_to_hand(g, challenger, target)
    elif caught:
        # Akagiri: the revoker's hand goes to the challenger's winnings.
        _move_hand_to_pile(g, target, challenger)
    else:
        # Akagiri: the wrongly challenged player takes the trick from the winner.
        winner = s[S_WINNER]
        for i in range(s[S_TRICK_LEN]):
            c = t.trick_card[i]
            t.won[winner, c] -= 1
            t.won[target, c] += 1
        t.won_n[winner] -= s[S_TRICK_LEN]
        t.won_n[target] += s[S_TRICK_LEN]


@njit(cache=True)
def end_trick(g, leader, npass, stocked):
    """The trick ``leader`` led is over (and any challenge), ``npass`` passes made in it: passes are
    forgotten; the deal ends (returns -1), or the leader's next player in play has the turn
    (returns that seat)."""
    t = g.table
    s = t.s
    if npass:  # only a pass marks a seat passed (or revoked)
        for q in range(players(g)):
            t.passed[q] = 0
            g.seats[q].revoked = 0
        s[S_NPASS] = 0
    s[S_PHASE] = TURN  # OVER instead if the deal ends
    return turn_after(g, leader, stocked)


# ---- results -------------------------------------------------------------


@njit(cache=True, inline="always")
def is_ten(card):
    """A Ten or a Taffy: the cards worth 10."""
    return RANK_OF[card] == TEN


@njit(cache=True, inline="always")
def card_value(card, scoring):
    """What one card in a winnings pile scores: 10 a Ten or Taffy, 1 another card,
    -5 a Five under five-penalty scoring (piles scoring counts Tens and Taffies alone)."""
    if is_ten(card):
        return TEN_VALUE
    if scoring == FIVE_PENALTY and RANK_OF[card] == FIVE:
        return FIVE_PENALTY_VALUE
    return 1


@njit(cache=True)
def count_tens(won_row):
    """Tens and Taffies in one winnings pile."""
    n = won_row[TAFFY]
    for suit in range(4):
        n += won_row[suit * 13 + TEN]
    return n


@njit(cache=True, inline="always")
def pile_points(rule, height_rank, won_n, tens, fives):
    """What one winnings pile of ``won_n`` cards scores, ``tens`` of them Tens and Taffies and
    ``fives`` Fives: :func:`card_value` summed over the pile, counted by kind; under piles scoring
    its Tens and Taffies times ``height_rank`` (:func:`_dense_rank`)."""
    if rule == PILES:
        return height_rank * tens
    if rule != FIVE_PENALTY:
        fives = 0
    return TEN_VALUE * tens + FIVE_PENALTY_VALUE * fives + (won_n - tens - fives)


@njit(cache=True)
def score(t, points):
    """Points per seat under the game's scoring rule, into ``points``."""
    p = t.rules[R_PLAYERS]
    rule = t.rules[R_SCORING]
    for q in range(p):
        tens = count_tens(t.won[q])
        fives = 0
        height = 0
        if rule == FIVE_PENALTY:
            for suit in range(4):
                fives += t.won[q, suit * 13 + FIVE]
        elif rule == PILES:
            height = _dense_rank(t.won_n, p, q)
        points[q] = pile_points(rule, height, t.won_n[q], tens, fives)


@njit(cache=True)
def score_piles(rule, won_n, tens, fives):
    """:func:`score` over many deals' piles at once: [deals, seats] pile heights, Tens and Taffies,
    and Fives in, each seat's points out."""
    out = np.zeros(won_n.shape, np.int64)
    for i in range(won_n.shape[0]):
        for q in range(won_n.shape[1]):
            height = _dense_rank(won_n[i], won_n.shape[1], q) if rule == PILES else 0
            out[i, q] = pile_points(rule, height, won_n[i, q], tens[i, q], fives[i, q])
    return out


@njit(cache=True, inline="always")  # score's pile heights are int16, score_piles' int64
def _dense_rank(heights, n, q):
    """Piles: 1 + the number of distinct heights below ``heights[q]`` (ties share)."""
    rank = 1
    for r in range(n):
        h = heights[r]
        if h < heights[q]:
            first = True
            for u in range(r):
                if heights[u] == h:
                    first = False
                    break
            if first:
                rank += 1
    return rank
