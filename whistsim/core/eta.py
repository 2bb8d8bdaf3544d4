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


def announce(
    done: int, seconds: float, n: int, what: str = "games", out=None, *, left: int | None = None
) -> str | None:
    """One line on standard error when the rest of the run is expected to take over a minute;
    returns the line (None when nothing was said). ``left``: the units still to play when the
    ``done`` timed are not the first ones (a chunk timed mid-run); else ``n - done``."""
    rest = estimate_s(done, seconds, n) if left is None else seconds / max(done, 1) * left
    if rest <= ANNOUNCE_AFTER_S:
        return None
    rate = done / max(seconds, 1e-9)
    basis = f"from the first {done:,}" if left is None else f"from {done:,} of them"
    line = (f"whistsim: about {duration(rest)} to go for {n:,} {what} "
            f"({basis}: {f'{rate:,.0f}' if rate >= 10 else f'{rate:.2g}'} {what}/s)")  # fmt: skip
    print(line, file=out or sys.stderr, flush=True)
    return line


def duration(s: float) -> str:
    """Seconds in words a person reads at a glance: 45 s, 14 min, 2.5 h."""
    if s < 90:
        return f"{s:.0f} s"
    if s < 5400:
        return f"{s / 60:.0f} min"
    return f"{s / 3600:.1f} h"


def bar(total: int, unit: str, initial: int = 0):
    """The project's progress bar (tqdm) on standard error, for a run ``initial`` units under way;
    it leaves no trace when closed."""
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit=unit, unit_scale=True, file=sys.stderr, dynamic_ncols=True,
                leave=False)  # fmt: skip


class Watch:
    """Items done one at a time, the first of which may compile the kernels: after a short timed
    start (the items done in ``PROBE_SECONDS`` after the first), one line saying how long the
    rest will take (when over a minute and ``total`` is known), then, with ``progress``, a bar.
    ``tick`` may be called from worker threads."""

    def __init__(
        self, total: int | None, unit: str, *, announce: bool = True, progress: bool = False
    ) -> None:
        import threading

        self.total, self.unit, self.say, self.progress = total, unit, announce, progress
        self.done, self.first, self.t0, self.timed = 0, 0, None, False
        self.bar = None
        self.lock = threading.Lock()

    def tick(self, k: int = 1) -> None:
        with self.lock:
            self.done += k
            now = time.perf_counter()
            if self.t0 is None:  # the first item ends: it may have compiled, so timing starts here
                self.t0, self.first = now, self.done
            elif not self.timed and now - self.t0 >= PROBE_SECONDS:
                self.timed = True
                if self.say and self.total is not None:
                    announce(self.done - self.first, now - self.t0, self.total - self.first, f"{self.unit}s")
                if self.progress:
                    self.bar = bar(self.total, self.unit, self.done)
            elif self.bar is not None:
                self.bar.update(k)

    def echo(self, text: str) -> None:
        """A line on standard output, the bar (if any) cleared first and drawn again after."""
        import click

        if self.bar is None:
            click.echo(text)
            return
        with self.bar.external_write_mode():
            click.echo(text)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
