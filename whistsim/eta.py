"""Saying how long a run will take, before a long one: one line from a short timed start.

The first games of a run are played in steps growing from one game until they have taken a
fraction of a second; their rate gives the estimate. The games are the run's
own first games (nothing is played twice), so the results do not change.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

PROBE_GAMES = 1  # the first step (a slow player's game may take a second); then 4-fold while quick
PROBE_SECONDS = 0.25
ANNOUNCE_AFTER_S = 60.0  # runs expected to take longer than this are announced


def timed_start(
    play: Callable[[int, int], int | None], n: int, stop: Callable[[], bool] | None = None
) -> tuple[int, float]:
    """Play games ``0 .. k-1`` of an ``n``-game run through ``play(start, count)`` in
    growing steps until they took ``PROBE_SECONDS`` (or a tenth of the run, or ``stop()``
    says so: Ctrl-C); returns (k, seconds)."""
    done, k, t0 = 0, PROBE_GAMES, time.perf_counter()
    while done < n:
        step = min(k, n - done)
        got = play(done, step)  # how many it played, when it says (fewer: it was stopped)
        done += step if got is None else got
        if time.perf_counter() - t0 >= PROBE_SECONDS or done * 10 >= n or (stop is not None and stop()):
            break
        k *= 4
    return done, time.perf_counter() - t0


def estimate_s(done: int, seconds: float, n: int) -> float:
    """Seconds the rest of an ``n``-game run will take at the rate of its first ``done`` games."""
    return seconds / max(done, 1) * max(n - done, 0)


def announce(done: int, seconds: float, n: int, what: str = "games", out=None) -> str | None:
    """One line on standard error when the rest of the run is expected to take over a minute;
    returns the line (None when nothing was said)."""
    rest = estimate_s(done, seconds, n)
    if rest <= ANNOUNCE_AFTER_S:
        return None
    line = (f"whistsim: about {duration(rest)} to go for {n:,} {what} "
            f"(from the first {done:,}: {done / max(seconds, 1e-9):,.0f} {what}/s)")  # fmt: skip
    print(line, file=out or sys.stderr, flush=True)
    return line


def duration(s: float) -> str:
    """Seconds in words a person reads at a glance: 45 s, 14 min, 2.5 h."""
    if s < 90:
        return f"{s:.0f} s"
    if s < 5400:
        return f"{s / 60:.0f} min"
    return f"{s / 3600:.1f} h"
