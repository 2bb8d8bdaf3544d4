"""Honest figures: means with 95% confidence intervals, merged chunk by chunk.

:class:`Moments` keeps (n, mean, M2) per column and merges batches with Chan's
formula, so a run of 10**8 games needs memory for its summaries, not its rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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


class Moments:
    """Streaming count, mean and sum of squared deviations for named columns."""

    def __init__(self) -> None:
        self.n: dict[str, int] = {}
        self.mean: dict[str, float] = {}
        self.m2: dict[str, float] = {}

    def add(self, name: str, x: np.ndarray) -> None:
        x = np.asarray(x, np.float64).ravel()
        nb = x.size
        if nb == 0:
            return
        mb = float(x.mean())
        m2b = float(((x - mb) ** 2).sum())
        na = self.n.get(name, 0)
        if na == 0:
            self.n[name], self.mean[name], self.m2[name] = nb, mb, m2b
            return
        ma, m2a = self.mean[name], self.m2[name]
        n = na + nb
        delta = mb - ma
        self.n[name] = n
        self.mean[name] = ma + delta * nb / n
        self.m2[name] = m2a + m2b + delta * delta * na * nb / n

    def merge(self, other: Moments) -> None:
        for name in other.n:
            n, m, m2 = other.n[name], other.mean[name], other.m2[name]
            na = self.n.get(name, 0)
            if na == 0:
                self.n[name], self.mean[name], self.m2[name] = n, m, m2
                continue
            tot = na + n
            delta = m - self.mean[name]
            self.mean[name] += delta * n / tot
            self.m2[name] += m2 + delta * delta * na * n / tot
            self.n[name] = tot

    def estimate(self, name: str) -> Estimate:
        n = self.n.get(name, 0)
        if n == 0:
            return Estimate(math.nan, math.nan, 0)
        sd = math.sqrt(self.m2[name] / (n - 1)) if n > 1 else math.nan
        return Estimate(self.mean[name], sd, n)

    def names(self) -> list[str]:
        return list(self.n)
