"""Verdicts from 95% confidence intervals: holds, does not hold, or undecided at this n."""

from __future__ import annotations

import math

from ..core.stats import Estimate

HOLDS = "holds"
FAILS = "does not hold"
UNDECIDED = "undecided at this n"


def equals(e: Estimate, value: float, tol: float) -> str:
    """The figure is ``value`` (within ``tol``): the whole CI inside, or wholly outside."""
    low, high = _ci(e)
    if low >= value - tol and high <= value + tol:
        return HOLDS
    if high < value - tol or low > value + tol:
        return FAILS
    return UNDECIDED


def positive(e: Estimate) -> str:
    """The figure is above 0: the CI excludes 0 on the right side."""
    low, high = _ci(e)
    if low > 0:
        return HOLDS
    if high < 0:
        return FAILS
    return UNDECIDED


def not_positive(e: Estimate) -> str:
    """The figure is at most 0 (e.g. cheating does not pay)."""
    low, high = _ci(e)
    if high <= 0:
        return HOLDS
    if low > 0:
        return FAILS
    return UNDECIDED


def at_most(e: Estimate, margin: float) -> str:
    """The figure is below ``margin`` (e.g. "little advantage": small, or none, or a loss)."""
    low, high = _ci(e)
    if high < margin:
        return HOLDS
    if low >= margin:
        return FAILS
    return UNDECIDED


def small(e: Estimate, margin: float) -> str:
    """|figure| < margin: the whole CI inside (-margin, margin), or wholly outside it."""
    low, high = _ci(e)
    if -margin < low and high < margin:
        return HOLDS
    if low >= margin or high <= -margin:
        return FAILS
    return UNDECIDED


def _ci(e: Estimate) -> tuple[float, float]:
    if e.n >= 2 and e.sd == 0:
        return e.mean, e.mean
    low, high = e.low, e.high
    if not (math.isfinite(low) and math.isfinite(high)):
        return -math.inf, math.inf
    return low, high


def combine(verdicts: list[str]) -> str:
    """All must hold; any failure fails; otherwise undecided."""
    if any(v == FAILS for v in verdicts):
        return FAILS
    if verdicts and all(v == HOLDS for v in verdicts):
        return HOLDS
    return UNDECIDED
