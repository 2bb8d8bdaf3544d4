"""Oh Hell's kernel parts: what the shared harness needs to play whole games.

A game is the whole schedule of rounds, played through the shared loop (``play_deal``)
in one call: the engine starts each round when the last ends. When every seat plays
``random`` (and no events are asked for) a loop of its own (:func:`_random_game`) plays
the same games through the engine's steps, without a view, a check or the phase's dispatch
per move. Round ``k`` of game ``i``
is the ``k``-th shuffle of stream 0 of (seed, i), all dealt before play; each seat's
player draws on stream ``1 + seat``. So a game's course is a function of (seed, game
index) alone, and swapping one seat's player leaves the deals and the others' streams alone.
"""

from __future__ import annotations

import sys

import numba
import numpy as np
from numba import njit

from ...core.batch import Batch
from ...core.bits import lowest, nth
from ...core.cards import card_name
from ...core.rng import (
    DECK_STREAM,
    ahead_load,
    ahead_store,
    pick_bit_ahead,
    randbelow,
    randbelow_ahead,
    shuffle,
    stream_start,
)
from ...harness import template
from ...harness.batch import run_kernel
from ...harness.loop import MOVE_SEAT, per_run, play_deal
from . import players as roster
from .engine import (
    BID_BASE,
    ENGINE_ERRORS,
    G_MOVES,
    GAME_COLUMNS,
    OK,
    OVER,
    PLAY,
    R_PLAYERS,
    R_ROUNDS,
    S_HAND,
    S_PHASE,
    S_SEAT,
    S_TRUMP,
    SEAT_COLUMNS,
    STATE_DTYPE,
    apply,
    check,
    deal_round,
    hooked_bid,
    make_bid,
    next_round,
    round_played,
    seat_view,
    start_game,
    to_trick,
    win_trick,
)
from .engine import MAX_ROUNDS as MAX_ROUNDS
from .engine import TABLE_DTYPE as TABLE_DTYPE

BLOCK = 8  # games per parallel work item; any value gives the same results
RANDOM = roster.PLAYERS.index(roster.random)  # the id of the random player
MOVE_NOUN = "move"  # for errors: "illegal move 'bid 3'"

__all__ = ["over", "to_move", "forced", "view", "check_move", "apply_move", "strategy_of", "players_of",
           "record", "play_game", "BLOCK", "STATE_DTYPE", "ENGINE_ERRORS", "MOVE_NOUN", "play_batch",
           "new_state", "action_name", "parse_action", "deal_all"]  # fmt: skip


# ---- the rules, as the harness calls them ------------------------------------


@njit(cache=True, inline="always")
def over(g):
    return g.round.table.s[S_PHASE] == OVER


@njit(cache=True, inline="always")
def to_move(g):
    return g.round.table.s[S_SEAT]


@njit(cache=True, inline="always")
def forced(g):
    """The last card of a hand is played for the player (it has no choice)."""
    t = g.round.table
    if t.s[S_PHASE] != PLAY:
        return -1
    own = g.round.seats[t.s[S_SEAT]]
    if own.n != 1:
        return -1
    for suit in range(4):
        if own.bits[suit] != 0:
            m = own.bits[suit]
            r = 0
            while not (m >> r) & 1:
                r += 1
            return suit * 13 + r
    return -1


@njit(cache=True, inline="always")
def view(g, seat):
    return seat_view(g.round, seat, g.scratch)


@njit(cache=True, inline="always")
def check_move(g, a):
    return check(g.round, a)


@njit(cache=True, inline="always")
def apply_move(g, a):
    apply(g, a)


@njit(cache=True, inline="always")
def strategy_of(g, seat):
    return g.round.seats[seat].strategy


@njit(cache=True, inline="always")
def players_of(g):
    return g.round.table.rules[R_PLAYERS]


def new_state(rules, n: int = 1) -> np.ndarray:
    """``n`` state records for ``rules`` (OhHellRules); kernels work on ``buf[i]``."""
    buf = np.zeros(n, STATE_DTYPE)
    sizes, no_trump = rules.sizes(), rules.no_trump()
    pack = np.zeros(4, np.int64)
    for c in rules.pack():
        pack[c // 13] |= 1 << (c % 13)
    for part in ("round", "scratch"):
        buf[part]["table"]["rules"][:] = rules.to_array()
        buf[part]["table"]["pack"][:] = pack
    buf["sizes"][:, : len(sizes)] = sizes
    buf["no_trump"][:, : len(sizes)] = no_trump
    buf["turnups"][:] = -1
    return buf


@njit(cache=True)
def deal_all(g, base_deck, seed, game, first):
    """Seed game ``game``'s streams and deal every round of its schedule; the dealer of the
    first round sits on ``first``'s right, and the deal passes to the left."""
    t = g.round.table
    p = t.rules[R_PLAYERS]
    g.rng[0] = stream_start(seed, game, np.int64(DECK_STREAM))
    for q in range(p):
        g.round.seats[q].rng[0] = stream_start(seed, game, 1 + q)
    n = base_deck.shape[0]
    deck = g.deck[:n]
    dealer = first - 1 if first > 0 else p - 1
    for k in range(t.rules[R_ROUNDS]):
        for j in range(n):
            deck[j] = base_deck[j]
        shuffle(deck, g.rng, 0)
        deal_round(g, k, deck, dealer)
        dealer = dealer + 1 if dealer + 1 < p else 0


@njit(cache=True)
def _all_random(g):
    """Does every seat play ``random``, with no events asked for?"""
    c = g.round
    if c.ev_on:
        return False
    for q in range(c.table.rules[R_PLAYERS]):
        if c.seats[q].strategy != RANDOM:
            return False
    return True


@njit(cache=True, inline="always")
def _any_card(own, left, ahead, seat):
    """``random``'s card when it may play any (``random.card``) from a hand of ``left`` cards, as
    (suit, rank): the hand's ``k``-th card in suit order, ``k`` uniform, drawn from the seat's
    stream a number ahead (row ``seat`` of ``ahead``), found by one ``pdep`` (where fast) in the
    hand as one mask with 16 bits a suit, so that the suit and rank are a shift and a mask."""
    b = own.bits
    held = b[0] | (b[1] << 16) | (b[2] << 32) | (b[3] << 48)  # bit = 16 * suit + rank
    x = nth(held, randbelow_ahead(ahead, seat, left))
    return x >> 4, x & 15


@njit(cache=True, inline="always")
def _random_bid(t, own):
    """``random``'s bid (``random.bid``), drawn the same: the ``k``-th legal bid from 0, ``k``
    uniform, the one bid the engine's hook forbids (``hooked_bid``) skipped, without a pass over
    the bids."""
    n = t.s[S_HAND]
    no = hooked_bid(t)
    barred = 0 <= no <= n
    k = randbelow(own.rng, 0, n + 1 - barred)
    return BID_BASE + k + (1 if barred and no <= k else 0)


@njit(cache=True, inline="always")
def _random_card(own, led, left, ahead, seat):
    """``random``'s card to a trick led in ``led`` (``random.card``), as (suit, rank); a discard by
    :func:`_any_card`."""
    m = own.bits[led]
    if m != 0:
        return led, pick_bit_ahead(ahead, seat, m)
    return _any_card(own, left, ahead, seat)


@njit(cache=True, inline="always")
def _only_card(own):
    """The one card left in a hand (``forced``: played without asking the player), as (suit, rank)."""
    b = own.bits
    suit = np.int64(b[1] != 0) + 2 * np.int64(b[2] != 0) + 3 * np.int64(b[3] != 0)
    return suit, lowest(b[suit])


@njit(cache=True)
def _random_game(g, moves, limit):
    """The game just started, every seat playing ``random`` with no events asked for (see
    :func:`_all_random`): the same moves as the shared loop (``play_deal``) would make, drawn
    from the same streams in the same order (the last card of a hand played unasked), through
    the engine's steps (``make_bid``, ``to_trick``, ``win_trick``, ``round_played``,
    ``next_round``), leaving the same state; but a trick at a time, the trick's running values in
    locals, without a view, a legality check or the phase's dispatch per move (``random`` only
    makes legal ones); what ``random`` never reads (the counts of cards held and played, the
    table's trick values and trick count) is set once a round, by ``round_played``, rather than
    per card or per trick. Returns the moves made; the first ``limit`` are logged."""
    c = g.round
    t = c.table
    s = t.s
    p = t.rules[R_PLAYERS]
    m = 0
    while s[S_PHASE] != OVER:
        seat = s[S_SEAT]
        for _ in range(p):  # the bids, from the dealer's left; the hook binds the last
            a = _random_bid(t, c.seats[seat])
            if m < limit:
                moves[m] = seat * MOVE_SEAT + a
            m += 1
            make_bid(t, seat, a - BID_BASE)
            seat = seat + 1 if seat + 1 < p else 0
        trump = s[S_TRUMP]
        tricks = s[S_HAND]
        # the cards drawn from the seats' streams kept a number ahead: the trick's leader, known
        # only when the last trick is won, reads its number at once rather than waiting on the mixing
        for q in range(p):
            ahead_load(g.ahead, q, c.seats[q].rng, 0)
        for k in range(tricks):
            left = tricks - k  # cards in each hand
            last = left == 1
            led = 0
            best = np.int64(0)  # typed: literal 0s would compile round_played for them too
            best_pw = np.int64(0)
            for i in range(p):
                own = c.seats[seat]
                if last:
                    suit, rank = _only_card(own)
                elif i == 0:
                    suit, rank = _any_card(own, left, g.ahead, seat)
                else:
                    suit, rank = _random_card(own, led, left, g.ahead, seat)
                if m < limit:
                    moves[m] = seat * MOVE_SEAT + suit * 13 + rank
                m += 1
                led, best, best_pw = to_trick(c, seat, i, suit, rank, led, trump, best, best_pw)
                seat = seat + 1 if seat + 1 < p else 0
            seat = t.trick_seat[best]
            if last:  # the round's counts and the trick's values set, the last trick taken (DONE)
                for q in range(p):
                    ahead_store(g.ahead, q, c.seats[q].rng, 0)
                round_played(g, seat, best, best_pw)
            else:
                win_trick(t, seat)
        next_round(g)
    return m


@template
def play_game(g, base_deck, seed, game, first, log, logging, extra):
    """Play one whole game, every round of the schedule; the first round's elder hand is
    seat ``first``. ``extra[0]`` non-zero plays it through the shared loop even when every seat
    is ``random`` (which has a loop of its own, with the same result). Returns (0, moves, 0)
    or, on an illegal move, (error, seat, move)."""
    deal_all(g, base_deck, seed, game, first)
    start_game(g, first)
    limit = log.shape[0] if logging else 0
    if per_run(extra[0] == 0 and _all_random(g)):  # then the shared loop is not compiled
        m = _random_game(g, log, limit)
    else:
        e, m, a = play_deal(g, log, limit)
        if e != OK:
            return e, m, a
    g.game_acc[G_MOVES] = m
    return OK, m, 0


@njit(cache=True)
def record(g, i, outs, moves):
    """A finished game's columns: ``outs`` is (seat columns, game columns)."""
    seat_out, game_out = outs
    p = g.round.table.rules[R_PLAYERS]
    for j in range(seat_out.shape[0]):
        for q in range(p):
            seat_out[j, i, q] = g.seat_acc[j, q]
    for j in range(game_out.shape[0]):
        game_out[j, i] = g.game_acc[j]


# ---- moves as text -------------------------------------------------------------


def action_name(a: int) -> str:
    """A move as records write it: ``"bid 2"`` or a card code ``"TH"``."""
    a = int(a)
    if a >= BID_BASE:
        return f"bid {a - BID_BASE}"
    return card_name(a) if 0 <= a < 52 else f"<move {a}>"


def parse_action(text: str) -> int:
    """``"bid 2"`` -> a bid; ``"TH"`` -> a card; ValueError otherwise."""
    from ...core.cards import parse_card

    s = text.strip()
    word, _, n = s.partition(" ")
    if word.lower() == "bid":
        n = n.strip()
        if not (n.isascii() and n.isdigit()) or int(n) > 52:
            raise ValueError(f"not a bid: {text!r} (expected 'bid N', N a number of tricks)")
        return BID_BASE + int(n)
    c = parse_card(s)
    if c >= 52:
        raise ValueError(f"not a card of Oh Hell: {text!r}")
    return c


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
    shared_loop: bool = False,
) -> Batch:
    """Play whole games ``start .. start + n - 1``; log the moves of the first ``log_games``.

    ``first`` is the elder hand (the first to bid and to lead) of each game's first round;
    the dealer sits on its right. ``batch.logs`` holds one row per logged game.
    ``shared_loop`` plays every game through the harness's loop even when every seat is
    ``random`` (which has a faster loop of its own, with the same result: the tests compare them).
    """
    p = rules.players
    states = new_state(rules, numba.get_num_threads())
    states["round"]["seats"]["strategy"][:, :p] = ids
    states["round"]["seats"]["params"][:, :p] = params
    seat_out = np.zeros((len(SEAT_COLUMNS), n, p), np.int32)
    game_out = np.zeros((len(GAME_COLUMNS), n), np.int32)
    n_logged = min(log_games, n)
    logs = np.full((max(1, n_logged), rules.max_moves()), -1, np.int16)
    run_kernel(sys.modules[__name__], roster, ids, states, rules.deck(), (seat_out, game_out), logs, n=n,
               n_logged=n_logged, seed=seed, start=start, first=first, describe=action_name,
               extra=np.array([shared_loop], np.int64))  # fmt: skip
    moves = game_out[GAME_COLUMNS.index("moves")]
    return Batch(
        start,
        dict(zip(SEAT_COLUMNS, seat_out, strict=True)),
        dict(zip(GAME_COLUMNS, game_out, strict=True)),
        logs=[logs[i, : moves[i]].copy() for i in range(n_logged)],
    )
