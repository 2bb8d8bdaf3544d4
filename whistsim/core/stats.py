"""Honest figures: means with 95% confidence intervals, merged chunk by chunk.

:class:`Moments` keeps exact (n, sum, sum of squares) per column, so a run of
10**8 games needs memory for its summaries, not its rows, and its figures do
not depend on how the games were split into chunks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

Z95 = 1.959963984540054


def t95(df: float) -> float:
    """Two-sided 95% Student t quantile (Cornish-Fisher; within 0.2% for df >= 3)."""
    if df <= 0 or not math.isfinite(df):
        return Z95 if not math.isfinite(df) else math.nan
    if df == 1:
        return 12.706204736174698
    if df == 2:
        return 4.302652729749464
    z = Z95
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


@dataclass
class Estimate:
    """A mean with its 95% confidence interval and sample size."""

    mean: float
    sd: float
    n: int

    @property
    def half_width(self) -> float:
        if self.n < 2:
            return math.nan
        return t95(self.n - 1) * self.sd / math.sqrt(self.n)

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def __str__(self) -> str:
        return f"{self.mean:.4g} ± {self.half_width:.2g} (n={self.n})"


def estimate(x: np.ndarray) -> Estimate:
    x = np.asarray(x, np.float64)
    n = x.size
    return Estimate(float(x.mean()) if n else math.nan, float(x.std(ddof=1)) if n > 1 else math.nan, n)


def wilson(p: float, n: int) -> tuple[float, float]:
    """Wilson's 95% interval for a share ``p`` of ``n`` trials: stays in [0, 1], even at p = 0 or 1."""
    if n <= 0 or not math.isfinite(p):
        return math.nan, math.nan
    z2 = Z95**2
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(max(p * (1 - p), 0.0) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # The score interval always holds p (at p0 = p the score is 0); min/max only undo rounding.
    return max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p))


MIN_N = 2  # the fewest values that give an interval: one game says nothing of the spread


def has_interval(n: int) -> bool:
    """Whether ``n`` values give a 95% interval (one game gives none)."""
    return n >= MIN_N


TOO_SMALL = "n too small"  # what a table shows in place of an interval under MIN_N values
TOO_SMALL_NOTE = f"ci_low and ci_high are null where n < {MIN_N}: one game gives no interval"


def cluster_share(x: np.ndarray, trials: int) -> tuple[float, float, float]:
    """A share measured per cluster (a tournament's deck: the share of the seats a strategy took on
    it that won), ``trials`` outcomes of 0 or 1 (ties shared) in all: (p, low, high), Wilson's
    interval at the effective number of trials whose binomial variance is the clusters' own (Kish's
    design effect), at most ``trials``. It stays inside [0, 1]; NaN bounds under two clusters."""
    x = np.asarray(x, np.float64).ravel()
    if x.size == 0:
        return math.nan, math.nan, math.nan
    p = float(x.mean())
    if not has_interval(x.size):
        return p, math.nan, math.nan
    var = float(x.var(ddof=1)) / x.size
    n_eff = p * (1 - p) / var if var > 0 and 0 < p < 1 else trials
    return (p, *wilson(min(max(p, 0.0), 1.0), min(max(n_eff, 1.0), trials)))


def p_two_sided(e: Estimate, null: float = 0.0) -> float:
    """The normal two-sided p-value of ``mean = null`` (a mean over many games); 1 when it is undefined."""
    if e.n < 2 or not math.isfinite(e.sd):
        return 1.0
    se = e.sd / math.sqrt(e.n)
    if se == 0:
        return 0.0 if e.mean != null else 1.0
    return math.erfc(abs(e.mean - null) / se / math.sqrt(2))


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given (family-wise error 5% against 0.05)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [1.0] * m
    running = 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (m - k) * pvalues[i]))
        out[i] = running
    return out


def proportion(successes: int, n: int) -> tuple[float, float, float]:
    """A share with its Wilson 95% interval: (p, low, high)."""
    if n == 0:
        return math.nan, math.nan, math.nan
    p = successes / n
    return (p, *wilson(p, n))


@dataclass
class Share(Estimate):
    """A share of games (each game counts 0 or 1, ties shared): the 95% CI is Wilson's."""

    @classmethod
    def of(cls, e: Estimate) -> Share:
        return cls(e.mean, e.sd, e.n)

    @property
    def low(self) -> float:
        return wilson(self.mean, self.n)[0] if self.n >= 2 else math.nan

    @property
    def high(self) -> float:
        return wilson(self.mean, self.n)[1] if self.n >= 2 else math.nan

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def exact_sums(x: np.ndarray) -> tuple[int | Fraction | float, int | Fraction | float]:
    """(sum x, sum x**2) exactly: integers as Python ints, other floats as Fractions.

    Exact sums add up to the same value in any grouping, so a run's figures are
    byte-identical whatever its chunk size, thread count or resumes.
    """
    x = np.asarray(x).ravel()
    if x.dtype == np.bool_:
        x = x.astype(np.int64)
    if x.dtype.kind == "f":
        if not np.isfinite(x).all():
            return math.nan, math.nan
        if (x == np.rint(x)).all() and (x.size == 0 or np.abs(x).max() < 2.0**31):
            x = x.astype(np.int64)
    if x.dtype.kind in "iu":
        big = int(np.abs(x.astype(np.int64)).max()) if x.size else 0
        if big < 2**31:
            step = max(1, (1 << 62) // max(big * big, 1))  # no int64 overflow within a block
            s1 = int(x.sum(dtype=np.int64))
            x64 = x.astype(np.int64)
            s2 = sum(int((x64[i : i + step] * x64[i : i + step]).sum()) for i in range(0, x.size, step))
            return s1, s2
        xo = x.astype(object)  # past 2**31 (never a study's column): Python ints
        return Fraction(int(xo.sum())), Fraction(int((xo * xo).sum()))
    if x.dtype.itemsize > 8:
        raise TypeError(f"exact sums of {x.dtype} are not supported")
    x = x.astype(np.float64, copy=False)
    one, two = _ExactSum(-53), _ExactSum(-106)
    for start in range(0, x.size, _BLOCK):
        m, e = _mantissas(x[start : start + _BLOCK])
        one.add(e, [(m, 0)])
        two.add(2 * e, _product_terms(m, m))
    return one.value(), two.value()


def exact_dot(x: np.ndarray, y: np.ndarray) -> int | Fraction:
    """sum(x * y) exactly (both finite): a Python int for integers, else a Fraction."""
    if x.dtype.kind in "iub" and y.dtype.kind in "iub":
        return int(np.dot(x.astype(object), y.astype(object))) if x.size else 0
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    total = _ExactSum(-106)
    for start in range(0, x.size, _BLOCK):
        (xm, xe), (ym, ye) = _mantissas(x[start : start + _BLOCK]), _mantissas(y[start : start + _BLOCK])
        total.add(xe + ye, _product_terms(xm, ym))
    return total.value()


_LOW = 27  # a 53-bit significand splits as hi * 2**27 + lo
_MASK = (1 << _LOW) - 1
# Values per block: its temporaries stay in cache, and bincount's sums in doubles of parts
# under 2**27 stay exact (under 2**53).
_BLOCK = 1 << 14


def _mantissas(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Finite doubles as x = m * 2**(e - 53) exactly: int64 m and e, |m| < 2**53."""
    m, e = np.frexp(x)
    return (m * 2.0**53).astype(np.int64), e.astype(np.int64)  # |m| < 1, 53 bits at most: exact


def _product_terms(a: np.ndarray, b: np.ndarray) -> list[tuple[np.ndarray, int]]:
    """a * b as (term, shift) pairs for :class:`_ExactSum`, each term under 2**54 (a, b under 2**53)."""
    ah, al, bh, bl = a >> _LOW, a & _MASK, b >> _LOW, b & _MASK
    if a is b:  # a square: the two cross terms are one, doubled
        return [(ah * ah, 2 * _LOW), (ah * al, _LOW + 1), (al * al, 0)]
    return [(ah * bh, 2 * _LOW), (ah * bl, _LOW), (al * bh, _LOW), (al * bl, 0)]


class _ExactSum:
    """sum of t * 2**(e + shift + bias) over blocks' values and (t, shift) terms, as one Python int.

    Grouped by exponent with bincount: the same Fraction as summing a Fraction per distinct value,
    without making them.
    """

    def __init__(self, bias: int) -> None:
        self.total, self.e0, self.bias = 0, 0, bias

    def add(self, e: np.ndarray, terms: list[tuple[np.ndarray, int]]) -> None:
        if e.size == 0:
            return
        e0 = int(e.min())
        k = (e - e0).astype(np.intp)
        bins = int(k.max()) + 1
        total = 0
        for t, shift in terms:
            high = np.bincount(k, t >> _LOW, bins)
            low = np.bincount(k, t & _MASK, bins)
            for b in np.flatnonzero((high != 0) | (low != 0)).tolist():
                total += ((int(high[b]) << _LOW) + int(low[b])) << (b + shift)
        if not self.total:
            self.e0 = e0
        elif e0 < self.e0:  # the sum's scale: the lowest exponent yet
            self.total <<= self.e0 - e0
            self.e0 = e0
        self.total += total << (e0 - self.e0)

    def value(self) -> Fraction:
        scale = self.e0 + self.bias
        return Fraction(self.total << scale) if scale >= 0 else Fraction(self.total, 1 << -scale)


def to_float(v: int | Fraction | float) -> float:
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf


class Moments:
    """Exact count, sum and sum of squares per named column, merged chunk by chunk.

    A run of 10**8 games needs memory for its summaries, not its rows; since the
    sums are exact, any split into chunks gives the same figures to the last bit.
    """

    def __init__(self) -> None:
        self.n: dict[str, int] = {}
        self.s1: dict[str, int | Fraction | float] = {}
        self.s2: dict[str, int | Fraction | float] = {}

    def _put(self, name: str, n: int, s1, s2) -> None:
        if name in self.n:
            self.n[name] += n
            self.s1[name] += s1
            self.s2[name] += s2
        else:
            self.n[name], self.s1[name], self.s2[name] = n, s1, s2

    def add(self, name: str, x: np.ndarray) -> None:
        x = np.asarray(x)
        if x.size == 0:
            return
        self._put(name, int(x.size), *exact_sums(x))

    def merge(self, other: Moments) -> None:
        for name in other.n:
            self._put(name, other.n[name], other.s1[name], other.s2[name])

    @property
    def mean(self) -> dict[str, float]:
        return {k: self.estimate(k).mean for k in self.n}

    @property
    def m2(self) -> dict[str, float]:
        """Sums of squared deviations from the mean."""
        return {k: to_float(_centred(self.s1[k], self.s2[k], self.n[k])) for k in self.n}

    def estimate(self, name: str) -> Estimate:
        n = self.n.get(name, 0)
        if n == 0:
            return Estimate(math.nan, math.nan, 0)
        s1, s2 = self.s1[name], self.s2[name]
        if isinstance(s1, float):
            return Estimate(math.nan, math.nan, n)
        mean = to_float(Fraction(s1) / n)
        sd = math.sqrt(to_float(max(_centred(s1, s2, n), 0) / (n - 1))) if n > 1 else math.nan
        return Estimate(mean, sd, n)

    def names(self) -> list[str]:
        return list(self.n)


def _centred(s1, s2, n: int):
    """Sum of squared deviations, exactly: s2 - s1**2 / n."""
    if isinstance(s1, float) or isinstance(s2, float):
        return math.nan
    return Fraction(s2) - Fraction(s1) * s1 / n
