"""What the Oh Hell studies share: the scorings in words, shares of rounds with Wilson's interval,
points with their interval, cells by their axis values.

Not a study (its name starts with ``_``): ohhell_hook and ohhell_scoring import it.
"""

from __future__ import annotations

from typing import Any

from ...core.stats import Estimate
from ..results import ExperimentResult, RatioShare, fmt_num
from ..spec import Cell, fmt_value

SCORING_WORDS = {
    "ten_plus_bid": 'the "10 + bid" scoring',
    "trick_plus_ten": 'the "a point a trick + 10" scoring',
    "minus_difference": 'the "minus the miss" scoring',
}
SCORING_SHORT = {
    "ten_plus_bid": "10 + bid",
    "trick_plus_ten": "a point a trick + 10",
    "minus_difference": "minus the miss",
}


def scoring_words(v: Any) -> str:
    s = fmt_value(v)
    return SCORING_WORDS.get(s, f"scoring {s}")


def scoring_short(v: Any) -> str:
    s = fmt_value(v)
    return SCORING_SHORT.get(s, s)


def cells_where(result: ExperimentResult, **coords: Any) -> list[Cell]:
    """The cells whose axes (by path, ``rules__hook``) have these values."""
    return [
        c
        for c in result.spec.cells
        if all(fmt_value(c.value(a.replace("__", "."))) == fmt_value(v) for a, v in coords.items())
    ]


def round_share(e: Estimate) -> RatioShare:
    """A figure that is each game's share of its rounds (every game has as many): the share of all
    rounds, with Wilson's interval at the effective number of rounds its spread gives."""
    return RatioShare.of(e)


def pct(e: Estimate, what: str = "games") -> str:
    """``31.2% (95% CI 30.9–31.5%, n=10,000 games)``."""
    m, lo, hi = (100 * v for v in (e.mean, e.low, e.high))
    d = 2 if hi - lo < 0.3 else 1  # a narrow interval keeps its digits
    return f"{m:.{d}f}% (95% CI {lo:.{d}f}–{hi:.{d}f}%, n={e.n:,} {what})"


def pp(e: Estimate, what: str = "games") -> str:
    """A change in a share: ``+3.4 percentage points (95% CI +3.2 to +3.6, n=10,000 games)``."""
    d = 2 if 100 * (e.high - e.low) < 0.3 else 1  # a narrow interval keeps its digits
    return (
        f"{100 * e.mean:+.{d}f} percentage points (95% CI {100 * e.low:+.{d}f} to {100 * e.high:+.{d}f}, "
        f"n={e.n:,} {what})"
    )


def pts(e: Estimate, unit: str, what: str = "games", signed: bool = False) -> str:
    """``-0.52 points per round (95% CI -0.55 to -0.49, n=10,000 games)``."""
    sign = "+" if signed and e.mean > 0 else ""
    return f"{sign}{fmt_num(e.mean)} {unit} (95% CI {fmt_num(e.low)} to {fmt_num(e.high)}, n={e.n:,} {what})"


def scaled(e: Estimate, k: float) -> Estimate:
    """The estimate times an exact constant (a per-round figure times the rounds of every game)."""
    return Estimate(k * e.mean, abs(k) * e.sd, e.n)
