"""The dealt games' kernel parts: what the shared harness needs to play whole games.

A game is several deals, the deal passing to the left, until a side reaches the
target (or, Scotch Whist, a revoke is claimed). Deal ``k`` of game ``i`` is the
``k``-th shuffle of stream 0 of (seed, i); each seat's player draws on stream
``1 + seat``; revoke claims on stream ``CLAIM_STREAM``. So a game's course is a
function of (seed, game index) alone, and swapping one seat's player leaves the
deals and the other players' streams alone.
"""

from __future__ import annotations

import sys

import numba
import numpy as np
from numba import njit

from ...core.batch import Batch
from ...core.bits import FAST_PDEP, nth, popcount
from ...core.cards import TEN, card_name
from ...core.options import WhistsimError
from ...core.rng import DECK_STREAM, randbelow, shuffle, stream_start
from ...harness import template
from ...harness.batch import run_kernel
from ...harness.build import kernel
from ...harness.deal import NO_DEAL, draw_deal
from ...harness.loop import MOVE_SEAT, per_run, play_deal
from . import players as roster
from .engine import (
    CORE_DTYPE,
    ENGINE_ERRORS,
    MAX_REVOKES,
    MAX_TEAMS,
    OK,
    OVER,
    P_CARDS,
    P_HONOURS,
    P_PENALTY,
    P_POINTS,
    P_TEN,
    P_TRICK_POINTS,
    P_TRICKS,
    S_ALL_FOLLOWED,
    S_ASIDE_CARD,
    S_BEST,
    S_BEST_POWER,
    S_DEAL,
    S_DEALER,
    S_LEADER,
    S_LED,
    S_PHASE,
    S_ROUND_TWICE,
    S_SEAT,
    S_SET,
    S_SET_TRICK,
    S_TRICK,
    S_TRICK_LEN,
    S_TRUMP,
    S_TURNUP,
    S_WINNER,
    TABLE_DTYPE,
    DealtView,
    apply,
    check,
    check_card,
    claims,
    count_out,
    deal_from_deck,
    end_deal,
    end_game,
    load_set,
    seat_view,
    take_trick,
    to_trick,
)
from .players import heuristic as heuristic_player
from .rules import (
    MAX_PLAYERS,
    R_HAND,
    R_KIND,
    R_PLAYERS,
    R_REVOKES,
    R_SETS,
    R_TARGET,
    R_TEAMS,
    R_UNIT,
    SCOTCH,
)

RANDOM = roster.PLAYERS.index(roster.random)  # the id of the random player
HEURISTIC = roster.PLAYERS.index(roster.heuristic)
BLOCK = 16  # games per parallel work item; any value gives the same results
MOVE_NOUN = "play"  # for errors: "illegal play 'TH'"
CLAIM_STREAM = 1 + MAX_PLAYERS  # after the seats' streams 1..8

# How a game ended.
ENDED_TARGET, ENDED_REVOKE, ENDED_DEAL = 0, 1, 2

SEAT_COLUMNS = ("won", "lost", "revokes", "tricks", "ten_caught", "ten_lost_at")
(C_WON, C_LOST, C_REVOKES, C_TRICKS, C_TEN_CAUGHT) = range(5)
C_TEN_LOST_AT = 5  # by turn position in the deal (0: elder hand, the dealer last), not by seat
SIDE_COLUMNS = (
    "won", "score", "points", "honours", "cards", "tricks", "trick_points", "penalty", "tens", "first_points",
)  # fmt: skip
(
    D_WON,
    D_SCORE,
    D_POINTS,
    D_HONOURS,
    D_CARDS,
    D_TRICKS,
    D_TRICK_POINTS,
    D_PENALTY,
    D_TENS,
    D_FIRST_POINTS,
) = range(10)
GAME_COLUMNS = (
    "first", "deals", "winner", "ended", "counted_out", "revoker", "revokes", "tens_caught", "ten_aside",
    "round_twice", "first_ten_side", "turnup_rank", "dealer_tricks", "dealer_points", "moves", "shuffles",
)  # fmt: skip
(
    G_FIRST, G_DEALS, G_WINNER, G_ENDED, G_COUNTED_OUT, G_REVOKER, G_REVOKES, G_TENS_CAUGHT, G_TEN_ASIDE,
    G_ROUND_TWICE, G_FIRST_TEN_SIDE, G_TURNUP_RANK, G_DEALER_TRICKS, G_DEALER_POINTS, G_MOVES, G_SHUFFLES,
) = range(16)  # fmt: skip
# Columns that mean nothing in one of the games, left out of its batches.
SCOTCH_ONLY = {"cards", "tens", "first_ten_side", "tens_caught", "ten_aside", "ten_caught", "ten_lost_at"}
WHIST_ONLY = {"trick_points", "penalty"}

# A logged deal, one int16 row: header, the shuffled pack, its result, revokes, moves.
L_GAME, L_DEAL, L_DEALER, L_MOVES, L_REVOKES = range(5)
L_DECK = 5
L_RESULT = L_DECK + 52  # rows P_HONOURS .. P_PENALTY of c.result, MAX_TEAMS each
N_LOGGED_PARTS = P_PENALTY + 1
L_REVOKE_LIST = L_RESULT + N_LOGGED_PARTS * MAX_TEAMS
L_MOVE = L_REVOKE_LIST + 2 * MAX_REVOKES
LOG_ROW = L_MOVE + 52

STATE_DTYPE = np.dtype(
    [
        ("core", CORE_DTYPE),  # the deal being played
        ("scratch", CORE_DTYPE),  # for search players
        ("deck", np.int8, (52,)),
        ("rng", np.uint64, (1,)),  # the deals' stream
        ("claim_rng", np.uint64, (1,)),
        ("start_score", np.int64, (MAX_TEAMS,)),  # each side's score before a game's first deal
        ("order", np.int64, (MAX_TEAMS,)),  # sides in order from the elder hand
        ("seat_acc", np.int64, (len(SEAT_COLUMNS), MAX_PLAYERS)),
        ("side_acc", np.int64, (len(SIDE_COLUMNS), MAX_TEAMS)),
        ("game_acc", np.int64, (len(GAME_COLUMNS),)),
    ],
    align=True,
)


# ---- the rules, as the harness calls them ------------------------------------


@njit(cache=True, inline="always")
def over(g):
    return g.core.table.s[S_PHASE] == OVER


@njit(cache=True, inline="always")
def to_move(g):
    return g.core.table.s[S_SEAT]


@njit(cache=True, inline="always")
def forced(g):
    return -1  # every card is the player's choice, even the only legal one


@njit(cache=True, inline="always")
def view(g, seat):
    return seat_view(g.core, seat, g.scratch)


@njit(cache=True, inline="always")
def check_move(g, a):
    return check(g.core, a)


@njit(cache=True, inline="always")
def apply_move(g, a):
    apply(g.core, a)


@njit(cache=True, inline="always")
def strategy_of(g, seat):
    return g.core.seats[seat].strategy


@njit(cache=True, inline="always")
def players_of(g):
    return g.core.table.rules[R_PLAYERS]


def new_state(rules, n: int = 1) -> np.ndarray:
    """``n`` state records for ``rules`` (a DealtRules); kernels work on ``buf[i]``."""
    buf = np.zeros(n, STATE_DTYPE)
    for part in ("core", "scratch"):
        buf[part]["table"]["rules"][:] = rules.to_array()
        buf[part]["table"]["team"][:] = rules.team_array()
    return buf


@njit(cache=True)
def _tally_deal(g, k, moves):
    """Add a finished deal to the game's columns."""
    c = g.core
    t = c.table
    r = t.rules
    p = r[R_PLAYERS]
    res = c.result
    s = t.s
    trump = s[S_TRUMP]
    dealer = s[S_DEALER]
    for side in range(r[R_TEAMS]):
        g.side_acc[D_POINTS, side] += res[P_POINTS, side]
        g.side_acc[D_HONOURS, side] += res[P_HONOURS, side]
        g.side_acc[D_CARDS, side] += res[P_CARDS, side]
        g.side_acc[D_TRICKS, side] += res[P_TRICKS, side]
        g.side_acc[D_TRICK_POINTS, side] += res[P_TRICK_POINTS, side]
        g.side_acc[D_PENALTY, side] += res[P_PENALTY, side]
        g.side_acc[D_TENS, side] += res[P_TEN, side] > 0
        if k == 0:
            g.side_acc[D_FIRST_POINTS, side] = res[P_POINTS, side]
    dealt_to = -1
    won_by = -1
    for q in range(p):
        g.seat_acc[C_TRICKS, q] += t.tricks[q]
        if (c.dealt[q, trump] >> TEN) & 1:
            dealt_to = q
        if (t.won_bits[q, trump] >> TEN) & 1:
            won_by = q
    for i in range(c.n_revokes):
        g.seat_acc[C_REVOKES, c.revokes[i, 0]] += 1
    acc = g.game_acc
    acc[G_REVOKES] += c.n_revokes
    acc[G_MOVES] += moves
    acc[G_ROUND_TWICE] += s[S_ROUND_TWICE]
    if r[R_KIND] == SCOTCH:
        if s[S_ASIDE_CARD] == trump * 13 + TEN:
            acc[G_TEN_ASIDE] += 1
        if won_by >= 0 and dealt_to >= 0 and t.team[won_by] != t.team[dealt_to]:
            acc[G_TENS_CAUGHT] += 1
            g.seat_acc[C_TEN_CAUGHT, won_by] += 1
            g.seat_acc[C_TEN_LOST_AT, (dealt_to - dealer - 1 + p) % p] += 1
    if k == 0:
        acc[G_FIRST_TEN_SIDE] = t.team[won_by] if won_by >= 0 else -1
        acc[G_TURNUP_RANK] = s[S_TURNUP] % 13
        acc[G_DEALER_TRICKS] = res[P_TRICKS, t.team[dealer]]
        acc[G_DEALER_POINTS] = res[P_POINTS, t.team[dealer]]


@njit(cache=True)
def _log_deal(g, row, k, deck, moves):
    c = g.core
    row[L_DEAL] = k
    row[L_DEALER] = c.table.s[S_DEALER]
    row[L_MOVES] = moves
    row[L_REVOKES] = c.n_revokes
    for j in range(deck.shape[0]):
        row[L_DECK + j] = deck[j]
    for part in range(N_LOGGED_PARTS):
        for side in range(MAX_TEAMS):
            row[L_RESULT + part * MAX_TEAMS + side] = c.result[part, side]
    for j in range(c.n_revokes):
        row[L_REVOKE_LIST + 2 * j] = c.revokes[j, 0]
        row[L_REVOKE_LIST + 2 * j + 1] = c.revokes[j, 1]


@njit(cache=True)
def _all_random(c):
    """Does every seat play ``random``, under rules that allow no revoke (so it always follows),
    with no events asked for?"""
    t = c.table
    if t.rules[R_REVOKES] or c.ev_on:
        return False
    for q in range(t.rules[R_PLAYERS]):
        if c.seats[q].strategy != RANDOM:
            return False
    return True


@njit(cache=True)
def _all_plain(c):
    """Does every seat play ``random`` or ``heuristic``, under rules that allow no revoke, with no
    events asked for? (Those players read only the hands, the trick, the cards played, voids and
    leads, which :func:`_plain_deal` keeps as the engine does.)"""
    t = c.table
    if t.rules[R_REVOKES] or c.ev_on:
        return False
    for q in range(t.rules[R_PLAYERS]):
        sid = c.seats[q].strategy
        if sid != RANDOM and sid != HEURISTIC:
            return False
    return True


if FAST_PDEP:

    @njit(cache=True, inline="always")
    def _pick(own, k):
        """The ``k``-th card of the hand in suit order (``random.pick_from`` with no suit avoided),
        as (suit, rank)."""
        b = own.bits
        card = nth(b[0] | (b[1] << 13) | (b[2] << 26) | (b[3] << 39), k)  # bit = card code
        suit = np.int64(card >= 13) + np.int64(card >= 26) + np.int64(card >= 39)
        return suit, card - 13 * suit

else:

    @njit(cache=True, inline="always")
    def _pick(own, k):
        """The ``k``-th card of the hand in suit order (``random.pick_from`` with no suit avoided),
        as (suit, rank)."""
        for suit in range(3):
            m = own.bits[suit]
            c = popcount(m)
            if k < c:
                return suit, nth(m, k)
            k -= c
        return 3, nth(own.bits[3], k)


@njit(cache=True, inline="always")
def _deal_over(c, followed, leader, last, winner, round_twice):
    """The state as the last card leaves it (engine.apply and _settle), in the own loops: the
    engine's per-card bookkeeping they skip; then the deal ends as the engine ends it."""
    t = c.table
    s = t.s
    r = t.rules
    for q in range(r[R_PLAYERS]):
        t.hand_n[q] = 0
    s[S_LED] = -1
    s[S_TRICK_LEN] = 0
    s[S_ALL_FOLLOWED] = followed
    s[S_LEADER] = leader
    s[S_SEAT] = last
    s[S_WINNER] = winner
    s[S_TRICK] = r[R_SETS] * r[R_HAND]
    s[S_SET_TRICK] = r[R_HAND]
    s[S_SET] = r[R_SETS] - 1
    s[S_ROUND_TWICE] = round_twice
    end_deal(c)


@njit(cache=True)
def _random_deal(c, moves, limit):
    """The deal just dealt, every seat playing ``random`` and no revoke allowed: the same cards
    as the shared loop (``play_deal``) would play, drawn from the same streams in the same order,
    leaving the same state; but without a view, a legality check or events per card (every card
    ``random`` picks is legal), each card through the engine's ``to_trick`` without the table's
    upkeep that no ``random`` player reads. Returns the cards played; the first ``limit`` are
    logged."""
    t = c.table
    s = t.s
    r = t.rules
    p = r[R_PLAYERS]
    trump = s[S_TRUMP]
    scotch = r[R_KIND] == SCOTCH
    seat = s[S_SEAT]
    m = 0
    round_twice = 0
    n_sets = r[R_SETS]
    hand = r[R_HAND]
    leader = seat
    led = 0
    best = 0
    best_pw = 0
    followed = 1
    won = np.int64(0)
    for k in range(n_sets):
        if k > 0:
            load_set(c, k)
        for _ in range(hand):
            leader = seat
            for i in range(p):
                own = c.seats[seat]
                # the step in each branch: there LLVM knows whether the card leads or follows suit
                if i == 0:  # the lead: a uniform card of the hand
                    suit, rank = _pick(own, randbelow(own.rng, 0, own.n))
                    led, best, best_pw, followed, won = to_trick(
                        t, own, seat, i, suit, rank, led, trump, scotch, best, best_pw, followed, won, False
                    )
                elif own.bits[led] != 0:  # follow: a uniform card of the suit led
                    held = own.bits[led]
                    suit = led
                    rank = nth(held, randbelow(own.rng, 0, popcount(held)))
                    led, best, best_pw, followed, won = to_trick(
                        t, own, seat, i, suit, rank, led, trump, scotch, best, best_pw, followed, won, False
                    )
                else:
                    suit, rank = _pick(own, randbelow(own.rng, 0, own.n))
                    led, best, best_pw, followed, won = to_trick(
                        t, own, seat, i, suit, rank, led, trump, scotch, best, best_pw, followed, won, False
                    )
                if m < limit:
                    moves[m] = seat * MOVE_SEAT + suit * 13 + rank
                m += 1
                if i + 1 < p:
                    seat = seat + 1 if seat + 1 < p else 0
            last = seat
            seat = t.trick_seat[best]
            round_twice |= take_trick(t, seat, won, p, led, trump, followed)
    for suit in range(4):  # set per card by the shared loop
        played = 0
        for q in range(p):
            played |= c.dealt[q, suit]
        t.played[suit] = played
    s[S_BEST] = best
    s[S_BEST_POWER] = best_pw
    _deal_over(c, followed, leader, last, seat, round_twice)
    return m


@njit(cache=True, inline="always")
def _random_card(own, led):
    """``random``'s card with no revoke allowed, as :func:`_random_deal` draws it."""
    if led >= 0:
        held = own.bits[led]
        if held != 0:
            return led * 13 + nth(held, randbelow(own.rng, 0, popcount(held)))
    suit, rank = _pick(own, randbelow(own.rng, 0, own.n))
    return suit * 13 + rank


@njit(cache=True)
def _plain_deal(c, moves, limit):
    """The deal just dealt, every seat ``random`` or ``heuristic`` and no revoke allowed (see
    :func:`_all_plain`): the same decisions as the shared loop (``play_deal``), asked with the same
    view, checked (a card held, following suit when able) and leaving the same state; but a trick
    at a time, each card through the engine's ``to_trick``, without the engine's per-card
    bookkeeping that these players never read (the seat to play, the cards left per seat,
    events); ``random`` seats draw as in :func:`_random_deal`. Returns (OK, cards played, 0) or,
    on an illegal card, (error, seat, card); the first ``limit`` cards are logged."""
    t = c.table
    s = t.s
    r = t.rules
    p = r[R_PLAYERS]
    trump = s[S_TRUMP]
    scotch = r[R_KIND] == SCOTCH
    seat = s[S_SEAT]
    m = 0
    round_twice = 0
    n_sets = r[R_SETS]
    hand = r[R_HAND]
    leader = seat
    best = 0
    best_pw = 0
    followed = 1
    won = np.int64(0)
    last = seat
    for k in range(n_sets):
        if k > 0:
            load_set(c, k)
        for _ in range(hand):
            leader = seat
            led = -1
            for i in range(p):
                own = c.seats[seat]
                if own.strategy == RANDOM:
                    a = _random_card(own, led)  # always legal
                else:
                    a = heuristic_player.choose(DealtView(seat, p, trump, led, i, t, own, c))
                    e = check_card(own, a, led, 0)  # no revokes here (_all_plain); random's cards
                    if e != OK:  # are always legal
                        return e, seat, a
                suit = a // 13
                rank = a - 13 * suit
                led, best, best_pw, followed, won = to_trick(
                    t, own, seat, i, suit, rank, led, trump, scotch, best, best_pw, followed, won, True
                )
                if m < limit:
                    moves[m] = seat * MOVE_SEAT + a
                m += 1
                last = seat
                if i + 1 < p:
                    seat = seat + 1 if seat + 1 < p else 0
            seat = t.trick_seat[best]
            round_twice |= take_trick(t, seat, won, p, led, trump, followed)
    _deal_over(c, followed, leader, last, seat, round_twice)
    return OK, m, 0


@template
def play_game(g, base_deck, seed, game, first, log, logging, extra):
    """Play one whole game; the elder hand of its first deal is seat ``first``.
    ``extra[0]`` bounds its deals; with ``logging`` each deal is a row of ``log``;
    ``extra[1]`` (if given) non-zero plays every deal through the shared loop, even
    when every seat is ``random`` or ``heuristic`` (which have loops of their own, with the
    same result); ``extra[2:]`` (if given) is a constraint on every deal (harness.deal).

    Returns (0, deals, 0) or, on an illegal play, (error, seat, card); (NO_DEAL, deal, 0)
    when no deal met the constraint within its cap of draws.
    """
    max_deals = extra[0]
    c = g.core
    t = c.table
    r = t.rules
    p = r[R_PLAYERS]
    g.rng[0] = stream_start(seed, game, np.int64(DECK_STREAM))
    g.claim_rng[0] = stream_start(seed, game, np.int64(CLAIM_STREAM))
    for q in range(p):
        c.seats[q].rng[0] = stream_start(seed, game, 1 + q)
    # Loops: Numba's slice assignment costs more than the work.
    for j in range(len(SEAT_COLUMNS)):
        for q in range(MAX_PLAYERS):
            g.seat_acc[j, q] = 0
    for j in range(len(SIDE_COLUMNS)):
        for side in range(MAX_TEAMS):
            g.side_acc[j, side] = 0
    for j in range(len(GAME_COLUMNS)):
        g.game_acc[j] = 0
    for side in range(MAX_TEAMS):
        t.score[side] = g.start_score[side]
    n = base_deck.shape[0]
    deck = g.deck[:n]
    dealer = first - 1 if first > 0 else p - 1
    winner = -1
    revoker = -1
    ended = ENDED_DEAL
    # Which loop plays and whether a constraint is dealt are fixed for a run (per_run): a run
    # compiles only the branches it takes.
    k = np.int64(0)  # typed: a literal 0 would compile _tally_deal for it too
    while k < max_deals:
        t.s[S_DEAL] = k
        for j in range(n):
            deck[j] = base_deck[j]
        shuffle(deck, g.rng, 0)
        if per_run(extra.shape[0] > 2):
            drawn = draw_deal(extra[2:], deck, g.rng, dealer)
            if drawn == 0:
                return NO_DEAL, k, 0
            g.game_acc[G_SHUFFLES] += drawn
        else:
            g.game_acc[G_SHUFFLES] += 1
        deal_from_deck(c, deck, dealer)
        if per_run((extra.shape[0] < 2 or extra[1] == 0) and _all_random(g.core)):
            m = _random_deal(c, log[k, L_MOVE:], 52 if logging else 0)
        elif per_run((extra.shape[0] < 2 or extra[1] == 0) and _all_plain(g.core)):
            e, m, a = _plain_deal(c, log[k, L_MOVE:], 52 if logging else 0)
            if e != OK:
                return e, m, a
        else:
            e, m, a = play_deal(g, log[k, L_MOVE:], 52 if logging else 0)
            if e != OK:
                return e, m, a
        if logging:
            _log_deal(g, log[k], k, deck, m)  # the deal as its record scores it, before the claims
        revoker = claims(c, g.claim_rng)
        _tally_deal(g, k, m)
        k += 1
        if revoker >= 0:
            ended = ENDED_REVOKE
            break
        winner = count_out(c, dealer, g.order)
        if winner >= 0:
            ended = ENDED_TARGET
            high = 0
            for side in range(r[R_TEAMS]):
                high += t.score[side] >= r[R_TARGET]
            g.game_acc[G_COUNTED_OUT] = high >= 2
            break
        if r[R_UNIT] == 1:
            break
        dealer = dealer + 1 if dealer + 1 < p else 0
    end_game(t, winner, revoker, g.side_acc[D_WON], g.seat_acc[C_WON], g.seat_acc[C_LOST])
    for side in range(r[R_TEAMS]):
        g.side_acc[D_SCORE, side] = t.score[side]
    acc = g.game_acc
    acc[G_FIRST] = first
    acc[G_DEALS] = k
    acc[G_WINNER] = winner
    acc[G_ENDED] = ended
    acc[G_REVOKER] = revoker
    return OK, k, 0


@njit(cache=True)
def record(g, i, outs, deals):
    """A finished game's columns: ``outs`` is (seat, side and game columns)."""
    seat_out, side_out, game_out = outs
    r = g.core.table.rules
    for j in range(seat_out.shape[0]):
        for q in range(r[R_PLAYERS]):
            seat_out[j, i, q] = g.seat_acc[j, q]
    for j in range(side_out.shape[0]):
        for side in range(r[R_TEAMS]):
            side_out[j, i, side] = g.side_acc[j, side]
    for j in range(game_out.shape[0]):
        game_out[j, i] = g.game_acc[j]


def decide_now(buf: np.ndarray) -> int:
    """The card the player to play in ``buf[0]`` would choose, with the strategy, parameters
    and random stream set in its seat record (the state is left as it was, but for the stream)."""
    core = buf[0]["core"]
    ids = [int(i) for i in core["seats"]["strategy"][: int(core["table"]["rules"][R_PLAYERS])]]
    return int(kernel(sys.modules[__name__], roster, ids).decide_now(buf))


def _card_text(a: int) -> str:
    return card_name(a) if 0 <= a < 52 else f"<card {a}>"


def play_batch(
    rules,
    ids: np.ndarray,
    params: np.ndarray,
    *,
    seed: int,
    start: int = 0,
    n: int,
    first: int = -1,
    log_games: int = 0,
    start_score: tuple[int, ...] = (),
    shared_loop: bool = False,
    where: np.ndarray | None = None,
) -> Batch:
    """Play whole games ``start .. start + n - 1``; log every deal of the first ``log_games``.

    ``first`` is the elder hand (the first to play) of each game's first deal;
    the dealer sits on its right. ``batch.logs`` holds one row per logged deal.
    ``start_score`` (one per side, each short of the target; empty: all 0) is the
    score every game starts from, to play games on from a given score.
    ``shared_loop`` plays every deal through the harness's loop even when every seat
    is ``random`` or ``heuristic`` (which have faster loops of their own, with the same result:
    the tests compare them). ``where``: a compiled constraint every deal must meet
    (``whistsim.deals.constraints``); the game column ``shuffles`` counts the deals drawn.
    """
    p = rules.players
    states = new_state(rules, numba.get_num_threads())
    if start_score:
        if len(start_score) != rules.n_teams or not all(0 <= int(x) < rules.target for x in start_score):
            raise WhistsimError(
                f"start score {list(start_score)}: expected {rules.n_teams} scores from 0 to {rules.target - 1}"
            )
        states["start_score"][:, : rules.n_teams] = start_score
    states["core"]["seats"]["strategy"][:, :p] = ids
    states["core"]["seats"]["params"][:, :p] = params
    nt = rules.n_teams
    seat_out = np.zeros((len(SEAT_COLUMNS), n, p), np.int32)
    side_out = np.zeros((len(SIDE_COLUMNS), n, nt), np.int32)
    game_out = np.zeros((len(GAME_COLUMNS), n), np.int32)
    max_deals = rules.max_deals()
    n_logged = min(log_games, n)
    logs = np.full((max(1, n_logged), max_deals, LOG_ROW), -1, np.int16)
    run_kernel(sys.modules[__name__], roster, ids, states, rules.deck(), (seat_out, side_out, game_out), logs,
               n=n, n_logged=n_logged, seed=seed, start=start, first=first,
               extra=np.concatenate([[max_deals, shared_loop], [] if where is None else where]).astype(np.int64),
               describe=_card_text)  # fmt: skip
    drop = WHIST_ONLY if rules.kind == SCOTCH else SCOTCH_ONLY
    deals = game_out[GAME_COLUMNS.index("deals")]
    logs[:, :, L_GAME] = np.arange(logs.shape[0])[:, None]
    rows = [
        logs[i, k, : L_MOVE + logs[i, k, L_MOVES]].copy() for i in range(n_logged) for k in range(deals[i])
    ]
    return Batch(
        start,
        {k: v for k, v in zip(SEAT_COLUMNS, seat_out, strict=False) if k not in drop},
        {k: v for k, v in zip(GAME_COLUMNS, game_out, strict=False) if k not in drop},
        {k: v for k, v in zip(SIDE_COLUMNS, side_out, strict=False) if k not in drop},
        logs=rows,
    )


# What the harness's generated kernel reads from this module (harness.build.REQUIRED), and the API.
__all__ = [
    "over",
    "to_move",
    "forced",
    "view",
    "check_move",
    "apply_move",
    "strategy_of",
    "players_of",
    "record",
    "play_game",
    "BLOCK",
    "STATE_DTYPE",
    "ENGINE_ERRORS",
    "MOVE_NOUN",
    "play_batch",
    "decide_now",
    "new_state",
    "TABLE_DTYPE",
]
