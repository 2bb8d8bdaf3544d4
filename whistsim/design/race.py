"""The race: variants played on the same deals round by round, dropped once shown worse.

In round ``r`` every surviving variant plays deals ``r * block .. (r + 1) * block - 1``
of the search's seed: game ``i`` is dealt from (seed, i) alone, so the variants'
figures are paired deal by deal (a variant whose pack differs, such as another
number of Taffies, sees other cards from the same random streams: the pairing
is then weaker, never wrong).

After each round a variant is dropped when a paired comparison with a surviving
variant shown feasible settles that it is worse (one objective) or dominated
(several: no worse on every objective, better on one), and is infeasible when a
feasible range's interval lies outside it. Each comparison is a confidence
sequence (Robbins' normal mixture with the running standard deviation: the
asymptotic confidence sequences of Waudby-Smith et al., 2024), valid at every
round at once, at level ``alpha / K`` with ``K`` every interval the race could ever
use (Bonferroni): the chance that any variant is dropped while not worse, or
called infeasible while feasible, is at most ``alpha`` over the whole race.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.strategy import parse_spec
from ..games import get_game, seating
from .spec import DesignSpec, Objective

N_STAR_ROUNDS = 4  # the intervals are tightest after this many rounds of a variant


def cs_half_width(sd: float, n: int, level: float, n_star: float) -> float:
    """Half-width of a two-sided confidence sequence for a mean after ``n`` values of spread ``sd``,
    valid at every ``n`` at once with error ``level`` (normal mixture, tightest near ``n_star``)."""
    if n < 2 or not math.isfinite(sd):
        return math.inf
    if sd == 0:
        return 0.0
    a = level
    rho2 = (-2 * math.log(a) + math.log(-2 * math.log(a) + 1)) / n_star
    return sd * math.sqrt(2 * (n * rho2 + 1) / (n * n * rho2) * math.log(math.sqrt(n * rho2 + 1) / a))


@dataclass(frozen=True)
class Interval:
    mean: float
    low: float
    high: float
    n: int
    exact: bool = False  # every value equal: the interval is the value itself

    @classmethod
    def of(cls, n: float, s1: float, s2: float, level: float, n_star: float) -> Interval:
        n = int(n)
        if n == 0:
            return cls(math.nan, -math.inf, math.inf, 0)
        mean = s1 / n
        var = max(s2 - s1 * s1 / n, 0.0) / (n - 1) if n > 1 else math.nan
        # sums of exact values: a spread of rounding size is none
        if n > 1 and var <= 1e-12 * max(1.0, mean * mean):
            return cls(mean, mean, mean, n, exact=True)
        h = cs_half_width(math.sqrt(var), n, level, n_star)
        return cls(mean, mean - h, mean + h, n)


class RaceStats:
    """Running sums for every objective: each variant's own, and each pair's over the deals both played.

    ``own[o]``: [3, N] (n, sum x, sum x^2); ``pair[o]``: [4, N, N] (n, sum x_c, sum x_c^2, sum x_c x_d)
    over the deals variants c and d both played (row c, column d).
    """

    def __init__(self, objectives: int, capacity: int) -> None:
        self.own = np.zeros((objectives, 3, capacity))
        self.pair = np.zeros((objectives, 4, capacity, capacity))

    def add_round(self, ids: list[int], x: np.ndarray) -> None:
        """``x``: [objectives, len(ids), deals], the round's values of the variants ``ids``."""
        idx = np.asarray(ids)
        for o in range(x.shape[0]):
            v = x[o]
            s1, s2 = v.sum(axis=1), (v * v).sum(axis=1)
            n = v.shape[1]
            self.own[o, 0, idx] += n
            self.own[o, 1, idx] += s1
            self.own[o, 2, idx] += s2
            # row by row: the same sums in the same order on any machine (a BLAS product is not)
            cross = np.stack([(v * v[i]).sum(axis=1) for i in range(len(ids))])
            sub = np.ix_(idx, idx)
            self.pair[o, 0][sub] += n
            self.pair[o, 1][sub] += s1[:, None]
            self.pair[o, 2][sub] += s2[:, None]
            self.pair[o, 3][sub] += cross

    def own_moments(self, o: int, c: int, a: float = 1.0, b: float = 0.0) -> tuple[float, float, float]:
        n, s1, s2 = self.own[o, :, c]
        return n, a * s1 + n * b, a * a * s2 + 2 * a * b * s1 + n * b * b

    def combo(self, o: int, c: int, d: int, ac: float, ad: float, b: float) -> tuple[float, float, float]:
        """(n, sum, sum of squares) of ``ac * x_c + ad * x_d + b`` over the deals c and d both played."""
        n, sc, qc, x = self.pair[o, :, c, d]
        _, sd, qd, _ = self.pair[o, :, d, c]
        s = ac * sc + ad * sd + n * b
        q = ac * ac * qc + ad * ad * qd + n * b * b + 2 * ac * ad * x + 2 * b * (ac * sc + ad * sd)
        return n, s, q


@dataclass
class Judge:
    """The race's tests over a :class:`RaceStats`: who is worse, dominated or infeasible, with confidence."""

    spec: DesignSpec
    stats: RaceStats
    coef: np.ndarray  # [objectives, N, 2]: a variant's value to minimise is a * x + b (target: |a x + b|)
    standard: int  # the standard rules' variant, the reference of relative ranges
    level: float  # each interval's error: alpha / K
    n_star: float

    def interval(self, moments: tuple[float, float, float]) -> Interval:
        return Interval.of(*moments, self.level, self.n_star)

    def _d(self, o: int, c: int, d: int, sign: float = -1.0) -> Interval:
        """y_c - y_d (sign -1) or y_c + y_d (sign +1), y = a x + b, over the deals both played."""
        (ac, bc), (ad, bd) = self.coef[o, c], self.coef[o, d]
        return self.interval(self.stats.combo(o, c, d, ac, sign * ad, bc + sign * bd))

    def identical(self, o: int, c: int, d: int) -> bool:
        i = self._d(o, c, d)
        return i.n > 0 and i.exact and i.mean == 0

    def worse(self, o: int, c: int, d: int) -> bool:
        """Variant c is worse than d on objective o, with confidence."""
        obj = self.spec.objectives[o]
        if obj.goal != "target":
            return self._d(o, c, d).low > 0
        a, b = self.coef[o, c]
        y = self.interval(self.stats.own_moments(o, c, a, b))
        diff, total = self._d(o, c, d), self._d(o, c, d, +1.0)
        if y.low > 0:  # above the target: |y_c| > |y_d| when y_c - y_d > 0 and y_c + y_d > 0
            return diff.low > 0 and total.low > 0
        if y.high < 0:  # below it: when y_c - y_d < 0 and y_c + y_d < 0
            return diff.high < 0 and total.high < 0
        return False

    def dominated(self, c: int, d: int) -> bool:
        """d is better than c on every ranked objective, or identical to it on some and better on the rest."""
        better = 0
        for o, obj in enumerate(self.spec.objectives):
            if obj.constraint:
                continue
            if self.worse(o, c, d):
                better += 1
            elif not self.identical(o, c, d):
                return False
        return better > 0

    def apart(self, c: int, d: int) -> bool:
        """Neither can come to dominate the other: each is better on some objective, with confidence."""
        ranked = [o for o, obj in enumerate(self.spec.objectives) if not obj.constraint]
        return any(self.worse(o, c, d) for o in ranked) and any(self.worse(o, d, c) for o in ranked)

    def bound_interval(self, o: int, c: int, bound: tuple[float, float]) -> Interval:
        """x_c - (factor * x_standard + constant), over the deals c played."""
        f, k = bound
        if f == 0 or c == self.standard:
            scale = 1 - f if c == self.standard else 1.0
            return self.interval(self.stats.own_moments(o, c, scale, -k))
        return self.interval(self.stats.combo(o, c, self.standard, 1.0, -f, -k))

    def feasibility(self, c: int) -> str:
        """``infeasible`` (some range's interval lies outside it), ``feasible`` (every one inside) or ``open``."""
        settled = True
        for o, obj in enumerate(self.spec.objectives):
            if not obj.constraint:
                continue
            if obj.low is not None:
                i = self.bound_interval(o, c, obj.low)
                if i.high < 0:
                    return "infeasible"
                settled &= i.low >= 0
            if obj.high is not None:
                i = self.bound_interval(o, c, obj.high)
                if i.low > 0:
                    return "infeasible"
                settled &= i.high <= 0
        return "feasible" if settled else "open"

    def badness(self, c: int) -> list[float]:
        """Each ranked objective's value to minimise at its point estimate (target: the distance)."""
        out = []
        for o, obj in enumerate(self.spec.objectives):
            if obj.constraint:
                continue
            a, b = self.coef[o, c]
            n, s1, _ = self.stats.own_moments(o, c, a, b)
            m = s1 / n if n else math.nan
            out.append(abs(m) if obj.goal == "target" else m)
        return out


def family_size(spec: DesignSpec, capacity: int) -> int:
    """How many intervals the race could ever use: its error is split among them (Bonferroni)."""
    n = capacity
    pairs = n * (n - 1) // 2
    k = 0
    for o in spec.objectives:
        if o.constraint:
            k += n * ((o.low is not None) + (o.high is not None))
        elif o.goal == "target":
            k += n + 2 * pairs  # each variant's side of the target; the difference and the sum of each pair
        else:
            k += pairs
    return max(k, 1)


def coefficients(spec: DesignSpec, o: Objective, rules: Any) -> tuple[float, float]:
    """A variant's value to minimise as a * x + b: min x, max -x, target x - T."""
    if o.goal == "max":
        return -1.0, 0.0
    if o.goal == "target":
        return 1.0, -o.target_of(get_game(spec.game), rules)
    return 1.0, 0.0


# ---- playing a block --------------------------------------------------------------


def measure_block(spec: DesignSpec, rules: Any, start: int, n: int) -> np.ndarray:
    """[objectives, n]: each objective's figure in games ``start .. start + n - 1`` under ``rules``,
    each table played on the same deals."""
    g = get_game(spec.game)
    first = -1 if spec.first == "rotate" else int(spec.first)
    out = np.zeros((len(spec.objectives), n))
    for table in spec.tables:
        seats = spec.seats(table, rules)
        ids, params = seating(spec.game, [parse_spec(s) for s in seats], g.players_of(rules))
        batch = g.play_batch(rules, ids, params, seed=spec.seed, start=start, n=n, first=first)
        figs = g.measure(batch, rules)
        for o, obj in enumerate(spec.objectives):
            if obj.players == table:
                out[o] = np.asarray(figs[obj.column(g, rules)], np.float64)
    return out


@dataclass
class BlockOut:
    index: int
    variant: int
    values: np.ndarray  # [objectives, deals]


@dataclass(frozen=True)
class BlockJob:
    """What a worker needs to play one variant's block: picklable, so a Dask worker can run it."""

    spec: DesignSpec
    items: tuple[tuple[int, tuple[tuple[str, Any], ...]], ...]  # (variant, its options)
    start: int
    n: int
    fingerprint: str = ""  # names the tasks on a cluster

    def __call__(self, k: int, on_cell: Any = None) -> BlockOut:
        variant, params = self.items[k]
        rules = self.spec.make_rules(dict(params)) if params is not None else self.spec.standard
        x = measure_block(self.spec, rules, self.start, self.n)
        if on_cell is not None:
            on_cell(self.n * len(self.spec.tables))
        return BlockOut(k, variant, x)
