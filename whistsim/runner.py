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

from .batch import Batch
from .games import Game
from .options import WhistsimError

CHUNK = 1 << 17  # the most games in one chunk
FIRST_CHUNK = 256  # the first chunk's size; later ones are sized by the time the last one took
LOG_CHUNK = 256  # the most logged games in one chunk: their logs are sized by it, not by n
CHUNK_SECONDS = 0.5  # a chunk's target length: Ctrl-C is seen between chunks, so within about this


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
    on_batch: Callable[[Batch], None],
    stop: Callable[[], bool] | None = None,
) -> None:
    """Play games ``start .. start + n - 1`` and hand each chunk to ``on_batch``.

    Chunks are sized by time (about ``CHUNK_SECONDS`` each, at most ``chunk`` games), so a
    slow player does not keep Ctrl-C waiting; a game's outcome depends on (seed, index)
    alone, so the sizes change nothing in the results. ``stop()``, asked after each
    chunk, ends the run early with every finished chunk handed on.
    """
    if n < 0:
        raise WhistsimError(f"n={n}: expected a number of games >= 0")
    if chunk < 1:
        raise WhistsimError(f"chunk={chunk}: expected at least 1")
    bar = _progress(n) if progress else None
    try:
        with threads(n_threads):
            done = 0
            size = min(chunk, FIRST_CHUNK)
            while done < n:
                k = min(size, n - done)
                if done < log_games:  # logged games' move logs are large: keep them few at a time
                    k = min(k, LOG_CHUNK)
                t0 = time.perf_counter()
                batch = game.play_batch(
                    rules, ids, params, seed=seed, start=start + done, n=k, first=first,
                    log_games=max(0, min(k, log_games - done)),
                )  # fmt: skip
                dt = time.perf_counter() - t0
                on_batch(batch)
                done += k
                # aim the next chunk at CHUNK_SECONDS, growing at most 8-fold at a time
                size = int(min(chunk, 8 * k, max(1, k * CHUNK_SECONDS / max(dt, 1e-6))))
                if bar is not None:
                    bar.update(k)
                if stop is not None and stop():  # asked to stop: the chunks handed on are whole
                    break
    finally:
        if bar is not None:
            bar.close()


def _progress(total: int):
    from tqdm import tqdm

    return tqdm(total=total, unit="game", unit_scale=True, file=sys.stderr, dynamic_ncols=True, leave=False)
