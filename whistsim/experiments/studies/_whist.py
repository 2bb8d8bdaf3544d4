"""What the Whist studies share: shares in percent, paired changes, Holm's adjustment."""

from __future__ import annotations

import math
from typing import Any

from ...core.stats import Estimate, Share
from ..results import ChartSeries, ExperimentResult, fmt_num
from ..spec import Cell, fmt_value


def pct(e: Estimate, what: str = "", n_of: str = "games") -> str:
    """``31.2% of games to 10 (95% CI 30.9–31.5%, n=100,000 games)``: a share (Wilson's interval
    when a Share), ``what`` after the figure."""
    w = f" {what}" if what else ""
    if e.n < 2 or not math.isfinite(e.low):
        return f"{100 * e.mean:.1f}%{w} (n={e.n:,} {n_of})"
    return f"{100 * e.mean:.1f}%{w} (95% CI {100 * e.low:.1f}–{100 * e.high:.1f}%, n={e.n:,} {n_of})"


def span(values: list[float], unit: str = "%") -> str:
    """``40%`` when the values round alike, else ``24–31%`` (values are shares)."""
    lo, hi = round(100 * min(values)), round(100 * max(values))
    return f"{lo}{unit}" if lo == hi else f"{lo}–{hi}{unit}"


def num(e: Estimate, unit: str, n_of: str = "games") -> str:
    """``6.12 deals (95% CI 6.08–6.16, n=20,000 games)``."""
    if e.n < 2 or not math.isfinite(e.low):
        return f"{fmt_num(e.mean)} {unit} (n={e.n:,} {n_of})"
    return f"{fmt_num(e.mean)} {unit} (95% CI {fmt_num(e.low)} to {fmt_num(e.high)}, n={e.n:,} {n_of})"


def share(result: ExperimentResult, cell: int, figure: str) -> Share:
    return Share.of(result.estimate(cell, figure))


def changed(result: ExperimentResult, cell: int, figure: str) -> Share | None:
    """The share of games in which a 0/1 figure differs between ``cell`` and its baseline on the
    same deals: the mean of the squared per-game differences."""
    for j, p in enumerate(result.spec.pairs):
        if p.cell != cell:
            continue
        m = result.tally.paired[j]
        n = m.n.get(figure, 0)
        if not n or isinstance(m.s2[figure], float):
            return None
        p_ = float(m.s2[figure]) / n
        return Share(p_, math.sqrt(max(p_ * (1 - p_), 0.0)), n)
    return None


def find(result: ExperimentResult, coords: dict[str, Any]) -> Cell | None:
    """The one cell with these axis values (``{"rules.target": 10}``), or None."""
    out = [
        c for c in result.spec.cells if all(fmt_value(c.value(a)) == fmt_value(v) for a, v in coords.items())
    ]
    return out[0] if len(out) == 1 else None


def pct_series(label: str, points: list[tuple[Any, Estimate]]) -> ChartSeries:
    """A chart series of shares as percentages, each point with its 95% CI."""
    s = ChartSeries(label, [], [], [], [])
    for x, e in points:
        s.x.append(x)
        s.y.append(100 * e.mean)
        s.low.append(100 * e.low)
        s.high.append(100 * e.high)
    return s
