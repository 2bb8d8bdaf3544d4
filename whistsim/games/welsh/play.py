"""Playing Welsh Whist in batches: the Numba kernel behind :func:`play_batch`."""

from __future__ import annotations

import types

import numba
import numpy as np
from numba import njit, prange

from ...batch import Batch, check_batch_args
from ...cards import TAFFY
from ...rng import DECK_STREAM, shuffle, stream_start
from ...strategies import USER_BASE, StrategyError, user_function, user_label
from ...strategies import welsh as welsh_strategies
from .engine import (
    ENGINE_ERRORS,
    OK,
    OVER,
    S_CHALLENGES,
    S_CHALLENGES_WON,
    S_DRAWS,
    S_FIRST,
    S_KEPT,
    S_LAST_HOLDER,
    S_PASSES,
    S_PHASE,
    S_SEAT,
    S_TRICKS,
    S_TURNS,
    apply,
    check,
    count_tens,
    forced,
    new_state,
    players,
    reset,
    score,
    seat_view,
)
from .rules import WelshRules

BLOCK = 64  # games per parallel work item; any value gives the same results


@njit(cache=True, inline="always")
def decide(sid, v):
    # Looked up when the kernel compiles: strategies.welsh imports the engine, whose
    # package imports this module, so its names may not exist yet at import time.
    return welsh_strategies.decide(sid, v)


SEAT_COLUMNS = ("points", "won", "tens", "taffies")
GAME_COLUMNS = (
    "first", "tricks", "turns", "draws", "passes", "false_passes",
    "challenges", "challenges_won", "last_holder", "kept", "moves",
)  # fmt: skip
_PUBLIC = (S_FIRST, S_TRICKS, S_TURNS, S_DRAWS, S_PASSES)
_PUBLIC2 = (S_CHALLENGES, S_CHALLENGES_WON, S_LAST_HOLDER, S_KEPT)


def max_moves(rules: WelshRules) -> int:
    """An upper bound on decisions in one deal: draws, leads, answers, challenges."""
    return rules.stock_size * (rules.players + 2) + 1


@njit(cache=True)
def deal_stock(g, base_deck, seed, game):
    """Seed the game's streams and shuffle the stock: a function of (seed, game) alone."""
    g.rng[0] = stream_start(seed, game, DECK_STREAM)
    for q in range(players(g)):
        g.seats[q].rng[0] = stream_start(seed, game, 1 + q)
    stock = g.deck[: base_deck.shape[0]]
    stock[:] = base_deck
    shuffle(stock, g.rng, 0)


@njit(cache=True)
def play_game(g, base_deck, seed, game, first, log_row):
    """Play one deal with the players set in ``g``.

    Returns (0, moves, 0) or, on an illegal decision, (error, seat, action).
    """
    deal_stock(g, base_deck, seed, game)
    reset(g, base_deck.shape[0], first)
    s = g.table.s
    m = 0
    while s[S_PHASE] != OVER:
        seat = s[S_SEAT]
        a = forced(g)
        if a < 0:
            a = decide(g.seats[seat].strategy, seat_view(g, seat))
            e = check(g, a)
            if e != OK:
                return e, seat, a
        if m < log_row.shape[0]:
            log_row[m] = seat * 128 + a
        m += 1
        apply(g, a)
    return OK, m, 0


@njit(cache=True)
def _record(g, i, points, seat_out, game_out, moves):
    t = g.table
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


@njit(cache=True, parallel=True)
def _play_games(states, base_deck, seed, start, first, seat_out, game_out, errors, logs):
    """Games ``start .. start + n - 1``, one state per thread.

    ``first < 0`` rotates the first seat with the game index.
    """
    n = errors.shape[0]
    p = players(states[0])
    no_log = np.zeros(0, np.int16)
    for b in prange((n + BLOCK - 1) // BLOCK):
        g = states[numba.get_thread_id()]
        points = np.zeros(p, np.int64)
        for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            game = start + i
            f = first if first >= 0 else game % p
            row = logs[i] if i < logs.shape[0] else no_log
            e, x, a = play_game(g, base_deck, seed, game, f, row)
            if e != OK:
                errors[i, 0] = e
                errors[i, 1] = x
                errors[i, 2] = a
            else:
                _record(g, i, points, seat_out, game_out, x)


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
) -> Batch:
    """Play ``n`` games from game index ``start``; log the decisions of the first ``log_games``."""
    check_batch_args(seed, first, rules.players)
    p = rules.players
    states = np.concatenate([new_state(rules.to_array()) for _ in range(numba.get_num_threads())])
    states["seats"]["strategy"][:, :p] = ids
    states["seats"]["params"][:, :p] = params
    seat_out = np.zeros((len(SEAT_COLUMNS), n, p), np.int32)
    game_out = np.zeros((len(GAME_COLUMNS), n), np.int32)
    errors = np.zeros((n, 3), np.int64)
    logs = np.full((min(log_games, n), max_moves(rules)), -1, np.int16)
    users = tuple(sorted({int(i) for i in ids if i >= USER_BASE}))
    kernel = _user_kernel(users) if users else _play_games
    kernel(states, rules.deck(), np.int64(seed), np.int64(start), np.int64(first),
           seat_out, game_out, errors, logs)  # fmt: skip
    bad = np.flatnonzero(errors[:, 0])
    if bad.size:
        from .moves import action_name

        i = int(bad[0])
        e, seat, a = (int(x) for x in errors[i])
        who = f" ({user_label(int(ids[seat]))})" if ids[seat] >= USER_BASE else ""
        raise StrategyError(
            f"game {start + i}, seat {seat}{who}: illegal decision {action_name(a)!r}: {ENGINE_ERRORS[e]}"
        )
    moves = game_out[GAME_COLUMNS.index("moves")]
    return Batch(
        start,
        dict(zip(SEAT_COLUMNS, seat_out, strict=True)),
        dict(zip(GAME_COLUMNS, game_out, strict=True)),
        logs=[logs[i, : moves[i]].copy() for i in range(logs.shape[0])],
    )


_USER_KERNELS: dict[tuple[int, ...], object] = {}


def _user_kernel(users: tuple[int, ...]):
    """:func:`_play_games` in which seats with these user ids decide by the users' functions.

    A kernel that takes a function argument is never cached, so this one is rebuilt
    from the same source with a different global ``decide`` (and ``play_game``), once
    per set of user functions per process; the built-in kernel stays cached.
    """
    if users not in _USER_KERNELS:
        env = {"builtin": welsh_strategies.decide_builtin, **{f"user{i}": user_function(i) for i in users}}
        src = (
            "def decide(sid, v):\n"
            + "".join(f"    if sid == {i}:\n        return user{i}(v)\n" for i in users)
            + "    return builtin(sid, v)\n"
        )
        exec(src, env)
        user_decide = njit(inline="always")(env["decide"])
        f = play_game.py_func
        game = njit(types.FunctionType(f.__code__, {**f.__globals__, "decide": user_decide}, f.__name__))
        f = _play_games.py_func
        kernel = njit(parallel=True)(
            types.FunctionType(f.__code__, {**f.__globals__, "play_game": game}, f.__name__)
        )
        _USER_KERNELS[users] = kernel
    return _USER_KERNELS[users]
