"""What the Scotch Whist studies share: shares with Wilson's interval, tests, Holm, sentences.

Not a study (its name starts with ``_``): scotch_ten, scotch_seats, scotch_revokes,
scotch_points and french import it.
"""

from __future__ import annotations

from typing import Any

from ...core.stats import Estimate, Share
from ..results import ChartSeries, ExperimentResult, fmt_num
from ..spec import Cell, fmt_value


def share(result: ExperimentResult, cell: Cell, figure: str) -> Share:
    """A figure whose every game is 0 or 1, as a share with Wilson's interval."""
    return Share.of(result.estimate(cell.index, figure))


def pct(e: Estimate, what: str = "deals", scale: float = 1.0) -> str:
    """``31.2% (95% CI 30.9–31.5%, n=100,000 deals)``; ``scale`` multiplies mean and bounds."""
    m, lo, hi = (100 * scale * v for v in (e.mean, e.low, e.high))
    d = 2 if hi - lo < 0.3 else 1  # enough digits that a narrow interval does not print as a point
    return f"{_p(m, d)}% (95% CI {_p(lo, d)}–{_p(hi, d)}%, n={e.n:,} {what})"


def pts(e: Estimate, unit: str, what: str = "deals", signed: bool = False) -> str:
    """``+1.23 points per deal (95% CI 1.10 to 1.36, n=60,000 deals)``."""
    sign = "+" if signed and e.mean > 0 else ""
    return f"{sign}{fmt_num(e.mean)} {unit} (95% CI {fmt_num(e.low)} to {fmt_num(e.high)}, n={e.n:,} {what})"


def _p(x: float, digits: int = 1) -> str:
    return f"{x:.{digits}f}" if abs(x) >= 1 or x == 0 else f"{x:.{max(digits, 2)}f}"


def cells_where(result: ExperimentResult, **coords: Any) -> list[Cell]:
    """The cells whose axes (by path) have these values."""
    return [
        c
        for c in result.spec.cells
        if all(fmt_value(c.value(a.replace("__", "."))) == fmt_value(v) for a, v in coords.items())
    ]


def line(label: str, xs: list, ests: list[Estimate], scale: float = 1.0) -> ChartSeries:
    """A chart series of estimates, scaled (100 for percentages)."""
    return ChartSeries(
        label,
        list(xs),
        [scale * e.mean for e in ests],
        [scale * e.low for e in ests],
        [scale * e.high for e in ests],
    )
