"""Tables (pandas) of estimates with their confidence intervals."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .stats import Moments

if TYPE_CHECKING:
    import pandas as pd

COLUMNS = ["figure", "mean", "sd", "ci_low", "ci_high", "n"]


def summary_table(moments: Moments, names: list[str] | None = None) -> pd.DataFrame:
    import pandas as pd  # imported here: the terminal summary needs no pandas (start-up time)

    rows = []
    for name in names or moments.names():
        e = moments.estimate(name)
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
    ``rates`` (shares of games) get Wilson's interval.
    """
    from .stats import Share

    names = names or moments.names()
    units = units or {}
    exact = exact or set()
    rates = rates or set()
    w = max([6, *map(len, names)])
    u = max([4, *(len(units.get(n, "")) for n in names)]) if units else 0
    unit_head = f" {'unit':<{u}}" if units else ""
    lines = [f"{'figure':<{w}}{unit_head} {'mean':>10} {'95% CI':>25} {'n':>11}"]
    for name in names:
        e = moments.estimate(name)
        if name in rates:
            e = Share.of(e)
        ci = "exact" if name in exact else f"[{e.low:.4g}, {e.high:.4g}]"
        unit = f" {units.get(name, ''):<{u}}" if units else ""
        lines.append(f"{name:<{w}}{unit} {e.mean:>10.4g} {ci:>25} {e.n:>11,}")
    return "\n".join(lines)
