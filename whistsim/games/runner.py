"""The batch runner: plays games in chunks on all cores and streams them on.

A game's outcome depends on (seed, game index) alone, so chunk size and
thread count change the speed, never the results.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import numba
import numpy as np

from ..core.batch import Batch
from ..core.options import WhistsimError
from .base import Game

CHUNK = 1 << 17  # the most games in one chunk
FIRST_CHUNK = 1  # the first chunk's size (a slow player's game may take a second); later ones are
# sized by the time the last one took, growing at most 8-fold: a fast game reaches full size in a few
LOG_CHUNK = 256  # the most logged games in one chunk: their logs are sized by it, not by n
CHUNK_SECONDS = 0.5  # a chunk's target length: Ctrl-C is seen between chunks, so within about this
PER_THREAD = 1  # the fewest units per thread in a chunk after the first: a chunk of a player slower
# than CHUNK_SECONDS a game, sized by time alone, is one game, and one game runs on one thread


@contextlib.contextmanager
def threads(n: int | None) -> Iterator[None]:
    """Run with ``n`` Numba threads (all cores when None)."""
    if n is None:
        yield
        return
    if not 1 <= n <= numba.config.NUMBA_NUM_THREADS:
        raise WhistsimError(f"threads {n}: expected 1 to {numba.config.NUMBA_NUM_THREADS}")
    old = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        yield
    finally:
        numba.set_num_threads(old)


def run_games(
    game: Game,
    rules: Any,
    ids: np.ndarray,
    params: np.ndarray,
    *,
    seed: int,
    n: int,
    start: int = 0,
    first: int = -1,
    chunk: int = CHUNK,
    n_threads: int | None = None,
    log_games: int = 0,
    progress: bool = False,
    progress_done: int = 0,
    on_batch: Callable[[Batch], None],
    stop: Callable[[], bool] | None = None,
    where: np.ndarray | None = None,
) -> None:
    """Play games ``start .. start + n - 1`` and hand each chunk to ``on_batch``.

    Chunks are sized by time (about ``CHUNK_SECONDS`` each, at most ``chunk`` games), so a
    slow player does not keep Ctrl-C waiting; a game's outcome depends on (seed, index)
    alone, so the sizes change nothing in the results. ``stop()``, asked after each
    chunk, ends the run early with every finished chunk handed on. ``progress_done``: games
    of the same run played before this call (a timed start), so that the bar ends at the run's n.
    ``where``: a compiled constraint on every deal (``whistsim.deals.constraints``), for the games
    that take one.
    """
    if n < 0:
        raise WhistsimError(f"n={n}: expected a number of games >= 0")
    if chunk < 1:
        raise WhistsimError(f"chunk={chunk}: expected at least 1")
    bar = _progress(progress_done + n, progress_done) if progress else None
    more = {} if where is None else {"where": where}

    def play(at: int, k: int) -> int:
        if at < log_games:  # logged games' move logs are large: keep them few at a time
            k = min(k, LOG_CHUNK)
        batch = game.play_batch(
            rules, ids, params, seed=seed, start=start + at, n=k, first=first,
            log_games=max(0, min(k, log_games - at)), **more,
        )  # fmt: skip
        on_batch(batch)
        if bar is not None:
            bar.update(k)
        return k

    try:
        with threads(n_threads):
            by_time(n, play, most=chunk, stop=stop)
    finally:
        if bar is not None:
            bar.close()


def deals_drawn(batch: Batch) -> tuple[int, int] | None:
    """(deals played, deals drawn to deal them) of a batch dealt under a constraint: the kernel counts
    the draws (its game column ``shuffles``); None for a batch whose kernel keeps no such count."""
    if "shuffles" not in batch.game:
        return None
    played = int(batch.game["deals"].sum()) if "deals" in batch.game else batch.n
    return played, int(batch.game["shuffles"].sum())


def by_time(
    n: int,
    play: Callable[[int, int], int | None],
    *,
    start: int = 0,
    most: int = CHUNK,
    first: int = FIRST_CHUNK,
    stop: Callable[[], bool] | None = None,
) -> int:
    """Call ``play(at, k)`` for ``at`` from ``start`` up to ``n`` in chunks of about
    ``CHUNK_SECONDS`` each (the first ``first`` long, each later one sized by the time the
    last took, growing at most 8-fold, at least ``PER_THREAD`` per thread, at most ``most``);
    ``play`` may play fewer than ``k`` and return how many. Ctrl-C is seen between chunks, so
    a slow player does not keep it waiting. Returns where it stopped: ``n``, or less when
    ``stop()`` said so after a chunk."""
    if most < 1:
        raise WhistsimError(f"chunk={most}: expected at least 1")
    at, size = start, min(most, first)
    fewest = min(most, PER_THREAD * numba.get_num_threads())
    while at < n:
        k = min(size, n - at)
        t0 = time.perf_counter()
        got = play(at, k)
        k = k if got is None else got
        dt = time.perf_counter() - t0
        at += k
        size = int(min(most, max(fewest, min(8 * k, k * CHUNK_SECONDS / max(dt, 1e-6)))))
        if stop is not None and stop():  # asked to stop: the chunks played are whole
            break
    return at


def timed_run(
    n: int,
    play: Callable[[int, int], int | None],
    *,
    progress: bool = False,
    stop: Callable[[], bool] | None = None,
    unit: str = "game",
    per: int = 1,
) -> int:
    """``by_time`` over units ``0 .. n-1`` through ``play(start, k)``; with ``progress``, a long
    run first says how long it will take (from a timed start: its own first units), then shows a
    bar. ``per``: games a unit stands for (a tournament's deck is played in every seating).
    Returns where it stopped, as ``by_time``."""
    bar = None

    def chunk(start: int, k: int) -> int:
        got = play(start, k)
        k = k if got is None else got
        if bar is not None:
            bar.update(k * per)
        return k

    done = 0
    if progress:
        from tqdm import tqdm

        from ..core.eta import announce, timed_start

        done, secs = timed_start(play, n, stop=stop)
        announce(done * per, secs, n * per, f"{unit}s")
        bar = tqdm(total=n * per, initial=done * per, unit=unit, unit_scale=True, file=sys.stderr,
                   dynamic_ncols=True, leave=False)  # fmt: skip
    try:
        if stop is None or not stop():
            done = by_time(n, chunk, start=done, stop=stop)
    finally:
        if bar is not None:
            bar.close()
    return done


@contextlib.contextmanager
def stop_on_sigint() -> Iterator[Callable[[], bool]]:
    """While a run plays, Ctrl-C asks it to stop after the chunk in play (a second Ctrl-C
    stops at once): what finished is kept, summarised and written. Yields ``stopped()``.
    Off the main thread (where signals cannot be caught) ``stopped()`` is always False."""
    import signal
    import threading

    asked = [False]

    def on_sigint(signum, frame):
        if asked[0]:
            raise KeyboardInterrupt
        asked[0] = True

    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return
    old = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield lambda: asked[0]
    finally:
        signal.signal(signal.SIGINT, old)


def _progress(total: int, initial: int = 0):
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="game", unit_scale=True, file=sys.stderr,
                dynamic_ncols=True, leave=False)  # fmt: skip
