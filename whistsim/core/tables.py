"""Tables (pandas) of estimates with their confidence intervals, and the words they are shown in."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .stats import TOO_SMALL, Estimate, Moments, Share, has_interval

if TYPE_CHECKING:
    import pandas as pd

    from .figures import Figure

COLUMNS = ["figure", "mean", "sd", "ci_low", "ci_high", "n"]


def is_share(f: Figure) -> bool:
    """Every game's value of ``f`` lies in [0, 1], by its declaration: a rate (0 or 1), or a share of
    games or of a game's deals (ties shared). Its interval is Wilson's, inside [0, 1]: Wilson's
    bounds hold for any mean of values in [0, 1], since a 0-or-1 value has the largest variance
    for its mean. A ratio of means is not a per-game mean, and "share of points" may leave [0, 1]."""
    return f.ratio is None and (f.rate or f.unit.startswith(("share of games", "share of deals")))


def share_columns(game: Any, names: list[str]) -> set[str]:
    """The columns among ``names`` whose figure in ``game`` (a :class:`~whistsim.games.Game`) is a share."""
    return {c for c in names if is_share(game.figure(c))}


def estimate_of(moments: Moments, name: str, shares: set[str] | frozenset[str] = frozenset()) -> Estimate:
    """A column's estimate; a share's carries Wilson's interval."""
    e = moments.estimate(name)
    return Share.of(e) if name in shares else e


def ci_text(low: float, high: float, n: int, fmt: str = ".4g", *, exact: bool = False) -> str:
    """A 95% CI for a table: ``[low, high]``; ``exact`` when the rules fix the value; "n too small"
    under two values (one game gives no interval, and never a zero-width one)."""
    if exact:
        return "exact"
    if not has_interval(n) or not (math.isfinite(low) and math.isfinite(high)):
        return TOO_SMALL
    return f"[{low:{fmt}}, {high:{fmt}}]"


def summary_table(
    moments: Moments, names: list[str] | None = None, shares: set[str] | None = None
) -> pd.DataFrame:
    """figure, mean, sd, ci_low, ci_high, n per column (shares: Wilson's CI; NaN bounds under two games)."""
    import pandas as pd  # imported here: the terminal summary needs no pandas (start-up time)

    rows = []
    for name in names or moments.names():
        e = estimate_of(moments, name, shares or set())
        rows.append([name, e.mean, e.sd, e.low, e.high, e.n])
    return pd.DataFrame(rows, columns=COLUMNS)


def format_summary(
    moments: Moments,
    names: list[str] | None = None,
    *,
    units: dict[str, str] | None = None,
    exact: set[str] | None = None,
    rates: set[str] | None = None,
) -> str:
    """Each figure's mean and 95% CI, for the terminal, with its unit when ``units`` are given.

    "exact" only for the figures in ``exact`` (constant by the rules); a figure that
    merely did not vary in this sample shows its zero-width interval. Figures in
    ``rates`` (shares: see :func:`is_share`) get Wilson's interval; under two games
    the CI column says "n too small".
    """
    names = names or moments.names()
    units = units or {}
    exact = exact or set()
    rates = rates or set()
    w = max([6, *map(len, names)])
    u = max([4, *(len(units.get(n, "")) for n in names)]) if units else 0
    unit_head = f" {'unit':<{u}}" if units else ""
    lines = [f"{'figure':<{w}}{unit_head} {'mean':>10} {'95% CI':>25} {'n':>11}"]
    for name in names:
        e = estimate_of(moments, name, rates)
        ci = ci_text(e.low, e.high, e.n, exact=name in exact)
        unit = f" {units.get(name, ''):<{u}}" if units else ""
        lines.append(f"{name:<{w}}{unit} {e.mean:>10.4g} {ci:>25} {e.n:>11,}")
    return "\n".join(lines)
