"""The batch runner: plays games in chunks on all cores and streams them on.

A game's outcome depends on (seed, game index) alone, so chunk size and
thread count change the speed, never the results.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numba
import numpy as np

from .batch import Batch
from .games import Game
from .options import WhistsimError

CHUNK = 1 << 17


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
) -> None:
    """Play games ``start .. start + n - 1`` and hand each chunk to ``on_batch``."""
    if n < 0:
        raise WhistsimError(f"n={n}: expected a number of games >= 0")
    if chunk < 1:
        raise WhistsimError(f"chunk={chunk}: expected at least 1")
    bar = _progress(n) if progress else None
    try:
        with threads(n_threads):
            done = 0
            while done < n:
                k = min(chunk, n - done)
                batch = game.play_batch(
                    rules, ids, params, seed=seed, start=start + done, n=k, first=first,
                    log_games=max(0, min(k, log_games - done)),
                )  # fmt: skip
                on_batch(batch)
                done += k
                if bar is not None:
                    bar.update(k)
    finally:
        if bar is not None:
            bar.close()


def _progress(total: int):
    from tqdm import tqdm

    return tqdm(total=total, unit="game", unit_scale=True, file=sys.stderr, dynamic_ncols=True, leave=False)
