"""The Python side of the batch kernel, the same for every game: pick the kernel for
the seated players, run it over the game's arrays, and turn an illegal decision into
a one-line error naming the game, the seat and the move."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType

import numba
import numpy as np

from ..core.batch import Batch, check_batch_args
from ..core.options import WhistsimError
from ..core.strategy import USER_BASE, StrategyError, user_function, user_label
from .build import kernel, per_run_values, user_numbers
from .deal import NO_DEAL


def run_kernel(
    parts: ModuleType,
    players: ModuleType,
    ids: np.ndarray,
    states: np.ndarray,
    deck: np.ndarray,
    outs: tuple[np.ndarray, ...],
    logs: np.ndarray,
    *,
    n: int,
    n_logged: int,
    seed: int,
    start: int,
    first: int,
    extra: np.ndarray | None = None,
    describe: Callable[[int], str] = str,
    prelude: bool = True,
) -> None:
    """Play games ``start .. start + n - 1`` with the players ``ids`` set in ``states``.

    ``parts`` is the game's kernel parts module (see :mod:`whistsim.harness`); ``deck``
    the unshuffled cards; ``outs`` its output columns, ``logs`` (at least one row) the move logs of the first
    ``n_logged`` games; ``describe`` names an action in an error.
    """
    check_batch_args(seed, first, len(ids))
    users = {int(i): user_function(int(i)) for i in ids if i >= USER_BASE}
    numbers = user_numbers(users)  # the kernel knows users by these, whatever their ids in this process
    extra = np.zeros(1, np.int64) if extra is None else extra
    # the kernel for this run: the branches its per-run conditions rule out are not compiled
    k = kernel(parts, players, [int(i) for i in ids if i < USER_BASE], {numbers[u]: fn for u, fn in users.items()},
               prelude=prelude, per_run=per_run_values(parts, states, extra))  # fmt: skip
    errors = np.zeros((n, 3), np.int64)
    seats = _seat_strategies(states) if len(users) > 1 else []  # one user: any id from USER_BASE is it
    given = [s.copy() for s in seats]
    for s, was in zip(seats, given, strict=True):
        for u, number in numbers.items():
            s[was == u] = number
    try:
        play_games(k, states, deck, seed, start, first, extra, outs, errors, logs, n_logged)
    except Exception as e:
        if not users:
            raise
        _user_failed(k, e, ids, numbers, states, deck, seed, start, first, extra, outs, logs, n)
    finally:
        for s, was in zip(seats, given, strict=True):
            s[...] = was
    bad = np.flatnonzero(errors[:, 0])
    if bad.size:
        i = int(bad[0])
        e, seat, a = (int(x) for x in errors[i])
        if e == NO_DEAL:
            raise WhistsimError(
                f"game {start + i}: no deal met the constraint in the most deals drawn for one "
                "(it accepts too few deals)"
            )
        who = f" ({user_label(int(ids[seat]))})" if ids[seat] >= USER_BASE else ""
        raise StrategyError(
            f"game {start + i}, seat {seat}{who}: illegal {getattr(parts, 'MOVE_NOUN', 'move')} {describe(a)!r}: "
            f"{parts.ENGINE_ERRORS[e]}"
        )


# Made by the first run that plays on more than one thread, one per process: a pool's threads do not
# live on in a forked child, and its work would wait for them for ever.
_POOL: dict[int, ThreadPoolExecutor] = {}


def play_games(k: ModuleType, states, deck, seed, start, first, extra, outs, errors, logs, n_logged) -> None:
    """The kernel ``k``'s ``play_games`` on as many threads as Numba is set to use (at most one
    per state): each thread plays its share of the games on a state of its own, the kernel
    releasing the GIL. Every game's results depend on its index alone, so the split is free."""
    threads = max(1, min(states.shape[0], numba.get_num_threads(), errors.shape[0]))
    args = (
        deck,
        np.int64(seed),
        np.int64(start),
        np.int64(first),
        extra,
        outs,
        errors,
        logs,
        np.int64(n_logged),
    )
    in_shares(threads, lambda t: k.play_games(states, np.int64(t), np.int64(threads), *args))


def in_shares(threads: int, share: Callable[[int], None]) -> None:
    """``share(0) .. share(threads - 1)``, each on a thread of its own (one: on this thread), for a
    kernel function that releases the GIL (``nogil``): no parallel wrapper for Numba to compile.
    Every share ends before the first error is raised: none writes after."""
    if threads == 1:
        share(0)
        return
    pool = _POOL.get(os.getpid())
    if pool is None:
        pool = _POOL.setdefault(
            os.getpid(), ThreadPoolExecutor(numba.config.NUMBA_NUM_THREADS, thread_name_prefix="whistsim")
        )
    shares = [pool.submit(share, t) for t in range(threads)]
    for one in shares:
        one.exception()
    for one in shares:
        one.result()


def _seat_strategies(states: np.ndarray) -> list[np.ndarray]:
    """The seats' strategy ids in ``states`` (views), wherever a game nests its seats' records
    (``seats``, ``round.seats``, a search's ``scratch.seats``)."""
    found, todo = [], [states]
    while todo:
        a = todo.pop(0)
        for name in a.dtype.names or ():
            field = a.dtype[name].base
            if name == "seats" and "strategy" in (field.names or ()):
                found.append(a[name]["strategy"])
            elif field.names:
                todo.append(a[name])
    return found


def _user_failed(k, e, ids, numbers, states, deck, seed, start, first, extra, outs, logs, n) -> None:
    """A user's function raised (bounds are checked, see ``load_user``): find the game, name it."""
    where = f"games {start} to {start + n - 1}"
    for i in range(n):  # games are independent: play them one at a time until one raises again
        one = tuple(np.zeros_like(x[:, :1]) for x in outs)
        try:
            play_games(k, states, deck, seed, start + i, first, extra, one, np.zeros((1, 3), np.int64),
                       np.full_like(logs[:1], -1), 0)  # fmt: skip
        except Exception:
            where = f"game {start + i}"
            break
    while isinstance(e, SystemError) and e.__cause__ is not None:  # Numba's wrapper around the real one
        e = e.__cause__
    seats = [q for q in range(len(ids)) if ids[q] >= USER_BASE]
    text = " ".join(str(e).split())
    wrote = re.match(r"user strategy (\d+) (.*)", text)  # harness.users.WROTE: it names the strategy
    if wrote:
        seats = [q for q in seats if numbers[int(ids[q])] == int(wrote.group(1))] or seats
        text = "it " + wrote.group(2)
    who = ", ".join(f"seat {q} ({user_label(int(ids[q]))})" for q in seats)
    raise StrategyError(
        f"{where}, {who}: raised {type(e).__name__}" + (f": {text}" if text else "")
    ) from None


def play_batch(
    parts: ModuleType,
    players: ModuleType,
    rules,
    ids: np.ndarray,
    params: np.ndarray,
    *,
    seed: int,
    start: int = 0,
    n: int,
    first: int = -1,
    log_games: int = 0,
    seat_columns: tuple[str, ...],
    game_columns: tuple[str, ...],
    log_width: int,
    states: np.ndarray | None = None,
    describe: Callable[[int], str] = str,
    extra: np.ndarray | None = None,
) -> Batch:
    """A batch of one-deal games: per-seat columns ``[n, players]`` and per-game ``[n]``,
    ``record`` writing ``outs = (seat [k, n, players], game [k, n])``; the game column
    ``moves`` counts each game's moves, and ``batch.logs`` hold the logged games' moves.

    ``states`` (one per thread) default to zeroed records of ``parts.STATE_DTYPE``;
    the seats' players are set in ``states["seats"]``; ``extra`` goes to the game's ``play_game``.
    """
    p = rules.players
    if states is None:
        states = np.zeros(numba.get_num_threads(), parts.STATE_DTYPE)
    states["seats"]["strategy"][:, :p] = ids
    states["seats"]["params"][:, :p] = params
    seat_out = np.zeros((len(seat_columns), n, p), np.int32)
    game_out = np.zeros((len(game_columns), n), np.int32)
    n_logged = min(log_games, n)
    logs = np.full((max(1, n_logged), log_width), -1, np.int16)
    run_kernel(parts, players, ids, states, rules.deck(), (seat_out, game_out), logs, n=n, n_logged=n_logged,
               seed=seed, start=start, first=first, extra=extra, describe=describe,
               prelude=players.prelude_used(rules) if hasattr(players, "prelude_used") else True)  # fmt: skip
    moves = game_out[game_columns.index("moves")]
    return Batch(
        start,
        dict(zip(seat_columns, seat_out, strict=True)),
        dict(zip(game_columns, game_out, strict=True)),
        logs=[logs[i, : moves[i]].copy() for i in range(n_logged)],
    )
