"""Welsh Whist's kernel parts: what the shared harness needs to play it in batches.

The harness (``whistsim.harness``) writes the kernel from these functions and
the players seated in a run; :func:`play_batch` allocates its inputs and
outputs.
"""

from __future__ import annotations

import sys

import numba
import numpy as np
from numba import njit

from ...core.batch import Batch
from ...core.cards import TAFFY
from ...core.rng import ahead_load, ahead_store, shuffle_stock
from ...harness import template
from ...harness.batch import play_batch as shared_batch
from ...harness.build import kernel
from ...harness.deal import NO_DEAL, draw_deal
from ...harness.loop import MOVE_SEAT, per_run, play_deal
from . import players as roster
from .engine import (
    DRAW,
    ENGINE_ERRORS,
    FOLLOW,
    NO_CHALLENGES,
    OK,
    OVER,
    PASS,
    S_BEST_POWER,
    S_CHALLENGES,
    S_CHALLENGES_WON,
    S_DRAWS,
    S_FIRST,
    S_KEPT,
    S_KEPT_FIVES,
    S_KEPT_TT,
    S_LAST_HOLDER,
    S_MET,
    S_MET_TAFFY,
    S_MET_TEN,
    S_PASSES,
    S_PHASE,
    S_SEAT,
    S_STOCK,
    S_TOP,
    S_TRICK_LEN,
    S_TRICKS,
    S_TURNS,
    STATE_DTYPE,
    apply,
    can_follow,
    check,
    close_trick,
    count_tens,
    draw,
    end_trick,
    forced,
    in_play,
    new_state,
    play_card,
    players,
    reset,
    score,
    seat_view,
    try_apply,
    turn_after,
)
from .moves import action_name
from .players import greedy
from .players.random import draw_limit, follow_uniform, turn_uniform
from .rules import R_CHALLENGE, R_REVOKES, R_TAFFY_EQUALS_TEN, WelshRules

# What the harness's generated kernel reads from this module (harness.build.REQUIRED).
__all__ = [
    "BLOCK",
    "ENGINE_ERRORS",
    "MOVE_NOUN",
    "STATE_DTYPE",
    "apply_move",
    "check_move",
    "decide_now",
    "forced",
    "over",
    "play_batch",
    "play_game",
    "players_of",
    "record",
    "strategy_of",
    "to_move",
    "view",
]

BLOCK = 64  # games per parallel work item; any value gives the same results
RANDOM = roster.PLAYERS.index(roster.random)  # the id of the random player
GREEDY = roster.PLAYERS.index(roster.greedy)
MOVE_NOUN = "decision"  # for errors: "illegal decision 'draw'"

# ---- the rules, as the harness calls them ------------------------------------


@njit(cache=True, inline="always")
def over(g):
    return g.table.s[S_PHASE] == OVER


@njit(cache=True, inline="always")
def to_move(g):
    return g.table.s[S_SEAT]


@njit(cache=True, inline="always")
def view(g, seat):
    return seat_view(g, seat)


@njit(cache=True, inline="always")
def check_move(g, a):
    return check(g, a)


@njit(cache=True, inline="always")
def apply_move(g, a):
    apply(g, a)


# check_move then apply_move as the engine compiles them once (pimc calls it too): the every-player
# kernel's loop and the table's step call it instead of typing the rules into each again.
try_move = try_apply


@njit(cache=True, inline="always")
def strategy_of(g, seat):
    return g.seats[seat].strategy


@njit(cache=True, inline="always")
def players_of(g):
    return players(g)


SEAT_COLUMNS = ("points", "cards_won", "tens", "taffies")
GAME_COLUMNS = (
    "first", "tricks", "turns", "draws", "passes", "false_passes",
    "challenges", "challenges_won", "last_holder", "kept", "moves",
    "kept_tt", "kept_fives", "met", "met_taffy", "met_ten", "shuffles",
)  # fmt: skip
_PUBLIC = (S_FIRST, S_TRICKS, S_TURNS, S_DRAWS, S_PASSES)
_PUBLIC2 = (S_CHALLENGES, S_CHALLENGES_WON, S_LAST_HOLDER, S_KEPT)
_COUNTS = (S_KEPT_TT, S_KEPT_FIVES, S_MET, S_MET_TAFFY, S_MET_TEN)  # after ``moves``, then ``shuffles``


def max_moves(rules: WelshRules) -> int:
    """An upper bound on decisions in one deal: draws, leads, answers, challenges."""
    return rules.stock_size * (rules.players + 2) + 1


@njit(cache=True)
def deal_stock(g, base_deck, seed, game):
    """Seed the game's streams and shuffle the stock: a function of (seed, game) alone."""
    shuffle_stock(g, base_deck, seed, game, players(g))


@njit(cache=True)
def _deal_where(g, base_deck, seed, game, where):
    """:func:`deal_stock`, the stock redrawn from its stream until it meets the constraint
    ``where`` (harness.deal; empty: none). False: none met it within the program's cap."""
    shuffle_stock(g, base_deck, seed, game, players(g))
    g.shuffles = 1
    if where.shape[0] > 0:
        # the dealer typed as the dealt games pass it: a literal 0 would compile draw_deal again
        g.shuffles = draw_deal(where, g.deck[: base_deck.shape[0]], g.rng, np.int64(0))
    return g.shuffles > 0


@njit(cache=True)
def _stock_where(buf, base_deck, seed, game, where):
    _deal_where(buf[0], base_deck, seed, game, where)


@njit(cache=True)
def _all_plain(g):
    """Does every seat play ``random`` or ``greedy``, with no false pass allowed, no challenge
    and no events asked for? (Then greedy decides by its turn and follow rules alone.)"""
    r = g.table.rules
    if r[R_REVOKES] or r[R_CHALLENGE] != NO_CHALLENGES or g.ev_on:
        return False
    for q in range(players(g)):
        sid = g.seats[q].strategy
        if sid != RANDOM and sid != GREEDY:
            return False
    return True


@njit(cache=True)
def _any_greedy(g):
    """Does some seat play ``greedy``?"""
    for q in range(players(g)):
        if g.seats[q].strategy == GREEDY:
            return True
    return False


# The engine's end of a trick, compiled into the own loop rather than called: a call per trick
# makes LLVM reload the loop's state after it. The same function (the rule written once).
_end_trick = njit(inline="always")(end_trick.py_func)


@njit(cache=True)
def _greedy_turn(g, seat):
    """``greedy``'s decision on its turn, checked by the engine: (error, action). Out of the own
    loop, so that the random seats' decisions there are one small body."""
    a = forced(g)  # an empty hand draws unasked
    if a >= 0:
        return OK, a
    a = greedy.decide(seat_view(g, seat))
    return check(g, a), a


@njit(cache=True)
def _greedy_answer(g, q, n, best_pw):
    """``greedy``'s answer to the trick so far (``n`` cards, the best of power ``best_pw``), with
    the state it reads (phase, seat, trick so far) as the engine keeps it; checked: (error, action)."""
    s = g.table.s
    s[S_PHASE] = FOLLOW
    s[S_SEAT] = q
    s[S_TRICK_LEN] = n
    s[S_BEST_POWER] = best_pw
    a = greedy.decide(seat_view(g, q))
    return check(g, a), a


@njit(cache=True)
def _plain_deal(g, moves, limit, greedy_seats):
    """The deal, every seat playing ``random`` or ``greedy`` under rules with no false pass and
    no challenge (see :func:`_all_plain`): the decisions the shared loop (``play_deal``) would
    take, from the same streams in the same order, through the engine's steps (``draw``,
    ``turn_after``, ``play_card``, ``close_trick``, ``end_trick``), but a trick at a time, the
    stock's top, the seat owing a decision and the trick's running values in locals, without a
    view or the phase dispatch per decision, and no events. A ``random`` decision is not checked
    (it only takes legal ones); a ``greedy`` one is, by the engine's ``check``, with the state it
    reads (phase, seat, trick so far) kept as the engine keeps it. ``greedy_seats``: None when no
    seat plays ``greedy`` (its code is then not compiled: Numba drops the branch), else any
    integer (or an optional one, decided per deal). The packed counts of cards (engine.WORD_OF) are
    not kept: no seat here counts cards. Returns (OK, decisions, 0) or, on an illegal decision,
    (error, seat, action)."""
    t = g.table
    s = t.s
    p = players(g)
    stock = s[S_STOCK]
    top = s[S_TOP]
    taffy_ten = t.rules[R_TAFFY_EQUALS_TEN]
    seat = s[S_SEAT] if s[S_PHASE] != OVER else -1
    # random seats draw from their streams kept a number ahead (own.ahead), each decision's branch
    # then not waiting on the number's mixing; copied back at the end (greedy draws from own.rng)
    for q in range(p):
        ahead_load(g.seats[q].ahead, 0, g.seats[q].rng, 0)
        g.seats[q].draw_limit = draw_limit(g.seats[q])
    m = 0
    turns = 0  # added to the table's count at the end: one store less per turn
    while seat >= 0:
        own = g.seats[seat]
        turns += 1
        stocked = top < stock
        if greedy_seats is None:
            a = turn_uniform(own, stocked, True)
        elif own.strategy == RANDOM:
            a = turn_uniform(own, stocked, True)
        else:
            e, a = _greedy_turn(g, seat)
            if e != OK:
                _plain_end(g, turns, greedy_seats)
                return e, seat, a
        if m < limit:
            moves[m] = seat * MOVE_SEAT + a
        m += 1
        if a == DRAW:
            top = draw(g, seat, top, False)
            seat = turn_after(g, seat, top < stock)
            continue
        n, best, best_pw, npass, suit = play_card(g, seat, a, 0, 0, 0, 0, 0, taffy_ten, False)
        leader = seat
        # the answers, from the leader's left, by each player in play (engine.next_answer)
        q = leader
        for _ in range(p - 1):
            q = q + 1 if q + 1 < p else 0
            if not in_play(t, q, stocked):
                continue
            seat = q
            own = g.seats[q]
            if not can_follow(own, suit):
                a = PASS  # a pass unasked (engine.forced; never false here)
            elif greedy_seats is None:
                a = follow_uniform(own, suit, True)
            elif own.strategy == RANDOM:
                a = follow_uniform(own, suit, True)
            else:
                e, a = _greedy_answer(g, q, np.int64(n), best_pw)  # typed: n starts as a literal 1
                if e != OK:
                    _plain_end(g, turns, greedy_seats)
                    return e, q, a
            n, best, best_pw, npass, suit = play_card(
                g, q, a, n, best, best_pw, npass, suit, taffy_ten, False
            )
            if m < limit:
                moves[m] = q * MOVE_SEAT + a
            m += 1
        close_trick(g, seat, n, best, best_pw, npass)
        seat = _end_trick(g, leader, npass, stocked)
    _plain_end(g, turns, greedy_seats)
    return OK, m, 0


@njit(cache=True, inline="always")
def _plain_end(g, turns, greedy_seats):
    """:func:`_plain_deal` stops: the turns it counted into the table, the random seats' streams
    back from their copies a number ahead (greedy's drew from its own)."""
    g.table.s[S_TURNS] += turns
    for q in range(players(g)):
        if greedy_seats is None or g.seats[q].strategy == RANDOM:
            ahead_store(g.seats[q].ahead, 0, g.seats[q].rng, 0)


@template
def play_game(g, base_deck, seed, game, first, log, logging, extra):
    """Play one deal with the players set in ``g``; log its moves into ``log`` if ``logging``.
    ``extra[0]`` (if given) non-zero plays it through the shared loop even when every seat is
    ``random`` or ``greedy`` (which have a loop of their own, with the same result);
    ``extra[1:]`` a constraint on the stock (harness.deal; empty: none).

    Returns (OK, moves, 0) or, on an illegal decision, (error, seat, action); (NO_DEAL, 0, 0)
    when no stock met the constraint within its cap of draws.
    """
    if per_run(extra.shape[0] > 1):  # a constraint: its dealer is compiled only for such a run
        if not _deal_where(g, base_deck, seed, game, extra[1:]):
            return NO_DEAL, 0, 0
    else:
        deal_stock(g, base_deck, seed, game)
        g.shuffles = 1
    reset(g, base_deck.shape[0], first)
    limit = log.shape[0] if logging else 0
    if per_run(extra[0] == 0 and _all_plain(g)):  # then the shared loop is not compiled
        # greedy's code is compiled only if some seat plays it (None: Numba drops it); tested as
        # written (one kernel for every run), an optional integer: one compile of _plain_deal
        return _plain_deal(g, log, limit, 1 if per_run(_any_greedy(g)) else None)
    return play_deal(g, log, limit)


@njit(cache=True)
def record(g, i, outs, moves):
    """A finished game's columns: ``outs`` is (seat columns, game columns)."""
    seat_out, game_out = outs
    t = g.table
    points = g.points
    score(t, points)
    for q in range(players(g)):
        seat_out[0, i, q] = points[q]
        seat_out[1, i, q] = t.won_n[q]
        seat_out[2, i, q] = count_tens(t.won[q]) - t.won[q, TAFFY]
        seat_out[3, i, q] = t.won[q, TAFFY]
    j = 0
    for k in _PUBLIC:
        game_out[j, i] = t.s[k]
        j += 1
    game_out[j, i] = g.false_passes
    j += 1
    for k in _PUBLIC2:
        game_out[j, i] = t.s[k]
        j += 1
    game_out[j, i] = moves
    for k in _COUNTS:
        j += 1
        game_out[j, i] = t.s[k]
    game_out[j + 1, i] = g.shuffles


def decide_now(buf: np.ndarray) -> int:
    """What the player owing the next decision in ``buf[0]`` would decide, by its strategy."""
    p = int(buf[0]["table"]["rules"][0])
    ids = [int(i) for i in buf[0]["seats"]["strategy"][:p]]
    return int(kernel(sys.modules[__name__], roster, ids).decide_now(buf))


def play_batch(
    rules: WelshRules,
    ids: np.ndarray,
    params: np.ndarray,
    *,
    seed: int,
    start: int = 0,
    n: int,
    first: int = -1,
    log_games: int = 0,
    shared_loop: bool = False,
    where: np.ndarray | None = None,
) -> Batch:
    """Play ``n`` games from game index ``start``; log the decisions of the first ``log_games``.
    ``where``: a compiled constraint on the stock (``whistsim.deals.constraints``); the game
    column ``shuffles`` counts the stocks drawn, and ``batch.stocks`` holds the logged games' stocks.
    ``shared_loop`` plays every deal through the harness's loop even when every seat is
    ``random`` or ``greedy`` (which have a faster loop of their own, with the same result: the
    tests compare them)."""
    states = np.concatenate([new_state(rules.to_array()) for _ in range(numba.get_num_threads())])
    batch = shared_batch(sys.modules[__name__], roster, rules, ids, params, seed=seed, start=start, n=n,
                        first=first, log_games=log_games, seat_columns=SEAT_COLUMNS, game_columns=GAME_COLUMNS,
                        log_width=max_moves(rules), states=states, describe=action_name,
                        extra=np.concatenate([[shared_loop], [] if where is None else where]).astype(np.int64))  # fmt: skip
    if where is not None and batch.logs:  # a record's stock: not the seed's first shuffle, but the one dealt
        buf = new_state(rules.to_array())
        base = rules.deck()
        batch.stocks = []
        for i in range(len(batch.logs)):
            _stock_where(buf, base, np.int64(seed), np.int64(start + i), where.astype(np.int64))
            batch.stocks.append(buf[0]["deck"][: base.size].copy())
    return batch
