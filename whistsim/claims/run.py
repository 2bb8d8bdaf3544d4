"""Running the claims: what the measures may run (:class:`ClaimRun`), each claim's readings measured
and judged, and how long a check will take."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.options import WhistsimError
from ..games import get_game
from .model import Claim, ClaimResult, ReadingResult


@dataclass
class ClaimRun:
    """What the measures may run: games per cell (``n``; ``n_search`` for the search players of Welsh
    Whist and Whist, which are far slower; Scotch Whist's measures play n/2 deals with theirs), the seed,
    threads, and the simulations already played (measures share them)."""

    n: int
    seed: int
    workers: int | None = None
    n_search: int | None = None
    done: dict[Any, Any] = field(default_factory=dict)
    scale: float = 1.0  # a timed start's share of the run: the caps on followed records shrink with it

    def games(self, skill: str) -> int:
        if skill.startswith("pimc"):
            return self.n_search if self.n_search is not None else max(200, self.n // 10)
        return self.n

    def followed(self, n: int, cap: int) -> int:
        """Games whose records a measure follows in Python: ``n``, at most ``cap`` (a few thousand
        suffice); scaled with the run in a timed start, so that its time scales with the run's."""
        return min(n, max(2, round(cap * self.scale)))

    def simulate(self, game: str, n: int, *, records: int = 0, **kw):
        """``whistsim.simulate`` with every game's columns kept, memoised; the seed is the run's."""
        from ..api import simulate

        key = (game, n, records, repr(sorted(kw.items())))
        if key not in self.done:
            kw.setdefault("first", "rotate" if game == "welsh" else 0)
            sim = simulate(game, n, self.seed, threads=self.workers, records=records, keep_games=True, **kw)
            if sim.interrupted:  # Ctrl-C: a claim is not judged on part of its games
                raise KeyboardInterrupt
            self.done[key] = sim
        return self.done[key]


def lacking(game: str, needs: tuple[str, ...]) -> list[str]:
    """What of ``needs`` (players "NAME", parameters "NAME.PARAM") the game's players lack, in words."""
    from ..core.strategy import params_of

    reg = get_game(game).players
    out = []
    for need in needs:
        name, _, param = need.partition(".")
        found = reg.by_name(name)
        if found is None:
            out.append(f"the {name} player")
        elif param and param not in params_of(found[1]):
            out.append(f"the {name} player's `{param}` parameter")
    return out


def check_claim(c: Claim, ctx: ClaimRun) -> ClaimResult:
    get_game(c.game)  # the game before its players: they import its engine
    missing = lacking(c.game, c.needs)
    if missing:
        return ClaimResult(
            c, [], f"Not measured: it needs {' and '.join(missing)}, which this whistsim lacks."
        )
    results = []
    for r in c.readings:
        results.append(ReadingResult(r, {s: r.run(ctx, s) for s in r.skills}))
    return ClaimResult(c, results)


def check_claims(
    claims: list[Claim],
    *,
    n: int = 20_000,
    seed: int = 2026,
    n_search: int | None = None,
    workers: int | None = None,
    on_result: Callable[[ClaimResult], None] | None = None,
) -> list[ClaimResult]:
    """Measure every reading of every claim and judge it."""
    for name, v, least in (("--n", n, 2), ("--n-search", n_search, 2)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < least):
            raise WhistsimError(f"{name} {v!r}: expected at least {least} games")
    ctx = ClaimRun(n, seed, workers, n_search)
    out = []
    for c in claims:
        r = check_claim(c, ctx)
        out.append(r)
        if on_result is not None:
            on_result(r)
    return out


# the timed start: the whole check at two small shares of its games, after a warm-up at the first
PROBE_SHARES = (1 / 256, 1 / 32)


@dataclass(frozen=True)
class RunEstimate:
    """The expected seconds of a claims check, per claim (in the order run) and in all."""

    seconds: dict[str, float]
    probe_s: float  # what the timed start took

    @property
    def total(self) -> float:
        return sum(self.seconds.values())

    @property
    def shares(self) -> str:
        return " and ".join(f"1/{round(1 / f)}" for f in PROBE_SHARES)


def estimate_run(
    claims: list[Claim], *, n: int, seed: int, n_search: int | None = None, workers: int | None = None
) -> RunEstimate:
    """How long :func:`check_claims` will take: the same claims run at two small shares ``f`` of their
    games (after a warm-up that loads the kernels), each claim's time fitted as ``a + b f`` (what does
    not grow with the games, and what does) and read at ``f = 1``. Nothing of the probe is kept."""
    import time

    ns = n_search if n_search is not None else max(200, n // 10)

    def timed(f: float) -> dict[str, float]:
        ctx = ClaimRun(max(2, round(n * f)), seed, workers, max(2, round(ns * f)), scale=f)
        out = {}
        for c in claims:
            t = time.perf_counter()
            check_claim(c, ctx)
            out[c.id] = time.perf_counter() - t
        return out

    t0 = time.perf_counter()
    f1, f2 = PROBE_SHARES
    warm = timed(f1)  # kernels compiled or loaded; then the least of two runs, the least disturbed
    t1 = {k: min(v, warm[k]) for k, v in timed(f1).items()}
    t2 = timed(f2)
    seconds = {}
    for c in claims:
        b = max(0.0, (t2[c.id] - t1[c.id]) / (f2 - f1))
        seconds[c.id] = max(t2[c.id] - b * f2, 0.0) + b  # a + b at f = 1
    return RunEstimate(seconds, time.perf_counter() - t0)
